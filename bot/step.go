package bot

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/dealerbot/dealerbot/bot/errs"
	"github.com/dealerbot/dealerbot/bot/table"
	"github.com/dealerbot/dealerbot/render"
)

// caller is who runs cmd, for the core.
func caller(cmd Command) table.Caller {
	return table.Caller{User: cmd.User, Name: cmd.UserName, Admin: cmd.Admin, Schedule: cmd.Schedule}
}

// inputs reads what a core verb needs besides the table's state.
func (t *actor) inputs(ctx context.Context, cmd Command, r reads) (table.Inputs, error) {
	in := table.Inputs{StartingBankroll: t.d.cfg.StartingBankroll, CardPictures: t.hasCardPictures(cmd.Platform),
		Where: table.TableRecord{ID: tableID(cmd), Platform: cmd.Platform, Workspace: cmd.Workspace, Channel: cmd.Channel},
		Style: t.style()}
	var err error
	if r&readsPlayer != 0 {
		in.Player, in.Known, err = t.d.store.Player(ctx, cmd.Workspace, cmd.User)
		if err != nil {
			return in, err
		}
	}
	if r&readsDeal != 0 {
		in.Rand, in.LastHand = shuffler{t.d}, t.handFloor
	}
	if r&readsLastHand != 0 {
		in.LastHand, err = t.lastHandNo(ctx)
	}
	return in, err
}

// step runs a core verb: the core decides, then the shell commits its Change and, only once it is on
// disk, takes the new state, tells the channel and arms the timers. A refused verb changes nothing.
func (t *actor) step(ctx context.Context, cmd Command, v verb, args []string, ans *answer) (Reply, error) {
	in, err := t.inputs(ctx, cmd, v.reads)
	if err != nil {
		return Reply{}, err
	}
	st, err := v.core(t.core(), t.d.cfg.Now(), caller(cmd), args, in)
	if err != nil {
		return Reply{}, err
	}
	st.Change.Once = cmd.ID
	t.inStep = true
	err = t.apply(ctx, st, ans)
	t.inStep = false
	if err != nil {
		if st.Short != "" && errors.Is(err, ErrInsufficient) {
			return Reply{}, errs.Errorf(errs.Invalid, "%s", st.Short)
		}
		return Reply{}, err
	}
	return Reply{Text: st.Reply}, nil
}

// answer is what a command's own response can carry: the message whose button was clicked (when
// the platform lets the click's response edit it) and the table's new version for it.
type answer struct {
	click  string
	update *render.Message
}

// commitError is apply's error when the store refused a step's Change: nothing of the step
// happened, and an automatic step is tried again (retry).
type commitError struct {
	table string
	err   error
}

func (e *commitError) Error() string { return fmt.Sprintf("commit table %s: %v", e.table, e.err) }
func (e *commitError) Unwrap() error { return e.err }

// apply commits a step and then carries it out: the new state, the hand's table message, the hole
// cards, the channel's posts, then the session's end or the timers. When the commit fails nothing
// of it happens: the core changed nothing, so the table is as it was. The session's end is a step of
// its own (endSession), retried when refused: it does not undo the step that led to it.
func (t *actor) apply(ctx context.Context, st table.Step, ans *answer) error {
	var settleUp *render.Message // a money table's session ended: its settle-up (money.go)
	if !st.Change.Empty() {
		c := st.Change
		c.Fence = t.fence
		began := time.Now()
		var err error
		settleUp, err = t.commitSession(ctx, c)
		t.d.cfg.Metrics.committed(time.Since(began))
		if err != nil {
			if errors.Is(err, ErrNotOwner) {
				t.d.lostFence(t.fence) // another process took the community over
			}
			return &commitError{table: t.id, err: err}
		}
		t.failures = 0
		if m := t.d.cfg.Metrics; m != nil {
			m.applied(!t.inStep)
		}
	}
	if st.Next != nil && !st.Next.Open {
		// The session is over: its last posts (the standings, the settle-up) go to the channel it was
		// open in.
		t.public(st.Posts...)
		if settleUp != nil {
			t.public(*settleUp)
		}
		t.stopTimers()
		t.st = table.State{}
		return nil
	}
	if st.Next != nil {
		if !t.st.Open {
			t.pending = map[string][]pendingMessage{}
		}
		t.st = *st.Next
	}
	if v := st.View; v != nil {
		t.see(v)
	}
	for _, p := range st.Private {
		t.private(ctx, p.User, p.Message)
	}
	if v := st.View; v != nil && v.Hand.Done() {
		// The hand's last version: the showdown, the awards and what they mean for the table, in the
		// message already on screen rather than in posts of their own.
		t.dropPending(v.State.No)
		t.stopTurn()
		t.showLive(v.Hand, v.State, v.Names, ans)
	}
	t.public(st.Posts...)
	if st.Ends {
		t.endSession(ctx)
		return nil
	}
	// The dealer's own next moves are the core's decision; the shell arms them.
	ch := t.chores(st.Timers)
	if st.Timers.Turn {
		t.afterStep(ctx, ch, ans)
	}
	if ch.Deal {
		if ch.WhenShown {
			t.dealWhenShown(ch, ans)
		} else {
			t.scheduleDeal()
		}
	}
	return nil
}

// chores asks the core what the dealer does by itself now, after a step that concerns the clocks tm.
func (t *actor) chores(tm table.Timers) table.Chores { return t.core().Chores(t.d.cfg.Now(), tm) }

// core is the table's state for a step of the core, with the shell's settings the core reads.
func (t *actor) core() table.State {
	s := t.st
	s.DealDelay = t.d.cfg.DealDelay
	return s
}

// see puts what a step did to the running hand on its table message: a new message for a new hand,
// then the step's lines.
func (t *actor) see(v *table.View) {
	if v.Deal != nil {
		t.newLive(v.Deal, v.Notes) // the deal's notes go on the hand's table message, not in posts
		// Whoever dealt, the deal timer (a pause still running, or a refused deal's retry) has
		// nothing left to do: the next pause starts when this hand ends.
		stop(&t.dealTimer)
	}
	if t.live != nil {
		t.live.lines.Add(v, t.style())
	}
}
