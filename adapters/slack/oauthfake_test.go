package slack

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"
)

// The fake Slack's side of many workspaces: teams with their own bot tokens, the authorize page and
// oauth.v2.access, tokens checked on every call, and the app_uninstalled and tokens_revoked events.

// fakeTeam is a workspace of the fake Slack.
type fakeTeam struct {
	id, name string
	bot      string // the app's bot user there
	token    string // the bot token issued at the last install ("" before)
}

// grant is a code the authorize page gave: for which team, when, whether oauth.v2.access took it.
type grant struct {
	team   string
	user   string
	issued time.Time
	used   bool
}

// tokenUse is one Web API call's token: the team that token is of (Team, "" when Slack never issued
// it), the team of the channel, user or trigger the call names (Target, "" when it names none), and
// Slack's refusal ("" when the call was let through).
type tokenUse struct {
	Method, Token, Team, Target, Refused string
}

// codeLife is how long an OAuth code may be exchanged (Slack: 10 minutes).
const codeLife = 10 * time.Minute

// app sets the app's credentials that oauth.v2.access accepts.
func (f *fakeSlack) app(clientID, secret string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.clientID, f.clientSecret = clientID, secret
}

// addTeam adds a workspace with the app's bot user, its users (each with a DM channel "D"+user) and
// channels. From the first team on, every call's token is checked (authed).
func (f *fakeSlack) addTeam(id, name, bot string, users, channels []string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.teams[id] = &fakeTeam{id: id, name: name, bot: bot}
	for _, u := range users {
		f.teamOf[u], f.teamOf["D"+u] = id, id
	}
	for _, c := range channels {
		f.teamOf[c] = id
	}
}

// budget is the rate-limit bucket of the workspace of channel: one for the single workspace, one per
// team once there are teams. f.mu is held.
func (f *fakeSlack) budget(by map[string]*tokens, one *tokens, channel string, burst, rate float64) *tokens {
	if len(f.teams) == 0 {
		return one
	}
	team := f.teamOf[channel]
	if by[team] == nil {
		by[team] = &tokens{burst: burst, rate: rate}
	}
	return by[team]
}

// authed checks the token of a Web API call once the fake has teams, as Slack does, and records it.
func (f *fakeSlack) authed(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		f.mu.Lock()
		multi := len(f.teams) > 0
		f.mu.Unlock()
		if !multi {
			h(w, r)
			return
		}
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		token := strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
		named := map[string]string{}
		if strings.HasPrefix(r.Header.Get("Content-Type"), "application/json") {
			var v struct {
				TriggerID string `json:"trigger_id"`
			}
			_ = json.Unmarshal(body, &v)
			named["trigger_id"] = v.TriggerID
		} else if v, err := url.ParseQuery(string(body)); err == nil {
			if token == "" {
				token = v.Get("token")
			}
			for _, k := range []string{"channel", "channel_id", "user", "users"} {
				named[k] = v.Get(k)
			}
		}
		f.mu.Lock()
		use := tokenUse{Method: strings.TrimPrefix(r.URL.Path, "/"), Token: token, Team: f.tokens[token]}
		for _, k := range []string{"channel", "channel_id", "users", "user", "trigger_id"} {
			if t, ok := f.teamOf[named[k]]; ok && named[k] != "" {
				use.Target = t
				if use.Team != "" && t != use.Team && use.Refused == "" {
					use.Refused = map[bool]string{true: "user_not_found", false: "channel_not_found"}[strings.HasPrefix(k, "user")]
					if k == "trigger_id" {
						use.Refused = "invalid_trigger_id"
					}
				}
			}
		}
		switch {
		case use.Team == "":
			use.Refused = "invalid_auth"
		case f.revoked[token]:
			use.Refused = "token_revoked"
		}
		f.uses = append(f.uses, use)
		if use.Refused != "" {
			f.calls = append(f.calls, call{Method: use.Method + " (" + use.Refused + ")", Channel: named["channel"], At: time.Now()})
		}
		f.mu.Unlock()
		if use.Refused != "" {
			f.json(w, map[string]any{"ok": false, "error": use.Refused})
			return
		}
		h(w, r)
	}
}

// tokenUses returns the token of every Web API call so far.
func (f *fakeSlack) tokenUses() []tokenUse {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]tokenUse(nil), f.uses...)
}

