package engine

import "fmt"

// HandRank orders five-card poker hands: higher is better, equal ranks split the pot.
// (Placeholder encoding: category<<20 | five 4-bit ranks. To be replaced by the table-driven evaluator.)
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

func (c Category) String() string {
	return [...]string{"High card", "One pair", "Two pair", "Three of a kind", "Straight", "Flush",
		"Full house", "Four of a kind", "Straight flush"}[c]
}

// Category returns the rank's category.
func (r HandRank) Category() Category { return Category(r >> 20) }

// HandValue is a hand as players see it: its rank, category, the five cards used and a description.
type HandValue struct {
	Rank        HandRank
	Category    Category
	Cards       [5]Card
	Description string
}

// Evaluate returns the rank of the best five-card hand among 5 to 7 cards.
func Evaluate(cards ...Card) HandRank { return Best(cards).Rank }

// Best returns the best five-card hand among 5 to 7 cards.
func Best(cards []Card) HandValue {
	n := len(cards)
	if n < 5 || n > 7 {
		panic(fmt.Sprintf("engine.Best: %d cards, want 5 to 7", n))
	}
	var best HandValue
	var five [5]Card
	for a := 0; a < n; a++ {
		for b := a + 1; b < n; b++ {
			// choose the two (or fewer) cards to leave out: a,b index into the left-out set
			if n == 5 && (a > 0 || b > 1) {
				continue
			}
			k := 0
			for i := 0; i < n; i++ {
				if n == 7 && (i == a || i == b) || n == 6 && i == a {
					continue
				}
				if k < 5 {
					five[k] = cards[i]
					k++
				}
			}
			v := eval5(five)
			if v.Rank > best.Rank {
				best = v
			}
		}
	}
	return best
}

func eval5(c [5]Card) HandValue {
	var counts [13]int
	flush := true
	for i, x := range c {
		counts[x.Rank()]++
		if x.Suit() != c[0].Suit() {
			flush = false
		}
		_ = i
	}
	// ranks ordered by (count desc, rank desc)
	var order []Rank
	for n := 4; n >= 1; n-- {
		for r := int(Ace); r >= 0; r-- {
			if counts[r] == n {
				order = append(order, Rank(r))
			}
		}
	}
	straightHigh := -1
	if len(order) == 5 {
		if order[0]-order[4] == 4 {
			straightHigh = int(order[0])
		} else if order[0] == Ace && order[1] == Five {
			straightHigh = int(Five)
			order = []Rank{Five, Four, Three, Two, Ace}
		}
	}
	var cat Category
	switch {
	case straightHigh >= 0 && flush:
		cat = StraightFlush
	case counts[order[0]] == 4:
		cat = FourOfAKind
	case counts[order[0]] == 3 && counts[order[1]] == 2:
		cat = FullHouse
	case flush:
		cat = Flush
	case straightHigh >= 0:
		cat = Straight
	case counts[order[0]] == 3:
		cat = ThreeOfAKind
	case counts[order[0]] == 2 && counts[order[1]] == 2:
		cat = TwoPair
	case counts[order[0]] == 2:
		cat = OnePair
	default:
		cat = HighCard
	}
	r := uint32(cat) << 20
	for i := 0; i < 5; i++ {
		var v uint32
		if i < len(order) {
			v = uint32(order[i])
			if straightHigh == int(Five) && order[i] == Ace {
				v = 0
			} else if straightHigh == int(Five) {
				v = uint32(order[i]) + 1
			}
		}
		r |= v << (16 - 4*i)
	}
	// cards ordered as the rank reads them
	var out [5]Card
	k := 0
	for _, rk := range order {
		for _, x := range c {
			if x.Rank() == rk {
				out[k] = x
				k++
			}
		}
	}
	return HandValue{Rank: HandRank(r), Category: cat, Cards: out, Description: describe(cat, order)}
}

func describe(cat Category, o []Rank) string {
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
