package slack

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"html"
	"net/http"
	"net/url"
	"strings"
	"time"

	slackapi "github.com/slack-go/slack"

	"github.com/dealerbot/dealerbot/bot"
)

// Installing the app in a workspace (OAuth mode), as Slack's OAuth v2 has it:
//
//  1. GET /slack/install sends the browser to Slack's authorize page with the app's client ID, the bot
//     scopes and a state, which the browser also keeps in a cookie.
//  2. The workspace's admin allows the app; Slack sends the browser back to GET /slack/oauth/callback
//     with a code and the state.
//  3. The state is checked (made here, unchanged, at most 10 minutes old, used once, from the browser
//     that started), then the code is exchanged for the workspace's bot token (oauth.v2.access), which
//     is stored sealed with the workspace's installation. A refused state spends no code and stores
//     nothing.
//
// The state is signed rather than remembered, so any process holding DEALERBOT_SECRET_KEY can check
// it; that it is used once is remembered by the process that checks it, and the cookie is cleared.

// authorizeURL is Slack's authorize page.
const authorizeURL = "https://slack.com/oauth/v2/authorize"

const (
	stateTTL    = 10 * time.Minute
	stateCookie = "dealerbot_slack_state"
	nonceLen    = 16
	stateLen    = nonceLen + 8 + sha256.Size
)

// The ways a state is refused, each a sentence for the browser.
var (
	errStateInvalid = errors.New("this install link is not valid (it was changed, or it is not from this dealerbot)")
	errStateExpired = errors.New("this install link has expired: links last 10 minutes")
	errStateUsed    = errors.New("this install link was used already")
	errStateBrowser = errors.New("this install was started in another browser, or cookies are blocked")
)

// stateKey derives the key that signs states from the secret key, so the key that seals tokens is
// used for nothing else.
func stateKey(secret []byte) []byte {
	m := hmac.New(sha256.New, secret)
	m.Write([]byte("dealerbot slack oauth state"))
	return m.Sum(nil)
}

// newState returns a state valid until now+stateTTL and the nonce for the browser's cookie.
func (a *Adapter) newState() (state, cookie string, err error) {
	b := make([]byte, stateLen)
	if _, err := rand.Read(b[:nonceLen]); err != nil {
		return "", "", err
	}
	binary.BigEndian.PutUint64(b[nonceLen:], uint64(a.now().Add(stateTTL).Unix()))
	m := hmac.New(sha256.New, a.stateKey)
	m.Write(b[:nonceLen+8])
	copy(b[nonceLen+8:], m.Sum(nil))
	enc := base64.RawURLEncoding
	return enc.EncodeToString(b), enc.EncodeToString(b[:nonceLen]), nil
}

// checkState checks a state coming back with its browser's cookie and marks it used.
func (a *Adapter) checkState(state, cookie string) error {
	b, err := base64.RawURLEncoding.DecodeString(state)
	if err != nil || len(b) != stateLen {
		return errStateInvalid
	}
	m := hmac.New(sha256.New, a.stateKey)
	m.Write(b[:nonceLen+8])
	if !hmac.Equal(m.Sum(nil), b[nonceLen+8:]) {
		return errStateInvalid
	}
	expires := time.Unix(int64(binary.BigEndian.Uint64(b[nonceLen:])), 0)
	now := a.now()
	if !now.Before(expires) {
		return errStateExpired
	}
	nonce := base64.RawURLEncoding.EncodeToString(b[:nonceLen])
	if subtle.ConstantTimeCompare([]byte(cookie), []byte(nonce)) != 1 {
		return errStateBrowser
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if !firstSight(a.states, nonce, now, expires) {
		return errStateUsed
	}
	return nil
}

// install answers GET /slack/install: the browser goes to Slack's authorize page.
func (a *Adapter) install(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		http.Error(w, "open this address in a browser to install dealerbot", http.StatusMethodNotAllowed)
		return
	}
	state, nonce, err := a.newState()
	if err != nil {
		a.log.Error("slack: could not make an install state", "err", err)
		page(w, http.StatusInternalServerError, "Something went wrong on dealerbot's side. Try again in a moment.")
		return
	}
	http.SetCookie(w, &http.Cookie{Name: stateCookie, Value: nonce, Path: "/slack/oauth", MaxAge: int(stateTTL / time.Second),
		HttpOnly: true, Secure: true, SameSite: http.SameSiteLaxMode})
	q := url.Values{"client_id": {a.cfg.ClientID}, "scope": {strings.Join(Scopes, ",")}, "state": {state}}
	w.Header().Set("Cache-Control", "no-store")
	http.Redirect(w, r, authorizeURL+"?"+q.Encode(), http.StatusFound)
}

