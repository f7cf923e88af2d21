package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestParseDotEnv(t *testing.T) {
	tests := []struct {
		name, in string
		want     map[string]string
		err      bool
	}{
		{"plain", "A=1\nB = two\n", map[string]string{"A": "1", "B": "two"}, false},
		{"comments and export", "# c\n\nexport A=1 # note\n", map[string]string{"A": "1"}, false},
		{"quotes keep hashes", `A="x # y"` + "\nB='q'", map[string]string{"A": "x # y", "B": "q"}, false},
		{"empty value", "A=\n", map[string]string{"A": ""}, false},
		{"no equals", "JUSTTEXT\n", nil, true},
		{"space in key", "A B=1\n", nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parseDotEnv(strings.NewReader(tt.in))
			if (err != nil) != tt.err {
				t.Fatalf("error %v, want error %v", err, tt.err)
			}
			if !tt.err && len(got) != len(tt.want) {
				t.Fatalf("got %v, want %v", got, tt.want)
			}
			for k, v := range tt.want {
				if got[k] != v {
					t.Fatalf("%s = %q, want %q", k, got[k], v)
				}
			}
		})
	}
}

func TestEnvironmentWinsOverDotEnv(t *testing.T) {
	path := filepath.Join(t.TempDir(), ".env")
	os.WriteFile(path, []byte("DEALERBOT_DB=file.db\nDEALERBOT_STARTING_BANKROLL=500\n"), 0o600)
	e, err := loadEnv(path, func(k string) (string, bool) {
		if k == "DEALERBOT_DB" {
			return "env.db", true
		}
		return "", false
	}, true)
	if err != nil {
		t.Fatal(err)
	}
	s, err := readSettings(e)
	if err != nil {
		t.Fatal(err)
	}
	if s.DB != "env.db" || s.StartingBankroll != 500 || s.DealDelay != 3*time.Second {
		t.Fatalf("settings %+v", s)
	}
}

func TestBadSettingsSayWhatToDo(t *testing.T) {
	for key, val := range map[string]string{
		"DEALERBOT_STARTING_BANKROLL": "lots", "DEALERBOT_DEAL_DELAY": "3", "DEALERBOT_LOG_LEVEL": "loud",
		"DEALERBOT_TIMEZONE": "Mars/Olympus",
	} {
		e := &Env{lookup: func(k string) (string, bool) { return val, k == key }, file: map[string]string{}}
		_, err := readSettings(e)
		if err == nil || !strings.Contains(err.Error(), key) {
			t.Fatalf("%s=%s: error %v, want one naming the setting", key, val, err)
		}
	}
}

// TestDotEnvHardening is reproduction 5's .env part: a comment after a quoted value is not part of
// it, an error names the line and key but never the value (it may be a token), and zero means zero.
func TestDotEnvHardening(t *testing.T) {
	got, err := parseDotEnv(strings.NewReader("SLACK_BOT_TOKEN=\"xoxb-1\" # the bot token\nexport DISCORD_TOKEN='abc' # c\n"))
	if err != nil || got["SLACK_BOT_TOKEN"] != "xoxb-1" || got["DISCORD_TOKEN"] != "abc" {
		t.Fatalf("quoted values with comments: %v, %v", got, err)
	}
	for _, in := range []string{
		"DISCORD_TOKEN=ok\nSLACK_BOT_TOKEN=\"xoxb-SECRET-unterminated\nA=1\n",
		"A=1\nxoxb-SECRET-no-equals\n",
		"MY xoxb-SECRET=1\n",
	} {
		_, err := parseDotEnv(strings.NewReader(in))
		if err == nil || strings.Contains(err.Error(), "SECRET") || !strings.Contains(err.Error(), "line ") {
			t.Fatalf("%q: error %v, want one naming the line and not the value", in, err)
		}
	}
	e := &Env{lookup: envOf(map[string]string{"DEALERBOT_STARTING_BANKROLL": "0", "DEALERBOT_DEAL_DELAY": "0"}), file: map[string]string{}}
	s, err := readSettings(e)
	if err != nil || s.StartingBankroll != 0 || s.DealDelay != 0 {
		t.Fatalf("zero settings: %+v, %v; want 0 chips and no delay", s, err)
	}
	for _, bad := range []string{"-1", "1000000000001", "9223372036854775808", "lots"} {
		e := &Env{lookup: envOf(map[string]string{"DEALERBOT_STARTING_BANKROLL": bad}), file: map[string]string{}}
		if _, err := readSettings(e); err == nil || strings.Contains(err.Error(), bad) {
			t.Fatalf("DEALERBOT_STARTING_BANKROLL=%s: %v, want a refusal that names the limit", bad, err)
		}
	}
}

// FuzzDotEnv: no .env content panics the parser, and an error never shows a value (values are
// tokens; the "xoxb-" in every seed stands for one, and keys cannot hold a "-").
func FuzzDotEnv(f *testing.F) {
	for _, s := range []string{"A=xoxb-1\n", "A=\"xoxb-1\" # c\n", "export A='xoxb-1'\n", "A=\"xoxb-1\nB=2\n", "xoxb-1\n",
		"A B=xoxb-1\n", "=xoxb-1\n", "A=`xoxb-1`\n", "#\n\n A = xoxb-1 \n", "A=xoxb-1\\\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		_, err := parseDotEnv(strings.NewReader(in))
		if err != nil && strings.Contains(err.Error(), "xoxb-") {
			t.Fatalf("%q: the error shows a value: %v", in, err)
		}
	})
}
