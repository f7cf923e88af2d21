package schedule

import (
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/robfig/cron/v3"

	"github.com/dealerbot/dealerbot/bot/errs"

	// The zone database is embedded so schedules work on hosts without /usr/share/zoneinfo.
	_ "time/tzdata"
)

// Spec is a parsed "when": a standard five-field cron schedule in one time zone, optionally limited to
// the dates from From (inclusive) until Until (exclusive).
type Spec struct {
	Cron  string         // five fields: minute hour day-of-month month day-of-week
	Loc   *time.Location // the schedule's own zone
	From  time.Time      // no game before this; zero for none
	Until time.Time      // no game at or after this; zero for none
	sched cron.Schedule
}

// zones caches loaded time zones: loading one reads and parses the zone database, and every tick
// needs each schedule's zone.
var zones sync.Map // name -> *time.Location

// ParseZone loads an IANA zone name ("Europe/Berlin"). The error is a sentence for players.
func ParseZone(name string) (*time.Location, error) {
	if name == "" || strings.EqualFold(name, "local") {
		return nil, errs.Errorf(errs.Invalid, "Name a time zone from the IANA list, like tz=Europe/Berlin or tz=America/New_York.")
	}
	if loc, ok := zones.Load(name); ok {
		return loc.(*time.Location), nil
	}
	loc, err := time.LoadLocation(name)
	if err == nil {
		zones.Store(name, loc)
	}
	if err != nil {
		return nil, errs.Errorf(errs.Invalid, "I do not know the time zone %s: use an IANA name like tz=Europe/Berlin, tz=America/New_York or tz=UTC.", errs.Quote(name))
	}
	return loc, nil
}

var weekdays = map[string]int{
	"sun": 0, "sunday": 0, "mon": 1, "monday": 1, "tue": 2, "tues": 2, "tuesday": 2,
	"wed": 3, "wednesday": 3, "thu": 4, "thur": 4, "thurs": 4, "thursday": 4,
	"fri": 5, "friday": 5, "sat": 6, "saturday": 6,
}

// whenHelp lists the forms Parse reads.
const whenHelp = "`weekly fri 20:00` (or just `fri 20:00`), `daily 19:30`, `every tue,thu 21:00`, `on 2026-12-04 20:00` " +
	"or five cron fields like `0 20 * * 5`"

// Parse reads when in the zone loc. It accepts the friendly forms `weekly fri 20:00` (also bare,
// `fri 20:00`), `daily 19:30`,
// `every tue,thu 21:00`, a single game `on 2026-12-04 20:00`, and plain five-field cron
// (`0 20 * * 5`). The error is a sentence for players.
func Parse(when string, loc *time.Location) (*Spec, error) {
	f := strings.Fields(strings.ToLower(when))
	if len(f) == 0 {
		return nil, errs.Errorf(errs.Invalid, "Say when the game is: %s.", whenHelp)
	}
	var spec Spec
	switch f[0] {
	case "daily", "weekly", "every":
		var days, clock string
		switch {
		case f[0] == "daily" && len(f) == 2:
			days, clock = "*", f[1]
		case f[0] != "daily" && len(f) == 3:
			d, err := parseDays(f[1])
			if err != nil {
				return nil, err
			}
			if f[0] == "weekly" && strings.Contains(d, ",") {
				return nil, errs.Errorf(errs.Invalid, "`weekly` takes one day; for several write `every %s %s`.", clip(f[1]), clip(f[2]))
			}
			days, clock = d, f[2]
		default:
			return nil, errs.Errorf(errs.Invalid, "I could not read %s: write %s.", errs.Quote(when), whenHelp)
		}
		h, m, err := parseClock(clock)
		if err != nil {
			return nil, err
		}
		spec.Cron = fmt.Sprintf("%d %d * * %s", m, h, days)
	case "on":
		if len(f) != 3 {
			return nil, errs.Errorf(errs.Invalid, "Write a single game as `on 2026-12-04 20:00`.")
		}
		d, err := time.ParseInLocation("2006-01-02", f[1], loc)
		if err != nil {
			return nil, errs.Errorf(errs.Invalid, "%s is not a date: write it as YYYY-MM-DD, like `on 2026-12-04 20:00`.", errs.Quote(f[1]))
		}
		h, m, err := parseClock(f[2])
		if err != nil {
			return nil, err
		}
		spec.Cron = fmt.Sprintf("%d %d %d %d *", m, h, d.Day(), int(d.Month()))
		spec.From = d
		spec.Until = d.AddDate(0, 0, 1)
	default:
		if len(f) == 2 {
			// A bare day and time, "fri 20:00" or "tue,thu 21:00", is every such day.
			if _, err := parseDays(f[0]); err == nil {
				return Parse("every "+when, loc)
			}
		}
		if len(f) != 5 {
			return nil, errs.Errorf(errs.Invalid, "I could not read %s: write %s.", errs.Quote(when), whenHelp)
		}
		spec.Cron = strings.Join(f, " ")
	}
	return compile(spec, loc)
}

