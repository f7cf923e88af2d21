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
	})
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
