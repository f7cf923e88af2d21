package bot

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dealerbot/dealerbot/bot/errs"
	"github.com/dealerbot/dealerbot/bot/schedule"
	"github.com/dealerbot/dealerbot/engine"
)

// Config holds the dealer's injected dependencies and defaults. The zero value is usable.
type Config struct {
	// StartingBankroll is a new player's bankroll, recorded in the ledger as a grant; 0 means the
	// default 10000, NoStartingBankroll means none (players get chips only from an admin's adjust).
	// At most engine.MaxChips.
	StartingBankroll int64
	// Now is the clock; default time.Now.
	Now func() time.Time
	// AfterFunc starts a timer; default wraps time.AfterFunc. Tests inject a fake clock.
	AfterFunc func(d time.Duration, f func()) Timer
	// Rand drives shuffles and deck salts; default crypto/rand.
	Rand io.Reader
	// DealDelay is the pause before the automatic next hand; 0 means 3s, a negative value none.
	DealDelay time.Duration
	// Logger receives internal errors; default discards.
	Logger *slog.Logger
	// RateLimit bounds how fast one user's commands are taken; the zero value is DefaultRateLimit.
	RateLimit RateLimit
	// PingAfter is how long a turn shown on a live table may wait before its player is pinged by a
	// short mention post (deleted when the turn passes); 0 means 10 s, a negative value never.
	PingAfter time.Duration
	// Owner names this process when several processes share the store (PostgreSQL): the dealer then
	// serves only the communities it holds a lease on (see owner.go), and every table write carries
	// the lease's fence. Empty: one process serves every table, as with the bbolt file.
	Owner string
	// Lease is how long a community's lease lasts without renewal, the time after which another
	// process may take over a community whose owner died; 0 means DefaultLease (10 s).
	Lease time.Duration
	// Metrics, when set, records what the dealer does (NewMetrics); nil records nothing.
	Metrics *Metrics
}

// NoStartingBankroll, as Config.StartingBankroll, gives new players no chips.
const NoStartingBankroll = -1

// Timer is a started timer; Stop reports whether it stopped the timer before it fired.
type Timer interface{ Stop() bool }

// Dealer deals at every table. Each table has one goroutine that runs its commands in order.
type Dealer struct {
	store Store
	chat  Chat
	cfg   Config
	log   *slog.Logger

	randMu sync.Mutex // Rand is shared by every table

	mu     sync.Mutex // guards tables, closed and ended
	tables map[string]*actor
	closed bool
	// ended are the outboxes of tables whose session ended (their goroutine is gone) that may still
	// be writing the last posts, the standings among them: Flush and Close wait for them too.
	ended []*outbox
	wg    sync.WaitGroup

	dmMu     sync.Mutex
	dmWarned map[string]bool // workspace/user told how to allow DMs

	limiter *limiter
	verbs   map[string]verb // the command table (newVerbs)
	// sched answers the schedule commands once a Scheduler runs beside the dealer (NewScheduler).
	sched atomic.Pointer[schedule.Manager]

	// Ownership when processes share the store (Config.Owner; owner.go). leases is nil otherwise.
	leases Leases
	owned  map[string]*community // guarded by mu
	me     Lease                 // this process's own lease: shows it is alive; guarded by mu
	// meRenewed is when me was last renewed (local clock); guarded by mu.
	meRenewed time.Time
	ownStop   chan struct{}
	ownDone   chan struct{}
	inbox     Inbox // commands for communities other processes own go there; nil without one
	// inboxStop ends the loop applying forwarded commands.
	inboxStop context.CancelFunc
}

// job is one unit of work for a table goroutine.
type job struct {
	ctx  context.Context
	cmd  Command
	fire func(ctx context.Context, t *actor) // a timer's work instead of a command
	done chan Reply
}

