package discordtest

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// do sends one REST request to s as a process of the bot would.
func do(t *testing.T, s *Server, method, path, body string) *http.Response {
	t.Helper()
	req, err := http.NewRequest(method, s.URL+"/api/v9"+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bot "+s.Token)
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	return res
}

// The bot token's limits hold whatever the number of processes: past 50 requests in a second the
// global 429 (with retry_after and the global headers), interaction webhooks exempt; past 5 writes
// in 5 s a channel's 429, with the bucket's headers before it.
func TestLimits(t *testing.T) {
	s := NewServer(t, NewApp("1"), "tok")
	in := s.NewInteraction(TypeCommand, "9", "8", User{ID: "7", Name: "alice"}, "", Slash("poker", "chips"))
	endpoint := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `{"type":4,"data":{"content":"You have 10000 chips.","flags":64}}`)
	}))
	defer endpoint.Close()
	began := time.Now()
	var statuses []int
	for i := range GlobalPerSecond + 1 {
		statuses = append(statuses, do(t, s, "POST", fmt.Sprintf("/channels/c%d/messages", i), `{"content":"hi"}`).StatusCode)
	}
	a := s.Deliver(context.Background(), endpoint.URL, in)
	follow := do(t, s, "POST", "/webhooks/1/"+in.Token, `{"content":"more","flags":64}`)
	if took := time.Since(began); took >= time.Second {
		t.Fatalf("%d requests took %v: the global second ended before the limit could be reached", GlobalPerSecond+1, took)
	}
	if got := statuses[GlobalPerSecond]; got != http.StatusTooManyRequests {
		t.Errorf("request %d in a second answered %d, want 429", GlobalPerSecond+1, got)
	}
	if a.Err != nil || a.Type() != 4 || a.Content() != "You have 10000 chips." {
		t.Errorf("the answer read from the endpoint: %+v", a)
	}
	if follow.StatusCode != http.StatusOK {
		t.Errorf("a follow-up past the global limit answered %d: interaction webhooks are exempt", follow.StatusCode)
	}
	if global, _ := s.Limited(); global != 1 {
		t.Errorf("%d global 429s counted, want 1", global)
	}
	for _, c := range s.Calls(0) {
		if c.Status == http.StatusTooManyRequests && !c.Global {
			t.Errorf("a 429 not marked as counting globally: %s", c)
		}
	}

	time.Sleep(time.Second) // the global second passes
	for i := range ChannelWrites + 1 {
		res := do(t, s, "PATCH", "/channels/edits/messages/5", `{"content":"edit"}`)
		switch {
		case i < ChannelWrites && (res.StatusCode != http.StatusOK || res.Header.Get("X-RateLimit-Remaining") != fmt.Sprint(ChannelWrites-1-i)):
			t.Errorf("write %d to a channel: %d, remaining %q", i+1, res.StatusCode, res.Header.Get("X-RateLimit-Remaining"))
		case i == ChannelWrites && (res.StatusCode != http.StatusTooManyRequests || res.Header.Get("X-RateLimit-Global") != ""):
			t.Errorf("write %d in 5 s to a channel: %d %v, want a channel's 429", i+1, res.StatusCode, res.Header)
		}
	}
	if other := do(t, s, "POST", "/channels/c1/messages", `{"content":"hi"}`); other.StatusCode != http.StatusOK {
		t.Errorf("another channel's write answered %d: buckets are per channel", other.StatusCode)
	}
	if f := s.Faults(); len(f) != 0 {
		t.Errorf("faults: %v", f)
	}
}

// An interaction's webhook exists once the interaction is answered: a follow-up on one never
// answered is refused (10015) and is a fault of the bot's; an answer that updates the clicked
// message changes what it shows, and only the first answer counts.
func TestInteractionWebhooks(t *testing.T) {
	s := NewServer(t, NewApp("1"), "tok")
	post := do(t, s, "POST", "/channels/8/messages", `{"content":"Hand #1","components":[{"type":1,"components":[{"type":2,"style":1,"custom_id":"pk1|b|1.0|call","label":"Call"}]}]}`)
	if post.StatusCode != http.StatusOK {
		t.Fatalf("post: %d", post.StatusCode)
	}
	msg := s.Calls(0)[0].ID
	if m, _ := s.Screen(msg); len(m.Buttons) != 1 || m.Buttons[0].CustomID != "pk1|b|1.0|call" {
		t.Fatalf("on screen: %+v", m)
	}
	never := s.NewInteraction(TypeComponent, "9", "8", User{ID: "7", Name: "alice"}, msg, Click("pk1|b|1.0|call"))
	if res := do(t, s, "POST", "/webhooks/1/"+never.Token, `{"content":"x"}`); res.StatusCode != http.StatusNotFound {
		t.Errorf("a follow-up on an unanswered interaction: %d, want 404", res.StatusCode)
	}
	if len(s.Faults()) != 0 {
		t.Errorf("an unanswered interaction's follow-up counted as a fault before Discord could know: %v", s.Faults())
	}

	click := s.NewInteraction(TypeComponent, "9", "8", User{ID: "7", Name: "alice"}, msg, Click("pk1|b|1.0|call"))
	answers := []string{`{"type":7,"data":{"content":"Hand #1 after","components":[]}}`, `{"type":4,"data":{"content":"late","flags":64}}`}
	n := 0
	endpoint := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var v map[string]any
		if err := json.NewDecoder(r.Body).Decode(&v); err != nil || v["token"] != click.Token || r.Header.Get("X-Signature-Ed25519") == "" {
			t.Errorf("the endpoint got %v (%v) with %v", v, err, r.Header)
		}
		fmt.Fprint(w, answers[n])
		n++
	}))
	defer endpoint.Close()
	if a := s.Deliver(context.Background(), endpoint.URL, click); a.Type() != 7 || a.Ignored {
		t.Errorf("first answer: %+v", a)
	}
	if a := s.Deliver(context.Background(), endpoint.URL, click); !a.Ignored {
		t.Errorf("second answer not ignored: %+v", a)
	}
	if m, _ := s.Screen(msg); m.Content != "Hand #1 after" || len(m.Buttons) != 0 {
		t.Errorf("after the update: %+v", m)
	}
	if res := do(t, s, "POST", "/webhooks/1/"+click.Token, `{"content":"x","flags":64}`); res.StatusCode != http.StatusOK {
		t.Errorf("a follow-up on an answered interaction: %d", res.StatusCode)
	}
	if res := do(t, s, "POST", "/webhooks/1/nosuchtoken", `{"content":"x"}`); res.StatusCode != http.StatusNotFound || len(s.Faults()) != 1 {
		t.Errorf("a follow-up on a token Discord never gave: %d, faults %v", res.StatusCode, s.Faults())
	}
}

