package bot

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dealerbot/dealerbot/bot/money"
	"github.com/dealerbot/dealerbot/bot/table"
	"github.com/dealerbot/dealerbot/render"
)

// A table's goroutine and what it keeps; its restore on start-up and its quarantine after a fault.
// What it does for one action is in action.go.

// actor is one channel's table. Only its goroutine (loop) touches it after creation.
type actor struct {
	d  *Dealer
	id string
	// jobs is the table's queue. It holds pointers: a job takes memory only while it waits, and an
	// idle table's queue costs a few hundred bytes (a slot of the job itself was 280).
	jobs chan *job

	sendMu sync.RWMutex // senders hold it for reading; Close for writing, to close jobs
	closed bool         // jobs is closed; guarded by sendMu
	refs   int          // senders between look-up and queue; guarded by d.mu

	// st is the table core's state: whether a session is open, the record as last committed and the
	// running hand. It changes only after a commit.
	st table.State

	// turnTimer is the turn's clock, or the retry of an automatic step of the turn the store refused;
	// dealTimer the pause before the next hand, or the retry of a refused deal (retry).
	turnTimer Timer
	dealTimer Timer
	pingTimer Timer // the turn ping's grace period (live tables)
	// failures counts the automatic steps the store refused since it last took a commit: the
	// retry's backoff.
	failures int

	pending map[string][]pendingMessage // private messages that could not be delivered, by user

	// The running hand's table message and the table's outbox.
	live *liveHand
	out  *outbox

	// handFloor is the number of the channel's newest kept hand when the table was restored: the next
	// hand is numbered above it (a table opened now starts its count there itself).
	handFloor int64

	toldDenied bool // the host was told the platform refuses the bot this channel (cannotPost)

	// fence is the lease of the table's community its writes carry when processes share the store
	// (nil otherwise): the one under which the table was restored or opened here.
	fence *Fence
	// inStep is set while a player's command is applied (step), so metrics tell it from the
	// dealer's automatic steps.
	inStep bool
	// exited is closed when the goroutine has ended (its last queued job done).
	exited chan struct{}
	// midHand and lastStep (Unix nanoseconds) tell the lease loop, which may not touch st, whether a
	// hand is in play and when the table last took a step: a community is handed to another
	// process only between hands, the one idle longest first.
	midHand  atomic.Bool
	lastStep atomic.Int64
	// unsure is set when a commit's outcome could not be learnt (the database's answer was lost
	// and it could not be read back) or the store holds a newer version of the table than st: the
	// next job first reads the table back (reconcile) and runs only once st is the store's.
	unsure bool
}

// settle finds out, after the commit of c ended without an answer (cause wraps ErrOutcomeUnknown:
// the connection broke around COMMIT, or the wait was cut short), whether c landed, by reading its
// table back: nil when it did (the step goes on as committed), an error that says nothing changed
// when it did not (saying so is then true), cause when the database cannot tell yet. A table the
// store holds at another version than st marks the table unsure, as does an unknown outcome.
func (t *actor) settle(c table.Change, cause error) error {
	id := c.TableID()
	var rec table.TableRecord
	var ok bool
	if readBack(func(ctx context.Context) (err error) { rec, ok, err = t.d.store.Table(ctx, id); return err }) != nil {
		t.unsure = true
		t.d.log.Warn("commit answer lost and not read back", "table", t.id, "err", cause)
		return cause
	}
	switch {
	case ok && rec.Step == c.Step, !ok && c.Table == nil && c.DeleteTable == id && c.Base > 0:
		t.d.log.Info("commit answer lost: the step landed", "table", t.id, "err", cause)
		return nil
	case ok && rec.Version != c.Base, !ok && c.Base > 0:
		t.unsure = true // the store moved on without this process: read it back before anything else
	}
	t.d.log.Info("commit answer lost: the step did not land", "table", t.id, "err", cause)
	if errors.Is(cause, context.Canceled) || errors.Is(cause, context.DeadlineExceeded) {
		return fmt.Errorf("commit table %s did not land: %w", t.id, context.Canceled)
	}
	return fmt.Errorf("commit table %s did not land: %w", t.id, ErrStoreUnreachable)
}

