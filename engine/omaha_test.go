package engine

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// The worked examples of RULES.md section 12, each by its number, and the Omaha evaluators checked
// against naive ones.

func omahaRules(g Game, v Variant, sb, bb int64) Rules {
	return Rules{Game: g, Variant: v, SmallBlind: sb, BigBlind: bb}
}

// awards returns the hand's award events.
func awards(h *Hand) []Event {
	var out []Event
	for _, e := range h.Events() {
		if e.Kind == EvAward {
			out = append(out, e)
		}
	}
	return out
}

// shown returns the EvShow event of player p.
func shown(t *testing.T, h *Hand, p int) Event {
	t.Helper()
	for _, e := range h.Events() {
		if e.Kind == EvShow && e.Player == p {
			return e
		}
	}
	t.Fatalf("player %d did not show", p)
	return Event{}
}

func TestR24TwoAndThree(t *testing.T) {
	board := MustParseCards("Kh Qh 7h 2c 3d")
	alice, bob := MustParseCards("Ah 9s 8s 4c"), MustParseCards("Jh Th 5s 5d")
	a, b := BestOmaha(alice, board), BestOmaha(bob, board)
	if got, want := a.Category, HighCard; got != want {
		t.Fatalf("alice has %v (%s), want no flush: %v", got, a.Description, want)
	}
	if got, want := FormatCards(a.Cards[:]), "AhKhQh9s7h"; got != want {
		t.Fatalf("alice plays %s, want %s", got, want)
	}
	if got, want := b.Category, Flush; got != want {
		t.Fatalf("bob has %v, want %v", got, want)
	}
	// Played as a hand: checked down heads-up, bob wins the pot of 4.
	h := mustHand(t, Setup{Rules: omahaRules(Omaha, PotLimit, 1, 2), Stacks: []int64{100, 100}, Button: 0,
		Deck: deckFor(t, 0, []string{"Ah9s8s4c", "JhTh5s5d"}, "KhQh7h2c3d")})
	do(t, h, "0 call", "1 check", "1 check", "0 check", "1 check", "0 check", "1 check", "0 check")
	eqStacks(t, h.Stacks(), []int64{98, 102})
	if e := shown(t, h, 1); e.Value.Category != Flush || len(e.Cards) != 4 {
		t.Fatalf("bob showed %v %v", e.Cards, e.Value)
	}
	checkConserved(t, h)
}

func TestR25BoardPlaysNot(t *testing.T) {
	v := BestOmaha(MustParseCards("Qs Qd 2c 3c"), MustParseCards("As Ad Ah Ac Ks"))
	if got, want := v.Description, "Full house, aces full of queens"; got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
	if got, want := v.Rank, Evaluate(MustParseCards("As Ad Ah Qs Qd")...); got != want {
		t.Fatalf("rank %d, want %d (A A A Q Q)", got, want)
	}
}

func TestR26HiLoSplit(t *testing.T) {
	// alice 0 (big blind), bob 1 (button, first to act), carol 2 (small blind of 1, folds): pot 1,001.
	h := mustHand(t, Setup{Rules: omahaRules(OmahaHiLo, FixedLimit, 1, 100), Stacks: []int64{500, 500, 100}, Button: 1,
		Deck: deckFor(t, 1, []string{"As3sQdJd", "Kh9h9s6c", "TdTcJsJc"}, "2c5d8hKsKc")})
	do(t, h, "1 raise 200", "2 fold", "0 call", "0 bet 100", "1 raise 200", "0 raise 300", "1 call")
	eqStacks(t, h.Stacks(), []int64{500, 501, 99})
	aw := awards(h)
	if len(aw) != 2 {
		t.Fatalf("%d awards, want high and low", len(aw))
	}
	hi, lo := aw[0], aw[1]
	if hi.Half != HalfHigh || hi.Amount != 501 || !slices.Equal(hi.Pots[0].Winners, []int{1}) || hi.Value.Description != "Three of a kind, kings" {
		t.Fatalf("high award %+v %v", hi, hi.Value)
	}
	if lo.Half != HalfLow || lo.Amount != 500 || !slices.Equal(lo.Pots[0].Winners, []int{0}) || lo.Value != nil ||
		lo.Low.String() != "8-5-3-2-A" {
		t.Fatalf("low award %+v %v", lo, lo.Low)
	}
	v, ok := BestLow(h.HoleCards(0), h.Board())
	if got, want := FormatCards(v.Cards[:]), "8h5d3s2cAs"; !ok || got != want || v.Rank != lo.Low || v.Description != "8-5-3-2-A" {
		t.Fatalf("alice's low %s (%v), want %s", got, v, want)
	}
	if e := shown(t, h, 1); e.Low != 0 {
		t.Fatalf("bob shows a low %v; he has only one card of 8 or lower", e.Low)
	}
	checkConserved(t, h)
}

