package render

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"

	"github.com/dealerbot/dealerbot/engine"
)

// DeckHash is the fair-shuffle commitment for a deck and a secret salt: the hex SHA-256 of the deck
// order written as in hand histories ("As2d…", 104 characters), a colon, and the salt. The bot posts it
// before dealing (Commitment) and the deck and salt after the hand (Reveal), so anyone can check that
// the deck was fixed before the first card and never changed.
func DeckHash(deck engine.Deck, salt string) string {
	sum := sha256.Sum256([]byte(engine.FormatCards(deck[:]) + ":" + salt))
	return hex.EncodeToString(sum[:])
}

// Commitment announces the hash of the deck before hand handNo is dealt.
func Commitment(handNo int64, hash string) Message {
	return Message{Text: fmt.Sprintf("Hand #%d deck commitment: sha256 `%s`", handNo, hash)}
}

// Reveal publishes the deck order and salt of a finished hand and how to check them against the
// commitment.
func Reveal(handNo int64, deck engine.Deck, salt string) Message {
	order := engine.FormatCards(deck[:])
	return Message{Text: clip(fmt.Sprintf("Hand #%d deck, dealt from the left: `%s`\nSalt: `%s`\n"+
		"To verify, compute sha256 of `deck:salt` (the two values above joined by a colon); it should be "+
		"`%s`, the commitment posted before the hand.", handNo, order, salt, DeckHash(deck, salt)))}
}
