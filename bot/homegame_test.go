package bot_test

import (
	"context"
	"strings"
	"testing"

	"github.com/dealerbot/dealerbot/bot"
)

// playOut makes whoever is to act at ch check or call until the hand ends.
func (r *rig) playOut(ch string, users ...string) {
	r.tb.Helper()
	for i := 0; i < 200; i++ {
		if _, inHand := r.seatStacks(ch); !inHand {
			return
		}
		for _, u := range users {
			r.cmd(ch, u, "check")
			r.cmd(ch, u, "call")
		}
	}
	r.tb.Fatal("the hand did not end")
}

// TestStraddleAndBombPot: `straddle` by the player under the gun next, refused for anyone else;
// `bombpot` by the host; both hands are dealt and recorded with their options; chips balance.
func TestStraddleAndBombPot(t *testing.T) {
	r := newRig(t, bot.Config{})
	users := []string{"ann", "ben", "cid", "dee"}
	r.must("c1", "ann", "start straddle=on timer=off")
	for _, u := range users {
		r.must("c1", u, "join 1000")
	}
	r.refused("c1", "ann", "straddle", "The button is drawn at the first hand")
	r.must("c1", "ann", "deal")
	r.playOut("c1", users...)

	// Exactly one player is under the gun next hand; everyone else is refused.
	utg := ""
	for _, u := range users {
		if rep := r.cmd("c1", u, "straddle"); !rep.IsError {
			utg = u
			break
		} else if !strings.Contains(rep.Text, "is): straddle before the hand in which you are") {
			t.Fatalf("%s: straddle refused with %q", u, rep.Text)
		}
	}
	if utg == "" {
		t.Fatal("nobody could straddle")
	}
	r.refused("c1", utg, "straddle", "You already straddle next hand")
	r.refused("c1", "zed", "straddle", "You are not seated at this table")
	r.must("c1", "ann", "deal")
	if !r.chat.saw("c1", utg+" straddles 20") {
		t.Fatalf("no straddle in the channel")
	}
	r.playOut("c1", users...)

	r.refused("c1", "ben", "bombpot", "Only the host (ann) or an admin can call a bomb pot")
	r.refused("c1", "ann", "bombpot -5", "must be more than 0")
	r.refused("c1", "ann", "bombpot 9999999999999", "at most 1,000,000,000,000")
	r.must("c1", "ann", "bombpot 30")
	r.must("c1", "ann", "deal")
	if !r.chat.saw("c1", "Bomb pot: 30 from everyone, no blinds.") {
		t.Fatal("no bomb pot announced")
	}
	r.playOut("c1", users...)
	hands, err := r.db.Hands(context.Background(), "test/w/c1", 3)
	if err != nil || len(hands) != 3 {
		t.Fatalf("hands: %d, %v", len(hands), err)
	}
	if hands[0].BombPot != 30 || hands[0].Straddle || !hands[1].Straddle || hands[1].BombPot != 0 || hands[2].Straddle {
		t.Fatalf("stored options: bomb %d/%v, straddle %v/%v/%v", hands[0].BombPot, hands[1].BombPot, hands[0].Straddle, hands[1].Straddle, hands[2].Straddle)
	}
	r.balance()

	r.must("c2", "eve", "start")
	r.must("c2", "eve", "join")
	r.refused("c2", "eve", "straddle", "This table plays no straddles")
	r.refused("c2", "eve", "set straddle=maybe", "Write straddle=on or straddle=off.")

	// Heads-up there is no straddle.
	r.must("c3", "fay", "start straddle=on timer=off")
	r.must("c3", "fay", "join")
	r.must("c3", "gus", "join")
	r.must("c3", "fay", "deal")
	r.playOut("c3", "fay", "gus")
	r.refused("c3", "fay", "straddle", "There is no straddle heads-up")
	r.refused("c3", "gus", "straddle", "There is no straddle heads-up")
}

