// Package own is the ownership of communities when several dealer processes share one store.
//
// Several dealer processes can share one store (PostgreSQL) when each has an Owner name. Each then
// serves only the communities (a Discord guild, a Slack team, the console) it holds a lease on, and
// every write of their tables and schedules carries the lease's fence, so a process that lost a
// community (paused, cut off, taken over) cannot write to it. A process:
//   - renews its leases every Lease/4 on a loop of its own; a lease that changed hands, or one it
//     could not renew for two thirds of the lease, is dropped: its tables stop here without another
//     write, before the lease can pass to another process;
//   - looks at every community once a second (scan) and claims the free and expired ones up to its
//     share, ceil(communities / live processes); the live processes are those whose own process
//     lease ("process/OWNER", renewed with the others) lives. A process holding more than its share
//     hands one community back per scan (Release), when another live process has room below its
//     share, so a process that just started picks it up and nothing bounces between full ones: only
//     between hands, the one idle longest, and never one that moved here within the minute;
//   - claims a free or expired community at once when a command for it arrives;
//   - restores a community it claims the way a restart does: each table's hand replayed from its
//     committed actions, timers re-armed from their stored deadlines, the table message re-synced;
//   - releases every lease when it shuts down, so a deploy hands tables over without waiting for
//     the leases to expire.
//
// The dealer (package bot) holds an Owner when processes share the store, and calls it at a few
// points of its action path: Serve before it queues a command, Fence for a new table's writes,
// Fenced for a workspace-wide verb's, LostFence when the store refuses a commit under a lease.
// What ownership needs of the dealer's tables (restore a community's, stop them, run a forwarded
// command) it asks through Tables, never while it holds its own lock: the dealer calls Owner with
// its lock held, so the lock order is the dealer's first, then Owner's.
package own

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/dealerbot/dealerbot/bot/metrics"
	"github.com/dealerbot/dealerbot/bot/table"
	"github.com/dealerbot/dealerbot/bot/vocab"
)

// DefaultLease is how long a lease lasts without renewal when Config.Lease is 0.
const DefaultLease = 10 * time.Second

// processPrefix names the lease each process keeps to show that it is alive.
const processPrefix = "process/"

// ErrNotServed refuses a command for a community another live process owns (Serve without
// forwarding, or without an inbox).
var ErrNotServed = errors.New("another dealer process serves this community")

// Config is what an Owner is given.
type Config struct {
	// Owner names this process among those that share the store.
	Owner string
	// Lease is how long a community's lease lasts without renewal; 0 means DefaultLease.
	Lease time.Duration
	// Logger receives what ownership does and its errors; nil discards.
	Logger *slog.Logger
	// Metrics, when set, counts forwarded commands and takeovers; nil records nothing.
	Metrics *metrics.Metrics
}

// Tables is what ownership needs of the dealer: the tables of a community, restored when this
// process claims it and stopped when it loses it, and the commands other processes forward. Owner
// never calls it with its own lock held.
type Tables interface {
	// Closed returns an error once the dealer shuts down (nothing more is claimed), nil before.
	Closed() error
	// Restore starts one of a claimed community's tables from its record, as a restart does: its
	// hand replayed from its committed actions, its timers re-armed, its table message re-synced.
	Restore(ctx context.Context, rec table.TableRecord) error
	// Stop stops the tables of community without another write (their queued commands are answered
	// as their goroutines drain) and returns a channel for each, closed when its goroutine ends. It
	// calls drop first, under the lock that guards the dealer's tables, and stops nothing (ok false)
	// when drop returns false: so no table of the community can start between ownership dropping it
	// and its tables stopping.
	Stop(community string, drop func() bool) (exited []<-chan struct{}, ok bool)
	// Idle returns when community's tables last took a step (the zero time for none), and false
	// when one of them has a hand in play.
	Idle(community string) (time.Time, bool)
	// Handle runs a command another process forwarded (Command.Forwarded is set) and returns its
	// reply.
	Handle(ctx context.Context, cmd vocab.Command) vocab.Reply
	// Forwarded tells the chat that this process answered a forwarded command, so that it may follow
	// that answer with the user's private messages as the receiving process's chat could
	// (Command.Followup).
	Forwarded(cmd vocab.Command)
	// Claimed is told that community's tables are restored here: the schedules that fell due while
	// nobody served it are handled now, as after a restart.
	Claimed(community string)
}

