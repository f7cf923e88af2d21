package slack

import (
	"context"
	"testing"

	"github.com/dealerbot/dealerbot/bot/bottest"
)

// TestCheck: the health check says, in sentences, what works and what to click for what is missing: a
// refused bot token, missing scopes (files:write only costs exports and pictures), a Socket Mode
// connection that does not open, an app's client ID or secret that Slack does not accept.
func TestCheck(t *testing.T) {
	socket := Config{BotToken: "xoxb-1", AppToken: "xapp-1"}
	oauth := Config{ClientID: "1.2", ClientSecret: "shh", SigningSecret: "s", ListenAddr: ":3000", SecretKey: testKey}
	tests := []struct {
		name  string
		cfg   Config
		setup func(*fakeSlack)
		want  []string // each a part of one finding, in order; a leading "✗ " marks a missing one
	}{
		{"everything in place", socket, func(*fakeSlack) {},
			[]string{"SLACK_BOT_TOKEN works: the bot is @dealerbot in Home game", "has every scope", "Socket Mode opens"}},
		{"a refused bot token", socket, func(f *fakeSlack) { f.tokenFails = true },
			[]string{"✗ Slack refuses SLACK_BOT_TOKEN (invalid_auth): copy the Bot User OAuth Token"}},
		{"no files:write", socket, func(f *fakeSlack) { f.scopes = []string{"commands", "chat:write", "im:write", "users:read"} },
			[]string{"works", "lacks files:write: exports and showdown pictures are skipped", "Socket Mode opens"}},
		{"scopes missing", socket, func(f *fakeSlack) { f.scopes = []string{"commands"} },
			[]string{"works", "✗ The app lacks the scopes chat:write, im:write, users:read, files:write: add them under OAuth & Permissions", "Socket Mode opens"}},
		{"Socket Mode refused", socket, func(f *fakeSlack) { f.authFails = true },
			[]string{"works", "has every scope", "✗ Socket Mode does not open (invalid_auth): turn Socket Mode on under Settings > Socket Mode"}},
		{"HTTP mode", Config{BotToken: "xoxb-1", SigningSecret: "s", ListenAddr: ":3000"}, func(*fakeSlack) {},
			[]string{"works", "has every scope", "HTTP mode: Slack must reach this machine on :3000"}},
		{"many workspaces", oauth, func(f *fakeSlack) { f.clientID, f.clientSecret = "1.2", "shh" },
			[]string{"Slack accepts SLACK_CLIENT_ID and SLACK_CLIENT_SECRET", "Many workspaces: Slack must reach this machine on :3000 over HTTPS. " +
				"In the app's settings set OAuth & Permissions > Redirect URLs to https://YOUR-HOST/slack/oauth/callback"}},
		{"many workspaces, a wrong client ID", oauth, func(f *fakeSlack) { f.clientID, f.clientSecret = "9.9", "shh" },
			[]string{"✗ Slack does not know SLACK_CLIENT_ID: copy the Client ID", "Many workspaces"}},
		{"many workspaces, a wrong client secret", oauth, func(f *fakeSlack) { f.clientID, f.clientSecret = "1.2", "other" },
			[]string{"✗ SLACK_CLIENT_SECRET is not the app's", "Many workspaces"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFakeSlack(t)
			f.mu.Lock()
			tt.setup(f)
			f.mu.Unlock()
			cfg := tt.cfg
			cfg.APIURL = f.srv.GetAPIURL()
			got := Check(context.Background(), cfg, nil)
			bottest.CheckFindings(t, got, tt.want)
		})
	}
}
