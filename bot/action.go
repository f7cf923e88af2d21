package bot

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/dealerbot/dealerbot/bot/errs"
	"github.com/dealerbot/dealerbot/bot/table"
	"github.com/dealerbot/dealerbot/bot/vocab"
	"github.com/dealerbot/dealerbot/engine"
	"github.com/dealerbot/dealerbot/render"
)

// One action's path, in the order it travels, to be read top to bottom:
//
//	receive  Dealer.Handle: the per-user rate limit, workspace-wide verbs, the community's owner
//	queue    the table's goroutine runs its jobs one at a time (send, loop)
//	gate     the registry's entry, the button's turn, and what the verb needs (run, gate)
//	step     the pure core decides (table.State's verb, in run): a table.Step, or a refusal that changes nothing
//	commit   the Step's Change is on disk before anything is said (apply)
//	deliver  the new state, the hand's table message, private messages, the channel's posts
//	arm      the dealer's own next moves as the core decided them (table.Chores): the turn's clock,
//	         acting for an absent player, the ping, the next deal
//
// Delivery's own state (the table message's versions, what is on screen, pings) is the outbox
// (outbox.go), which this file hands messages to and which never calls back into an action.

// --- receive: a command comes in, is rate-limited and routed to its table ----------------------------

// Handle runs cmd and waits for the private reply. Workspace-wide verbs (help, chips, leaderboard,
// adjust, verify, the money and schedule verbs) run here, without a table; the rest run on their
// channel's table goroutine, in order. Private messages the command causes go out through Chat.Send
// before Handle returns; public ones (the table message, notes) are written in the background when
// the platform's rate limit allows (Flush waits for them). A user sending commands too fast is told
// to slow down and nothing runs. A command for a community another process owns is forwarded to it
// through the store's inbox, unless it was forwarded already (an owner applying forwarded commands,
// which were limited and counted where they came in, does not forward them again).
func (d *Dealer) Handle(ctx context.Context, cmd Command) (r Reply) {
	forward := !cmd.Forwarded
	if m := d.cfg.Metrics; m != nil && forward {
		start := time.Now()
		defer func() { m.Answered(r, start) }()
	}
	if forward && d.limiter != nil { // nil: limiting is off
		if err := d.limiter.allow(cmd, d.cfg.Now()); err != nil {
			return errorReply(d.log, err)
		}
	}
	if cmd.EndCommunity != "" { // the dealer's own request, forwarded by another process
		if err := d.endCommunity(ctx, cmd.Platform, cmd.Workspace, cmd.EndCommunity, forward); err != nil {
			return errorReply(d.log, err)
		}
		return Reply{Text: "The community's tables are closed."}
	}
	verb, name, v, args, known := d.verbs.lookup(cmd.Text)
	if known && v.Need < vocab.Table { // a workspace-wide verb: no table
		if cmd.Probe {
			return Reply{}
		}
		if v.Served && d.own != nil { // the community's owner runs it, under its lease
			fwd, err := d.own.Serve(ctx, cmd, forward)
			if err != nil {
				return errorReply(d.log.With("user", cmd.User, "verb", name), err)
			}
			if fwd != nil {
				return *fwd
			}
			ctx = d.own.Fenced(ctx, table.Community(cmd.Platform, cmd.Workspace))
		}
		err := d.gate(ctx, name, v, nil, cmd, args)
		var r Reply
		if err == nil {
			r, err = v.Run(ctx, d.env, cmd, args)
		}
		if err != nil {
			return errorReply(d.log.With("user", cmd.User, "verb", name), err)
		}
		return r
	}
	if !known && verb != "" { // every action is in the registry too
		if cmd.Probe {
			return Reply{}
		}
		return errorReply(d.log, unknownVerb(verb))
	}
	if d.own != nil { // processes share the store: this one may not serve cmd's community
		if fwd, err := d.own.Serve(ctx, cmd, forward); err != nil {
			return errorReply(d.log.With("table", tableID(cmd), "user", cmd.User, "command", verb), err)
		} else if fwd != nil {
			return *fwd
		}
	}
	r, err := d.send(ctx, tableID(cmd), nil, job{cmd: cmd}, verb == "start" && !cmd.Probe)
	if err != nil {
		switch {
		case errors.Is(err, errClosed):
			return Reply{Text: "The dealer is shutting down and nothing changed: try again when it is back.", IsError: true}
		case errors.Is(err, errNoTable):
			if verb == "" {
				return errorReply(d.log, errs.Errorf(errs.Invalid, "Type a command, or `help` for the list."))
			}
			return errorReply(d.log, errNoGame)
		}
		return errorReply(d.log, err)
	}
	return r
}

