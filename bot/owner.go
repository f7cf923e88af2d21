package bot

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/dealerbot/dealerbot/bot/schedule"
	"github.com/dealerbot/dealerbot/bot/table"
)

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

// DefaultLease is how long a lease lasts without renewal when Config.Lease is 0.
const DefaultLease = 10 * time.Second

// processPrefix names the lease each process keeps to show that it is alive.
const processPrefix = "process/"

// errNotServed refuses a command for a community another live process owns.
var errNotServed = errors.New("another dealer process serves this community")

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

// communityOf returns the community of a table ID (platform/workspace/channel).
func communityOf(tableID string) string {
	platform, rest, _ := strings.Cut(tableID, "/")
	workspace, _, _ := strings.Cut(rest, "/")
	return table.Community(platform, workspace)
}

// startOwning checks that the store can share communities and makes the first claims: a process
// that starts serves what is free at once.
func (d *Dealer) startOwning(ctx context.Context) error {
	l, ok := d.store.(Leases)
	if !ok {
		return fmt.Errorf("the store cannot be shared between processes (no leases): leave the owner name empty")
	}
	if d.cfg.Lease <= 0 {
		d.cfg.Lease = DefaultLease
	}
	d.leases = l
	d.owned = map[string]*community{}
	d.ownStop = make(chan struct{})
	d.ownDone = make(chan struct{})
	me, err := l.Claim(ctx, processPrefix+d.cfg.Owner, d.cfg.Owner, d.cfg.Lease)
	if err != nil {
		return fmt.Errorf("register this process (%s): %w", d.cfg.Owner, err)
	}
	d.setMe(me, time.Now())
	d.scan(ctx)
	go d.ownLoop()
	if in, ok := d.store.(Inbox); ok {
		d.inbox = in
		ictx, cancel := context.WithCancel(context.Background())
		d.inboxStop = cancel
		go d.inboxLoop(ictx)
	}
	return nil
}

// ownLoop renews the leases and scans the communities until the dealer closes, each on a loop of
// its own: a scan that claims and restores a community, or waits on a busy database, never holds up
// a renewal.
func (d *Dealer) ownLoop() {
	defer close(d.ownDone)
	done := make(chan struct{})
	go func() {
		defer close(done)
		every := d.cfg.Lease / 4
		tick := time.NewTicker(every)
		defer tick.Stop()
		for {
			select {
			case <-d.ownStop:
				return
			case <-tick.C:
			}
			ctx, cancel := context.WithTimeout(context.Background(), every)
			d.renew(ctx)
			cancel()
		}
	}()
	scan := time.NewTicker(min(time.Second, d.cfg.Lease/3))
	defer scan.Stop()
	for {
		select {
		case <-d.ownStop:
			<-done
			return
		case <-scan.C:
		}
		ctx, cancel := context.WithTimeout(context.Background(), d.cfg.Lease)
		d.scan(ctx)
		cancel()
	}
}

// staleAfter is how long after its last renewal a community stops being served here: two thirds of
// the lease, so that this process has stopped before the lease can pass to another (whose clock,
// the database's, may run a little ahead of ours).
func (d *Dealer) staleAfter() time.Duration { return 2 * d.cfg.Lease / 3 }

// renew renews the process lease and every community lease.
func (d *Dealer) renew(ctx context.Context) {
	started := time.Now()
	if me, err := d.leases.Renew(ctx, d.me, d.cfg.Lease); err == nil {
		d.setMe(me, started)
	} else if errors.Is(err, ErrNotOwner) {
		// Our process lease was taken (we were paused for long): take a new one.
		if me, err := d.leases.Claim(ctx, processPrefix+d.cfg.Owner, d.cfg.Owner, d.cfg.Lease); err == nil {
			d.setMe(me, started)
		}
	}
	d.mu.Lock()
	held := make([]*community, 0, len(d.owned))
	for _, c := range d.owned {
		select {
		case <-c.ready:
			if c.err == nil {
				held = append(held, c)
			}
		default: // still being claimed
		}
	}
	d.mu.Unlock()
	// Each lease is renewed on its own, with its own deadline: a row a stuck transaction holds delays
	// that community's renewal, not the others'.
	var wg sync.WaitGroup
	for _, c := range held {
		wg.Add(1)
		go func() {
			defer wg.Done()
			d.renewOne(ctx, c)
		}()
	}
	wg.Wait()
}

