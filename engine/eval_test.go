package engine

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

var evalSeed = flag.Uint64("eval.seed", 0, "seed for the evaluator's random cross-check (0 = time)")

// Counts every poker reference gives for the 2,598,960 five-card and 133,784,560 seven-card hands.
var (
	fiveCardCounts = [...]int{
		HighCard: 1302540, OnePair: 1098240, TwoPair: 123552, ThreeOfAKind: 54912, Straight: 10200,
		Flush: 5108, FullHouse: 3744, FourOfAKind: 624, StraightFlush: 40,
	}
	sevenCardCounts = [...]int{
		HighCard: 23294460, OnePair: 58627800, TwoPair: 31433400, ThreeOfAKind: 6461620, Straight: 6180020,
		Flush: 4047644, FullHouse: 3473184, FourOfAKind: 224848, StraightFlush: 41584,
	}
)

// refScore5 is an independent, deliberately plain reference for one five-card hand: sort the ranks
// into groups (largest group first, then higher rank), spot flushes and straights, and pack the
// category and the group ranks into a number that compares like the hands do.
func refScore5(h [5]Card) uint64 {
	var n [13]int
	for _, c := range h {
		n[c.Rank()]++
	}
	var groups []int // ranks, ordered by group size then rank
	for size := 4; size >= 1; size-- {
		for r := 12; r >= 0; r-- {
			if n[r] == size {
				groups = append(groups, r)
			}
		}
	}
	flush := h[0].Suit() == h[1].Suit() && h[1].Suit() == h[2].Suit() && h[2].Suit() == h[3].Suit() && h[3].Suit() == h[4].Suit()
	straight := false
	if len(groups) == 5 {
		if groups[0]-groups[4] == 4 {
			straight = true
		} else if slices.Equal(groups, []int{12, 3, 2, 1, 0}) {
			straight, groups = true, []int{3} // the wheel is five high
		}
	}
	var cat Category
	switch {
	case straight && flush:
		cat = StraightFlush
	case n[groups[0]] == 4:
		cat = FourOfAKind
	case n[groups[0]] == 3 && n[groups[1]] == 2:
		cat = FullHouse
	case flush:
		cat = Flush
	case straight:
		cat = Straight
	case n[groups[0]] == 3:
		cat = ThreeOfAKind
	case n[groups[0]] == 2 && n[groups[1]] == 2:
		cat = TwoPair
	case n[groups[0]] == 2:
		cat = OnePair
	}
	s := uint64(cat)
	for i := 0; i < 5; i++ {
		s *= 16
		if i < len(groups) {
			s += uint64(groups[i]) + 1
		}
	}
	return s
}

func refCategory(s uint64) Category { return Category(s >> 20) }

// refBest tries every five-card subset of 5 to 7 cards.
func refBest(cards []Card) uint64 {
	var best uint64
	n := len(cards)
	for skip := 0; skip < 1<<n; skip++ {
		var five [5]Card
		k := 0
		for i := 0; i < n; i++ {
			if skip&(1<<i) == 0 {
				if k == 5 {
					k = 6
					break
				}
				five[k] = cards[i]
				k++
			}
		}
		if k == 5 {
			best = max(best, refScore5(five))
		}
	}
	return best
}

// TestFiveCardHands ranks all 2,598,960 five-card hands: the category counts are the textbook
// ones, there are exactly 7,462 distinct ranks numbered 1..7462, and the ranks order the hands
// exactly as the reference does (one reference score per rank, increasing with the rank).
func TestFiveCardHands(t *testing.T) {
	var counts [9]int
	var refOf [numClasses + 1]uint64
	var h [5]Card
	for a := Card(0); a < 52; a++ {
		for b := a + 1; b < 52; b++ {
			for c := b + 1; c < 52; c++ {
				for d := c + 1; d < 52; d++ {
					for e := d + 1; e < 52; e++ {
						h = [5]Card{a, b, c, d, e}
						r := Evaluate(h[:]...)
						if r < 1 || r > numClasses {
							t.Fatalf("%s ranks %d, outside 1..%d", FormatCards(h[:]), r, numClasses)
						}
						ref := refScore5(h)
						if refOf[r] == 0 {
							refOf[r] = ref
						} else if refOf[r] != ref {
							t.Fatalf("%s ranks %d like a different hand", FormatCards(h[:]), r)
						}
						if got, want := r.Category(), refCategory(ref); got != want {
							t.Fatalf("%s: category %v, want %v", FormatCards(h[:]), got, want)
						}
						counts[r.Category()]++
					}
				}
			}
		}
	}
	for c, want := range fiveCardCounts {
		if got := counts[c]; got != want {
			t.Errorf("%v: %d five-card hands, want %d", Category(c), got, want)
		}
	}
	for r := HandRank(1); r <= numClasses; r++ {
		if refOf[r] == 0 {
			t.Fatalf("no five-card hand ranks %d: want all 7,462 ranks used", r)
		}
		if r > 1 && refOf[r] <= refOf[r-1] {
			t.Fatalf("rank %d does not beat rank %d in the reference", r, r-1)
		}
	}
}

