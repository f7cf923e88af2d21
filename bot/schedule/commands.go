package schedule

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/dealerbot/dealerbot/bot/errs"
	"github.com/dealerbot/dealerbot/render"
)

// The scheduler's commands: schedule add|list|remove|skip, rsvp and leaderboard season. The desk's
// verbs (verbs.go) name them, with their aliases, and the dealer's gate checks who may run each before the
// manager's method runs: Add needs an admin or the host of the channel's table, Remove and Skip an
// admin or the schedule's host (Named finds the schedule for the gate). The methods do not check again.

// Usage is the answer to `schedule` alone, and the end of the refusal of a subcommand it does not know.
const Usage = "Schedule commands: `schedule add <when> [tz=Europe/Berlin] [length=3h | end=23:30] " +
	"[announce=24h] [remind=30m] [from=2026-12-01] [game options like blinds=10/20 buyin=1000 levels=20m rebuy=2 timer=60]`, " +
	"`schedule list`, `schedule remove ID`, `schedule skip ID`. When: " + whenHelp + "."

// parseDuration reads 90m, 3h, 1h30m or 2d.
func parseDuration(key, val string, lo, hi time.Duration) (time.Duration, error) {
	d, err := time.ParseDuration(val)
	if strings.HasSuffix(val, "d") {
		var n int
		n, err = strconv.Atoi(strings.TrimSuffix(val, "d"))
		d = time.Duration(n) * 24 * time.Hour
	}
	if err != nil || d < lo || d > hi || d%time.Minute != 0 {
		return 0, errs.Errorf(errs.Invalid, "Write %s= as whole minutes or hours between %s and %s, like %s=90m or %s=3h.", key, fmtDuration(lo), fmtDuration(hi), key, key)
	}
	return d, nil
}

// Limits on schedules, so that nobody can make the bot post to a channel without end.
const (
	MaxPerChannel   = 5         // schedules in one channel
	MaxPerWorkspace = 25        // schedules in one server or workspace
	MinPeriod       = time.Hour // the least time between two games of one schedule
	MaxSkips        = 10        // skipped dates kept ahead of the next game
	maxListed       = 25        // lines in a `schedule list` reply
)

