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
	"time"

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
	// AfterFunc starts a timer; default wraps time.AfterFunc. Tests inject a fake clock.
	AfterFunc func(d time.Duration, f func()) Timer
	// Rand drives shuffles and deck salts; default crypto/rand.
	Rand io.Reader
	// DealDelay is the pause before the automatic next hand; 0 means 3s, a negative value none.
	DealDelay time.Duration
	// Logger receives internal errors; default discards.
	Logger *slog.Logger
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

	mu     sync.Mutex // guards tables and closed
	tables map[string]*table
	closed bool
	wg     sync.WaitGroup

	dmMu     sync.Mutex
	dmWarned map[string]bool // workspace/user told how to allow DMs
}

// job is one unit of work for a table goroutine.
type job struct {
	ctx  context.Context
	cmd  Command
	fire func(ctx context.Context, t *table) // a timer's work instead of a command
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
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	d := &Dealer{store: store, chat: chat, cfg: cfg, log: cfg.Logger,
		tables: map[string]*table{}, dmWarned: map[string]bool{}}
	ctx := context.Background()
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
func (d *Dealer) newTable(id string) *table {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.newTableLocked(id)
}

func (d *Dealer) newTableLocked(id string) *table {
	t := &table{d: d, id: id, jobs: make(chan job, 64), pending: map[string][]render.Message{}}
	d.tables[id] = t
	d.wg.Add(1)
	go t.loop()
	return t
}

var errClosed = errors.New("the dealer is shutting down")

// submit queues a job on a table's goroutine and waits for it. A full queue at one table holds up
// only that table's callers: the dealer's lock is released before queueing, and the table's read
// lock keeps Close from closing the queue under a sender.
func (d *Dealer) submit(ctx context.Context, id string, j job) (Reply, error) {
	j.ctx = ctx
	j.done = make(chan Reply, 1)
	d.mu.Lock()
	if d.closed {
		d.mu.Unlock()
		return Reply{}, errClosed
	}
	t := d.tables[id]
	if t == nil {
		t = d.newTableLocked(id)
	}
	d.mu.Unlock()
	t.sendMu.RLock()
	if t.closed {
		t.sendMu.RUnlock()
		return Reply{}, errClosed
	}
	select {
	case t.jobs <- j:
		t.sendMu.RUnlock()
	case <-ctx.Done():
		t.sendMu.RUnlock()
		return Reply{}, ctx.Err()
	}
	select {
	case r := <-j.done:
		return r, nil
	case <-ctx.Done():
		return Reply{}, ctx.Err()
	}
}

// Handle runs cmd on its channel's table goroutine and waits for the private reply. Public and
// private messages the command causes go out through Chat.Send, in order, before Handle returns.
func (d *Dealer) Handle(ctx context.Context, cmd Command) Reply {
	r, err := d.submit(ctx, tableID(cmd), job{cmd: cmd})
	if err != nil {
		if errors.Is(err, errClosed) {
			return Reply{Text: "The dealer is shutting down and nothing changed: try again when it is back.", IsError: true}
		}
		return errorReply(d.log, err)
	}
	return r
}

// after starts a timer whose work runs on the table goroutine. The work runs at most once and not
// at all after Close.
func (d *Dealer) after(t *table, wait time.Duration, work func(ctx context.Context, t *table)) Timer {
	return d.cfg.AfterFunc(wait, func() {
		_, _ = d.submit(context.Background(), t.id, job{fire: work})
	})
}

// Close finishes the queued commands, stops every timer and waits for the table goroutines.
func (d *Dealer) Close(ctx context.Context) error {
	d.mu.Lock()
	if d.closed {
		d.mu.Unlock()
		return nil
	}
	d.closed = true
	tables := make([]*table, 0, len(d.tables))
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
	go func() { d.wg.Wait(); close(done) }()
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