// renewOne renews one community's lease, and stops serving it when it was taken over or could not
// be renewed for two thirds of the lease.
func (d *Dealer) renewOne(ctx context.Context, c *community) {
	started := time.Now()
	l, err := d.leases.Renew(ctx, c.lease, d.cfg.Lease)
	switch {
	case err == nil:
		d.mu.Lock()
		c.lease, c.renewed = l, started
		d.mu.Unlock()
	case errors.Is(err, ErrNotOwner):
		d.lose(c.lease, "its lease was taken over by another process")
	case time.Since(c.renewed) >= d.staleAfter():
		d.lose(c.lease, fmt.Sprintf("its lease could not be renewed for two thirds of its time: %v", err))
	default:
		d.log.Warn("renew lease", "community", c.lease.Community, "err", err)
	}
}

// scan claims free and expired communities up to this process's share and hands back one community
// when it holds more than its share.
func (d *Dealer) scan(ctx context.Context) {
	all, err := d.leases.Communities(ctx)
	if err != nil {
		d.log.Warn("list communities", "err", err)
		return
	}
	processes := map[string]bool{d.cfg.Owner: true}
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
	d.mu.Lock()
	mine := len(d.owned)
	closed := d.closed
	d.mu.Unlock()
	if closed {
		return
	}
	for _, l := range communities {
		if mine >= share {
			break
		}
		if l.Live {
			continue
		}
		if _, err := d.claim(ctx, l.Community); err == nil {
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
		if p != d.cfg.Owner && held[p] < share {
			room = true
		}
	}
	if mine > share && room {
		d.mu.Lock()
		var give *community
		var giveIdle time.Time
		for name, c := range d.owned {
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
			if idle, ok := d.idleLocked(name); ok && (give == nil || idle.Before(giveIdle)) {
				give, giveIdle = c, idle
			}
		}
		d.mu.Unlock()
		if give != nil {
			d.handBack(ctx, give.lease, "this process holds more than its share")
		}
	}
}

// claim takes a free or expired community and restores its tables. It returns the community once
// its tables are restored, ErrOwned when another live process owns it.
func (d *Dealer) claim(ctx context.Context, name string) (*community, error) {
	d.mu.Lock()
	if c := d.owned[name]; c != nil {
		d.mu.Unlock()
		<-c.ready
		return c, c.err
	}
	if d.closed {
		d.mu.Unlock()
		return nil, errClosed
	}
	// In d.owned from the start, so a command and the scan claiming together wait for one claim.
	c := &community{ready: make(chan struct{})}
	d.owned[name] = c
	d.mu.Unlock()
	fail := func(err error) (*community, error) {
		d.mu.Lock()
		if d.owned[name] == c {
			delete(d.owned, name)
		}
		d.mu.Unlock()
		c.err = err
		close(c.ready)
		return nil, err
	}
	l, err := d.leases.Claim(ctx, name, d.cfg.Owner, d.cfg.Lease)
	if err != nil {
		return fail(err)
	}
	d.mu.Lock()
	c.lease, c.renewed, c.claimed = l, time.Now(), time.Now()
	d.mu.Unlock()
	if l.Epoch > 1 {
		d.cfg.Metrics.TookOver() // held before: by a process that died, or handed it over
	}
	if err := d.adopt(ctx, c); err != nil {
		d.lose(l, fmt.Sprintf("its tables could not be restored: %v", err))
		_ = d.leases.Release(context.Background(), l)
		return fail(err)
	}
	close(c.ready)
	d.log.Info("serving community", "community", name, "epoch", l.Epoch)
	if m := d.sched.Load(); m != nil {
		// Schedules of the community that fell due while nobody served it are handled now, as
		// after a restart, not at the next minute's sweep.
		go func() {
			if err := m.Tick(context.Background()); err != nil {
				d.log.Error("schedule tick after a claim", "community", name, "err", err)
			}
		}()
	}
	return c, nil
}

// adopt restores a community's tables as a restart does.
func (d *Dealer) adopt(ctx context.Context, c *community) error {
	recs, err := d.leases.CommunityTables(ctx, c.lease.Community)
	if err != nil {
		return fmt.Errorf("load tables: %w", err)
	}
	for i := range recs {
		t := d.newTable(recs[i].ID)
		if err := t.restore(ctx, recs[i]); err != nil {
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

// idleLocked returns when community's tables last took a step (the zero time for none), and false
// when one of them has a hand in play. d.mu is held.
func (d *Dealer) idleLocked(community string) (time.Time, bool) {
	var last int64
	for id, t := range d.tables {
		if communityOf(id) != community {
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

// lose stops serving a community held at l's epoch: its tables stop without another write (their
// queued commands are answered by the goroutine as it drains; any commit they try is fenced off).
// It returns the tables' goroutines, which end once drained.
func (d *Dealer) lose(l Lease, why string) []*actor {
	d.mu.Lock()
	c := d.owned[l.Community]
	if c == nil || c.lease.Epoch != l.Epoch {
		d.mu.Unlock()
		return nil // already dropped, or claimed again since
	}
	delete(d.owned, l.Community)
	var stopping []*actor
	for id, t := range d.tables {
		if communityOf(id) == l.Community {
			delete(d.tables, id)
			stopping = append(stopping, t)
		}
	}
	d.mu.Unlock()
	for _, t := range stopping {
		t.sendMu.Lock()
		if !t.closed {
			t.closed = true
			close(t.jobs)
		}
		t.sendMu.Unlock()
	}
	d.log.Warn("stopped serving community", "community", l.Community, "epoch", l.Epoch, "why", why, "tables", len(stopping))
	return stopping
}

// handBack stops serving a community and releases its lease so another process takes it at once:
// the commands already queued at its tables finish (and commit) first.
func (d *Dealer) handBack(ctx context.Context, l Lease, why string) {
	for _, t := range d.lose(l, why) {
		select {
		case <-t.exited:
		case <-ctx.Done():
		}
	}
	if err := d.leases.Release(ctx, l); err != nil {
		d.log.Warn("release lease", "community", l.Community, "err", err)
	}
}

// serve makes sure this process serves cmd's community: owned, or free and claimed now. A command
// for a community another live process owns is forwarded to that process through the store's inbox
// (with forward set and an inbox), and its reply returned; without, it is refused with errNotServed.
func (d *Dealer) serve(ctx context.Context, cmd Command, forward bool) (*Reply, error) {
	if d.leases == nil {
		return nil, nil
	}
	name := table.Community(cmd.Platform, cmd.Workspace)
	c, err := d.claim(ctx, name)
	if err == nil {
		d.mu.Lock()
		stale := time.Since(c.renewed) >= d.staleAfter()
		d.mu.Unlock()
		if stale { // not renewed for long: the lease may pass to another process any moment
			return nil, fmt.Errorf("community %s: its lease is not renewed: %w", name, ErrStoreUnreachable)
		}
		return nil, nil
	}
	if !errors.Is(err, ErrOwned) {
		return nil, err
	}
	if !forward || d.inbox == nil {
		return nil, fmt.Errorf("%w: %v", errNotServed, err)
	}
	if cmd.ID == "" {
		id := make([]byte, 12)
		if _, err := rand.Read(id); err != nil {
			return nil, err
		}
		cmd.ID = "fwd-" + hex.EncodeToString(id)
	}
	// The owner answers within milliseconds; an owner that just died is replaced after its lease.
	wctx, cancel := context.WithTimeout(ctx, 2*d.cfg.Lease+2*time.Second)
	defer cancel()
	d.cfg.Metrics.Forward()
	r, err := d.inbox.Forward(wctx, name, cmd)
	if errors.Is(err, ErrNoReply) {
		return &Reply{Text: "This server's tables are moving to another dealer process: your command is queued and will be carried out when they are back, in a few seconds.", IsError: true}, nil
	}
	if err != nil {
		return nil, err
	}
	return &r, nil
}

// inboxLoop applies the commands other processes forward to this one until ctx ends: in order
// within a table (a channel), tables and communities in parallel (a worker each while it has
// commands), so one server's slow step never holds up another's.
func (d *Dealer) inboxLoop(ctx context.Context) {
	bell := d.inbox.Doorbell(ctx)
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
			if err := d.inbox.Prune(ctx, time.Hour); err != nil {
				d.log.Warn("prune the inbox", "err", err)
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
		d.mu.Lock()
		var names []string
		for name, c := range d.owned {
			select {
			case <-c.ready:
				if c.err == nil {
					names = append(names, name)
				}
			default:
			}
		}
		d.mu.Unlock()
		fs, err := d.inbox.Pending(ctx, names)
		if err != nil {
			if ctx.Err() == nil {
				d.log.Warn("read the inbox", "err", err)
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
			key := tableID(f.Cmd)
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
					d.applyForwarded(ctx, table.Community(f.Cmd.Platform, f.Cmd.Workspace), f)
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
func (d *Dealer) applyForwarded(ctx context.Context, community string, f Forwarded) {
	f.Cmd.Forwarded, f.Cmd.Inbox = true, f.Seq
	expiry := expireTyped
	if f.Cmd.Followup != "" || f.Cmd.Token != "" {
		expiry = expireInteraction
	}
	// A command whose step landed here or at an owner that died before answering is not pending:
	// its reply was written with the step (table.Change.Answer). One that comes again (a delivery
	// retried) is refused by its key, as a repeat.
	var r Reply
	if f.Age > expiry {
		r = Reply{Text: fmt.Sprintf("Too late: that command waited %v for this server's dealer and was not carried out, so nothing changed.", f.Age.Round(time.Second)), IsError: true}
	} else {
		hctx, cancel := context.WithTimeout(ctx, forwardedDeadline)
		r = d.Handle(hctx, f.Cmd)
		cancel()
	}
	fence := d.fencedFor(ctx, community)
	if err := d.inbox.Answer(fence, f.Seq, r); err != nil {
		if errors.Is(err, ErrNotOwner) {
			d.lostFence(table.FenceFrom(fence)) // the community is another process's now: stop serving it
		}
		if ctx.Err() == nil {
			d.log.Warn("answer a forwarded command", "community", community, "err", err)
		}
		return
	}
	// Once answered here, the sender answers the user: from then on this process's chat may follow
	// that answer with the user's private messages (hole cards), as the sender's could.
	if fu, ok := d.chat.(Followups); ok && f.Cmd.Followup != "" && f.Age <= expiry {
		fu.Forwarded(f.Cmd)
	}
}

// fenceLocked is the fence for writes of table id's community; nil when processes do not share the
// store. d.mu is held.
func (d *Dealer) fenceLocked(id string) *Fence {
	if d.leases == nil {
		return nil
	}
	if c := d.owned[communityOf(id)]; c != nil {
		return c.lease.Fence()
	}
	// Not owned (lost meanwhile): a fence no lease matches, so nothing is written.
	return &Fence{Community: communityOf(id), Owner: d.cfg.Owner, Epoch: -1}
}

// fencedFor carries the fence of community's lease in ctx, for a workspace-wide verb's writes; a
// community no longer held gets a fence no lease matches, so nothing is written.
func (d *Dealer) fencedFor(ctx context.Context, community string) context.Context {
	d.mu.Lock()
	defer d.mu.Unlock()
	if c := d.owned[community]; c != nil {
		return table.WithFence(ctx, c.lease.Fence())
	}
	return table.WithFence(ctx, &Fence{Community: community, Owner: d.cfg.Owner, Epoch: -1})
}

// lostFence drops the community of a fence the store refused.
func (d *Dealer) lostFence(f *Fence) {
	if f == nil {
		return
	}
	go d.lose(Lease{Community: f.Community, Owner: f.Owner, Epoch: f.Epoch}, "the store refused a commit under its lease")
}

// scheduleFence lets the scheduler work only on schedules of communities this process serves, with
// their writes fenced.
func (d *Dealer) scheduleFence(ctx context.Context, s *schedule.Schedule) (context.Context, bool) {
	if d.leases == nil {
		return ctx, true
	}
	d.mu.Lock()
	c := d.owned[table.Community(s.Platform, s.Workspace)]
	d.mu.Unlock()
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

// stopOwning ends the lease loop and releases every lease, once the tables have stopped.
func (d *Dealer) stopOwning(ctx context.Context) {
	if d.leases == nil {
		return
	}
	close(d.ownStop)
	<-d.ownDone
	if d.inboxStop != nil {
		d.inboxStop()
	}
	d.mu.Lock()
	held := make([]Lease, 0, len(d.owned))
	for _, c := range d.owned {
		if c.lease.Epoch > 0 {
			held = append(held, c.lease)
		}
	}
	d.owned = map[string]*community{}
	d.mu.Unlock()
	for _, l := range held {
		if err := d.leases.Release(ctx, l); err != nil {
			d.log.Warn("release lease", "community", l.Community, "err", err)
		}
	}
	d.mu.Lock()
	me := d.me
	d.mu.Unlock()
	_ = d.leases.Release(ctx, me)
}

func (d *Dealer) setMe(l Lease, at time.Time) {
	d.mu.Lock()
	d.me, d.meRenewed = l, at
	d.mu.Unlock()
}

// Ready reports whether the dealer is serving: not shutting down and, when processes share the
// store, holding its process lease (renewed within the lease: it reaches the database).
func (d *Dealer) Ready() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.closed {
		return errClosed
	}
	if d.leases != nil && time.Since(d.meRenewed) > d.cfg.Lease {
		return fmt.Errorf("this process has not renewed its lease for %v: %w", time.Since(d.meRenewed).Round(time.Second), ErrStoreUnreachable)
	}
	return nil
}

// Owned returns the communities this process holds (for tests, health checks and metrics).
func (d *Dealer) Owned() []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	out := make([]string, 0, len(d.owned))
	for name := range d.owned {
		out = append(out, name)
	}
	return out
}

// Served returns how many communities this process serves now: held, restored, and renewed within
// two thirds of the lease (a community held while the database does not answer is not served).
func (d *Dealer) Served() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	n := 0
	for _, c := range d.owned {
		select {
		case <-c.ready:
			if c.err == nil && time.Since(c.renewed) < d.staleAfter() {
				n++
			}
		default:
		}
	}
	return n
}
