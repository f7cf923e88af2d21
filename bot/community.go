package bot

import (
	"context"
	"errors"
	"fmt"

	"github.com/dealerbot/dealerbot/bot/table"
	"github.com/dealerbot/dealerbot/render"
)

// EndCommunity closes every open table of a community (a Slack workspace, a Discord server) at once,
// the way `end` does, for a community the dealer can no longer reach: the app was removed from the
// workspace or its token revoked. Each table's own goroutine does it, after the commands already
// queued there, as a system caller that needs no host or admin.
//
// A hand in progress is cancelled, not played out: nobody can see the table or act any more, so
// finishing it would mean the turn clock folding (or checking) for every player until it ends and a
// pot won by nobody's decision. Cancelled, every chip goes back where it was before the hand (the
// seats still hold those stacks), and then everyone is cashed out to their bankroll and the session's
// standings recorded, in one commit per table: nothing is lost, and a crash between tables leaves
// each table either open as it was or closed with every chip returned.
//
// When processes share the store (Config.Owner), the community is claimed first if it is free, and
// for a community another live process serves the request is handed to that process through the
// inbox (it ends the tables and answers). why says what happened, for the channel and the log.
func (d *Dealer) EndCommunity(ctx context.Context, platform, workspace, why string) error {
	return d.endCommunity(ctx, platform, workspace, why, true)
}

func (d *Dealer) endCommunity(ctx context.Context, platform, workspace, why string, forward bool) error {
	name := table.Community(platform, workspace)
	if d.leases != nil {
		cmd := Command{Platform: platform, Workspace: workspace, EndCommunity: why}
		fwd, err := d.serve(ctx, cmd, forward)
		if err != nil {
			return fmt.Errorf("end the tables of %s: %w", name, err)
		}
		if fwd != nil { // the owner ended them
			if fwd.IsError {
				return fmt.Errorf("end the tables of %s at the process that serves it: %s", name, fwd.Text)
			}
			return nil
		}
	}
	d.mu.Lock()
	var tables []*actor
	for id, t := range d.tables {
		if communityOf(id) == name {
			tables = append(tables, t)
		}
	}
	d.mu.Unlock()
	var errs []error
	ended := 0
	for _, t := range tables {
		var err error
		done := false
		_, qerr := d.send(ctx, t.id, t, job{fire: func(ctx context.Context, t *actor) {
			done, err = t.endNow(ctx, why)
		}}, false)
		switch {
		case errors.Is(qerr, errNoTable):
			// The table's session ended meanwhile (its goroutine retired): nothing left to close.
		case qerr != nil:
			errs = append(errs, fmt.Errorf("end table %s: %w", t.id, qerr))
		case err != nil:
			errs = append(errs, fmt.Errorf("end table %s: %w", t.id, err))
		case done:
			ended++
		}
	}
	d.log.Warn("ended the tables of a community", "community", name, "why", why, "tables", ended, "failed", len(errs))
	return errors.Join(errs...)
}

// endNow ends the table's session at once (EndCommunity): the hand in progress, if any, is cancelled
// with every chip back where it was before it, and everyone is cashed out, in one commit. It reports
// whether there was a session to end.
func (t *actor) endNow(ctx context.Context, why string) (bool, error) {
	if !t.st.Open {
		return false, nil
	}
	st := t.st
	note := "The session is over: " + why + "."
	if st.Rec.Hand != nil {
		no := st.Rec.Hand.No
		st = *st.Cancel().Next // not committed by itself: the session's end below carries it
		note = fmt.Sprintf("The session is over: %s. Hand #%d is cancelled and every chip is back where it was before it.", why, no)
	}
	step := st.EndSession(t.d.cfg.Now())
	step.Posts = append([]render.Message{{Text: note}}, step.Posts...)
	if err := t.apply(ctx, step, nil); err != nil {
		return false, err
	}
	return true, nil
}
