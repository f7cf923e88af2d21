package bot

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/dealerbot/dealerbot/bot/errs"
	"github.com/dealerbot/dealerbot/bot/schedule"
	"github.com/dealerbot/dealerbot/bot/table"
	"github.com/dealerbot/dealerbot/render"
)

// ScheduleConfig configures scheduled home games.
type ScheduleConfig struct {
	// DefaultZone is the IANA time zone of a schedule added without tz=; default UTC.
	DefaultZone string
	// Now is the clock; default the dealer's.
	Now func() time.Time
	// Logger receives internal errors; default the dealer's.
	Logger *slog.Logger
}

// Scheduler runs scheduled weekly home games beside a Dealer: it fires what is due (announcements,
// reminders, table openings, settlements). The commands `schedule ...`, `rsvp ...` and `leaderboard
// season` are verbs of the dealer's one verb table (addScheduleVerbs), answered by the scheduler's
// manager once NewScheduler has made it; adapters are given the Dealer.
type Scheduler struct {
	d *Dealer
	m *schedule.Manager
	r *schedule.Runner
}

// NewScheduler returns a scheduler for d keeping its schedules in store (storage.DB). Call Start to
// register the stored schedules and run them, and Close before closing the dealer. It fails when
// DefaultZone is not an IANA time zone.
func NewScheduler(d *Dealer, store schedule.Store, cfg ScheduleConfig) (*Scheduler, error) {
	if cfg.DefaultZone != "" {
		if _, err := schedule.ParseZone(cfg.DefaultZone); err != nil {
			return nil, fmt.Errorf("default time zone for schedules: %w", err)
		}
	}
	if cfg.Now == nil {
		cfg.Now = d.cfg.Now
	}
	if cfg.Logger == nil {
		cfg.Logger = d.log
	}
	s := &Scheduler{d: d}
	s.m = &schedule.Manager{
		Store: store, Host: schedHost{d: d, now: cfg.Now}, Now: cfg.Now, DefaultZone: cfg.DefaultZone, Logger: cfg.Logger,
		Options: schedOptions, Claim: scheduleClaim(d.own), Also: d.remindDebts, // moneyverbs.go
	}
	s.r = schedule.NewRunner(s.m, cfg.Logger)
	d.sched.Store(s.m) // the dealer's verb table now answers the schedule commands
	return s, nil
}

// scheduleVerb is a scheduler's command, run by the manager.
type scheduleVerb func(m *schedule.Manager, ctx context.Context, r schedule.Request, args []string) (schedule.Reply, error)

// addScheduleVerbs puts the scheduler's commands into the command table, every alias an entry:
// schedule (or schedules) add|new, list|ls, remove|rm|delete|cancel and skip; rsvp; leaderboard
// season. The gate checks who may add (an admin or the host of the channel's table) and who may
// remove or skip (an admin or the schedule's host); the manager does not check again.
func addScheduleVerbs(verbs map[string]verb) {
	subs := []struct {
		names []string
		v     verb
	}{
		{[]string{"add", "new"}, verb{need: needChannelHost, refusal: "add a schedule: ask one of them to run `schedule add`", served: true,
			run: inScheduler((*schedule.Manager).Add)}},
		{[]string{"list", "ls"}, verb{need: needAnyone, run: inScheduler(func(m *schedule.Manager, ctx context.Context, r schedule.Request, _ []string) (schedule.Reply, error) {
			return m.List(ctx, r)
		})}},
		{[]string{"remove", "rm", "delete", "cancel"}, verb{need: needOwner, refusal: "remove it", owner: scheduleOwner("remove"), served: true,
			run: inScheduler((*schedule.Manager).Remove)}},
		{[]string{"skip"}, verb{need: needOwner, refusal: "skip it", owner: scheduleOwner("skip"), served: true,
			run: inScheduler((*schedule.Manager).Skip)}},
	}
	for _, head := range []string{"schedule", "schedules"} {
		// The first word alone is the usage; a second word that is no subcommand is refused with it.
		verbs[head] = verb{need: needAnyone, run: inScheduler(func(_ *schedule.Manager, _ context.Context, _ schedule.Request, args []string) (schedule.Reply, error) {
			if len(args) > 0 {
				return schedule.Reply{}, errs.Errorf(errs.Invalid, "I do not know `schedule %s`. %s", errs.ClipText(args[0], errs.MaxQuote), schedule.Usage)
			}
			return schedule.Reply{Text: schedule.Usage}, nil
		})}
		for _, sub := range subs {
			for _, name := range sub.names {
				verbs[head+" "+name] = sub.v
			}
		}
	}
	verbs["rsvp"] = verb{need: needAnyone, served: true, run: inScheduler((*schedule.Manager).RSVP)}
	season := inScheduler((*schedule.Manager).Season)
	verbs["leaderboard season"] = verb{need: needAnyone, run: func(ctx context.Context, d *Dealer, t *actor, cmd Command, args []string, ans *answer) (Reply, error) {
		r, err := season(ctx, d, t, cmd, args, ans)
		if err == nil {
			r.Files = d.seasonChart(ctx, cmd) // stats.go
		}
		return r, err
	}}
}

