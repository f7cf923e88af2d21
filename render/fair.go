package render

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"

	"github.com/dealerbot/dealerbot/engine"
)

// The fair-shuffle proof commits to the deck card by card, so that each card can be opened alone.
//
// Every deck position i (0 to 51, in dealing order) has its own salt, derived from the hand's secret
// salt with HMAC-SHA256 so that opening one position's salt says nothing about the others. The
// position's commitment ("leaf") is the hex SHA-256 of the text "i:card:salt", for example
// "17:Kd:9f86…". The deck commitment posted before the deal is the hex SHA-256 of the 52 leaves, each
// on its own line, in order. After the hand, `verify N` opens only the cards that became public (the
// board, the hands shown) and, privately, the asker's own hole cards: each with its position and salt,
// plus the 52 leaves. Anyone can then check with sha256sum that each opened card hashes to its leaf and
// that the leaves hash to the commitment. Folded and mucked cards stay closed.

// ProofVersion is the version of the proof a hand is committed with; hands stored with an older one
// (whole-deck commitments) have no card-by-card proof.
const ProofVersion = 2

// CardSalt is the salt of deck position pos, derived from the hand's secret salt.
func CardSalt(secret string, pos int) string {
	m := hmac.New(sha256.New, []byte(secret))
	fmt.Fprintf(m, "card %d", pos)
	return hex.EncodeToString(m.Sum(nil))[:32]
}

// Leaf is the commitment to one card at one position.
func Leaf(pos int, c engine.Card, salt string) string {
	sum := sha256.Sum256([]byte(fmt.Sprintf("%d:%s:%s", pos, c, salt)))
	return hex.EncodeToString(sum[:])
}

// Leaves returns the 52 position commitments of a deck.
func Leaves(deck engine.Deck, secret string) []string {
	out := make([]string, len(deck))
	for i, c := range deck {
		out[i] = Leaf(i, c, CardSalt(secret, i))
	}
	return out
}

// LeavesText is the leaves as the proof prints them and sha256sum reads them: one per line.
func LeavesText(leaves []string) string { return strings.Join(leaves, "\n") + "\n" }

// DeckCommitment is the commitment posted before the deal: the SHA-256 of LeavesText.
func DeckCommitment(deck engine.Deck, secret string) string {
	sum := sha256.Sum256([]byte(LeavesText(Leaves(deck, secret))))
	return hex.EncodeToString(sum[:])
}

// Opening is one opened card: its deck position, the card and its salt.
type Opening struct {
	Pos  int
	Card engine.Card
	Salt string
}

// Open returns the openings of the given cards of a deck, in deck order; cards not in the deck are
// left out.
func Open(deck engine.Deck, secret string, cards []engine.Card) []Opening {
	var out []Opening
	for i, c := range deck {
		if slices.Contains(cards, c) {
			out = append(out, Opening{Pos: i, Card: c, Salt: CardSalt(secret, i)})
		}
	}
	return out
}

// VerifyOpening checks one opened card against the leaves and the leaves against the commitment.
func VerifyOpening(commitment string, leaves []string, o Opening) bool {
	sum := sha256.Sum256([]byte(LeavesText(leaves)))
	return len(leaves) == 52 && hex.EncodeToString(sum[:]) == commitment && o.Pos >= 0 && o.Pos < 52 &&
		leaves[o.Pos] == Leaf(o.Pos, o.Card, o.Salt)
}

// ProofView is what `verify N` shows: the public cards opened, the asker's own cards when they played.
type ProofView struct {
	HandNo     int64
	Commitment string
	Leaves     []string
	Public     []Opening
	Own        []Opening // the asker's hole cards, shown to the asker alone
}

// VerifyHelp explains the proof in plain words: what it shows, what it does not, how to check it.
const VerifyHelp = "Before each hand I post a deck commitment: a SHA-256 hash that fixes every card of the shuffled deck " +
	"without showing any. After the hand, `verify N` (N is the hand number) opens the cards that became public, " +
	"the board and the hands shown, and your own hole cards for you alone. Each opened card comes with its " +
	"position and a salt: `printf '%s' 'position:card:salt' | sha256sum` must give that position's line of the " +
	"52-line list, and `sha256sum` of the list (saved as a file, one line each) must give the commitment. " +
	"That shows the deck was fixed before the deal and never changed. It does not show that the shuffle was " +
	"random (that rests on the dealer's crypto/rand), and folded or mucked cards are never opened."

// Proof is the private reply to `verify N`.
func Proof(v ProofView, style CardStyle) Message {
	var b strings.Builder
	fmt.Fprintf(&b, "Hand #%d: commitment `%s`.\n", v.HandNo, v.Commitment)
	line := func(o Opening) {
		fmt.Fprintf(&b, "• %s: `printf '%%s' '%d:%s:%s' | sha256sum` gives line %d: `%s`\n",
			Card(o.Card, style), o.Pos, o.Card, o.Salt, o.Pos+1, v.Leaves[o.Pos])
	}
	if len(v.Public) > 0 {
		b.WriteString("Public cards:\n")
		for _, o := range v.Public {
			line(o)
		}
	}
	if len(v.Own) > 0 {
		b.WriteString("Your cards (only you see this):\n")
		for _, o := range v.Own {
			line(o)
		}
	}
	b.WriteString("The 52 lines (save them as a file; `sha256sum FILE` gives the commitment):\n```\n")
	b.WriteString(LeavesText(v.Leaves))
	b.WriteString("```")
	return Message{Text: b.String(), Private: true}
}
