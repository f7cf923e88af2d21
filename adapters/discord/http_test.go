package discord

import (
	"bytes"
	"crypto/ed25519"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dealerbot/dealerbot/bot"
	"github.com/dealerbot/dealerbot/bot/bottest"
	"github.com/dealerbot/dealerbot/render"
)

// openHTTP opens an adapter that serves the Interactions Endpoint with the gateway off, behind a
// scripted dealer answering with reply.
func openHTTP(t *testing.T, f *fakeDiscord, reply func(bot.Command) bot.Reply) (*Adapter, *scripted, *bottest.Buffer, *bottest.Clock) {
	t.Helper()
	logs := &bottest.Buffer{}
	clock := bottest.NewClock(time.Date(2026, 11, 20, 20, 0, 0, 0, time.UTC))
	a := openAdapterWith(t, f, logs, clock, httpConfig())
	dealer := &scripted{reply: reply}
	a.SetDealer(dealer)
	return a, dealer, logs, clock
}

// slashBody is the body of a /poker <sub> interaction from alice, and its token.
func (f *fakeDiscord) slashBody(t *testing.T, sub string) ([]byte, string) {
	t.Helper()
	_, tok, ev := f.event(2, player{"111", "alice"}, "7000", "C1", "", map[string]any{
		"id": "3000", "name": "poker", "type": 1, "options": []any{map[string]any{"name": sub, "type": 1}},
	}, "")
	body, err := json.Marshal(ev)
	if err != nil {
		t.Fatal(err)
	}
	return body, tok
}

// TestInteractionsEndpointRefuses: every request to the endpoint must carry Discord's signature of
// its timestamp and body, by the application's key, stamped within five minutes of the machine's
// clock. A forged, tampered, stale or unsigned request is refused with 401 (as Discord's own check of
// a new endpoint URL expects) and goes no further: the dealer hears nothing and nothing is sent to
// Discord. After all of them the endpoint still takes genuine requests.
func TestInteractionsEndpointRefuses(t *testing.T) {
	f := newFakeDiscord(t, testApp)
	_, dealer, logs, clock := openHTTP(t, f, func(c bot.Command) bot.Reply { return bot.Reply{Text: "ok " + c.Text} })
	_, otherKey, _ := ed25519.GenerateKey(nil)
	now := clock.Now

	tests := []struct {
		name   string
		method string
		// request returns the headers and body sent, from a genuine interaction's body.
		request func(body []byte) (http.Header, []byte)
		want    int
	}{
		{"signed by Discord", "POST", func(b []byte) (http.Header, []byte) { return signed(testKey, b, now()), b }, http.StatusOK},
		{"stamped four minutes ago", "POST", func(b []byte) (http.Header, []byte) { return signed(testKey, b, now().Add(-4*time.Minute)), b }, http.StatusOK},
		{"unsigned", "POST", func(b []byte) (http.Header, []byte) { return http.Header{"Content-Type": {"application/json"}}, b }, http.StatusUnauthorized},
		{"without a timestamp", "POST", func(b []byte) (http.Header, []byte) {
			h := signed(testKey, b, now())
			h.Del("X-Signature-Timestamp")
			return h, b
		}, http.StatusUnauthorized},
		{"signed with another key", "POST", func(b []byte) (http.Header, []byte) { return signed(otherKey, b, now()), b }, http.StatusUnauthorized},
		{"body changed after signing", "POST", func(b []byte) (http.Header, []byte) {
			return signed(testKey, b, now()), bytes.Replace(b, []byte(`"chips"`), []byte(`"leave"`), 1)
		}, http.StatusUnauthorized},
		{"timestamp changed after signing", "POST", func(b []byte) (http.Header, []byte) {
			h := signed(testKey, b, now())
			h.Set("X-Signature-Timestamp", strconv.FormatInt(now().Unix()-1, 10))
			return h, b
		}, http.StatusUnauthorized},
		{"signature not hex", "POST", func(b []byte) (http.Header, []byte) {
			h := signed(testKey, b, now())
			h.Set("X-Signature-Ed25519", strings.Repeat("zz", ed25519.SignatureSize))
			return h, b
		}, http.StatusUnauthorized},
		{"signature cut short", "POST", func(b []byte) (http.Header, []byte) {
			h := signed(testKey, b, now())
			h.Set("X-Signature-Ed25519", h.Get("X-Signature-Ed25519")[:64])
			return h, b
		}, http.StatusUnauthorized},
		{"stamped six minutes ago", "POST", func(b []byte) (http.Header, []byte) { return signed(testKey, b, now().Add(-6*time.Minute)), b }, http.StatusUnauthorized},
		{"stamped six minutes ahead", "POST", func(b []byte) (http.Header, []byte) { return signed(testKey, b, now().Add(6*time.Minute)), b }, http.StatusUnauthorized},
		{"signed, but not an interaction", "POST", func(b []byte) (http.Header, []byte) {
			b = []byte("not json")
			return signed(testKey, b, now()), b
		}, http.StatusBadRequest},
		{"a body over 1 MiB", "POST", func(b []byte) (http.Header, []byte) {
			b = append(bytes.TrimSuffix(b, []byte("}")), []byte(`,"pad":"`+strings.Repeat("x", 1<<20)+`"}`)...)
			return signed(testKey, b, now()), b
		}, http.StatusRequestEntityTooLarge},
		{"GET", "GET", func(b []byte) (http.Header, []byte) { return signed(testKey, b, now()), b }, http.StatusMethodNotAllowed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			body, _ := f.slashBody(t, "chips")
			h, sent := tt.request(body)
			heard, calls := len(dealer.commands()), f.count()
			status, answer, _, err := f.post(tt.method, h, sent)
			if err != nil {
				t.Fatal(err)
			}
			if status != tt.want {
				t.Fatalf("answered %d %s, want %d", status, answer, tt.want)
			}
			if tt.want == http.StatusOK {
				if got := dealer.commands(); len(got) != heard+1 || got[len(got)-1].Text != "chips" {
					t.Errorf("the dealer heard %v, want the chips command", got[heard:])
				}
				var resp map[string]any
				if json.Unmarshal(answer, &resp) != nil || resp["type"] != 4.0 || !strings.Contains(string(answer), "ok chips") {
					t.Errorf("answered %s, want the dealer's reply", answer)
				}
				return
			}
			if got := dealer.commands(); len(got) != heard {
				t.Errorf("a refused request reached the dealer: %+v", got[heard:])
			}
			if got := f.since(calls); len(got) != 0 {
				t.Errorf("a refused request made calls to Discord: %v", got)
			}
			if strings.Contains(string(answer), "ok") {
				t.Errorf("a refused request was answered %q", answer)
			}
		})
	}

	t.Run("replayed", func(t *testing.T) {
		body, _ := f.slashBody(t, "chips")
		h := signed(testKey, body, now())
		heard := len(dealer.commands())
		if status, answer, _, err := f.post("POST", h, body); err != nil || status != http.StatusOK {
			t.Fatalf("the request itself: %d %s %v", status, answer, err)
		}
		calls := f.count()
		// The same request again, as someone who captured it would send it, a moment and a minute later.
		for _, later := range []time.Duration{0, time.Minute} {
			clock.Advance(later)
			status, answer, _, err := f.post("POST", h, body)
			if err != nil || status != http.StatusUnauthorized {
				t.Errorf("the same request again %v later: %d %s %v, want 401", later, status, answer, err)
			}
		}
		if got := dealer.commands(); len(got) != heard+1 {
			t.Errorf("the dealer heard the request %d times, want once", len(got)-heard)
		}
		if got := f.since(calls); len(got) != 0 {
			t.Errorf("the replays made calls to Discord: %v", got)
		}
	})

	if !strings.Contains(logs.String(), "the timestamp is too far from this machine's clock (is the clock right?)") {
		t.Errorf("a stale request was not logged as a warning about the clock:\n%s", logs.String())
	}
}

