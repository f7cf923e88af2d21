package engine

import (
	"reflect"
	"testing"
)

func TestPotLimitMaximum(t *testing.T) {
	// RULES.md 4: pot 100, one bet of 50: call 50 and raise 200 more, to 250.
	r := Rules{Variant: PotLimit, SmallBlind: 25, BigBlind: 50}
	h := mustHand(t, Setup{Rules: r, Stacks: []int64{1000, 1000}, Button: 0,
		Deck: deckFor(t, 0, []string{"AsAh", "KsKh"}, "2c7d9h3s4d")})
	// Pre-flop: the button may raise to at most 3 x the big blind (pot 75 + call 25 = 100 more than 50).
	if o, _ := h.Options(); o.MaxTo != 150 || o.MinTo != 100 {
		t.Fatalf("pre-flop pot-limit range %d..%d, want 100..150", o.MinTo, o.MaxTo)
	}
	do(t, h, "0 call", "1 check", "1 bet 50")
	o, _ := h.Options()
	if o.MaxTo != 250 || o.MinTo != 100 {
		t.Fatalf("pot-limit range %d..%d, want 100..250", o.MinTo, o.MaxTo)
	}
	e := refuse(t, h, "0 raise 251", ErrTooLarge)
	if e.Message != "In pot-limit the largest raise is to 250." {
		t.Fatalf("message %q", e.Message)
	}
	do(t, h, "0 raise 250")
}

func TestFixedLimitBetsAndCap(t *testing.T) {
	r := Rules{Variant: FixedLimit, SmallBlind: 5, BigBlind: 10}
	h := mustHand(t, Setup{Rules: r, Stacks: []int64{1000, 1000, 1000}, Button: 2,
		Deck: deckFor(t, 2, []string{"AsAh", "KsKh", "QsQh"}, "2c7d9h3s4d")})
	// Pre-flop: the big blind is the bet; three raises cap it at 40.
	if o, _ := h.Options(); o.MinTo != 20 || o.MaxTo != 20 {
		t.Fatalf("fixed-limit raise range %d..%d, want exactly 20", o.MinTo, o.MaxTo)
	}
	refuse(t, h, "2 raise 30", ErrTooLarge)
	do(t, h, "2 raise 20", "0 raise 30", "1 raise 40")
	o, _ := h.Options()
	if o.CanRaise || !o.CanCall || o.ToCall != 20 {
		t.Fatalf("after the cap: options %+v, want call 20 or fold", o)
	}
	refuse(t, h, "2 raise 50", ErrCannotRaise)
	do(t, h, "2 call", "0 call")
	// Turn and river bets are the big bet, twice the big blind.
	do(t, h, "0 check", "1 check", "2 check")
	if o, _ := h.Options(); o.MinTo != 20 || h.Street() != Turn {
		t.Fatalf("turn bet %d on %v, want 20", o.MinTo, h.Street())
	}
}

func TestFixedLimitHeadsUpHasNoCap(t *testing.T) {
	r := Rules{Variant: FixedLimit, SmallBlind: 5, BigBlind: 10}
	h := mustHand(t, Setup{Rules: r, Stacks: []int64{1000, 1000}, Button: 0,
		Deck: deckFor(t, 0, []string{"AsAh", "KsKh"}, "2c7d9h3s4d")})
	do(t, h, "0 raise 20", "1 raise 30", "0 raise 40", "1 raise 50", "0 raise 60")
	if o, _ := h.Options(); !o.CanRaise {
		t.Fatalf("heads-up street should not be capped: %+v", o)
	}
}

func TestFixedLimitHalfBetAllInReopens(t *testing.T) {
	// An all-in of at least half a bet counts as a full raise and reopens the betting; less does not.
	r := Rules{Variant: FixedLimit, SmallBlind: 5, BigBlind: 10}
	for _, tt := range []struct {
		short   int64
		reopens bool
	}{{15, true}, {14, false}} {
		h := mustHand(t, Setup{Rules: r, Stacks: []int64{1000, 1000, 1000, tt.short}, Button: 3,
			Deck: deckFor(t, 3, []string{"AsAh", "KsKh", "QsQh", "JsJh"}, "2c7d9h3s4d")})
		do(t, h, "2 call", "3 allin", "0 call", "1 call")
		o, _ := h.Options()
		if o.Player != 2 || o.CanRaise != tt.reopens {
			t.Fatalf("all-in to %d: player 2 options %+v, want raise allowed = %v", tt.short, o, tt.reopens)
		}
		if tt.reopens && o.MinTo != tt.short+10 {
			t.Fatalf("raise to %d, want %d", o.MinTo, tt.short+10)
		}
	}
}

