package bot_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dealerbot/dealerbot/bot"
	"github.com/dealerbot/dealerbot/bot/table"
	"github.com/dealerbot/dealerbot/engine"
	"github.com/dealerbot/dealerbot/render"
)

// TestR30TimeBankAtTheDealer: R-30 with the dealer's clock (timer 30 s, timebank=60): the first
// player's timer runs out and their bank starts, shown on the table; they act 20 s into it and have
// 40 s left. The next player's bank starts and the dealer restarts 25 s into it: the bank resumes
// with the 35 s left, and when it is gone the player is checked or folded with a bank of 0. The
// chips add up throughout.
func TestR30TimeBankAtTheDealer(t *testing.T) {
	r, sc := liveRig(t, "timer=30 timebank=60")
	who := func() string {
		tr := r.table("c1")
		return tr.Seats[tr.Hand.Seats[firstToAct(t, tr)]].User
	}
	used := func(user string) time.Duration {
		tr := r.table("c1")
		return tr.Standings[table.StandingIndex(tr.Standings, user)].BankUsed
	}
	first := who()
	r.advance(30 * time.Second)
	sc.settle(t)
	tr := r.table("c1")
	if tr.Hand.BankFrom.IsZero() || who() != first {
		t.Fatalf("the timer ran out: bank running %v, %s to act; want %s on the bank", !tr.Hand.BankFrom.IsZero(), who(), first)
	}
	sc.smu.Lock()
	text := sc.text[tr.Screen.Message]
	sc.smu.Unlock()
	if !strings.Contains(text, first+" is using the time bank: 60 s") {
		t.Errorf("the table does not show the bank running:\n%s", text)
	}
	r.advance(20 * time.Second)
	sc.settle(t)
	r.must("c1", first, "call")
	sc.settle(t)
	if got := used(first); got != 20*time.Second {
		t.Fatalf("%s used %v of the bank, want 20 s", first, got)
	}
	if !r.table("c1").Hand.BankFrom.IsZero() {
		t.Fatal("the bank still runs after the player acted")
	}
	second := who()
	r.advance(30 * time.Second)
	sc.settle(t)
	if r.table("c1").Hand.BankFrom.IsZero() || who() != second {
		t.Fatalf("%s's bank does not run", second)
	}
	tot := r.balance()
	r.close()
	r.clk.Set(r.clock().Add(25 * time.Second)) // the dealer is down for 25 s of the bank
	r.openWith(sc)
	sc.settle(t)
	r.advance(34 * time.Second)
	sc.settle(t)
	if who() != second {
		t.Fatalf("after the restart %s's bank ended early: %s to act", second, who())
	}
	r.advance(2 * time.Second)
	sc.settle(t)
	if tr := r.table("c1"); tr.Hand != nil && who() == second {
		t.Fatalf("%s's bank did not run out after the restart", second)
	}
	if got := used(second); got != 60*time.Second {
		t.Fatalf("%s's bank used %v, want all 60 s", second, got)
	}
	if got := r.balance(); got != tot {
		t.Fatalf("chips before the restart %+v, after %+v", tot, got)
	}
}

// Missed blinds at the dealer: dee sits out until the big blind passes her, then `sitin post`: she
// posts 10 live and 5 dead in the next hand. The dealer restarts mid-hand and replays it with the
// posts; the hand's record keeps them and replays to its final stacks; the chips add up.
func TestMissedBlindsPostAcrossRestart(t *testing.T) {
	r := newRig(t, bot.Config{})
	users := []string{"ann", "ben", "cid", "dee"}
	r.must("c1", "ann", "start timer=off missed=post")
	for _, u := range users {
		r.must("c1", u, "join 1000")
	}
	r.must("c1", "ann", "deal")
	r.playOut("c1", users...)
	r.must("c1", "dee", "sitout")
	seat := func() table.SeatRecord {
		for _, st := range r.table("c1").Seats {
			if st.User == "dee" {
				return st
			}
		}
		t.Fatal("dee is not seated")
		return table.SeatRecord{}
	}
	for i := 0; seat().Owes == 0; i++ {
		if i == 6 {
			t.Fatal("the big blind never passed dee")
		}
		r.must("c1", "ann", "deal")
		r.playOut("c1", users...)
	}
	r.refused("c1", "dee", "sitin maybe", "`sitin post` or `sitin wait`")
	r.must("c1", "dee", "sitin post")
	r.must("c1", "ann", "deal")
	tr := r.table("c1")
	if tr.Hand == nil || tr.Hand.Posts == nil {
		t.Fatalf("dee's posts are not in the hand's record: %+v", tr.Hand)
	}
	no := tr.Hand.No
	tot := r.balance()
	r.restart()
	if got := r.table("c1").Hand; got == nil || got.No != no || got.Posts == nil {
		t.Fatalf("after the restart the hand in play is %+v", got)
	}
	r.playOut("c1", users...)
	h := r.mustHand("c1", no)
	var posted bool
	for _, p := range h.Posts {
		posted = posted || p == engine.Post{Live: 10, Dead: 5}
	}
	if !posted {
		t.Fatalf("hand #%d's record keeps posts %v, want dee's 10 and 5 dead", no, h.Posts)
	}
	again, err := engine.Replay(h.Setup(), h.Actions)
	if err != nil || !slices.Equal(again.Stacks(), h.Final) {
		t.Fatalf("the record replays to %v (%v), want %v", again.Stacks(), err, h.Final)
	}
	if got := r.balance(); got != tot {
		t.Fatalf("chips before %+v, after %+v", tot, got)
	}
}

// away=1: dee sits out and the big blind passes her once: she is stood up at that deal, her stack
// back in her bankroll through the ledger, and the channel's table says so; the store's totals
// balance.
func TestAwayStandsUpAtTheDealer(t *testing.T) {
	r := newRig(t, bot.Config{})
	users := []string{"ann", "ben", "cid", "dee"}
	r.must("c1", "ann", "start timer=off away=1")
	for _, u := range users {
		r.must("c1", u, "join 1000")
	}
	before := r.bankrolls("w")["dee"]
	r.must("c1", "ann", "deal")
	r.playOut("c1", users...)
	r.must("c1", "dee", "sitout")
	var stack int64
	for _, st := range r.table("c1").Seats {
		if st.User == "dee" {
			stack = st.Stack
		}
	}
	for i := 0; ; i++ {
		seated := false
		for _, st := range r.table("c1").Seats {
			seated = seated || st.User == "dee"
		}
		if !seated {
			break
		}
		if i == 6 {
			t.Fatal("dee was never stood up")
		}
		r.must("c1", "ann", "deal")
		r.playOut("c1", users...)
	}
	if got := r.bankrolls("w")["dee"]; got != before+stack {
		t.Fatalf("dee's bankroll is %d, want %d: her stack of %d back", got, before+stack, stack)
	}
	if !r.chat.saw("c1", fmt.Sprintf("dee sat out 1 orbit and is stood up: %s chips went back to the bankroll.", render.Chips(stack))) {
		t.Error("the channel was not told dee was stood up")
	}
	r.balance()
}
