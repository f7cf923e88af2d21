package bot

import (
	"context"
	"errors"
	"fmt"

	"github.com/dealerbot/dealerbot/bot/table"
)

// state is the table as the core sees it.
func (t *actor) state() table.State {
	return table.State{Open: t.st.Open, Rec: t.st.Rec, Hand: t.st.Hand}
}

// caller is who runs cmd, for the core.
func caller(cmd Command) table.Caller {
	return table.Caller{User: cmd.User, Name: cmd.UserName, Admin: cmd.Admin, Schedule: cmd.Schedule}
}

// inputs reads what a core verb needs besides the table's state.
func (t *actor) inputs(ctx context.Context, cmd Command, r reads) (table.Inputs, error) {
	in := table.Inputs{StartingBankroll: t.d.cfg.StartingBankroll, CardPictures: t.hasCardPictures(cmd.Platform),
		Where: TableRecord{ID: tableID(cmd), Platform: cmd.Platform, Workspace: cmd.Workspace, Channel: cmd.Channel}}
	var err error
	if r&readsPlayer != 0 {
		in.Player, in.Known, err = t.d.store.Player(ctx, cmd.Workspace, cmd.User)
		if err != nil {
			return in, err
		}
	}
	if r&readsLastHand != 0 {
		in.LastHand, err = t.lastHandNo(ctx)
	}
	return in, err
}

// step runs a core verb: the core decides, then the shell commits its Change and, only once it is on
// disk, takes the new state, tells the channel and arms the timers. A refused verb changes nothing.
func (t *actor) step(ctx context.Context, cmd Command, v verb, args []string) (Reply, error) {
	in, err := t.inputs(ctx, cmd, v.reads)
	if err != nil {
		return Reply{}, err
	}
	st, err := v.core(t.st, t.d.cfg.Now(), caller(cmd), args, in)
	if err != nil {
		return Reply{}, err
	}
	if err := t.apply(ctx, st); err != nil {
		if st.Short != "" && errors.Is(err, ErrInsufficient) {
			return Reply{}, userErrorf("%s", st.Short)
		}
		return Reply{}, err
	}
	return Reply{Text: st.Reply}, nil
}

// apply commits a step and then carries it out: the new table (or, when the step closed the session,
// no table), the channel's posts, then the timers.
func (t *actor) apply(ctx context.Context, st table.Step) error {
	if err := t.d.store.Commit(ctx, st.Change); err != nil {
		return fmt.Errorf("commit table %s: %w", t.id, err)
	}
	if st.Change.DeleteTable != "" {
		t.stopTimers()
		t.public(st.Posts...)
		t.st, t.narr, t.last, t.quarantined = table.State{}, nil, nil, false
		return nil
	}
	if st.Change.Table != nil {
		if !t.st.Open {
			t.st.Open, t.pending = true, map[string][]pendingMessage{}
		}
		t.st.Rec = *st.Change.Table
	}
	t.public(st.Posts...)
	if st.Timers.Turn {
		t.afterStep(ctx)
	}
	if st.Timers.Deal {
		t.scheduleDeal()
	}
	return nil
}
