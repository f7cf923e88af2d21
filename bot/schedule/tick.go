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
// progress. A schedule's posts are saved with the progress that made them due, in one write, and
// sent after it (its outbox, Schedule.Posts): a crash or a lost answer in between sends them at the
// next tick, under the same keys, so none is lost and the chat shows each once where it can tell.
// It returns the first internal error after trying every schedule.
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
	if err := m.send(ctx, s); err != nil { // what an earlier tick saved and did not get to send
		return err
	}
	now := m.now()
	before := *s
	before.Skip = slices.Clone(s.Skip)
	before.Open = slices.Clone(s.Open)
	evs := Due(s, spec, now)
	dirty := !sameState(&before, s)
	// commit saves the progress so far with its posts, then sends them.
	commit := func() error {
		if dirty {
			if err := m.put(ctx, s); err != nil {
				return err
			}
			dirty = false
		}
		return m.send(ctx, s)
	}
	for _, e := range evs {
		var err error
		switch e.Kind {
		case Start:
			// Saved first with the game open and its table to be opened (Opening): a crash before
			// the table opens leaves it for the next tick.
			if err = commit(); err == nil {
				err = m.open(ctx, s, spec, Session{Start: e.At, End: e.End}, false)
			}
		case Settle:
			if err = commit(); err == nil {
				err = m.settle(ctx, s, e, now, spec.Loc)
			}
		default:
			err = m.compose(ctx, s, spec, e, now)
			dirty = true
		}
		if err != nil {
			return fmt.Errorf("%s %s of schedule %s: %w", e.Kind, fmtGame(e.At), s.ID, err)
		}
	}
	if err := commit(); err != nil {
		return err
	}
	return m.early(ctx, s, spec, now, evs)
}

// say adds a post to s's outbox, keyed by schedule, what it is for (kind) and the game's start. The
// key fits Discord's nonce (25 characters).
func (m *Manager) say(s *Schedule, kind string, game time.Time, msg render.Message) {
	s.Posts = append(s.Posts, Post{Key: fmt.Sprintf("s%s%s%d", s.ID, kind, game.Unix()), Made: m.now(), Message: msg})
}

// PostTTL is how long a schedule's post may wait to be sent (its channel refuses the bot, the chat
// is down) before it is dropped as stale, with an error in the log.
const PostTTL = time.Hour

// put saves s's progress and posts.
func (m *Manager) put(ctx context.Context, s *Schedule) error {
	if err := m.Store.PutSchedule(ctx, s); err != nil {
		return fmt.Errorf("save schedule %s: %w", s.ID, err)
	}
	m.changed(s, false)
	return nil
}

// send sends s's waiting posts, oldest first, and saves s without them. A post that fails stays,
// with those after it, for the next tick (logged, not returned: the schedule goes on meanwhile); one
// older than PostTTL is dropped. The error is the save's.
func (m *Manager) send(ctx context.Context, s *Schedule) error {
	if len(s.Posts) == 0 {
		return nil
	}
	now := m.now()
	n := len(s.Posts)
	for len(s.Posts) > 0 {
		p := s.Posts[0]
		if err := m.Host.Post(ctx, s, p.Key, p.Message); err != nil {
			if now.Sub(p.Made) < PostTTL {
				m.log().Warn("schedule post not sent: it is sent again at the next tick", "schedule", s.ID, "post", p.Key, "err", err)
				break
			}
			m.log().Error("schedule post dropped: it could not be sent for an hour", "schedule", s.ID, "post", p.Key, "err", err)
		}
		s.Posts = s.Posts[1:]
	}
	if len(s.Posts) == n {
		return nil
	}
	if len(s.Posts) == 0 {
		s.Posts = nil
	}
	return m.put(ctx, s)
}

