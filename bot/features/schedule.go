package features

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/dealerbot/dealerbot/bot"
	"github.com/dealerbot/dealerbot/bot/errs"
	"github.com/dealerbot/dealerbot/bot/money"
	"github.com/dealerbot/dealerbot/bot/schedule"
	"github.com/dealerbot/dealerbot/bot/table"
	"github.com/dealerbot/dealerbot/bot/vocab"
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
// season` are verbs of the dealer's registry (With put them there), answered by the scheduler's
// manager once NewScheduler has made it.
type Scheduler struct {
	m *schedule.Manager
	r *schedule.Runner
}

// NewScheduler returns a scheduler for d keeping its schedules in store. Call Start to register the
// stored schedules and run them, and Close before closing the dealer. It fails when DefaultZone is
// not an IANA time zone, or when d was not made with the schedule's verbs (With).
func NewScheduler(d *bot.Dealer, store Store, cfg ScheduleConfig) (*Scheduler, error) {
	if cfg.DefaultZone != "" {
		if _, err := schedule.ParseZone(cfg.DefaultZone); err != nil {
			return nil, fmt.Errorf("default time zone for schedules: %w", err)
		}
	}
	v, _ := d.Verb("schedule")
	desk := schedule.DeskOf(v)
	if desk == nil {
		return nil, fmt.Errorf("the dealer has no schedule verbs: make it with features.With")
	}
	env := d.Env()
	if cfg.Now == nil {
		cfg.Now = env.Now
	}
	if cfg.Logger == nil {
		cfg.Logger = env.Log()
	}
	s := &Scheduler{}
	s.m = &schedule.Manager{
		Store: store, Host: scheduleHost{d: d, store: store, env: env, now: cfg.Now}, Now: cfg.Now, DefaultZone: cfg.DefaultZone, Logger: cfg.Logger,
		Options: scheduleOptions,
		Also:    func(ctx context.Context) error { return money.RemindDebts(ctx, store, env) },
		Claim: func(ctx context.Context, s *schedule.Schedule) (context.Context, bool) {
			return env.Fence(ctx, table.Community(s.Platform, s.Workspace))
		},
	}
	s.r = schedule.NewRunner(s.m, cfg.Logger)
	desk.Serve(s.m) // the dealer's registry now answers the schedule commands
	return s, nil
}

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

// scheduleOptions checks a schedule's game settings the way `start` will read them.
func scheduleOptions(opts []string) (string, error) {
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

// scheduleHost is the dealer as the scheduler sees it (schedule.Host).
type scheduleHost struct {
	d     *bot.Dealer
	store bot.Store
	env   vocab.Env
	now   func() time.Time
}

// command is text sent with the schedule's own authority: the table it opens names the host, and
// only this schedule's commands may end that table (Command.Schedule), never another one.
func (h scheduleHost) command(s *schedule.Schedule, text string) bot.Command {
	return bot.Command{Platform: s.Platform, Workspace: s.Workspace, Channel: s.Channel, User: s.Host,
		UserName: s.HostName, Schedule: s.ID, Text: text}
}

// table returns a table's committed record.
func (h scheduleHost) table(ctx context.Context, id string) (table.TableRecord, bool) {
	rec, ok, err := h.store.Table(ctx, id)
	if err != nil {
		h.env.Log().Error("load table for schedule", "table", id, "err", err)
		return table.TableRecord{}, false
	}
	return rec, ok
}

// Post posts a schedule's message in its channel. The buttons it carries are the schedule's RSVP
// (the announcement's, offered again by the reminder): each post of them replaces the last (prompt).
func (h scheduleHost) Post(ctx context.Context, s *schedule.Schedule, key string, m render.Message) error {
	prompt := ""
	if len(m.Buttons) > 0 {
		prompt = "rsvp " + s.ID
	}
	return h.env.Post(ctx, h.command(s, ""), prompt, key, m)
}

// ours reports whether a table or session of the schedule's channel, started at started by schedule
// sched, is game's.
func ours(s *schedule.Schedule, g schedule.Session, sched string, started time.Time) bool {
	return sched == s.ID && !started.Before(g.Start.Add(-schedule.Grace)) && started.Before(g.End)
}

// Found reports what became of game g's table: open in the schedule's channel, played (a session
// of the schedule's in the game's time is stored), or never opened.
func (h scheduleHost) Found(ctx context.Context, s *schedule.Schedule, g schedule.Session) (schedule.Found, error) {
	id := h.command(s, "").TableID()
	rec, open, err := h.store.Table(ctx, id)
	if err != nil {
		return 0, fmt.Errorf("load table %s: %w", id, err)
	}
	if open && ours(s, g, rec.Schedule, rec.Started) {
		return schedule.IsOpen, nil
	}
	switch ss, err := h.played(ctx, s, g); {
	case err != nil:
		return 0, err
	case ss != nil:
		return schedule.Played, nil
	}
	return schedule.NotOpened, nil
}

// played returns the newest stored session of game g at the schedule's channel, nil when none was.
func (h scheduleHost) played(ctx context.Context, s *schedule.Schedule, g schedule.Session) (*table.SessionRecord, error) {
	id := h.command(s, "").TableID()
	sessions, err := h.store.Sessions(ctx)
	if err != nil {
		return nil, fmt.Errorf("load sessions: %w", err)
	}
	for i := len(sessions) - 1; i >= 0; i-- {
		if ss := sessions[i]; ss.Table == id && ours(s, g, ss.Schedule, ss.Started) {
			return &ss, nil
		}
	}
	return nil, nil
}

// Open runs `start` with the schedule's options and the session's end, as the host.
func (h scheduleHost) Open(ctx context.Context, s *schedule.Schedule, g schedule.Session) error {
	mins := int((g.End.Sub(h.now()) + time.Minute - 1) / time.Minute)
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
func (h scheduleHost) Finish(ctx context.Context, s *schedule.Schedule, g schedule.Session, end bool) ([]schedule.Balance, bool, error) {
	id := h.command(s, "").TableID()
	if rec, open := h.table(ctx, id); open {
		if !ours(s, g, rec.Schedule, rec.Started) {
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
		if _, still := h.table(ctx, id); still {
			return nil, false, nil // the hand in play finishes first
		}
	}
	ss, err := h.played(ctx, s, g)
	if err != nil || ss == nil {
		return nil, err == nil, err
	}
	var out []schedule.Balance
	for _, st := range ss.Standings {
		out = append(out, schedule.Balance{User: st.User, Name: st.Name, Net: st.CashedOut - st.BoughtIn})
	}
	return out, true, nil
}