func TestR27NoLow(t *testing.T) {
	h := mustHand(t, Setup{Rules: omahaRules(OmahaHiLo, FixedLimit, 50, 100), Stacks: []int64{300, 300}, Button: 0,
		Deck: deckFor(t, 0, []string{"AsKd3c4d", "8s8d5c6h"}, "KcQd9h7s2c")})
	do(t, h, "0 raise 200", "1 raise 300", "0 call")
	eqStacks(t, h.Stacks(), []int64{600, 0})
	aw := awards(h)
	if len(aw) != 1 || aw[0].Half != HalfWhole || aw[0].Amount != 600 {
		t.Fatalf("awards %+v, want the whole 600 to the high hand", aw)
	}
}

func TestR28Quartered(t *testing.T) {
	// alice 0 (small blind), bob 1 (big blind), carol 2 (button): all in for 400 each.
	h := mustHand(t, Setup{Rules: omahaRules(OmahaHiLo, FixedLimit, 50, 100), Stacks: []int64{400, 400, 400}, Button: 2,
		Deck: deckFor(t, 2, []string{"3s4sQcJc", "3h4hTc9c", "Kc8d8s6c"}, "Ac2d7hKsKd")})
	do(t, h, "2 raise 200", "0 raise 300", "1 raise 400", "2 call", "0 call")
	eqStacks(t, h.Stacks(), []int64{300, 300, 600})
	if e := shown(t, h, 2); e.Low.String() != "8-7-6-2-A" || e.Value.Description != "Three of a kind, kings" {
		t.Fatalf("carol shows %v and %v", e.Value, e.Low)
	}
	aw := awards(h)
	if len(aw) != 2 || aw[1].Half != HalfLow || !slices.Equal(aw[1].Pots[0].Winners, []int{0, 1}) ||
		aw[1].Low.String() != "7-4-3-2-A" {
		t.Fatalf("awards %+v", aw)
	}
}

// TestOmahaOddChipsPerHalf: each half of a hi-lo pot is a pot of its own for odd chips (RULES.md
// sections 6 and 12): a pot of 1,203 is 602 high and 601 low, the low split 301 (first left of the
// button) and 300.
func TestOmahaOddChipsPerHalf(t *testing.T) {
	// dave 3 posts a small blind of 3 and folds; alice, bob and carol put in 400 each.
	h := mustHand(t, Setup{Rules: omahaRules(OmahaHiLo, PotLimit, 3, 100), Stacks: []int64{400, 400, 400, 400}, Button: 2,
		Deck: deckFor(t, 2, []string{"3s4sQcJc", "3h4hTc9c", "Kc8d8s6c", "TdTh9d9h"}, "Ac2d7hKsKd")})
	do(t, h, "1 raise 300", "2 allin", "3 fold", "0 allin", "1 call")
	aw := awards(h)
	if len(aw) != 2 || aw[0].Amount != 602 || aw[1].Amount != 601 {
		t.Fatalf("awards %+v, want 602 high and 601 low", aw)
	}
	if got := aw[1].Pots[0]; !slices.Equal(got.Winners, []int{0, 1}) || !slices.Equal(got.Shares, []int64{301, 300}) {
		t.Fatalf("low half %+v, want 301 to alice (first left of the button) and 300 to bob", got)
	}
	checkConserved(t, h)
}

// naiveLow is the best eight-or-better low of exactly two hole and three board cards, written plainly:
// the five ranks (ace as 1) highest first, or nil.
func naiveLow(hole, board []Card) []int {
	var best []int
	forOmaha(hole, board, func(f [5]Card) bool {
		var rs []int
		for _, c := range f {
			r := int(c.Rank()) + 2
			if c.Rank() == Ace {
				r = 1
			}
			if r > 8 || slices.Contains(rs, r) {
				return false
			}
			rs = append(rs, r)
		}
		slices.Sort(rs)
		slices.Reverse(rs)
		if best == nil || slices.Compare(rs, best) < 0 {
			best = rs
		}
		return false
	})
	return best
}

// naiveHigh is the best Evaluate over every two hole and three board cards.
func naiveHigh(hole, board []Card) HandRank {
	var best HandRank
	forOmaha(hole, board, func(f [5]Card) bool {
		best = max(best, Evaluate(f[:]...))
		return false
	})
	return best
}

// lowRanks reads a LowValue's cards as naiveLow's ranks.
func lowRanks(v LowValue) []int {
	var rs []int
	for _, c := range v.Cards {
		r := int(c.Rank()) + 2
		if c.Rank() == Ace {
			r = 1
		}
		rs = append(rs, r)
	}
	return rs
}

// usesTwoAndThree reports whether five cards are exactly two of hole and three of board.
func usesTwoAndThree(five []Card, hole, board []Card) bool {
	nh, nb := 0, 0
	for _, c := range five {
		switch {
		case slices.Contains(hole, c):
			nh++
		case slices.Contains(board, c):
			nb++
		}
	}
	return nh == 2 && nb == 3
}

