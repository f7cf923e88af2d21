package render

import "github.com/dealerbot/dealerbot/engine"

// Showdown is what the showdown picture of a hand shows: the board (and the second board of a hand
// run twice), the hands shown, and one line per pot ("Main pot 1,200: Alice"), with cards in the
// table's colouring. It is only the description; package render/picture draws it.
type Showdown struct {
	Title   string // "Hand #12"
	Board   []engine.Card
	Board2  []engine.Card
	Hands   []Shown
	Pots    []string
	Colours Colours
}

// Shown is one hand shown at a showdown: the player's name, their cards, what they make ("Two pair,
// kings and sevens"; empty when not known) and what they won (0 for nothing).
type Shown struct {
	Name  string
	Cards []engine.Card
	Label string
	Won   int64
}