// Add answers `schedule add <when> [options]`: a new schedule in r's channel, hosted by r's user.
// The dealer's gate has checked that the user is an admin or the host of the channel's table.
func (m *Manager) Add(ctx context.Context, r Request, args []string) (Reply, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var when, opts []string
	kv := map[string]string{}
	for _, a := range args {
		key, val, isKV := strings.Cut(a, "=")
		if !isKV && strings.EqualFold(a, "tournament") {
			// The game is a tournament: `start tournament` with the options that follow.
			if slices.ContainsFunc(opts, func(o string) bool { return strings.EqualFold(o, "tournament") }) {
				return Reply{}, errs.Errorf(errs.Invalid, "Write tournament once.")
			}
			opts = append([]string{"tournament"}, opts...)
			continue
		}
		if !isKV {
			if len(opts) > 0 || len(kv) > 0 {
				return Reply{}, errs.Errorf(errs.Invalid, "Put the time first and the key=value options after it: `%s` came after the options.", clip(a))
			}
			when = append(when, a)
			continue
		}
		switch k := strings.ToLower(key); k {
		case "tz", "zone", "timezone", "length", "end", "announce", "remind", "from":
			if _, dup := kv[k]; dup {
				return Reply{}, errs.Errorf(errs.Invalid, "%s= is given twice: keep one.", clip(k))
			}
			kv[k] = val
		default:
			opts = append(opts, a)
		}
	}
	if len(when) == 0 {
		return Reply{}, errs.Errorf(errs.Invalid, "Say when the game is, for example `schedule add weekly fri 20:00 tz=Europe/Berlin`. Forms: %s.", whenHelp)
	}
	all, err := m.Store.Schedules(ctx)
	if err != nil {
		return Reply{}, fmt.Errorf("count schedules: %w", err)
	}
	inChannel, inWorkspace := 0, 0
	for _, o := range all {
		if o.Platform == r.Platform && o.Workspace == r.Workspace {
			inWorkspace++
			if o.Channel == r.Channel {
				inChannel++
			}
		}
	}
	if inChannel >= MaxPerChannel {
		return Reply{}, errs.Errorf(errs.TooMany, "This channel already has %d schedules, the most it may have: `schedule remove` one first.", MaxPerChannel)
	}
	if inWorkspace >= MaxPerWorkspace {
		return Reply{}, errs.Errorf(errs.TooMany, "This server already has %d schedules, the most it may have: `schedule remove` one first.", MaxPerWorkspace)
	}
	zone := m.DefaultZone
	if zone == "" {
		zone = "UTC"
	}
	for _, k := range []string{"tz", "zone", "timezone"} {
		if v, ok := kv[k]; ok {
			zone = v
		}
	}
	loc, err := ParseZone(zone)
	if err != nil {
		return Reply{}, err
	}
	spec, err := Parse(strings.Join(when, " "), loc)
	if err != nil {
		return Reply{}, err
	}
	now := m.now()
	if v, ok := kv["from"]; ok {
		from, err := time.ParseInLocation("2006-01-02", v, loc)
		if err != nil {
			return Reply{}, errs.Errorf(errs.Invalid, "Write from= as a date YYYY-MM-DD, like from=%s.", now.In(loc).AddDate(0, 0, 7).Format("2006-01-02"))
		}
		if !from.AddDate(0, 0, 1).After(now) {
			return Reply{}, errs.Errorf(errs.Invalid, "from=%s is in the past: give today's date or a later one.", clip(v))
		}
		if spec.From.IsZero() || from.After(spec.From) {
			spec.From = from
		}
	}
	first := spec.Next(now)
	if first.IsZero() {
		if !spec.Until.IsZero() {
			return Reply{}, errs.Errorf(errs.Invalid, "%s is in the past: give a date and time still to come.", spec.From.Format("2006-01-02"))
		}
		return Reply{}, errs.Errorf(errs.Invalid, "%s never comes round (check the day and month): write %s.", errs.Quote(strings.Join(when, " ")), whenHelp)
	}
	s := &Schedule{Platform: r.Platform, Workspace: r.Workspace, Channel: r.Channel, Host: r.User, HostName: r.UserName,
		When: strings.Join(when, " "), Cron: spec.Cron, Zone: loc.String(), From: spec.From, Until: spec.Until,
		Length: DefaultLength, Announce: DefaultAnnounce, Remind: DefaultRemind, Options: opts, Created: now, Next: first}
	_, hasLength := kv["length"]
	endVal, hasEnd := kv["end"]
	switch {
	case hasLength && hasEnd:
		return Reply{}, errs.Errorf(errs.Invalid, "Give either length= or end=, not both.")
	case hasLength:
		if s.Length, err = parseDuration("length", kv["length"], 15*time.Minute, 24*time.Hour); err != nil {
			return Reply{}, err
		}
	case hasEnd && strings.Contains(endVal, ":"):
		h, mi, err := parseClock(endVal)
		if err != nil {
			return Reply{}, errs.Errorf(errs.Invalid, "Write end= as the clock time the game ends, like end=23:30, or its length, like length=3h.")
		}
		start := first.In(loc)
		startMin, endMin := start.Hour()*60+start.Minute(), h*60+mi
		if endMin <= startMin {
			endMin += 24 * 60 // ends after midnight
		}
		s.Length = time.Duration(endMin-startMin) * time.Minute
	case hasEnd:
		if s.Length, err = parseDuration("end", endVal, 15*time.Minute, 24*time.Hour); err != nil {
			return Reply{}, err
		}
	}
	if v, ok := kv["announce"]; ok {
		if v == "off" || v == "no" {
			v = "0m"
		}
		if s.Announce, err = parseDuration("announce", v, 0, 7*24*time.Hour); err != nil {
			return Reply{}, err
		}
	}
	if v, ok := kv["remind"]; ok {
		if v == "off" || v == "no" {
			v = "0m"
		}
		if s.Remind, err = parseDuration("remind", v, 0, 24*time.Hour); err != nil {
			return Reply{}, err
		}
	}
	if gap, ok := shortestGap(spec, now, s.Length); !ok {
		return Reply{}, errs.Errorf(errs.Invalid, "Games of one schedule must start at least %s apart and not overlap (%s a game), but these come %s apart: choose fewer times, like `weekly fri 20:00` or `daily 19:30`.",
			fmtDuration(max(MinPeriod, s.Length)), fmtDuration(s.Length), fmtDuration(gap))
	}
	if s.Remind > s.Announce {
		return Reply{}, errs.Errorf(errs.Invalid, "The reminder (%s before) cannot come before the announcement (%s before): make remind= shorter than announce=.", fmtDuration(s.Remind), fmtDuration(s.Announce))
	}
	desc := ""
	if m.Options != nil {
		if desc, err = m.Options(opts); err != nil {
			return Reply{}, err
		}
	}
	s.Game = desc
	s.Key = r.Key // the same delivery twice adds one schedule
	if err := m.Store.PutSchedule(ctx, s); err != nil {
		return Reply{}, fmt.Errorf("save schedule: %w", err)
	}
	m.changed(s, false)
	var dates []string
	for _, t := range spec.NextN(now, 3) {
		dates = append(dates, fmtGame(t))
	}
	ann, rem := "No announcement", "no reminder"
	if s.Announce > 0 {
		ann = "Announced " + fmtDuration(s.Announce) + " before with RSVP buttons"
	}
	if s.Remind > 0 {
		rem = "reminder " + fmtDuration(s.Remind) + " before"
	}
	text := fmt.Sprintf("Schedule %s added: %s (%s), %s a game. Next games: %s.\n%s; %s.",
		s.ID, s.When, s.Zone, fmtDuration(s.Length), strings.Join(dates, "; "), ann, rem)
	if desc != "" {
		text += "\nGame: " + desc + "."
	}
	text += fmt.Sprintf("\nTo skip a date: `schedule skip %s`; to stop: `schedule remove %s`.", s.ID, s.ID)
	return Reply{Text: text}, nil
}

