package bot_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/dealerbot/dealerbot/bot"
	"github.com/dealerbot/dealerbot/bot/errs"
	"github.com/dealerbot/dealerbot/bot/features"
)

// schedRig is a rig with a scheduler beside its dealer, so that the schedule verbs run.
func schedRig(t *testing.T) *rig {
	t.Helper()
	r := newRig(t, bot.Config{})
	s, err := features.NewScheduler(r.d, r.db, features.ScheduleConfig{DefaultZone: "Europe/Berlin"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close(context.Background()) }) // runs before the rig closes the dealer
	return r
}

// TestVerbTableGate walks the command table: every verb (each alias and each verb of two words) has
// a need, and the gate refuses a user who lacks it (not an admin, not seated, not the host, not the
// host of the channel's table or of the named schedule, no table at all) with the need's sentence,
// before the verb runs and without changing anything stored.
func TestVerbTableGate(t *testing.T) {
	r := schedRig(t)
	r.must("c1", "hana", "start timer=off") // hana hosts c1's table
	r.must("c1", "pat", "join")             // pat plays there; wes only watches
	r.must("c1", "admin1", "schedule add weekly fri 20:00")
	// c2 has no table. Each need: who lacks it, where, what follows the verb, and the sentence.
	refusals := map[string]struct{ user, ch, args, want string }{
		"admin":        {"wes", "c1", "", "Only a server or workspace admin can "},
		"channel host": {"pat", "c1", "", "Only an admin or the host of this channel's table can "},
		"owner":        {"pat", "c1", " 1", "Only admin1, who hosts schedule 1, or an admin can "},
		"open":         {"wes", "c2", "", "There is no game in this channel yet: type `start` to open a table."},
		"seat":         {"wes", "c1", "", "You are not seated at this table: "},
		"seat or host": {"wes", "c1", "", "Only players at this table can "},
		"host":         {"pat", "c1", "", "Only the host (hana) or an admin can "},
	}
	verbs := bot.Verbs(r.d)
	for _, want := range []string{"schedule add", "schedules rm", "schedule cancel", "rsvp", "leaderboard season", "deal", "adjust", "paid"} {
		if _, ok := verbs[want]; !ok {
			t.Errorf("the command table has no %q", want)
		}
	}
	var tested []string
	for name, v := range verbs {
		switch v.Need {
		case "":
			t.Errorf("%s: no need (or one the test does not name)", name)
			continue
		case "anyone", "table":
			continue // nobody lacks it
		}
		ref, ok := refusals[v.Need]
		if !ok {
			t.Errorf("%s: need %q has no refusal in this test", name, v.Need)
			continue
		}
		if v.Need != "open" && v.Refusal == "" {
			t.Errorf("%s: need %q without the refusal that completes its sentence", name, v.Need)
		}
		r.refused(ref.ch, ref.user, name+ref.args, ref.want+v.Refusal)
		tested = append(tested, v.Need)
	}
	for need := range refusals {
		if !slices.Contains(tested, need) {
			t.Errorf("no verb of need %q was refused", need)
		}
	}
	if err := bot.GateWithoutNeed(); err == nil || errs.CodeOf(err) != errs.Internal {
		t.Errorf("the gate let a verb without a need through: %v", err)
	}
}

// TestEveryVerbHasHelp: `help VERB` explains every verb of the command table (the first word of a
// verb of two words), so that no verb is added without its line of help.
func TestEveryVerbHasHelp(t *testing.T) {
	r := schedRig(t)
	for name := range bot.Verbs(r.d) {
		word, _, _ := strings.Cut(name, " ")
		rep := r.cmd("c1", "ann", "help "+word)
		if rep.IsError || !strings.Contains(rep.Text, strings.ReplaceAll(word, "all-in", "allin")) {
			t.Errorf("help %s: %q, want what %s does", word, rep.Text, name)
		}
	}
}

// TestScheduleVerbs: every alias of the schedule commands reaches its verb; an admin or the host of
// the channel's table adds a schedule; only its host or an admin removes or skips it; each refusal
// is a sentence and changes no schedule.
func TestScheduleVerbs(t *testing.T) {
	r := schedRig(t)
	r.must("c1", "hana", "start timer=off")
	r.must("c1", "pat", "join")
	if rep := r.must("c1", "hana", "schedule new weekly fri 20:00"); !strings.Contains(rep.Text, "Schedule 1 added") {
		t.Fatalf("the table's host adds: %q", rep.Text)
	}
	r.must("c1", "admin1", "schedules add weekly sat 20:00")
	for _, list := range []string{"schedule list", "schedule ls", "schedules list", "Schedule LS"} {
		if rep := r.must("c1", "pat", list); !strings.Contains(rep.Text, "1. weekly fri 20:00") || !strings.Contains(rep.Text, "2. weekly sat 20:00") {
			t.Errorf("%s = %q", list, rep.Text)
		}
	}
	for _, tc := range []struct{ user, ch, text, want string }{
		{"pat", "c1", "schedule add weekly fri 21:00", "Only an admin or the host of this channel's table can add a schedule: ask one of them to run `schedule add`."},
		{"hana", "c2", "schedule add weekly fri 21:00", "Only an admin or the host of this channel's table can add a schedule"},
		{"pat", "c1", "schedule remove 1", "Only hana, who hosts schedule 1, or an admin can remove it."},
		{"hana", "c1", "schedule rm 2", "Only admin1, who hosts schedule 2, or an admin can remove it."},
		{"pat", "c1", "schedules delete 1", "Only hana, who hosts schedule 1, or an admin can remove it."},
		{"pat", "c1", "schedule cancel #1", "Only hana, who hosts schedule 1, or an admin can remove it."},
		{"pat", "c1", "schedule skip 1", "Only hana, who hosts schedule 1, or an admin can skip it."},
		{"pat", "c1", "schedule remove 9", "There is no schedule 9 here: `schedule list` shows the schedules and their IDs."},
		{"admin1", "c1", "schedule remove", "Name one schedule: `schedule remove ID`"},
		{"admin1", "c1", "schedule skip 1 2", "Name one schedule: `schedule skip ID`"},
		{"admin1", "c1", "schedule move 1", "I do not know `schedule move`. Schedule commands:"},
		{"pat", "c1", "rsvp perhaps", "`perhaps` is not an answer"},
	} {
		r.refused(tc.ch, tc.user, tc.text, tc.want)
	}
	if rep := r.must("c1", "pat", "schedule"); !strings.HasPrefix(rep.Text, "Schedule commands:") {
		t.Errorf("schedule alone = %q, want the usage", rep.Text)
	}
	for _, answer := range []string{"yes", "y", "going", "maybe", "m", "no", "n", "not"} {
		r.must("c1", "pat", "rsvp "+answer)
	}
	if rep := r.must("c1", "hana", "schedule skip 1"); !strings.Contains(rep.Text, "is skipped") {
		t.Errorf("the schedule's host skips: %q", rep.Text)
	}
	if rep := r.must("c1", "hana", "schedule delete 1"); !strings.Contains(rep.Text, "Schedule 1 (weekly fri 20:00) is removed") {
		t.Errorf("the schedule's host removes: %q", rep.Text)
	}
	if rep := r.must("c1", "admin2", "schedules cancel 2"); !strings.Contains(rep.Text, "Schedule 2 (weekly sat 20:00) is removed") {
		t.Errorf("an admin removes another's schedule: %q", rep.Text)
	}
}