// reconcile reads the table back when t is unsure of it and, when the store holds another version,
// takes the store's as it would on a restart; false when the store cannot be read.
func (t *actor) reconcile(ctx context.Context) bool {
	rctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	rec, ok, err := t.d.store.Table(rctx, t.id)
	cancel()
	if err != nil {
		t.d.log.Warn("read the table back", "table", t.id, "err", err)
		return false
	}
	t.unsure = false
	if ok == t.st.Open && rec.Version == t.st.Rec.Version {
		return true // the store holds what this table holds
	}
	t.d.log.Info("the store holds a newer table: taking it", "table", t.id, "version", rec.Version, "had", t.st.Rec.Version)
	t.stopTimers()
	t.live = nil
	if !ok {
		t.st = table.State{}
		return true
	}
	if err := t.restoreNow(ctx, rec); err != nil {
		t.d.log.Error("take the stored table", "table", t.id, "err", err)
		t.unsure = true
		return false
	}
	return true
}

// reconcileLater tries reconcile again after a wait, for a table no command is waiting on: the
// stored table's timers are armed when it is taken.
func (t *actor) reconcileLater() {
	t.failures++
	stop(&t.dealTimer)
	t.dealTimer = t.after(retryWait(t.failures), func(context.Context, *actor) {})
}

// afterPanic puts the table back on its last committed state, which the panic cannot have touched
// (t.st.Rec changes only after a commit), and cancels the hand in progress: the seats still hold the
// stacks from before it.
func (t *actor) afterPanic(ctx context.Context) {
	if !t.st.Open {
		t.stopTimers()
		t.st = table.State{}
		return
	}
	no, err := t.cancelAndQuarantine(ctx, t.st.Rec)
	switch {
	case err != nil:
		t.d.log.Error("cancel hand after panic", "table", t.id, "err", err)
	case no == 0:
		t.publicf("Something went wrong on my side. No chips moved; type `deal` to play on or `end` to cash everyone out.")
	default:
		t.publicf("Something went wrong on my side, so hand #%d is cancelled and every chip is back where it was before it: type `deal` to play on or `end` to cash everyone out.", no)
	}
}

// cancelAndQuarantine makes rec the open table without a hand in progress (the seats still hold the
// stacks from before it, so every chip is back) and stops automatic deals. It returns the number of
// the cancelled hand, 0 when none was in progress.
func (t *actor) cancelAndQuarantine(ctx context.Context, rec table.TableRecord) (int64, error) {
	t.stopTimers()
	t.st = table.State{Open: true, Rec: rec, Quarantined: true, DealDelay: t.d.cfg.DealDelay}
	if rec.Hand == nil {
		return 0, nil
	}
	return rec.Hand.No, t.apply(ctx, t.st.Cancel(), nil)
}

// lastHandNo returns the number of the newest hand kept for this channel, 0 when there is none.
func (t *actor) lastHandNo(ctx context.Context) (int64, error) {
	hands, err := t.d.store.Hands(ctx, t.id, 1)
	if err != nil || len(hands) == 0 {
		return 0, err
	}
	return hands[0].No, nil
}

// --- restore -----------------------------------------------------------------------------------

