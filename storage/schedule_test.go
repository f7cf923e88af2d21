package storage

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dealerbot/dealerbot/bot/schedule"
	"github.com/dealerbot/dealerbot/render"
)

// schedHost records the scheduler's calls to the dealer.
type schedHost struct{ log []string }

func (h *schedHost) Post(ctx context.Context, s *schedule.Schedule, key string, m render.Message) error {
	h.log = append(h.log, "post: "+m.Text)
	return nil
}

func (h *schedHost) Found(ctx context.Context, s *schedule.Schedule, g schedule.Session) (schedule.Found, error) {
	return schedule.NotOpened, nil
}

func (h *schedHost) Open(ctx context.Context, s *schedule.Schedule, g schedule.Session) error {
	h.log = append(h.log, "open "+strings.Join(s.Options, " "))
	return nil
}

func (h *schedHost) Finish(ctx context.Context, s *schedule.Schedule, g schedule.Session, end bool) ([]schedule.Balance, bool, error) {
	if !end {
		return nil, false, nil // still playing until the end time
	}
	h.log = append(h.log, "finish")
	return []schedule.Balance{{User: "UB", Name: "Bob", Net: 200}, {User: "UC", Name: "Carol", Net: -200}}, true, nil
}

type schedClock struct{ t time.Time }

func (c *schedClock) now() time.Time { return c.t }

// schedProcess is one run of the bot: the database file opened, a Manager on it.
type schedProcess struct {
	db   *DB
	m    *schedule.Manager
	host *schedHost
}

func schedStart(tb testing.TB, path string, c *schedClock) *schedProcess {
	tb.Helper()
	db, err := Open(path)
	if err != nil {
		tb.Fatal(err)
	}
	h := &schedHost{}
	return &schedProcess{db: db, host: h, m: &schedule.Manager{Store: db, Host: h, Now: c.now, DefaultZone: "Europe/Berlin"}}
}

func (p *schedProcess) stop(tb testing.TB) {
	tb.Helper()
	if err := p.db.Close(); err != nil {
		tb.Fatal(err)
	}
}

// do runs one of the manager's verbs (Add, RSVP) for user, as the dealer's verb table does once its
// gate let the command through.
func (p *schedProcess) do(tb testing.TB, user, name string, verb func(*schedule.Manager, context.Context, schedule.Request, []string) (schedule.Reply, error), args string) schedule.Reply {
	tb.Helper()
	r := schedule.Request{Platform: "slack", Workspace: "T1", Channel: "C1", User: user, UserName: name}
	rep, err := verb(p.m, context.Background(), r, strings.Fields(args))
	if err != nil {
		tb.Fatalf("%q: %v", args, err)
	}
	return rep
}

func (p *schedProcess) runUntil(tb testing.TB, c *schedClock, until time.Time) {
	tb.Helper()
	for c.t.Before(until) {
		c.t = c.t.Add(time.Minute)
		if err := p.m.Tick(context.Background()); err != nil {
			tb.Fatal(err)
		}
	}
}

// The game: Friday 27 November 2026, 20:00 Berlin = 19:00 UTC.
var schedFriday = time.Date(2026, 11, 27, 19, 0, 0, 0, time.UTC)

// TestSchedRestartKeepsSchedulesAndRSVPs: a schedule added and answered before a restart is announced
// once (not again after the restart), and after it the reminder still mentions those who said yes
// and the table opens with the stored settings.
func TestSchedRestartKeepsSchedulesAndRSVPs(t *testing.T) {
	path := filepath.Join(t.TempDir(), "dealerbot.db")
	c := &schedClock{time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)}
	p := schedStart(t, path, c)
	p.do(t, "UA", "Alice", (*schedule.Manager).Add, "weekly fri 20:00 blinds=10/20 buyin=1000")
	p.runUntil(t, c, schedFriday.Add(-23*time.Hour))
	p.do(t, "UB", "Bob", (*schedule.Manager).RSVP, "yes")
	p.do(t, "UC", "Carol", (*schedule.Manager).RSVP, "maybe")
	if len(p.host.log) != 1 || !strings.HasPrefix(p.host.log[0], "post: 🃏 Home game on Fri 27 Nov 2026 20:00 CET") {
		t.Fatalf("before the restart: %q", p.host.log)
	}
	p.stop(t)

	p = schedStart(t, path, c)
	defer p.stop(t)
	p.runUntil(t, c, schedFriday)
	want := []string{
		"post: ⏰ The game starts in 30 minutes (20:00 CET). Going: <@UB>. Maybe: Carol.",
		"open blinds=10/20 buyin=1000",
		"post: <@UB>, <@UC>: The 20:00 CET game is open until 23:00 CET: type `join` to sit down.",
	}
	if got := strings.Join(p.host.log, "\n"); got != strings.Join(want, "\n") {
		t.Errorf("after the restart:\n%s\nwant:\n%s", got, strings.Join(want, "\n"))
	}
}

