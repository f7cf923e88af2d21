package engine

import (
	"fmt"
	"strings"
)

// Game is what is dealt and how hands are valued (RULES.md section 12); the betting structure is the
// Variant beside it. The zero value is Texas Hold'em, so rules stored before games existed still
// read as Hold'em.
type Game uint8

// The games.
const (
	Holdem Game = iota // two hole cards, best five of seven
	// Omaha deals four hole cards; a hand is exactly two of them and three board cards.
	Omaha
	// Omaha5 is five-card Omaha: five hole cards, exactly two of them with three board cards; at
	// most 8 players.
	Omaha5
	// OmahaHiLo is Omaha eight or better: four hole cards, every pot split between the best high hand
	// and the best qualifying low (five different ranks, eight or lower, aces low).
	OmahaHiLo
)

// String names the game: "hold'em", "omaha", "5-card omaha" or "omaha hi-lo".
func (g Game) String() string {
	switch g {
	case Holdem:
		return "hold'em"
	case Omaha:
		return "omaha"
	case Omaha5:
		return "5-card omaha"
	case OmahaHiLo:
		return "omaha hi-lo"
	}
	return "unknown"
}

// ParseGame reads a game's name: "holdem" (or "hold'em", "nlh"), "omaha" ("plo"), "omaha5"
// ("plo5", "5-card omaha") or "omaha-hilo" ("plo8", "o8", "omaha hi-lo").
func ParseGame(s string) (Game, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "holdem", "hold'em", "hold-em", "nlh", "texas":
		return Holdem, nil
	case "omaha", "plo":
		return Omaha, nil
	case "omaha5", "plo5", "5-card omaha", "5-card-omaha":
		return Omaha5, nil
	case "omaha-hilo", "omaha hi-lo", "omaha-hi-lo", "hilo", "plo8", "o8":
		return OmahaHiLo, nil
	}
	return 0, fmt.Errorf("%q is not a game: choose holdem, omaha, omaha5 or omaha-hilo", s)
}

// HoleCards is the number of hole cards each player is dealt: 2, 4 or 5.
func (g Game) HoleCards() int {
	switch g {
	case Omaha, OmahaHiLo:
		return 4
	case Omaha5:
		return 5
	}
	return 2
}

// HiLo reports whether pots are split between the best high and the best eight-or-better low hand.
func (g Game) HiLo() bool { return g == OmahaHiLo }

// MaxPlayers is the most players one deck deals the game to: 10, but 8 in five-card Omaha
// (8 x 5 hole cards + 5 board cards + 3 burns = 48 of 52).
func (g Game) MaxPlayers() int {
	if g == Omaha5 {
		return 8
	}
	return MaxPlayers
}

// maxHole is the most hole cards any game deals; a hand keeps room for that many per player.
const maxHole = 5
