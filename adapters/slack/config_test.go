package slack

import (
	"strings"
	"testing"
)

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
		{"secret without listen address", map[string]string{"SLACK_BOT_TOKEN": "xoxb-1", "SLACK_SIGNING_SECRET": "s"}, HTTPMode, "SLACK_LISTEN_ADDR is empty"},
		{"whitespace trimmed", map[string]string{"SLACK_BOT_TOKEN": " xoxb-1 ", "SLACK_APP_TOKEN": "xapp-1\n"}, SocketMode, ""},
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
			}
		})
	}
	if _, err := New(Config{}); err == nil {
		t.Error("New accepted empty settings")
	}
}
