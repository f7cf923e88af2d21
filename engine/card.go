package engine

import (
	"encoding/binary"
	"fmt"
	"io"
	"strings"
)

// Card is one of the 52 cards: Rank()*4 + Suit(). The zero value is the two of clubs.
type Card uint8

// Rank of a card: Two (0) up to Ace (12).
type Rank uint8

// Suit of a card. Suits never rank; the order only fixes the encoding.
type Suit uint8

// The ranks.
const (
	Two Rank = iota
	Three
	Four
	Five
	Six
	Seven
	Eight
	Nine
	Ten
	Jack
	Queen
	King
	Ace
)

// The suits.
const (
	Clubs Suit = iota
	Diamonds
	Hearts
	Spades
)

const (
	rankChars = "23456789TJQKA"
	suitChars = "cdhs"
)

// NewCard returns the card of rank r and suit s.
func NewCard(r Rank, s Suit) Card { return Card(uint8(r)<<2 | uint8(s)) }

// Rank returns the card's rank.
func (c Card) Rank() Rank { return Rank(c >> 2) }

// Suit returns the card's suit.
func (c Card) Suit() Suit { return Suit(c & 3) }

// String formats the card as rank then suit: "As", "Td", "9c".
func (c Card) String() string {
	if c > 51 {
		return "??"
	}
	return string([]byte{rankChars[c>>2], suitChars[c&3]})
}

// String returns the rank's character: 2..9, T, J, Q, K, A.
func (r Rank) String() string {
	if r > Ace {
		return "?"
	}
	return rankChars[r : r+1]
}

// String returns the suit's letter: c, d, h or s.
func (s Suit) String() string {
	if s > Spades {
		return "?"
	}
	return suitChars[s : s+1]
}

// ParseCard reads a card such as "As", "td" or "10h" (rank first, then suit).
func ParseCard(s string) (Card, error) {
	t := strings.TrimSpace(s)
	if strings.HasPrefix(t, "10") {
		t = "T" + t[2:]
	}
	if len(t) != 2 {
		return 0, fmt.Errorf("%q is not a card: write rank then suit, like As, Td or 9c", s)
	}
	r := strings.IndexByte(rankChars, upper(t[0]))
	su := strings.IndexByte(suitChars, lower(t[1]))
	if r < 0 || su < 0 {
		return 0, fmt.Errorf("%q is not a card: write rank then suit, like As, Td or 9c", s)
	}
	return NewCard(Rank(r), Suit(su)), nil
}

// ParseCards reads cards written together or separated by spaces or commas: "AsKd", "As Kd".
func ParseCards(s string) ([]Card, error) {
	var out []Card
	t := strings.NewReplacer(" ", "", ",", "", "\t", "").Replace(s)
	t = strings.ReplaceAll(t, "10", "T")
	if len(t)%2 != 0 {
		return nil, fmt.Errorf("%q is not a list of cards: write each as rank then suit, like AsKd", s)
	}
	for i := 0; i < len(t); i += 2 {
		c, err := ParseCard(t[i : i+2])
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, nil
}

// MustParseCards is ParseCards for tests and examples; it panics on bad input.
func MustParseCards(s string) []Card {
	cs, err := ParseCards(s)
	if err != nil {
		panic(err)
	}
	return cs
}

// FormatCards writes cards with no separator: "AsKd".
func FormatCards(cs []Card) string {
	var b strings.Builder
	for _, c := range cs {
		b.WriteString(c.String())
	}
	return b.String()
}

func upper(b byte) byte {
	if b >= 'a' && b <= 'z' {
		return b - 'a' + 'A'
	}
	return b
}

func lower(b byte) byte {
	if b >= 'A' && b <= 'Z' {
		return b - 'A' + 'a'
	}
	return b
}

// Deck is an ordered deck of 52 distinct cards; cards are dealt from the front.
type Deck [52]Card

// OrderedDeck returns the deck in encoding order, 2c first and As last.
func OrderedDeck() Deck {
	var d Deck
	for i := range d {
		d[i] = Card(i)
	}
	return d
}

// ShuffledDeck shuffles with an unbiased Fisher–Yates driven by random bytes from r. The engine
// holds no randomness of its own: the dealer passes crypto/rand.Reader (bot.Config.Rand's default),
// tests and replays a deterministic reader.
func ShuffledDeck(r io.Reader) (Deck, error) {
	d := OrderedDeck()
	for i := len(d) - 1; i > 0; i-- {
		j, err := uniform(r, uint32(i+1))
		if err != nil {
			return Deck{}, fmt.Errorf("shuffle: %w", err)
		}
		d[i], d[j] = d[j], d[i]
	}
	return d, nil
}

// uniform returns an unbiased number in [0, n) by rejection sampling.
func uniform(r io.Reader, n uint32) (uint32, error) {
	limit := (^uint32(0) / n) * n // largest multiple of n that fits; reject values at or above it
	var b [4]byte
	for {
		if _, err := io.ReadFull(r, b[:]); err != nil {
			return 0, err
		}
		v := binary.LittleEndian.Uint32(b[:])
		if v < limit {
			return v % n, nil
		}
	}
}

// DeckFrom builds a deck whose first cards are the given ones, in order; the remaining cards follow in
// encoding order. It fails if a card repeats or is out of range.
func DeckFrom(first []Card) (Deck, error) {
	var d Deck
	var seen [52]bool
	if len(first) > 52 {
		return d, fmt.Errorf("a deck has 52 cards, not %d", len(first))
	}
	for i, c := range first {
		if c > 51 {
			return d, fmt.Errorf("card %d is not a card", c)
		}
		if seen[c] {
			return d, fmt.Errorf("card %s appears twice in the deck", c)
		}
		seen[c] = true
		d[i] = c
	}
	n := len(first)
	for c := Card(0); c < 52; c++ {
		if !seen[c] {
			d[n] = c
			n++
		}
	}
	return d, nil
}

// Valid reports whether the deck holds each of the 52 cards exactly once.
func (d *Deck) Valid() bool {
	var seen uint64
	for _, c := range d {
		if c > 51 || seen&(1<<c) != 0 {
			return false
		}
		seen |= 1 << c
	}
	return true
}
