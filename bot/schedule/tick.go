package schedule

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/dealerbot/dealerbot/bot/errs"
	"github.com/dealerbot/dealerbot/render"
)

// The tick machine: what is due for each schedule (Due), fired in order: announcements, reminders,
// table openings (or waiting for a table to close), settlements and results.

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
	if m.Also != nil {
		if err := m.Also(ctx); err != nil {
			m.log().Error("tick", "err", err)
			first = err
		}
	}
	for i := range all {
		sctx := ctx
		if m.Claim != nil {
			var mine bool
			if sctx, mine = m.Claim(ctx, &all[i]); !mine {
				continue // another process owns its community and fires it
			}
		}
		if err := m.tick(sctx, &all[i]); err != nil {
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
				var pe *errs.Error
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
		if err := m.record(ctx, s, Result{Schedule: s.ID, Game: o.Start, Ended: now, Players: players, Money: forMoney(s.Options)}, spec.Loc); err != nil {
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
			var pe *errs.Error
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
	return m.record(ctx, s, Result{Schedule: s.ID, Game: e.At, Ended: now, Players: players, Money: forMoney(s.Options)}, loc)
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
