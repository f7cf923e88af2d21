package schedule

import (
	"context"
	"sync/atomic"
	"time"

	"github.com/dealerbot/dealerbot/bot/errs"
	"github.com/dealerbot/dealerbot/bot/vocab"
	"github.com/dealerbot/dealerbot/render"
)

// Desk answers the schedule verbs: through the Manager of the scheduler that runs beside the dealer
// (Serve), or, while none runs, with a refusal saying scheduled games are not available.
type Desk struct{ m atomic.Pointer[Manager] }

// Serve makes m answer the desk's verbs.
func (d *Desk) Serve(m *Manager) { d.m.Store(m) }

// Manager is the manager answering the desk's verbs, nil while no scheduler runs.
func (d *Desk) Manager() *Manager { return d.m.Load() }

// errNoScheduler refuses the schedule commands of a dealer that runs no scheduler.
var errNoScheduler = errs.Errorf(errs.Conflict, "Scheduled games are not available here.")

// Verbs are the schedule's verbs, every alias an entry: schedule (or schedules) add|new, list|ls,
// remove|rm|delete|cancel and skip; rsvp; leaderboard season. The dealer's gate checks who may add
// (an admin or the host of the channel's table) and who may remove or skip (an admin or the
// schedule's host); the manager does not check again. chart, when set, draws what the season's
// leaderboard shows besides its text (the stats' chart of the season).
func (d *Desk) Verbs(chart func(ctx context.Context, env vocab.Env, cmd vocab.Command) []render.File) vocab.Verbs {
	verbs := vocab.Verbs{}
	subs := []struct {
		names []string
		v     vocab.Verb
	}{
		{[]string{"add", "new"}, vocab.Verb{Need: vocab.ChannelHost, Refusal: "add a schedule: ask one of them to run `schedule add`", Served: true,
			Runner: d.run((*Manager).Add)}},
		{[]string{"list", "ls"}, vocab.Verb{Need: vocab.Anyone, Runner: d.run(func(m *Manager, ctx context.Context, r Request, _ []string) (Reply, error) {
			return m.List(ctx, r)
		})}},
		{[]string{"remove", "rm", "delete", "cancel"}, vocab.Verb{Need: vocab.Holder, Refusal: "remove it", Holder: d.holder("remove"), Served: true,
			Runner: d.run((*Manager).Remove)}},
		{[]string{"skip"}, vocab.Verb{Need: vocab.Holder, Refusal: "skip it", Holder: d.holder("skip"), Served: true,
			Runner: d.run((*Manager).Skip)}},
	}
	for _, head := range []string{"schedule", "schedules"} {
		// The first word alone is the usage; a second word that is no subcommand is refused with it.
		verbs[head] = vocab.Verb{Need: vocab.Anyone, Runner: d.run(func(_ *Manager, _ context.Context, _ Request, args []string) (Reply, error) {
			if len(args) > 0 {
				return Reply{}, errs.Errorf(errs.Invalid, "I do not know `schedule %s`. %s", errs.ClipText(args[0], errs.MaxQuote), Usage)
			}
			return Reply{Text: Usage}, nil
		})}
		for _, sub := range subs {
			for _, name := range sub.names {
				verbs[head+" "+name] = sub.v
			}
		}
	}
	verbs["rsvp"] = vocab.Verb{Need: vocab.Anyone, Served: true, Runner: d.run((*Manager).RSVP)}
	season := d.run((*Manager).Season)
	verbs["leaderboard season"] = vocab.Verb{Need: vocab.Anyone, Runner: vocab.Func(func(ctx context.Context, env vocab.Env, cmd vocab.Command, args []string) (vocab.Reply, error) {
		r, err := season.Run(ctx, env, cmd, args)
		if err == nil && chart != nil {
			r.Files = chart(ctx, env, cmd)
		}
		return r, err
	})}
	return verbs
}

// request is who sent cmd, and where, for the manager.
func request(cmd vocab.Command) Request {
	return Request{Platform: cmd.Platform, Workspace: cmd.Workspace, Channel: cmd.Channel, User: cmd.User,
		UserName: cmd.UserName, Token: cmd.Token, Key: cmd.ID}
}

// run makes f a verb run by the manager, once one serves the desk.
func (d *Desk) run(f func(m *Manager, ctx context.Context, r Request, args []string) (Reply, error)) vocab.Runner {
	return deskVerb{desk: d, f: f}
}

// deskVerb is a verb the desk's manager runs.
type deskVerb struct {
	desk *Desk
	f    func(m *Manager, ctx context.Context, r Request, args []string) (Reply, error)
}

func (v deskVerb) Run(ctx context.Context, _ vocab.Env, cmd vocab.Command, args []string) (vocab.Reply, error) {
	m := v.desk.Manager()
	if m == nil {
		return vocab.Reply{}, errNoScheduler
	}
	r, err := v.f(m, ctx, request(cmd), args)
	if err != nil {
		return vocab.Reply{}, err // the dealer words and logs it, as every error
	}
	return vocab.Reply{Text: r.Text, Buttons: r.Buttons}, nil
}

// DeskOf returns the desk that answers v, nil when v is not one of a desk's verbs.
func DeskOf(v vocab.Verb) *Desk {
	if dv, ok := v.Runner.(deskVerb); ok {
		return dv.desk
	}
	return nil
}

// holder is the Holder hook of `schedule verb ID`: the host of the schedule the ID names. A
// schedule's host never changes, so the gate's answer still holds when the manager finds the
// schedule again under its lock.
func (d *Desk) holder(verb string) func(ctx context.Context, cmd vocab.Command, args []string) (vocab.Holding, error) {
	return func(ctx context.Context, cmd vocab.Command, args []string) (vocab.Holding, error) {
		m := d.Manager()
		if m == nil {
			return vocab.Holding{}, errNoScheduler
		}
		s, err := m.Named(ctx, request(cmd), args, verb)
		if err != nil {
			return vocab.Holding{}, err
		}
		return vocab.Holding{User: s.Host, Name: s.HostName, Of: "schedule " + s.ID}, nil
	}
}

// Zone is the local time zone of cmd's channel: its schedule's, else the default zone of the
// schedules, else UTC.
func (d *Desk) Zone(ctx context.Context, cmd vocab.Command) *time.Location {
	m := d.Manager()
	if m == nil {
		return time.UTC
	}
	if ss, err := m.Store.Schedules(ctx); err == nil {
		for _, s := range ss {
			if s.Platform == cmd.Platform && s.Workspace == cmd.Workspace && s.Channel == cmd.Channel {
				if spec, err := s.Spec(); err == nil {
					return spec.Loc
				}
			}
		}
	}
	if loc, err := time.LoadLocation(m.DefaultZone); err == nil {
		return loc
	}
	return time.UTC
}

// HelpList is the schedule's part of `help`.
const HelpList = `schedule add|list|skip|remove — weekly home games
rsvp yes|maybe|no — answer for the next scheduled game
leaderboard season — this channel's season results`

// Help is the schedule's part of `help COMMAND`: the details of each verb.
const Help = `schedule add <when> [tz=Zone] [length=3h|end=23:30] [tournament] [game options] — a weekly home game or tournament (host or admin); when: weekly fri 20:00, daily 19:30, every tue,thu 21:00, on 2026-12-04 20:00 or cron
schedule list / schedule skip ID / schedule remove ID — the channel's schedules; skip the next game; stop one
rsvp yes|maybe|no — answer for the next scheduled game
leaderboard season — the season's results of this channel's schedule`