// Owner holds the leases of the communities this process serves, renews them, claims and hands
// back communities, and applies the commands other processes forward. A nil *Owner is a process
// that does not share its store: it serves every community, and fences nothing.
type Owner struct {
	cfg    Config
	log    *slog.Logger
	tables Tables

	leases Leases
	inbox  Inbox // commands for communities other processes own go there; nil without one

	mu    sync.Mutex            // guards owned (and each one's lease, renewed, claimed), me and meRenewed
	owned map[string]*community // the communities this process holds or is claiming
	me    Lease                 // this process's own lease: shows it is alive
	// meRenewed is when me was last renewed (local clock).
	meRenewed time.Time

	ownStop chan struct{}
	ownDone chan struct{}
	// inboxStop ends the loop applying forwarded commands.
	inboxStop context.CancelFunc
}

// community is one community this process owns.
type community struct {
	lease Lease
	// renewed is the local time of the last renewal: past renewed+Lease the store may have given the
	// lease to another process, so this one stops serving it.
	renewed time.Time
	ready   chan struct{} // closed once the community's tables are restored
	err     error         // why restoring failed, once ready is closed
	claimed time.Time     // when this process claimed it (local clock)
}

// CommunityOf returns the community of a table ID (platform/workspace/channel).
func CommunityOf(tableID string) string {
	platform, rest, _ := strings.Cut(tableID, "/")
	workspace, _, _ := strings.Cut(rest, "/")
	return table.Community(platform, workspace)
}

// New returns the ownership of communities for a process named cfg.Owner that shares store (the
// dealer's) with others: store must offer Leases, and Inbox to forward commands. Start it once
// the dealer holds it, since claiming restores tables whose writes ask it for their fence.
func New(store any, cfg Config, tables Tables) (*Owner, error) {
	l, ok := store.(Leases)
	if !ok {
		return nil, fmt.Errorf("the store cannot be shared between processes (no leases): leave the owner name empty")
	}
	if cfg.Lease <= 0 {
		cfg.Lease = DefaultLease
	}
	o := &Owner{cfg: cfg, log: cfg.Logger, tables: tables, leases: l, owned: map[string]*community{},
		ownStop: make(chan struct{}), ownDone: make(chan struct{})}
	if o.log == nil {
		o.log = slog.New(slog.DiscardHandler)
	}
	o.inbox, _ = store.(Inbox)
	return o, nil
}

// Start registers this process and makes the first claims, so that a process that starts serves
// what is free at once, then renews, scans and applies forwarded commands in the background until
// Stop.
func (o *Owner) Start(ctx context.Context) error {
	me, err := o.leases.Claim(ctx, processPrefix+o.cfg.Owner, o.cfg.Owner, o.cfg.Lease)
	if err != nil {
		return fmt.Errorf("register this process (%s): %w", o.cfg.Owner, err)
	}
	o.setMe(me, time.Now())
	o.scan(ctx)
	go o.ownLoop()
	if o.inbox != nil {
		ictx, cancel := context.WithCancel(context.Background())
		o.inboxStop = cancel
		go o.inboxLoop(ictx)
	}
	return nil
}

// ownLoop renews the leases and scans the communities until the dealer closes, each on a loop of
// its own: a scan that claims and restores a community, or waits on a busy database, never holds up
// a renewal.
func (o *Owner) ownLoop() {
	defer close(o.ownDone)
	done := make(chan struct{})
	go func() {
		defer close(done)
		every := o.cfg.Lease / 4
		tick := time.NewTicker(every)
		defer tick.Stop()
		for {
			select {
			case <-o.ownStop:
				return
			case <-tick.C:
			}
			ctx, cancel := context.WithTimeout(context.Background(), every)
			o.renew(ctx)
			cancel()
		}
	}()
	scan := time.NewTicker(min(time.Second, o.cfg.Lease/3))
	defer scan.Stop()
	for {
		select {
		case <-o.ownStop:
			<-done
			return
		case <-scan.C:
		}
		ctx, cancel := context.WithTimeout(context.Background(), o.cfg.Lease)
		o.scan(ctx)
		cancel()
	}
}

