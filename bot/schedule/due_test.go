package schedule

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// newWeekly is a Friday 20:00 Berlin game with the default announcement and reminder, created on
// Sunday 22 November 2026 at noon; its first game is Friday 27 November 20:00 CET (19:00 UTC).
func newWeekly(tb testing.TB) (*Schedule, *Spec) {
	tb.Helper()
	spec := mustParse(tb, "weekly fri 20:00", "Europe/Berlin")
	created := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	s := &Schedule{ID: "1", Cron: spec.Cron, Zone: "Europe/Berlin", Length: 3 * time.Hour,
		Announce: DefaultAnnounce, Remind: DefaultRemind, Created: created, Next: spec.Next(created)}
	return s, spec
}

func describe(evs []Event) string {
	var parts []string
	for _, e := range evs {
		p := e.Kind.String() + " " + e.At.UTC().Format("01-02 15:04")
		if e.Kind == Missed {
			p += fmt.Sprintf(" x%d", e.Count)
		}
		parts = append(parts, p)
	}
	return strings.Join(parts, ", ")
}

// TestDueInOrder steps a fake clock through a week minute by minute: the announcement comes 24 h
// before the game, the reminder 30 min before, the table opens at the start, the settle-up at the end,
// each exactly once and in that order; then the next week begins.
func TestDueInOrder(t *testing.T) {
	s, spec := newWeekly(t)
	var log []string
	start := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	for now := start; now.Before(start.Add(12 * 24 * time.Hour)); now = now.Add(time.Minute) {
		for _, e := range Due(s, spec, now) {
			log = append(log, e.Kind.String()+" at "+now.UTC().Format("01-02 15:04")+" for "+e.At.UTC().Format("01-02 15:04"))
			if e.Kind == Settle {
				s.Settled(e.At)
			}
		}
	}
	want := []string{
		"announce at 11-26 19:00 for 11-27 19:00",
		"remind at 11-27 18:30 for 11-27 19:00",
		"start at 11-27 19:00 for 11-27 19:00",
		"settle at 11-27 22:00 for 11-27 19:00",
		"announce at 12-03 19:00 for 12-04 19:00",
	}
	if got := strings.Join(log, "\n"); got != strings.Join(want, "\n") {
		t.Errorf("events:\n%s\nwant:\n%s", got, strings.Join(want, "\n"))
	}
}

// TestDueLateStartup: the bot comes up ten minutes before the start, having missed the announcement:
// the announcement and the reminder go out at once, in order. Coming up five minutes after the
// start, the game still starts, without a stale announcement or reminder.
func TestDueLateStartup(t *testing.T) {
	s, spec := newWeekly(t)
	if got, want := describe(Due(s, spec, time.Date(2026, 11, 27, 18, 50, 0, 0, time.UTC))), "announce 11-27 19:00, remind 11-27 19:00"; got != want {
		t.Errorf("before the start Due = %q, want %q", got, want)
	}
	s, spec = newWeekly(t)
	now := time.Date(2026, 11, 27, 19, 5, 0, 0, time.UTC)
	if got, want := describe(Due(s, spec, now)), "start 11-27 19:00"; got != want {
		t.Errorf("Due = %q, want %q", got, want)
	}
	if got := Due(s, spec, now); len(got) != 0 {
		t.Errorf("second Due at the same time = %q, want nothing", describe(got))
	}
}

// TestDueMissed: the bot was down from before the announcement until three weeks later. The three
// starts are reported as one Missed event (the last one, counted), no table opens, and the next game
// is announced normally.
func TestDueMissed(t *testing.T) {
	s, spec := newWeekly(t)
	now := time.Date(2026, 12, 14, 9, 0, 0, 0, time.UTC) // Monday after the third Friday
	if got, want := describe(Due(s, spec, now)), "missed 12-11 19:00 x3"; got != want {
		t.Errorf("Due = %q, want %q", got, want)
	}
	if len(s.Open) != 0 {
		t.Errorf("missed games opened sessions: %v", s.Open)
	}
	if got, want := s.Next.UTC(), time.Date(2026, 12, 18, 19, 0, 0, 0, time.UTC); !got.Equal(want) {
		t.Errorf("Next = %v, want %v", got, want)
	}
	if got, want := describe(Due(s, spec, time.Date(2026, 12, 17, 19, 0, 0, 0, time.UTC))), "announce 12-18 19:00"; got != want {
		t.Errorf("Due = %q, want %q", got, want)
	}
}

