package engine

import (
	"math"
	"testing"
)

// The worked examples of RULES.md section 7, each by its number.

func nl(sb, bb int64) Rules { return Rules{Variant: NoLimit, SmallBlind: sb, BigBlind: bb} }

func TestR1PotTotal(t *testing.T) {
	// Four players each put 1 in on each of the four streets: the pot is 16.
	h := mustHand(t, Setup{Rules: nl(1, 1), Stacks: []int64{100, 100, 100, 100}, Button: 3,
		Deck: deckFor(t, 3, []string{"AsAh", "KsKh", "QsQh", "2c3d"}, "4h7c9dTsJd")})
	do(t, h, "2 call", "3 call", "0 check", "1 check")
	for street := 0; street < 2; street++ {
		do(t, h, "0 bet 1", "1 call", "2 call", "3 call")
	}
	if got, want := h.Pot(), int64(12); got != want {
		t.Fatalf("pot after three streets: %d, want %d", got, want)
	}
	do(t, h, "0 bet 1", "1 call", "2 call")
	if got, want := h.Pot(), int64(15); got != want {
		t.Fatalf("pot before the last river call: %d, want %d", got, want)
	}
	// The last call closes the river: the pot awarded is 16.
	evs := do(t, h, "3 call")
	var awarded int64
	for _, e := range evs {
		if e.Kind == EvAward {
			awarded += e.Amount
		}
	}
	if awarded != 16 {
		t.Fatalf("awarded %d, want 16", awarded)
	}
	checkConserved(t, h)
}

func TestR2FullRaise(t *testing.T) {
	// A bets 10 from 0; B's minimum raise is to 20.
	h := mustHand(t, Setup{Rules: nl(5, 10), Stacks: []int64{500, 500, 500}, Button: 2,
		Deck: deckFor(t, 2, []string{"AsAh", "KsKh", "QsQh"}, "2c7d9hJs4c")})
	do(t, h, "2 call", "0 call", "1 check", "0 bet 10")
	o, _ := h.Options()
	if o.Player != 1 || !o.CanRaise || o.MinTo != 20 {
		t.Fatalf("options %+v, want player 1 may raise to at least 20", o)
	}
	e := refuse(t, h, "1 raise 19", ErrTooSmall)
	if e.Message != "The smallest raise is to 20." {
		t.Fatalf("message %q", e.Message)
	}
	do(t, h, "1 raise 20")
}

// r3 plays RULES.md R-3 up to E's all-in for eTotal on the flop.
func r3(t *testing.T, eTotal int64) *Hand {
	// A..E are players 0..4, E on the button: A acts first after the flop.
	h := mustHand(t, Setup{Rules: nl(10, 20), Stacks: []int64{5000, 5000, 5000, 1320, eTotal + 20}, Button: 4,
		Deck: deckFor(t, 4, []string{"AsAh", "KsKh", "QsQh", "JsJh", "TsTh"}, "2c7d9h3s4d")})
	do(t, h, "2 call", "3 call", "4 call", "0 call", "1 check")
	do(t, h, "0 bet 500", "1 raise 1000", "2 call", "3 allin", "4 allin")
	return h
}

func TestR3ShortAllInsCumulativeReopening(t *testing.T) {
	h := r3(t, 1700)
	o, _ := h.Options()
	if o.Player != 0 || !o.CanCall || !o.CanRaise || o.ToCall != 1200 || o.MinTo != 2200 {
		t.Fatalf("A's options %+v: want fold, call 1200 (to 1700) or raise", o)
	}
	do(t, h, "0 call")
	for _, p := range []int{1, 2} {
		o, _ = h.Options()
		if o.Player != p || !o.CanRaise || o.MinTo != 2200 {
			t.Fatalf("player %d options %+v: want a re-raise to at least 2200", p, o)
		}
		refuse(t, h, sprint(p)+" raise 2199", ErrTooSmall)
		do(t, h, sprint(p)+" call")
	}

	t.Run("variant E all-in for 1400", func(t *testing.T) {
		h := r3(t, 1400)
		o, _ := h.Options()
		if o.Player != 0 || !o.CanRaise {
			t.Fatalf("A has not faced a full raise since acting? options %+v", o)
		}
		do(t, h, "0 call")
		for _, p := range []int{1, 2} {
			o, _ = h.Options()
			if o.Player != p || o.CanRaise || !o.CanCall || o.ToCall != 400 {
				t.Fatalf("player %d options %+v: want call 400 or fold only", p, o)
			}
			e := refuse(t, h, sprint(p)+" raise 2000", ErrCannotRaise)
			if e.Message == "" {
				t.Fatal("no message")
			}
			refuse(t, h, sprint(p)+" allin", ErrCannotRaise)
			do(t, h, sprint(p)+" call")
		}
		if h.Street() != Turn && !h.Done() {
			t.Fatalf("flop should be over, street %v", h.Street())
		}
	})
}