// New returns a dealer and restores every table from the store: a hand in progress resumes at the
// same decision point, or is cancelled with every chip returned when it cannot be replayed.
func New(store Store, chat Chat, cfg Config) (*Dealer, error) {
	switch {
	case cfg.StartingBankroll == 0:
		cfg.StartingBankroll = 10000
	case cfg.StartingBankroll < 0:
		cfg.StartingBankroll = 0
	case cfg.StartingBankroll > engine.MaxChips:
		return nil, fmt.Errorf("the starting bankroll may be at most %d chips, not %d", engine.MaxChips, cfg.StartingBankroll)
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.AfterFunc == nil {
		cfg.AfterFunc = func(d time.Duration, f func()) Timer { return time.AfterFunc(d, f) }
	}
	if cfg.Rand == nil {
		cfg.Rand = rand.Reader
	}
	switch {
	case cfg.DealDelay == 0:
		cfg.DealDelay = 3 * time.Second
	case cfg.DealDelay < 0:
		cfg.DealDelay = 0
	}
	switch {
	case cfg.PingAfter == 0:
		cfg.PingAfter = 10 * time.Second
	case cfg.PingAfter < 0:
		cfg.PingAfter = 0
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	d := &Dealer{store: store, chat: chat, cfg: cfg, log: cfg.Logger,
		tables: map[string]*actor{}, dmWarned: map[string]bool{}, limiter: newLimiter(cfg.RateLimit), verbs: newVerbs()}
	ctx := context.Background()
	if cfg.Owner != "" {
		// Tables are restored community by community as this process claims them.
		if err := d.startOwning(ctx); err != nil {
			return nil, err
		}
		return d, nil
	}
	recs, err := store.Tables(ctx)
	if err != nil {
		return nil, fmt.Errorf("load tables: %w", err)
	}
	sort.Slice(recs, func(i, j int) bool { return recs[i].ID < recs[j].ID })
	for i := range recs {
		rec := recs[i]
		t := d.newTable(rec.ID)
		if err := t.restore(ctx, rec); err != nil {
			d.Close(ctx)
			return nil, fmt.Errorf("restore table %s: %w", rec.ID, err)
		}
	}
	return d, nil
}

// tableID names a channel's table.
func tableID(cmd Command) string {
	return cmd.Platform + "/" + cmd.Workspace + "/" + cmd.Channel
}

// newTable registers a table and starts its goroutine. d.mu must not be held.
func (d *Dealer) newTable(id string) *actor {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.newTableLocked(id)
}

func (d *Dealer) newTableLocked(id string) *actor {
	t := &actor{d: d, id: id, jobs: make(chan job, 64), pending: map[string][]pendingMessage{}, fence: d.fenceLocked(id),
		exited: make(chan struct{})}
	d.tables[id] = t
	d.wg.Add(1)
	go t.loop()
	return t
}

var errClosed = errors.New("the dealer is shutting down")

// errNoTable is submit's answer for a channel without a table when the command may not open one.
var errNoTable = errors.New("no table in this channel")

// submit queues a job on a table's goroutine and waits for it. Only `start` (create) brings a table
// goroutine into being; any other command for a channel without one gets errNoTable, so a command in
// a channel with no game costs no goroutine. A full queue at one table holds up only that table's
// callers: the dealer's lock is released before queueing.
func (d *Dealer) submit(ctx context.Context, id string, j job, create bool) (Reply, error) {
	d.mu.Lock()
	t := d.tables[id]
	if t == nil && create && !d.closed {
		t = d.newTableLocked(id)
	}
	if t != nil {
		// Pinned until j is queued: a table without a session retires after any job, and another
		// job (a Flush, a timer) could otherwise reach a new table first and retire it under `start`.
		t.refs++
	}
	d.mu.Unlock()
	if t == nil {
		if d.isClosed() {
			return Reply{}, errClosed
		}
		return Reply{}, errNoTable
	}
	return d.queue(ctx, t, j)
}

func (d *Dealer) isClosed() bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.closed
}

// sendTo queues j on t if t is still registered. t.refs counts senders between the look-up and the
// queue, so the table goroutine never retires under one of them (see table.retire).
func (d *Dealer) sendTo(ctx context.Context, t *actor, j job) (Reply, error) {
	d.mu.Lock()
	if d.closed {
		d.mu.Unlock()
		return Reply{}, errClosed
	}
	if d.tables[t.id] != t {
		d.mu.Unlock()
		return Reply{}, errNoTable // retired: its session ended
	}
	t.refs++
	d.mu.Unlock()
	return d.queue(ctx, t, j)
}

// queue queues j on t, whose reference the caller took (t.refs), releases that reference once j is
// queued, and waits for j's reply.
func (d *Dealer) queue(ctx context.Context, t *actor, j job) (Reply, error) {
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
	case t.jobs <- j:
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

// Handle runs cmd and waits for the private reply. Workspace-wide verbs (help, chips, leaderboard,
// adjust, verify, the money and schedule verbs) run here, without a table; the rest run on their channel's table goroutine, in
// order. Private messages the command causes go out through Chat.Send before Handle returns; public
// ones (the table message, notes) are written in the background when the platform's rate limit
// allows (Flush waits for them). A user sending commands too fast is told to slow down and nothing
// runs.
func (d *Dealer) Handle(ctx context.Context, cmd Command) (r Reply) {
	if m := d.cfg.Metrics; m != nil {
		start := time.Now()
		defer func() { m.answered(r, start) }()
	}
	if err := d.limiter.allow(cmd, d.cfg.Now()); err != nil {
		return errorReply(d.log, err)
	}
	return d.handle(ctx, cmd, true)
}

// handle runs cmd (Handle without the rate limit). A command for a community another process owns
// is forwarded to it through the store's inbox when forward is set (an owner applying forwarded
// commands does not forward them again).
func (d *Dealer) handle(ctx context.Context, cmd Command, forward bool) Reply {
	if cmd.EndCommunity != "" { // the dealer's own request, forwarded by another process
		if err := d.endCommunity(ctx, cmd.Platform, cmd.Workspace, cmd.EndCommunity, forward); err != nil {
			return errorReply(d.log, err)
		}
		return Reply{Text: "The community's tables are closed."}
	}
	verb, _ := splitCommand(cmd.Text)
	name, v, args, known := d.lookup(cmd.Text)
	if known && !v.need.onTable() {
		if cmd.Probe {
			return Reply{}
		}
		err := d.gate(ctx, name, v, nil, cmd, args)
		var r Reply
		if err == nil {
			r, err = v.run(ctx, d, nil, cmd, args, nil)
		}
		if err != nil {
			return errorReply(d.log.With("user", cmd.User, "verb", name), err)
		}
		return r
	}
	if !known && verb != "" { // every action is in the verb table too
		if cmd.Probe {
			return Reply{}
		}
		return errorReply(d.log, unknownVerb(verb))
	}
	if d.leases != nil { // processes share the store: this one may not serve cmd's community
		if fwd, err := d.serve(ctx, cmd, forward); err != nil {
			return errorReply(d.log.With("table", tableID(cmd), "user", cmd.User, "command", verb), err)
		} else if fwd != nil {
			return *fwd
		}
	}
	r, err := d.submit(ctx, tableID(cmd), job{cmd: cmd}, verb == "start" && !cmd.Probe)
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

// after starts a timer whose work runs on the table goroutine. The work runs at most once, not at
// all after Close, and not after the table's session ended (its goroutine is gone).
func (d *Dealer) after(t *actor, wait time.Duration, work func(ctx context.Context, t *actor)) Timer {
	return d.cfg.AfterFunc(wait, func() {
		_, _ = d.sendTo(context.Background(), t, job{fire: work})
	})
}

// retire unregisters t when its session is over and no command is on its way to it; the table
// goroutine then ends. It reports whether t was retired.
func (d *Dealer) retire(t *actor) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.closed || t.refs > 0 || len(t.jobs) > 0 || d.tables[t.id] != t {
		return false // Close closes the queue itself; a queued or arriving job keeps the table
	}
	delete(d.tables, t.id)
	if t.out != nil {
		d.ended = append(d.ended, t.out)
	}
	return true
}

// endedOutboxes returns the outboxes of ended tables, forgetting those that have nothing left to write.
func (d *Dealer) endedOutboxes() []*outbox {
	d.mu.Lock()
	defer d.mu.Unlock()
	keep := d.ended[:0]
	for _, o := range d.ended {
		if !o.idle() {
			keep = append(keep, o)
		}
	}
	clear(d.ended[len(keep):])
	d.ended = keep
	return append([]*outbox(nil), keep...)
}

// Tables returns how many table goroutines are running (for tests and metrics).
func (d *Dealer) Tables() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return len(d.tables)
}

// Close finishes the queued commands, stops every timer and waits for the table goroutines and for
// the channel messages they left to write.
func (d *Dealer) Close(ctx context.Context) error {
	d.mu.Lock()
	if d.closed {
		d.mu.Unlock()
		return nil
	}
	d.closed = true
	tables := make([]*actor, 0, len(d.tables))
	for _, t := range d.tables {
		tables = append(tables, t)
	}
	d.mu.Unlock()
	for _, t := range tables {
		t.sendMu.Lock() // waits for senders; the table goroutine keeps draining for them
		t.closed = true
		close(t.jobs)
		t.sendMu.Unlock()
	}
	done := make(chan struct{})
	go func() {
		d.wg.Wait()
		for _, t := range tables { // the channel posts still waiting go out
			if t.out != nil {
				t.out.wait()
			}
		}
		for _, o := range d.endedOutboxes() {
			o.wait()
		}
		close(done)
	}()
	select {
	case <-done:
		d.stopOwning(ctx)
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Flush waits until every table has finished the commands queued before it and written the channel
// messages they caused (they go out in the background), also those of tables whose session ended, or
// until ctx ends.
func (d *Dealer) Flush(ctx context.Context) error {
	d.mu.Lock()
	tables := make([]*actor, 0, len(d.tables))
	for _, t := range d.tables {
		tables = append(tables, t)
	}
	d.mu.Unlock()
	return d.flush(ctx, tables)
}

// FlushChannel is Flush for the one table of cmd's channel (its platform, workspace and channel):
// a caller that waits for its own table's messages does not wait for every other table's.
func (d *Dealer) FlushChannel(ctx context.Context, cmd Command) error {
	d.mu.Lock()
	var tables []*actor
	if t := d.tables[tableID(cmd)]; t != nil {
		tables = append(tables, t)
	}
	d.mu.Unlock()
	return d.flush(ctx, tables)
}

func (d *Dealer) flush(ctx context.Context, tables []*actor) error {
	done := make(chan struct{})
	go func() {
		defer close(done)
		for _, t := range tables {
			var out *outbox
			_, _ = d.sendTo(context.Background(), t, job{fire: func(_ context.Context, t *actor) { out = t.out }})
			if out != nil {
				out.wait()
			}
		}
		for _, o := range d.endedOutboxes() {
			o.wait()
		}
	}()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// readRand reads random bytes under a lock: Rand is shared by every table.
func (d *Dealer) readRand(p []byte) error {
	d.randMu.Lock()
	defer d.randMu.Unlock()
	_, err := io.ReadFull(d.cfg.Rand, p)
	return err
}

// warnDM reports whether the user still has to be told how to allow DMs, and marks them told.
func (d *Dealer) warnDM(workspace, user string) bool {
	d.dmMu.Lock()
	defer d.dmMu.Unlock()
	k := workspace + "/" + user
	if d.dmWarned[k] {
		return false
	}
	d.dmWarned[k] = true
	return true
}