// errNoScheduler refuses the schedule commands of a dealer that runs no scheduler.
var errNoScheduler = errs.Errorf(errs.Conflict, "Scheduled games are not available here.")

// schedRequest is who sent cmd, and where, for the scheduler.
func schedRequest(cmd Command) schedule.Request {
	return schedule.Request{Platform: cmd.Platform, Workspace: cmd.Workspace, Channel: cmd.Channel, User: cmd.User,
		UserName: cmd.UserName, Token: cmd.Token, Key: cmd.ID}
}

// inScheduler makes f a verb run by the scheduler's manager, once NewScheduler has made one.
func inScheduler(f scheduleVerb) func(ctx context.Context, d *Dealer, _ *actor, cmd Command, args []string, _ *answer) (Reply, error) {
	return func(ctx context.Context, d *Dealer, _ *actor, cmd Command, args []string, _ *answer) (Reply, error) {
		m := d.sched.Load()
		if m == nil {
			return Reply{}, errNoScheduler
		}
		r, err := f(m, ctx, schedRequest(cmd), args)
		if err != nil {
			return Reply{}, err // the dealer's errorReply words and logs it, as every error
		}
		return Reply{Text: r.Text, Buttons: r.Buttons}, nil
	}
}

// scheduleOwner is the owner hook of `schedule verb ID`: the host of the schedule the ID names. A
// schedule's host never changes, so the gate's answer still holds when the manager finds the
// schedule again under its lock.
func scheduleOwner(verb string) func(ctx context.Context, d *Dealer, cmd Command, args []string) (owner, error) {
	return func(ctx context.Context, d *Dealer, cmd Command, args []string) (owner, error) {
		m := d.sched.Load()
		if m == nil {
			return owner{}, errNoScheduler
		}
		s, err := m.Named(ctx, schedRequest(cmd), args, verb)
		if err != nil {
			return owner{}, err
		}
		return owner{user: s.Host, name: s.HostName, of: "schedule " + s.ID}, nil
	}
}

// schedHelpList is the schedule's part of `help` (helpList), schedHelp its details.
const schedHelpList = `schedule add|list|skip|remove — weekly home games
rsvp yes|maybe|no — answer for the next scheduled game
leaderboard season — this channel's season results`

const schedHelp = `schedule add <when> [tz=Zone] [length=3h|end=23:30] [tournament] [game options] — a weekly home game or tournament (host or admin); when: weekly fri 20:00, daily 19:30, every tue,thu 21:00, on 2026-12-04 20:00 or cron
schedule list / schedule skip ID / schedule remove ID — the channel's schedules; skip the next game; stop one
rsvp yes|maybe|no — answer for the next scheduled game
leaderboard season — the season's results of this channel's schedule`

// Start registers every stored schedule, announces starts missed while the bot was down, fires
// what is due and starts the scheduler's clock.
func (s *Scheduler) Start(ctx context.Context) error { return s.r.Start(ctx) }

// Tick fires what is due now; Start's clock calls it, tests call it directly.
func (s *Scheduler) Tick(ctx context.Context) error { return s.m.Tick(ctx) }

// Close stops the scheduler's clock and waits for a running tick. Close it before the dealer.
func (s *Scheduler) Close(ctx context.Context) error {
	s.r.Stop(ctx)
	return nil
}

