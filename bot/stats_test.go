package bot_test

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/dealerbot/dealerbot/bot"
	"github.com/dealerbot/dealerbot/bot/stats"
	"github.com/dealerbot/dealerbot/bot/table"
)

// shove plays the hand in ch to its end with every player going all-in or calling.
func (r *rig) shove(ch string, users ...string) {
	r.tb.Helper()
	for i := 0; i < 50; i++ {
		if _, open, err := r.db.Table(context.Background(), "test/w/"+ch); err != nil || !open {
			return // the hand ended a tournament
		}
		if _, inHand := r.seatStacks(ch); !inHand {
			return
		}
		for _, u := range users {
			r.cmd(ch, u, "allin")
			r.cmd(ch, u, "call")
		}
	}
	r.tb.Fatal("the hand did not end")
}

func (r *rig) hands(ch string) []table.HandRecord {
	r.tb.Helper()
	hs, err := r.db.Hands(context.Background(), "test/w/"+ch, 1000)
	if err != nil {
		r.tb.Fatal(err)
	}
	return hs
}

func signedChips(n int64) string {
	s := fmt.Sprint(n)
	if n < 0 {
		s = s[1:]
	}
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	switch {
	case n > 0:
		return "+" + b.String()
	case n < 0:
		return "-" + b.String()
	}
	return b.String()
}