// staleAfter is how long after its last renewal a community stops being served here: two thirds of
// the lease, so that this process has stopped before the lease can pass to another (whose clock,
// the database's, may run a little ahead of ours).
func (o *Owner) staleAfter() time.Duration { return 2 * o.cfg.Lease / 3 }

// renew renews the process lease and every community lease.
func (o *Owner) renew(ctx context.Context) {
	started := time.Now()
	if me, err := o.leases.Renew(ctx, o.me, o.cfg.Lease); err == nil {
		o.setMe(me, started)
	} else if errors.Is(err, ErrNotOwner) {
		// Our process lease was taken (we were paused for long): take a new one.
		if me, err := o.leases.Claim(ctx, processPrefix+o.cfg.Owner, o.cfg.Owner, o.cfg.Lease); err == nil {
			o.setMe(me, started)
		}
	}
	o.mu.Lock()
	held := make([]*community, 0, len(o.owned))
	for _, c := range o.owned {
		select {
		case <-c.ready:
			if c.err == nil {
				held = append(held, c)
			}
		default: // still being claimed
		}
	}
	o.mu.Unlock()
	// Each lease is renewed on its own, with its own deadline: a row a stuck transaction holds delays
	// that community's renewal, not the others'.
	var wg sync.WaitGroup
	for _, c := range held {
		wg.Add(1)
		go func() {
			defer wg.Done()
			o.renewOne(ctx, c)
		}()
	}
	wg.Wait()
}

// renewOne renews one community's lease, and stops serving it when it was taken over or could not
// be renewed for two thirds of the lease.
func (o *Owner) renewOne(ctx context.Context, c *community) {
	started := time.Now()
	l, err := o.leases.Renew(ctx, c.lease, o.cfg.Lease)
	switch {
	case err == nil:
		o.mu.Lock()
		c.lease, c.renewed = l, started
		o.mu.Unlock()
	case errors.Is(err, ErrNotOwner):
		o.lose(c.lease, "its lease was taken over by another process")
	case time.Since(c.renewed) >= o.staleAfter():
		o.lose(c.lease, fmt.Sprintf("its lease could not be renewed for two thirds of its time: %v", err))
	default:
		o.log.Warn("renew lease", "community", c.lease.Community, "err", err)
	}
}

// scan claims free and expired communities up to this process's share and hands back one community
// when it holds more than its share.
func (o *Owner) scan(ctx context.Context) {
	all, err := o.leases.Communities(ctx)
	if err != nil {
		o.log.Warn("list communities", "err", err)
		return
	}
	processes := map[string]bool{o.cfg.Owner: true}
	var communities []Lease
	for _, l := range all {
		if strings.HasPrefix(l.Community, processPrefix) {
			if l.Live {
				processes[l.Owner] = true
			}
			continue
		}
		communities = append(communities, l)
	}
	share := (len(communities) + len(processes) - 1) / len(processes)
	o.mu.Lock()
	mine := len(o.owned)
	o.mu.Unlock()
	if o.tables.Closed() != nil {
		return
	}
	for _, l := range communities {
		if mine >= share {
			break
		}
		if l.Live {
			continue
		}
		if _, err := o.claim(ctx, l.Community); err == nil {
			mine++
		}
	}
	// Hand one back only to a process that has room for it (fewer than its share): otherwise it
	// would come straight back, or bounce between processes, each move a restore.
	held := map[string]int{}
	for _, l := range communities {
		if l.Live {
			held[l.Owner]++
		}
	}
	room := false
	for p := range processes {
		if p != o.cfg.Owner && held[p] < share {
			room = true
		}
	}
	if mine > share && room {
		o.mu.Lock()
		var may []Lease
		for _, c := range o.owned {
			// Not one just claimed (a command that claimed it is likely still on its way), nor one
			// that moved here within the minute (nothing goes back and forth), nor one with a hand in
			// play (each move pauses its tables for a restore): the one idle longest.
			stay := handBackAfter
			if c.lease.Epoch > 1 {
				stay = movedStays
			}
			if c.lease.Epoch <= 0 || time.Since(c.claimed) <= stay {
				continue
			}
			may = append(may, c.lease)
		}
		o.mu.Unlock()
		var give *Lease
		var giveIdle time.Time
		for i, l := range may { // the tables are asked without o.mu held
			if idle, ok := o.tables.Idle(l.Community); ok && (give == nil || idle.Before(giveIdle)) {
				give, giveIdle = &may[i], idle
			}
		}
		if give != nil {
			o.handBack(ctx, *give, "this process holds more than its share")
		}
	}
}

