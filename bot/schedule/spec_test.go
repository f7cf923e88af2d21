package schedule

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/dealerbot/dealerbot/bot/errs"
)

func mustZone(tb testing.TB, name string) *time.Location {
	tb.Helper()
	loc, err := ParseZone(name)
	if err != nil {
		tb.Fatal(err)
	}
	return loc
}

func mustParse(tb testing.TB, when, zone string) *Spec {
	tb.Helper()
	s, err := Parse(when, mustZone(tb, zone))
	if err != nil {
		tb.Fatalf("Parse(%q): %v", when, err)
	}
	return s
}

const stamp = "Mon 2006-01-02 15:04 MST"

// TestNextAcrossDST checks the next games around the spring and autumn clock changes in two zones:
// the game stays at its wall-clock time, so the real gap between two weekly games is 167 or 169 hours.
func TestNextAcrossDST(t *testing.T) {
	tests := []struct {
		name, when, zone string
		from             time.Time
		want             []string // local times
		gap              time.Duration
	}{
		{"new york spring", "weekly fri 20:00", "America/New_York", time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC),
			[]string{"Fri 2026-03-06 20:00 EST", "Fri 2026-03-13 20:00 EDT", "Fri 2026-03-20 20:00 EDT"}, 167 * time.Hour},
		{"new york autumn", "weekly fri 20:00", "America/New_York", time.Date(2026, 10, 25, 0, 0, 0, 0, time.UTC),
			[]string{"Fri 2026-10-30 20:00 EDT", "Fri 2026-11-06 20:00 EST", "Fri 2026-11-13 20:00 EST"}, 169 * time.Hour},
		{"berlin spring", "every sat 21:00", "Europe/Berlin", time.Date(2026, 3, 23, 0, 0, 0, 0, time.UTC),
			[]string{"Sat 2026-03-28 21:00 CET", "Sat 2026-04-04 21:00 CEST", "Sat 2026-04-11 21:00 CEST"}, 167 * time.Hour},
		{"berlin autumn", "0 21 * * 6", "Europe/Berlin", time.Date(2026, 10, 19, 0, 0, 0, 0, time.UTC),
			[]string{"Sat 2026-10-24 21:00 CEST", "Sat 2026-10-31 21:00 CET", "Sat 2026-11-07 21:00 CET"}, 169 * time.Hour},
		// A game inside the hour the clocks skip is played at the same instant the old offset gives.
		{"berlin skipped hour", "daily 02:30", "Europe/Berlin", time.Date(2026, 3, 27, 12, 0, 0, 0, time.UTC),
			[]string{"Sat 2026-03-28 02:30 CET", "Sun 2026-03-29 03:30 CEST", "Mon 2026-03-30 02:30 CEST"}, 24 * time.Hour},
		{"new york skipped hour", "daily 02:30", "America/New_York", time.Date(2026, 3, 6, 12, 0, 0, 0, time.UTC),
			[]string{"Sat 2026-03-07 02:30 EST", "Sun 2026-03-08 03:30 EDT", "Mon 2026-03-09 02:30 EDT"}, 24 * time.Hour},
		// A game inside the hour the clocks repeat is played once, at the first of the two.
		{"berlin repeated hour", "daily 02:30", "Europe/Berlin", time.Date(2026, 10, 23, 12, 0, 0, 0, time.UTC),
			[]string{"Sat 2026-10-24 02:30 CEST", "Sun 2026-10-25 02:30 CEST", "Mon 2026-10-26 02:30 CET"}, 24 * time.Hour},
		{"new york repeated hour", "daily 01:30", "America/New_York", time.Date(2026, 10, 30, 12, 0, 0, 0, time.UTC),
			[]string{"Sat 2026-10-31 01:30 EDT", "Sun 2026-11-01 01:30 EDT", "Mon 2026-11-02 01:30 EST"}, 24 * time.Hour},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := mustParse(t, tt.when, tt.zone)
			got := s.NextN(tt.from, 3)
			if len(got) != 3 {
				t.Fatalf("NextN gave %d games, want 3", len(got))
			}
			for i, g := range got {
				if g, w := g.Format(stamp), tt.want[i]; g != w {
					t.Errorf("game %d = %s, want %s", i, g, w)
				}
			}
			if g, w := got[1].Sub(got[0]), tt.gap; g != w {
				t.Errorf("first gap = %v, want %v", g, w)
			}
		})
	}
}

// TestNextRepeatedHourNotTwice asks for the next game from between the two instants that show the
// repeated wall time: the game already played must not come round again an hour later.
func TestNextRepeatedHourNotTwice(t *testing.T) {
	s := mustParse(t, "daily 02:30", "Europe/Berlin")
	first := time.Date(2026, 10, 25, 0, 30, 0, 0, time.UTC) // 02:30 CEST
	if got, want := s.Next(first).Format(stamp), "Mon 2026-10-26 02:30 CET"; got != want {
		t.Errorf("Next after the game = %s, want %s", got, want)
	}
}