func TestR4SidePots(t *testing.T) {
	// A 50 all-in, B 250 all-in, C 350 all-in, D 800, E 800, F 500 folded; total 2750.
	// Ranks F > A > B > D > E > C with F folded.
	h := mustHand(t, Setup{Rules: nl(5, 10), Stacks: []int64{50, 250, 350, 2000, 2000, 2000}, Button: 5,
		Deck: deckFor(t, 5, []string{"KsKd", "QsQd", "3h8h", "AhJd", "KhJc", "AsAd"}, "2c7d9hJs4c")})
	do(t, h, "2 allin", "3 call", "4 call", "5 call", "0 allin", "1 allin")
	do(t, h, "3 check", "4 check", "5 bet 150", "3 raise 450", "4 call", "5 fold")
	if got, want := h.Contributions(), []int64{50, 250, 350, 800, 800, 500}; sprint(got) != sprint(want) {
		t.Fatalf("contributions %v, want %v", got, want)
	}
	pots := h.Pots()
	want := []Pot{
		{Amount: 300, Eligible: []int{0, 1, 2, 3, 4}},
		{Amount: 1000, Eligible: []int{1, 2, 3, 4}},
		{Amount: 400, Eligible: []int{2, 3, 4}},
		{Amount: 1050, Eligible: []int{3, 4}},
	}
	if sprint(pots) != sprint(want) {
		t.Fatalf("pots %v,\nwant %v", pots, want)
	}
	evs := do(t, h, "3 check", "4 check", "3 check", "4 check")
	var won [6]int64
	for _, e := range evs {
		if e.Kind == EvAward {
			for i, w := range e.Pots[0].Winners {
				won[w] += e.Pots[0].Shares[i]
			}
		}
	}
	if won != [6]int64{300, 1000, 0, 1450, 0, 0} {
		t.Fatalf("won %v, want A 300, B 1000, D 1450", won)
	}
	eqStacks(t, h.Stacks(), []int64{300, 1000, 0, 2650, 1200, 1500})
	checkConserved(t, h)
}

func TestR5OddChip(t *testing.T) {
	// A..E clockwise, A on the button, smallest chip 10: C, D and E split 1000 as 340, 330, 330.
	r := nl(50, 100)
	r.Chip = 10
	h := mustHand(t, Setup{Rules: r, Stacks: []int64{5000, 5000, 5000, 5000, 5000}, Button: 0,
		Deck: deckFor(t, 0, []string{"2c3c", "2d3d", "4c5c", "4d5d", "4h5h"}, "TsJsQsKsAs")})
	do(t, h, "3 call", "4 call", "0 fold", "1 call", "2 check")
	do(t, h, "1 check", "2 bet 200", "3 call", "4 call", "1 fold")
	do(t, h, "2 check", "3 check", "4 check", "2 check", "3 check", "4 check")
	eqStacks(t, h.Stacks(), []int64{5000, 4900, 5000 - 300 + 340, 5000 - 300 + 330, 5000 - 300 + 330})
	checkConserved(t, h)
}