// enumerate7 ranks all 133,784,560 seven-card hands with nested loops carrying each partial
// hand's key and mask, and counts how many hands fall in each rank.
func enumerate7(hist *[numClasses + 1]uint32) {
	loadTables()
	for a := 0; a < 52; a++ {
		ka, ma := keyStart+cardKey[a], cardMask[a]
		for b := a + 1; b < 52; b++ {
			kb, mb := ka+cardKey[b], ma|cardMask[b]
			for c := b + 1; c < 52; c++ {
				kc, mc := kb+cardKey[c], mb|cardMask[c]
				for d := c + 1; d < 52; d++ {
					kd, md := kc+cardKey[d], mc|cardMask[d]
					for e := d + 1; e < 52; e++ {
						ke, me := kd+cardKey[e], md|cardMask[e]
						for f := e + 1; f < 52; f++ {
							kf, mf := ke+cardKey[f], me|cardMask[f]
							for g := f + 1; g < 52; g++ {
								hist[rankOf(kf+cardKey[g], mf|cardMask[g])]++
							}
						}
					}
				}
			}
		}
	}
}

// TestSevenCardHands ranks all 133,784,560 seven-card hands: textbook category counts and 4,824
// distinct ranks (seven cards can never make the worst high cards, such as 7-5-4-3-2).
func TestSevenCardHands(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("ranks 133,784,560 hands; skipped under -short and -race")
	}
	var hist [numClasses + 1]uint32
	enumerate7(&hist)
	var counts [9]int
	distinct := 0
	for r, n := range hist {
		if n > 0 {
			if r == 0 {
				t.Fatalf("%d hands rank 0 (no hand)", n)
			}
			counts[HandRank(r).Category()] += int(n)
			distinct++
		}
	}
	for c, want := range sevenCardCounts {
		if got := counts[c]; got != want {
			t.Errorf("%v: %d seven-card hands, want %d", Category(c), got, want)
		}
	}
	if distinct != 4824 {
		t.Errorf("%d distinct seven-card ranks, want 4,824", distinct)
	}
}

// TestAgainstReference deals random 5, 6 and 7-card hands and checks that Evaluate, Evaluate7 and
// Best agree with the brute-force reference on the category and on which of two hands wins.
func TestAgainstReference(t *testing.T) {
	seed := *evalSeed
	if seed == 0 {
		seed = uint64(time.Now().UnixNano())
	}
	t.Logf("seed %d (rerun with -eval.seed=%d)", seed, seed)
	rng := rand.New(rand.NewPCG(seed, 0))
	hands := 300000
	if testing.Short() || raceEnabled {
		hands = 20000
	}
	deck := OrderedDeck()
	var prev []Card
	var prevRank HandRank
	var prevRef uint64
	for i := 0; i < hands; i++ {
		n := 5 + i%3
		for j := 0; j < n; j++ { // partial Fisher–Yates: the first n cards are a random hand
			k := j + rng.IntN(52-j)
			deck[j], deck[k] = deck[k], deck[j]
		}
		cards := slices.Clone(deck[:n])
		r, ref := Evaluate(cards...), refBest(cards)
		if got, want := r.Category(), refCategory(ref); got != want {
			t.Fatalf("%s: category %v, want %v", FormatCards(cards), got, want)
		}
		if n == 7 {
			if got := Evaluate7((*[7]Card)(cards)); got != r {
				t.Fatalf("%s: Evaluate7 %d, Evaluate %d", FormatCards(cards), got, r)
			}
		}
		if prev != nil {
			if got, want := cmp3(uint64(r), uint64(prevRank)), cmp3(ref, prevRef); got != want {
				t.Fatalf("%s vs %s: comparison %d, reference says %d", FormatCards(cards), FormatCards(prev), got, want)
			}
		}
		if i%10 == 0 {
			v := Best(cards)
			if v.Rank != r || v.Category != r.Category() || Evaluate(v.Cards[:]...) != r {
				t.Fatalf("Best(%s) = %+v, inconsistent with rank %d", FormatCards(cards), v, r)
			}
			for _, c := range v.Cards {
				if !slices.Contains(cards, c) {
					t.Fatalf("Best(%s) uses %s, which is not in the hand", FormatCards(cards), c)
				}
			}
		}
		prev, prevRank, prevRef = cards, r, ref
	}
}

