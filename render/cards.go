package render

import (
	"strconv"
	"strings"

	"github.com/dealerbot/dealerbot/engine"
)

// Rank and suit symbols. Ranks are written as players say them (the ten is 10, not T). TextCards uses
// the plain suit characters. EmojiCards uses a four-colour deck so that no two suits share a colour
// and every suit also has its own shape, which keeps them apart for colour-blind players and on small
// screens:
//
//	spades   ♠️  black spade
//	hearts   ♥️  red heart
//	diamonds 🔷 blue diamond
//	clubs    🍀 green clover
//
// The usual emoji ♦️ and ♣️ are avoided: ♦️ is red like ♥️, and ♣️ is black like ♠️.
var (
	textRanks  = [13]string{"2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"}
	textSuits  = [4]string{engine.Clubs: "♣", engine.Diamonds: "♦", engine.Hearts: "♥", engine.Spades: "♠"}
	emojiSuits = [4]string{engine.Clubs: "🍀", engine.Diamonds: "🔷", engine.Hearts: "♥️", engine.Spades: "♠️"}

	// Every card drawn as text and as emoji, worked out once: a table message draws dozens.
	textCards, emojiCards = drawDeck(textSuits), drawDeck(emojiSuits)
)

// drawDeck draws each of the 52 cards as its rank and, from suits, its suit.
func drawDeck(suits [4]string) (deck [52]string) {
	for c := range engine.Card(52) {
		deck[c] = textRanks[c.Rank()] + suits[c.Suit()]
	}
	return deck
}

// Card draws one card: "A♠", "10♥" (the ten is written 10, not T, for players who do not read hand
// histories), or its picture's text. A value outside the deck is drawn as "??".
func Card(c engine.Card, style CardStyle) string {
	switch {
	case c > 51:
		return "??"
	case style.Kind >= CardImages && style.Faces != nil && style.Faces[c] != "":
		return style.Faces[c]
	case style.Kind != CardText:
		return emojiCards[c]
	}
	return textCards[c]
}

// Cards draws cards separated by spaces: "A♠ K♥ 9♦".
func Cards(cs []engine.Card, style CardStyle) string {
	parts := make([]string, len(cs))
	for i, c := range cs {
		parts[i] = Card(c, style)
	}
	return strings.Join(parts, " ")
}

// Chips writes a chip count with thousands separators: 1250 -> "1,250", -1250 -> "-1,250".
func Chips(n int64) string {
	neg := n < 0
	u := uint64(n)
	if neg {
		u = -u // two's complement: also right for the smallest int64
	}
	digits := strconv.FormatUint(u, 10)
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	for i := 0; i < len(digits); i++ {
		if i > 0 && (len(digits)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteByte(digits[i])
	}
	return b.String()
}

// signed writes a net result with its sign: "+350", "-200", "0".
func signed(n int64) string {
	if n > 0 {
		return "+" + Chips(n)
	}
	return Chips(n)
}

var suitNames = [4]string{engine.Clubs: "clubs", engine.Diamonds: "diamonds", engine.Hearts: "hearts", engine.Spades: "spades"}

// CardName names a card in words, for alt text and screen readers: "king of diamonds".
func CardName(c engine.Card) string {
	if c > 51 {
		return "unknown card"
	}
	return c.Rank().Name(false) + " of " + suitNames[c.Suit()]
}

// CardNames names cards in words, the first capitalised: "King of diamonds, ten of clubs".
func CardNames(cs []engine.Card) string {
	parts := make([]string, len(cs))
	for i, c := range cs {
		parts[i] = CardName(c)
	}
	return capitalize(strings.Join(parts, ", "))
}

// Ordinal writes a place: 1st, 2nd, 3rd, 4th, 11th, 22nd.
func Ordinal(n int) string {
	suffix := "th"
	switch {
	case n%100 >= 11 && n%100 <= 13:
	case n%10 == 1:
		suffix = "st"
	case n%10 == 2:
		suffix = "nd"
	case n%10 == 3:
		suffix = "rd"
	}
	return strconv.Itoa(n) + suffix
}