// TestInteractionsEndpointPing: what Discord does when the Interactions Endpoint URL is saved in the
// Developer Portal: a signed PING must be answered with a PONG (type 1, JSON), and a PING with a bad
// signature must be refused with 401, or the portal refuses the URL. Neither reaches the dealer.
func TestInteractionsEndpointPing(t *testing.T) {
	f := newFakeDiscord(t, testApp)
	_, dealer, _, clock := openHTTP(t, f, func(c bot.Command) bot.Reply { return bot.Reply{Text: "ok"} })
	ping := []byte(`{"id":"1","application_id":"` + testApp + `","type":1,"token":"ptok","version":1,"user":{"id":"99","username":"discord"}}`)

	status, answer, ctype, err := f.post("POST", signed(testKey, ping, clock.Now()), ping)
	if err != nil {
		t.Fatal(err)
	}
	if status != http.StatusOK || ctype != "application/json" || strings.TrimSpace(string(answer)) != `{"type":1}` {
		t.Errorf("a signed PING answered %d (%s) %s, want 200 application/json {\"type\":1}", status, ctype, answer)
	}

	forged := signed(testKey, ping, clock.Now())
	sig := []byte(forged.Get("X-Signature-Ed25519"))
	if sig[0] = '0'; forged.Get("X-Signature-Ed25519")[0] == '0' {
		sig[0] = '1' // one digit off
	}
	forged.Set("X-Signature-Ed25519", string(sig))
	status, answer, _, err = f.post("POST", forged, ping)
	if err != nil || status != http.StatusUnauthorized {
		t.Errorf("a PING with a bad signature answered %d %s %v, want 401", status, answer, err)
	}
	if got := dealer.commands(); len(got) != 0 {
		t.Errorf("PINGs reached the dealer: %+v", got)
	}
}