func cmp3(a, b uint64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// TestBest checks what players read: the category, the five cards in reading order and the
// description.
func TestBest(t *testing.T) {
	tests := []struct {
		name, cards string
		cat         Category
		five, desc  string
	}{
		{"royal flush", "Ts Js Qs Ks As 2d 3c", StraightFlush, "AsKsQsJsTs", "Royal flush"},
		{"steel wheel", "Ah 2h 3h 4h 5h Kd Kc", StraightFlush, "5h4h3h2hAh", "Straight flush, five high"},
		{"straight flush beats trips", "9c Tc Jc Qc Kc Kd Kh", StraightFlush, "KcQcJcTc9c", "Straight flush, king high"},
		{"quads with best kicker", "Kc Kd Kh Ks 2c 7d Qh", FourOfAKind, "KcKdKhKsQh", "Four of a kind, kings"},
		{"full house", "Kc Kd Kh 7s 7c 2d 3d", FullHouse, "KcKdKh7s7c", "Full house, kings full of sevens"},
		{"two trips make a full house", "3c 3d 3h 9s 9c 9d Ah", FullHouse, "9s9c9d3c3d", "Full house, nines full of threes"},
		{"flush of six picks top five", "Ah 9h 7h 5h 3h 2h Kd", Flush, "Ah9h7h5h3h", "Flush, ace high"},
		{"flush beats straight", "6h 7h 8h 9d Th 2h Kh", Flush, "Kh Th 8h 7h 6h", "Flush, king high"},
		{"wheel", "As 2d 3h 4s 5c Kd 9h", Straight, "5c4s3h2dAs", "Straight, five high"},
		{"broadway", "Ts Jd Qh Ks Ac 2d", Straight, "AcKsQhJdTs", "Straight, ace high"},
		{"six-high beats wheel", "As 2d 3h 4s 5c 6d", Straight, "6d5c4s3h2d", "Straight, six high"},
		{"trips", "7c 7d 7h As Kd 2c 3h", ThreeOfAKind, "7c7d7hAsKd", "Three of a kind, sevens"},
		{"two pair", "Ah Ad 8c 8s 2h 3c 4d", TwoPair, "AhAd8c8s4d", "Two pair, aces and eights"},
		{"three pairs: best kicker", "Ah Ad 8c 8s 6h 6c 4d", TwoPair, "AhAd8c8s6h", "Two pair, aces and eights"},
		{"pair", "9c 9d 2h 3s 4c Kd Jh", OnePair, "9c9dKdJh4c", "Pair of nines"},
		{"pair of sixes", "6c 6d 2h 3s Tc", OnePair, "6c6dTc3s2h", "Pair of sixes"},
		{"high card", "Kc 2d 4h 6s 8c 9d Th", HighCard, "KcTh9d8c6s", "High card, king"},
		{"no wrap-around", "Qs Kd Ah 2c 3d", HighCard, "AhKdQs3d2c", "High card, ace"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := Best(MustParseCards(tt.cards))
			if got, want := v.Category, tt.cat; got != want {
				t.Errorf("category %v, want %v", got, want)
			}
			if got, want := FormatCards(v.Cards[:]), FormatCards(MustParseCards(tt.five)); got != want {
				t.Errorf("cards %s, want %s", got, want)
			}
			if got, want := v.Description, tt.desc; got != want {
				t.Errorf("description %q, want %q", got, want)
			}
			if got, want := v.Rank.Category(), tt.cat; got != want {
				t.Errorf("Rank.Category() %v, want %v", got, want)
			}
		})
	}
}

