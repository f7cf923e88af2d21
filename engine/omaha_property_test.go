package engine

import (
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
	"time"
)

// randomOmahaSetup is randomSetup dealt as game g with betting structure v: at most 8 players in
// five-card Omaha.
func randomOmahaSetup(r *rand.Rand, g Game, v Variant) Setup {
	s := randomSetup(r)
	s.Rules.Game, s.Rules.Variant = g, v
	if n := g.MaxPlayers(); len(s.Stacks) > n {
		s.Stacks = s.Stacks[:n]
		s.Button %= n
	}
	if s.Straddle && s.CheckStraddle() != nil {
		s.Straddle = false
	}
	return s
}

// TestPropertyOmahaHands plays random hands of each Omaha game, hi-lo in both its fixed-limit and
// pot-limit structures, and checks chips, pots, hand values and every half against naive evaluators.
func TestPropertyOmahaHands(t *testing.T) {
	seed := *propSeed
	if seed == 0 {
		seed = uint64(time.Now().UnixNano())
	}
	t.Logf("seed %d (rerun with -prop.seed=%d)", seed, seed)
	r := rand.New(rand.NewPCG(seed, 35))
	games := []struct {
		g Game
		v Variant
	}{{Omaha, PotLimit}, {Omaha5, PotLimit}, {OmahaHiLo, FixedLimit}, {OmahaHiLo, PotLimit}, {Omaha, NoLimit}}
	hands := max(*propHands/10, 2000)
	if raceEnabled {
		hands = 2000 // enough to reach every case the checks below are about
	}
	seen := map[string]int{}
	for i := 0; i < hands; i++ {
		gv := games[i%len(games)]
		s := randomOmahaSetup(r, gv.g, gv.v)
		h, err := NewHand(s)
		if err != nil {
			t.Fatalf("hand %d (%v %v): NewHand: %v", i, gv.g, gv.v, err)
		}
		for steps := 0; !h.Done(); steps++ {
			if steps > 500 {
				t.Fatalf("hand %d: no end after 500 actions", i)
			}
			o, ok := h.Options()
			if !ok {
				t.Fatalf("hand %d: not done but nobody to act", i)
			}
			acts := offered(o, r)
			a := acts[r.IntN(len(acts))]
			if a.Kind == Fold && len(acts) > 1 && r.IntN(4) != 0 {
				a = acts[1+r.IntN(len(acts)-1)]
			}
			if _, err := h.Apply(a); err != nil {
				t.Fatalf("hand %d: offered %v refused: %v", i, a, err)
			}
		}
		checkHandInvariants(t, i, h)
		checkOmahaShowdown(t, i, h)
		for _, e := range h.Events() {
			switch {
			case e.Kind == EvAward && e.Half == HalfLow:
				seen["low half"]++
				if len(e.Pots[0].Winners) > 1 {
					seen["low half shared"]++
				}
			case e.Kind == EvAward && e.Half == HalfWhole && e.Street == Showdown && h.Game().HiLo():
				seen["hi-lo pot without a low"]++
			case e.Kind == EvAward && e.Run == 2:
				seen["award of a second run"]++
			case e.Kind == EvAward && len(h.Pots()) > 1:
				seen["side pots"]++
			}
		}
		if i%53 == 0 {
			again, err := Replay(h.Setup(), h.Actions())
			if err != nil {
				t.Fatalf("hand %d: replay: %v", i, err)
			}
			if !reflect.DeepEqual(again.Events(), h.Events()) {
				t.Fatalf("hand %d: replay gave different events", i)
			}
		}
	}
	// The random hands must reach the cases the checks are about.
	for _, c := range []string{"low half", "low half shared", "hi-lo pot without a low", "award of a second run", "side pots"} {
		if seen[c] == 0 {
			t.Errorf("no %s in %d hands: the property test does not reach it", c, hands)
		}
	}
	t.Logf("%v", seen)
}