// tableID names a channel's table.
func tableID(cmd Command) string {
	return cmd.Platform + "/" + cmd.Workspace + "/" + cmd.Channel
}

// RateLimit bounds how fast one user's commands are taken: a bucket of Burst commands, refilled by
// one every Every. The zero value is DefaultRateLimit; Off turns limiting off (the console, where
// the only user is at the keyboard).
type RateLimit struct {
	Burst int
	Every time.Duration
	Off   bool
}

// DefaultRateLimit lets a player click and type as fast as a person does (ten at once, then one a
// second) and stops a script from flooding a table or the database.
var DefaultRateLimit = RateLimit{Burst: 10, Every: time.Second}

// maxBuckets bounds the limiter's memory: past it, buckets that are full again (idle users) are
// dropped.
const maxBuckets = 10000

// limiter is a token bucket per platform, workspace and user.
type limiter struct {
	rl      RateLimit
	mu      sync.Mutex
	buckets map[string]*bucket
}

type bucket struct {
	tokens float64
	at     time.Time
}

// newLimiter is the limiter of rl, nil when rl is Off.
func newLimiter(rl RateLimit) *limiter {
	if rl.Off {
		return nil
	}
	if rl.Burst <= 0 || rl.Every <= 0 {
		rl.Burst, rl.Every = DefaultRateLimit.Burst, DefaultRateLimit.Every
	}
	return &limiter{rl: rl, buckets: map[string]*bucket{}}
}

// allow takes one token for cmd's user, or refuses with a sentence when there is none.
func (l *limiter) allow(cmd Command, now time.Time) error {
	if cmd.Probe || cmd.Schedule != "" { // the scheduler is bounded by its own limits
		return nil // a probe is the first half of a click that is counted when it is submitted
	}
	key := cmd.Platform + "\x00" + cmd.Workspace + "\x00" + cmd.User
	l.mu.Lock()
	defer l.mu.Unlock()
	b := l.buckets[key]
	if b == nil {
		if len(l.buckets) >= maxBuckets {
			l.prune(now)
		}
		b = &bucket{tokens: float64(l.rl.Burst), at: now}
		l.buckets[key] = b
	}
	l.refill(b, now)
	if b.tokens < 1 {
		wait := time.Duration((1 - b.tokens) * float64(l.rl.Every))
		return errs.Errorf(errs.TooMany, "You are sending commands too fast: slow down and try again in %d s.", int(wait/time.Second)+1)
	}
	b.tokens--
	return nil
}

func (l *limiter) refill(b *bucket, now time.Time) {
	if el := now.Sub(b.at); el > 0 {
		b.tokens = min(float64(l.rl.Burst), b.tokens+float64(el)/float64(l.rl.Every))
	}
	b.at = now
}

// prune drops the buckets of users who have been idle long enough to be full again.
func (l *limiter) prune(now time.Time) {
	for k, b := range l.buckets {
		l.refill(b, now)
		if b.tokens >= float64(l.rl.Burst) {
			delete(l.buckets, k)
		}
	}
}

// --- queue: one goroutine per table runs its jobs in order -------------------------------------------

var errClosed = errors.New("the dealer is shutting down")

// errNoTable is send's answer for a channel without a table when the command may not open one.
var errNoTable = errors.New("no table in this channel")