func TestR6AllInCap(t *testing.T) {
	// A (player 1, big blind) is all-in for 70 in all, 20 of it the blind; B and C put in 140 each.
	h := mustHand(t, Setup{Rules: nl(10, 20), Stacks: []int64{1000, 70, 1000}, Button: 2,
		Deck: deckFor(t, 2, []string{"KsKh", "AsAh", "QsQh"}, "2c7d9h3s4d")})
	do(t, h, "2 raise 140", "0 call", "1 allin")
	pots := h.Pots()
	if want := []Pot{{Amount: 210, Eligible: []int{0, 1, 2}}, {Amount: 140, Eligible: []int{0, 2}}}; sprint(pots) != sprint(want) {
		t.Fatalf("pots %v, want %v", pots, want)
	}
	do(t, h, "0 check", "2 check", "0 check", "2 check", "0 check", "2 check")
	eqStacks(t, h.Stacks(), []int64{1000, 210, 860})
	checkConserved(t, h)
}

func TestR7SidePotSplit(t *testing.T) {
	// 100 in the pot; Alice bets 50, Bob is all-in for 30, Carol and Ted call 50.
	h := mustHand(t, Setup{Rules: nl(10, 25), Stacks: []int64{1000, 55, 1000, 1000}, Button: 3,
		Deck: deckFor(t, 3, []string{"AsAh", "KsKh", "QsQh", "JsJh"}, "2c7d9h3s4d")})
	do(t, h, "2 call", "3 call", "0 call", "1 check")
	if h.Pot() != 100 {
		t.Fatalf("pot %d before the flop bet, want 100", h.Pot())
	}
	do(t, h, "0 bet 50", "1 allin", "2 call", "3 call")
	var pots []Pot
	for _, e := range h.Events() {
		if e.Kind == EvPots && e.Street == Flop {
			pots = e.Pots
		}
	}
	if want := []Pot{{Amount: 220, Eligible: []int{0, 1, 2, 3}}, {Amount: 60, Eligible: []int{0, 2, 3}}}; sprint(pots) != sprint(want) {
		t.Fatalf("pots after the flop %v, want %v", pots, want)
	}
}

func TestR8HeadsUpOrder(t *testing.T) {
	h := mustHand(t, Setup{Rules: nl(5, 10), Stacks: []int64{1000, 1000}, Button: 0,
		Deck: deckFor(t, 0, []string{"AsAh", "KsKh"}, "2c7d9h3s4d")})
	evs := h.Events()
	if evs[0].Kind != EvSmallBlind || evs[0].Player != 0 || evs[1].Kind != EvBigBlind || evs[1].Player != 1 {
		t.Fatalf("blinds %v %v: the button must post the small blind", evs[0], evs[1])
	}
	if h.ToAct() != 0 {
		t.Fatalf("pre-flop the button acts first, got player %d", h.ToAct())
	}
	do(t, h, "0 call", "1 check")
	if h.Street() != Flop || h.ToAct() != 1 {
		t.Fatalf("after the flop the big blind acts first, got player %d on %v", h.ToAct(), h.Street())
	}
	do(t, h, "1 check", "0 check")
	if h.ToAct() != 1 {
		t.Fatalf("the button acts last on the turn too")
	}
}

func TestR9BigBlindOption(t *testing.T) {
	s := Setup{Rules: nl(10, 20), Stacks: []int64{1000, 1000, 1000, 1000}, Button: 3,
		Deck: deckFor(t, 3, []string{"AsAh", "KsKh", "QsQh", "JsJh"}, "2c7d9h3s4d")}
	h := mustHand(t, s)
	do(t, h, "2 call", "3 call", "0 call")
	o, _ := h.Options()
	if o.Player != 1 || !o.CanCheck || !o.CanRaise {
		t.Fatalf("big blind options %+v: want check or raise", o)
	}
	do(t, h, "1 check")
	if h.Street() != Flop {
		t.Fatalf("the big blind's check ends pre-flop; street %v", h.Street())
	}

	s.Stacks = []int64{1000, 1000, 30, 1000}
	h = mustHand(t, s)
	do(t, h, "2 allin", "3 call", "0 call")
	if o, _ := h.Options(); o.Player != 1 || o.CanCheck || o.ToCall != 10 {
		t.Fatalf("big blind facing 30: options %+v, want call 10, no check", o)
	}
	refuse(t, h, "1 check", ErrCannotCheck)
}

