package render

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/dealerbot/dealerbot/engine"
)

// SeatView is one seat as the table summary shows it. Seat is the table's seat index, counted from 0
// as engine.Table counts it; it is shown counted from 1.
type SeatView struct {
	Seat       int
	Name       string
	Stack, Bet int64
	Folded     bool
	AllIn      bool
	SittingOut bool
	Button     bool
	ToAct      bool
}

// TableView is a table between or during hands. HandNo is 0 when no hand is running. PotNames are the
// names of the hand's players by hand index, for the players eligible for each pot.
type TableView struct {
	Title                      string
	Variant                    engine.Variant
	SmallBlind, BigBlind, Ante int64
	HandNo                     int64
	Seats                      []SeatView
	Board                      []engine.Card
	Pots                       []engine.Pot
	PotNames                   Names
	Board2                     []engine.Card // the second board of a hand run twice
	Notes                      []string      // a straddle, a bomb pot, what the next hand will be
	Tournament                 *TournamentView
}

// TournamentView is a tournament's progress: the level (from 1), the next level's blinds and how far
// off they are ("in 7 min", "from hand #12"; empty when blinds do not rise), players left and places paid.
type TournamentView struct {
	Level                int
	NextSmall, NextBig   int64
	NextAnte             int64
	NextIn               string
	Left, Entrants, Paid int
	Pool                 int64
}

// line is the tournament's progress under the stakes. It does not say "Tournament": the title
// above it does ("Tournament table", "Tournament · Hand #12").
func (v TournamentView) line() string {
	parts := []string{fmt.Sprintf("Level %d", v.Level)}
	if v.NextIn != "" {
		next := "next " + Chips(v.NextSmall) + "/" + Chips(v.NextBig)
		if v.NextAnte > 0 {
			next += " ante " + Chips(v.NextAnte)
		}
		parts = append(parts, next+" "+v.NextIn)
	}
	paid := "places paid"
	if v.Paid == 1 {
		paid = "place paid"
	}
	parts = append(parts, fmt.Sprintf("%d of %d left", v.Left, v.Entrants), fmt.Sprintf("%d %s", v.Paid, paid), "prize pool "+Chips(v.Pool))
	return strings.Join(parts, " · ")
}

// Table is a compact summary, one line per seat:
//
//	Friday game · hand #12
//	No-limit 5/10, ante 1
//	Board: 7♦ 5♥ 9♦ · pot 300
//	• 1. Alice 1,250 · button
//	▶ 2. Bob 980 · bet 20 · to act
func Table(v TableView, style CardStyle) Message {
	var lines []string
	head := strings.TrimSpace(v.Title)
	if head == "" {
		head = "Table"
	}
	if v.HandNo > 0 {
		head += fmt.Sprintf(" · hand #%d", v.HandNo)
	} else {
		head += " · between hands"
	}
	lines = append(lines, head)
	stakes := capitalize(v.Variant.String()) + " " + Chips(v.SmallBlind) + "/" + Chips(v.BigBlind)
	if v.Ante > 0 {
		stakes += ", ante " + Chips(v.Ante)
	}
	top := append(lines, stakes)
	top = append(top, v.extra()...)
	text := strings.Join(append(top, v.body(style, true)...), "\n")
	if Length(text) > MaxText && len(v.Pots) > 1 {
		// Ten long names in nine side pots do not fit: count the players of each pot instead, so
		// that every seat still shows.
		text = strings.Join(append(top, v.body(style, false)...), "\n")
	}
	return Message{Text: clip(text)}
}

// extra is the tournament's line and the notes, under the stakes.
func (v TableView) extra() []string {
	var lines []string
	if v.Tournament != nil {
		lines = append(lines, v.Tournament.line())
	}
	for _, n := range v.Notes {
		lines = append(lines, strings.Join(strings.Fields(n), " "))
	}
	return lines
}

// body is the board, the pots (with the names of who can win each, or their number) and the seats.
func (v TableView) body(style CardStyle, withNames bool) []string {
	lines := v.middle(style, withNames)
	for _, s := range v.Seats {
		lines = append(lines, seatLine(s))
	}
	return lines
}

// middle is the board and pots part of the summary. While a street is in play the pots are the
// chips collected from the streets before it (TableView.Pots), and the bets in front of the players
// are counted apart ("pot 60 + bets 800"): side pots appear when the street closes.
func (v TableView) middle(style CardStyle, withNames bool) []string {
	var lines []string
	var collected, bets int64
	for _, p := range v.Pots {
		collected += p.Amount // a hand's chips: at most engine.MaxChips
	}
	for _, s := range v.Seats {
		bets += s.Bet
	}
	if len(v.Board) > 0 || collected > 0 || bets > 0 {
		var parts []string
		if len(v.Board) > 0 {
			label := "Board: "
			if len(v.Board2) > 0 {
				label = "First board: "
			}
			parts = append(parts, label+Cards(v.Board, style))
		}
		var pot []string
		if len(v.Pots) == 1 && collected > 0 {
			pot = append(pot, "pot "+Chips(collected))
		}
		if bets > 0 {
			pot = append(pot, "bets "+Chips(bets))
		}
		if len(pot) > 0 {
			parts = append(parts, strings.Join(pot, " + "))
		}
		lines = append(lines, capitalize(strings.Join(parts, " · ")))
		if len(v.Board2) > 0 {
			lines = append(lines, "Second board: "+Cards(v.Board2, style))
		}
		if len(v.Pots) > 1 {
			lines = append(lines, potLines(v.Pots, v.PotNames, withNames)...)
		}
	}
	return lines
}

func seatLine(s SeatView) string {
	mark := "• "
	if s.ToAct {
		mark = "▶ "
	}
	line := mark + strconv.Itoa(s.Seat+1) + ". " + cleanName(s.Name, s.Seat) + " " + Chips(s.Stack)
	var tags []string
	if s.Bet > 0 {
		tags = append(tags, "bet "+Chips(s.Bet))
	}
	if s.Button {
		tags = append(tags, "button")
	}
	switch {
	case s.SittingOut:
		tags = append(tags, "sitting out")
	case s.Folded:
		tags = append(tags, "folded")
	case s.AllIn:
		tags = append(tags, "all-in")
	case s.Stack == 0:
		tags = append(tags, "no chips")
	}
	if s.ToAct {
		tags = append(tags, "to act")
	}
	if len(tags) > 0 {
		line += " · " + strings.Join(tags, " · ")
	}
	return line
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
