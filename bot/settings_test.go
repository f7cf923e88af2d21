package bot_test

import (
	"context"
	"testing"

	"github.com/dealerbot/dealerbot/bot"
	"github.com/dealerbot/dealerbot/bot/features"
)

// TestAdminMatters: the verbs an admin's rights can decide, from the one verb table: admin verbs,
// host verbs (an admin stands in for the host), deal (players and the host), debts (an admin sees
// all), and the scheduler's that are the channel host's or a schedule's host's; not those anyone runs.
func TestAdminMatters(t *testing.T) {
	r := newRig(t, bot.Config{})
	s, err := features.NewScheduler(r.d, r.db, features.ScheduleConfig{DefaultZone: "UTC"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close(context.Background()) })
	for text, want := range map[string]bool{"adjust bob 100": true, "kick @bob": true, "set blinds=10/20": true, "END": true, "bombpot": true,
		"deal": true, "schedule add weekly fri 20:00": true, "schedules rm 1": true, "schedule skip 1": true, "debts": true,
		"schedule list": false, "rsvp yes": false, "leaderboard season": false, "call": false, "join 1000": false, "start": false, "chips": false, "": false, "dance": false} {
		if got := r.d.AdminMatters(text); got != want {
			t.Errorf("AdminMatters(%q) = %v, want %v", text, got, want)
		}
	}
}
