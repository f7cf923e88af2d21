package main

import (
	"bytes"
	"context"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestSlackManyWorkspacesAtStart: with SLACK_CLIENT_ID, dealerbot refuses to start without a usable
// DEALERBOT_SECRET_KEY, in one sentence that never shows the key; with one it serves /slack/install on
// SLACK_LISTEN_ADDR (the installations kept in its database) and stops cleanly.
func TestSlackManyWorkspacesAtStart(t *testing.T) {
	dir := t.TempDir()
	env := func(key string) map[string]string {
		return map[string]string{"DEALERBOT_DB": filepath.Join(dir, "x.db"), "SLACK_CLIENT_ID": "1234.5678", "SLACK_CLIENT_SECRET": "shh",
			"SLACK_SIGNING_SECRET": "s", "SLACK_LISTEN_ADDR": "127.0.0.1:0", "DEALERBOT_SECRET_KEY": key}
	}
	tests := []struct{ name, key, want string }{
		{"no key", "", "DEALERBOT_SECRET_KEY is empty"},
		{"a key that is neither hex nor base64", "my secret passphrase!", "DEALERBOT_SECRET_KEY is neither hex nor base64"},
		{"a key too short", strings.Repeat("ab", 20), "DEALERBOT_SECRET_KEY is 40 hex digits; it must be 64"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, _, errOut := runMain(t, env(tt.key), "")
			if code != 1 || !strings.Contains(errOut, tt.want) || strings.Count(strings.TrimSpace(errOut), "\n") != 0 {
				t.Fatalf("exit %d, stderr %q; want exit 1 and one line saying %q", code, errOut, tt.want)
			}
			if tt.key != "" && strings.Contains(errOut, tt.key) {
				t.Errorf("the error shows the key: %q", errOut)
			}
		})
	}

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	good := env(strings.Repeat("0123456789abcdef", 4))
	good["SLACK_LISTEN_ADDR"] = addr
	envFile := filepath.Join(dir, "empty.env")
	os.WriteFile(envFile, nil, 0o600)
	var out, errOut bytes.Buffer
	m := &Main{Args: []string{"--env", envFile}, Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errOut, Lookup: envOf(good)}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan int, 1)
	go func() { done <- m.Run(ctx) }()
	web := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	var resp *http.Response
	for range 200 {
		if resp, err = web.Get("http://" + addr + "/slack/install"); err == nil {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if err != nil {
		cancel()
		t.Fatalf("/slack/install not served: %v\n%s", err, errOut.String())
	}
	resp.Body.Close()
	loc, _ := url.Parse(resp.Header.Get("Location"))
	if resp.StatusCode != http.StatusFound || loc == nil || loc.Host != "slack.com" || loc.Query().Get("client_id") != "1234.5678" {
		t.Errorf("/slack/install: %d to %q; want a redirect to Slack's authorize page for the app", resp.StatusCode, resp.Header.Get("Location"))
	}
	cancel()
	select {
	case code := <-done:
		if code != 0 {
			t.Errorf("exit %d after a clean stop: %s", code, errOut.String())
		}
	case <-time.After(20 * time.Second):
		t.Fatal("dealerbot did not stop")
	}
}