// TestRunItTwiceAtTheTable: with runtwice=on an all-in asks both players with buttons; answers from
// anyone else are refused; when both agree the board runs twice and the hand is recorded so.
func TestRunItTwiceAtTheTable(t *testing.T) {
	r := newRig(t, bot.Config{})
	r.must("c1", "ann", "start runtwice=on timer=off")
	r.must("c1", "ann", "join 1000")
	r.must("c1", "ben", "join 1000")
	r.must("c1", "ann", "deal")
	// Before anyone is all-in there is nothing to answer: the player to act is told so, and a
	// `runtwice` without an answer asks for one; neither changes anything.
	first, other := "ann", "ben"
	if rep := r.cmd("c1", "ann", "runtwice yes"); strings.Contains(rep.Text, "not yours") {
		first, other = "ben", "ann"
	}
	r.refused("c1", first, "runtwice yes", "Nobody is asking to run the board twice now.")
	r.refused("c1", other, "runtwice no", "not yours")
	r.refused("c1", first, "runtwice", "Answer `runtwice yes`")
	for _, u := range []string{"ann", "ben", "ann"} {
		if rep := r.cmd("c1", u, "allin"); rep.IsError {
			r.cmd("c1", u, "call")
		}
	}
	asked := false
	for _, m := range r.chat.all() {
		for _, b := range m.Buttons {
			asked = asked || b.Command == "runtwice yes"
		}
	}
	if !asked {
		t.Fatal("nobody was asked to run it twice")
	}
	r.refused("c1", "zed", "runtwice yes", "You are not seated at this table")
	r.must("c1", "kim", "join 1000") // seated, but not dealt into this hand
	r.refused("c1", "kim", "runtwice yes", "You are not in this hand")
	r.refused("c1", "ann", "runtwice maybe", "Answer `runtwice yes`")
	for i := 0; i < 4; i++ {
		r.cmd("c1", "ann", "runtwice yes")
		r.cmd("c1", "ben", "runtwice yes")
	}
	if !r.chat.saw("c1", "Second run") || !r.chat.saw("c1", "the board runs twice") {
		t.Fatal("the board did not run twice")
	}
	hands, err := r.db.Hands(context.Background(), "test/w/c1", 1)
	if err != nil || len(hands) != 1 || !hands[0].RunTwice {
		t.Fatalf("hand stored as %+v, %v", hands, err)
	}
	r.balance()
}

// TestStraddleNeedsChips: the player under the gun next hand with no more than the straddle is
// refused with a sentence, and nothing is recorded for the next hand.
func TestStraddleNeedsChips(t *testing.T) {
	r := newRig(t, bot.Config{})
	users := []string{"hal", "ian", "jo"}
	r.must("c4", "hal", "start straddle=on blinds=10/20 min=400 timer=off")
	for _, u := range users {
		r.must("c4", u, "join 400")
	}
	r.must("c4", "hal", "set blinds=100/200 min=2000") // no buy-in is under 10 big blinds: the blinds rise after
	r.must("c4", "hal", "deal")
	for i := 0; i < 10; i++ { // everyone folds to the big blind: the small blind is left with 300
		for _, u := range users {
			r.cmd("c4", u, "fold")
		}
	}
	refused := 0
	for _, u := range users {
		rep := r.cmd("c4", u, "straddle")
		switch {
		case !rep.IsError:
			t.Fatalf("%s straddled 400 with at most 400 chips", u)
		case strings.Contains(rep.Text, "A straddle of 400 needs more than 400 chips"):
			refused++
		case !strings.Contains(rep.Text, "straddle before the hand in which you are"):
			t.Fatalf("%s: straddle refused with %q", u, rep.Text)
		}
	}
	if refused != 1 {
		t.Fatalf("%d players refused for their chips, want the one under the gun", refused)
	}
	r.must("c4", "hal", "deal")
	if r.chat.saw("c4", "straddles 400") || r.chat.saw("c4", "will straddle") {
		t.Fatal("a refused straddle was posted")
	}
	r.balance()
}

// TestNotesShareOnePost: what one hand's end has to say (the players knocked out, the players left)
// is one channel post, not one each: every post spends the channel's rate limit.
func TestNotesShareOnePost(t *testing.T) {
	r := newRig(t, bot.Config{})
	users := []string{"ann", "ben", "cid", "dee"}
	r.must("c5", "ann", "start tournament buyin=100 stack=1000 timer=off")
	for _, u := range users {
		r.must("c5", u, "join")
	}
	r.must("c5", "ann", "deal")
	for i := 0; i < 4; i++ { // everyone all-in: at least two are out in this one hand
		for _, u := range users {
			r.cmd("c5", u, "allin")
			r.cmd("c5", u, "call")
		}
	}
	var outs []string
	for _, m := range r.chat.all() {
		if !m.Private && m.Channel == "c5" && strings.Contains(m.Text, " is out") {
			outs = append(outs, m.Text)
		}
	}
	if len(outs) != 1 || strings.Count(outs[0], "\n") == 0 {
		t.Fatalf("the hand's notes came in %d posts, want one of several lines: %q", len(outs), outs)
	}
}
