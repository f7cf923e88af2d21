package table_test

import (
	"strings"
	"testing"
	"time"

	"github.com/dealerbot/dealerbot/bot/table"
	"github.com/dealerbot/dealerbot/engine"
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
			if got := g.s.Chores(g.now, table.Timers{Turn: true}).Wait; got != tc.want {
				t.Errorf("the turn's wait = %v, want %v", got, tc.want)
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

// TestPingTiming (issue 37 item 7): the turn's ping comes when a third of the timer is left, at least
// 5 s before the end, and says the time left to the second (a ping a hair after its moment said
// "9 s left" with timer=20, and with timer=10 one came at the time-out saying "0 s left").
func TestPingTiming(t *testing.T) {
	for _, tc := range []struct {
		timer string
		after time.Duration // when the ping comes after the turn is shown
		left  string
	}{
		{"timer=60", 40 * time.Second, "20 s left"},
		{"timer=30", 20 * time.Second, "10 s left"},
		{"timer=20", 20*time.Second - 20*time.Second/3, "7 s left"},
		{"timer=15", 10 * time.Second, "5 s left"},
		{"timer=10", 5 * time.Second, "5 s left"},
		{"timer=12", 7 * time.Second, "5 s left"},
	} {
		t.Run(tc.timer, func(t *testing.T) {
			g := newGame(t, tc.timer)
			g.do(table.State.Join, alice)
			g.do(table.State.Join, bob)
			g.deal()
			g.s.Rec.Hand.Deadline = time.Time{}
			c := g.s.Chores(g.now, table.Timers{Turn: true})
			if c.PingAfter != tc.after {
				t.Fatalf("ping after %v, want %v", c.PingAfter, tc.after)
			}
			deadline := g.now.Add(c.Wait)
			// The timer fires a few milliseconds late, as timers do.
			text, ok := g.s.Ping(g.now.Add(c.PingAfter+3*time.Millisecond), deadline)
			if !ok || !strings.HasSuffix(text, ", "+tc.left+".") {
				t.Errorf("the ping says %q, want %q", text, tc.left)
			}
		})
	}
	for _, tc := range []struct {
		name, timer string
		left        time.Duration // the stored deadline from now (a resumed turn); 0: none
		want        time.Duration
	}{
		{"no timer: the shell's own delay", "timer=off", 0, 0},
		{"resumed with less than a third left: the grace's 15 s, no ping", "timer=60", 8 * time.Second, -1},
		{"resumed with 8 s left: the grace's 15 s, pinged at 10 s left", "timer=30", 8 * time.Second, 5 * time.Second},
		{"resumed with 20 s left: still at 10 s left", "timer=30", 20 * time.Second, 10 * time.Second},
	} {
		g := newGame(t, tc.timer)
		g.do(table.State.Join, alice)
		g.do(table.State.Join, bob)
		g.deal()
		g.s.Rec.Hand.Deadline = time.Time{}
		if tc.left != 0 {
			g.s.Rec.Hand.Deadline = g.now.Add(tc.left)
		}
		if got := g.s.Chores(g.now, table.Timers{Turn: true}).PingAfter; got != tc.want {
			t.Errorf("%s: ping after %v, want %v", tc.name, got, tc.want)
		}
	}
}

// The dealer's own moves are the core's decisions (issue 29, item 2): the turn's clock, acting at once
// for a player who left, dealing the next hand by itself only when the table can, after the pause,
// and waiting for a rebuy offer to be seen.
func TestChores(t *testing.T) {
	g := newGame(t, "timer=30")
	g.s.DealDelay = 5 * time.Second
	g.do(table.State.Join, alice)
	g.do(table.State.Join, bob)
	g.do(table.State.Join, carol)
	if c := g.s.Chores(g.now, table.Timers{Deal: true}); c.Deal {
		t.Fatalf("before the first hand the dealer dealt by itself: %+v (the first deal is the host's)", c)
	}
	st := g.deal()
	c := g.s.Chores(g.now, st.Timers)
	if !st.Timers.Turn || !c.Turn || c.Forfeit || c.Wait != 30*time.Second || c.Deal || c.Backstop != table.ShowBackstop {
		t.Fatalf("after the deal: %+v from %+v, want the first player's 30 s clock and no deal", c, st.Timers)
	}
	// The player to act leaves: the dealer acts for them at once, with no clock.
	who := g.toAct()
	st = g.do(table.State.Leave, who)
	if c := g.s.Chores(g.now, st.Timers); !c.Forfeit || c.Turn || c.Wait != 0 {
		t.Fatalf("after %s left on their turn: %+v, want the dealer to act for them at once", who.Name, c)
	}
	fst, err := g.s.Forfeit(g.now)
	if err != nil {
		t.Fatal(err)
	}
	g.take(fst)
	for g.s.Hand != nil && !g.s.Hand.Done() {
		st = g.do(table.Betting(engine.Fold).Act, g.toAct())
	}
	g.check("after the hand")
	c = g.s.Chores(g.now, st.Timers)
	if !c.Deal || c.Pause != 5*time.Second || c.Turn || c.Forfeit {
		t.Fatalf("after a hand with two players left: %+v from %+v, want the next deal in 5 s", c, st.Timers)
	}
	q := g.s
	q.Quarantined = true
	if q.DealsItself() {
		t.Error("a quarantined table deals by itself")
	}
	// One player left who can play: no automatic deal.
	first := g.s.Rec.Seats[g.s.Playing()[0]]
	g.do(table.State.Leave, table.Caller{User: first.User, Name: first.Name})
	if g.s.DealsItself() || g.s.Chores(g.now, table.Timers{Deal: true}).Deal {
		t.Fatalf("with %d players the dealer deals by itself", len(g.s.Playing()))
	}
}
