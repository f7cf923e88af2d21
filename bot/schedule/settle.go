package schedule

import (
	"cmp"
	"slices"
	"strings"

	"github.com/dealerbot/dealerbot/bot/money"
)

// SettleMessage is the settle-up list for a channel.
func SettleMessage(ps []money.Payment) string {
	if len(ps) == 0 {
		return "Settle-up: everyone is square, nobody pays anyone."
	}
	lines := []string{"Settle-up:"}
	for _, p := range ps {
		lines = append(lines, "• "+p.String())
	}
	return strings.Join(lines, "\n")
}

// Standing is a player's season: games played, net over them, best night and nights won.
type Standing struct {
	User  string
	Name  string
	Games int
	Net   int64
	Best  int64
	Wins  int // nights with the biggest result of the night
}

// Season adds up a schedule's results into standings, best net first (then more wins, fewer games,
// name).
func Season(results []Result) []Standing {
	idx := map[string]int{}
	var out []Standing
	for _, r := range results {
		var top int64
		for _, p := range r.Players {
			top = max(top, p.Net)
		}
		for _, p := range r.Players {
			i, ok := idx[p.User]
			if !ok {
				i = len(out)
				idx[p.User] = i
				out = append(out, Standing{User: p.User, Name: p.Name, Best: p.Net})
			}
			s := &out[i]
			if p.Name != "" {
				s.Name = p.Name
			}
			s.Games++
			s.Net += p.Net
			s.Best = max(s.Best, p.Net)
			if top > 0 && p.Net == top {
				s.Wins++
			}
		}
	}
	slices.SortStableFunc(out, func(a, b Standing) int {
		if c := cmp.Compare(b.Net, a.Net); c != 0 {
			return c
		}
		if c := cmp.Compare(b.Wins, a.Wins); c != 0 {
			return c
		}
		if c := cmp.Compare(a.Games, b.Games); c != 0 {
			return c
		}
		return strings.Compare(a.Name, b.Name)
	})
	return out
}
