package storage_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/dealerbot/dealerbot/bot"
	"github.com/dealerbot/dealerbot/engine"
	"github.com/dealerbot/dealerbot/storage"
)

func mustOpen(tb testing.TB) *storage.DB {
	tb.Helper()
	db, err := storage.Open(filepath.Join(tb.TempDir(), "test.db"))
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { db.Close() })
	return db
}

func grant(user string, n int64) bot.LedgerEntry {
	return bot.LedgerEntry{Kind: bot.KindGrant, Workspace: "w", User: user, Name: user, Bankroll: n}
}

func buyIn(user string, n int64) bot.LedgerEntry {
	return bot.LedgerEntry{Kind: bot.KindBuyIn, Workspace: "w", User: user, Bankroll: -n, OnTable: n}
}

func table(id string, stacks ...int64) *bot.TableRecord {
	t := &bot.TableRecord{ID: id, Workspace: "w", Channel: id}
	for i, s := range stacks {
		t.Seats = append(t.Seats, bot.SeatRecord{User: fmt.Sprintf("u%d", i), Stack: s})
	}
	return t
}

// A change that would overdraw a bankroll is refused whole: no player, no ledger entry, no table.
func TestCommitIsAllOrNothing(t *testing.T) {
	db := mustOpen(t)
	ctx := context.Background()
	err := db.Commit(ctx, bot.Change{Table: table("t", 20000), Ledger: []bot.LedgerEntry{grant("u0", 10000), buyIn("u0", 20000)}})
	if !errors.Is(err, bot.ErrInsufficient) {
		t.Fatalf("overdrawing commit: err %v, want ErrInsufficient", err)
	}
	if _, ok, _ := db.Player(ctx, "w", "u0"); ok {
		t.Error("the refused change created the player")
	}
	if l, _ := db.Ledger(ctx); len(l) != 0 {
		t.Errorf("the refused change left %d ledger entries", len(l))
	}
	if ts, _ := db.Tables(ctx); len(ts) != 0 {
		t.Errorf("the refused change stored %d tables", len(ts))
	}
}

// A grant opens an account once; a second grant to the same player changes nothing.
func TestGrantOnlyOpensAnAccount(t *testing.T) {
	db := mustOpen(t)
	ctx := context.Background()
	for i := 0; i < 2; i++ {
		if err := db.Commit(ctx, bot.Change{Ledger: []bot.LedgerEntry{grant("u0", 10000)}}); err != nil {
			t.Fatal(err)
		}
	}
	p, ok, err := db.Player(ctx, "w", "u0")
	if err != nil || !ok || p.Bankroll != 10000 || p.Granted != 10000 {
		t.Fatalf("after two grants: %+v ok=%v err=%v, want one grant of 10000", p, ok, err)
	}
	if _, err := db.Balance(ctx); err != nil {
		t.Fatal(err)
	}
}

// Many goroutines commit at once (they share transactions); one of them overdraws. Every other
// change lands, the bad one does not, and the ledger balances.
func TestConcurrentCommits(t *testing.T) {
	db := mustOpen(t)
	ctx := context.Background()
	const n = 300
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			user := fmt.Sprintf("u%d", i)
			amount := int64(1000)
			if i == 7 {
				amount = 20000 // more than the grant
			}
			errs[i] = db.Commit(ctx, bot.Change{Table: table("t"+user, amount), Ledger: []bot.LedgerEntry{grant(user, 10000), buyIn(user, amount)}})
		}(i)
	}
	wg.Wait()
	for i, err := range errs {
		if (i == 7) != (err != nil) {
			t.Fatalf("commit %d: err %v", i, err)
		}
	}
	tot, err := db.Balance(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if tot.BroughtIn != (n-1)*10000 || tot.OnTables != (n-1)*1000 {
		t.Fatalf("totals %+v, want %d players with 1000 on a table each", tot, n-1)
	}
}

// Hands come back most recent first, only the asked table's, at most n.
func TestHandsMostRecentFirst(t *testing.T) {
	db := mustOpen(t)
	ctx := context.Background()
	for _, id := range []string{"a", "ab", "b"} {
		for no := int64(1); no <= 5; no++ {
			if err := db.Commit(ctx, bot.Change{Hand: &bot.HandRecord{Table: id, No: no}}); err != nil {
				t.Fatal(err)
			}
		}
	}
	hs, err := db.Hands(ctx, "a", 3)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, h := range hs {
		got = append(got, fmt.Sprintf("%s%d", h.Table, h.No))
	}
	if fmt.Sprint(got) != "[a5 a4 a3]" {
		t.Fatalf("Hands(a, 3) = %v, want [a5 a4 a3]", got)
	}
	if hs, _ := db.Hands(ctx, "b", 10); len(hs) != 5 || hs[0].No != 5 {
		t.Fatalf("Hands(b, 10): %d hands", len(hs))
	}
}

// The action log written alone on each action is put back into the table's hand; a log from an
// earlier hand is ignored; finishing the hand removes it.
func TestActionLog(t *testing.T) {
	db := mustOpen(t)
	ctx := context.Background()
	tr := table("t", 100, 100)
	tr.Hand = &bot.HandState{No: 2}
	acts := []engine.Action{{Player: 0, Kind: engine.Call}, {Player: 1, Kind: engine.Check}}
	if err := db.Commit(ctx, bot.Change{Table: tr}); err != nil {
		t.Fatal(err)
	}
	if err := db.Commit(ctx, bot.Change{Actions: &bot.ActionLog{Table: "t", HandNo: 2, Actions: acts}}); err != nil {
		t.Fatal(err)
	}
	ts, _ := db.Tables(ctx)
	if len(ts) != 1 || len(ts[0].Hand.Actions) != 2 {
		t.Fatalf("tables %+v, want the hand with 2 actions", ts)
	}
	tr.Hand = &bot.HandState{No: 3}
	if err := db.Commit(ctx, bot.Change{Table: tr}); err != nil {
		t.Fatal(err)
	}
	if ts, _ := db.Tables(ctx); len(ts[0].Hand.Actions) != 0 {
		t.Fatalf("hand 3 got hand 2's actions: %+v", ts[0].Hand)
	}
}

// Backup writes a copy that opens and holds the same data.
func TestBackup(t *testing.T) {
	db := mustOpen(t)
	ctx := context.Background()
	if err := db.Commit(ctx, bot.Change{Table: table("t", 500), Ledger: []bot.LedgerEntry{grant("u0", 10000), buyIn("u0", 500)}}); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "backup.db")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Backup(f); err != nil {
		t.Fatal(err)
	}
	f.Close()
	cp, err := storage.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer cp.Close()
	tot, err := cp.Balance(ctx)
	if err != nil || tot.OnTables != 500 || tot.BroughtIn != 10000 {
		t.Fatalf("backup totals %+v, err %v", tot, err)
	}
}

// A second Open of a file in use fails after the timeout instead of waiting forever.
func TestOpenTwiceFails(t *testing.T) {
	path := filepath.Join(t.TempDir(), "test.db")
	db, err := storage.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if db2, err := storage.Open(path); err == nil {
		db2.Close()
		t.Fatal("a second Open of the same file succeeded")
	}
}

// After Close, Commit answers with an error instead of hanging.
func TestCommitAfterClose(t *testing.T) {
	db, err := storage.Open(filepath.Join(t.TempDir(), "test.db"))
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	if err := db.Commit(context.Background(), bot.Change{Table: table("t")}); err == nil {
		t.Fatal("Commit after Close succeeded")
	}
}
