package bot

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sort"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/dealerbot/dealerbot/bot/metrics"
	"github.com/dealerbot/dealerbot/bot/own"
	"github.com/dealerbot/dealerbot/bot/table"
	"github.com/dealerbot/dealerbot/bot/vocab"
	"github.com/dealerbot/dealerbot/engine"
	"github.com/dealerbot/dealerbot/render"
)

// Config holds the dealer's injected dependencies and defaults. The zero value is usable.
type Config struct {
	// StartingBankroll is a new player's bankroll, recorded in the ledger as a grant; 0 means the
	// default 10000, NoStartingBankroll means none (players get chips only from an admin's adjust).
	// At most engine.MaxChips.
	StartingBankroll int64
	// Now is the clock; default time.Now.
	Now func() time.Time
	// AfterFunc starts a timer; nil means time.AfterFunc. Tests inject a fake clock.
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
	// serves only the communities it holds a lease on (see package bot/own), and every table write carries
	// the lease's fence. Empty: one process serves every table, as with the bbolt file.
	Owner string
	// Lease is how long a community's lease lasts without renewal, the time after which another
	// process may take over a community whose owner died; 0 means DefaultLease (10 s).
	Lease time.Duration
	// Metrics, when set, records what the dealer does (NewMetrics); nil records nothing.
	Metrics *Metrics
	// Verbs are the features' verbs (money, stats, schedules ...), registered beside the table's own
	// in the dealer's one registry; cmd/dealerbot wires them. Two verbs of one name panic.
	Verbs []vocab.Verbs
	// Zone, when set, says the local time zone of a command's channel (its schedule's), for the
	// verbs' dates (vocab.Env.Zone); nil: UTC.
	Zone func(ctx context.Context, cmd Command) *time.Location
	// Claimed, when set, is told when this process has claimed a community and restored its tables
	// (processes sharing the store): the scheduler then fires at once what fell due while nobody
	// served the community.
	Claimed func(community string)
}

// Metrics are the dealer's Prometheus metrics (package bot/metrics), named here too for the callers
// that make them for Config.Metrics (cmd/dealerbot, the adapters).
type Metrics = metrics.Metrics

// NewMetrics makes the dealer's metrics and registers them on reg (metrics.New).
func NewMetrics(reg prometheus.Registerer) *Metrics { return metrics.New(reg) }

// NoStartingBankroll, as Config.StartingBankroll, gives new players no chips.
const NoStartingBankroll = -1

// DefaultStartingBankroll is a new player's bankroll when Config.StartingBankroll says none (0).
const DefaultStartingBankroll = 10000

// NewBankroll is the bankroll c gives a new player: StartingBankroll, the default 10000 when it is 0,
// none when it is NoStartingBankroll (for the features that say it, as `chips` does).
func (c Config) NewBankroll() int64 {
	switch {
	case c.StartingBankroll == 0:
		return DefaultStartingBankroll
	case c.StartingBankroll < 0:
		return 0
	}
	return c.StartingBankroll
}

// Timer is a started timer; Stop reports whether it stopped the timer before it fired.
type Timer interface{ Stop() bool }