// TestRankNumbers: ranks run from 1, the worst hand (7-5-4-3-2 offsuit), to 7462, a royal flush,
// and each category's weakest and strongest hands sit at its ends.
func TestRankNumbers(t *testing.T) {
	tests := []struct {
		cards string
		want  HandRank
	}{
		{"7c 5d 4h 3s 2c", 1},
		{"Ac Kd Qh Js 9c", 1277},
		{"2c 2d 5h 4s 3c", 1278},
		{"Ac Ad Kh Qs Jc", 4137},
		{"3c 3d 2h 2s 4c", 4138},
		{"Ac Ad Kh Ks Qc", 4995},
		{"2c 2d 2h 4s 3c", 4996},
		{"Ac Ad Ah Ks Qc", 5853},
		{"Ac 2d 3h 4s 5c", 5854},
		{"Tc Jd Qh Ks Ac", 5863},
		{"7c 5c 4c 3c 2c", 5864},
		{"Ac Kc Qc Jc 9c", 7140},
		{"2c 2d 2h 3s 3c", 7141},
		{"Ac Ad Ah Ks Kc", 7296},
		{"2c 2d 2h 2s 3c", 7297},
		{"Ac Ad Ah As Kc", 7452},
		{"Ah 2h 3h 4h 5h", 7453},
		{"Th Jh Qh Kh Ah", 7462},
	}
	for _, tt := range tests {
		if got := Evaluate(MustParseCards(tt.cards)...); got != tt.want {
			t.Errorf("%s ranks %d, want %d", tt.cards, got, tt.want)
		}
	}
	if got := HandRank(0).Category(); got != HighCard {
		t.Errorf("rank 0 (no hand) is in category %v, want %v", got, HighCard)
	}
}

// TestEvaluateDoesNotAllocate: the evaluator's hot paths allocate nothing, so enumerations and a
// busy dealer create no garbage.
func TestEvaluateDoesNotAllocate(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector changes allocation counts")
	}
	seven := [7]Card{}
	copy(seven[:], MustParseCards("Kh 7d Kc Ks 7s 2d 9c"))
	if n := testing.AllocsPerRun(100, func() { Evaluate(seven[:]...) }); n != 0 {
		t.Errorf("Evaluate: %v allocations per call, want 0", n)
	}
	if n := testing.AllocsPerRun(100, func() { Evaluate7(&seven) }); n != 0 {
		t.Errorf("Evaluate7: %v allocations per call, want 0", n)
	}
}

// showdown ranks each player's two cards with the board and returns the winners' indices.
func showdown(t *testing.T, board string, holes ...string) []int {
	t.Helper()
	b := MustParseCards(board)
	var best HandRank
	var winners []int
	for i, h := range holes {
		r := Evaluate(append(MustParseCards(h), b...)...)
		switch {
		case r > best:
			best, winners = r, []int{i}
		case r == best:
			winners = append(winners, i)
		}
	}
	return winners
}

// TestR10Kickers is RULES.md R-10: the fifth card decides, and a board kicker splits.
func TestR10Kickers(t *testing.T) {
	if got := showdown(t, "6c 7d 8h Qs Kd", "Jc 8s", "9c 8d"); !slices.Equal(got, []int{0}) {
		t.Errorf("board 6-7-8-Q-K, J-8 vs 9-8: winners %v, want A (0) with 8-8-K-Q-J", got)
	}
	if got := showdown(t, "7c 8d Kh Qs Ad", "Jc 8s", "9c 8h"); !slices.Equal(got, []int{0, 1}) {
		t.Errorf("board 7-8-K-Q-A, J-8 vs 9-8: winners %v, want a split", got)
	}
	if got, want := Best(MustParseCards("Jc 8s 7c 8d Kh Qs Ad")).Description, "Pair of eights"; got != want {
		t.Errorf("description %q, want %q", got, want)
	}
}