// claim takes a free or expired community and restores its tables. It returns the community once
// its tables are restored, ErrOwned when another live process owns it.
func (o *Owner) claim(ctx context.Context, name string) (*community, error) {
	o.mu.Lock()
	c := o.owned[name]
	o.mu.Unlock()
	if c == nil {
		if err := o.tables.Closed(); err != nil { // asked without o.mu held
			return nil, err
		}
		o.mu.Lock()
		if c = o.owned[name]; c == nil {
			// In o.owned from the start, so a command and the scan claiming together wait for one
			// claim.
			c = &community{ready: make(chan struct{})}
			o.owned[name] = c
			o.mu.Unlock()
			return o.take(ctx, name, c)
		}
		o.mu.Unlock()
	}
	<-c.ready
	return c, c.err
}

// take claims the lease of community name, held in o.owned as c while it is being claimed, and
// restores its tables.
func (o *Owner) take(ctx context.Context, name string, c *community) (*community, error) {
	fail := func(err error) (*community, error) {
		o.mu.Lock()
		if o.owned[name] == c {
			delete(o.owned, name)
		}
		o.mu.Unlock()
		c.err = err
		close(c.ready)
		return nil, err
	}
	l, err := o.leases.Claim(ctx, name, o.cfg.Owner, o.cfg.Lease)
	if err != nil {
		return fail(err)
	}
	o.mu.Lock()
	c.lease, c.renewed, c.claimed = l, time.Now(), time.Now()
	o.mu.Unlock()
	if l.Epoch > 1 {
		o.cfg.Metrics.TookOver() // held before: by a process that died, or handed it over
	}
	if err := o.adopt(ctx, c); err != nil {
		o.lose(l, fmt.Sprintf("its tables could not be restored: %v", err))
		_ = o.leases.Release(context.Background(), l)
		return fail(err)
	}
	close(c.ready)
	o.log.Info("serving community", "community", name, "epoch", l.Epoch)
	// Schedules of the community that fell due while nobody served it are handled now, as after a
	// restart, not at the next minute's sweep.
	o.tables.Claimed(name)
	return c, nil
}

// adopt restores a community's tables as a restart does.
func (o *Owner) adopt(ctx context.Context, c *community) error {
	recs, err := o.leases.CommunityTables(ctx, c.lease.Community)
	if err != nil {
		return fmt.Errorf("load tables: %w", err)
	}
	for i := range recs {
		if err := o.tables.Restore(ctx, recs[i]); err != nil {
			return fmt.Errorf("restore table %s: %w", recs[i].ID, err)
		}
	}
	return nil
}

// handBackAfter is how long a community stays with the process that claimed it before it may be
// handed back to spread the load; movedStays how long one that came from another process stays.
const (
	handBackAfter = 5 * time.Second
	movedStays    = time.Minute
)

// lose stops serving a community held at l's epoch: its tables stop without another write (their
// queued commands are answered by the goroutine as it drains; any commit they try is fenced off).
// It returns a channel for each of the tables' goroutines, closed once it has drained.
func (o *Owner) lose(l Lease, why string) []<-chan struct{} {
	exited, ok := o.tables.Stop(l.Community, func() bool {
		o.mu.Lock()
		defer o.mu.Unlock()
		c := o.owned[l.Community]
		if c == nil || c.lease.Epoch != l.Epoch {
			return false // already dropped, or claimed again since
		}
		delete(o.owned, l.Community)
		return true
	})
	if !ok {
		return nil
	}
	o.log.Warn("stopped serving community", "community", l.Community, "epoch", l.Epoch, "why", why, "tables", len(exited))
	return exited
}

