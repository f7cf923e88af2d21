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