// compile checks spec.Cron with the cron parser and pins it to loc.
func compile(spec Spec, loc *time.Location) (*Spec, error) {
	if strings.Contains(spec.Cron, "=") || strings.HasPrefix(spec.Cron, "@") {
		return nil, errs.Errorf(errs.Invalid, "Give the time zone as tz=Zone, not inside the cron text; write %s.", whenHelp)
	}
	// Next works on wall-clock times written as UTC (see Next), so the schedule itself runs in UTC;
	// the zone was checked by ParseZone.
	s, err := cron.ParseStandard("CRON_TZ=UTC " + spec.Cron)
	if err != nil {
		return nil, errs.Errorf(errs.Invalid, "%s is not a cron schedule I can read (%s): write %s.", errs.Quote(spec.Cron), clip(err.Error()), whenHelp)
	}
	spec.Loc = loc
	spec.sched = s
	return &spec, nil
}

// Restore rebuilds a Spec from its stored parts.
func Restore(cronText, zone string, from, until time.Time) (*Spec, error) {
	loc, err := ParseZone(zone)
	if err != nil {
		return nil, err
	}
	return compile(Spec{Cron: cronText, From: from, Until: until}, loc)
}

func parseDays(s string) (string, error) {
	var out []string
	for _, d := range strings.Split(s, ",") {
		n, ok := weekdays[d]
		if !ok {
			return "", errs.Errorf(errs.Invalid, "%s is not a day: use mon, tue, wed, thu, fri, sat or sun (several as tue,thu).", errs.Quote(d))
		}
		out = append(out, strconv.Itoa(n))
	}
	return strings.Join(out, ","), nil
}

func parseClock(s string) (h, m int, err error) {
	hs, ms, ok := strings.Cut(s, ":")
	h, err1 := strconv.Atoi(hs)
	m, err2 := strconv.Atoi(ms)
	if !ok || err1 != nil || err2 != nil || h < 0 || h > 23 || m < 0 || m > 59 || len(ms) != 2 {
		return 0, 0, errs.Errorf(errs.Invalid, "%s is not a time of day: write 24-hour HH:MM, like 20:00.", errs.Quote(s))
	}
	return h, m, nil
}

// Next returns the first game strictly after t, in the schedule's zone, or the zero time when there
// is none (a single game already past, or a cron date that never comes, like 30 February).
//
// Games keep their wall-clock time across daylight-saving changes. Where the clocks skip the game's
// time (02:30 on a spring-forward night) the game is at the same instant the old offset would have
// given, which reads an hour later (03:30); where the clocks repeat an hour, the game is played once,
// at the first of the two. (cron's own Next drops the first and plays the second twice.)
// Spec is also a cron.Schedule, for the production cron wiring.
func (s *Spec) Next(t time.Time) time.Time {
	if !s.From.IsZero() && t.Before(s.From) {
		// Start from just before From so a game exactly at From counts.
		t = s.From.Add(-time.Second)
	}
	w := wall(t.In(s.Loc))
	for {
		w = s.sched.Next(w)
		if w.IsZero() {
			return time.Time{}
		}
		n := resolve(w, s.Loc)
		if !s.Until.IsZero() && !n.Before(s.Until) {
			return time.Time{}
		}
		if n.After(t) {
			return n
		}
		// n is an earlier instant of a repeated wall-clock time, already past: look further.
	}
}

// resolve returns the instant at which loc's clocks show the wall time w (written as UTC). When the
// clocks show it twice it returns the first; when they skip it, the instant the offset from before the
// change gives. (time.Date leaves both choices unspecified, and they differ between zones.)
func resolve(w time.Time, loc *time.Location) time.Time {
	_, before := w.Add(-24 * time.Hour).In(loc).Zone()
	_, now := w.In(loc).Zone()
	_, after := w.Add(24 * time.Hour).In(loc).Zone()
	var best time.Time
	for _, off := range []int{before, now, after} {
		c := w.Add(-time.Duration(off) * time.Second).In(loc)
		if wall(c).Equal(w) && (best.IsZero() || c.Before(best)) {
			best = c
		}
	}
	if best.IsZero() {
		best = w.Add(-time.Duration(before) * time.Second).In(loc)
	}
	return best
}

// wall writes t's local date and clock as the same figures in UTC, free of offset changes.
func wall(t time.Time) time.Time {
	return time.Date(t.Year(), t.Month(), t.Day(), t.Hour(), t.Minute(), t.Second(), t.Nanosecond(), time.UTC)
}

// NextN returns up to n games after t, in the schedule's zone.
func (s *Spec) NextN(t time.Time, n int) []time.Time {
	var out []time.Time
	for len(out) < n {
		t = s.Next(t)
		if t.IsZero() {
			break
		}
		out = append(out, t)
	}
	return out
}

// clip cuts what a user typed to the few dozen characters a refusal may repeat (errs.MaxQuote), for
// a sentence that shows it in its own quotes, like `schedule xyz`.
func clip(s string) string { return errs.ClipText(s, errs.MaxQuote) }