// handBack stops serving a community and releases its lease so another process takes it at once:
// the commands already queued at its tables finish (and commit) first.
func (o *Owner) handBack(ctx context.Context, l Lease, why string) {
	for _, exited := range o.lose(l, why) {
		select {
		case <-exited:
		case <-ctx.Done():
		}
	}
	if err := o.leases.Release(ctx, l); err != nil {
		o.log.Warn("release lease", "community", l.Community, "err", err)
	}
}

// Serve makes sure this process serves cmd's community: owned, or free and claimed now. A command
// for a community another live process owns is forwarded to that process through the store's inbox
// (with forward set and an inbox), and its reply returned; without, it is refused with ErrNotServed.
// A nil reply and error: this process serves the community, and runs cmd itself (always, for a nil
// Owner).
func (o *Owner) Serve(ctx context.Context, cmd vocab.Command, forward bool) (*vocab.Reply, error) {
	if o == nil {
		return nil, nil
	}
	name := table.Community(cmd.Platform, cmd.Workspace)
	c, err := o.claim(ctx, name)
	if err == nil {
		o.mu.Lock()
		stale := time.Since(c.renewed) >= o.staleAfter()
		o.mu.Unlock()
		if stale { // not renewed for long: the lease may pass to another process any moment
			return nil, fmt.Errorf("community %s: its lease is not renewed: %w", name, ErrStoreUnreachable)
		}
		return nil, nil
	}
	if !errors.Is(err, ErrOwned) {
		return nil, err
	}
	if !forward || o.inbox == nil {
		return nil, fmt.Errorf("%w: %v", ErrNotServed, err)
	}
	if cmd.ID == "" {
		id := make([]byte, 12)
		if _, err := rand.Read(id); err != nil {
			return nil, err
		}
		cmd.ID = "fwd-" + hex.EncodeToString(id)
	}
	// The owner answers within milliseconds; an owner that just died is replaced after its lease.
	wctx, cancel := context.WithTimeout(ctx, 2*o.cfg.Lease+2*time.Second)
	defer cancel()
	o.cfg.Metrics.Forward()
	r, err := o.inbox.Forward(wctx, name, cmd)
	if errors.Is(err, ErrNoReply) {
		return &vocab.Reply{Text: "This server's tables are moving to another dealer process: your command is queued and will be carried out when they are back, in a few seconds.", IsError: true}, nil
	}
	if err != nil {
		return nil, err
	}
	return &r, nil
}

