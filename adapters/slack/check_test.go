package slack

import (
	"context"
	"testing"

	"github.com/dealerbot/dealerbot/bot/bottest"
)

// TestCheck: the health check says, in sentences, what works and what to click for what is missing: a
// refused bot token, missing scopes (files:write only costs exports and pictures), a Socket Mode
// connection that does not open.
func TestCheck(t *testing.T) {
	socket := Config{BotToken: "xoxb-1", AppToken: "xapp-1"}
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
