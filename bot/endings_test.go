package bot_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/dealerbot/dealerbot/bot"
	"github.com/dealerbot/dealerbot/engine"
)

// TestShortBigBlindNobodyAsked (RULES.md R-20): heads-up, one player's whole stack is less than the
// small blind. Whichever of them has the button, the other has put in at least as much as the short
// stack's all-in, so nobody is asked to act (nobody can fold the pot away): the board is run out at
// the deal and the hand is over.
func TestShortBigBlindNobodyAsked(t *testing.T) {
	r := newRig(t, bot.Config{})
	shortBigBlind := false
	// The button is drawn: play tables until the short stack has been the big blind (and, on the way,
	// the small blind), swapping who is short.
	for i := 0; i < 20 && !shortBigBlind; i++ {
		ch := fmt.Sprintf("c%d", i)
		short, deep := "ann", "ben"
		if i%2 == 1 {
			short, deep = deep, short
		}
		// No buy-in is under 10 big blinds: they buy in at 4/8, then the blinds go up to 400/800.
		r.must(ch, "ann", "start blinds=4/8 min=100 max=5000 timer=off")
		r.must(ch, "ann", "join "+map[bool]string{true: "300", false: "2400"}[short == "ann"])
		r.must(ch, "ben", "join "+map[bool]string{true: "300", false: "2400"}[short == "ben"])
		r.must(ch, "ann", "set blinds=400/800 min=8000 max=20000")
		r.must(ch, deep, "deal")
		if tr := r.table(ch); tr.Hand != nil {
			t.Fatalf("%s: a player is asked to act with nothing to decide (hand %+v)", ch, tr.Hand)
		}
		hands, err := r.db.Hands(context.Background(), "test/w/"+ch, 1)
		if err != nil || len(hands) != 1 {
			t.Fatalf("%s: hand #1 not kept: %v %v", ch, hands, err)
		}
		hr := hands[0]
		if len(hr.Actions) != 0 {
			t.Fatalf("%s: actions were taken: %v", ch, hr.Actions)
		}
		h, err := engine.Replay(hr.Setup(), hr.Actions)
		if err != nil {
			t.Fatal(err)
		}
		if got := h.Stacks()[0] + h.Stacks()[1]; got != 2700 {
			t.Fatalf("%s: stacks after the hand add up to %d, want 2,700", ch, got)
		}
		shortBigBlind = hr.Users[hr.Button] != short // heads-up the button posts the small blind
		r.balance()
	}
	if !shortBigBlind {
		t.Fatal("the short stack was never the big blind: the test proves nothing")
	}
}

// TestFoldWinSaysWhoWon: the final table message of a hand won by everyone else folding says who
// won and how much, with the last action and the uncalled bet, like a showdown does.
func TestFoldWinSaysWhoWon(t *testing.T) {
	r, sc := liveRig(t, "timer=off")
	id := r.table("c1").Screen.Message
	tr := r.table("c1")
	raiser := tr.Seats[tr.Hand.Seats[firstToAct(t, tr)]].User
	r.must("c1", raiser, "raise 40")
	var folders []string
	for r.table("c1").Hand != nil {
		tr := r.table("c1")
		u := tr.Seats[tr.Hand.Seats[firstToAct(t, tr)]].User
		r.must("c1", u, "fold")
		folders = append(folders, u)
	}
	if err := r.d.Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	sc.settle(t)
	sc.smu.Lock()
	text := sc.text[id]
	sc.smu.Unlock()
	lines := strings.Split(text, "\n")
	last, won := lines[len(lines)-2], lines[len(lines)-1]
	if !strings.HasPrefix(won, raiser+" wins ") || !strings.HasSuffix(won, " — everyone else folded") {
		t.Fatalf("the final table message does not say who won:\n%s", text)
	}
	if !strings.Contains(last, folders[len(folders)-1]+" folds") || !strings.Contains(last, "Uncalled 30 returned to "+raiser) {
		t.Fatalf("the final table message lacks the last action or the uncalled bet:\n%s", text)
	}
	r.balance()
}