// early settles a game whose session ended before its end time (one player won every chip, or the
// host ended it), so the results do not wait for the end time, and opens a game that waits for its
// table or was left opening by a tick that stopped (not in the tick that just tried: fired are its
// events).
func (m *Manager) early(ctx context.Context, s *Schedule, spec *Spec, now time.Time, fired []Event) error {
	for _, o := range slices.Clone(s.Open) {
		if !now.Before(o.End) {
			continue // Due's Settle handles it
		}
		if o.Waiting || o.Opening {
			if slices.ContainsFunc(fired, func(e Event) bool { return e.Kind == Start && e.At.Equal(o.Start) }) {
				continue
			}
			if err := m.open(ctx, s, spec, o, true); err != nil {
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
		slices.EqualFunc(a.Skip, b.Skip, time.Time.Equal) && len(a.Open) == len(b.Open) && len(a.Posts) == len(b.Posts)
}

// compose adds the post of an announcement, a reminder or a missed game to s's outbox.
func (m *Manager) compose(ctx context.Context, s *Schedule, spec *Spec, e Event, now time.Time) error {
	at := e.At.In(spec.Loc)
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
		m.say(s, "a", e.At, render.Message{Text: text, Buttons: rsvpButtons(s.ID)})
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
		m.say(s, "r", e.At, render.Message{Text: text, Buttons: rsvpButtons(s.ID)})
	case Missed:
		text := fmt.Sprintf("I was offline and missed the game on %s", fmtGame(at))
		if e.Count > 1 {
			text += fmt.Sprintf(" (and the %d before it)", e.Count-1)
		}
		text += ": it did not take place."
		if up := s.Upcoming(now, 1); len(up) > 0 {
			text += " The next game is " + fmtGame(up[0]) + "."
		}
		m.say(s, "m", e.At, render.Message{Text: text})
	}
	return nil
}

// open opens game's table, saves the game as open or waiting with its post, and sends the post. At
// the game's start it opens the table; again (a game waiting for its table, or left opening by a
// tick that stopped) it first asks what became of the table: one already open is the game's (the
// tick stopped after opening it: its post goes out), one played and closed needs nothing more, and
// a game left opening past Grace is missed, as Due has it. A game still waiting gets no new post.
func (m *Manager) open(ctx context.Context, s *Schedule, spec *Spec, game Session, again bool) error {
	i := slices.IndexFunc(s.Open, func(o Session) bool { return o.Start.Equal(game.Start) })
	if i < 0 {
		return nil // settled meanwhile
	}
	at, end := game.Start.In(spec.Loc), game.End.In(spec.Loc)
	rs, err := m.Store.RSVPs(ctx, s.ID, game.Start)
	if err != nil {
		return err
	}
	found := NotOpened
	if again {
		if found, err = m.Host.Found(ctx, s, game); err != nil {
			return err
		}
	}
	switch {
	case found == IsOpen:
		err = nil // opened by the tick that stopped
	case found == Played:
		s.Open[i].Opening, s.Open[i].Waiting = false, false
		return m.put(ctx, s) // early settles it
	case s.Open[i].Opening && again && m.now().After(game.Start.Add(Grace)):
		s.Settled(game.Start)
		if err := m.compose(ctx, s, spec, Event{Kind: Missed, Schedule: s.ID, At: game.Start, Count: 1}, m.now()); err != nil {
			return err
		}
		if err := m.put(ctx, s); err != nil {
			return err
		}
		return m.send(ctx, s)
	default:
		err = m.Host.Open(ctx, s, game)
	}
	var pe *errs.Error
	switch {
	case err == nil:
		s.Open[i].Opening, s.Open[i].Waiting = false, false
		m.say(s, "o", game.Start, m.opened(s, rs, at, end))
	case !errors.As(err, &pe):
		return err
	case s.Open[i].Waiting:
		return nil // still not possible: try at the next tick
	default:
		// Most often another table is still open here: the game waits for it (see early).
		s.Open[i].Opening, s.Open[i].Waiting = false, true
		m.say(s, "w", game.Start, render.Message{Text: fmt.Sprintf("I could not open the table for the %s game yet: %s "+
			"I will open it as soon as I can, until %s.", at.Format("15:04 MST"), strings.TrimSpace(pe.Message), end.Format("15:04 MST"))})
	}
	if err := m.put(ctx, s); err != nil {
		return err
	}
	return m.send(ctx, s)
}

// opened is the post that a game's table is open, naming those who said they would come.
func (m *Manager) opened(s *Schedule, rs []RSVP, at, end time.Time) render.Message {
	by := answers(rs)
	text := fmt.Sprintf("The %s game is open until %s: type `join` to sit down.", at.Format("15:04 MST"), end.Format("15:04 MST"))
	if who := append(by[Yes], by[Maybe]...); len(who) > 0 {
		text = m.mentions(s, who) + ": " + text
	}
	return render.Message{Text: text}
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

// record stores a game's result with the schedule's progress and its post (the results and
// settle-up), then sends the post.
func (m *Manager) record(ctx context.Context, s *Schedule, res Result, loc *time.Location) error {
	s.Settled(res.Game)
	if len(res.Players) == 0 {
		m.say(s, "x", res.Game, render.Message{Text: fmt.Sprintf("The %s game is over; nobody played.", fmtGame(res.Game.In(loc)))})
	} else {
		m.say(s, "x", res.Game, render.Message{Text: ResultMessage(res, loc)})
	}
	if err := m.Store.PutResult(ctx, res, s); err != nil {
		return fmt.Errorf("save result: %w", err)
	}
	m.changed(s, false)
	return m.send(ctx, s)
}
