package slack

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"

	"github.com/dealerbot/dealerbot/bot"
)

// Scopes are the bot token scopes dealerbot uses (manifest.yml): all but files:write are needed to
// play; without files:write, exports and showdown pictures are skipped.
var Scopes = []string{"commands", "chat:write", "im:write", "users:read", "files:write"}

// Check tells an operator, in sentences, whether the bot can run with cfg: the bot token works and
// has the scopes dealerbot uses, and, in Socket Mode, the app-level token opens a connection; for many
// workspaces, that Slack accepts the app's client ID and secret, and where to point the app. It reads
// only; client is the HTTP client to reach Slack with (nil: the default).
func Check(ctx context.Context, cfg Config, client *http.Client) []bot.Finding {
	if client == nil {
		client = http.DefaultClient
	}
	api := cfg.APIURL
	if api == "" {
		api = "https://slack.com/api/"
	}
	if cfg.Mode() == OAuthMode {
		return checkOAuth(ctx, cfg, client, api)
	}
	var out []bot.Finding
	var auth struct {
		OK    bool   `json:"ok"`
		Error string `json:"error"`
		User  string `json:"user"`
		Team  string `json:"team"`
	}
	header, err := callMethod(ctx, client, api+"auth.test", cfg.BotToken, &auth)
	switch {
	case err != nil:
		return append(out, bot.Finding{Text: fmt.Sprintf("Slack could not be reached to check SLACK_BOT_TOKEN: %v. Check the machine's network and try again.", err)})
	case !auth.OK:
		return append(out, bot.Finding{Text: fmt.Sprintf("Slack refuses SLACK_BOT_TOKEN (%s): copy the Bot User OAuth Token (xoxb-...) from your app's OAuth & Permissions page again; "+
			"if the app was never installed, click Install to Workspace there first.", auth.Error)})
	}
	out = append(out, bot.Finding{OK: true, Text: fmt.Sprintf("SLACK_BOT_TOKEN works: the bot is @%s in %s.", auth.User, auth.Team)})
	granted := map[string]bool{}
	for _, s := range strings.Split(header.Get("X-OAuth-Scopes"), ",") {
		granted[strings.TrimSpace(s)] = true
	}
	var missing []string
	for _, s := range Scopes {
		if !granted[s] {
			missing = append(missing, s)
		}
	}
	switch {
	case len(missing) == 0:
		out = append(out, bot.Finding{OK: true, Text: "The app has every scope dealerbot uses (" + strings.Join(Scopes, ", ") + ")."})
	case len(missing) == 1 && missing[0] == "files:write":
		out = append(out, bot.Finding{OK: true, Text: "The app lacks files:write: exports and showdown pictures are skipped. To have them, add files:write under " +
			"OAuth & Permissions > Scopes > Bot Token Scopes, then click Reinstall to Workspace."})
	default:
		out = append(out, bot.Finding{Text: fmt.Sprintf("The app lacks the scopes %s: add them under OAuth & Permissions > Scopes > Bot Token Scopes "+
			"(or create the app from manifest.yml), then click Reinstall to Workspace.", strings.Join(missing, ", "))})
	}
	switch cfg.Mode() {
	case SocketMode:
		var open struct {
			OK    bool   `json:"ok"`
			Error string `json:"error"`
		}
		if _, err := callMethod(ctx, client, api+"apps.connections.open", cfg.AppToken, &open); err != nil || !open.OK {
			why := open.Error
			if err != nil {
				why = err.Error()
			}
			out = append(out, bot.Finding{Text: fmt.Sprintf("Socket Mode does not open (%s): turn Socket Mode on under Settings > Socket Mode, and generate SLACK_APP_TOKEN "+
				"under Basic Information > App-Level Tokens with the connections:write scope.", why)})
		} else {
			out = append(out, bot.Finding{OK: true, Text: "Socket Mode opens with SLACK_APP_TOKEN: no public address is needed."})
		}
	case HTTPMode:
		out = append(out, bot.Finding{OK: true, Text: fmt.Sprintf("HTTP mode: Slack must reach this machine on %s over HTTPS; set the Request URL of /poker "+
			"(Slash Commands) and of Interactivity & Shortcuts to that address.", cfg.ListenAddr)})
	}
	return out
}

// callMethod posts to a Slack method with token and reads its JSON answer into v, returning the headers.
func callMethod(ctx context.Context, client *http.Client, method, token string, v any) (http.Header, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, method, strings.NewReader(url.Values{}.Encode()))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	res, err := client.Do(req)
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	body, err := io.ReadAll(io.LimitReader(res.Body, 1<<20))
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(body, v); err != nil {
		return nil, fmt.Errorf("%s answered %s", method, res.Status)
	}
	return res.Header, nil
}

// checkOAuth checks the app's credentials without installing anything: oauth.v2.access with a code
// that does not exist is refused for a wrong client ID or secret before the code is looked at.
func checkOAuth(ctx context.Context, cfg Config, client *http.Client, api string) []bot.Finding {
	var out []bot.Finding
	var resp struct {
		OK    bool   `json:"ok"`
		Error string `json:"error"`
	}
	form := url.Values{"client_id": {cfg.ClientID}, "client_secret": {cfg.ClientSecret}, "code": {"dealerbot-check"}}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, api+"oauth.v2.access", strings.NewReader(form.Encode()))
	if err == nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		var res *http.Response
		if res, err = client.Do(req); err == nil {
			err = json.NewDecoder(io.LimitReader(res.Body, 1<<20)).Decode(&resp)
			res.Body.Close()
		}
	}
	switch {
	case err != nil:
		return append(out, bot.Finding{Text: fmt.Sprintf("Slack could not be reached to check SLACK_CLIENT_ID and SLACK_CLIENT_SECRET: %v. Check the machine's network and try again.", err)})
	case resp.Error == "invalid_client_id":
		out = append(out, bot.Finding{Text: "Slack does not know SLACK_CLIENT_ID: copy the Client ID from your app's Basic Information > App Credentials."})
	case resp.Error == "bad_client_secret":
		out = append(out, bot.Finding{Text: "SLACK_CLIENT_SECRET is not the app's: copy the Client Secret from Basic Information > App Credentials (Show)."})
	default: // invalid_code: the credentials passed
		out = append(out, bot.Finding{OK: true, Text: "Slack accepts SLACK_CLIENT_ID and SLACK_CLIENT_SECRET."})
	}
	return append(out, bot.Finding{OK: true, Text: fmt.Sprintf("Many workspaces: Slack must reach this machine on %s over HTTPS. In the app's settings set "+
		"OAuth & Permissions > Redirect URLs to https://YOUR-HOST/slack/oauth/callback; the Request URL of /poker (Slash Commands), of Interactivity & Shortcuts "+
		"and of Event Subscriptions (bot events app_uninstalled and tokens_revoked) to https://YOUR-HOST/slack/events; turn Socket Mode off. "+
		"Workspaces install the app at https://YOUR-HOST/slack/install.", cfg.ListenAddr)})
}
