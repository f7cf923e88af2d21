package main

import (
	"context"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/dealerbot/dealerbot/adapters/discord"
	"github.com/dealerbot/dealerbot/adapters/slack"
	"github.com/dealerbot/dealerbot/bot"
	"github.com/dealerbot/dealerbot/bot/bottest"
)

// doors is a chat whose HTTP handlers are given by the test.
type doors struct {
	bot.Chat
	routes func(*http.ServeMux)
}

func (d doors) Routes(mux *http.ServeMux) { d.routes(mux) }

// TestFrontDoors: DEALERBOT_LISTEN_ADDR serves one mux with the handlers of every chat that has
// some: Discord's Interactions Endpoint refuses an unsigned request there with 401, any other path
// is 404, a handler that panics costs its own request only (500, logged) and the server keeps
// serving, and the server stops when dealerbot does. An address that cannot be listened on stops the
// start with a sentence naming the setting.
func TestFrontDoors(t *testing.T) {
	a, err := discord.New(discord.Config{Token: "t", AppID: "1", PublicKey: strings.Repeat("ab", 32), ListenAddr: "127.0.0.1:0", GatewayOff: true, ShardCount: 1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	logs := &bottest.Buffer{}
	log := slog.New(slog.NewTextHandler(logs, nil))
	chats := map[string]bot.Chat{"discord": a, "other": doors{routes: func(mux *http.ServeMux) {
		mux.HandleFunc("GET /boom", func(http.ResponseWriter, *http.Request) { panic("a bug in a handler") })
	}}}
	// A free port, taken as the setting.
	probe, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := probe.Addr().String()
	probe.Close()

	runners, _, err := frontDoors(addr, chats, log)
	if err != nil || len(runners) != 1 {
		t.Fatalf("frontDoors(%s) = %d runners, %v", addr, len(runners), err)
	}
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- runners[0](ctx) }()

	get := func(method, path string) int {
		t.Helper()
		return statusOf(t, method, "http://"+addr+path, "", `{"type":1}`)
	}
	for _, r := range []struct {
		method, path string
		want         int
	}{
		{"POST", discord.InteractionsPath, http.StatusUnauthorized},
		{"GET", "/nothing-here", http.StatusNotFound},
		{"GET", "/boom", http.StatusInternalServerError},
		{"POST", discord.InteractionsPath, http.StatusUnauthorized}, // still serving
	} {
		if got := get(r.method, r.path); got != r.want {
			t.Errorf("%s %s: %d, want %d", r.method, r.path, got, r.want)
		}
	}
	if !strings.Contains(logs.String(), "panic while serving HTTP") || !strings.Contains(logs.String(), "a bug in a handler") {
		t.Errorf("the handler's panic was not logged:\n%s", logs.String())
	}

	// The address is taken now: a second start is refused.
	if _, _, err := frontDoors(addr, chats, log); err == nil || !strings.Contains(err.Error(), "DEALERBOT_LISTEN_ADDR "+addr) {
		t.Errorf("listening on an address in use: %v, want an error naming DEALERBOT_LISTEN_ADDR", err)
	}

	stop()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("the server stopped with %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the server did not stop with dealerbot")
	}
	if c, err := net.DialTimeout("tcp", addr, time.Second); err == nil {
		c.Close()
		t.Errorf("%s still takes connections after dealerbot stopped", addr)
	}

	for _, tt := range []struct{ addr, want string }{
		{"", ""},
		{"8080", `DEALERBOT_LISTEN_ADDR must be an address to listen on, host:port or :port such as :8080, not "8080"`},
	} {
		runners, _, err := frontDoors(tt.addr, chats, log)
		switch {
		case tt.want == "" && (err != nil || runners != nil):
			t.Errorf("frontDoors(%q) = %d runners, %v; want none and no error", tt.addr, len(runners), err)
		case tt.want != "" && (err == nil || err.Error() != tt.want):
			t.Errorf("frontDoors(%q): %v, want %q", tt.addr, err, tt.want)
		}
	}
}

// One listener for everything: Discord's endpoint, Slack's (with SLACK_LISTEN_ADDR empty and
// DEALERBOT_LISTEN_ADDR set), and the dealer's health, readiness and metrics.
func TestOneListenerForEveryDoor(t *testing.T) {
	d, err := discord.New(discord.Config{Token: "t", AppID: "1", PublicKey: strings.Repeat("ab", 32), ListenAddr: "127.0.0.1:0", GatewayOff: true, ShardCount: 1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	scfg, err := slack.ConfigFromEnv(func(k string) string {
		return map[string]string{"SLACK_BOT_TOKEN": "xoxb-1", "SLACK_SIGNING_SECRET": "s", "DEALERBOT_LISTEN_ADDR": "127.0.0.1:0"}[k]
	})
	if err != nil {
		t.Fatal(err)
	}
	s, err := slack.New(scfg)
	if err != nil {
		t.Fatal(err)
	}
	o := newOps(nil)
	runners, addr, err := frontDoors("127.0.0.1:0", map[string]bot.Chat{"discord": d, "slack": s}, slog.New(slog.DiscardHandler), o.routes)
	if err != nil || len(runners) != 1 {
		t.Fatalf("frontDoors: %d runners, %v", len(runners), err)
	}
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	go runners[0](ctx)
	status := func(method, path string) int {
		t.Helper()
		return statusOf(t, method, "http://"+addr+path, "application/x-www-form-urlencoded", "token=x&command=%2Fpoker")
	}
	for _, r := range []struct {
		method, path string
		want         int
	}{
		{"POST", discord.InteractionsPath, http.StatusUnauthorized}, // unsigned
		{"POST", "/slack/events", http.StatusUnauthorized},          // unsigned
		{"GET", "/healthz", http.StatusOK},
		{"GET", "/readyz", http.StatusServiceUnavailable}, // no dealer yet
		{"GET", "/metrics", http.StatusOK},
	} {
		if got := status(r.method, r.path); got != r.want {
			t.Errorf("%s %s: %d, want %d", r.method, r.path, got, r.want)
		}
	}
}

// statusOf sends body (of contentType, unless empty) to url and returns the response's status.
func statusOf(t *testing.T, method, url, contentType, body string) int {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, url, err)
	}
	io.Copy(io.Discard, res.Body)
	res.Body.Close()
	return res.StatusCode
}
