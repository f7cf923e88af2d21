package bot

import (
	"fmt"
	"strings"

	"github.com/dealerbot/dealerbot/engine"
	"github.com/dealerbot/dealerbot/render"
)

// maxEquityBoards bounds the exact enumeration: beyond it (an all-in before the flop) the channel is
// told the odds are skipped rather than made to wait.
const maxEquityBoards = 2000

// equityMessage tells the channel each turned-up hand's exact chance to win the whole pot, by
// enumerating every way the board can finish. (A stand-in until engine.Equity and render.Equity land.)
func equityMessage(ev engine.Event, names render.Names, style render.CardStyle) (render.Message, bool) {
	if len(ev.Hands) < 2 {
		return render.Message{}, false
	}
	var used [52]bool
	for _, c := range ev.Board {
		used[c] = true
	}
	for _, h := range ev.Hands {
		used[h.Cards[0]], used[h.Cards[1]] = true, true
	}
	var rest []engine.Card
	for c := engine.Card(0); c < 52; c++ {
		if !used[c] {
			rest = append(rest, c)
		}
	}
	need := 5 - len(ev.Board)
	boards := 1
	for i := 0; i < need; i++ {
		boards = boards * (len(rest) - i) / (i + 1)
	}
	if boards > maxEquityBoards {
		return render.Message{}, false
	}
	share := make([]float64, len(ev.Hands))
	total := 0
	board := append([]engine.Card(nil), ev.Board...)
	cards := make([]engine.Card, 7)
	var walk func(from, left int)
	walk = func(from, left int) {
		if left == 0 {
			total++
			best := engine.HandRank(0)
			var winners []int
			for i, h := range ev.Hands {
				cards = append(cards[:0], h.Cards[0], h.Cards[1])
				cards = append(cards, board...)
				r := engine.Evaluate(cards...)
				switch {
				case len(winners) == 0 || r > best:
					best, winners = r, []int{i}
				case r == best:
					winners = append(winners, i)
				}
			}
			for _, w := range winners {
				share[w] += 1 / float64(len(winners))
			}
			return
		}
		for i := from; i <= len(rest)-left; i++ {
			board = append(board, rest[i])
			walk(i+1, left-1)
			board = board[:len(board)-1]
		}
	}
	walk(0, need)
	var b strings.Builder
	b.WriteString("Chances to win:")
	for i, h := range ev.Hands {
		fmt.Fprintf(&b, " %s %s %.1f%%", names.Name(h.Player), render.Cards(h.Cards[:], style), 100*share[i]/float64(total))
		if i < len(ev.Hands)-1 {
			b.WriteString(",")
		}
	}
	return render.Message{Text: b.String()}, true
}
