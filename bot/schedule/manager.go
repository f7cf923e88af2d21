package schedule

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/dealerbot/dealerbot/bot/errs"
	"github.com/dealerbot/dealerbot/render"
)

// Store keeps schedules, RSVPs and results. storage.DB implements it; each method is one transaction.
type Store interface {
	// PutSchedule writes s; when s.ID is empty it first gives s a new ID.
	PutSchedule(ctx context.Context, s *Schedule) error
	// DeleteSchedule removes a schedule and its RSVPs; its results stay for the season.
	DeleteSchedule(ctx context.Context, id string) error
	// Schedules returns every schedule, ordered by ID.
	Schedules(ctx context.Context) ([]Schedule, error)
	// PutRSVP records a player's answer for one game, replacing an earlier one.
	PutRSVP(ctx context.Context, r RSVP) error
	// RSVPs returns the answers for one game, in the order they were first given.
	RSVPs(ctx context.Context, schedule string, game time.Time) ([]RSVP, error)
	// PutResult records a game's result and writes s (which has settled the game) together.
	PutResult(ctx context.Context, r Result, s *Schedule) error
	// Results returns a schedule's results, oldest game first.
	Results(ctx context.Context, schedule string) ([]Result, error)
}

// Host is what the scheduler needs from the dealer.
type Host interface {
	// Post sends a public message to the schedule's channel.
	Post(ctx context.Context, s *Schedule, m render.Message) error
	// Open opens the schedule's table with its game settings (s.Options), hosted by s.Host, to end at
	// end. The error is shown in the channel when it is a player error (a table already running).
	Open(ctx context.Context, s *Schedule, end time.Time) error
	// Finish returns each player's net result for the game that started at game.Start once the
	// session is over; done is false while it still runs. With end set (the end time has come) it
	// first ends the session if it still runs: the hand in play is finished first, so done may stay
	// false for a while. Without end it only looks (a session may end early, when one player has
	// every chip).
	Finish(ctx context.Context, s *Schedule, game Session, end bool) (players []Balance, done bool, err error)
}

// Request is a chat command for the scheduler, as the bot received it.
type Request struct {
	Platform  string
	Workspace string
	Channel   string
	User      string
	UserName  string
	Admin     bool
	Text      string // "schedule add weekly fri 20:00 tz=Europe/Berlin", "rsvp yes", "leaderboard season"
	Token     string // the schedule ID on an RSVP button
}

// Reply is the private answer to a Request.
type Reply struct {
	Text    string
	IsError bool
	Buttons []render.Button
}

// Manager answers the schedule commands and fires due events. Its zero value is not usable: set
// Store, Host and Options. It is safe for concurrent use; commands and ticks run one at a time.
type Manager struct {
	Store Store
	Host  Host
	// Now is the clock; default time.Now.
	Now func() time.Time
	// DefaultZone is the time zone of a schedule added without tz=; default UTC.
	DefaultZone string
	// Options checks a schedule's game settings (the `start` options) and describes them in one line.
	// The error is shown to the host as it is.
	Options func(opts []string) (string, error)
	// IsHost reports whether the user may add schedules without being an admin (they host the
	// channel's table, say). Nil: only admins add schedules.
	IsHost func(ctx context.Context, r Request) bool
	// Mention writes a user mention; default <@ID> on Discord and Slack, @Name elsewhere.
	Mention func(platform, user, name string) string
	// Changed is called after a schedule is added, removed or advanced, so the cron wiring can
	// register it again; nil for none.
	Changed func(s *Schedule, removed bool)
	// Logger receives internal errors; default discards.
	Logger *slog.Logger

	mu sync.Mutex
}

func (m *Manager) now() time.Time {
	if m.Now != nil {
		return m.Now()
	}
	return time.Now()
}

func (m *Manager) log() *slog.Logger {
	if m.Logger != nil {
		return m.Logger
	}
	return slog.New(slog.DiscardHandler)
}

func (m *Manager) mention(platform, user, name string) string {
	if m.Mention != nil {
		return m.Mention(platform, user, name)
	}
	if platform == "discord" || platform == "slack" {
		return "<@" + user + ">"
	}
	return "@" + name
}

