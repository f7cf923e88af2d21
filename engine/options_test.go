package engine

import "testing"

// TestR15Straddle: four players, blinds 5/10, the player under the gun straddles 20. The button may
// call 20 or raise to at least 40; if everyone calls, the straddler may check, which ends pre-flop.
func TestR15Straddle(t *testing.T) {
	s := Setup{Rules: nl(5, 10), Stacks: []int64{1000, 1000, 1000, 1000}, Button: 3, Straddle: true,
		Deck: deckFor(t, 3, []string{"2c3c", "2d3d", "4c5c", "4d5d"}, "TsJsQs8h9h")}
	h := mustHand(t, s)
	if got := UnderTheGun(4, 3); got != 2 {
		t.Fatalf("under the gun is %d, want 2", got)
	}
	o, _ := h.Options()
	if o.Player != 3 || o.ToCall != 20 || o.MinTo != 40 {
		t.Fatalf("the button's options %+v: want player 3 to call 20 or raise to at least 40", o)
	}
	refuse(t, h, "3 raise 39", ErrTooSmall)
	do(t, h, "3 call", "0 call", "1 call")
	o, _ = h.Options()
	if o.Player != 2 || !o.CanCheck || o.MinTo != 40 {
		t.Fatalf("the straddler's option %+v: want player 2 to check or raise to 40", o)
	}
	evs := do(t, h, "2 check")
	if h.Street() != Flop || h.Pot() != 80 {
		t.Fatalf("after the straddler checks: street %v, pot %d; want the flop and 80", h.Street(), h.Pot())
	}
	found := false
	for _, ev := range h.Events() {
		found = found || ev.Kind == EvStraddle && ev.Player == 2 && ev.Amount == 20
	}
	if !found || len(evs) == 0 {
		t.Fatal("no straddle event for player 2")
	}
	again, err := Replay(h.Setup(), h.Actions())
	if err != nil || snapshot(again) != snapshot(h) {
		t.Fatalf("replay of a straddled hand differs: %v", err)
	}
	for _, bad := range []Setup{
		{Rules: nl(5, 10), Stacks: []int64{1000, 1000}, Straddle: true, Deck: s.Deck},                      // heads-up
		{Rules: nl(5, 10), Stacks: []int64{1000, 1000, 20, 1000}, Button: 3, Straddle: true, Deck: s.Deck}, // 20 is not more than the straddle
		{Rules: Rules{Variant: FixedLimit, SmallBlind: 5, BigBlind: 10}, Stacks: []int64{100, 100, 100}, Straddle: true, Deck: s.Deck},
	} {
		if _, err := NewHand(bad); err == nil {
			t.Errorf("a straddle was allowed in %+v", bad)
		}
	}
}

// TestR17BombPot: four players with 1,000 each, a bomb pot of 20: the flop comes to a pot of 80 with
// everyone holding 980, and the first live player left of the button acts first.
func TestR17BombPot(t *testing.T) {
	h := mustHand(t, Setup{Rules: nl(5, 10), Stacks: []int64{1000, 1000, 1000, 1000}, Button: 3, BombPot: 20,
		Deck: deckFor(t, 3, []string{"2c3c", "2d3d", "4c5c", "4d5d"}, "TsJsQs8h9h")})
	if h.Street() != Flop || len(h.Board()) != 3 || h.Pot() != 80 {
		t.Fatalf("bomb pot: street %v, board %v, pot %d; want the flop at once and 80", h.Street(), h.Board(), h.Pot())
	}
	eqStacks(t, h.Stacks(), []int64{980, 980, 980, 980})
	o, _ := h.Options()
	if o.Player != 0 || !o.CanBet || o.MinTo != 10 {
		t.Fatalf("first to act %+v: want player 0, left of the button, to check or bet at least the big blind", o)
	}
	for _, ev := range h.Events() {
		if ev.Kind == EvSmallBlind || ev.Kind == EvBigBlind {
			t.Fatal("a bomb pot posts no blinds")
		}
	}
	do(t, h, "0 check", "1 check", "2 check", "3 check", "0 check", "1 check", "2 check", "3 check", "0 check", "1 check", "2 check", "3 check")
	checkConserved(t, h)

	// A player with the bomb amount or less is all-in for what they have; pots as in section 6.
	short := mustHand(t, Setup{Rules: nl(5, 10), Stacks: []int64{15, 1000, 1000, 1000}, Button: 3, BombPot: 20,
		Deck: deckFor(t, 3, []string{"2c3c", "2d3d", "4c5c", "4d5d"}, "TsJsQs8h9h")})
	if short.Pot() != 75 || !short.IsAllIn(0) {
		t.Fatalf("a 15-chip stack in a bomb pot of 20: pot %d, all-in %v; want 75 and all-in", short.Pot(), short.IsAllIn(0))
	}
	do(t, short, "1 check", "2 check", "3 check", "1 check", "2 check", "3 check", "1 check", "2 check", "3 check")
	checkConserved(t, short)
}