// TestSchedRestartMissedStart: the bot is down from before the start until after it. On the way
// back the start is announced as missed, no table opens, and the following week runs normally.
func TestSchedRestartMissedStart(t *testing.T) {
	path := filepath.Join(t.TempDir(), "dealerbot.db")
	c := &schedClock{time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)}
	p := schedStart(t, path, c)
	p.do(t, "UA", "Alice", (*schedule.Manager).Add, "weekly fri 20:00")
	p.runUntil(t, c, schedFriday.Add(-time.Hour)) // announced, not yet reminded
	p.stop(t)

	c.t = schedFriday.Add(3 * time.Hour) // back at 23:00 Berlin
	p = schedStart(t, path, c)
	defer p.stop(t)
	if err := p.m.Tick(context.Background()); err != nil {
		t.Fatal(err)
	}
	want := "post: I was offline and missed the game on Fri 27 Nov 2026 20:00 CET: it did not take place. The next game is Fri 4 Dec 2026 20:00 CET."
	if got := strings.Join(p.host.log, "\n"); got != want {
		t.Errorf("after the restart:\n%s\nwant:\n%s", got, want)
	}
	p.host.log = nil
	p.runUntil(t, c, schedFriday.Add(7*24*time.Hour))
	if got := fmt.Sprint(len(p.host.log)); got != "4" || p.host.log[2] != "open " {
		t.Errorf("the week after: %q, want announcement, reminder, open, start message", p.host.log)
	}
}

// TestSchedRestartRunnerRegisters: after a restart the cron runner registers every stored schedule
// again, at its announcement, reminder, start and end times.
func TestSchedRestartRunnerRegisters(t *testing.T) {
	path := filepath.Join(t.TempDir(), "dealerbot.db")
	c := &schedClock{time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)}
	p := schedStart(t, path, c)
	p.do(t, "UA", "Alice", (*schedule.Manager).Add, "weekly fri 20:00 length=2h remind=15m")
	p.do(t, "UA", "Alice", (*schedule.Manager).Add, "daily 19:30 tz=America/New_York announce=2h")
	p.stop(t)

	p = schedStart(t, path, c)
	defer p.stop(t)
	r := schedule.NewRunner(p.m, nil)
	if err := r.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	defer r.Stop(context.Background())
	reg := r.Registered(c.t)
	got := map[string]string{}
	for id, ts := range reg {
		var s []string
		for _, x := range ts {
			s = append(s, x.UTC().Format("01-02 15:04"))
		}
		got[id] = strings.Join(s, " ")
	}
	want := map[string]string{
		"1": "11-26 19:00 11-27 18:45 11-27 19:00 11-27 21:00",
		"2": "11-22 22:30 11-23 00:00 11-23 00:30 11-23 03:30",
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("registered = %v, want %v", got, want)
	}
	p.do(t, "UA", "Alice", (*schedule.Manager).Remove, "2")
	if _, ok := r.Registered(c.t)["2"]; ok {
		t.Errorf("a removed schedule is still registered")
	}
}

// TestSchedResultsOutliveSchedule: results are stored with the schedule's progress, survive a
// restart, and stay for the season after the schedule is removed; its RSVPs do not.
func TestSchedResultsOutliveSchedule(t *testing.T) {
	path := filepath.Join(t.TempDir(), "dealerbot.db")
	c := &schedClock{time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)}
	p := schedStart(t, path, c)
	p.do(t, "UA", "Alice", (*schedule.Manager).Add, "weekly fri 20:00 length=3h")
	p.do(t, "UB", "Bob", (*schedule.Manager).RSVP, "yes")
	p.runUntil(t, c, schedFriday.Add(3*time.Hour))
	if last := p.host.log[len(p.host.log)-1]; !strings.Contains(last, "Carol pays Bob 200") {
		t.Fatalf("no settle-up posted: %q", p.host.log)
	}
	p.stop(t)

	p = schedStart(t, path, c)
	defer p.stop(t)
	ctx := context.Background()
	ss, err := p.db.Schedules(ctx)
	if err != nil || len(ss) != 1 || len(ss[0].Open) != 0 {
		t.Fatalf("schedules after restart = %+v, %v; want one with no game left to settle", ss, err)
	}
	season := p.do(t, "UB", "Bob", (*schedule.Manager).Season, "").Text
	if !strings.Contains(season, "1. Bob +200") || !strings.Contains(season, "2. Carol -200") {
		t.Errorf("season = %q", season)
	}
	var total int64
	res, _ := p.db.Results(ctx, "1")
	for _, r := range res {
		for _, b := range r.Players {
			total += b.Net
		}
	}
	if len(res) != 1 || total != 0 {
		t.Errorf("results = %+v (sum %d), want one night summing to 0", res, total)
	}
	if rs, _ := p.db.RSVPs(ctx, "1", schedFriday); len(rs) != 1 || rs[0].Name != "Bob" || rs[0].Answer != schedule.Yes {
		t.Errorf("rsvps after restart = %+v, want Bob's yes", rs)
	}
	p.do(t, "UA", "Alice", (*schedule.Manager).Remove, "1")
	if res, _ := p.db.Results(ctx, "1"); len(res) != 1 {
		t.Errorf("results after remove = %d, want 1", len(res))
	}
	if rs, _ := p.db.RSVPs(ctx, "1", schedFriday); len(rs) != 0 {
		t.Errorf("rsvps after remove = %v, want none", rs)
	}
}