// shortestGap checks the next games of spec: no two may start less than MinPeriod (or one game's
// length) apart. It returns the shortest gap found and whether it is long enough.
func shortestGap(spec *Spec, now time.Time, length time.Duration) (time.Duration, bool) {
	need := max(MinPeriod, length)
	times := spec.NextN(now, 200) // a year of weekly games, or every gap of a cron's day and more
	shortest := time.Duration(0)
	for i := 1; i < len(times); i++ {
		if gap := times[i].Sub(times[i-1]); shortest == 0 || gap < shortest {
			shortest = gap
		}
	}
	return shortest, shortest == 0 || shortest >= need
}

func (m *Manager) changed(s *Schedule, removed bool) {
	if m.Changed != nil {
		m.Changed(s, removed)
	}
}

// List answers `schedule list`: the schedules of r's server or workspace.
func (m *Manager) List(ctx context.Context, r Request) (Reply, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	all, err := m.Store.Schedules(ctx)
	if err != nil {
		return Reply{}, fmt.Errorf("list schedules: %w", err)
	}
	now := m.now()
	var lines []string
	for i := range all {
		s := &all[i]
		if s.Platform != r.Platform || s.Workspace != r.Workspace {
			continue
		}
		next := "no more games"
		if up := s.Upcoming(now, 1); len(up) > 0 {
			next = "next " + fmtGame(up[0])
		}
		where := ""
		if s.Channel != r.Channel {
			where = " (another channel)"
		}
		line := fmt.Sprintf("%s. %s (%s), %s, host %s%s: %s", s.ID, s.When, s.Zone, fmtDuration(s.Length), s.HostName, where, next)
		if len(s.Skip) > 0 {
			var sk []string
			for _, t := range s.Skip {
				sk = append(sk, fmtGame(t.In(mustLoc(s.Zone))))
			}
			line += ", skipping " + strings.Join(sk, ", ")
		}
		if len(s.Options) > 0 {
			line += " · " + strings.Join(s.Options, " ")
		}
		lines = append(lines, line)
	}
	if len(lines) == 0 {
		return Reply{Text: "No games are scheduled here. Add one with `schedule add weekly fri 20:00 tz=Europe/Berlin blinds=10/20`."}, nil
	}
	if len(lines) > maxListed {
		lines = append(lines[:maxListed], fmt.Sprintf("… and %d more.", len(lines)-maxListed))
	}
	return Reply{Text: errs.ClipText("Scheduled games:\n"+strings.Join(lines, "\n"), errs.MaxReply)}, nil
}