func TestAntes(t *testing.T) {
	t.Run("every player", func(t *testing.T) {
		r := Rules{SmallBlind: 5, BigBlind: 10, Ante: 2}
		h := mustHand(t, Setup{Rules: r, Stacks: []int64{100, 100, 100}, Button: 2,
			Deck: deckFor(t, 2, []string{"AsAh", "KsKh", "QsQh"}, "2c7d9h3s4d")})
		if h.Pot() != 21 {
			t.Fatalf("pot %d after antes and blinds, want 6+15", h.Pot())
		}
		// Antes do not count toward the bet: the big blind still owes nothing more, the button 10.
		if o, _ := h.Options(); o.ToCall != 10 {
			t.Fatalf("to call %d, want 10", o.ToCall)
		}
	})
	t.Run("short big blind with big-blind ante", func(t *testing.T) {
		// The big blind posts the ante first; what is left (3) is the blind, all-in.
		r := Rules{SmallBlind: 5, BigBlind: 10, Ante: 10, BigBlindAnte: true}
		h := mustHand(t, Setup{Rules: r, Stacks: []int64{100, 13, 100}, Button: 2,
			Deck: deckFor(t, 2, []string{"AsAh", "KsKh", "QsQh"}, "2c7d9h3s4d")})
		evs := h.Events()
		if evs[0].Kind != EvAnte || evs[0].Player != 1 || evs[0].Amount != 10 {
			t.Fatalf("first event %+v, want the big blind's ante of 10", evs[0])
		}
		if evs[2].Kind != EvBigBlind || evs[2].Amount != 3 || !evs[2].AllIn {
			t.Fatalf("big blind %+v, want 3 all-in", evs[2])
		}
		do(t, h, "2 call", "0 call")
		for h.Street() < Showdown {
			do(t, h, sprint(h.ToAct())+" check")
		}
		// Player 1 (kings) loses to aces; the ante is dead money in the main pot: 10 + 3*3 = 19 is the
		// main pot player 1 could win; the side pot is 7+7.
		checkConserved(t, h)
		eqStacks(t, h.Stacks(), []int64{100 - 10 + 19 + 14, 0, 90})
	})
	t.Run("ante-only all-in", func(t *testing.T) {
		r := Rules{SmallBlind: 5, BigBlind: 10, Ante: 5}
		h := mustHand(t, Setup{Rules: r, Stacks: []int64{100, 100, 4}, Button: 1,
			Deck: deckFor(t, 1, []string{"Tc8h", "KsKh", "AsAh"}, "2d7d9h3s4d")})
		// Player 2 is all-in for the ante alone and can win only the antes: 5+5+4.
		for h.ToAct() >= 0 {
			o, _ := h.Options()
			if o.CanCheck {
				do(t, h, sprint(o.Player)+" check")
			} else {
				do(t, h, sprint(o.Player)+" call")
			}
		}
		checkConserved(t, h)
		eqStacks(t, h.Stacks(), []int64{95 - 10, 95 - 10 + 20, 14})
	})
}

func TestShortAllInBetThenRaise(t *testing.T) {
	// A bet all-in of less than the minimum bet: the next raise must still add a big blind.
	h := mustHand(t, Setup{Rules: nl(5, 10), Stacks: []int64{1000, 16, 1000}, Button: 2,
		Deck: deckFor(t, 2, []string{"AsAh", "KsKh", "QsQh"}, "2c7d9h3s4d")})
	do(t, h, "2 call", "0 call", "1 check", "0 check", "1 allin")
	if o, _ := h.Options(); o.MinTo != 16 {
		t.Fatalf("min raise to %d after an all-in bet of 6", o.MinTo)
	}
}

func TestErrorsChangeNothing(t *testing.T) {
	h := mustHand(t, Setup{Rules: nl(5, 10), Stacks: []int64{100, 100, 100}, Button: 2,
		Deck: deckFor(t, 2, []string{"AsAh", "KsKh", "QsQh"}, "2c7d9h3s4d")})
	tests := []struct {
		name, action, code, message string
	}{
		{"out of turn", "0 call", ErrNotYourTurn, "It is not your turn: wait for player 2 to act."},
		{"check facing a bet", "2 check", ErrCannotCheck, "You cannot check: it is 10 to call. Call, raise or fold."},
		{"raise too small", "2 raise 15", ErrTooSmall, "The smallest raise is to 20."},
		{"raise not above the bet", "2 raise 10", ErrTooSmall, "A raise must be to more than 10; to match it, call."},
		{"raise above the stack", "2 raise 101", ErrTooLarge, "You have only 100 in all; the most you can raise to is 100 (all-in)."},
		{"zero", "2 raise 0", ErrBadAmount, "Say how much to raise to, a whole number of chips above 0."},
		{"no such player", "7 fold", ErrBadPlayer, "There is no player 7 in this hand."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := refuse(t, h, tt.action, tt.code)
			if e.Message != tt.message {
				t.Fatalf("message %q, want %q", e.Message, tt.message)
			}
		})
	}
	do(t, h, "2 call", "0 call", "1 check")
	refuse(t, h, "0 call", ErrNothingToCall)
	for !h.Done() {
		do(t, h, sprint(h.ToAct())+" check")
	}
	refuse(t, h, "0 check", ErrHandOver)
}

