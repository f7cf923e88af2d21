package schedule

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/dealerbot/dealerbot/bot/money"

	"github.com/dealerbot/dealerbot/render"
)

// What the scheduler says: dates, durations, the season leaderboard, the results and settle-up, the
// RSVP buttons and mentions.

const dateLayout = "Mon 2 Jan 2006 15:04 MST"

func fmtGame(t time.Time) string { return t.Format(dateLayout) }

func fmtDuration(d time.Duration) string {
	switch {
	case d == 0:
		return "0 min"
	case d%time.Hour == 0:
		return fmt.Sprintf("%d h", d/time.Hour)
	case d > time.Hour:
		return fmt.Sprintf("%d h %d min", d/time.Hour, d%time.Hour/time.Minute)
	}
	return fmt.Sprintf("%d min", d/time.Minute)
}

// scheduleNames lists schedules as "a1 (weekly fri 20:00), b2 (...)".
func scheduleNames(ss []*Schedule) string {
	var parts []string
	for _, s := range ss {
		parts = append(parts, fmt.Sprintf("%s, %s", s.ID, s.When))
	}
	return strings.Join(parts, "; ")
}

// SeasonMessage is the season leaderboard of a schedule.
func SeasonMessage(s *Schedule, results []Result) string {
	return seasonText(fmt.Sprintf("Season of schedule %s (%s)", s.ID, s.When), results)
}

// seasonText is a season leaderboard under title, over results of one or more schedules.
func seasonText(title string, results []Result) string {
	lines := []string{fmt.Sprintf("%s: %d %s", title, len(results), plural(len(results), "game", "games"))}
	st := Season(results)
	if len(st) == 0 {
		lines = append(lines, "No results yet: the first game will start the season.")
	}
	for i, p := range st {
		lines = append(lines, fmt.Sprintf("%d. %s %s · %d %s · best %s · %d %s won", i+1, p.Name, signed(p.Net),
			p.Games, plural(p.Games, "game", "games"), signed(p.Best), p.Wins, plural(p.Wins, "night", "nights")))
	}
	return strings.Join(lines, "\n")
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func signed(n int64) string {
	if n > 0 {
		return "+" + render.Chips(n)
	}
	return render.Chips(n)
}

// rsvpButtons are the announcement's buttons; the token is the schedule ID.
func rsvpButtons(id string) []render.Button {
	return []render.Button{
		{Label: "Going", Command: "rsvp yes", Token: id, Style: render.Success},
		{Label: "Maybe", Command: "rsvp maybe", Token: id, Style: render.Secondary},
		{Label: "Not going", Command: "rsvp no", Token: id, Style: render.Danger},
	}
}

// answers groups a game's RSVPs by answer, in the order they came.
func answers(rs []RSVP) map[Answer][]RSVP {
	out := map[Answer][]RSVP{}
	for _, r := range rs {
		out[r.Answer] = append(out[r.Answer], r)
	}
	return out
}

func (m *Manager) mentions(s *Schedule, rs []RSVP) string {
	var ms []string
	for _, r := range rs {
		ms = append(ms, m.mention(s.Platform, r.User, r.Name))
	}
	return strings.Join(ms, ", ")
}

// ResultMessage is the night's results and the settle-up list.
func ResultMessage(r Result, loc *time.Location) string {
	ps := slices.Clone(r.Players)
	slices.SortStableFunc(ps, func(a, b Balance) int {
		if a.Net != b.Net {
			if a.Net > b.Net {
				return -1
			}
			return 1
		}
		return strings.Compare(a.Name, b.Name)
	})
	lines := []string{fmt.Sprintf("Results of the %s game:", fmtGame(r.Game.In(loc)))}
	for i, p := range ps {
		lines = append(lines, fmt.Sprintf("%d. %s %s", i+1, p.Name, signed(p.Net)))
	}
	if r.Money {
		// The dealer posted the settle-up in money when the session ended, with its debts.
		lines = append(lines, "Settle-up: posted in money when the session ended; `debts` lists what is still open.")
		return strings.Join(lines, "\n")
	}
	pay, err := money.SettleUp(r.Players)
	if err != nil {
		lines = append(lines, "Settle-up: "+err.Error()+".")
	} else {
		lines = append(lines, SettleMessage(pay))
	}
	return strings.Join(lines, "\n")
}

func names(rs []RSVP) string {
	var ns []string
	for _, r := range rs {
		ns = append(ns, r.Name)
	}
	return strings.Join(ns, ", ")
}

// untilText says how far away a game is: "in 24 hours", "in 30 minutes", "now".
func untilText(d time.Duration) string {
	d = d.Round(time.Minute)
	switch {
	case d <= 0:
		return "now"
	case d >= 2*time.Hour:
		return fmt.Sprintf("in %d hours", int(d.Round(time.Hour)/time.Hour))
	case d >= time.Hour:
		return "in " + fmtDuration(d)
	case d == time.Minute:
		return "in 1 minute"
	}
	return fmt.Sprintf("in %d minutes", int(d/time.Minute))
}