func TestParse(t *testing.T) {
	from := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		name, when string
		cron       string
		next       []string // first games in Europe/Berlin after from
		err        string   // part of the refusal
	}{
		{"weekly", "weekly fri 20:00", "0 20 * * 5", []string{"Fri 2026-11-27 20:00 CET", "Fri 2026-12-04 20:00 CET"}, ""},
		{"weekly full day name and case", "Weekly FRIDAY 20:00", "0 20 * * 5", []string{"Fri 2026-11-27 20:00 CET"}, ""},
		{"bare day", "fri 20:00", "0 20 * * 5", []string{"Fri 2026-11-27 20:00 CET", "Fri 2026-12-04 20:00 CET"}, ""},
		{"bare days", "tue,thu 21:00", "0 21 * * 2,4", []string{"Tue 2026-11-24 21:00 CET", "Thu 2026-11-26 21:00 CET"}, ""},
		{"bare day bad clock", "fri 8pm", "", nil, `"8pm" is not a time of day`},
		{"daily", "daily 19:30", "30 19 * * *", []string{"Sun 2026-11-22 19:30 CET", "Mon 2026-11-23 19:30 CET"}, ""},
		{"every", "every tue,thu 21:00", "0 21 * * 2,4", []string{"Tue 2026-11-24 21:00 CET", "Thu 2026-11-26 21:00 CET", "Tue 2026-12-01 21:00 CET"}, ""},
		{"cron", "0 20 * * 5", "0 20 * * 5", []string{"Fri 2026-11-27 20:00 CET"}, ""},
		{"cron names", "15 20 * * FRI", "15 20 * * fri", []string{"Fri 2026-11-27 20:15 CET"}, ""},
		{"one game", "on 2026-12-04 20:00", "0 20 4 12 *", []string{"Fri 2026-12-04 20:00 CET"}, ""},
		{"one game only once", "on 2026-12-04 20:00", "0 20 4 12 *", []string{"Fri 2026-12-04 20:00 CET"}, ""},
		{"empty", "", "", nil, "Say when the game is"},
		{"bad day", "weekly fry 20:00", "", nil, `"fry" is not a day`},
		{"weekly two days", "weekly tue,thu 20:00", "", nil, "`weekly` takes one day"},
		{"bad clock", "daily 25:00", "", nil, `"25:00" is not a time of day`},
		{"clock without minutes", "daily 20", "", nil, `"20" is not a time of day`},
		{"bad cron", "0 20 * * 9", "", nil, "is not a cron schedule I can read"},
		{"six fields", "0 0 20 * * 5", "", nil, "I could not read"},
		{"zone inside cron", "CRON_TZ=UTC 0 20 * * *", "", nil, "I could not read"},
		{"bad date", "on 2026-13-04 20:00", "", nil, "is not a date"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := Parse(tt.when, mustZone(t, "Europe/Berlin"))
			if tt.err != "" {
				var e *errs.Error
				if !errors.As(err, &e) || !strings.Contains(e.Message, tt.err) {
					t.Fatalf("Parse(%q) error = %v, want a player error containing %q", tt.when, err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatalf("Parse(%q): %v", tt.when, err)
			}
			if s.Cron != tt.cron {
				t.Errorf("Cron = %q, want %q", s.Cron, tt.cron)
			}
			got := s.NextN(from, len(tt.next)+1)
			if tt.cron == "0 20 4 12 *" {
				if len(got) != 1 {
					t.Fatalf("a single game gave %d games: %v", len(got), got)
				}
			}
			for i, w := range tt.next {
				if i >= len(got) || got[i].Format(stamp) != w {
					t.Fatalf("games = %v, want %v", got, tt.next)
				}
			}
		})
	}
}

func TestParseZone(t *testing.T) {
	for _, name := range []string{"Europe/Berlin", "America/New_York", "UTC", "Asia/Kolkata"} {
		if _, err := ParseZone(name); err != nil {
			t.Errorf("ParseZone(%q): %v", name, err)
		}
	}
	for _, name := range []string{"", "Mars/Olympus", "Europe/Berln", "Local", "CET+1"} {
		_, err := ParseZone(name)
		var e *errs.Error
		if !errors.As(err, &e) || !strings.Contains(e.Message, "IANA") {
			t.Errorf("ParseZone(%q) error = %v, want a sentence naming IANA zones", name, err)
		}
	}
}

func TestNextNeverHappens(t *testing.T) {
	s := mustParse(t, "0 20 30 2 *", "UTC") // 30 February
	if got := s.Next(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)); !got.IsZero() {
		t.Errorf("Next of 30 February = %v, want none", got)
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"weekly fri 20:00", "daily 19:30", "every tue,thu 21:00", "0 20 * * 5", "on 2026-12-04 20:00", "*/5 * * * *",
		"on 99999-12-04 20:00", "0 0 31 2 *", "* * * * *", "weekly fri 9223372036854775807:00", "daily 24:60", "every " + strings.Repeat("mon,", 500) + " 1:00"} {
		f.Add(s)
	}
	loc := mustZone(f, "Europe/Berlin")
	from := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, when string) {
		s, err := Parse(when, loc)
		if err != nil {
			var e *errs.Error
			if !errors.As(err, &e) || e.Message == "" {
				t.Fatalf("Parse(%q) error %v is not a player sentence", when, err)
			}
			return
		}
		prev := from
		for _, n := range s.NextN(from, 3) {
			if !n.After(prev) {
				t.Fatalf("Parse(%q): game %v not after %v", when, n, prev)
			}
			prev = n
		}
	})
}