// send queues a job on table id's goroutine and waits for its reply. With t set, the job is for that
// very goroutine (a timer, the outbox), which may have retired meanwhile (its session ended):
// errNoTable. Otherwise only `start` (create) brings a table goroutine into being; any other command
// for a channel without one gets errNoTable, so a command in a channel with no game costs no
// goroutine. The table is pinned (t.refs) from the look-up until the job is queued, so the goroutine
// never retires under a sender (see retire), and a full queue at one table holds up only that
// table's callers: the dealer's lock is released before queueing.
func (d *Dealer) send(ctx context.Context, id string, t *actor, j job, create bool) (Reply, error) {
	d.mu.Lock()
	if d.closed {
		d.mu.Unlock()
		return Reply{}, errClosed
	}
	cur := d.tables[id]
	if cur == nil && t == nil && create {
		cur = d.newTableLocked(id)
	}
	if cur == nil || t != nil && cur != t {
		d.mu.Unlock()
		return Reply{}, errNoTable
	}
	t = cur
	t.refs++
	d.mu.Unlock()
	j.ctx = ctx
	j.done = make(chan Reply, 1)
	release := func() { d.mu.Lock(); t.refs--; d.mu.Unlock() }
	t.sendMu.RLock()
	if t.closed {
		t.sendMu.RUnlock()
		release()
		return Reply{}, errClosed
	}
	select {
	case t.jobs <- &j:
		t.sendMu.RUnlock()
		release()
	case <-ctx.Done():
		t.sendMu.RUnlock()
		release()
		return Reply{}, ctx.Err()
	}
	select {
	case r := <-j.done:
		return r, nil
	case <-ctx.Done():
		return Reply{}, ctx.Err()
	}
}