// TestStatsCashAndTournament: ann and ben play three cash hands (the third all-in) in one channel
// and a heads-up tournament in another. `stats` gives each its own line: the cash games in chips
// won and bb/100 with their all-in adjusted result, the tournament by place, buy-in, prize, ITM and
// ROI in bankroll chips; the tournament's chips (stacks of 1,500) never reach the net. Every figure
// is worked out here from the stored hands and the tournament's session.
func TestStatsCashAndTournament(t *testing.T) {
	r := newRig(t, bot.Config{})
	r.must("c1", "ann", "start timer=off")
	r.must("c1", "ann", "join 1000")
	r.must("c1", "ben", "join 1000")
	for i := 0; i < 2; i++ {
		r.must("c1", "ann", "deal")
		r.playOut("c1", "ann", "ben")
	}
	r.must("c1", "ann", "deal")
	r.shove("c1", "ann", "ben")
	r.must("c1", "ann", "end")

	r.must("c2", "ann", "start tournament buyin=500 stack=1500 timer=off")
	r.must("c2", "ann", "join")
	r.must("c2", "ben", "join")
	// All-in every hand until one of them holds every chip: the tournament and its session end.
	for i := 0; ; i++ {
		if i == 20 {
			t.Fatal("the tournament did not end")
		}
		if _, open, err := r.db.Table(context.Background(), "test/w/c2"); err != nil || !open {
			break
		}
		r.must("c2", "ann", "deal")
		r.shove("c2", "ann", "ben")
	}

	// The cash figures, from the stored hands.
	cash := r.hands("c1")
	if len(cash) != 3 {
		t.Fatalf("%d cash hands kept, want 3", len(cash))
	}
	net := map[string]int64{}
	luck := map[string]float64{}
	for _, h := range cash {
		for p, u := range h.Users {
			net[u] += h.Final[p] - h.Stacks[p]
		}
		w, err := stats.Walk(h.Setup(), h.Actions)
		if err != nil {
			t.Fatal(err)
		}
		if w.RunOut {
			ev, err := stats.Expected(h.Setup(), h.Actions, w)
			if err != nil {
				t.Fatal(err)
			}
			for p, u := range h.Users {
				luck[u] += float64(h.Final[p]-h.Stacks[p]) - ev[p]
			}
		}
	}
	if net["ann"]+net["ben"] != 0 {
		t.Fatalf("cash nets %v do not add up to 0", net)
	}
	tourney := r.hands("c2")
	// The tournament's results, from its session.
	sessions, err := r.db.Sessions(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var finishes []table.TournamentFinish
	for _, s := range sessions {
		if s.Table == "test/w/c2" {
			finishes = s.Tournament
		}
	}
	if len(finishes) != 2 {
		t.Fatalf("the tournament's session keeps %d results, want 2: %+v", len(finishes), finishes)
	}
	for _, f := range finishes {
		if f.Paid != 500 || f.Place == 1 && f.Prize != 1000 || f.Place == 2 && f.Prize != 0 || f.Place != 1 && f.Place != 2 {
			t.Fatalf("tournament results %+v, want 1st with 1,000 and 2nd with nothing for 500 each", finishes)
		}
	}
	// The chart has the all-in adjusted lines: the cash session ran a board out after an all-in.
	if rep := r.must("c1", "ann", "stats chart all ann ben"); !strings.Contains(rep.Text, "Cumulative results over 2 sessions (all time). Dashed: all-in adjusted") ||
		len(rep.Files) != 1 {
		t.Errorf("stats chart: %s", rep.Text)
	}
	for _, f := range finishes {
		u := f.User
		rep := r.must("c1", "ben", "stats "+u)
		adjusted := float64(net[u]) - luck[u]
		ordinal, itm, pctITM, roi := "2nd", 0, "0%", "-100%"
		if f.Place == 1 {
			ordinal, itm, pctITM, roi = "1st", 1, "100%", "+100%"
		}
		want := []string{
			fmt.Sprintf("Stats of %s · all time (2 sessions)", u),
			fmt.Sprintf("Cash games: 3 hands · net %s chips · %.1f bb/100", signedChips(net[u]), 100*float64(net[u])/10/3),
			fmt.Sprintf("All-in adjusted: net %s chips · %.1f bb/100 (luck %s chips in 1 all-in run out)",
				signedChips(int64(math.Round(adjusted))), 100*adjusted/10/3, signedChips(int64(math.Round(luck[u])))),
			fmt.Sprintf("Tournaments: 1 played · finish %s · in the money %d (%s) · buy-ins 500 · prizes %s · net %s chips · ROI %s (%d %s)",
				ordinal, itm, pctITM, strings.TrimPrefix(signedChips(f.Prize), "+"), signedChips(f.Prize-500), roi, len(tourney), table.Plural(len(tourney), "hand", "hands")),
			fmt.Sprintf("(VPIP to AF over all %d hands)", 3+len(tourney)),
		}
		for _, w := range want {
			if !strings.Contains(rep.Text, w) {
				t.Errorf("stats %s do not say %q:\n%s", u, w, rep.Text)
			}
		}
		// The tournament alone: no cash line, and its chips nowhere.
		rep = r.must("c2", u, "stats session")
		if strings.Contains(rep.Text, "Cash games") || strings.Contains(rep.Text, "1,500") || strings.Contains(rep.Text, "3,000") ||
			!strings.Contains(rep.Text, "Tournaments: 1 played · finish "+ordinal) || !strings.Contains(rep.Text, "the last session (1 session)") {
			t.Errorf("%s's stats of the tournament:\n%s", u, rep.Text)
		}
	}
}

// TestStatsEmptySessionsNotCounted: a start and end with no hand between is no session: `stats
// session` and `export session` are the last session that dealt hands, and `stats` and the chart
// count only sessions that dealt hands.
func TestStatsEmptySessionsNotCounted(t *testing.T) {
	r := newRig(t, bot.Config{})
	r.must("c1", "ann", "start timer=off")
	r.must("c1", "ann", "join 1000")
	r.must("c1", "ben", "join 1000")
	for i := 0; i < 2; i++ {
		r.must("c1", "ann", "deal")
		r.playOut("c1", "ann", "ben")
	}
	r.must("c1", "ann", "end")
	for i := 0; i < 2; i++ {
		r.advance(time.Hour)
		r.must("c1", "ann", "start timer=off")
		r.must("c1", "ann", "join 1000")
		r.must("c1", "ann", "end")
	}
	for _, tt := range []struct{ text, want string }{
		{"stats session", "Stats of ann · the last session (1 session)\nCash games: 2 hands"},
		{"stats", "Stats of ann · all time (1 session)\nCash games: 2 hands"},
		{"stats chart all", "Cumulative results over 1 session (all time)"},
		{"stats chart session", "Cumulative results over 1 session (the last session)"},
	} {
		if rep := r.must("c1", "ann", tt.text); !strings.HasPrefix(rep.Text, tt.want) {
			t.Errorf("%s:\n%s\nwant it to begin %q", tt.text, rep.Text, tt.want)
		}
	}
	if rep := r.must("c1", "ann", "export session"); strings.Count(string(rep.Files[0].Data), "PokerStars Hand #") != 2 {
		t.Errorf("export session after empty sessions holds %d hands, want the 2 of the last session that dealt",
			strings.Count(string(rep.Files[0].Data), "PokerStars Hand #"))
	}
	// An open table that has dealt nothing yet is no session either.
	r.must("c1", "ann", "start timer=off")
	r.must("c1", "ann", "join 1000")
	if rep := r.must("c1", "ann", "stats session"); !strings.HasPrefix(rep.Text, "Stats of ann · the last session (1 session)") {
		t.Errorf("stats session at a table that has dealt nothing:\n%s", rep.Text)
	}
	// A channel whose only sessions were empty has none.
	r.must("c2", "ann", "start timer=off")
	r.must("c2", "ann", "end")
	r.refused("c2", "ann", "stats session", "This channel has had no session with a hand yet")
	r.refused("c2", "ann", "export session", "This channel has had no session with a hand yet")
}
