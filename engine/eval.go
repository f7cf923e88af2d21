package engine

import (
	"fmt"
	"math/bits"
	"sync"
)

// HandRank orders poker hands: higher is better, equal ranks split the pot. The 7,462 distinct
// five-card hands (equivalence classes: suits never rank) are numbered 1 (7-5-4-3-2 offsuit) to
// 7462 (a royal flush); 0 is no hand.
type HandRank uint32

// Category is the kind of poker hand.
type Category uint8

// The categories, low to high.
const (
	HighCard Category = iota
	OnePair
	TwoPair
	ThreeOfAKind
	Straight
	Flush
	FullHouse
	FourOfAKind
	StraightFlush
)

// String names the category as players read it: "High card" .. "Straight flush".
func (c Category) String() string {
	if c > StraightFlush {
		return fmt.Sprintf("Category(%d)", uint8(c))
	}
	return [...]string{"High card", "One pair", "Two pair", "Three of a kind", "Straight", "Flush",
		"Full house", "Four of a kind", "Straight flush"}[c]
}

// Category returns the rank's category (HighCard for the zero rank).
func (r HandRank) Category() Category {
	c := StraightFlush
	for r < categoryStart[c] && c > HighCard {
		c--
	}
	return c
}

// HandValue is a hand as players see it: its rank, category, the five cards used and a description.
type HandValue struct {
	Rank        HandRank
	Category    Category
	Cards       [5]Card
	Description string
}

// Evaluate returns the rank of the best five-card hand among 5 to 7 distinct cards. It panics if
// given fewer than 5 or more than 7 cards, a card out of range or the same card twice, since callers
// always hold real dealt cards. It does not allocate.
func Evaluate(cards ...Card) HandRank {
	loadTables()
	key, mask := keyStart, uint64(0)
	for _, c := range cards {
		if c > 51 {
			panic(fmt.Sprintf("engine.Evaluate: %d is not a card; cards are numbered 0 to 51", c))
		}
		key += cardKey[c]
		mask |= cardMask[c]
	}
	// The messages never name the cards: they may be someone's hole cards.
	switch n := len(cards); {
	case n < 5 || n > 7:
		panic(fmt.Sprintf("engine.Evaluate: got %d cards, pass 5 to 7", n))
	case bits.OnesCount64(mask) != n:
		panic("engine.Evaluate: a card appears twice; pass 5 to 7 different cards")
	}
	return rankOf(key, mask)
}

// Evaluate7 is the fast path for exactly seven cards, for enumerations and benchmarks: it checks
// nothing (the cards must be distinct and valid; otherwise the result is meaningless or it panics)
// and takes a pointer so the array is not copied. Evaluate7(&c) == Evaluate(c[:]...).
func Evaluate7(c *[7]Card) HandRank {
	loadTables()
	key := keyStart + cardKey[c[0]] + cardKey[c[1]] + cardKey[c[2]] + cardKey[c[3]] +
		cardKey[c[4]] + cardKey[c[5]] + cardKey[c[6]]
	mask := cardMask[c[0]] | cardMask[c[1]] | cardMask[c[2]] | cardMask[c[3]] |
		cardMask[c[4]] | cardMask[c[5]] | cardMask[c[6]]
	return rankOf(key, mask)
}

// Best returns the best five-card hand among 5 to 7 distinct cards: its rank, category, the five
// cards as the hand reads (sets first, largest first, then kickers high to low; a wheel as
// 5-4-3-2-A) and a description for players such as "Full house, kings full of sevens". When
// several five-card choices are equally good, the earliest cards in the input play; cards of equal
// rank keep their input order. It panics on the inputs Evaluate panics on.
func Best(cards []Card) HandValue {
	best := Evaluate(cards...)
	// Try the 5-card subsets (leaving out no card, card i, or cards i and j) in lexicographic order
	// of the cards kept, and keep the first that makes the best rank: among equal choices the
	// earlier input cards play.
	var five [5]Card
	try := func(i, j int) bool {
		k := 0
		for x, c := range cards {
			if x != i && x != j {
				five[k] = c
				k++
			}
		}
		return Evaluate(five[:]...) == best
	}
	found := false
	switch n := len(cards); n {
	case 5:
		found = try(-1, -1)
	case 6:
		for i := n - 1; i >= 0 && !found; i-- {
			found = try(i, -1)
		}
	case 7:
		for i := n - 2; i >= 0 && !found; i-- {
			for j := n - 1; j > i && !found; j-- {
				found = try(i, j)
			}
		}
	}
	if !found {
		panic("engine.Best: no five cards make the hand's rank") // cannot happen: the tables agree
	}
	return describeFive(best, five)
}

