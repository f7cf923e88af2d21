package slack

import (
	"encoding/base64"
	"encoding/hex"
	"strings"
	"testing"
)

// oauth is a complete setting for many workspaces, with changes ("" clears a setting).
func oauth(change map[string]string) map[string]string {
	env := map[string]string{"SLACK_CLIENT_ID": "1.2", "SLACK_CLIENT_SECRET": "shh", "SLACK_SIGNING_SECRET": "s",
		"SLACK_LISTEN_ADDR": ":3000", "DEALERBOT_SECRET_KEY": hex.EncodeToString(testKey)}
	for k, v := range change {
		env[k] = v
	}
	return env
}

func TestConfigFromEnv(t *testing.T) {
	tests := []struct {
		name    string
		env     map[string]string
		mode    Mode
		wantErr string // part of the sentence; "" = valid
	}{
		{"nothing set", nil, Off, ""},
		{"socket mode", map[string]string{"SLACK_BOT_TOKEN": "xoxb-1", "SLACK_APP_TOKEN": "xapp-1"}, SocketMode, ""},
		{"socket mode ignores a signing secret", map[string]string{"SLACK_BOT_TOKEN": "xoxb-1", "SLACK_APP_TOKEN": "xapp-1", "SLACK_SIGNING_SECRET": "s"}, SocketMode, ""},
		{"http mode", map[string]string{"SLACK_BOT_TOKEN": "xoxb-1", "SLACK_SIGNING_SECRET": "s", "SLACK_LISTEN_ADDR": ":3000"}, HTTPMode, ""},
		{"bot token alone", map[string]string{"SLACK_BOT_TOKEN": "xoxb-1"}, SocketMode, "only SLACK_BOT_TOKEN is set: add SLACK_APP_TOKEN"},
		{"a bad app token", map[string]string{"SLACK_BOT_TOKEN": "xoxb-1", "SLACK_APP_TOKEN": "xoxb-2"}, SocketMode, "SLACK_APP_TOKEN must be an app-level token"},
		{"app token alone", map[string]string{"SLACK_APP_TOKEN": "xapp-1"}, SocketMode, "SLACK_BOT_TOKEN is empty"},
		{"tokens swapped", map[string]string{"SLACK_BOT_TOKEN": "xapp-1", "SLACK_APP_TOKEN": "xoxb-1"}, SocketMode, "starts with xoxb-"},
		{"user token", map[string]string{"SLACK_BOT_TOKEN": "xoxp-1", "SLACK_APP_TOKEN": "xapp-1"}, SocketMode, "starts with xoxb-"},
		{"both modes", map[string]string{"SLACK_BOT_TOKEN": "xoxb-1", "SLACK_APP_TOKEN": "xapp-1", "SLACK_LISTEN_ADDR": ":3000"}, SocketMode, "not both"},
		{"listen address without secret", map[string]string{"SLACK_BOT_TOKEN": "xoxb-1", "SLACK_LISTEN_ADDR": ":3000"}, HTTPMode, "SLACK_SIGNING_SECRET is empty"},
		{"secret without listen address", map[string]string{"SLACK_BOT_TOKEN": "xoxb-1", "SLACK_SIGNING_SECRET": "s"}, HTTPMode, "neither SLACK_LISTEN_ADDR nor DEALERBOT_LISTEN_ADDR"},
		{"secret on the shared listener", map[string]string{"SLACK_BOT_TOKEN": "xoxb-1", "SLACK_SIGNING_SECRET": "s", "DEALERBOT_LISTEN_ADDR": ":8080"}, HTTPMode, ""},
		{"whitespace trimmed", map[string]string{"SLACK_BOT_TOKEN": " xoxb-1 ", "SLACK_APP_TOKEN": "xapp-1\n"}, SocketMode, ""},

		// Many workspaces.
		{"many workspaces, hex key", oauth(nil), OAuthMode, ""},
		{"many workspaces, base64 key", oauth(map[string]string{"DEALERBOT_SECRET_KEY": base64.StdEncoding.EncodeToString(testKey)}), OAuthMode, ""},
		{"many workspaces, base64url key unpadded", oauth(map[string]string{"DEALERBOT_SECRET_KEY": base64.RawURLEncoding.EncodeToString(testKey)}), OAuthMode, ""},
		{"many workspaces without a key", oauth(map[string]string{"DEALERBOT_SECRET_KEY": ""}), OAuthMode, "DEALERBOT_SECRET_KEY is empty: with SLACK_CLIENT_ID each workspace's bot token is kept in the database sealed with this key"},
		{"a key too short (hex)", oauth(map[string]string{"DEALERBOT_SECRET_KEY": strings.Repeat("ab", 16)}), OAuthMode, "DEALERBOT_SECRET_KEY is 32 hex digits; it must be 64 (32 bytes)"},
		{"a key of 66 hex digits", oauth(map[string]string{"DEALERBOT_SECRET_KEY": strings.Repeat("a", 66)}), OAuthMode, "is 66 hex digits; it must be 64"},
		{"a key that is neither", oauth(map[string]string{"DEALERBOT_SECRET_KEY": "correct horse battery staple!"}), OAuthMode, "DEALERBOT_SECRET_KEY is neither hex nor base64"},
		{"a key of 16 bytes in base64", oauth(map[string]string{"DEALERBOT_SECRET_KEY": base64.StdEncoding.EncodeToString(testKey[:16])}), OAuthMode, "DEALERBOT_SECRET_KEY is 16 bytes in base64; it must be 32 bytes"},
		{"client ID without secret", oauth(map[string]string{"SLACK_CLIENT_SECRET": ""}), OAuthMode, "SLACK_CLIENT_SECRET is empty"},
		{"client secret without ID", oauth(map[string]string{"SLACK_CLIENT_ID": ""}), OAuthMode, "SLACK_CLIENT_ID is empty"},
		{"client ID and a bot token", oauth(map[string]string{"SLACK_BOT_TOKEN": "xoxb-1"}), HTTPMode, "not both"},
		{"many workspaces in Socket Mode", oauth(map[string]string{"SLACK_APP_TOKEN": "xapp-1"}), OAuthMode, "clear SLACK_APP_TOKEN"},
		{"many workspaces without a listen address", oauth(map[string]string{"SLACK_LISTEN_ADDR": ""}), OAuthMode, "SLACK_LISTEN_ADDR (or DEALERBOT_LISTEN_ADDR"},
		{"many workspaces on the shared listener", oauth(map[string]string{"SLACK_LISTEN_ADDR": "", "DEALERBOT_LISTEN_ADDR": ":8080"}), OAuthMode, ""},
		{"many workspaces without a signing secret", oauth(map[string]string{"SLACK_SIGNING_SECRET": ""}), OAuthMode, "SLACK_SIGNING_SECRET is empty"},
		{"a key without many workspaces is not read", map[string]string{"SLACK_BOT_TOKEN": "xoxb-1", "SLACK_APP_TOKEN": "xapp-1", "DEALERBOT_SECRET_KEY": "x"}, SocketMode, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := ConfigFromEnv(func(k string) string { return tt.env[k] })
			if got := c.Mode(); got != tt.mode {
				t.Errorf("mode %v, want %v", got, tt.mode)
			}
			switch {
			case tt.wantErr == "" && err != nil:
				t.Errorf("unexpected error: %v", err)
			case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
				t.Errorf("error %v, want one containing %q", err, tt.wantErr)
			}
			if tt.wantErr != "" {
				if _, nerr := New(c); nerr == nil {
					t.Error("New accepted settings that Validate refuses")
				}
				if key := tt.env["DEALERBOT_SECRET_KEY"]; key != "" && strings.Contains(err.Error(), key) {
					t.Errorf("the error repeats the key: %v", err)
				}
			}
		})
	}
	if _, err := New(Config{}); err == nil {
		t.Error("New accepted empty settings")
	}
	c, _ := ConfigFromEnv(func(k string) string { return oauth(nil)[k] })
	if string(c.SecretKey) != string(testKey) {
		t.Error("the hex key was not decoded")
	}
	if _, err := New(c); err == nil || !strings.Contains(err.Error(), "cannot keep the workspaces' installations") {
		t.Errorf("New for many workspaces without an installation store: %v", err)
	}
}
