package console_test

import (
	"bytes"
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dealerbot/dealerbot/adapters/console"
	"github.com/dealerbot/dealerbot/bot"
	"github.com/dealerbot/dealerbot/bot/bottest"
	"github.com/dealerbot/dealerbot/render"
)

// Issue 28 item 9: the console.

// TestItem9TimerShowsItsSeconds: with timer=10 the turn shows 10 seconds left, not the 15 a dealer
// back from a restart grants, however little time passes between the step and the drawing.
func TestItem9TimerShowsItsSeconds(t *testing.T) {
	var mu sync.Mutex
	now := time.Date(2026, 11, 20, 20, 0, 0, 0, time.UTC)
	clock := func() time.Time { // time passes a little at every reading, as it does for real
		mu.Lock()
		defer mu.Unlock()
		now = now.Add(time.Millisecond)
		return now
	}
	var out bytes.Buffer
	chat := console.NewChat(&out)
	d, err := bot.New(bottest.OpenDB(t), chat, bot.Config{Now: clock, AfterFunc: bottest.NoTimer, RateLimit: bot.RateLimit{Off: true}})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close(context.Background())
	in := strings.NewReader("alice: start timer=10\nalice: join\nbob: join\nalice: deal\n")
	if err := console.Run(context.Background(), d, chat, in, console.Options{Flush: d.Flush}); err != nil {
		t.Fatal(err)
	}
	if text := out.String(); !strings.Contains(text, " 10s left.") || strings.Contains(text, " 15s left.") {
		t.Errorf("the turn does not show 10 seconds left:\n%s", text)
	}
}

// TestItem9HandWithoutADecisionInTheBox: a hand that ends without a decision (the blinds put both
// players all-in) is drawn in the table box like every other hand; a turn ping stays a line.
func TestItem9HandWithoutADecisionInTheBox(t *testing.T) {
	g := newGame(t)
	g.rnd.drawDeck(t, "As Kd")
	g.must("alice: start", "alice: join 400", "bob: join 400", "alice: set blinds=400/800", "alice: deal")
	if tr := g.table(); tr.Hand != nil || tr.HandNo != 1 {
		t.Fatalf("hand #1 did not end at once: %+v", tr.Hand)
	}
	out := g.out.String()
	i := strings.Index(out, "Hand #1 · ")
	if i < 0 || !strings.HasSuffix(out[:i], "┌──────────────────────────────────────────────\n│ ") {
		t.Errorf("hand #1 is not drawn in the box:\n%s", out)
	}
	var ping bytes.Buffer
	c := console.NewChat(&ping)
	if _, err := c.Post(context.Background(), bot.Message{Message: render.Message{Text: "🔔 @bob, it is your turn in hand #2."}}); err != nil {
		t.Fatal(err)
	}
	if got := ping.String(); got != "🔔 @bob, it is your turn in hand #2.\n" {
		t.Errorf("a ping is drawn as %q, want a line", got)
	}
}