// describeFive orders five cards as the hand reads and names the hand.
func describeFive(rank HandRank, five [5]Card) HandValue {
	cat := rank.Category()
	var counts [13]int
	for _, c := range five {
		counts[c.Rank()]++
	}
	var order []Rank // distinct ranks: larger sets first, then higher
	for n := 4; n >= 1; n-- {
		for r := Ace; ; r-- {
			if counts[r] == n {
				order = append(order, r)
			}
			if r == Two {
				break
			}
		}
	}
	if (cat == Straight || cat == StraightFlush) && order[0] == Ace && order[1] == Five {
		order = append(order[1:], Ace) // the wheel reads 5-4-3-2-A
	}
	v := HandValue{Rank: rank, Category: cat}
	k := 0
	for _, r := range order {
		for _, c := range five {
			if c.Rank() == r {
				v.Cards[k] = c
				k++
			}
		}
	}
	v.Description = describe(cat, order)
	return v
}

func describe(cat Category, o []Rank) string {
	descOnce.Do(buildDescriptions)
	second := Two
	if len(o) > 1 {
		second = o[1]
	}
	return descTable[cat][o[0]][second]
}

// descTable holds every description by category, first and second rank of the hand's order: a
// description names at most two ranks, so showdowns reuse these strings instead of formatting.
var (
	descOnce  sync.Once
	descTable [StraightFlush + 1][Ace + 1][Ace + 1]string
)

func buildDescriptions() {
	for cat := HighCard; cat <= StraightFlush; cat++ {
		for a := Two; a <= Ace; a++ {
			for b := Two; b <= Ace; b++ {
				descTable[cat][a][b] = formatDescription(cat, a, b)
			}
		}
	}
}

// formatDescription words a hand of category cat whose order begins with the ranks a, b.
func formatDescription(cat Category, a, b Rank) string {
	o := [2]Rank{a, b}
	switch cat {
	case StraightFlush:
		if o[0] == Ace {
			return "Royal flush"
		}
		return fmt.Sprintf("Straight flush, %s high", o[0].Name(false))
	case FourOfAKind:
		return fmt.Sprintf("Four of a kind, %s", o[0].Name(true))
	case FullHouse:
		return fmt.Sprintf("Full house, %s full of %s", o[0].Name(true), o[1].Name(true))
	case Flush:
		return fmt.Sprintf("Flush, %s high", o[0].Name(false))
	case Straight:
		return fmt.Sprintf("Straight, %s high", o[0].Name(false))
	case ThreeOfAKind:
		return fmt.Sprintf("Three of a kind, %s", o[0].Name(true))
	case TwoPair:
		return fmt.Sprintf("Two pair, %s and %s", o[0].Name(true), o[1].Name(true))
	case OnePair:
		return fmt.Sprintf("Pair of %s", o[0].Name(true))
	}
	return fmt.Sprintf("High card, %s", o[0].Name(false))
}

// Name returns the rank as a word, singular ("king") or plural ("kings").
func (r Rank) Name(plural bool) string {
	names := [...]string{"two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "jack", "queen", "king", "ace"}
	if r > Ace {
		return "?"
	}
	n := names[r]
	if !plural {
		return n
	}
	if r == Six {
		return "sixes"
	}
	return n + "s"
}