// TestSlowDealerOverHTTPIsDeferred: Discord waits 3 s for the HTTP response. A dealer that has not
// answered within the deadline (2.5 s; 200 ms here) gets a deferral sent in the body, a private
// "thinking…" for a command (type 5) and an acknowledged update for a click (type 6); its answer then
// follows over REST through the interaction's token: the edit of the deferred reply, the table
// message's new version, and the private text as a follow-up. A dealer that answers in time answers
// in the body itself.
func TestSlowDealerOverHTTPIsDeferred(t *testing.T) {
	f := newFakeDiscord(t, testApp)
	// The dealer is busy with the command and the first click until the test lets it go.
	command, clicked := make(chan struct{}), make(chan struct{})
	var once [2]sync.Once
	free := func(i int, c chan struct{}) { once[i].Do(func() { close(c) }) }
	t.Cleanup(func() { free(0, command); free(1, clicked) }) // before the adapter closes
	a, _, _, _ := openHTTP(t, f, func(c bot.Command) bot.Reply {
		switch {
		case c.Text == "chips":
			<-command
			return bot.Reply{Text: "You have 10,000 chips."}
		case c.Token == "h1.1":
			<-clicked
			return bot.Reply{Text: "You called 10.", Update: &render.Message{Text: "Hand #1 · bob called"}}
		case c.Token == "h1.2":
			return bot.Reply{Update: &render.Message{Text: "Hand #1 · carol checked"}}
		}
		return bot.Reply{Text: "ok"}
	})
	const deadline = 200 * time.Millisecond
	a.mu.Lock()
	a.deferAfter = deadline
	a.mu.Unlock()
	callback := func(n int, tok string) call {
		t.Helper()
		return f.waitFor(n, "the answer to "+tok, func(c call) bool { return strings.HasSuffix(c.Path, "/"+tok+"/callback") })
	}

	t.Run("a slow command", func(t *testing.T) {
		n := f.count()
		start := time.Now()
		tok := f.slash(player{"111", "alice"}, "C1", "chips")
		first := callback(n, tok)
		took := time.Since(start)
		if !first.HTTP || first.Body["type"] != 5.0 || first.flags()&64 == 0 {
			t.Fatalf("the slow command was answered %s, want a private deferral (type 5) in the HTTP response", first)
		}
		if took < deadline {
			t.Errorf("deferred after %v, before the %v deadline", took, deadline)
		}
		free(0, command)
		edit := f.waitFor(n, "the reply edited in", func(c call) bool {
			return c.Method == "PATCH" && c.Path == "/webhooks/"+testApp+"/"+tok+"/messages/@original"
		})
		if got, want := edit.content(), "You have 10,000 chips."; got != want {
			t.Errorf("the deferred reply became %q, want %q", got, want)
		}
	})

	click := func(token string) string {
		t.Helper()
		id, err := click{kind: 'b', command: "call", token: token}.customID()
		if err != nil {
			t.Fatal(err)
		}
		return id
	}

	t.Run("a slow click", func(t *testing.T) {
		n := f.count()
		tok := f.clickOn(player{"222", "bob"}, "C1", "M1", click("h1.1"))
		first := callback(n, tok)
		if !first.HTTP || first.Body["type"] != 6.0 {
			t.Fatalf("the slow click was answered %s, want a deferred update (type 6) in the HTTP response", first)
		}
		free(1, clicked)
		edit := f.waitFor(n, "the table edited in", func(c call) bool {
			return c.Method == "PATCH" && c.Path == "/webhooks/"+testApp+"/"+tok+"/messages/@original"
		})
		if got, want := f.onScreen("M1").content, "Hand #1 · bob called"; got != want || edit.content() != want {
			t.Errorf("the table shows %q after the slow click, want %q", got, want)
		}
		private := f.waitFor(n, "the private follow-up", func(c call) bool { return c.Method == "POST" && c.Path == "/webhooks/"+testApp+"/"+tok })
		if private.content() != "You called 10." || private.flags()&64 == 0 {
			t.Errorf("the click's text came as %s, want an ephemeral follow-up", private)
		}
	})

	t.Run("a quick click", func(t *testing.T) {
		n := f.count()
		tok := f.clickOn(player{"333", "carol"}, "C1", "M1", click("h1.2"))
		first := callback(n, tok)
		if !first.HTTP || first.Body["type"] != 7.0 {
			t.Fatalf("the quick click was answered %s, want the update itself (type 7) in the HTTP response", first)
		}
		if got, want := f.onScreen("M1").content, "Hand #1 · carol checked"; got != want {
			t.Errorf("the table shows %q after the quick click, want %q", got, want)
		}
		for _, c := range f.since(n) {
			if strings.HasPrefix(c.Path, "/webhooks/") {
				t.Errorf("an answered click made a REST call through its token: %s", c)
			}
		}
	})
}