func (t *actor) loop() {
	defer t.d.wg.Done()
	defer close(t.exited)
	for j := range t.jobs {
		j.done <- t.runJob(*j)
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
	if t.unsure && !t.reconcile(j.ctx) { // a commit's fate is not known yet: nothing runs on a guess
		if j.fire != nil {
			t.reconcileLater()
			return Reply{}
		}
		return errorReply(t.d.log, fmt.Errorf("table %s: %w", t.id, ErrStoreUnreachable))
	}
	if j.fire != nil {
		j.fire(j.ctx, t)
		return Reply{}
	}
	return t.handle(j.ctx, j.cmd)
}

// --- gate, then step: the verb, the button's turn, what the verb needs; then the core decides -------

// handle runs one command. Every refusal is a private reply with IsError set and changes nothing.
func (t *actor) handle(ctx context.Context, cmd Command) Reply {
	ans := &answer{click: cmd.Message}
	r, err := t.run(ctx, cmd, ans)
	if ans.update != nil {
		r.Update = ans.update
	}
	if err != nil {
		r = errorReply(t.d.log.With("table", t.id, "user", cmd.User, "command", cmd.Text), err)
		if errors.Is(err, errEarlierTurn) || errors.Is(err, ErrApplied) {
			r.Update = t.newest(cmd) // the clicker's message is behind: the refusal brings it up to date
		}
	}
	if p := t.pending[cmd.User]; len(p) > 0 && !cmd.Probe { // a probe's answer only opens a form
		// The user's undelivered private messages come with their reply.
		delete(t.pending, cmd.User)
		for _, pm := range p {
			r.Extra = append(r.Extra, pm.m)
		}
		r.Buttons = append(r.Buttons, render.Button{Label: "Show my cards", Command: "cards", Style: render.Secondary})
	}
	return r
}

// newest is the hand's table message as last rendered, for a click on that very message refused as
// from an earlier turn or as a repeat (the same interaction delivered to two processes): whichever
// of a repeated click's answers the platform shows, the message is then current. The outbox's
// bookkeeping is left alone: a newer version it still has to write, it writes. nil when the click
// was on another message.
func (t *actor) newest(cmd Command) *render.Message {
	l := t.live
	if cmd.Message == "" || cmd.Probe || l == nil || l.last == nil || t.out == nil || !t.out.editable(l.no, cmd.Message) {
		return nil
	}
	m := *l.last
	return &m
}

// isAction reports whether verb is a betting action of the player to act.
func isAction(verb string) bool {
	switch verb {
	case "fold", "check", "call", "bet", "raise", "allin", "all-in", "runtwice":
		return true
	}
	return false
}

// registry is the dealer's one table of verbs: the table's own and every feature's (Config.Verbs),
// filled once when the dealer is made.
type registry map[string]vocab.Verb

// newRegistry returns a registry holding every verb of sets. Two verbs of one name, or a verb that
// says no need, are a programming error: newRegistry panics with the name.
func newRegistry(sets ...vocab.Verbs) registry {
	r := registry{}
	for _, set := range sets {
		for name, v := range set {
			if _, dup := r[name]; dup {
				panic(fmt.Sprintf("bot: verb %q registered twice", name))
			}
			if v.Need == vocab.Unset || v.Runner == nil || v.Need == vocab.Holder && v.Holder == nil {
				panic(fmt.Sprintf("bot: verb %q says no need, no runner, or no holder", name))
			}
			r[name] = v
		}
	}
	return r
}

// lookup finds a command line's verb: its first two words when they are a verb of their own
// ("schedule add"), else its first word. It returns the line's first word (lower-cased, "" for an
// empty line), the verb's name and the arguments after it.
func (r registry) lookup(text string) (first, name string, v vocab.Verb, args []string, ok bool) {
	fields := strings.Fields(text)
	if len(fields) == 0 {
		return "", "", vocab.Verb{}, nil, false
	}
	first, args = strings.ToLower(fields[0]), fields[1:]
	if len(args) > 0 {
		two := first + " " + strings.ToLower(args[0])
		if v, ok := r[two]; ok {
			return first, two, v, args[1:], true
		}
	}
	v, ok = r[first]
	return first, first, v, args, ok
}

func unknownVerb(verb string) error {
	return errs.Errorf(errs.Invalid, "I do not know %s. Type `help` for the list of commands.", errs.Quote(verb))
}

var errNoGame = errs.Errorf(errs.NotFound, "There is no game in this channel yet: type `start` to open a table.")

// gate checks what verb name needs before it runs, with args its arguments: the one place a
// permission rule lives. t is the channel's table for the verbs that run on it, nil for the
// workspace-wide ones. A verb without a need is refused as an internal error.
func (d *Dealer) gate(ctx context.Context, name string, v vocab.Verb, t *actor, cmd Command, args []string) error {
	switch v.Need {
	case vocab.Anyone, vocab.Table:
		return nil
	case vocab.Admin:
		if !cmd.Admin {
			return errs.Errorf(errs.Forbidden, "Only a server or workspace admin can %s.", v.Refusal)
		}
		return nil
	case vocab.ChannelHost:
		if cmd.Admin {
			return nil
		}
		rec, open, err := d.store.Table(ctx, cmd.TableID())
		if err != nil {
			return fmt.Errorf("load table %s: %w", cmd.TableID(), err)
		}
		if !open || rec.Host != cmd.User {
			return errs.Errorf(errs.Forbidden, "Only an admin or the host of this channel's table can %s.", v.Refusal)
		}
		return nil
	case vocab.Holder:
		o, err := v.Holder(ctx, cmd, args) // for an admin too: what the command names must exist
		if err != nil {
			return err
		}
		if !cmd.Admin && cmd.User != o.User {
			return errs.Errorf(errs.Forbidden, "Only %s, who hosts %s, or an admin can %s.", o.Name, o.Of, v.Refusal)
		}
		return nil
	case vocab.Open, vocab.Seat, vocab.SeatOrHost, vocab.Host:
		if !t.st.Open {
			return errNoGame
		}
		switch seated := t.st.SeatOf(cmd.User) >= 0; {
		case v.Need == vocab.Seat && !seated:
			return errs.Errorf(errs.Forbidden, "You are not seated at this table: %s", v.Refusal)
		case v.Need == vocab.SeatOrHost && !seated && !t.st.IsHost(caller(cmd)):
			return errs.Errorf(errs.Forbidden, "Only players at this table can %s", v.Refusal)
		case v.Need == vocab.Host && !t.st.IsHost(caller(cmd)):
			return errs.Errorf(errs.Forbidden, "Only the host (%s) or an admin can %s.", t.st.Rec.HostName, v.Refusal)
		}
		return nil
	}
	return fmt.Errorf("verb %q has no need the gate knows (%d)", name, v.Need)
}

// core adapts a verb of the table core (table.Verb) to the registry's Runner, the way
// http.HandlerFunc adapts a function: the table's goroutine runs it as one step (actor.run), and
// nothing else may.
type core table.Verb

// Run refuses: a verb of the core runs only as a step of the channel's table.
func (c core) Run(context.Context, vocab.Env, Command, []string) (Reply, error) {
	return Reply{}, errors.New("a verb of the table core ran outside its table")
}

// tableVerbs are the core's verbs (table.Verbs) as the registry holds them.
func tableVerbs() vocab.Verbs {
	out := vocab.Verbs{}
	for name, v := range table.Verbs() {
		out[name] = vocab.Verb{Need: v.Need, Refusal: v.Refusal, Runner: core(v)}
	}
	return out
}

// errEarlierTurn refuses a click on a button of a turn that is over.
var errEarlierTurn = errs.Errorf(errs.Conflict, "That button is from an earlier turn: use the newest message.")

// run runs one command on the table goroutine: the button check, the gate, then the verb. A core
// verb is a step: the core decides, then the shell commits its Change and, only once it is on disk,
// takes the new state, tells the channel and arms the timers (apply). A refused verb changes nothing.
func (t *actor) run(ctx context.Context, cmd Command, ans *answer) (Reply, error) {
	first, name, v, args, ok := t.d.verbs.lookup(cmd.Text)
	switch {
	case first == "":
		return Reply{}, errs.Errorf(errs.Invalid, "Type a command, or `help` for the list.")
	case cmd.Token != "" && cmd.Token != t.st.Token():
		return Reply{}, errEarlierTurn
	case cmd.Probe && !isAction(first):
		return Reply{}, nil // only actions are probed; anything else may always be tried
	case !ok:
		return Reply{}, unknownVerb(first)
	}
	if err := t.d.gate(ctx, name, v, t, cmd, args); err != nil {
		return Reply{}, err
	}
	by := table.Caller{User: cmd.User, Name: cmd.UserName, Admin: cmd.Admin, Schedule: cmd.Schedule}
	if cmd.Probe {
		_, err := t.st.MayAct(by) // may this player act now? (before a form opens for the amount)
		return Reply{}, err
	}
	c, isCore := v.Runner.(core)
	if !isCore {
		return v.Run(ctx, t.d.env, cmd, args)
	}

	// --- step: the core decides, on the table's state and what the verb reads besides it ---
	in := table.Inputs{StartingBankroll: t.d.cfg.StartingBankroll, Style: cardStyle(t.d.pictures, t.st.Rec.Platform, t.st.Rec.Settings.Cards),
		Where: table.TableRecord{ID: t.id, Platform: cmd.Platform, Workspace: cmd.Workspace, Channel: cmd.Channel}}
	if p := t.d.pictures; p != nil {
		_, in.CardPictures = p.CardFaces(cmd.Platform, false)
	}
	var err error
	if c.Reads&table.ReadsPlayer != 0 {
		if in.Player, in.Known, err = t.d.store.Player(ctx, cmd.Workspace, cmd.User); err != nil {
			return Reply{}, err
		}
	}
	if c.Reads&table.ReadsDeal != 0 {
		in.Rand, in.LastHand = shuffler{t.d}, t.handFloor
	}
	if c.Reads&table.ReadsLastHand != 0 {
		if in.LastHand, err = t.lastHandNo(ctx); err != nil {
			return Reply{}, err
		}
	}
	st, err := c.Do(t.st, t.d.cfg.Now(), by, args, in)
	if err != nil {
		return Reply{}, err
	}
	st.Change.Once = cmd.ID
	if cmd.Inbox != 0 && !st.Change.Empty() { // a forwarded command: its reply lands with its step
		data, _ := json.Marshal(Reply{Text: st.Reply})
		st.Change.Answer = &table.InboxAnswer{Seq: cmd.Inbox, Reply: data}
	}
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

// caller is who runs cmd, for the core.
func caller(cmd Command) table.Caller {
	return table.Caller{User: cmd.User, Name: cmd.UserName, Admin: cmd.Admin, Schedule: cmd.Schedule}
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

// --- commit, then deliver: on disk first, then the state, the table message, private and public messages

// apply commits a step and then carries it out: the new state, the hand's table message, the hole
// cards, the channel's posts, then the session's end or the timers. When the commit fails nothing
// of it happens: the core changed nothing, so the table is as it was. The session's end is a step of
// its own (endSession), retried when refused: it does not undo the step that led to it.
func (t *actor) apply(ctx context.Context, st table.Step, ans *answer) error {
	var settleUp *render.Message // a money table's session ended: its settle-up (settleSession)
	version, began := t.st.Rec.Version, time.Now()
	if !st.Change.Empty() {
		c := st.Change
		c.Fence = t.fence
		stepped := c.Table != nil || c.Actions != nil || c.DeleteTable != "" // c.TableID() != "", inline: every action runs it
		if stepped {                                                         // the change applies only to the version it was computed from (see settle)
			c.Step, c.Base = t.d.stepPrefix+strconv.FormatUint(t.d.steps.Add(1), 36), version
			version++
		}
		var err error
		if rec := t.st.Rec; c.Session != nil && t.st.Open && rec.Tournament == nil && rec.Settings.Money.On() {
			settleUp, err = t.settleSession(ctx, c) // actor.go: the night's results in money go with it
		} else {
			err = t.d.store.Commit(ctx, c)
		}
		if m := t.d.cfg.Metrics; m != nil {
			m.Committed(time.Since(began))
		}
		if err != nil && stepped && errors.Is(err, ErrOutcomeUnknown) {
			err = t.settle(c, err) // the answer was lost: did it land?
		}
		if err != nil {
			switch {
			case errors.Is(err, ErrNotOwner):
				t.d.own.LostFence(t.fence) // another process took the community over
			case errors.Is(err, ErrStale), errors.Is(err, ErrApplied):
				t.unsure = true // the store is ahead of this table: read it back before the next job
			}
			return &commitError{table: t.id, err: err}
		}
		t.failures = 0
		if m := t.d.cfg.Metrics; m != nil {
			m.Applied(!t.inStep)
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
		t.st.DealDelay = t.d.cfg.DealDelay
	}
	t.st.Rec.Version = version
	t.midHand.Store(t.st.Hand != nil)
	t.lastStep.Store(began.UnixNano())
	if v := st.View; v != nil {
		// What the step did to the running hand goes on its table message: a new message for a new
		// hand, then the step's lines.
		if v.Deal != nil {
			t.newLive(v.Deal, v.Notes) // the deal's notes go on the hand's table message, not in posts
			// Whoever dealt, the deal timer (a pause still running, or a refused deal's retry) has
			// nothing left to do: the next pause starts when this hand ends.
			stop(&t.dealTimer)
		}
		if t.live != nil {
			t.live.lines.Add(v, cardStyle(t.d.pictures, t.st.Rec.Platform, t.st.Rec.Settings.Cards))
		}
	}
	for _, p := range st.Private {
		t.private(ctx, p.User, p.Message)
	}
	if v := st.View; v != nil && v.Hand.Done() {
		// The hand's last version: the showdown, the awards and what they mean for the table, in the
		// message already on screen rather than in posts of their own.
		t.dropPending(v.State.No)
		stop(&t.turnTimer, &t.pingTimer)
		t.showLive(v.Hand, v.State, v.Names, ans)
	}
	if len(st.Posts) > 0 {
		t.public(st.Posts...)
	}
	if st.Ends {
		t.endSession(ctx)
		return nil
	}
	// The dealer's own next moves are the core's decision; the shell arms them.
	ch := t.st.Chores(t.d.cfg.Now(), st.Timers)
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

// newLive starts the table message of hand hs, whose deal said notes.
func (t *actor) newLive(hs *table.HandState, notes []string) {
	t.live = &liveHand{no: hs.No, lines: table.NewLines(hs, notes)}
}

// showLive renders the hand's table message and delivers it: through the click being answered when the
// click was on this very message (Reply.Update, no channel budget spent), else by the outbox.
func (t *actor) showLive(h *engine.Hand, hs *table.HandState, names render.Names, ans *answer) {
	if t.live == nil {
		return // no hand on screen
	}
	if t.out == nil {
		t.initOutbox()
	}
	l := t.live
	if l.pinged != "" && (h.Done() || t.st.Token() != l.pinged) {
		t.out.unping() // the turn passed
		l.pinged = ""
	}
	l.version++
	m := render.HandTable(t.st.HandView(l.lines, h, hs, names, t.d.cfg.Now(), l.deadline), cardStyle(t.d.pictures, t.st.Rec.Platform, t.st.Rec.Settings.Cards))
	l.last = &m
	msg := Message{Platform: t.st.Rec.Platform, Workspace: t.st.Rec.Workspace, Channel: t.st.Rec.Channel, Message: m}
	var pic *render.Showdown // the showdown picture of a finished hand, where the platform shows pictures
	if p := t.d.pictures; h.Done() && p != nil && p.ShowsPictures(t.st.Rec.Platform) {
		pic = t.st.Picture(l.lines, h, names)
	}
	if ans != nil && ans.click != "" && t.out.editable(l.no, ans.click) {
		ans.update = &m
		t.out.deliveredBy(l.no, l.version, ans.click)
		if pic == nil {
			return
		}
		// The result is on screen at once through the click; the picture follows in an edit of its own.
		l.version++
	}
	t.out.put(liveVersion{hand: l.no, version: l.version, msg: msg, pic: pic})
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
	if blocked && t.d.dms.warn(t.st.Rec.Workspace, user) {
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

// public posts msgs to the table's channel through the table's outbox, written when the platform
// allows and never holding up the table.
func (t *actor) public(msgs ...render.Message) {
	if t.out == nil {
		t.initOutbox()
	}
	for _, m := range msgs {
		m.Private = false
		t.out.say(Message{Platform: t.st.Rec.Platform, Workspace: t.st.Rec.Workspace, Channel: t.st.Rec.Channel, Message: m})
	}
}

func (t *actor) publicf(format string, args ...any) {
	t.public(render.Message{Text: fmt.Sprintf(format, args...)})
}

// cardStyle is how a table on platform with the card setting kind draws cards: its setting, with the
// platform's card pictures for a table that chose pictures (drawn as emoji while the platform has none).
func cardStyle(p Pictures, platform string, kind render.CardKind) render.CardStyle {
	st := render.CardStyle{Kind: kind}
	if st.Kind == render.CardText || st.Kind == render.CardEmoji {
		return st
	}
	if p != nil {
		st.Faces, _ = p.CardFaces(platform, st.Kind == render.CardImages4)
	}
	if st.Faces == nil {
		st.Kind = render.CardEmoji
	}
	return st
}

// --- arm: the dealer's own next moves, as the core decided them --------------------------------------

// afterStep carries out the core's chores for the turn: for a leaving or absent player the dealer
// acts at once (a check when checking is free, else a fold; R-21); otherwise the turn goes on screen
// and its clock starts when it is shown.
func (t *actor) afterStep(ctx context.Context, ch table.Chores, ans *answer) {
	stop(&t.turnTimer, &t.pingTimer)
	if ch.Forfeit {
		t.forfeit(ctx, ans)
		return
	}
	if !ch.Turn {
		return
	}
	wait := ch.Wait
	l := t.live
	l.deadline, l.wait, l.ping = time.Time{}, wait, ch.PingAfter
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
	t.after(ch.Backstop, func(ctx context.Context, t *actor) {
		if t.live == l && l.timerDue && t.st.Token() == tok {
			t.startTurnTimer(wait)
		}
	})
}

// forfeit checks for the absent player to act when checking is free, else folds. When the
// store refuses it, the table message shows the hand as it stands, the absent player's turn without
// a clock, rather than the turn before it, while the step is tried again.
func (t *actor) forfeit(ctx context.Context, ans *answer) {
	l := t.live
	l.timerDue, l.deadline, l.wait = false, time.Time{}, 0 // no clock for this turn
	// A retry asks the core afresh: the player may be back (`sitin`) and get the turn.
	again := func(ctx context.Context, t *actor) {
		t.afterStep(ctx, t.st.Chores(t.d.cfg.Now(), table.Timers{Turn: true}), nil)
	}
	if err := t.play(ctx, "act for leaving player", table.State.Forfeit, ans, again); err != nil && l.stalled != t.st.Token() {
		l.stalled = t.st.Token()
		t.showLive(t.st.Hand, t.st.Rec.Hand, t.st.Names(), ans)
	}
}

// play runs a step of the running hand the core takes for the player to act (the clock's timeout,
// a check or fold for an absent player). Nobody is waiting for an answer: a failure is logged, and a
// step the store refused is retried (again runs on the turn's timer) while the turn is the same.
func (t *actor) play(ctx context.Context, what string, do func(table.State, time.Time) (table.Step, error), ans *answer,
	again func(ctx context.Context, t *actor)) error {
	tok := t.st.Token()
	st, err := do(t.st, t.d.cfg.Now())
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

// startTurnTimer starts the turn's clock, wait from now, and the turn's ping: the player to act is
// pinged if they have not acted PingAfter after their turn was shown.
func (t *actor) startTurnTimer(wait time.Duration) {
	stop(&t.turnTimer, &t.pingTimer)
	l := t.live
	if l != nil {
		l.timerDue = false
	}
	if t.st.Hand == nil {
		return
	}
	tok := t.st.Token()
	after := t.d.cfg.PingAfter // without a timer; with one, the core's time (a third of it left)
	if l != nil && l.ping != 0 {
		after = l.ping
	}
	if l != nil && after > 0 && !t.st.Hand.Done() && t.out != nil && l.pinged != tok {
		t.pingTimer = t.after(after, func(_ context.Context, t *actor) {
			t.pingTimer = nil
			if t.st.Hand == nil || t.live != l || t.st.Token() != tok {
				return // acted in time, or the hand is over
			}
			if text, ok := t.st.Ping(t.d.cfg.Now(), l.deadline); ok {
				m := t.out.where
				m.Message = render.Message{Text: text}
				t.out.ping(m)
				l.pinged = tok
			}
		})
	}
	if wait <= 0 {
		return
	}
	t.turnTimer = t.after(wait, func(ctx context.Context, t *actor) {
		if t.st.Hand == nil || t.st.Token() != tok {
			return // acted in time
		}
		t.turnTimer = nil
		t.timeout(ctx)
	})
}

// scheduleDeal arms the pause before the automatic next hand when the core says the table deals by
// itself. While the last hand's rebuy offer waits to be on screen (dealWhenShown) the pause has not
// begun.
func (t *actor) scheduleDeal() {
	ch := t.st.Chores(t.d.cfg.Now(), table.Timers{Deal: true})
	if !ch.Deal || t.dealTimer != nil || t.live != nil && t.live.dealDue {
		return
	}
	t.dealTimer = t.after(ch.Pause, func(ctx context.Context, t *actor) {
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
	t.after(ch.Backstop, func(ctx context.Context, t *actor) {
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
// on stops the turn's timer and with it the retry; a player's `deal` stops the deal
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
		// dropped here (own.Owner.LostFence), nothing to retry.
		t.d.log.Info(what+": the community moved to another process", "table", t.id)
		return true
	}
	t.failures++
	wait := retryWait(t.failures)
	t.d.log.Error(what, "table", t.id, "err", err, "retry_in", wait, "refusals", t.failures)
	stop(tm)
	*tm = t.after(wait, func(ctx context.Context, t *actor) {
		*tm = nil
		again(ctx, t)
	})
	return true
}

// after starts a timer (Config.AfterFunc, else the real clock's) whose work runs on the table
// goroutine. The work runs at most once, not at all after Close, and not after the table's session
// ended (its goroutine is gone).
func (t *actor) after(wait time.Duration, work func(ctx context.Context, t *actor)) Timer {
	fire := func() { t.tell(work) }
	if t.d.cfg.AfterFunc != nil {
		return t.d.cfg.AfterFunc(wait, fire)
	}
	return time.AfterFunc(wait, fire)
}

// tell runs work on t's goroutine and waits for it; nothing runs when t's session ended (its
// goroutine is gone) or the dealer is closing. Timers, the outbox and Flush reach the table this way.
func (t *actor) tell(work func(ctx context.Context, t *actor)) {
	_, _ = t.d.send(context.Background(), t.id, t, job{fire: work}, false)
}

func (t *actor) stopTimers() { stop(&t.turnTimer, &t.pingTimer, &t.dealTimer) }

// stop stops timers, those that are set, and forgets them. stop(&t.turnTimer, &t.pingTimer) stops
// the current turn's clock and its ping.
func stop(tms ...*Timer) {
	for _, tm := range tms {
		if *tm != nil {
			(*tm).Stop()
			*tm = nil
		}
	}
}

// --- automatic steps: the deal of the next hand and the end of the session, carried out like a player's

// shuffler is the dealer's randomness for the core's deal (table.Random).
type shuffler struct{ d *Dealer }

func (r shuffler) Deck() (engine.Deck, error) {
	r.d.randMu.Lock()
	defer r.d.randMu.Unlock()
	return engine.ShuffledDeck(r.d.cfg.Rand)
}

func (r shuffler) Salt() (string, error) {
	salt := make([]byte, 16)
	r.d.randMu.Lock()
	_, err := io.ReadFull(r.d.cfg.Rand, salt)
	r.d.randMu.Unlock()
	if err != nil {
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
	st, err := t.st.NextHand(t.d.cfg.Now(), table.Inputs{LastHand: t.handFloor, Style: cardStyle(t.d.pictures, t.st.Rec.Platform, t.st.Rec.Settings.Cards), Rand: shuffler{t.d}})
	if err != nil {
		return err
	}
	return t.apply(ctx, st, nil)
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
