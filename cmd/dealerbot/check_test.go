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

// TestCheckEndpointSettings: `dealerbot check` refuses Interactions Endpoint settings that cannot
// work, each with the sentence that says what to set, before asking Discord anything.
func TestCheckEndpointSettings(t *testing.T) {
	base := map[string]string{"DISCORD_TOKEN": "t", "DISCORD_APP_ID": "123456789012345678"}
	for _, tt := range []struct {
		name string
		env  map[string]string
		want string
	}{
		{"a public key that is not one", map[string]string{"DISCORD_PUBLIC_KEY": "not-a-key", "DEALERBOT_LISTEN_ADDR": ":8080"},
			"✗ DISCORD_PUBLIC_KEY must be the Public Key from the Developer Portal (your application > General Information), 64 characters of 0-9 and a-f"},
		{"no address to listen on", map[string]string{"DISCORD_PUBLIC_KEY": strings.Repeat("ab", 32)},
			"✗ DISCORD_PUBLIC_KEY is set but DEALERBOT_LISTEN_ADDR is not"},
		{"the gateway off without the endpoint", map[string]string{"DISCORD_GATEWAY": "off"},
			"✗ DISCORD_GATEWAY=off needs DISCORD_PUBLIC_KEY and DEALERBOT_LISTEN_ADDR"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			env := map[string]string{"DEALERBOT_DB": t.TempDir() + "/x.db"}
			for k, v := range base {
				env[k] = v
			}
			for k, v := range tt.env {
				env[k] = v
			}
			var o, e bytes.Buffer
			m := &Main{Args: []string{"check"}, Stdin: strings.NewReader(""), Stdout: &o, Stderr: &e, Lookup: envOf(env),
				HTTPClient: &http.Client{Transport: refuseAll{t}}}
			if code := m.Run(context.Background()); code != 1 || !strings.Contains(o.String(), "Discord:\n  "+tt.want) {
				t.Errorf("exit %d, output:\n%s%s\nwant exit 1 and %q", code, o.String(), e.String(), tt.want)
			}
		})
	}
}

// refuseAll fails the test at any request: the check must not need the network to refuse settings.
type refuseAll struct{ t *testing.T }

func (r refuseAll) RoundTrip(req *http.Request) (*http.Response, error) {
	r.t.Errorf("the check made a request: %s %s", req.Method, req.URL)
	return nil, http.ErrNotSupported
}
