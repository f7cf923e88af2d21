package console_test

import (
	"context"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/dealerbot/dealerbot/adapters/console"
	"github.com/dealerbot/dealerbot/bot/features"
)

// A weekly game scheduled and played at the console, as `go run ./cmd/dealerbot` wires it: the
// scheduler in front of the dealer, lines through console.Run, time from an injected clock. The
// announcement's RSVP buttons are clicked by typing their #token; the reminder names who said yes;
// the table opens at the start time, a hand is played, and at the end the results and settle-up are
// posted. The schedule and the RSVP survive a restart in between.
func TestScheduledGameAtTheConsole(t *testing.T) {
	g := newGame(t)
	ctx := context.Background()
	var s *features.Scheduler
	open := func() {
		var err error
		s, err = features.NewScheduler(g.d, g.db, features.ScheduleConfig{DefaultZone: "Europe/London"})
		if err != nil {
			t.Fatal(err)
		}
	}
	open()
	run, tick := g.consoleLines(ctx, func() *features.Scheduler { return s })

	// The clock stands at Fri 20 Nov 2026 20:00 UTC; the next Friday game is on the 27th.
	out := run("bob: schedule add weekly fri 20:00")
	if !strings.Contains(out, "[to bob] ! Only an admin or the host") {
		t.Errorf("a player who is not an admin added a schedule:\n%s", out)
	}
	out = run("admin: schedule add weekly fri 20:00 length=2h blinds=5/10 buyin=500")
	if strings.Contains(out, "! ") || !strings.Contains(out, "Fri 27 Nov 2026 20:00 GMT") || !strings.Contains(out, "Fri 4 Dec 2026 20:00 GMT") {
		t.Fatalf("schedule add did not list the next dates:\n%s", out)
	}
	id := regexp.MustCompile(`#?(\d+)`).FindStringSubmatch(run("admin: schedule list"))
	if id == nil {
		t.Fatal("schedule list names no schedule")
	}

	start := time.Date(2026, 11, 27, 20, 0, 0, 0, time.UTC)
	ann := tick(start.Add(-24 * time.Hour))
	if !strings.Contains(ann, "Home game on Fri 27 Nov 2026 20:00 GMT") || !strings.Contains(ann, "rsvp yes") {
		t.Fatalf("no announcement with RSVP buttons:\n%s", ann)
	}
	m := regexp.MustCompile(`end the line with #(\S+)\)`).FindStringSubmatch(ann)
	if m == nil {
		t.Fatalf("the announcement's buttons carry no token:\n%s", ann)
	}
	out = run("bob: rsvp yes #"+m[1], "carol: rsvp maybe #"+m[1])
	if strings.Contains(out, "! ") {
		t.Fatalf("RSVP clicks refused:\n%s", out)
	}

	// A restart between the RSVP and the reminder loses neither.
	s.Close(ctx)
	g.restart()
	open()
	rem := tick(start.Add(-30 * time.Minute))
	if !strings.Contains(rem, "Going: @bob") {
		t.Errorf("reminder does not name bob:\n%s", rem)
	}
	opened := tick(start)
	if !strings.Contains(opened, "opened a table: no-limit 5/10") || !strings.Contains(opened, "@bob") {
		t.Fatalf("the table did not open with the game's settings, pinging bob:\n%s", opened)
	}

	g.rnd.drawDeck(t, "As Kd")
	out = run("bob: join", "carol: join", "bob: deal")
	if strings.Contains(out, "! ") {
		t.Fatalf("join/deal refused:\n%s", out)
	}
	// Heads-up the button posts the small blind and acts first; whoever can fold does.
	if r := g.say("bob: fold"); r.IsError {
		g.must("carol: fold")
	}
	res := tick(start.Add(2 * time.Hour))
	i := strings.Index(res, "Results of the Fri 27 Nov 2026 20:00 GMT game:")
	if i < 0 {
		t.Fatalf("no results at the end time:\n%s", res)
	}
	won := strings.Contains(res[i:], "Settle-up:\n• carol pays bob 5")
	lost := strings.Contains(res[i:], "Settle-up:\n• bob pays carol 5")
	if won == lost {
		t.Errorf("settle-up should have the folder pay the 5-chip small blind:\n%s", res[i:])
	}
	tot := g.balance()
	if tot.Bankrolls+tot.OnTables != tot.BroughtIn {
		t.Errorf("ledger does not balance: %+v", tot)
	}
	s.Close(ctx)
}