func TestR12UncalledBet(t *testing.T) {
	h := mustHand(t, Setup{Rules: nl(5, 10), Stacks: []int64{1000, 60}, Button: 0,
		Deck: deckFor(t, 0, []string{"AsAh", "KsKh"}, "2c7d9h3s4d")})
	do(t, h, "0 call", "1 check", "1 check", "0 check", "1 check", "0 check", "1 check")
	evs := do(t, h, "0 bet 100", "1 call")
	var ret *Event
	for i := range evs {
		if evs[i].Kind == EvReturn {
			ret = &evs[i]
		}
	}
	if ret == nil || ret.Player != 0 || ret.Amount != 50 {
		t.Fatalf("uncalled bet event %+v, want 50 back to player 0", ret)
	}
	eqStacks(t, h.Stacks(), []int64{1060, 0})
	checkConserved(t, h)
}

func TestR13ShortBigBlind(t *testing.T) {
	h := mustHand(t, Setup{Rules: nl(5, 10), Stacks: []int64{1000, 7, 1000}, Button: 2,
		Deck: deckFor(t, 2, []string{"AsAh", "KsKh", "QsQh"}, "2c7d9h3s4d")})
	o, _ := h.Options()
	if o.Player != 2 || o.ToCall != 10 || o.MinTo != 20 {
		t.Fatalf("after a short big blind of 7: options %+v, want call 10 or raise to 20", o)
	}
	refuse(t, h, "2 raise 15", ErrTooSmall)
	evs := do(t, h, "2 call")
	if evs[0].Kind != EvCall || evs[0].To != 10 {
		t.Fatalf("call went to %d, want 10", evs[0].To)
	}
}

func TestR14ThreeWaySplit(t *testing.T) {
	// A 35-chip pot split three ways pays 12, 12 and 11, the 11 to the winner furthest from the button.
	h := mustHand(t, Setup{Rules: nl(5, 10), Stacks: []int64{100, 100, 100, 100}, Button: 3,
		Deck: deckFor(t, 3, []string{"2c3c", "2d3d", "4c5c", "4d5d"}, "TsJsQsKsAs")})
	do(t, h, "2 call", "3 call", "0 fold", "1 check")
	do(t, h, "1 check", "2 check", "3 check", "1 check", "2 check", "3 check", "1 check", "2 check", "3 check")
	eqStacks(t, h.Stacks(), []int64{95, 90 + 12, 90 + 12, 90 + 11})
	checkConserved(t, h)
}

// TestMaxChips: nothing above the chip ceiling enters a hand, and ten stacks at the ceiling all-in
// settle exactly, with no sum anywhere near int64's limit.
func TestMaxChips(t *testing.T) {
	d := OrderedDeck()
	for _, tc := range []struct {
		name string
		s    Setup
	}{
		{"stack", Setup{Rules: Rules{SmallBlind: 1, BigBlind: 2}, Stacks: []int64{MaxChips + 1, 100}, Deck: d}},
		{"big blind", Setup{Rules: Rules{SmallBlind: 1, BigBlind: MaxChips + 1}, Stacks: []int64{100, 100}, Deck: d}},
		{"ante", Setup{Rules: Rules{SmallBlind: 1, BigBlind: 2, Ante: MaxChips + 1}, Stacks: []int64{100, 100}, Deck: d}},
		{"wrapping stack", Setup{Rules: Rules{SmallBlind: 1, BigBlind: 2}, Stacks: []int64{math.MaxInt64, math.MaxInt64}, Deck: d}},
	} {
		if _, err := NewHand(tc.s); err == nil {
			t.Errorf("%s above MaxChips: NewHand accepted it", tc.name)
		}
	}
	stacks := make([]int64, MaxPlayers)
	for i := range stacks {
		stacks[i] = MaxChips
	}
	h, err := NewHand(Setup{Rules: Rules{SmallBlind: MaxChips / 4, BigBlind: MaxChips / 2, Ante: MaxChips / 8}, Stacks: stacks, Deck: d})
	if err != nil {
		t.Fatal(err)
	}
	for !h.Done() {
		if _, err := h.Apply(Action{Player: h.ToAct(), Kind: AllIn}); err != nil {
			t.Fatal(err)
		}
	}
	checkHandInvariants(t, 0, h)
	if got, want := total(h.Stacks()), int64(MaxPlayers)*MaxChips; got != want {
		t.Fatalf("chips after: %d, want %d", got, want)
	}
}