// inboxLoop applies the commands other processes forward to this one until ctx ends: in order
// within a table (a channel), tables and communities in parallel (a worker each while it has
// commands), so one server's slow step never holds up another's.
func (o *Owner) inboxLoop(ctx context.Context) {
	bell := o.inbox.Doorbell(ctx)
	look := time.NewTicker(500 * time.Millisecond) // a ring missed (the listener reconnecting) waits at most this
	defer look.Stop()
	prune := time.NewTicker(time.Minute)
	defer prune.Stop()
	again := make(chan struct{}, 1) // a worker finished: its table may have more
	var mu sync.Mutex
	busy := map[string]bool{} // tables with a worker
	// handed are the commands given to a worker, by inbox number: a look at the inbox taken while a
	// worker was answering one still lists it, and it must not run twice.
	handed := map[int64]time.Time{}
	for {
		select {
		case <-ctx.Done():
			return
		case <-prune.C:
			if err := o.inbox.Prune(ctx, time.Hour); err != nil {
				o.log.Warn("prune the inbox", "err", err)
			}
			mu.Lock()
			for seq, at := range handed {
				if time.Since(at) > 2*expireInteraction {
					delete(handed, seq)
				}
			}
			mu.Unlock()
			continue
		case <-bell:
		case <-look.C:
		case <-again:
		}
		o.mu.Lock()
		var names []string
		for name, c := range o.owned {
			select {
			case <-c.ready:
				if c.err == nil {
					names = append(names, name)
				}
			default:
			}
		}
		o.mu.Unlock()
		fs, err := o.inbox.Pending(ctx, names)
		if err != nil {
			if ctx.Err() == nil {
				o.log.Warn("read the inbox", "err", err)
			}
			continue
		}
		queues := map[string][]Forwarded{}
		var keys []string
		mu.Lock()
		for _, f := range fs {
			if _, done := handed[f.Seq]; done {
				continue
			}
			key := f.Cmd.Platform + "/" + f.Cmd.Workspace + "/" + f.Cmd.Channel // its table
			if queues[key] == nil {
				keys = append(keys, key)
			}
			queues[key] = append(queues[key], f)
		}
		for _, key := range keys {
			if busy[key] {
				continue // its worker is still at an earlier command of the same table
			}
			busy[key] = true
			queue := queues[key]
			for _, f := range queue {
				handed[f.Seq] = time.Now()
			}
			go func() {
				for _, f := range queue {
					o.applyForwarded(ctx, table.Community(f.Cmd.Platform, f.Cmd.Workspace), f)
				}
				mu.Lock()
				delete(busy, key)
				mu.Unlock()
				select {
				case again <- struct{}{}:
				default:
				}
			}()
		}
		mu.Unlock()
	}
}

// forwardedDeadline bounds the work of one forwarded command, its chat sends included.
const forwardedDeadline = 10 * time.Second

// Forwarded commands expire: an interaction's after 15 minutes (its token stops working then), a
// typed command's after 2 minutes (its sender was told long before that it was queued, and a bet
// that late would surprise the table).
const (
	expireInteraction = 15 * time.Minute
	expireTyped       = 2 * time.Minute
)

// applyForwarded applies one forwarded command, or answers that it came too late, and stores the
// answer under this process's lease for community.
func (o *Owner) applyForwarded(ctx context.Context, community string, f Forwarded) {
	f.Cmd.Forwarded, f.Cmd.Inbox = true, f.Seq
	expiry := expireTyped
	if f.Cmd.Followup != "" || f.Cmd.Token != "" {
		expiry = expireInteraction
	}
	// A command whose step landed here or at an owner that died before answering is not pending:
	// its reply was written with the step (table.Change.Answer). One that comes again (a delivery
	// retried) is refused by its key, as a repeat.
	var r vocab.Reply
	if f.Age > expiry {
		r = vocab.Reply{Text: fmt.Sprintf("Too late: that command waited %v for this server's dealer and was not carried out, so nothing changed.", f.Age.Round(time.Second)), IsError: true}
	} else {
		hctx, cancel := context.WithTimeout(ctx, forwardedDeadline)
		r = o.tables.Handle(hctx, f.Cmd)
		cancel()
	}
	fence := o.Fenced(ctx, community)
	if err := o.inbox.Answer(fence, f.Seq, r); err != nil {
		if errors.Is(err, ErrNotOwner) {
			o.LostFence(table.FenceFrom(fence)) // the community is another process's now: stop serving it
		}
		if ctx.Err() == nil {
			o.log.Warn("answer a forwarded command", "community", community, "err", err)
		}
		return
	}
	// Once answered here, the sender answers the user: from then on this process's chat may follow
	// that answer with the user's private messages (hole cards), as the sender's could.
	if f.Cmd.Followup != "" && f.Age <= expiry {
		o.tables.Forwarded(f.Cmd)
	}
}