// errReply turns an error into the private reply: player errors as written, others as an apology.
func (m *Manager) errReply(err error) Reply {
	text, internal := errs.Reply(err)
	if internal {
		m.log().Error("schedule command failed", "err", err)
	}
	return Reply{Text: text, IsError: true}
}

const usage = "Schedule commands: `schedule add <when> [tz=Europe/Berlin] [length=3h | end=23:30] " +
	"[announce=24h] [remind=30m] [from=2026-12-01] [game options like blinds=10/20 buyin=1000 levels=20m rebuy=2 timer=60]`, " +
	"`schedule list`, `schedule remove ID`, `schedule skip ID`. When: " + whenHelp + "."

// Handle answers the scheduler's commands: schedule add|list|remove|skip, rsvp yes|maybe|no and
// leaderboard season. ok is false for any other command, which the caller passes on to the dealer.
func (m *Manager) Handle(ctx context.Context, r Request) (reply Reply, ok bool) {
	f := strings.Fields(r.Text)
	if len(f) == 0 {
		return Reply{}, false
	}
	var err error
	switch strings.ToLower(f[0]) {
	case "schedule", "schedules":
		reply, err = m.schedule(ctx, r, f[1:])
	case "rsvp":
		reply, err = m.rsvp(ctx, r, f[1:])
	case "leaderboard":
		if len(f) < 2 || strings.ToLower(f[1]) != "season" {
			return Reply{}, false
		}
		reply, err = m.season(ctx, r, f[2:])
	default:
		return Reply{}, false
	}
	if err != nil {
		return m.errReply(err), true
	}
	return reply, true
}

