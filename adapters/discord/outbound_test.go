package discord

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/dealerbot/dealerbot/bot"
	"github.com/dealerbot/dealerbot/bot/bottest"
	"github.com/dealerbot/dealerbot/render"
)

// TestKeyedPostShowsOnce: a channel post with a key (a schedule's announcement) is created with the
// key as its nonce and enforce_nonce, so the same post sent again after a crash (the dealer could
// not save that it went out) shows once; posts without a key, or with another, each show.
func TestKeyedPostShowsOnce(t *testing.T) {
	f := newFakeDiscord(t, testApp)
	a := openAdapter(t, f, &bottest.Buffer{}, bottest.NewClock(time.Date(2026, 11, 20, 20, 0, 0, 0, time.UTC)))
	ctx := context.Background()
	ann := bot.Message{Platform: "discord", Workspace: "7000", Channel: "5550", Key: "s1a1764961200",
		Message: render.Message{Text: "🃏 Home game on Sat 5 Dec", Buttons: []render.Button{{Label: "Yes", Command: "rsvp yes", Token: "1"}}}}
	n := f.count()
	for range 2 {
		if err := a.Send(ctx, ann); err != nil {
			t.Fatal(err)
		}
	}
	other := ann
	other.Key, other.Text = "s1r1764961200", "⏰ The game starts in 30 minutes"
	plain := bot.Message{Platform: "discord", Workspace: "7000", Channel: "5550", Message: render.Message{Text: "alice opened a table"}}
	for _, m := range []bot.Message{other, plain, plain} {
		if err := a.Send(ctx, m); err != nil {
			t.Fatal(err)
		}
	}
	var created, again []string
	for _, c := range f.since(n) {
		if c.Method != "POST" || c.Path != "/channels/5550/messages" {
			continue
		}
		if c.Again {
			again = append(again, c.content())
		} else {
			created = append(created, c.content())
		}
		if strings.HasPrefix(c.content(), "🃏") && (c.Body["nonce"] != "s1a1764961200" || c.Body["enforce_nonce"] != true) {
			t.Errorf("announcement sent with nonce %v, enforce_nonce %v; want its key and true", c.Body["nonce"], c.Body["enforce_nonce"])
		}
		if strings.HasPrefix(c.content(), "alice") && c.Body["nonce"] != nil {
			t.Errorf("a post without a key carries nonce %v", c.Body["nonce"])
		}
	}
	if len(created) != 4 || len(again) != 1 || !strings.HasPrefix(again[0], "🃏") {
		t.Errorf("messages created %q, answered with an earlier one %q; want 4 created and the announcement's second send answered", created, again)
	}
}

// TestNonceFitsDiscord: a nonce is at most 25 characters, and the parts of a long post differ.
func TestNonceFitsDiscord(t *testing.T) {
	long := strings.Repeat("k", 40)
	for _, k := range []string{"s1a1764961200", "s123456789012a1764961200", long} {
		a, b := nonce(k, 0), nonce(k, 1)
		if len(a) > 25 || len(b) > 25 || a == b {
			t.Errorf("nonce(%q) = %q, %q; want two different ones of at most 25 characters", k, a, b)
		}
	}
	if nonce("s1a1764961200", 0) != "s1a1764961200" {
		t.Errorf("a short key is not its own nonce: %q", nonce("s1a1764961200", 0))
	}
}
