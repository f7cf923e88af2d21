package schedule

import (
	"context"
	"log/slog"
	"sort"
	"sync"
	"time"

	"github.com/robfig/cron/v3"
)

// Runner drives a Manager with robfig/cron in production. Every schedule gets cron entries at its
// announcement, reminder, start and end times; each entry, and a sweep every minute, runs
// Manager.Tick, which works out from the stored progress what is due. So a late or doubled cron
// firing does no harm, and cron's entry IDs (which change across restarts) only live in memory,
// keyed by the schedule IDs the store keeps.
type Runner struct {
	m   *Manager
	c   *cron.Cron
	log *slog.Logger
	ctx context.Context

	mu      sync.Mutex
	entries map[string][]cron.EntryID // schedule ID -> its cron entries
}

// NewRunner wires m to a cron scheduler. It sets m.Changed so that added, skipped and removed
// schedules are registered again at once (a Changed already set is still called).
func NewRunner(m *Manager, logger *slog.Logger) *Runner {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	cl := cronLogger{logger}
	r := &Runner{m: m, log: logger, ctx: context.Background(), entries: map[string][]cron.EntryID{},
		// Panics in jobs are not recovered by default: one bad tick must not kill the bot.
		c: cron.New(cron.WithLogger(cl), cron.WithChain(cron.Recover(cl)))}
	prev := m.Changed
	m.Changed = func(s *Schedule, removed bool) {
		if removed {
			r.unregister(s.ID)
		} else {
			r.register(s)
		}
		if prev != nil {
			prev(s, removed)
		}
	}
	return r
}

// Start registers every stored schedule, fires at once what became due while the bot was down
// (missed starts are announced as missed), and starts the cron goroutine. ctx is used by the jobs.
func (r *Runner) Start(ctx context.Context) error {
	r.ctx = ctx
	all, err := r.m.Store.Schedules(ctx)
	if err != nil {
		return err
	}
	for i := range all {
		r.register(&all[i])
	}
	r.c.Schedule(cron.Every(time.Minute), cron.FuncJob(r.tick))
	r.tick()
	r.c.Start()
	return nil
}

// Stop stops the cron goroutine and waits for a running tick to finish or ctx to end.
func (r *Runner) Stop(ctx context.Context) {
	done := r.c.Stop()
	select {
	case <-done.Done():
	case <-ctx.Done():
	}
}

func (r *Runner) tick() {
	if err := r.m.Tick(r.ctx); err != nil {
		r.log.Error("schedule tick", "err", err)
	}
}

// shifted fires by after each game (by < 0: before it).
type shifted struct {
	spec *Spec
	by   time.Duration
}

func (s shifted) Next(t time.Time) time.Time {
	n := s.spec.Next(t.Add(-s.by))
	if n.IsZero() {
		return n
	}
	return n.Add(s.by)
}

func (r *Runner) register(s *Schedule) {
	spec, err := s.Spec()
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, id := range r.entries[s.ID] {
		r.c.Remove(id)
	}
	delete(r.entries, s.ID)
	if err != nil {
		r.log.Error("register schedule", "schedule", s.ID, "err", err)
		return
	}
	for _, by := range []time.Duration{-s.Announce, -s.Remind, 0, s.Length} {
		r.entries[s.ID] = append(r.entries[s.ID], r.c.Schedule(shifted{spec, by}, cron.FuncJob(r.tick)))
	}
}

func (r *Runner) unregister(id string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, e := range r.entries[id] {
		r.c.Remove(e)
	}
	delete(r.entries, id)
}

// Registered returns, for each registered schedule, the next time each of its cron entries fires
// after t (announcement, reminder, start, end), sorted.
func (r *Runner) Registered(t time.Time) map[string][]time.Time {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := map[string][]time.Time{}
	for id, es := range r.entries {
		var ts []time.Time
		for _, e := range es {
			ts = append(ts, r.c.Entry(e).Schedule.Next(t))
		}
		sort.Slice(ts, func(i, j int) bool { return ts[i].Before(ts[j]) })
		out[id] = ts
	}
	return out
}

// cronLogger sends cron's log lines to slog.
type cronLogger struct{ l *slog.Logger }

func (c cronLogger) Info(msg string, kv ...any) { c.l.Debug("cron: "+msg, kv...) }
func (c cronLogger) Error(err error, msg string, kv ...any) {
	c.l.Error("cron: "+msg, append(kv, "err", err)...)
}