// Dealer deals at every table. Each table has one goroutine that runs its commands in order.
type Dealer struct {
	store    Store
	chat     Chat
	pictures Pictures // chat's card and showdown pictures, nil when it draws none
	cfg      Config
	log      *slog.Logger

	randMu sync.Mutex // Rand is shared by every table

	mu     sync.Mutex // guards tables and closed
	tables map[string]*actor
	closed bool
	ended  endedOutboxes // the outboxes of ended sessions still writing their last posts
	wg     sync.WaitGroup

	dms dmWarnings

	limiter *limiter
	verbs   registry // every verb: the table's and the features' (Config.Verbs)
	env     env      // what the verbs get from the dealer

	// own is the ownership of communities when processes share the store (Config.Owner; package
	// bot/own), nil otherwise. It calls back through ownTables, never with its lock held; the
	// dealer calls it with d.mu held (newTableLocked), so d.mu comes first.
	own *own.Owner

	// stepPrefix and steps name each change a table commits (table.Change.Step): a prefix random
	// to this process start and a counter, so no two steps anywhere share a key.
	stepPrefix string
	steps      atomic.Uint64
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
	if cfg.StartingBankroll > engine.MaxChips {
		return nil, fmt.Errorf("the starting bankroll may be at most %d chips, not %d", engine.MaxChips, cfg.StartingBankroll)
	}
	cfg.StartingBankroll = cfg.NewBankroll()
	if cfg.Now == nil {
		cfg.Now = time.Now
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
		tables: map[string]*actor{}, limiter: newLimiter(cfg.RateLimit)}
	d.env = env{d}
	d.verbs = newRegistry(append([]vocab.Verbs{tableVerbs()}, cfg.Verbs...)...)
	d.pictures, _ = chat.(Pictures)
	var nonce [9]byte
	if _, err := rand.Read(nonce[:]); err != nil {
		return nil, fmt.Errorf("make the step keys' prefix: %w", err)
	}
	d.stepPrefix = base64.RawURLEncoding.EncodeToString(nonce[:]) + "."
	// Start-up has a deadline: a database that does not answer (or a lock a stuck transaction
	// holds) ends it with a sentence saying what it waited for, instead of hanging.
	ctx, cancel := context.WithTimeout(context.Background(), StartTimeout)
	defer cancel()
	if cfg.Owner != "" {
		// Tables are restored community by community as this process claims them.
		o, err := own.New(store, own.Config{Owner: cfg.Owner, Lease: cfg.Lease, Logger: d.log, Metrics: cfg.Metrics}, ownTables{d})
		if err != nil {
			return nil, startError(err)
		}
		d.own = o // before Start: the tables it restores ask it for their fence
		if err := o.Start(ctx); err != nil {
			return nil, startError(err)
		}
		return d, nil
	}
	recs, err := store.Tables(ctx)
	if err != nil {
		return nil, startError(fmt.Errorf("load the tables: %w", err))
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

// StartTimeout bounds New: how long it waits for the store to register the process and load
// the tables before it gives up with an error that says what it waited for.
var StartTimeout = 30 * time.Second

// startError says what start-up waited for when it ran out of time.
func startError(err error) error {
	if errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("start-up gave up after %v waiting for the database (%v): is it out of reach, or is a transaction holding a lock?", StartTimeout, err)
	}
	return err
}

// newTable registers a table and starts its goroutine. d.mu must not be held.
func (d *Dealer) newTable(id string) *actor {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.newTableLocked(id)
}

func (d *Dealer) newTableLocked(id string) *actor {
	t := &actor{d: d, id: id, jobs: make(chan *job, 64), pending: map[string][]pendingMessage{}, fence: d.own.Fence(id),
		exited: make(chan struct{})}
	d.tables[id] = t
	d.wg.Add(1)
	go t.loop()
	return t
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
		d.ended.add(t.out)
	}
	return true
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
		for _, o := range d.ended.busy() {
			o.wait()
		}
		close(done)
	}()
	select {
	case <-done:
		d.own.Stop(ctx)
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// dmWarnings remembers who was told how to allow DMs, so each user is told once.
type dmWarnings struct {
	mu   sync.Mutex
	told map[string]bool // workspace/user
}

// warn reports whether the user still has to be told how to allow DMs, and marks them told.
func (w *dmWarnings) warn(workspace, user string) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	k := workspace + "/" + user
	if w.told[k] {
		return false
	}
	if w.told == nil {
		w.told = map[string]bool{}
	}
	w.told[k] = true
	return true
}

// env is what the verbs get from the dealer (vocab.Env).
type env struct{ d *Dealer }

func (e env) Now() time.Time { return e.d.cfg.Now() }

func (e env) Log() *slog.Logger { return e.d.log }