// A scheduled weekly tournament: the schedule opens it at the start time, two players register and
// play it out, and the season leaderboard counts the prize (the winner's net is the prize less the
// buy-in).
func TestScheduledTournamentAtTheConsole(t *testing.T) {
	g := newGame(t)
	ctx := context.Background()
	var s *features.Scheduler
	open := func() {
		var err error
		s, err = features.NewScheduler(g.d, g.db, features.ScheduleConfig{DefaultZone: "UTC"})
		if err != nil {
			t.Fatal(err)
		}
	}
	open()
	defer func() { s.Close(ctx) }()
	run, tick := g.consoleLines(ctx, func() *features.Scheduler { return s })
	if out := run("admin: schedule add weekly fri 20:00 length=2h tournament buyin=100 stack=1000 payouts=50/60"); !strings.Contains(out, "The payouts add up to 110%") {
		t.Fatalf("a schedule with payouts over 100%% was not refused:\n%s", out)
	}
	if out := run("admin: schedule add weekly fri 20:00 length=2h tournament buyin=100 stack=1000 blinds=10/20"); strings.Contains(out, "! ") || !strings.Contains(out, "tournament: buy-in 100 for 1,000 chips") {
		t.Fatalf("schedule add refused or does not describe the tournament:\n%s", out)
	}
	start := time.Date(2026, 11, 27, 20, 0, 0, 0, time.UTC)
	if opened := tick(start); !strings.Contains(opened, "opened a tournament: buy-in 100 for 1,000 chips") {
		t.Fatalf("the schedule did not open the tournament:\n%s", opened)
	}
	g.rnd.drawDeck(t, "As Kd") // bob has the button: heads-up he posts the small blind and acts first
	g.rnd.hand(t, 0, []string{"As Ah", "Ks Kh"}, "2c 7d 9h 3s 4c")
	if out := run("bob: join", "carol: join", "bob: deal", "bob: allin", "carol: call"); strings.Contains(out, "! ") || !strings.Contains(out, "1. bob wins 200 (+100)") {
		t.Fatalf("the tournament did not play out to bob's win:\n%s", out)
	}
	if res := tick(start.Add(2 * time.Hour)); !strings.Contains(res, "Results of the Fri 27 Nov 2026 20:00 UTC game:") || !strings.Contains(res, "carol pays bob 100") {
		t.Fatalf("no results of the tournament at the end time:\n%s", res)
	}
	season := run("bob: leaderboard season")
	if !strings.Contains(season, "bob +100") || !strings.Contains(season, "carol -100") {
		t.Fatalf("the season does not count the tournament prize:\n%s", season)
	}
}

// consoleLines returns run, which types lines at the console (the dealer answers them, the schedule
// commands too) and returns what they printed, and tick, which sets the clock and runs the tick of
// the scheduler sched().
func (g *game) consoleLines(ctx context.Context, sched func() *features.Scheduler) (run func(lines ...string) string, tick func(at time.Time) string) {
	run = func(lines ...string) string {
		g.t.Helper()
		before := g.out.Len()
		if err := console.Run(ctx, g.d, g.chat, strings.NewReader(strings.Join(lines, "\n")), g.opts); err != nil {
			g.t.Fatal(err)
		}
		return g.out.String()[before:]
	}
	tick = func(at time.Time) string {
		g.t.Helper()
		before := g.out.Len()
		g.clock.Set(at)
		if err := sched().Tick(ctx); err != nil {
			g.t.Fatal(err)
		}
		if err := g.d.Flush(ctx); err != nil {
			g.t.Fatal(err)
		}
		return g.out.String()[before:]
	}
	return run, tick
}
