package render

import "github.com/dealerbot/dealerbot/engine"

// Stakes names the game a table deals with its betting structure, capitalized, as the first words of
// the table's stakes line: "No-limit" for Hold'em (as before games existed), "Pot-limit Omaha",
// "Pot-limit 5-card Omaha", "Fixed-limit Omaha hi-lo". mixed names Hold'em too, for a table that
// deals several games.
func Stakes(g engine.Game, v engine.Variant, mixed bool) string {
	s := capitalize(v.String())
	switch {
	case g == engine.Holdem && mixed:
		s += " hold'em"
	case g == engine.Omaha:
		s += " Omaha"
	case g == engine.Omaha5:
		s += " 5-card Omaha"
	case g == engine.OmahaHiLo:
		s += " Omaha hi-lo"
	}
	return s
}
