package render

import (
	"fmt"
	"sort"
	"strings"
)

// Standing is one player's result for a session: net = CashedOut - BoughtIn. A player still seated
// counts their current stack as cashed out.
type Standing struct {
	Name                string
	BoughtIn, CashedOut int64
}

// Standings lists players by net result, best first (ties by name):
//
//	Friday game — results
//	1. Alice +350 (in 1,000, out 1,350)
//	2. Bob -200 (in 1,000, out 800)
func Standings(title string, rows []Standing) Message {
	rs := append([]Standing(nil), rows...)
	sort.SliceStable(rs, func(i, j int) bool {
		ni, nj := rs[i].CashedOut-rs[i].BoughtIn, rs[j].CashedOut-rs[j].BoughtIn
		if ni != nj {
			return ni > nj
		}
		return rs[i].Name < rs[j].Name
	})
	lines := []string{headline(title, "Standings")}
	if len(rs) == 0 {
		lines = append(lines, "Nobody has bought in yet.")
	}
	for i, r := range rs {
		lines = append(lines, fmt.Sprintf("%d. %s %s (in %s, out %s)", i+1, cleanName(r.Name, i),
			signed(r.CashedOut-r.BoughtIn), Chips(r.BoughtIn), Chips(r.CashedOut)))
	}
	return Message{Text: clip(strings.Join(lines, "\n"))}
}

// LeaderRow is one player on a leaderboard: chips now, net result and hands played.
type LeaderRow struct {
	Name  string
	Chips int64
	Net   int64
	Hands int
}

// Leaderboard lists players by net result, best first (ties by chips, then name):
//
//	Leaderboard
//	1. Alice +1,350 · 2,350 chips · 120 hands
func Leaderboard(title string, rows []LeaderRow) Message {
	rs := append([]LeaderRow(nil), rows...)
	sort.SliceStable(rs, func(i, j int) bool {
		if rs[i].Net != rs[j].Net {
			return rs[i].Net > rs[j].Net
		}
		if rs[i].Chips != rs[j].Chips {
			return rs[i].Chips > rs[j].Chips
		}
		return rs[i].Name < rs[j].Name
	})
	lines := []string{headline(title, "Leaderboard")}
	if len(rs) == 0 {
		lines = append(lines, "No hands played yet.")
	}
	for i, r := range rs {
		hands := "hands"
		if r.Hands == 1 {
			hands = "hand"
		}
		lines = append(lines, fmt.Sprintf("%d. %s %s · %s chips · %d %s", i+1, cleanName(r.Name, i),
			signed(r.Net), Chips(r.Chips), r.Hands, hands))
	}
	return Message{Text: clip(strings.Join(lines, "\n"))}
}

func headline(title, fallback string) string {
	t := strings.Join(strings.Fields(title), " ")
	if t == "" {
		return fallback
	}
	return t
}

// Place is one tournament entrant's result: finishing place (0 when the tournament never began),
// what they paid in (buy-in and rebuys) and their prize.
type Place struct {
	Place       int
	Name        string
	Paid, Prize int64
}

// TournamentResult lists a tournament's finishing places and prizes, first place first:
//
//	Tournament over — results · prize pool 400
//	1. Alice wins 300 (+200)
//	2. Bob wins 100 (0)
//	3. Carol (-100)
func TournamentResult(title string, pool int64, rows []Place) Message {
	rs := append([]Place(nil), rows...)
	sort.SliceStable(rs, func(i, j int) bool {
		if rs[i].Place != rs[j].Place {
			return rs[i].Place < rs[j].Place
		}
		return rs[i].Name < rs[j].Name
	})
	lines := []string{headline(title, "Tournament") + " · prize pool " + Chips(pool)}
	for i, r := range rs {
		line := cleanName(r.Name, i)
		if r.Place > 0 {
			line = fmt.Sprintf("%d. %s", r.Place, line)
		} else {
			line = "• " + line
		}
		if r.Prize > 0 {
			line += " wins " + Chips(r.Prize)
		}
		lines = append(lines, line+" ("+signed(r.Prize-r.Paid)+")")
	}
	return Message{Text: clip(strings.Join(lines, "\n"))}
}