// TestR11Straight is RULES.md R-11: the board's straight plays, an ace makes the higher one, and a
// straight never wraps around the ace.
func TestR11Straight(t *testing.T) {
	board := "9c Td Jh Qs Kd"
	if got := showdown(t, board, "7c 2d", "3h 4h"); !slices.Equal(got, []int{0, 1}) {
		t.Errorf("board 9-T-J-Q-K, 7-2 vs 4-3: winners %v, want a split (both play the board)", got)
	}
	if got := showdown(t, board, "7c 2d", "Ac 3c"); !slices.Equal(got, []int{1}) {
		t.Errorf("board 9-T-J-Q-K, 7-2 vs A-3: winners %v, want the ace (1)", got)
	}
	if got, want := Best(MustParseCards("7c 2d "+board)).Description, "Straight, king high"; got != want {
		t.Errorf("7-2 on the board: %q, want %q", got, want)
	}
	if got, want := Best(MustParseCards("Ac 3c "+board)).Description, "Straight, ace high"; got != want {
		t.Errorf("A-3 on the board: %q, want %q", got, want)
	}
	for _, h := range []string{"Qs Kd Ah 2c 3d 7h 9s", "Js Qd Kh Ac 2d", "Kd Ah 2c 3d 4s"} {
		if got := Evaluate(MustParseCards(h)...).Category(); got == Straight {
			t.Errorf("%s makes a straight: straights do not wrap around the ace", h)
		}
	}
}

// TestEvaluateRefuses: fewer than five cards, more than seven, a repeated card or a number that is
// not a card is a programming error and panics with a sentence saying what to pass instead, which
// never names the cards (they may be hole cards).
func TestEvaluateRefuses(t *testing.T) {
	tests := []struct {
		name, msg string
		cards     []Card
	}{
		{"four cards", "engine.Evaluate: got 4 cards, pass 5 to 7", MustParseCards("As Ks Qs Js")},
		{"eight cards", "engine.Evaluate: got 8 cards, pass 5 to 7", MustParseCards("As Ks Qs Js Ts 9s 8s 7s")},
		{"repeated card", "engine.Evaluate: a card appears twice; pass 5 to 7 different cards", MustParseCards("As As Qs Js Ts")},
		{"not a card", "engine.Evaluate: 52 is not a card; cards are numbered 0 to 51", []Card{0, 1, 2, 3, 52}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			defer func() {
				if got := recover(); got != tt.msg {
					t.Errorf("panic %q, want %q", got, tt.msg)
				}
			}()
			Evaluate(tt.cards...)
		})
	}
}

// BenchmarkEvaluate7 ranks pre-dealt random seven-card hands; one op is one hand.
// Target: at least 150 million hands/s on one core (under 6.7 ns/op).
func BenchmarkEvaluate7(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	hands := make([][7]Card, 1<<16)
	deck := OrderedDeck()
	for i := range hands {
		for j := 0; j < 7; j++ {
			k := j + rng.IntN(52-j)
			deck[j], deck[k] = deck[k], deck[j]
		}
		copy(hands[i][:], deck[:7])
	}
	loadTables()
	var sink HandRank
	i := 0
	for b.Loop() {
		sink += Evaluate7(&hands[i&(len(hands)-1)])
		i++
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "hands/s")
	if sink == 0 {
		b.Fatal("no hands ranked")
	}
}

// BenchmarkEnumerate7 ranks all 133,784,560 seven-card hands per op. Target: under 0.6 s/op.
func BenchmarkEnumerate7(b *testing.B) {
	loadTables()
	var hist [numClasses + 1]uint32
	for b.Loop() {
		hist = [numClasses + 1]uint32{}
		enumerate7(&hist)
	}
	b.ReportMetric(133784560*float64(b.N)/b.Elapsed().Seconds(), "hands/s")
}

// BenchmarkBuildTables is the one-off cost of the evaluator's tables, paid on first use.
func BenchmarkBuildTables(b *testing.B) {
	loadTables()
	for b.Loop() {
		buildTables()
	}
}

func ExampleBest() {
	v := Best(MustParseCards("Kh 7d Kc Ks 7s 2d 9c"))
	fmt.Println(v.Description)
	fmt.Println(FormatCards(v.Cards[:]), v.Category, v.Rank > Evaluate(MustParseCards("Ah Ad Ac Qs Js 2d 9c")...))
	// Output:
	// Full house, kings full of sevens
	// KhKcKs7d7s Full house true
}
