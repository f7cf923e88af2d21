package table_test

import (
	"strings"
	"testing"
	"time"

	"github.com/dealerbot/dealerbot/bot/table"
)

// The turn's clock is the core's decision: the table's timer; after a restart the time left, but at
// least RestartGrace and never more than the timer (timer=10 is 10 s, not the grace's 15).
func TestTurnWait(t *testing.T) {
	for _, tc := range []struct {
		name     string
		timer    string
		deadline time.Duration // from now; 0: none stored
		want     time.Duration
	}{
		{"fresh turn", "timer=30", 0, 30 * time.Second},
		{"just acted: the stored deadline leaves the timer", "timer=30", 30*time.Second - time.Millisecond, 30*time.Second - time.Millisecond},
		{"resumed with 20 s left", "timer=30", 20 * time.Second, 20 * time.Second},
		{"resumed past the deadline: the grace", "timer=30", -time.Minute, table.RestartGrace},
		{"a 10 s timer stays 10 s", "timer=10", 10*time.Second - time.Millisecond, 10 * time.Second},
		{"a 10 s timer past its deadline: 10 s, not the grace", "timer=10", -time.Minute, 10 * time.Second},
		{"no timer", "timer=0", 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := newGame(t, tc.timer)
			g.do(table.State.Join, alice)
			g.do(table.State.Join, bob)
			g.deal()
			if tc.deadline != 0 {
				g.s.Rec.Hand.Deadline = g.now.Add(tc.deadline)
			} else {
				g.s.Rec.Hand.Deadline = time.Time{}
			}
			if got := g.s.TurnWait(g.now); got != tc.want {
				t.Errorf("TurnWait = %v, want %v", got, tc.want)
			}
		})
	}
}

// The ping names the player to act with a mention that notifies them, what they owe and the time
// left; nobody is pinged between hands.
func TestPingText(t *testing.T) {
	g := newGame(t, "timer=30")
	if _, ok := g.s.Ping(g.now, time.Time{}); ok {
		t.Fatal("a ping before any hand")
	}
	g.do(table.State.Join, alice)
	g.do(table.State.Join, bob)
	g.deal()
	text, ok := g.s.Ping(g.now, g.now.Add(12*time.Second+500*time.Millisecond))
	if !ok {
		t.Fatal("no ping for the player to act")
	}
	who := g.toAct()
	for _, want := range []string{"🔔 @" + who.Name + ", it is your turn in hand #1", "to call", "12 s left"} {
		if !strings.Contains(text, want) {
			t.Errorf("ping %q lacks %q", text, want)
		}
	}
	if got := table.Mention("discord", "U1", "Alice"); got != "<@U1>" {
		t.Errorf("Discord mention %q", got)
	}
	if got := table.Mention("console", "U1", "Alice"); got != "@Alice" {
		t.Errorf("console mention %q", got)
	}
}
