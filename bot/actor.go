package bot

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"runtime/debug"
	"sync"
	"time"

	"github.com/dealerbot/dealerbot/bot/errs"
	"github.com/dealerbot/dealerbot/bot/table"
	"github.com/dealerbot/dealerbot/engine"
	"github.com/dealerbot/dealerbot/render"
)

// actor is one channel's table. Only its goroutine (loop) touches it after creation.
type actor struct {
	d    *Dealer
	id   string
	jobs chan job

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
}

func (t *actor) loop() {
	defer t.d.wg.Done()
	defer close(t.exited)
	for j := range t.jobs {
		j.done <- t.runJob(j)
		if !t.st.Open && t.d.retire(t) {
			break // no session: the goroutine ends, and `start` makes a new one
		}
	}
	t.stopTimers()
}

// runJob runs one job. A panic is recovered here, so one table's fault never takes the process (and
// every other table) down: it is logged with its stack, the hand in progress is cancelled with every
// chip back where it was before the hand, and the channel is told in one sentence.
func (t *actor) runJob(j job) (r Reply) {
	defer func() {
		if p := recover(); p != nil {
			// The panic value is logged, not the command's text or any hand state: hole cards stay out of logs.
			t.d.log.Error("panic at table", "table", t.id, "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
			t.afterPanic(j.ctx)
			r = Reply{Text: errs.Apology, IsError: true}
		}
	}()
	if j.fire != nil {
		j.fire(j.ctx, t)
		return Reply{}
	}
	return t.handle(j.ctx, j.cmd)
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
	t.st = table.State{Open: true, Rec: rec, Quarantined: true}
	if rec.Hand == nil {
		return 0, nil
	}
	return rec.Hand.No, t.apply(ctx, t.st.Cancel(), nil)
}

func (t *actor) stopTimers() {
	t.stopTurn()
	stop(&t.dealTimer)
}

// stopTurn stops the current turn's clock and its ping.
func (t *actor) stopTurn() {
	stop(&t.turnTimer)
	stop(&t.pingTimer)
}

// stop stops a timer, if any, and forgets it.
func stop(tm *Timer) {
	if *tm != nil {
		(*tm).Stop()
		*tm = nil
	}
}

// pictures is the chat's Pictures capability, if it has one.
func (t *actor) pictures() (Pictures, bool) {
	p, ok := t.d.chat.(Pictures)
	return p, ok
}

// hasCardPictures reports whether the platform draws cards as pictures at all.
func (t *actor) hasCardPictures(platform string) bool {
	if p, ok := t.pictures(); ok {
		_, ok = p.CardFaces(platform, false)
		return ok
	}
	return false
}

// style is how the table draws cards (cardStyle).
func (t *actor) style() render.CardStyle { return cardStyle(t.d.chat, t.st.Rec) }

// cardStyle is how a table draws cards: its setting, with the platform's card pictures for a table
// that chose pictures (drawn as emoji while the platform has none).
func cardStyle(chat Chat, rec table.TableRecord) render.CardStyle {
	k := rec.Settings.Cards
	switch k {
	case render.CardText, render.CardEmoji:
		return render.CardStyle{Kind: k}
	}
	st := render.CardStyle{Kind: k}
	if p, ok := chat.(Pictures); ok {
		st.Faces, _ = p.CardFaces(rec.Platform, k == render.CardImages4)
	}
	if st.Faces == nil {
		st.Kind = render.CardEmoji
	}
	return st
}

// --- sending -----------------------------------------------------------------------------------

// public posts msgs to the table's channel through the table's outbox, written when the platform
// allows and never holding up the table.
func (t *actor) public(msgs ...render.Message) {
	t.initOutbox()
	for _, m := range msgs {
		m.Private = false
		t.out.say(Message{Platform: t.st.Rec.Platform, Workspace: t.st.Rec.Workspace, Channel: t.st.Rec.Channel, Message: m})
	}
}

func (t *actor) publicf(format string, args ...any) {
	t.public(render.Message{Text: fmt.Sprintf(format, args...)})
}

// private sends m to one user: by DM, else ephemerally, else kept for the user's next reply.
func (t *actor) private(ctx context.Context, user string, m render.Message) {
	m.Private = true
	msg := Message{Platform: t.st.Rec.Platform, Workspace: t.st.Rec.Workspace, Channel: t.st.Rec.Channel, User: user, Message: m}
	err := t.d.chat.Send(ctx, msg)
	if err == nil {
		return
	}
	blocked := errors.Is(err, ErrDMBlocked)
	if !blocked {
		// Not the user's settings: log it (never the text, which may hold cards) and still deliver.
		t.d.log.Error("send private message", "table", t.id, "user", user, "err", err)
	}
	if e, ok := t.d.chat.(Ephemeral); ok {
		if err := e.SendEphemeral(ctx, msg); err == nil {
			return
		}
	}
	if blocked && t.d.warnDM(t.st.Rec.Workspace, user) {
		t.pending[user] = append(t.pending[user], pendingMessage{m: render.Message{Private: true,
			Text: "I could not send you a direct message. Allow direct messages from members of this server " +
				"(or workspace) to get your cards privately; until then type `cards` or use the button below."}})
	}
	var hand int64
	if t.st.Hand != nil && t.st.Rec.Hand != nil {
		hand = t.st.Rec.Hand.No
	}
	t.pending[user] = append(t.pending[user], pendingMessage{hand: hand, m: m})
}

// pendingMessage is a private message kept for the user's next reply; hand is the hand it belongs
// to (0: none), after which it is of no use.
type pendingMessage struct {
	hand int64
	m    render.Message
}

// dropPending forgets the undelivered messages of hand no, which has ended: its cards must not turn
// up with the next hand's first click.
func (t *actor) dropPending(no int64) {
	for user, p := range t.pending {
		keep := p[:0]
		for _, pm := range p {
			if pm.hand != no {
				keep = append(keep, pm)
			}
		}
		if len(keep) == 0 {
			delete(t.pending, user)
		} else {
			t.pending[user] = keep
		}
	}
}

// withPending attaches the user's undelivered private messages to their reply.
func (t *actor) withPending(user string, r Reply) Reply {
	p := t.pending[user]
	if len(p) == 0 {
		return r
	}
	delete(t.pending, user)
	for _, pm := range p {
		r.Extra = append(r.Extra, pm.m)
	}
	r.Buttons = append(r.Buttons, render.Button{Label: "Show my cards", Command: "cards", Style: render.Secondary})
	return r
}

// --- persistence -------------------------------------------------------------------------------

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
	t.jobs <- job{ctx: ctx, done: make(chan Reply, 1), fire: func(ctx context.Context, t *actor) {
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
	if rec.Hand == nil {
		t.scheduleDeal()
		return nil
	}
	if err == nil {
		t.newLive(rec.Hand, nil)
		t.live.lines.Add(&table.View{Events: t.st.Hand.Events(), Names: t.st.Names()}, t.style()) // the hand's lines so far, for the same table message
		t.d.log.Info("resumed hand", "table", t.id, "hand", rec.Hand.No, "actions", len(rec.Hand.Actions))
		t.afterStep(ctx, t.chores(table.Timers{Turn: true}), nil)
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

// --- hands -------------------------------------------------------------------------------------

// shuffler is the dealer's randomness for the core's deal (table.Random).
type shuffler struct{ d *Dealer }

func (r shuffler) Deck() (engine.Deck, error) {
	r.d.randMu.Lock()
	defer r.d.randMu.Unlock()
	return engine.ShuffledDeck(r.d.cfg.Rand)
}

func (r shuffler) Salt() (string, error) {
	salt := make([]byte, 16)
	if err := r.d.readRand(salt); err != nil {
		return "", err
	}
	return hex.EncodeToString(salt), nil
}

// deal starts the next hand when the pause after a hand is over. It is a no-op when a hand is
// running or no session is open.
func (t *actor) deal(ctx context.Context) error {
	stop(&t.dealTimer)
	if !t.st.Open || t.st.Hand != nil {
		return nil
	}
	st, err := t.core().NextHand(t.d.cfg.Now(), table.Inputs{LastHand: t.handFloor, Style: t.style(), Rand: shuffler{t.d}})
	if err != nil {
		return err
	}
	return t.apply(ctx, st, nil)
}

// Automatic steps (the clock's check or fold, the check or fold for a player who left or is away,
// the deal of the next hand) have nobody waiting for them: when the store refuses one (a full disk,
// a lost connection), nothing else would ever take the table on. So a refused automatic step is tried
// again, 1 s after the first refusal, then twice as long each time, at most 30 s apart, for as long
// as the store refuses it and the step is still due. It never gives up: a table that stopped
// would wait for the dealer to be restarted.
//
// The retry is armed on the timer the step belongs to (the turn's clock, the deal's pause), so the
// table stays as it was before the refused step: the same turn, on screen, with its buttons. A
// person is never held up by it: the player to act may still act, and anything that takes the turn
// on stops the turn's timer (stopTurn) and with it the retry; a player's `deal` stops the deal
// timer (see). Each retry decides afresh from the table as it is then (the same turn still to play,
// no hand dealt yet), so a step is never applied twice.
const (
	retryFirst = time.Second
	retryMax   = 30 * time.Second
)

// retryWait is the wait before the try that follows the n-th refusal in a row (n ≥ 1).
func retryWait(n int) time.Duration {
	d := retryFirst
	for i := 1; i < n && d < retryMax; i++ {
		d *= 2
	}
	return min(d, retryMax)
}

// retry arms again on *tm, and logs the refusal, when err is the store's refusal of an automatic
// step (commitError). Any other error (the core's refusal, a bug) would only repeat: it reports
// false, and the caller says what the error is worth.
func (t *actor) retry(what string, err error, tm *Timer, again func(ctx context.Context, t *actor)) bool {
	var ce *commitError
	if !errors.As(err, &ce) {
		return false
	}
	if errors.Is(err, ErrNotOwner) {
		// Another process owns the table now and carries the step out itself: this table is being
		// dropped here (lostFence), nothing to retry.
		t.d.log.Info(what+": the community moved to another process", "table", t.id)
		return true
	}
	t.failures++
	wait := retryWait(t.failures)
	t.d.log.Error(what, "table", t.id, "err", err, "retry_in", wait, "refusals", t.failures)
	stop(tm)
	*tm = t.d.after(t, wait, func(ctx context.Context, t *actor) {
		*tm = nil
		again(ctx, t)
	})
	return true
}

// play runs a step of the running hand the core takes for the player to act (the clock's timeout,
// a check or fold for an absent player). Nobody is waiting for an answer: a failure is logged, and a
// step the store refused is retried (again runs on the turn's timer) while the turn is the same.
func (t *actor) play(ctx context.Context, what string, do func(table.State, time.Time) (table.Step, error), ans *answer,
	again func(ctx context.Context, t *actor)) error {
	tok := t.st.Token()
	st, err := do(t.core(), t.d.cfg.Now())
	if err == nil {
		err = t.apply(ctx, st, ans)
	}
	if err != nil && !t.retry(what, err, &t.turnTimer, func(ctx context.Context, t *actor) {
		if t.st.Hand != nil && t.st.Token() == tok {
			again(ctx, t)
		}
	}) {
		t.d.log.Error(what, "table", t.id, "err", err)
	}
	return err
}

// timeout is the turn's clock running out: the core checks or folds for the player to act.
func (t *actor) timeout(ctx context.Context) {
	t.play(ctx, "timeout", table.State.Timeout, nil, func(ctx context.Context, t *actor) { t.timeout(ctx) })
}

// forfeit checks for the absent player to act when checking is free, else folds. When the
// store refuses it, the table message shows the hand as it stands, the absent player's turn without
// a clock, rather than the turn before it, while the step is tried again.
func (t *actor) forfeit(ctx context.Context, ans *answer) {
	l := t.live
	l.timerDue, l.deadline, l.wait = false, time.Time{}, 0 // no clock for this turn
	// A retry asks the core afresh: the player may be back (`sitin`) and get the turn.
	again := func(ctx context.Context, t *actor) { t.afterStep(ctx, t.chores(table.Timers{Turn: true}), nil) }
	if err := t.play(ctx, "act for leaving player", table.State.Forfeit, ans, again); err != nil && l.stalled != t.st.Token() {
		l.stalled = t.st.Token()
		t.showLive(t.st.Hand, t.st.Rec.Hand, t.st.Names(), ans)
	}
}

// afterStep carries out the core's chores for the turn: for a leaving or absent player the dealer
// acts at once (a check when checking is free, else a fold; R-21); otherwise the turn goes on screen
// and its clock starts when it is shown.
func (t *actor) afterStep(ctx context.Context, ch table.Chores, ans *answer) {
	t.stopTurn()
	if ch.Forfeit {
		t.forfeit(ctx, ans)
		return
	}
	if !ch.Turn {
		return
	}
	wait := ch.Wait
	l := t.live
	l.deadline, l.wait = time.Time{}, wait
	if wait > 0 {
		l.deadline = t.d.cfg.Now().Add(wait)
	}
	t.showLive(t.st.Hand, t.st.Rec.Hand, t.st.Names(), ans)
	if ans != nil && ans.update != nil || wait <= 0 {
		t.startTurnTimer(wait) // on screen already: the click's response shows it
		return
	}
	// The clock starts when the turn is on screen (outbox report), or after the core's backstop if
	// the platform does not show it.
	l.timerDue, l.turnShown = true, l.version
	tok := t.st.Token()
	t.d.after(t, ch.Backstop, func(ctx context.Context, t *actor) {
		if t.live == l && l.timerDue && t.st.Token() == tok {
			t.startTurnTimer(wait)
		}
	})
}

// scheduleDeal arms the pause before the automatic next hand when the core says the table deals by
// itself. While the last hand's rebuy offer waits to be on screen (dealWhenShown) the pause has not
// begun.
func (t *actor) scheduleDeal() {
	ch := t.chores(table.Timers{Deal: true})
	if !ch.Deal || t.dealTimer != nil || t.live != nil && t.live.dealDue {
		return
	}
	t.dealTimer = t.d.after(t, ch.Pause, func(ctx context.Context, t *actor) {
		t.dealTimer = nil
		t.autoDeal(ctx)
	})
}

// dealWhenShown starts the pause before the next deal once the hand's last version, which offers
// players out of chips a rebuy within the pause, is on screen, so they have all of it to answer:
// when the outbox reports it (shown), at once when the click's own response showed it, or after the
// core's backstop when the platform does not show it.
func (t *actor) dealWhenShown(ch table.Chores, ans *answer) {
	l := t.live
	if l == nil || ans != nil && ans.update != nil {
		t.scheduleDeal()
		return
	}
	l.dealDue, l.dealShown = true, l.version
	t.d.after(t, ch.Backstop, func(ctx context.Context, t *actor) {
		if t.live == l && l.dealDue {
			l.dealDue = false
			t.scheduleDeal()
		}
	})
}

// autoDeal deals the next hand by itself; a deal the store refuses is tried again (retry) on the
// deal timer, until a hand is dealt.
func (t *actor) autoDeal(ctx context.Context) {
	err := t.deal(ctx)
	if err != nil && !t.retry("automatic deal", err, &t.dealTimer, func(ctx context.Context, t *actor) { t.autoDeal(ctx) }) &&
		errs.CodeOf(err) == errs.Internal {
		t.d.log.Error("automatic deal", "table", t.id, "err", err)
	}
}

// endSession ends the session by itself (its set time is up, one player holds every chip, the host
// asked for it to end after the hand): everyone is cashed out, the standings recorded and the table
// closed, in one commit. It is an automatic step like a deal: the step that ended the session
// stands, and a commit the store refuses is retried on the deal timer (retry) while the table is
// still open between hands.
func (t *actor) endSession(ctx context.Context) {
	if !t.st.Open || t.st.Hand != nil {
		return // ended by the host meanwhile, or a player dealt: that hand's end decides
	}
	err := t.apply(ctx, t.st.EndSession(t.d.cfg.Now()), nil)
	if err != nil && !t.retry("end session", err, &t.dealTimer, func(ctx context.Context, t *actor) { t.endSession(ctx) }) {
		t.d.log.Error("end session", "table", t.id, "err", err)
	}
}