func (m *Manager) schedule(ctx context.Context, r Request, args []string) (Reply, error) {
	if len(args) == 0 {
		return Reply{Text: usage}, nil
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	switch strings.ToLower(args[0]) {
	case "add", "new":
		return m.add(ctx, r, args[1:])
	case "list", "ls":
		return m.list(ctx, r)
	case "remove", "rm", "delete", "cancel":
		return m.remove(ctx, r, args[1:])
	case "skip":
		return m.skip(ctx, r, args[1:])
	}
	return Reply{}, errorf("I do not know `schedule %s`. %s", args[0], usage)
}

const dateLayout = "Mon 2 Jan 2006 15:04 MST"

func fmtGame(t time.Time) string { return t.Format(dateLayout) }

func fmtDuration(d time.Duration) string {
	switch {
	case d == 0:
		return "0 min"
	case d%time.Hour == 0:
		return fmt.Sprintf("%d h", d/time.Hour)
	case d > time.Hour:
		return fmt.Sprintf("%d h %d min", d/time.Hour, d%time.Hour/time.Minute)
	}
	return fmt.Sprintf("%d min", d/time.Minute)
}

// parseDuration reads 90m, 3h, 1h30m or 2d.
func parseDuration(key, val string, lo, hi time.Duration) (time.Duration, error) {
	d, err := time.ParseDuration(val)
	if strings.HasSuffix(val, "d") {
		var n int
		n, err = strconv.Atoi(strings.TrimSuffix(val, "d"))
		d = time.Duration(n) * 24 * time.Hour
	}
	if err != nil || d < lo || d > hi || d%time.Minute != 0 {
		return 0, errorf("Write %s= as whole minutes or hours between %s and %s, like %s=90m or %s=3h.", key, fmtDuration(lo), fmtDuration(hi), key, key)
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

func (m *Manager) mayAdd(ctx context.Context, r Request) bool {
	return r.Admin || (m.IsHost != nil && m.IsHost(ctx, r))
}

func (m *Manager) add(ctx context.Context, r Request, args []string) (Reply, error) {
	if !m.mayAdd(ctx, r) {
		return Reply{}, errorf("Only an admin or the host of this channel's table can add a schedule: ask one of them to run `schedule add`.")
	}
	var when, opts []string
	kv := map[string]string{}
	for _, a := range args {
		key, val, isKV := strings.Cut(a, "=")
		if !isKV && strings.EqualFold(a, "tournament") {
			// The game is a tournament: `start tournament` with the options that follow.
			if slices.ContainsFunc(opts, func(o string) bool { return strings.EqualFold(o, "tournament") }) {
				return Reply{}, errorf("Write tournament once.")
			}
			opts = append([]string{"tournament"}, opts...)
			continue
		}
		if !isKV {
			if len(opts) > 0 || len(kv) > 0 {
				return Reply{}, errorf("Put the time first and the key=value options after it: `%s` came after the options.", a)
			}
			when = append(when, a)
			continue
		}
		switch k := strings.ToLower(key); k {
		case "tz", "zone", "timezone", "length", "end", "announce", "remind", "from":
			if _, dup := kv[k]; dup {
				return Reply{}, errorf("%s= is given twice: keep one.", k)
			}
			kv[k] = val
		default:
			opts = append(opts, a)
		}
	}
	if len(when) == 0 {
		return Reply{}, errorf("Say when the game is, for example `schedule add weekly fri 20:00 tz=Europe/Berlin`. Forms: %s.", whenHelp)
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
			return Reply{}, errorf("Write from= as a date YYYY-MM-DD, like from=%s.", now.In(loc).AddDate(0, 0, 7).Format("2006-01-02"))
		}
		if !from.AddDate(0, 0, 1).After(now) {
			return Reply{}, errorf("from=%s is in the past: give today's date or a later one.", v)
		}
		if spec.From.IsZero() || from.After(spec.From) {
			spec.From = from
		}
	}
	first := spec.Next(now)
	if first.IsZero() {
		if !spec.Until.IsZero() {
			return Reply{}, errorf("%s is in the past: give a date and time still to come.", spec.From.Format("2006-01-02"))
		}
		return Reply{}, errorf("%q never comes round (check the day and month): write %s.", strings.Join(when, " "), whenHelp)
	}
	s := &Schedule{Platform: r.Platform, Workspace: r.Workspace, Channel: r.Channel, Host: r.User, HostName: r.UserName,
		When: strings.Join(when, " "), Cron: spec.Cron, Zone: loc.String(), From: spec.From, Until: spec.Until,
		Length: DefaultLength, Announce: DefaultAnnounce, Remind: DefaultRemind, Options: opts, Created: now, Next: first}
	_, hasLength := kv["length"]
	endVal, hasEnd := kv["end"]
	switch {
	case hasLength && hasEnd:
		return Reply{}, errorf("Give either length= or end=, not both.")
	case hasLength:
		if s.Length, err = parseDuration("length", kv["length"], 15*time.Minute, 24*time.Hour); err != nil {
			return Reply{}, err
		}
	case hasEnd && strings.Contains(endVal, ":"):
		h, mi, err := parseClock(endVal)
		if err != nil {
			return Reply{}, errorf("Write end= as the clock time the game ends, like end=23:30, or its length, like length=3h.")
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
		return Reply{}, errorf("Games of one schedule must start at least %s apart and not overlap (%s a game), but these come %s apart: choose fewer times, like `weekly fri 20:00` or `daily 19:30`.",
			fmtDuration(max(MinPeriod, s.Length)), fmtDuration(s.Length), fmtDuration(gap))
	}
	if s.Remind > s.Announce {
		return Reply{}, errorf("The reminder (%s before) cannot come before the announcement (%s before): make remind= shorter than announce=.", fmtDuration(s.Remind), fmtDuration(s.Announce))
	}
	desc := ""
	if m.Options != nil {
		if desc, err = m.Options(opts); err != nil {
			return Reply{}, err
		}
	}
	s.Game = desc
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

func (m *Manager) list(ctx context.Context, r Request) (Reply, error) {
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
	return nil, errorf("There is no schedule %s here: `schedule list` shows the schedules and their IDs.", id)
}

// manageable finds the schedule named in args that the user may manage.
func (m *Manager) manageable(ctx context.Context, r Request, args []string, verb string) (*Schedule, error) {
	if len(args) != 1 {
		return nil, errorf("Name one schedule: `schedule %s ID` (IDs are in `schedule list`).", verb)
	}
	s, err := m.find(ctx, r, strings.TrimPrefix(args[0], "#"))
	if err != nil {
		return nil, err
	}
	if !r.Admin && r.User != s.Host {
		return nil, errorf("Only %s, who hosts schedule %s, or an admin can %s it.", s.HostName, s.ID, verb)
	}
	return s, nil
}

func (m *Manager) remove(ctx context.Context, r Request, args []string) (Reply, error) {
	s, err := m.manageable(ctx, r, args, "remove")
	if err != nil {
		return Reply{}, err
	}
	if err := m.Store.DeleteSchedule(ctx, s.ID); err != nil {
		return Reply{}, fmt.Errorf("delete schedule %s: %w", s.ID, err)
	}
	m.changed(s, true)
	return Reply{Text: fmt.Sprintf("Schedule %s (%s) is removed; no more games will be announced. Its past results stay in `leaderboard season`.", s.ID, s.When)}, nil
}

func (m *Manager) skip(ctx context.Context, r Request, args []string) (Reply, error) {
	s, err := m.manageable(ctx, r, args, "skip")
	if err != nil {
		return Reply{}, err
	}
	up := s.Upcoming(m.now(), 2)
	if len(up) == 0 {
		return Reply{}, errorf("Schedule %s has no game left to skip; remove it with `schedule remove %s`.", s.ID, s.ID)
	}
	if ahead := len(s.Skip); ahead >= MaxSkips {
		return Reply{}, errs.Errorf(errs.TooMany, "Schedule %s already skips %d dates, the most it may: remove it with `schedule remove %s` and add it again later.", s.ID, ahead, s.ID)
	}
	s.Skip = append(s.Skip, up[0])
	if err := m.Store.PutSchedule(ctx, s); err != nil {
		return Reply{}, fmt.Errorf("save schedule %s: %w", s.ID, err)
	}
	m.changed(s, false)
	text := fmt.Sprintf("The game on %s is skipped.", fmtGame(up[0]))
	if len(up) > 1 {
		text += " The next one is " + fmtGame(up[1]) + "."
	}
	if s.Announced && up[0].Equal(s.Next) {
		if err := m.Host.Post(ctx, s, render.Message{Text: fmt.Sprintf("The game on %s is off: the host skipped it.", fmtGame(up[0]))}); err != nil {
			m.log().Error("post skip", "schedule", s.ID, "err", err)
		}
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
		return nil, errorf("No games are scheduled in this channel: `schedule list` shows them all.")
	}
	return here, nil
}

func (m *Manager) rsvp(ctx context.Context, r Request, args []string) (Reply, error) {
	if len(args) == 0 || len(args) > 2 {
		return Reply{}, errorf("Answer with `rsvp yes`, `rsvp maybe` or `rsvp no` (or use the buttons on the announcement).")
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
		return Reply{}, errorf("`%s` is not an answer: use `rsvp yes`, `rsvp maybe` or `rsvp no`.", args[0])
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
			return Reply{}, errorf("Schedule %s has no game left to answer for.", here[0].ID)
		}
		return Reply{}, errorf("No schedule in this channel has a game left to answer for.")
	}
	rec := RSVP{Schedule: s.ID, Game: up[0], User: r.User, Name: r.UserName, Answer: a, Time: m.now()}
	if err := m.Store.PutRSVP(ctx, rec); err != nil {
		return Reply{}, fmt.Errorf("save rsvp: %w", err)
	}
	word := map[Answer]string{Yes: "You're in", Maybe: "Marked as maybe", No: "Marked as not going"}[a]
	return Reply{Text: fmt.Sprintf("%s for %s. Change your mind any time with the buttons or `rsvp yes|maybe|no`.", word, fmtGame(up[0]))}, nil
}

func (m *Manager) season(ctx context.Context, r Request, args []string) (Reply, error) {
	if len(args) > 1 {
		return Reply{}, errorf("Write `leaderboard season` or `leaderboard season ID`.")
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

// scheduleNames lists schedules as "a1 (weekly fri 20:00), b2 (...)".
func scheduleNames(ss []*Schedule) string {
	var parts []string
	for _, s := range ss {
		parts = append(parts, fmt.Sprintf("%s, %s", s.ID, s.When))
	}
	return strings.Join(parts, "; ")
}

// SeasonMessage is the season leaderboard of a schedule.
func SeasonMessage(s *Schedule, results []Result) string {
	return seasonText(fmt.Sprintf("Season of schedule %s (%s)", s.ID, s.When), results)
}

// seasonText is a season leaderboard under title, over results of one or more schedules.
func seasonText(title string, results []Result) string {
	lines := []string{fmt.Sprintf("%s: %d %s", title, len(results), plural(len(results), "game", "games"))}
	st := Season(results)
	if len(st) == 0 {
		lines = append(lines, "No results yet: the first game will start the season.")
	}
	for i, p := range st {
		lines = append(lines, fmt.Sprintf("%d. %s %s · %d %s · best %s · %d %s won", i+1, p.Name, signed(p.Net),
			p.Games, plural(p.Games, "game", "games"), signed(p.Best), p.Wins, plural(p.Wins, "night", "nights")))
	}
	return strings.Join(lines, "\n")
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func signed(n int64) string {
	if n > 0 {
		return "+" + render.Chips(n)
	}
	return render.Chips(n)
}

// rsvpButtons are the announcement's buttons; the token is the schedule ID.
func rsvpButtons(id string) []render.Button {
	return []render.Button{
		{Label: "Going", Command: "rsvp yes", Token: id, Style: render.Success},
		{Label: "Maybe", Command: "rsvp maybe", Token: id, Style: render.Secondary},
		{Label: "Not going", Command: "rsvp no", Token: id, Style: render.Danger},
	}
}

// answers groups a game's RSVPs by answer, in the order they came.
func answers(rs []RSVP) map[Answer][]RSVP {
	out := map[Answer][]RSVP{}
	for _, r := range rs {
		out[r.Answer] = append(out[r.Answer], r)
	}
	return out
}

func (m *Manager) mentions(s *Schedule, rs []RSVP) string {
	var ms []string
	for _, r := range rs {
		ms = append(ms, m.mention(s.Platform, r.User, r.Name))
	}
	return strings.Join(ms, ", ")
}

// Tick fires every event that is due now for every schedule, in order, and saves each schedule's
// progress. A schedule's progress is saved before its messages go out, so a crash in between loses a
// message rather than opening a table twice. It returns the first internal error after trying every
// schedule.
func (m *Manager) Tick(ctx context.Context) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	all, err := m.Store.Schedules(ctx)
	if err != nil {
		return fmt.Errorf("load schedules: %w", err)
	}
	var first error
	for i := range all {
		if err := m.tick(ctx, &all[i]); err != nil {
			m.log().Error("schedule tick", "schedule", all[i].ID, "err", err)
			if first == nil {
				first = err
			}
		}
	}
	return first
}

func (m *Manager) tick(ctx context.Context, s *Schedule) error {
	spec, err := s.Spec()
	if err != nil {
		return fmt.Errorf("schedule %s: %w", s.ID, err)
	}
	now := m.now()
	before := *s
	before.Skip = slices.Clone(s.Skip)
	before.Open = slices.Clone(s.Open)
	evs := Due(s, spec, now)
	if len(evs) == 0 {
		return m.early(ctx, s, spec, now, nil)
	}
	if !sameState(&before, s) {
		if err := m.Store.PutSchedule(ctx, s); err != nil {
			return fmt.Errorf("save schedule %s: %w", s.ID, err)
		}
		m.changed(s, false)
	}
	for _, e := range evs {
		if err := m.fire(ctx, s, spec, e, now); err != nil {
			return fmt.Errorf("%s %s of schedule %s: %w", e.Kind, fmtGame(e.At), s.ID, err)
		}
	}
	return m.early(ctx, s, spec, now, evs)
}

// early settles a game whose session ended before its end time (one player won every chip, or the
// host ended it), so the results do not wait for the end time, and opens a game that waits for its
// table (not in the tick that just tried: fired are its events).
func (m *Manager) early(ctx context.Context, s *Schedule, spec *Spec, now time.Time, fired []Event) error {
	for _, o := range slices.Clone(s.Open) {
		if !now.Before(o.End) {
			continue // Due's Settle handles it
		}
		if o.Waiting {
			if slices.ContainsFunc(fired, func(e Event) bool { return e.Kind == Start && e.At.Equal(o.Start) }) {
				continue
			}
			if err := m.Host.Open(ctx, s, o.End); err != nil {
				var pe *Error
				if errors.As(err, &pe) {
					continue // still not possible: try at the next tick
				}
				return err
			}
			if err := m.setWaiting(ctx, s, o.Start, false); err != nil {
				return err
			}
			rs, err := m.Store.RSVPs(ctx, s.ID, o.Start)
			if err != nil {
				return err
			}
			if err := m.opened(ctx, s, rs, o.Start.In(spec.Loc), o.End.In(spec.Loc)); err != nil {
				return err
			}
			continue
		}
		players, done, err := m.Host.Finish(ctx, s, o, false)
		if err != nil {
			return fmt.Errorf("check game %s of schedule %s: %w", fmtGame(o.Start), s.ID, err)
		}
		if !done || len(players) == 0 {
			continue // still playing, or it never opened: wait for the end time
		}
		if err := m.record(ctx, s, Result{Schedule: s.ID, Game: o.Start, Ended: now, Players: players}, spec.Loc); err != nil {
			return err
		}
	}
	return nil
}

func sameState(a, b *Schedule) bool {
	return a.Next.Equal(b.Next) && a.Announced == b.Announced && a.Reminded == b.Reminded &&
		slices.EqualFunc(a.Skip, b.Skip, time.Time.Equal) && len(a.Open) == len(b.Open)
}

func (m *Manager) fire(ctx context.Context, s *Schedule, spec *Spec, e Event, now time.Time) error {
	loc := spec.Loc
	at := e.At.In(loc)
	switch e.Kind {
	case Announce:
		rs, err := m.Store.RSVPs(ctx, s.ID, e.At)
		if err != nil {
			return err
		}
		text := fmt.Sprintf("🃏 Home game on %s (%s), hosted by %s, %s long.", fmtGame(at), untilText(at.Sub(now)), s.HostName, fmtDuration(s.Length))
		switch {
		case s.Game != "":
			text += " Game: " + s.Game + "."
		case len(s.Options) > 0:
			text += " Settings: " + strings.Join(s.Options, " ") + "."
		}
		text += " Are you playing?"
		if yes := answers(rs)[Yes]; len(yes) > 0 {
			text += fmt.Sprintf(" Going so far: %s.", names(yes))
		}
		return m.Host.Post(ctx, s, render.Message{Text: text, Buttons: rsvpButtons(s.ID)})
	case Remind:
		rs, err := m.Store.RSVPs(ctx, s.ID, e.At)
		if err != nil {
			return err
		}
		by := answers(rs)
		text := fmt.Sprintf("⏰ The game starts %s (%s).", untilText(at.Sub(now)), at.Format("15:04 MST"))
		if len(by[Yes]) > 0 {
			text += " Going: " + m.mentions(s, by[Yes]) + "."
		} else {
			text += " Nobody has said they are going yet."
		}
		if len(by[Maybe]) > 0 {
			text += " Maybe: " + names(by[Maybe]) + "."
		}
		return m.Host.Post(ctx, s, render.Message{Text: text, Buttons: rsvpButtons(s.ID)})
	case Start:
		rs, err := m.Store.RSVPs(ctx, s.ID, e.At)
		if err != nil {
			return err
		}
		if err := m.Host.Open(ctx, s, e.End); err != nil {
			var pe *Error
			if !errors.As(err, &pe) {
				return err
			}
			// Most often another table is still open here: the game waits for it (see early).
			if err := m.setWaiting(ctx, s, e.At, true); err != nil {
				return err
			}
			return m.Host.Post(ctx, s, render.Message{Text: fmt.Sprintf("I could not open the table for the %s game yet: %s "+
				"I will open it as soon as I can, until %s.", at.Format("15:04 MST"), strings.TrimSpace(pe.Message), e.End.In(loc).Format("15:04 MST"))})
		}
		return m.opened(ctx, s, rs, at, e.End.In(loc))
	case Missed:
		text := fmt.Sprintf("I was offline and missed the game on %s", fmtGame(at))
		if e.Count > 1 {
			text += fmt.Sprintf(" (and the %d before it)", e.Count-1)
		}
		text += ": it did not take place."
		if up := s.Upcoming(now, 1); len(up) > 0 {
			text += " The next game is " + fmtGame(up[0]) + "."
		}
		return m.Host.Post(ctx, s, render.Message{Text: text})
	case Settle:
		return m.settle(ctx, s, e, now, loc)
	}
	return nil
}

// opened tells the channel a game's table is open, naming those who said they would come.
func (m *Manager) opened(ctx context.Context, s *Schedule, rs []RSVP, at, end time.Time) error {
	by := answers(rs)
	text := fmt.Sprintf("The %s game is open until %s: type `join` to sit down.", at.Format("15:04 MST"), end.Format("15:04 MST"))
	if who := append(by[Yes], by[Maybe]...); len(who) > 0 {
		text = m.mentions(s, who) + ": " + text
	}
	return m.Host.Post(ctx, s, render.Message{Text: text})
}

// setWaiting marks the open game that started at start as waiting for its table (or no longer), and
// saves the schedule.
func (m *Manager) setWaiting(ctx context.Context, s *Schedule, start time.Time, waiting bool) error {
	for i := range s.Open {
		if s.Open[i].Start.Equal(start) {
			s.Open[i].Waiting = waiting
		}
	}
	if err := m.Store.PutSchedule(ctx, s); err != nil {
		return fmt.Errorf("save schedule %s: %w", s.ID, err)
	}
	m.changed(s, false)
	return nil
}

func (m *Manager) settle(ctx context.Context, s *Schedule, e Event, now time.Time, loc *time.Location) error {
	players, done, err := m.Host.Finish(ctx, s, Session{Start: e.At, End: e.End}, true)
	if err != nil {
		return err
	}
	if !done && now.Before(e.End.Add(SettleWait)) {
		return nil // the last hand is still being played: try again at the next tick
	}
	return m.record(ctx, s, Result{Schedule: s.ID, Game: e.At, Ended: now, Players: players}, loc)
}

// record stores a game's result with the schedule's progress and posts the results and settle-up.
func (m *Manager) record(ctx context.Context, s *Schedule, res Result, loc *time.Location) error {
	s.Settled(res.Game)
	if err := m.Store.PutResult(ctx, res, s); err != nil {
		return fmt.Errorf("save result: %w", err)
	}
	m.changed(s, false)
	if len(res.Players) == 0 {
		return m.Host.Post(ctx, s, render.Message{Text: fmt.Sprintf("The %s game is over; nobody played.", fmtGame(res.Game.In(loc)))})
	}
	return m.Host.Post(ctx, s, render.Message{Text: ResultMessage(res, loc)})
}

// ResultMessage is the night's results and the settle-up list.
func ResultMessage(r Result, loc *time.Location) string {
	ps := slices.Clone(r.Players)
	slices.SortStableFunc(ps, func(a, b Balance) int {
		if a.Net != b.Net {
			if a.Net > b.Net {
				return -1
			}
			return 1
		}
		return strings.Compare(a.Name, b.Name)
	})
	lines := []string{fmt.Sprintf("Results of the %s game:", fmtGame(r.Game.In(loc)))}
	for i, p := range ps {
		lines = append(lines, fmt.Sprintf("%d. %s %s", i+1, p.Name, signed(p.Net)))
	}
	pay, err := SettleUp(r.Players)
	if err != nil {
		lines = append(lines, "Settle-up: "+err.Error()+".")
	} else {
		lines = append(lines, SettleMessage(pay))
	}
	return strings.Join(lines, "\n")
}

func names(rs []RSVP) string {
	var ns []string
	for _, r := range rs {
		ns = append(ns, r.Name)
	}
	return strings.Join(ns, ", ")
}

// untilText says how far away a game is: "in 24 hours", "in 30 minutes", "now".
func untilText(d time.Duration) string {
	d = d.Round(time.Minute)
	switch {
	case d <= 0:
		return "now"
	case d >= 2*time.Hour:
		return fmt.Sprintf("in %d hours", int(d.Round(time.Hour)/time.Hour))
	case d >= time.Hour:
		return "in " + fmtDuration(d)
	case d == time.Minute:
		return "in 1 minute"
	}
	return fmt.Sprintf("in %d minutes", int(d/time.Minute))
}
