package render

import (
	"strconv"
	"strings"

	"github.com/dealerbot/dealerbot/engine"
)

// potName names pot k of n for a sentence: "the pot" when there is only one, else "the main pot",
// "side pot 1", "side pot 2".
func potName(k, n int) string {
	switch {
	case n <= 1:
		return "the pot"
	case k == 0:
		return "the main pot"
	}
	return "side pot " + strconv.Itoa(k)
}

// potLines writes one line per pot with the players who can win it:
//
//	Main pot: 605 (Alice, Bob, Carol, Dave)
//	Side pot 1: 750 (Alice, Bob, Carol)
//
// Without names it counts the players instead: "Side pot 1: 750 (3 players)".
func potLines(pots []engine.Pot, names Names, withNames bool) []string {
	lines := make([]string, len(pots))
	for k, p := range pots {
		label := "Main pot: "
		if k > 0 {
			label = "Side pot " + strconv.Itoa(k) + ": "
		}
		lines[k] = label + Chips(p.Amount)
		switch {
		case len(p.Eligible) == 0:
		case !withNames:
			lines[k] += " (" + strconv.Itoa(len(p.Eligible)) + " players)"
		default:
			lines[k] += " (" + joinComma(names.of(p.Eligible)) + ")"
		}
	}
	return lines
}

func joinComma(s []string) string { return strings.Join(s, ", ") }