// schedOptions checks a schedule's game settings the way `start` will read them.
func schedOptions(opts []string) (string, error) {
	st := table.DefaultSettings()
	for _, o := range opts {
		if k, _, _ := strings.Cut(strings.ToLower(o), "="); k == "end" {
			return "", errs.Errorf(errs.Invalid, "Give the game's end as end=23:30 or length=3h before the game settings.")
		}
	}
	if len(opts) > 0 && strings.EqualFold(opts[0], "tournament") {
		st, tr, err := table.ParseTournament(table.DefaultSettings(), opts[1:])
		if err != nil {
			return "", err
		}
		return "tournament: " + tr.Describe(st), nil
	}
	if err := st.Apply(opts); err != nil {
		return "", err
	}
	return st.Describe(), nil
}

// schedTable returns a table's committed record.
func schedTable(ctx context.Context, d *Dealer, id string) (table.TableRecord, bool) {
	rec, ok, err := d.store.Table(ctx, id)
	if err != nil {
		d.log.Error("load table for schedule", "table", id, "err", err)
		return table.TableRecord{}, false
	}
	return rec, ok
}

// schedHost is the dealer as the scheduler sees it.
type schedHost struct {
	d   *Dealer
	now func() time.Time
}

func schedTableID(s *schedule.Schedule) string {
	return s.Platform + "/" + s.Workspace + "/" + s.Channel
}

func (h schedHost) command(s *schedule.Schedule, text string) Command {
	// The scheduler acts with the schedule's own authority: the table it opens names the host, and
	// only this schedule's commands may end that table (Command.Schedule), never another one.
	return Command{Platform: s.Platform, Workspace: s.Workspace, Channel: s.Channel, User: s.Host,
		UserName: s.HostName, Schedule: s.ID, Text: text}
}

// Post posts a schedule's message in its channel. The buttons it carries are the schedule's RSVP
// (the announcement's, offered again by the reminder): each post of them replaces the last (Prompt).
func (h schedHost) Post(ctx context.Context, s *schedule.Schedule, m render.Message) error {
	m.Private = false
	msg := Message{Platform: s.Platform, Workspace: s.Workspace, Channel: s.Channel, Message: m}
	if len(m.Buttons) > 0 {
		msg.Prompt = "rsvp " + s.ID
	}
	return h.d.chat.Send(ctx, msg)
}

// Open runs `start` with the schedule's options and the session's end, as the host.
func (h schedHost) Open(ctx context.Context, s *schedule.Schedule, end time.Time) error {
	mins := int((end.Sub(h.now()) + time.Minute - 1) / time.Minute)
	if mins < 1 {
		mins = 1
	}
	text := strings.TrimSpace("start " + strings.Join(s.Options, " ") + fmt.Sprintf(" end=%dm", mins))
	r := h.d.Handle(ctx, h.command(s, text))
	if r.IsError {
		return errs.Errorf(errs.Conflict, "%s", r.Text)
	}
	return nil
}

// Finish ends the session at its end time (after the hand in play: the dealer's `end`) and reads its
// result from the finished session's standings once the table has closed. Before the end time it
// only looks: the dealer ends a session itself when one player holds every chip.
func (h schedHost) Finish(ctx context.Context, s *schedule.Schedule, g schedule.Session, end bool) ([]schedule.Balance, bool, error) {
	id := schedTableID(s)
	ours := func(sched string, started time.Time) bool {
		return sched == s.ID && !started.Before(g.Start.Add(-schedule.Grace)) && started.Before(g.End)
	}
	if rec, open := schedTable(ctx, h.d, id); open {
		if !ours(rec.Schedule, rec.Started) {
			return nil, true, nil // someone else's game runs here; ours never opened
		}
		if !end {
			return nil, false, nil
		}
		if !rec.Ending {
			cmd := h.command(s, "end")
			cmd.UserName = "The schedule"
			if r := h.d.Handle(ctx, cmd); r.IsError {
				return nil, false, fmt.Errorf("end scheduled session at %s: %s", id, r.Text)
			}
		}
		if _, still := schedTable(ctx, h.d, id); still {
			return nil, false, nil // the hand in play finishes first
		}
	}
	sessions, err := h.d.store.Sessions(ctx)
	if err != nil {
		return nil, false, fmt.Errorf("load sessions: %w", err)
	}
	for i := len(sessions) - 1; i >= 0; i-- {
		ss := sessions[i]
		if ss.Table != id || !ours(ss.Schedule, ss.Started) {
			continue
		}
		var out []schedule.Balance
		for _, st := range ss.Standings {
			out = append(out, schedule.Balance{User: st.User, Name: st.Name, Net: st.CashedOut - st.BoughtIn})
		}
		return out, true, nil
	}
	return nil, true, nil
}