func TestR20NobodyLeftToAnswer(t *testing.T) {
	// Heads-up, blinds 400/800. Player 0 is on the button and posts the small blind; player 1 is the
	// big blind.
	deck := func() Deck { return deckFor(t, 0, []string{"AsAh", "KsKh"}, "2c7d9h3s4d") }

	t.Run("big blind all-in for 600: call 200 or fold, no raise", func(t *testing.T) {
		h := mustHand(t, Setup{Rules: nl(400, 800), Stacks: []int64{2400, 600}, Button: 0, Deck: deck()})
		o, ok := h.Options()
		if !ok || o.Player != 0 || !o.CanCall || o.ToCall != 200 || o.CanRaise || o.CanBet {
			t.Fatalf("options %+v, want player 0 to call 200 or fold, without a raise", o)
		}
		e := refuse(t, h, "0 raise 1600", ErrCannotRaise)
		if e.Message != "Everyone else is all-in, so there is nobody to raise: call or fold." {
			t.Fatalf("message %q", e.Message)
		}
		// All-in is a call of what can be matched.
		evs := do(t, h, "0 allin")
		if evs[0].Kind != EvCall || evs[0].To != 600 || evs[0].Amount != 200 || evs[0].AllIn {
			t.Fatalf("all-in became %+v, want a call of 200 to 600", evs[0])
		}
		if !h.Done() {
			t.Fatal("the board was not run out after the call")
		}
		checkConserved(t, h)
	})

	t.Run("big blind all-in for 300: the small blind is not asked", func(t *testing.T) {
		h := mustHand(t, Setup{Rules: nl(400, 800), Stacks: []int64{2400, 300}, Button: 0, Deck: deck()})
		if o, ok := h.Options(); ok {
			t.Fatalf("somebody is asked to act: %+v", o)
		}
		if !h.Done() {
			t.Fatal("the hand is not over")
		}
		var back *Event
		for _, e := range h.Events() {
			if e.Kind == EvReturn {
				back = &e
			}
			if e.Kind == EvFold {
				t.Fatalf("a fold was played: %+v", e)
			}
		}
		if back == nil || back.Player != 0 || back.Amount != 100 {
			t.Fatalf("returned %+v, want 100 back to the small blind", back)
		}
		// Aces beat kings: the small blind wins the 600 pot.
		eqStacks(t, h.Stacks(), []int64{2700, 0})
		checkConserved(t, h)
	})

	t.Run("three players: call 2,910 or fold", func(t *testing.T) {
		// A (player 0) is all-in for 2,910 pre-flop; B (1) has 4,905, C (2) 1,450 and D (3) 1,230.
		// Blinds 5/10 on C and D, so A is under the gun.
		h := mustHand(t, Setup{Rules: nl(5, 10), Stacks: []int64{2910, 4905, 1450, 1230}, Button: 1,
			Deck: deckFor(t, 1, []string{"AsAh", "KsKh", "QsQh", "JsJh"}, "2c7d9h3s4d")})
		do(t, h, "0 allin")
		o, ok := h.Options()
		if !ok || o.Player != 1 || !o.CanCall || o.ToCall != 2910 || o.CanRaise {
			t.Fatalf("options %+v, want B to call 2,910 or fold, without a raise", o)
		}
		e := refuse(t, h, "1 raise 5000", ErrCannotRaise)
		if e.Message != "Nobody left in the hand has more chips than the bet, so nobody could answer a raise: call or fold." {
			t.Fatalf("message %q", e.Message)
		}
		refuse(t, h, "1 raise 4905", ErrCannotRaise)
		evs := do(t, h, "1 allin")
		if evs[0].Kind != EvCall || evs[0].To != 2910 {
			t.Fatalf("B's all-in became %+v, want a call to 2,910", evs[0])
		}
		do(t, h, "2 call", "3 call")
		if !h.Done() {
			t.Fatal("the hand is not over")
		}
		checkConserved(t, h)
	})
}