// Key names one request for the store's applied-once keys (table.Change.Once, money.Event.Key): the
// platform's delivery ID when there is one, so the same delivery twice is applied once, else a key
// of this process's own.
func (e env) Key(cmd Command) string {
	if cmd.ID != "" {
		return cmd.ID
	}
	return "req." + e.d.stepPrefix + strconv.FormatUint(e.d.steps.Add(1), 36)
}

// Landed looks up whether the write applied under key landed, when its fate was not heard (cause
// wraps ErrOutcomeUnknown): nil when it did, an error saying nothing changed when it did not (true
// then), cause when the database cannot tell yet.
func (e env) Landed(key string, cause error) error {
	var yes bool
	if readBack(func(ctx context.Context) (err error) { yes, err = e.d.store.Landed(ctx, key); return err }) != nil {
		e.d.log.Warn("write unheard and not read back", "err", cause)
		return cause
	}
	if yes {
		e.d.log.Info("write unheard: it landed", "err", cause)
		return nil
	}
	return fmt.Errorf("the write did not land: %w", ErrStoreUnreachable)
}

// readBack runs read, a read of the store after a write's answer was lost, up to three times (0.2 s
// and then 0.4 s apart, each given 3 s), and returns nil once one succeeds, else the last error.
func readBack(read func(ctx context.Context) error) error {
	var err error
	for try := range 3 {
		if try > 0 {
			time.Sleep(time.Duration(try) * 200 * time.Millisecond)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		err = read(ctx)
		cancel()
		if err == nil {
			return nil
		}
	}
	return err
}

// Style is how a table on platform with the card setting kind draws cards: with the platform's
// card pictures when it has them and the setting asks for pictures, else emoji.
func (e env) Style(platform string, kind render.CardKind) render.CardStyle {
	return cardStyle(e.d.pictures, platform, kind)
}

// Tell sends user a private message because of cmd; one that cannot be delivered is logged (never its
// text) unless the user does not take DMs.
func (e env) Tell(ctx context.Context, cmd Command, user string, m render.Message) {
	m.Private = true
	err := e.d.chat.Send(ctx, Message{Platform: cmd.Platform, Workspace: cmd.Workspace, Channel: cmd.Channel, User: user, Message: m})
	if err != nil && !errors.Is(err, ErrDMBlocked) {
		e.d.log.Error("send a private message", "user", user, "err", err)
	}
}

// Zone is the local time zone of cmd's channel (Config.Zone), UTC without one.
func (e env) Zone(ctx context.Context, cmd Command) *time.Location {
	if e.d.cfg.Zone == nil {
		return time.UTC
	}
	return e.d.cfg.Zone(ctx, cmd)
}

// Serves reports whether this process answers for community.
func (e env) Serves(community string) bool { return e.d.own.Serves(community) }

// Post posts m in cmd's channel, its buttons answering prompt, named by key.
func (e env) Post(ctx context.Context, cmd Command, prompt, key string, m render.Message) error {
	m.Private = false
	return e.d.chat.Send(ctx, Message{Platform: cmd.Platform, Workspace: cmd.Workspace, Channel: cmd.Channel, Prompt: prompt, Key: key, Message: m})
}

// Fence is the context for writes of community's, false when this process does not serve it.
func (e env) Fence(ctx context.Context, community string) (context.Context, bool) {
	return e.d.own.FencedIfServed(ctx, community)
}

// AdminMatters reports whether being a server or workspace admin can decide a command: it runs only
// for admins, for the table's host (which an admin may stand in for), for a holder (a schedule's
// host), or for the host besides the players. Adapters that cache who is an admin ask the platform
// afresh for these.
func (d *Dealer) AdminMatters(text string) bool {
	_, _, v, _, ok := d.verbs.lookup(text)
	if !ok {
		return false
	}
	switch v.Need {
	case vocab.Admin, vocab.ChannelHost, vocab.Holder, vocab.SeatOrHost, vocab.Host:
		return true
	}
	return v.HostToo
}

// Verb returns the registered verb name, for the features wired into the dealer (a scheduler finds
// the desk its verbs answer at).
func (d *Dealer) Verb(name string) (vocab.Verb, bool) {
	v, ok := d.verbs[name]
	return v, ok
}

// Env is what the verbs get from the dealer, for a feature's work outside a command (the debt
// reminders the scheduler sends).
func (d *Dealer) Env() vocab.Env { return d.env }

// Do runs cmd as a part of the command being answered. It was limited and counted once, as it came
// in; when processes share the store it goes the whole way again, so that the community's owner runs
// it (one more token of the user's rate limit).
func (e env) Do(ctx context.Context, cmd Command) Reply {
	if e.d.own == nil {
		cmd.Forwarded = true
	}
	return e.d.Handle(ctx, cmd)
}

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
	if d.own != nil {
		cmd := Command{Platform: platform, Workspace: workspace, EndCommunity: why}
		fwd, err := d.own.Serve(ctx, cmd, forward)
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
		if own.CommunityOf(id) == name {
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

// Ready reports whether the dealer is serving: not shutting down and, when processes share the
// store, holding its process lease (renewed within the lease: it reaches the database).
func (d *Dealer) Ready() error {
	d.mu.Lock()
	closed := d.closed
	d.mu.Unlock()
	if closed {
		return errClosed
	}
	return d.own.Ready()
}

// Own returns the ownership of communities (which this process holds and serves, for tests, health
// checks and metrics); nil when processes do not share the store.
func (d *Dealer) Own() *own.Owner { return d.own }

// ownTables is the dealer's side of the ownership of communities (own.Tables): the tables of a
// community it claims or loses, and the commands other processes forward.
type ownTables struct{ d *Dealer }

func (o ownTables) Closed() error {
	o.d.mu.Lock()
	defer o.d.mu.Unlock()
	if o.d.closed {
		return errClosed
	}
	return nil
}

// Restore restores a table of a community just claimed, unless the dealer is closing: Close has then
// stopped the tables it knew of, and a new one would outlive it.
func (o ownTables) Restore(ctx context.Context, rec table.TableRecord) error {
	d := o.d
	d.mu.Lock()
	if d.closed {
		d.mu.Unlock()
		return errClosed
	}
	t := d.newTableLocked(rec.ID)
	d.mu.Unlock()
	return t.restore(ctx, rec)
}

func (o ownTables) Stop(community string, drop func() bool) ([]<-chan struct{}, bool) {
	d := o.d
	d.mu.Lock()
	if !drop() {
		d.mu.Unlock()
		return nil, false
	}
	var stopping []*actor
	for id, t := range d.tables {
		if own.CommunityOf(id) == community {
			delete(d.tables, id)
			stopping = append(stopping, t)
		}
	}
	d.mu.Unlock()
	exited := make([]<-chan struct{}, 0, len(stopping))
	for _, t := range stopping {
		t.sendMu.Lock()
		if !t.closed {
			t.closed = true
			close(t.jobs)
		}
		t.sendMu.Unlock()
		exited = append(exited, t.exited)
	}
	return exited, true
}

func (o ownTables) Idle(community string) (time.Time, bool) {
	o.d.mu.Lock()
	defer o.d.mu.Unlock()
	var last int64
	for id, t := range o.d.tables {
		if own.CommunityOf(id) != community {
			continue
		}
		if t.midHand.Load() {
			return time.Time{}, false
		}
		last = max(last, t.lastStep.Load())
	}
	if last == 0 {
		return time.Time{}, true
	}
	return time.Unix(0, last), true
}

func (o ownTables) Handle(ctx context.Context, cmd Command) Reply { return o.d.Handle(ctx, cmd) }

func (o ownTables) Forwarded(cmd Command) {
	if fu, ok := o.d.chat.(Followups); ok {
		fu.Forwarded(cmd)
	}
}

func (o ownTables) Claimed(community string) {
	if f := o.d.cfg.Claimed; f != nil {
		f(community)
	}
}
