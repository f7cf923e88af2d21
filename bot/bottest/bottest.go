// Package bottest holds what the tests of the bot and of its adapters share: a clock whose timers
// fire only when the test moves it, and a buffer that many goroutines may log into.
package bottest

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dealerbot/dealerbot/bot"
	"github.com/dealerbot/dealerbot/bot/table"
	"github.com/dealerbot/dealerbot/engine"
	"github.com/dealerbot/dealerbot/render"
)

// CheckFindings compares a health check's findings with want, one line each: a sentence the finding
// contains, prefixed "✗ " for one that reports something missing.
func CheckFindings(t testing.TB, got []bot.Finding, want []string) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%d findings, want %d: %+v", len(got), len(want), got)
	}
	for i, w := range want {
		missing := strings.HasPrefix(w, "✗ ")
		if got[i].OK == missing || !strings.Contains(got[i].Text, strings.TrimPrefix(w, "✗ ")) {
			t.Errorf("finding %d: %+v, want OK=%v containing %q", i, got[i], !missing, w)
		}
	}
}

// Buffer is a bytes.Buffer safe for many goroutines to write into (a logger's destination).
type Buffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *Buffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

// String returns everything written so far.
func (l *Buffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// Clock is an injected clock (bot.Config's Now and AfterFunc): its timers fire only when the test
// advances it, in order, each running to completion.
type Clock struct {
	mu     sync.Mutex
	now    time.Time
	timers []*timer
	// Settle, when set, runs after each timer fires: a test of the dealer waits there for the table's
	// writer, so that what the timer changed is on screen before time moves on.
	Settle func()
}

type timer struct {
	c       *Clock
	at      time.Time
	f       func()
	stopped bool
	fired   bool
}

func (t *timer) Stop() bool {
	t.c.mu.Lock()
	defer t.c.mu.Unlock()
	was := !t.stopped && !t.fired
	t.stopped = true
	return was
}

// NewClock returns a clock standing at at.
func NewClock(at time.Time) *Clock { return &Clock{now: at} }

// Now is the clock's time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// AfterFunc runs f when the clock has been advanced by d.
func (c *Clock) AfterFunc(d time.Duration, f func()) bot.Timer {
	c.mu.Lock()
	defer c.mu.Unlock()
	t := &timer{c: c, at: c.now.Add(d), f: f}
	c.timers = append(c.timers, t)
	return t
}

// Pending returns the number of timers still to fire.
func (c *Clock) Pending() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for _, t := range c.timers {
		if !t.stopped && !t.fired {
			n++
		}
	}
	return n
}

// Set puts the clock at t without firing any timer (a scheduler's tick is driven by hand).
func (c *Clock) Set(t time.Time) {
	c.mu.Lock()
	c.now = t
	c.mu.Unlock()
}

// Advance moves the clock on by d, firing the timers that come due, in order.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	end := c.now.Add(d)
	c.mu.Unlock()
	for {
		c.mu.Lock()
		var next *timer
		for _, t := range c.timers {
			if !t.stopped && !t.fired && !t.at.After(end) && (next == nil || t.at.Before(next.at)) {
				next = t
			}
		}
		if next == nil {
			c.now = end
			c.mu.Unlock()
			return
		}
		next.fired = true
		c.now = next.at
		c.mu.Unlock()
		next.f()
		if c.Settle != nil {
			c.Settle()
		}
	}
}

// NoTimer is a timer that never fires: Config.AfterFunc for tests that drive every step themselves.
func NoTimer(time.Duration, func()) bot.Timer { return noTimer{} }

type noTimer struct{}

func (noTimer) Stop() bool { return true }

// PlayHand deals a heads-up no-limit 5/10 hand between ann and ben (1,000 chips each) at table id,
// from a deck shuffled by hand number no and seed, each player in turn taking the next of kinds (bets
// and raises the least allowed), and returns it as the store keeps a finished hand. It fails tb when
// the kinds do not play the hand to its end.
func PlayHand(tb testing.TB, id string, no int64, seed uint64, at time.Time, kinds ...engine.ActionKind) table.HandRecord {
	tb.Helper()
	deck := engine.OrderedDeck()
	r := rand.New(rand.NewPCG(uint64(no), seed))
	r.Shuffle(len(deck), func(i, j int) { deck[i], deck[j] = deck[j], deck[i] })
	s := engine.Setup{Rules: engine.Rules{Variant: engine.NoLimit, SmallBlind: 5, BigBlind: 10}, Stacks: []int64{1000, 1000}, Deck: deck}
	h, err := engine.NewHand(s)
	if err != nil {
		tb.Fatal(err)
	}
	var acts []engine.Action
	for _, k := range kinds {
		o, ok := h.Options()
		if !ok {
			tb.Fatalf("hand %d: nobody to act for %v", no, k)
		}
		a := engine.Action{Player: o.Player, Kind: k}
		if k == engine.Bet || k == engine.Raise {
			a.Amount = o.MinTo
		}
		if _, err := h.Apply(a); err != nil {
			tb.Fatalf("hand %d: %v: %v", no, a, err)
		}
		acts = append(acts, a)
	}
	if !h.Done() {
		tb.Fatalf("hand %d did not end", no)
	}
	return table.HandRecord{Table: id, No: no, Time: at, Names: []string{"Ann", "Ben"}, Users: []string{"ann", "ben"}, Seats: []int{1, 2},
		Size: 9, Rules: s.Rules, Stacks: s.Stacks, Deck: deck, Salt: fmt.Sprint("salt", no), Proof: render.ProofVersion,
		Actions: acts, Final: h.Stacks()}
}
