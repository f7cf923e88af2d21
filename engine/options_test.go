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

// ritDeck deals A (player 0, button) aces, B (player 2, big blind) kings, C (player 1) 2c3d, then
// the first run 7c 8d 9h Tc 2h and the second run's board second (five cards), with burns between.
func ritDeck(t *testing.T, second string) Deck {
	t.Helper()
	b := MustParseCards(second)
	order := MustParseCards("2c Ks As 3d Kh Ah 2s 7c 8d 9h 3s Tc 4h 2h 3h")
	order = append(order, b[:3]...)
	order = append(order, MustParseCards("4d")...)
	order = append(order, b[3])
	order = append(order, MustParseCards("5d")...)
	order = append(order, b[4])
	d, err := DeckFrom(order)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestR16RunItTwice: a 1,001 pot between A and B, run twice; A wins the first run, B the second: A
// gets 501, B 500. If A wins both runs, A gets 1,001.
func TestR16RunItTwice(t *testing.T) {
	play := func(second string, answers ...string) *Hand {
		h := mustHand(t, Setup{Rules: nl(1, 2), Stacks: []int64{500, 100, 500}, Button: 0, RunItTwice: true, Deck: ritDeck(t, second)})
		do(t, h, "0 allin", "1 fold", "2 call") // C's small blind of 1 stays: a pot of 1,001
		if h.Pot() != 1001 {
			t.Fatalf("pot %d, want 1001", h.Pot())
		}
		o, _ := h.Options()
		if !o.RunItTwice || o.Player != 2 {
			t.Fatalf("after the all-in %+v: want player 2 asked to run it twice", o)
		}
		refuse(t, h, "2 call", ErrRunTwice)
		for _, a := range answers {
			if _, err := h.Apply(parseRIT(t, a)); err != nil {
				t.Fatalf("%s: %v", a, err)
			}
		}
		if !h.Done() {
			t.Fatal("the hand is not over after the answers")
		}
		checkConserved(t, h)
		again, err := Replay(h.Setup(), h.Actions())
		if err != nil || snapshot(again) != snapshot(h) {
			t.Fatalf("replay differs: %v", err)
		}
		return h
	}
	h := play("Kd 4c 5s 6h Js", "2 twice", "0 twice")
	eqStacks(t, h.Stacks(), []int64{501, 99, 500})
	if got := FormatCards(h.Board2()); got != "Kd4c5s6hJs" {
		t.Fatalf("second board %s, want Kd4c5s6hJs (continuing the deck with the same burns)", got)
	}
	h = play("Qd 4c 5s 6h Js", "2 twice", "0 twice")
	eqStacks(t, h.Stacks(), []int64{1001, 99, 0})
	// One "no" is enough: the board runs once, and A's aces take all on the first board.
	h = play("Kd 4c 5s 6h Js", "2 twice", "0 once")
	eqStacks(t, h.Stacks(), []int64{1001, 99, 0})
	if len(h.Board2()) != 0 {
		t.Fatal("a board run once has no second board")
	}
	// Silence is no.
	h = mustHand(t, Setup{Rules: nl(1, 2), Stacks: []int64{500, 100, 500}, Button: 0, RunItTwice: true, Deck: ritDeck(t, "Kd 4c 5s 6h Js")})
	do(t, h, "0 allin", "1 fold", "2 call")
	if _, err := h.Timeout(); err != nil || !h.Done() {
		t.Fatalf("a timeout while asked: %v, done %v", err, h.Done())
	}
	eqStacks(t, h.Stacks(), []int64{1001, 99, 0})
	// Without the option nobody is asked.
	h = mustHand(t, Setup{Rules: nl(1, 2), Stacks: []int64{500, 100, 500}, Button: 0, Deck: ritDeck(t, "Kd 4c 5s 6h Js")})
	do(t, h, "0 allin", "1 fold", "2 call")
	if !h.Done() {
		t.Fatal("a hand without run it twice waited for answers")
	}
	if _, err := h.Apply(Action{Player: 2, Kind: RunTwice}); err == nil {
		t.Fatal("an answer with nobody asking was accepted")
	}
}

func parseRIT(t *testing.T, line string) Action {
	t.Helper()
	kinds := map[string]ActionKind{"twice": RunTwice, "once": RunOnce}
	return Action{Player: int(line[0] - '0'), Kind: kinds[line[2:]]}
}

// TestHalves: a pot's halves for two runs: the odd chip in the first half, in the table's chip unit.
func TestHalves(t *testing.T) {
	for _, tc := range []struct{ amount, chip, first, second int64 }{
		{1001, 1, 501, 500}, {1000, 1, 500, 500}, {25, 5, 15, 10}, {27, 5, 17, 10}, {1, 1, 1, 0},
	} {
		if f, s := halves(tc.amount, tc.chip); f != tc.first || s != tc.second {
			t.Errorf("halves(%d, chip %d) = %d, %d; want %d, %d", tc.amount, tc.chip, f, s, tc.first, tc.second)
		}
	}
}
