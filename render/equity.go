package render

import (
	"fmt"
	"strings"

	"github.com/dealerbot/dealerbot/engine"
)

// EquityView is the hands turned up in an all-in and their chances; Results[i] belongs to Hands[i].
type EquityView struct {
	Names   Names
	Hands   []engine.Revealed
	Board   []engine.Card
	Results []engine.EquityResult
	// Sampled is set when the chances come from a sample of the boards (Omaha's many runouts), not
	// from every board: each figure is then written "~41.20%".
	Sampled bool
	// Shares is set for a hi-lo game, where the figure is the hand's expected share of the pot.
	Shares bool
}

// Equity writes each hand's chance to win outright and the chance of a tie:
//
//	Chances to win on 7♦ 5♥ 9♦: Alice A♠ A♥ 81.95% · Bob K♠ K♦ 17.85% (tie 0.46%)
//
// The tie figure is written once when it is the same for every hand (always so heads-up), else after
// each hand that can tie. Without counts (Wins+Ties+Losses = 0) the share of the pot is shown.
func Equity(v EquityView, style CardStyle) Message {
	n := min(len(v.Hands), len(v.Results))
	ties := make([]float64, n)
	sameTie := true
	for i := 0; i < n; i++ {
		r := v.Results[i]
		if total := r.Wins + r.Ties + r.Losses; total > 0 {
			ties[i] = float64(r.Ties) / float64(total)
		}
		sameTie = sameTie && ties[i] == ties[0]
	}
	parts := make([]string, n)
	for i := 0; i < n; i++ {
		h, r := v.Hands[i], v.Results[i]
		win := r.Share
		if total := r.Wins + r.Ties + r.Losses; total > 0 {
			win = float64(r.Wins) / float64(total)
		}
		if v.Shares {
			win = r.Share
		}
		hole := h.Hole // every hole card; a Revealed made without them has its first two
		if len(hole) == 0 {
			hole = h.Cards[:]
		}
		parts[i] = fmt.Sprintf("%s %s %s", v.Names.Name(h.Player), Cards(hole, style), about(v.Sampled)+percent(win))
		if !v.Shares && !sameTie && ties[i] > 0 {
			parts[i] += " (tie " + about(v.Sampled) + percent(ties[i]) + ")"
		}
	}
	text := strings.Join(parts, " · ")
	if !v.Shares && sameTie && n > 0 && ties[0] > 0 {
		text += " (tie " + about(v.Sampled) + percent(ties[0]) + ")"
	}
	head := "Chances to win"
	if v.Shares {
		head = "Expected shares of the pot, high and low"
	}
	if len(v.Board) > 0 {
		head += " on " + Cards(v.Board, style)
	}
	head += ": "
	return Message{Text: clip(head + text)}
}

// about marks a sampled figure: "~".
func about(sampled bool) string {
	if sampled {
		return "~"
	}
	return ""
}

func percent(f float64) string { return fmt.Sprintf("%.2f%%", 100*f) }
