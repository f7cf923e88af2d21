package bot_test

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dealerbot/dealerbot/bot"
	"github.com/dealerbot/dealerbot/bot/features"
	"github.com/dealerbot/dealerbot/storage"
	"github.com/dealerbot/dealerbot/storage/pgtest"
	"github.com/dealerbot/dealerbot/storage/postgres"
)

// sharedStore is a store several dealers share.
type sharedStore interface {
	features.Store
	bot.Leases
	Close() error
}

// startShared starts a dealer named owner on a store it shares with others (a 1 s lease, no
// automatic deal, no rate limit), closed when t ends.
func startShared(t *testing.T, db sharedStore, owner string, chat bot.Chat, now func() time.Time) *bot.Dealer {
	t.Helper()
	d, err := bot.New(db, chat, features.With(db, bot.Config{Owner: owner, Lease: time.Second, Now: now, DealDelay: -1, RateLimit: bot.RateLimit{Off: true}}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close(context.Background()) })
	return d
}

// sharedStores are the stores two dealers can share in one test: one PostgreSQL database, or one
// bbolt file opened once (its leases work the same in one process).
var sharedStores = []struct {
	name string
	open func(tb testing.TB) sharedStore
}{
	{"bbolt", func(tb testing.TB) sharedStore {
		db, err := storage.Open(filepath.Join(tb.TempDir(), "shared.db"))
		if err != nil {
			tb.Fatal(err)
		}
		return db
	}},
	{"postgres", func(tb testing.TB) sharedStore {
		db, err := postgres.Open(context.Background(), pgtest.URL(tb))
		if err != nil {
			tb.Fatal(err)
		}
		return db
	}},
}

// A schedule's announcement and reminder fire once across two dealers sharing a store: only the
// owner of the schedule's community fires them, and after the owner hands the community over the new
// owner fires what comes due next without firing again what the first one fired.
func TestScheduleFiresOnceAcrossProcesses(t *testing.T) {
	for _, st := range sharedStores {
		t.Run(st.name, func(t *testing.T) {
			db := st.open(t)
			t.Cleanup(func() { db.Close() }) // after the dealers' (cleanups run last first): they renew leases until closed
			ctx := context.Background()
			var mu sync.Mutex
			now := time.Date(2026, 11, 25, 21, 0, 0, 0, time.UTC)
			clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
			type proc struct {
				d    *bot.Dealer
				s    *features.Scheduler
				chat *schedChat
			}
			start := func(owner string) proc {
				chat := &schedChat{}
				d := startShared(t, db, owner, chat, clock)
				s, err := features.NewScheduler(d, db, features.ScheduleConfig{Now: clock})
				if err != nil {
					t.Fatal(err)
				}
				return proc{d, s, chat}
			}
			a := start("A")
			cmd := bot.Command{Platform: "discord", Workspace: "g1", Channel: "c1", User: "alice", UserName: "alice"}
			do := func(p proc, text string) bot.Reply {
				c := cmd
				c.Text = text
				return p.d.Handle(ctx, c)
			}
			if r := do(a, "start"); r.IsError {
				t.Fatal(r.Text)
			}
			if r := do(a, "schedule add on 2026-11-26 20:00 tz=UTC"); r.IsError {
				t.Fatal(r.Text)
			}
			b := start("B")
			defer b.d.Close(ctx)
			countIn := func(p proc, substr string) (n int) {
				p.d.Flush(ctx)
				for _, m := range p.chat.public() {
					n += strings.Count(m, substr)
				}
				return n
			}
			count := func(substr string) int { return countIn(a, substr) + countIn(b, substr) }
			for i := 0; i < 3; i++ { // both tick, B first: only A (the owner) announces, once
				b.s.Tick(ctx)
				a.s.Tick(ctx)
			}
			if got, fromB := count("Home game on"), countIn(b, "Home game on"); got != 1 || fromB != 0 {
				t.Fatalf("%d announcements (%d from B, which does not own the community), want 1 from A", got, fromB)
			}
			// A hands over (a deploy: Close releases its leases); B takes the community.
			a.s.Close(ctx)
			if err := a.d.Close(ctx); err != nil {
				t.Fatal(err)
			}
			if r := do(b, "table"); r.IsError {
				t.Fatalf("B does not serve the community after A left: %s", r.Text)
			}
			mu.Lock()
			now = time.Date(2026, 11, 26, 19, 35, 0, 0, time.UTC) // the reminder is due (30 min before)
			mu.Unlock()
			for i := 0; i < 3; i++ {
				b.s.Tick(ctx)
			}
			if got := count("Home game on"); got != 1 {
				t.Errorf("%d announcements after the takeover, want still 1", got)
			}
			if got, fromB := count("The game starts"), countIn(b, "The game starts"); got != 1 || fromB != 1 {
				t.Errorf("%d reminders (%d from B), want 1 from B, the new owner", got, fromB)
			}
		})
	}
}

// Communities spread over the live processes: A serves four; B starts, and within a few seconds
// each serves two (A hands back what B has room for), every table still open and each community
// served by exactly one of them.
func TestCommunitiesSpread(t *testing.T) {
	for _, st := range sharedStores {
		t.Run(st.name, func(t *testing.T) {
			db := st.open(t)
			t.Cleanup(func() { db.Close() }) // after the dealers' (cleanups run last first): they renew leases until closed
			ctx := context.Background()
			start := func(owner string) *bot.Dealer { return startShared(t, db, owner, &schedChat{}, nil) }
			a := start("A")
			for _, g := range []string{"g1", "g2", "g3", "g4"} {
				if r := a.Handle(ctx, bot.Command{Platform: "discord", Workspace: g, Channel: "c", User: "u", UserName: "u", Text: "start"}); r.IsError {
					t.Fatal(r.Text)
				}
			}
			if got := len(a.Own().Owned()); got != 4 {
				t.Fatalf("A serves %d communities, want 4", got)
			}
			b := start("B")
			deadline := time.Now().Add(15 * time.Second)
			for len(a.Own().Owned()) != 2 || len(b.Own().Owned()) != 2 {
				if time.Now().After(deadline) {
					t.Fatalf("after 15 s A serves %v and B %v, want two each", a.Own().Owned(), b.Own().Owned())
				}
				time.Sleep(100 * time.Millisecond)
			}
			for _, name := range a.Own().Owned() {
				if slices.Contains(b.Own().Owned(), name) {
					t.Errorf("%s is served by both", name)
				}
			}
			if ts, _ := db.Tables(ctx); len(ts) != 4 {
				t.Errorf("%d open tables after the spread, want 4", len(ts))
			}
		})
	}
}