// restore loads a table on start-up. It runs before the table gets any job. A table whose restore
// panics, or whose stored settings are out of range, is quarantined instead of crashing the start:
// its hand is cancelled with every chip returned and it is not dealt automatically.
func (t *actor) restore(ctx context.Context, rec table.TableRecord) error {
	done := make(chan error, 1)
	// Queued as send queues (under sendMu, never on a closed queue): Close may close the queue while
	// a community claimed at that moment is still being restored.
	t.sendMu.RLock()
	if t.closed {
		t.sendMu.RUnlock()
		return errClosed
	}
	t.jobs <- &job{ctx: ctx, done: make(chan Reply, 1), fire: func(ctx context.Context, t *actor) {
		var err error
		defer func() {
			if p := recover(); p != nil {
				t.d.log.Error("panic restoring table: quarantined", "table", t.id, "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
				err = t.quarantine(ctx, rec, "hit an error while I restarted")
			}
			done <- err
		}()
		err = t.restoreNow(ctx, rec)
	}}
	t.sendMu.RUnlock()
	return <-done
}

// quarantine opens a restored table without dealing: the hand in progress is cancelled, chips
// returned, and the channel told what the host can do.
func (t *actor) quarantine(ctx context.Context, rec table.TableRecord, why string) error {
	if _, err := t.cancelAndQuarantine(ctx, rec); err != nil {
		return err
	}
	t.publicf("This table %s: any hand in play is cancelled with every chip back, and I deal no more hands by myself. "+
		"The host can type `end` to cash everyone out, or `deal` to try again.", why)
	return nil
}

func (t *actor) restoreNow(ctx context.Context, rec table.TableRecord) error {
	if err := rec.Settings.Validate(); err != nil {
		t.d.log.Error("stored settings out of range: quarantined", "table", t.id, "err", err)
		return t.quarantine(ctx, rec, "has settings out of range")
	}
	floor, err := t.lastHandNo(ctx)
	if err != nil {
		return err
	}
	t.handFloor = floor
	st, err := table.Restore(rec)
	t.st = st
	t.midHand.Store(rec.Hand != nil)
	t.st.DealDelay = t.d.cfg.DealDelay // the shell's setting, read by the core (every state the shell holds carries it)
	if rec.Hand == nil {
		t.scheduleDeal()
		return nil
	}
	if err == nil {
		t.newLive(rec.Hand, nil)
		t.live.lines.Add(&table.View{Events: t.st.Hand.Events(), Names: t.st.Names()}, cardStyle(t.d.pictures, t.st.Rec.Platform, t.st.Rec.Settings.Cards)) // the hand's lines so far, for the same table message
		t.d.log.Info("resumed hand", "table", t.id, "hand", rec.Hand.No, "actions", len(rec.Hand.Actions))
		t.afterStep(ctx, t.st.Chores(t.d.cfg.Now(), table.Timers{Turn: true}), nil)
		return nil
	}
	// The hand cannot go on: cancel it. The seats still hold the stacks from before the hand.
	no := rec.Hand.No
	if cerr := t.apply(ctx, t.st.Cancel(), nil); cerr != nil {
		return cerr
	}
	t.d.log.Warn("cancelled hand after restart", "table", t.id, "hand", no, "err", err)
	t.publicf("Hand #%d could not be resumed after a restart and is cancelled: every chip is back where it was before the hand.", no)
	t.scheduleDeal()
	return nil
}

// settleSession commits a step's Change that ends a session at a cash table that plays for money:
// the Change also carries the night's results in money and its settle-up's debts (money.SettleSession),
// worked out again when the money book moved meanwhile. It returns the settle-up for the channel.
func (t *actor) settleSession(ctx context.Context, c table.Change) (*render.Message, error) {
	rec, s := t.st.Rec, *c.Session
	m := rec.Settings.Money
	night := money.Session{Community: table.Community(rec.Platform, rec.Workspace), Platform: rec.Platform, Channel: rec.Channel,
		Table: rec.ID, Host: rec.Host, HostName: rec.HostName, Started: rec.Started, Ended: s.Ended,
		Value: m.Value, Currency: m.Currency, RemindAfter: m.RemindAfter(), Bank: m.Bank}
	for _, st := range s.Standings {
		night.Results = append(night.Results, money.Share{User: st.User, Name: st.Name, Chips: st.CashedOut - st.BoughtIn})
	}
	for try := 0; ; try++ {
		evs, after, msg, err := money.SettleSession(ctx, t.d.store, t.d.log, night)
		if err != nil {
			return nil, err
		}
		c.Money, c.MoneyAfter = evs, after
		err = t.d.store.Commit(ctx, c)
		if errors.Is(err, ErrMoneyMoved) && try < money.MaxTries {
			continue
		}
		if err != nil {
			return nil, err
		}
		return msg, nil
	}
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
