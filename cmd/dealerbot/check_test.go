package main

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
)

// toServer sends every request to srv, whatever host it names.
type toServer struct{ target *url.URL }

func (s toServer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.URL.Scheme, r.URL.Host, r.Host = s.target.Scheme, s.target.Host, s.target.Host
	return http.DefaultTransport.RoundTrip(r)
}

// TestCheckCommand: `dealerbot check` prints, per configured platform, what works and what to fix,
// and exits 1 when something is missing; with no platform configured it says how the console runs
// and exits 0.
func TestCheckCommand(t *testing.T) {
	code, out, errOut := runMain(t, nil, "", "check")
	if code != 0 || !strings.Contains(out, "No chat platform is configured, so dealerbot opens the console table") {
		t.Fatalf("check without platforms: exit %d, out %q, err %q", code, out, errOut)
	}

	// A service that refuses both tokens, as Discord and Slack do a wrong one.
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/auth.test") {
			w.Header().Set("Content-Type", "application/json")
			w.Write([]byte(`{"ok":false,"error":"invalid_auth"}`))
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusUnauthorized)
		w.Write([]byte(`{"message":"401: Unauthorized","code":0}`))
	}))
	defer srv.Close()
	target, _ := url.Parse(srv.URL)
	var o, e bytes.Buffer
	m := &Main{Args: []string{"check"}, Stdin: strings.NewReader(""), Stdout: &o, Stderr: &e, HTTPClient: &http.Client{Transport: toServer{target}},
		Lookup: envOf(map[string]string{"DISCORD_TOKEN": "nope", "DISCORD_APP_ID": "123456789012345678", "SLACK_BOT_TOKEN": "xoxb-nope", "SLACK_APP_TOKEN": "xapp-nope",
			"DEALERBOT_DB": t.TempDir() + "/x.db"})}
	if code := m.Run(context.Background()); code != 1 {
		t.Fatalf("check with refused tokens: exit %d, want 1:\n%s%s", code, o.String(), e.String())
	}
	for _, want := range []string{"Discord:\n  ✗ Discord refuses DISCORD_TOKEN (401 Unauthorized): on the Developer Portal",
		"Slack:\n  ✗ Slack refuses SLACK_BOT_TOKEN (invalid_auth)"} {
		if !strings.Contains(o.String(), want) {
			t.Errorf("check output lacks %q:\n%s", want, o.String())
		}
	}
}