func mustLoc(zone string) *time.Location {
	loc, err := time.LoadLocation(zone)
	if err != nil {
		return time.UTC
	}
	return loc
}

// find returns the schedule id of this workspace, or a player error.
func (m *Manager) find(ctx context.Context, r Request, id string) (*Schedule, error) {
	all, err := m.Store.Schedules(ctx)
	if err != nil {
		return nil, fmt.Errorf("load schedules: %w", err)
	}
	for i := range all {
		s := &all[i]
		if s.ID == id && s.Platform == r.Platform && s.Workspace == r.Workspace {
			return s, nil
		}
	}
	return nil, errs.Errorf(errs.Invalid, "There is no schedule %s here: `schedule list` shows the schedules and their IDs.", errs.ClipText(id, errs.MaxQuote))
}

// Named finds the one schedule of r's server or workspace that args name (`schedule verb ID`), or
// refuses with a sentence. The dealer's gate asks it who hosts the schedule before `schedule remove`
// or `schedule skip` runs; each of them finds it again under the manager's lock.
func (m *Manager) Named(ctx context.Context, r Request, args []string, verb string) (*Schedule, error) {
	if len(args) != 1 {
		return nil, errs.Errorf(errs.Invalid, "Name one schedule: `schedule %s ID` (IDs are in `schedule list`).", verb)
	}
	return m.find(ctx, r, strings.TrimPrefix(args[0], "#"))
}

// Remove answers `schedule remove ID`. The dealer's gate has checked that the user is an admin or
// the schedule's host.
func (m *Manager) Remove(ctx context.Context, r Request, args []string) (Reply, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	s, err := m.Named(ctx, r, args, "remove")
	if err != nil {
		return Reply{}, err
	}
	if err := m.Store.DeleteSchedule(ctx, s.ID); err != nil {
		return Reply{}, fmt.Errorf("delete schedule %s: %w", s.ID, err)
	}
	m.changed(s, true)
	return Reply{Text: fmt.Sprintf("Schedule %s (%s) is removed; no more games will be announced. Its past results stay in `leaderboard season`.", s.ID, s.When)}, nil
}

// Skip answers `schedule skip ID`: the schedule's next game is off. The dealer's gate has checked that
// the user is an admin or the schedule's host.
func (m *Manager) Skip(ctx context.Context, r Request, args []string) (Reply, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	s, err := m.Named(ctx, r, args, "skip")
	if err != nil {
		return Reply{}, err
	}
	up := s.Upcoming(m.now(), 2)
	if len(up) == 0 {
		return Reply{}, errs.Errorf(errs.Invalid, "Schedule %s has no game left to skip; remove it with `schedule remove %s`.", s.ID, s.ID)
	}
	if ahead := len(s.Skip); ahead >= MaxSkips {
		return Reply{}, errs.Errorf(errs.TooMany, "Schedule %s already skips %d dates, the most it may: remove it with `schedule remove %s` and add it again later.", s.ID, ahead, s.ID)
	}
	s.Skip = append(s.Skip, up[0])
	if s.Announced && up[0].Equal(s.Next) {
		m.say(s, "k", up[0], render.Message{Text: fmt.Sprintf("The game on %s is off: the host skipped it.", fmtGame(up[0]))})
	}
	if err := m.put(ctx, s); err != nil {
		return Reply{}, err
	}
	text := fmt.Sprintf("The game on %s is skipped.", fmtGame(up[0]))
	if len(up) > 1 {
		text += " The next one is " + fmtGame(up[1]) + "."
	}
	if err := m.send(ctx, s); err != nil {
		m.log().Error("post skip", "schedule", s.ID, "err", err) // the next tick sends it again
	}
	return Reply{Text: text}, nil
}