// TestDueMissedJustPastGrace: within Grace the game starts late; past it, it is missed.
func TestDueMissedJustPastGrace(t *testing.T) {
	at := time.Date(2026, 11, 27, 19, 0, 0, 0, time.UTC)
	s, spec := newWeekly(t)
	s.Announced, s.Reminded = true, true
	if got, want := describe(Due(s, spec, at.Add(Grace))), "start 11-27 19:00"; got != want {
		t.Errorf("at the grace limit Due = %q, want %q", got, want)
	}
	s, spec = newWeekly(t)
	s.Announced, s.Reminded = true, true
	if got, want := describe(Due(s, spec, at.Add(Grace+time.Minute))), "missed 11-27 19:00 x1"; got != want {
		t.Errorf("past the grace limit Due = %q, want %q", got, want)
	}
}

// TestDueSkip: a skipped game is neither announced nor started; the week after is.
func TestDueSkip(t *testing.T) {
	s, spec := newWeekly(t)
	s.Skip = append(s.Skip, s.Next)
	var got []string
	for now := s.Created; now.Before(s.Created.Add(14 * 24 * time.Hour)); now = now.Add(10 * time.Minute) {
		if evs := Due(s, spec, now); len(evs) > 0 {
			got = append(got, describe(evs))
		}
	}
	want := "announce 12-04 19:00|remind 12-04 19:00|start 12-04 19:00|settle 12-04 19:00"
	// Settle repeats until Settled is called; keep only the first.
	if g := strings.Join(got[:min(4, len(got))], "|"); g != want {
		t.Errorf("events = %q, want %q", g, want)
	}
	if len(s.Skip) != 0 {
		t.Errorf("the skip of a past game was kept: %v", s.Skip)
	}
}

// TestDueSettleRetries: Settle is due again on every call until Settled records the result.
func TestDueSettleRetries(t *testing.T) {
	s, spec := newWeekly(t)
	end := time.Date(2026, 11, 27, 22, 0, 0, 0, time.UTC)
	Due(s, spec, time.Date(2026, 11, 27, 19, 0, 0, 0, time.UTC))
	if got := describe(Due(s, spec, end.Add(-time.Second))); got != "" {
		t.Errorf("before the end Due = %q, want nothing", got)
	}
	for i := 0; i < 2; i++ {
		if got, want := describe(Due(s, spec, end.Add(time.Duration(i)*time.Minute))), "settle 11-27 19:00"; got != want {
			t.Errorf("call %d: Due = %q, want %q", i, got, want)
		}
	}
	s.Settled(time.Date(2026, 11, 27, 19, 0, 0, 0, time.UTC))
	if got := describe(Due(s, spec, end.Add(time.Hour))); got != "" {
		t.Errorf("after Settled Due = %q, want nothing", got)
	}
}

// TestDueSingleGameEnds: a one-off game runs once and then the schedule has nothing more to do.
func TestDueSingleGameEnds(t *testing.T) {
	spec := mustParse(t, "on 2026-12-04 20:00", "Europe/Berlin")
	created := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	s := &Schedule{ID: "2", Length: time.Hour, Announce: DefaultAnnounce, Remind: DefaultRemind, Next: spec.Next(created)}
	if got, want := describe(Due(s, spec, time.Date(2026, 12, 4, 18, 0, 0, 0, time.UTC))), "announce 12-04 19:00"; got != want {
		t.Errorf("Due = %q, want %q", got, want)
	}
	if got, want := describe(Due(s, spec, time.Date(2026, 12, 4, 19, 0, 0, 0, time.UTC))), "start 12-04 19:00"; got != want {
		t.Errorf("Due = %q, want %q", got, want)
	}
	if !s.Next.IsZero() {
		t.Errorf("Next after the only game = %v, want none", s.Next)
	}
}

// TestDueWithoutAnnouncementOrReminder: announce=off and remind=off leave only the start and the
// settle-up; neither message is sent at the start time instead.
func TestDueWithoutAnnouncementOrReminder(t *testing.T) {
	for _, c := range []struct {
		announce, remind time.Duration
		want             string
	}{
		{0, 0, "start at 11-27 19:00, settle at 11-27 22:00"},
		{DefaultAnnounce, 0, "announce at 11-26 19:00, start at 11-27 19:00, settle at 11-27 22:00"},
	} {
		s, spec := newWeekly(t)
		s.Announce, s.Remind = c.announce, c.remind
		var log []string
		start := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
		for now := start; now.Before(start.Add(5*24*time.Hour + 12*time.Hour)); now = now.Add(time.Minute) {
			for _, e := range Due(s, spec, now) {
				log = append(log, e.Kind.String()+" at "+now.UTC().Format("01-02 15:04"))
				if e.Kind == Settle {
					s.Settled(e.At)
				}
			}
		}
		if got := strings.Join(log, ", "); got != c.want {
			t.Errorf("announce=%v remind=%v: events %q, want %q", c.announce, c.remind, got, c.want)
		}
	}
}