// TestLinkButtonsChecked (issue 37): the fake refuses, as Discord does (400, 50035), a message whose
// link button has no url or has a custom_id, or whose other button has no custom_id, and records the
// fault; a valid link button beside a command button passes.
func TestLinkButtonsChecked(t *testing.T) {
	s := NewServer(t, NewApp("1"), "tok")
	for _, tt := range []struct {
		name, button string
		ok           bool
	}{
		{"a link with its url", `{"type":2,"style":5,"label":"Pay dave","url":"https://paypal.me/daveb/7.00USD"}`, true},
		{"a link without a url", `{"type":2,"style":5,"label":"Pay dave"}`, false},
		{"a link with a custom_id", `{"type":2,"style":5,"label":"Pay dave","url":"https://paypal.me/daveb","custom_id":"b:pay"}`, false},
		{"a command button without a custom_id", `{"type":2,"style":3,"label":"Paid #1"}`, false},
		{"a command button with a url", `{"type":2,"style":3,"label":"Paid #1","custom_id":"b:paid 1","url":"https://paypal.me/daveb"}`, false},
	} {
		before := len(s.Faults())
		body := `{"content":"Settle-up","components":[{"type":1,"components":[{"type":2,"style":3,"label":"Paid #2","custom_id":"b:paid 2"},` + tt.button + `]}]}`
		for _, path := range []string{"/channels/c1/messages", "/webhooks/1/tok-" + tt.name} {
			res := do(t, s, "POST", path, body)
			if path == "/channels/c1/messages" && (res.StatusCode == http.StatusOK) != tt.ok {
				t.Errorf("%s: answered %d", tt.name, res.StatusCode)
			}
		}
		about := 0 // the faults about the buttons (a follow-up of an unknown token is a fault too)
		for _, f := range s.Faults()[before:] {
			if strings.Contains(f, "button") {
				about++
			}
		}
		if want := map[bool]int{true: 0, false: 2}[tt.ok]; about != want {
			t.Errorf("%s: %d faults about the buttons, want %d: %q", tt.name, about, want, s.Faults()[before:])
		}
	}
}

// TestEnforceNonce: a message created with enforce_nonce and a nonce used in the channel before is
// answered with the earlier message, and none is created; without enforce_nonce, or in another
// channel, each create makes a message. A nonce past 25 characters is refused.
func TestEnforceNonce(t *testing.T) {
	s := NewServer(t, NewApp("1"), "tok")
	post := func(channel, body string) (int, string) {
		t.Helper()
		req, _ := http.NewRequest("POST", s.URL+"/api/v9/channels/"+channel+"/messages", strings.NewReader(body))
		req.Header.Set("Authorization", "Bot "+s.Token)
		req.Header.Set("Content-Type", "application/json")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		var m struct{ ID string }
		json.NewDecoder(res.Body).Decode(&m)
		return res.StatusCode, m.ID
	}
	once := `{"content":"🃏 Home game","nonce":"s1a1764961200","enforce_nonce":true}`
	_, first := post("c1", once)
	_, again := post("c1", once)
	_, other := post("c2", once)
	_, loose1 := post("c1", `{"content":"hi","nonce":"n1"}`)
	_, loose2 := post("c1", `{"content":"hi","nonce":"n1"}`)
	if first == "" || again != first || other == first || loose1 == loose2 {
		t.Errorf("ids: first %q, again %q, other channel %q, without enforce_nonce %q and %q", first, again, other, loose1, loose2)
	}
	if status, _ := post("c3", `{"content":"x","nonce":"`+strings.Repeat("n", 26)+`","enforce_nonce":true}`); status != http.StatusBadRequest {
		t.Errorf("a 26-character nonce answered %d, want 400", status)
	}
	if faults := s.Faults(); len(faults) != 1 {
		t.Errorf("faults %q, want the long nonce's", faults)
	}
}