// TestDealerPanicOverHTTP: a bug in the dealer while it handles an interaction that came over HTTP
// is logged with its stack, the user gets the apology in the HTTP response, and the endpoint keeps
// serving.
func TestDealerPanicOverHTTP(t *testing.T) {
	f := newFakeDiscord(t, testApp)
	_, _, logs, _ := openHTTP(t, f, func(c bot.Command) bot.Reply {
		if c.Text == "chips" {
			var m map[string]int
			m["boom"]++
		}
		return bot.Reply{Text: "ok " + c.Text}
	})
	alice := player{"111", "alice"}
	n := f.count()
	first, _ := f.answer(n, f.slash(alice, "C1", "chips"))
	if !first.HTTP || first.Body["type"] != 4.0 || first.flags()&64 == 0 || !strings.Contains(first.content(), "something went wrong on my side") {
		t.Errorf("the panicking command was answered %s, want the apology, privately, in the HTTP response", first)
	}
	if !strings.Contains(logs.String(), "panic while handling an interaction") || !strings.Contains(logs.String(), "assignment to entry in nil map") {
		t.Errorf("the panic was not logged:\n%s", logs.String())
	}
	n = f.count()
	if next, _ := f.answer(n, f.slash(alice, "C1", "table")); next.content() != "ok table" {
		t.Errorf("after the panic the endpoint answered %s, want the dealer's reply", next)
	}
}

// TestGatewayOffSetsUpOverREST: with DISCORD_GATEWAY=off no websocket is opened (not even the
// gateway's URL asked for), and the start still registers /poker and uploads the card emojis.
func TestGatewayOffSetsUpOverREST(t *testing.T) {
	f := newFakeDiscord(t, testApp)
	cfg := httpConfig()
	cfg.CardEmojis = true
	a := openAdapterWith(t, f, &bottest.Buffer{}, bottest.NewClock(time.Now()), cfg)
	ready(t, a)
	registered := false
	for _, c := range f.since(0) {
		registered = registered || c.Method == "PUT" && c.Path == "/applications/"+testApp+"/guilds/7000/commands"
	}
	if !registered {
		t.Errorf("/%s was not registered", CommandName)
	}
	if got := emojiCalls(f.since(0)); got["POST"] != 106 {
		t.Errorf("emoji calls %v, want the 106 card emojis uploaded", got)
	}
	f.mu.Lock()
	use := f.gatewayUse
	f.mu.Unlock()
	if use != 0 {
		t.Errorf("the gateway was asked for or dialled %d times", use)
	}
}

// TestReplayCache: a signature is accepted once within the window. When the cache is full the
// oldest signature is forgotten, and a request stamped no later than it is refused as stale, so that
// forgetting never lets a replay through.
func TestReplayCache(t *testing.T) {
	start := time.Unix(1_800_000_000, 0)
	c := newReplayCache(5*time.Minute, 3)
	steps := []struct {
		name  string
		sig   byte
		stamp time.Duration // from start
		now   time.Duration // from start
		want  error
	}{
		{"a request", 1, -10 * time.Second, 0, nil},
		{"another", 2, -5 * time.Second, 0, nil},
		{"the first again", 1, -10 * time.Second, 0, errReplayed},
		{"a third", 3, -4 * time.Second, 0, nil},
		{"a fourth, the first forgotten", 4, -3 * time.Second, 0, nil},
		{"the first again, forgotten", 1, -10 * time.Second, 0, errStale},
		{"a new one stamped as the forgotten one", 5, -10 * time.Second, 0, errStale},
		{"the second again, still remembered", 2, -5 * time.Second, 0, errReplayed},
		{"stamped before the window", 6, -5*time.Minute - time.Second, 0, errStale},
		{"stamped after the window", 7, 5*time.Minute + time.Second, 0, errStale},
		{"the second again, out of the window", 2, -5 * time.Second, 5 * time.Minute, errStale},
		{"a new one then", 8, 5 * time.Minute, 5 * time.Minute, nil},
	}
	for _, s := range steps {
		var sig [ed25519.SignatureSize]byte
		sig[0] = s.sig
		err := c.check(sig, start.Add(s.stamp).Unix(), start.Add(s.now))
		if s.want == nil && err != nil || s.want != nil && !errors.Is(err, s.want) {
			t.Errorf("%s: %v, want %v", s.name, err, s.want)
		}
	}
	if len(c.seen) > 3 || len(c.order) > 3 {
		t.Errorf("the cache holds %d signatures (%d in order), more than its 3", len(c.seen), len(c.order))
	}
}