// channelSchedules returns the schedules an RSVP or season command means: the one whose ID is given
// (by token or argument), or every schedule of the channel (at least one).
func (m *Manager) channelSchedules(ctx context.Context, r Request, id string) ([]*Schedule, error) {
	if id != "" {
		s, err := m.find(ctx, r, strings.TrimPrefix(id, "#"))
		if err != nil {
			return nil, err
		}
		return []*Schedule{s}, nil
	}
	all, err := m.Store.Schedules(ctx)
	if err != nil {
		return nil, fmt.Errorf("load schedules: %w", err)
	}
	var here []*Schedule
	for i := range all {
		if all[i].Platform == r.Platform && all[i].Workspace == r.Workspace && all[i].Channel == r.Channel {
			here = append(here, &all[i])
		}
	}
	if len(here) == 0 {
		return nil, errs.Errorf(errs.Invalid, "No games are scheduled in this channel: `schedule list` shows them all.")
	}
	return here, nil
}

// RSVP answers `rsvp yes|maybe|no [ID]` (and its short forms y, going, m, n, not) for the next game of
// the schedule the ID or the button's token names, else of the channel's schedules.
func (m *Manager) RSVP(ctx context.Context, r Request, args []string) (Reply, error) {
	if len(args) == 0 || len(args) > 2 {
		return Reply{}, errs.Errorf(errs.Invalid, "Answer with `rsvp yes`, `rsvp maybe` or `rsvp no` (or use the buttons on the announcement).")
	}
	var a Answer
	switch strings.ToLower(args[0]) {
	case "yes", "y", "going":
		a = Yes
	case "maybe", "m":
		a = Maybe
	case "no", "n", "not":
		a = No
	default:
		return Reply{}, errs.Errorf(errs.Invalid, "`%s` is not an answer: use `rsvp yes`, `rsvp maybe` or `rsvp no`.", clip(args[0]))
	}
	id := r.Token
	if len(args) == 2 {
		id = args[1]
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	here, err := m.channelSchedules(ctx, r, id)
	if err != nil {
		return Reply{}, err
	}
	// With several schedules in the channel, the answer is for the next game of any of them.
	var s *Schedule
	var up []time.Time
	for _, c := range here {
		if u := c.Upcoming(m.now(), 1); len(u) > 0 && (s == nil || u[0].Before(up[0])) {
			s, up = c, u
		}
	}
	if s == nil {
		if len(here) == 1 {
			return Reply{}, errs.Errorf(errs.Invalid, "Schedule %s has no game left to answer for.", here[0].ID)
		}
		return Reply{}, errs.Errorf(errs.Invalid, "No schedule in this channel has a game left to answer for.")
	}
	rec := RSVP{Schedule: s.ID, Game: up[0], User: r.User, Name: r.UserName, Answer: a, Time: m.now()}
	if err := m.Store.PutRSVP(ctx, rec); err != nil {
		return Reply{}, fmt.Errorf("save rsvp: %w", err)
	}
	word := map[Answer]string{Yes: "You're in", Maybe: "Marked as maybe", No: "Marked as not going"}[a]
	return Reply{Text: fmt.Sprintf("%s for %s. Change your mind any time with the buttons or `rsvp yes|maybe|no`.", word, fmtGame(up[0]))}, nil
}

// Season answers `leaderboard season [ID]`: the season of a schedule, or of the channel's schedules.
func (m *Manager) Season(ctx context.Context, r Request, args []string) (Reply, error) {
	if len(args) > 1 {
		return Reply{}, errs.Errorf(errs.Invalid, "Write `leaderboard season` or `leaderboard season ID`.")
	}
	id := ""
	if len(args) == 1 {
		id = args[0]
	}
	here, err := m.channelSchedules(ctx, r, id)
	if err != nil {
		return Reply{}, err
	}
	var results []Result
	for _, s := range here {
		rs, err := m.Store.Results(ctx, s.ID)
		if err != nil {
			return Reply{}, fmt.Errorf("results of %s: %w", s.ID, err)
		}
		results = append(results, rs...)
	}
	if len(here) == 1 {
		return Reply{Text: SeasonMessage(here[0], results)}, nil
	}
	return Reply{Text: seasonText(fmt.Sprintf("Season of this channel's %d schedules (%s)", len(here), scheduleNames(here)), results)}, nil
}
