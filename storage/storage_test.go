package storage_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/dealerbot/dealerbot/bot/table"
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

func grant(user string, n int64) table.LedgerEntry {
	return table.LedgerEntry{Kind: table.KindGrant, Workspace: "w", User: user, Name: user, Bankroll: n}
}

func buyIn(user string, n int64) table.LedgerEntry {
	return table.LedgerEntry{Kind: table.KindBuyIn, Workspace: "w", User: user, Bankroll: -n, OnTable: n}
}

func tableOf(id string, stacks ...int64) *table.TableRecord {
	t := &table.TableRecord{ID: id, Workspace: "w", Channel: id}
	for i, s := range stacks {
		t.Seats = append(t.Seats, table.SeatRecord{User: fmt.Sprintf("u%d", i), Stack: s})
	}
	return t
}

// Backup writes a copy that opens and holds the same data.
func TestBackup(t *testing.T) {
	db := mustOpen(t)
	ctx := context.Background()
	if err := db.Commit(ctx, table.Change{Table: tableOf("t", 500), Ledger: []table.LedgerEntry{grant("u0", 10000), buyIn("u0", 500)}}); err != nil {
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
	if err := db.Commit(context.Background(), table.Change{Table: tableOf("t")}); err == nil {
		t.Fatal("Commit after Close succeeded")
	}
}