// checkOmahaShowdown checks a finished Omaha hand's shows and awards: every hole card dealt and no
// card twice; every shown value is the naive best of two hole and three board cards; in hi-lo games a
// pot is halved exactly when an eligible player makes a low, the high half holds the odd chip, and each
// half goes to the best hands of its kind among the eligible.
func checkOmahaShowdown(t *testing.T, i int, h *Hand) {
	t.Helper()
	g := h.Game()
	var seen uint64
	for p := 0; p < h.NumPlayers(); p++ {
		hole := h.HoleCards(p)
		if len(hole) != g.HoleCards() {
			t.Fatalf("hand %d: player %d holds %d cards in %v", i, p, len(hole), g)
		}
		for _, c := range hole {
			if seen&(1<<c) != 0 {
				t.Fatalf("hand %d: %s dealt twice", i, c)
			}
			seen |= 1 << c
		}
	}
	boardOf := func(run uint8) []Card {
		if run == 2 {
			return h.Board2()
		}
		return h.Board()
	}
	chip := h.Setup().Rules.chip()
	evs := h.Events()
	for k, e := range evs {
		switch e.Kind {
		case EvShow:
			hole, board := h.HoleCards(e.Player), boardOf(e.Run)
			if e.Value.Rank != naiveHigh(hole, board) || !usesTwoAndThree(e.Value.Cards[:], hole, board) {
				t.Fatalf("hand %d: player %d shows %v (%s) with %s on %s", i, e.Player, e.Value.Description,
					FormatCards(e.Value.Cards[:]), FormatCards(hole), FormatCards(board))
			}
			want := naiveLow(hole, board)
			switch {
			case !g.HiLo() && e.Low != 0:
				t.Fatalf("hand %d: a low shown in %v", i, g)
			case g.HiLo() && (e.Low != 0) != (want != nil):
				t.Fatalf("hand %d: player %d shows low %v, naive %v", i, e.Player, e.Low, want)
			case e.Low != 0 && !slices.Equal(lowRankList(e.Low), want):
				t.Fatalf("hand %d: player %d shows low %s, naive %v", i, e.Player, e.Low, want)
			}
		case EvAward:
			if e.Street != Showdown {
				continue // won without a showdown
			}
			pot := e.Pots[0]
			board := boardOf(e.Run)
			var bestLow []int
			var bestHigh HandRank
			for _, p := range pot.Eligible {
				hole := h.HoleCards(p)
				bestHigh = max(bestHigh, naiveHigh(hole, board))
				if l := naiveLow(hole, board); l != nil && g.HiLo() && (bestLow == nil || slices.Compare(l, bestLow) < 0) {
					bestLow = l
				}
			}
			for _, w := range pot.Winners {
				hole := h.HoleCards(w)
				switch e.Half {
				case HalfLow:
					if !slices.Equal(naiveLow(hole, board), bestLow) {
						t.Fatalf("hand %d: player %d wins a low half without the best low %v", i, w, bestLow)
					}
				default:
					if naiveHigh(hole, board) != bestHigh {
						t.Fatalf("hand %d: player %d wins a %v award without the best high hand", i, w, e.Half)
					}
				}
			}
			switch {
			case e.Half == HalfWhole && bestLow != nil:
				t.Fatalf("hand %d: a pot of %d went whole although %v is a low among its players", i, e.Amount, bestLow)
			case e.Half == HalfHigh && bestLow == nil:
				t.Fatalf("hand %d: a pot halved without a low", i)
			case e.Half == HalfHigh && (k+1 >= len(evs) || evs[k+1].Half != HalfLow):
				// A pot of one chip has no low half; otherwise the low half follows at once.
				if e.Amount/chip >= 2 {
					t.Fatalf("hand %d: a high half of %d without its low half", i, e.Amount)
				}
			case e.Half == HalfHigh:
				lo := evs[k+1].Amount
				if total := e.Amount + lo; lo != total/chip/2*chip {
					t.Fatalf("hand %d: halves %d high and %d low (chip %d)", i, e.Amount, lo, chip)
				}
			}
		}
	}
}