// Fence is the fence for writes of table id's community, for a table starting; nil for a nil
// Owner (processes do not share the store). The dealer calls it with its lock held.
func (o *Owner) Fence(id string) *table.Fence {
	if o == nil {
		return nil
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	if c := o.owned[CommunityOf(id)]; c != nil {
		return c.lease.Fence()
	}
	// Not owned (lost meanwhile): a fence no lease matches, so nothing is written.
	return &table.Fence{Community: CommunityOf(id), Owner: o.cfg.Owner, Epoch: -1}
}

// Fenced carries the fence of community's lease in ctx, for a workspace-wide verb's writes; a
// community no longer held gets a fence no lease matches, so nothing is written. A nil Owner
// returns ctx as it is.
func (o *Owner) Fenced(ctx context.Context, community string) context.Context {
	if o == nil {
		return ctx
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	if c := o.owned[community]; c != nil {
		return table.WithFence(ctx, c.lease.Fence())
	}
	return table.WithFence(ctx, &table.Fence{Community: community, Owner: o.cfg.Owner, Epoch: -1})
}

// LostFence drops the community of a fence the store refused (ErrNotOwner): another process took
// it over, and its tables stop here.
func (o *Owner) LostFence(f *table.Fence) {
	if o == nil || f == nil {
		return
	}
	go o.lose(Lease{Community: f.Community, Owner: f.Owner, Epoch: f.Epoch}, "the store refused a commit under its lease")
}

// FencedIfServed lets the scheduler work only on schedules of communities this process serves
// (held and restored), with their writes fenced: it returns ctx carrying the fence, and false for
// a community served elsewhere. A nil Owner serves every community, unfenced.
func (o *Owner) FencedIfServed(ctx context.Context, community string) (context.Context, bool) {
	if o == nil {
		return ctx, true
	}
	o.mu.Lock()
	c := o.owned[community]
	o.mu.Unlock()
	if c == nil {
		return ctx, false
	}
	select {
	case <-c.ready:
	default:
		return ctx, false
	}
	if c.err != nil {
		return ctx, false
	}
	return table.WithFence(ctx, c.lease.Fence()), true
}

// Serves reports whether this process answers for a community ("discord/GUILD"): always for a nil
// Owner, else when it holds the community's lease.
func (o *Owner) Serves(community string) bool {
	if o == nil {
		return true
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.owned[community] != nil
}

// Stop ends the lease loop and the inbox's, and releases every lease; the dealer calls it once its
// tables have stopped.
func (o *Owner) Stop(ctx context.Context) {
	if o == nil {
		return
	}
	close(o.ownStop)
	<-o.ownDone
	if o.inboxStop != nil {
		o.inboxStop()
	}
	o.mu.Lock()
	held := make([]Lease, 0, len(o.owned))
	for _, c := range o.owned {
		if c.lease.Epoch > 0 {
			held = append(held, c.lease)
		}
	}
	o.owned = map[string]*community{}
	o.mu.Unlock()
	for _, l := range held {
		if err := o.leases.Release(ctx, l); err != nil {
			o.log.Warn("release lease", "community", l.Community, "err", err)
		}
	}
	o.mu.Lock()
	me := o.me
	o.mu.Unlock()
	_ = o.leases.Release(ctx, me)
}

func (o *Owner) setMe(l Lease, at time.Time) {
	o.mu.Lock()
	o.me, o.meRenewed = l, at
	o.mu.Unlock()
}

// Ready reports whether this process holds its process lease, renewed within the lease (it reaches
// the database); a nil Owner is always ready.
func (o *Owner) Ready() error {
	if o == nil {
		return nil
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	if time.Since(o.meRenewed) > o.cfg.Lease {
		return fmt.Errorf("this process has not renewed its lease for %v: %w", time.Since(o.meRenewed).Round(time.Second), ErrStoreUnreachable)
	}
	return nil
}

// Owned returns the communities this process holds (for tests, health checks and metrics); none
// for a nil Owner.
func (o *Owner) Owned() []string {
	if o == nil {
		return []string{}
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	out := make([]string, 0, len(o.owned))
	for name := range o.owned {
		out = append(out, name)
	}
	return out
}

// Served returns how many communities this process serves now: held, restored, and renewed within
// two thirds of the lease (a community held while the database does not answer is not served).
func (o *Owner) Served() int {
	if o == nil {
		return 0
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	n := 0
	for _, c := range o.owned {
		select {
		case <-c.ready:
			if c.err == nil && time.Since(c.renewed) < o.staleAfter() {
				n++
			}
		default:
		}
	}
	return n
}