// callback answers GET /slack/oauth/callback: Slack's answer to the authorize page.
func (a *Adapter) callback(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-store")
	if r.Method != http.MethodGet {
		http.Error(w, "Slack sends the browser here with GET", http.StatusMethodNotAllowed)
		return
	}
	q := r.URL.Query()
	// The cookie has done its work whatever happens next: a state is good for one try.
	http.SetCookie(w, &http.Cookie{Name: stateCookie, Value: "", Path: "/slack/oauth", MaxAge: -1, HttpOnly: true, Secure: true, SameSite: http.SameSiteLaxMode})
	if e := q.Get("error"); e != "" {
		page(w, http.StatusOK, "dealerbot was not installed: Slack says "+e+". Nothing was changed.")
		return
	}
	cookie := ""
	if c, err := r.Cookie(stateCookie); err == nil {
		cookie = c.Value
	}
	if err := a.checkState(q.Get("state"), cookie); err != nil {
		a.log.Warn("slack: refused an install callback", "remote", r.RemoteAddr, "err", err)
		page(w, http.StatusBadRequest, capitalize(err.Error())+". Nothing was installed: start again at /slack/install.")
		return
	}
	code := q.Get("code")
	if code == "" {
		page(w, http.StatusBadRequest, "Slack sent no code. Nothing was installed: start again at /slack/install.")
		return
	}
	in, err := a.exchange(r.Context(), code)
	if err != nil {
		var pe pageError
		if errors.As(err, &pe) {
			a.log.Warn("slack: an install failed", "err", err)
			page(w, pe.status, pe.text)
			return
		}
		a.log.Error("slack: an install failed", "err", err)
		page(w, http.StatusBadGateway, "dealerbot could not finish the installation (Slack or its database did not answer). Nothing was installed: try again in a moment at /slack/install.")
		return
	}
	page(w, http.StatusOK, fmt.Sprintf("dealerbot is installed in %s. In Slack, invite it to a channel (/invite @dealerbot) and type /poker start.", in.Name))
}

// pageError is an install failure with the page to show.
type pageError struct {
	status int
	text   string
	err    error
}

func (e pageError) Error() string { return e.err.Error() }

// exchange trades a code for the workspace's bot token (oauth.v2.access) and stores the installation,
// the token sealed.
func (a *Adapter) exchange(ctx context.Context, code string) (bot.Installation, error) {
	var opts []slackapi.OAuthOption
	if a.cfg.APIURL != "" {
		opts = append(opts, slackapi.OAuthOptionAPIURL(a.cfg.APIURL))
	}
	resp, err := slackapi.GetOAuthV2ResponseContext(ctx, a.oauthWeb, a.cfg.ClientID, a.cfg.ClientSecret, code, "", opts...)
	var se slackapi.SlackErrorResponse
	switch {
	case errors.As(err, &se) && (se.Err == "invalid_code" || se.Err == "code_already_used" || se.Err == "code_expired"):
		return bot.Installation{}, pageError{http.StatusBadRequest, "Slack no longer accepts this install link's code (" + se.Err + "). Nothing was installed: start again at /slack/install.", err}
	case errors.As(err, &se) && (se.Err == "invalid_client_id" || se.Err == "bad_client_secret" || se.Err == "bad_redirect_uri"):
		a.log.Error("slack: Slack refuses the app's credentials: check SLACK_CLIENT_ID and SLACK_CLIENT_SECRET (Basic Information > App Credentials) "+
			"and the Redirect URL (OAuth & Permissions: https://YOUR-HOST/slack/oauth/callback)", "err", se.Err)
		return bot.Installation{}, pageError{http.StatusInternalServerError, "dealerbot's Slack app is not set up right (" + se.Err + "): tell whoever runs it. Nothing was installed.", err}
	case err != nil:
		return bot.Installation{}, fmt.Errorf("oauth.v2.access: %w", err)
	case resp.IsEnterpriseInstall || resp.Team.ID == "":
		return bot.Installation{}, pageError{http.StatusBadRequest, "dealerbot is installed in one workspace at a time, not in a whole Enterprise Grid organization. Nothing was installed.", errors.New("an organization-wide install")}
	case resp.TokenType != "bot" || !strings.HasPrefix(resp.AccessToken, "xoxb-"):
		return bot.Installation{}, pageError{http.StatusBadGateway, "Slack gave no bot token: the app needs a bot user and bot scopes (create it from manifest.yml). Nothing was installed.",
			fmt.Errorf("oauth.v2.access gave a %q token", resp.TokenType)}
	}
	sealed, err := a.sealer.seal(resp.Team.ID, resp.AccessToken)
	if err != nil {
		return bot.Installation{}, err
	}
	in := bot.Installation{Platform: platform, Workspace: resp.Team.ID, Name: resp.Team.Name, BotUser: resp.BotUserID,
		Scopes: splitScopes(resp.Scope), Token: sealed, InstalledBy: resp.AuthedUser.ID, Installed: a.now().UTC()}
	if err := a.installs.PutInstallation(ctx, in); err != nil {
		return bot.Installation{}, fmt.Errorf("store the installation of %s: %w", in.Workspace, err)
	}
	a.installed(in, resp.AccessToken)
	a.log.Info("slack: installed in a workspace", "team", in.Workspace, "name", in.Name, "scopes", strings.Join(in.Scopes, ","))
	return in, nil
}

func splitScopes(s string) []string {
	var out []string
	for _, sc := range strings.Split(s, ",") {
		if sc = strings.TrimSpace(sc); sc != "" {
			out = append(out, sc)
		}
	}
	return out
}

// page answers the browser with one sentence.
func page(w http.ResponseWriter, status int, text string) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	fmt.Fprintf(w, "<!doctype html><meta charset=utf-8><title>dealerbot</title><p>%s</p>\n", html.EscapeString(text))
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