func TestTimeoutChecksOrFolds(t *testing.T) {
	h := mustHand(t, Setup{Rules: nl(5, 10), Stacks: []int64{100, 100, 100}, Button: 2,
		Deck: deckFor(t, 2, []string{"AsAh", "KsKh", "QsQh"}, "2c7d9h3s4d")})
	evs, err := h.Timeout()
	if err != nil || evs[0].Kind != EvFold || evs[0].Player != 2 {
		t.Fatalf("timeout facing the big blind: %v %v, want a fold", evs, err)
	}
	do(t, h, "0 call")
	evs, err = h.Timeout()
	if err != nil || evs[0].Kind != EvCheck || evs[0].Player != 1 {
		t.Fatalf("timeout with nothing to call: %v %v, want a check", evs, err)
	}
	for !h.Done() {
		if _, err := h.Timeout(); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := h.Timeout(); err == nil {
		t.Fatal("a timeout with nobody to act was accepted")
	}
}

func TestAllInRunOutRevealsAndShowsAll(t *testing.T) {
	h := mustHand(t, Setup{Rules: nl(5, 10), Stacks: []int64{100, 100}, Button: 0,
		Deck: deckFor(t, 0, []string{"AsAh", "KsKd"}, "2c7d9h3s4d")})
	evs := do(t, h, "0 allin", "1 call")
	var kinds []EventKind
	for _, e := range evs {
		kinds = append(kinds, e.Kind)
	}
	want := []EventKind{EvRaise, EvTurn, EvCall, EvPots, EvReveal, EvBoard, EvBoard, EvBoard, EvShow, EvShow, EvAward, EvEnd}
	if !reflect.DeepEqual(kinds, want) {
		t.Fatalf("events %v\nwant   %v", kinds, want)
	}
	if r := evs[4]; len(r.Hands) != 2 || len(r.Board) != 0 {
		t.Fatalf("reveal %+v: want both hands and an empty board", r)
	}
	eqStacks(t, h.Stacks(), []int64{200, 0})
}

func TestShowdownOrderAndMuck(t *testing.T) {
	// The river bettor shows first; a later hand that cannot win is mucked.
	h := mustHand(t, Setup{Rules: nl(5, 10), Stacks: []int64{100, 100, 100}, Button: 2,
		Deck: deckFor(t, 2, []string{"AsAh", "2d3d", "KsKh"}, "2c7d9hJs4c")})
	do(t, h, "2 call", "0 call", "1 check")
	do(t, h, "0 check", "1 check", "2 check", "0 check", "1 check", "2 check")
	evs := do(t, h, "0 check", "1 check", "2 bet 10", "0 call", "1 call")
	var order []string
	for _, e := range evs {
		switch e.Kind {
		case EvShow:
			order = append(order, "show "+sprint(e.Player))
		case EvMuck:
			order = append(order, "muck "+sprint(e.Player))
		}
	}
	if want := []string{"show 2", "show 0", "muck 1"}; !reflect.DeepEqual(order, want) {
		t.Fatalf("showdown %v, want %v", order, want)
	}
}

// TestItem10CheckRefusalNamesWhatIsPossible: "Call, raise or fold" only when a raise is possible;
// a player who cannot raise (short of chips, nobody left to answer, a capped street) is told "Call
// or fold" (issue 28 item 10).
func TestItem10CheckRefusalNamesWhatIsPossible(t *testing.T) {
	deck := func(button int) Deck {
		return deckFor(t, button, []string{"AsAh", "KsKh", "QsQh"}, "2c7d9h3s4d")
	}
	tests := []struct {
		name    string
		setup   Setup
		script  []string
		check   string
		message string
	}{
		{"a raise is possible", Setup{Rules: nl(5, 10), Stacks: []int64{100, 100, 100}, Button: 2, Deck: deck(2)},
			nil, "2 check", "You cannot check: it is 10 to call. Call, raise or fold."},
		{"a raise all-in is possible", Setup{Rules: nl(5, 10), Stacks: []int64{100, 100, 60}, Button: 2, Deck: deck(2)},
			[]string{"2 call", "0 raise 80"}, "1 check", "You cannot check: it is 70 to call. Call, raise or fold."},
		{"all-in to call", Setup{Rules: nl(5, 10), Stacks: []int64{100, 100, 60}, Button: 2, Deck: deck(2)},
			[]string{"2 call", "0 raise 80", "1 call"}, "2 check", "You cannot check: it is 50 to call. Call or fold."},
		{"nobody left to answer", Setup{Rules: nl(5, 10), Stacks: []int64{100, 300, 300}, Button: 2, Deck: deck(2)},
			[]string{"2 fold", "0 allin"}, "1 check", "You cannot check: it is 90 to call. Call or fold."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := mustHand(t, tt.setup)
			do(t, h, tt.script...)
			e := refuse(t, h, tt.check, ErrCannotCheck)
			if e.Message != tt.message {
				t.Fatalf("message %q, want %q", e.Message, tt.message)
			}
		})
	}
}