// approve plays the authorize page: installer (of team) allows the app that authorize (the URL the
// dealer sent the browser to) asks for. It checks the request as Slack does and returns what Slack
// sends the browser back to the redirect URL with: a new code and the state. A request Slack would
// refuse fails the test.
func (f *fakeSlack) approve(authorize *url.URL, team, installer string) url.Values {
	f.t.Helper()
	q := authorize.Query()
	if got := authorize.Scheme + "://" + authorize.Host + authorize.Path; got != "https://slack.com/oauth/v2/authorize" {
		f.t.Fatalf("the install link goes to %s, not Slack's authorize page", got)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if q.Get("client_id") != f.clientID {
		f.t.Fatalf("the install link names client_id %q, the app's is %q", q.Get("client_id"), f.clientID)
	}
	for _, s := range Scopes {
		if !slices.Contains(strings.Split(q.Get("scope"), ","), s) {
			f.t.Fatalf("the install link does not ask for the scope %s: %q", s, q.Get("scope"))
		}
	}
	if q.Get("state") == "" {
		f.t.Fatal("the install link has no state")
	}
	if f.teams[team] == nil {
		f.t.Fatalf("no team %s", team)
	}
	f.oauthSeq++
	code := fmt.Sprintf("code-%d", f.oauthSeq)
	f.codes[code] = &grant{team: team, user: installer, issued: f.now()}
	return url.Values{"code": {code}, "state": {q.Get("state")}}
}

// oauthAccess is oauth.v2.access: a code the authorize page gave, exchanged once within 10 minutes,
// by the app whose credentials it is, for the team's bot token.
func (f *fakeSlack) oauthAccess(w http.ResponseWriter, r *http.Request) {
	v := form(r)
	f.mu.Lock()
	defer f.mu.Unlock()
	refuse := func(code string) {
		f.calls = append(f.calls, call{Method: "oauth.v2.access (" + code + ")", At: time.Now()})
		f.json(w, map[string]any{"ok": false, "error": code})
	}
	g := f.codes[v.Get("code")]
	switch {
	case v.Get("client_id") != f.clientID:
		refuse("invalid_client_id")
		return
	case v.Get("client_secret") != f.clientSecret:
		refuse("bad_client_secret")
		return
	case v.Get("redirect_uri") != "":
		refuse("bad_redirect_uri") // the authorize page got none: the exchange may name none either
		return
	case g == nil || g.used || f.now().Sub(g.issued) > codeLife:
		refuse("invalid_code")
		return
	}
	g.used = true
	t := f.teams[g.team]
	if t.token == "" || f.revoked[t.token] {
		f.oauthSeq++
		t.token = fmt.Sprintf("xoxb-%s-%d", t.id, f.oauthSeq)
		f.tokens[t.token] = t.id
	}
	f.calls = append(f.calls, call{Method: "oauth.v2.access", Channel: t.id, At: time.Now()})
	f.json(w, map[string]any{"ok": true, "access_token": t.token, "token_type": "bot", "scope": strings.Join(f.scopes, ","),
		"bot_user_id": t.bot, "app_id": "A1", "team": map[string]any{"id": t.id, "name": t.name},
		"enterprise": nil, "is_enterprise_install": false, "authed_user": map[string]any{"id": g.user}})
}

// token is the bot token a team was issued.
func (f *fakeSlack) token(team string) string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.teams[team].token
}

// revoke makes Slack refuse a team's bot token from now on (token_revoked), as an uninstall or a
// revocation does.
func (f *fakeSlack) revoke(team string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.revoked[f.teams[team].token] = true
}

// uninstalled removes the app from a team (its token is revoked) and returns the app_uninstalled
// event Slack sends.
func (f *fakeSlack) uninstalled(team string) string {
	f.revoke(team)
	return f.eventBody(team, map[string]any{"type": "app_uninstalled"})
}

// tokensRevoked revokes the bot tokens of bots in team and returns the tokens_revoked event.
func (f *fakeSlack) tokensRevoked(team string, bots ...string) string {
	f.mu.Lock()
	if t := f.teams[team]; slices.Contains(bots, t.bot) {
		f.revoked[t.token] = true
	}
	f.mu.Unlock()
	return f.eventBody(team, map[string]any{"type": "tokens_revoked", "tokens": map[string]any{"oauth": []string{}, "bot": bots}})
}

// eventBody is an Events API event_callback of team carrying event.
func (f *fakeSlack) eventBody(team string, event map[string]any) string {
	f.mu.Lock()
	f.oauthSeq++
	id := fmt.Sprintf("Ev%06d", f.oauthSeq)
	f.mu.Unlock()
	b, _ := json.Marshal(map[string]any{"token": "verification-token-unused", "team_id": team, "api_app_id": "A1", "event": event,
		"type": "event_callback", "event_id": id, "event_time": time.Now().Unix()})
	return string(b)
}