func TestOmahaEvaluatorsAgainstNaive(t *testing.T) {
	r := rand.New(rand.NewPCG(35, 12))
	for i := 0; i < 20000; i++ {
		d := OrderedDeck()
		r.Shuffle(52, func(x, y int) { d[x], d[y] = d[y], d[x] })
		k := 4 + r.IntN(2)
		nb := 3 + r.IntN(3)
		hole, board := d[:k], d[k:k+nb]
		if got, want := EvaluateOmaha(hole, board), naiveHigh(hole, board); got != want {
			t.Fatalf("%s on %s: high %d, naive %d", FormatCards(hole), FormatCards(board), got, want)
		}
		v := BestOmaha(hole, board)
		if v.Rank != naiveHigh(hole, board) || Evaluate(v.Cards[:]...) != v.Rank || !usesTwoAndThree(v.Cards[:], hole, board) {
			t.Fatalf("%s on %s: BestOmaha %v %s", FormatCards(hole), FormatCards(board), v, FormatCards(v.Cards[:]))
		}
		want := naiveLow(hole, board)
		lv, ok := BestLow(hole, board)
		if ok != (want != nil) {
			t.Fatalf("%s on %s: low %v, naive %v", FormatCards(hole), FormatCards(board), lv, want)
		}
		if ok && (!slices.Equal(lowRanks(lv), want) || !usesTwoAndThree(lv.Cards[:], hole, board)) {
			t.Fatalf("%s on %s: low %s (%s), naive %v", FormatCards(hole), FormatCards(board), lv.Description, FormatCards(lv.Cards[:]), want)
		}
	}
}

func TestLowOrder(t *testing.T) {
	board := MustParseCards("2c 3d 4h Kc Qd")
	for _, tc := range []struct {
		better, worse string
	}{
		{"As5s9c9d", "5c6s9h9s"}, // 5-4-3-2-A beats 6-5-4-3-2
		{"6s8cKhKs", "7s8dKdJh"}, // 8-6-4-3-2 beats 8-7-4-3-2
		{"Ac7cJcJs", "AdAh8s8h"}, // 7-4-3-2-A beats 8-4-3-2-A
		{"5d6dTcTs", "5h7hTdTh"}, // 6-5-4-3-2 beats 7-5-4-3-2: straights do not spoil a low
	} {
		b, w := EvaluateLow(MustParseCards(tc.better), board), EvaluateLow(MustParseCards(tc.worse), board)
		if b <= w || w == 0 {
			t.Errorf("%s (%v) should beat %s (%v)", tc.better, b, tc.worse, w)
		}
	}
	if got := EvaluateLow(MustParseCards("AsAd9s9d"), board); got != 0 {
		t.Errorf("a pair of aces and nines makes %v, want no low (two different low hole ranks needed)", got)
	}
}

func TestParseGame(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Game
		err  string
	}{
		{"holdem", Holdem, ""},
		{"NLH", Holdem, ""},
		{"plo", Omaha, ""},
		{" Omaha ", Omaha, ""},
		{"plo5", Omaha5, ""},
		{"5-card omaha", Omaha5, ""},
		{"o8", OmahaHiLo, ""},
		{"plo8", OmahaHiLo, ""},
		{"omaha hi-lo", OmahaHiLo, ""},
		{"stud", 0, `"stud" is not a game: choose holdem, omaha, omaha5 or omaha-hilo`},
		{"", 0, `"" is not a game: choose holdem, omaha, omaha5 or omaha-hilo`},
	} {
		g, err := ParseGame(tc.in)
		switch {
		case tc.err != "" && (err == nil || err.Error() != tc.err):
			t.Errorf("ParseGame(%q) = %v, %v; want error %q", tc.in, g, err, tc.err)
		case tc.err == "" && (err != nil || g != tc.want):
			t.Errorf("ParseGame(%q) = %v, %v; want %v", tc.in, g, err, tc.want)
		}
	}
	// Every game's name reads back as the game.
	for g := Holdem; g <= OmahaHiLo; g++ {
		if back, err := ParseGame(g.String()); err != nil || back != g {
			t.Errorf("ParseGame(%q) = %v, %v", g.String(), back, err)
		}
	}
}

// FuzzParseGame: any input is a game whose name reads back the same, or an error; never a panic.
func FuzzParseGame(f *testing.F) {
	for _, s := range []string{"plo", "o8", "omaha5", "hold'em", "x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		g, err := ParseGame(s)
		if err != nil {
			return
		}
		if back, err := ParseGame(g.String()); err != nil || back != g {
			t.Fatalf("%q reads as %v, whose name %q reads as %v, %v", s, g, g.String(), back, err)
		}
	})
}