// TestRunTwiceDeckLimit: five-card Omaha at 8 seats holds no second board for an all-in before the
// flop (40 hole cards + 8 + 8 > 52): the board runs once and the players are told why, without being
// asked. All-in on the flop, the second board's four cards (with two burns) fit exactly, so it runs
// twice.
func TestRunTwiceDeckLimit(t *testing.T) {
	stacks := []int64{1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000}
	r := rand.New(rand.NewPCG(8, 5))
	deal := func() Deck {
		d := OrderedDeck()
		r.Shuffle(52, func(x, y int) { d[x], d[y] = d[y], d[x] })
		return d
	}
	rules := omahaRules(Omaha5, PotLimit, 5, 10)
	h := mustHand(t, Setup{Rules: rules, Stacks: []int64{30, 30, 1000, 1000, 1000, 1000, 1000, 1000}, Button: 7,
		Deck: deal(), RunItTwice: true})
	// Players 0 and 1 (the blinds) are short; everyone else folds, the blinds go all-in for 30.
	do(t, h, "2 fold", "3 fold", "4 fold", "5 fold", "6 fold", "7 fold", "0 allin", "1 call")
	var runs []Event
	for _, e := range h.Events() {
		if e.Kind == EvRuns {
			runs = append(runs, e)
		}
	}
	if !h.Done() || len(runs) != 1 || runs[0].Amount != 1 || h.Board2() != nil {
		t.Fatalf("pre-flop all-in at 8 seats of five-card Omaha: runs %+v, done %v", runs, h.Done())
	}
	if got, want := runs[0].Reason(), "The deck has 12 cards left, too few for a second board, so the board is run once."; got != want {
		t.Fatalf("reason %q, want %q", got, want)
	}
	checkConserved(t, h)

	// All-in on the flop: 40 + 4 (burn, flop) + 4 + 4 = 52.
	stacks[1] = 100
	h = mustHand(t, Setup{Rules: rules, Stacks: stacks, Button: 7, Deck: deal(), RunItTwice: true})
	do(t, h, "2 call", "3 call", "4 call", "5 call", "6 call", "7 call", "0 call", "1 check")
	do(t, h, "0 bet 80", "1 allin")
	for p := 2; p < 8; p++ {
		do(t, h, sprint(p)+" fold")
	}
	do(t, h, "0 call")
	for !h.Done() {
		o, ok := h.Options()
		if !ok || !o.RunItTwice {
			t.Fatalf("options %+v: want the question whether to run it twice", o)
		}
		if _, err := h.Apply(Action{Player: o.Player, Kind: RunTwice}); err != nil {
			t.Fatal(err)
		}
	}
	if len(h.Board2()) != 5 {
		t.Fatalf("second board %v, want five cards", h.Board2())
	}
	var used uint64
	for p := 0; p < 8; p++ {
		for _, c := range h.HoleCards(p) {
			used |= 1 << c
		}
	}
	for _, c := range append(h.Board(), h.Board2()[3:]...) {
		if used&(1<<c) != 0 {
			t.Fatalf("%s dealt twice", c)
		}
		used |= 1 << c
	}
	checkConserved(t, h)
}

// TestOmahaPotLimitRaise: pot-limit in Omaha is section 4's rule. Blinds 5/10 among three: the first
// to act may raise to 35 (10 + the 15 in the pot + 10 to call). On the flop with 75 in the pot and
// a bet of 50, the largest raise is to 225 (50 + 75 + 50 + 50 to call).
func TestOmahaPotLimitRaise(t *testing.T) {
	h := mustHand(t, Setup{Rules: omahaRules(Omaha, PotLimit, 5, 10), Stacks: []int64{1000, 1000, 1000}, Button: 2,
		Deck: deckFor(t, 2, []string{"AsKsQsJs", "2c3c4c5c", "7h8h9hTh"}, "2d7dKh4s9c")})
	o, _ := h.Options()
	if o.Player != 2 || o.MaxTo != 35 || o.MinTo != 20 {
		t.Fatalf("options %+v, want a raise from 20 to 35", o)
	}
	e := refuse(t, h, "2 raise 36", ErrTooLarge)
	if got, want := e.Message, "In pot-limit the largest raise is to 35."; got != want {
		t.Fatalf("message %q, want %q", got, want)
	}
	do(t, h, "2 raise 35", "0 fold", "1 call")
	if got := h.Pot(); got != 75 {
		t.Fatalf("pot %d, want 75", got)
	}
	do(t, h, "1 bet 50")
	o, _ = h.Options()
	if got, want := o.MaxTo, int64(225); got != want {
		t.Fatalf("largest raise to %d, want %d", got, want)
	}
	refuse(t, h, "2 raise 226", ErrTooLarge)
	do(t, h, "2 raise 225")
}

// TestOmahaFiveCardSeats: five-card Omaha deals to at most 8 players; the refusal says why.
func TestOmahaFiveCardSeats(t *testing.T) {
	_, err := NewHand(Setup{Rules: omahaRules(Omaha5, PotLimit, 5, 10), Stacks: make9(), Button: 0, Deck: OrderedDeck()})
	if err == nil || err.Error() != "a hand of 5-card omaha deals to at most 8 players, not 9: one deck holds no more hole cards" {
		t.Fatalf("err %v", err)
	}
	if err := (Rules{Game: 9, BigBlind: 2}).Validate(); err == nil {
		t.Fatalf("game 9 accepted")
	}
}

func make9() []int64 { return []int64{100, 100, 100, 100, 100, 100, 100, 100, 100} }

// lowRankList reads a LowRank as naiveLow's ranks, highest first, the ace as 1.
func lowRankList(r LowRank) []int {
	var out []int
	m := r.mask()
	for bit := 7; bit >= 0; bit-- {
		if m&(1<<bit) != 0 {
			out = append(out, bit+1)
		}
	}
	return out
}
