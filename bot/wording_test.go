package bot_test

import (
	"context"
	"strings"
	"testing"

	"github.com/dealerbot/dealerbot/bot"
	"github.com/dealerbot/dealerbot/bot/features"
)

// TestRefusalsQuoteAFewDozenCharacters: a refusal names what was typed, but repeats at most a few
// dozen characters of it, however long the typed word (a refused `schedule add` once echoed 1,900).
func TestRefusalsQuoteAFewDozenCharacters(t *testing.T) {
	r := newRig(t, bot.Config{})
	s, err := features.NewScheduler(r.d, r.db, features.ScheduleConfig{DefaultZone: "UTC"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close(context.Background()) })
	r.must("c1", "admin", "start")
	r.must("c1", "alice", "join")
	r.must("c1", "bob", "join")
	long := strings.Repeat("x", 1900)
	for _, text := range []string{
		"schedule add weekly fri 20:00 variant=" + long,
		"schedule add weekly fri 20:00 " + long + "=1 " + long + "=2",
		"schedule add weekly fri 20:00 blinds=5/10 " + long,
		"schedule add weekly " + long + " 20:00",
		"schedule add weekly fri " + long,
		"schedule add weekly fri " + long + " 20:00",
		"schedule add on " + long + " 20:00",
		"schedule add " + long,
		"schedule add 0 20 * * " + long,
		"schedule add weekly fri 20:00 tz=" + long,
		"schedule add weekly fri 20:00 from=" + long,
		"schedule " + long,
		"rsvp " + long,
		"start variant=" + long,
		"set variant=" + long,
		"adjust alice " + long,
		"adjust " + long + " 5",
		"raise " + long,
		"bet to " + long,
		"runtwice " + long,
		"kick " + long,
		"verify " + long,
		"export " + long,
		"leaderboard season " + long,
		"schedule remove " + long,
		"schedule skip " + long,
		long,
	} {
		rep := r.cmd("c1", "admin", text)
		if !rep.IsError {
			t.Errorf("%.40s…: not refused: %.100q", text, rep.Text)
			continue
		}
		if strings.Contains(rep.Text, strings.Repeat("x", 50)) {
			t.Errorf("%.40s…: the refusal repeats more than a few dozen characters of it: %.200q", text, rep.Text)
		}
	}
}
