package storetest

import (
	"path/filepath"
	"testing"

	"github.com/dealerbot/dealerbot/storage"
)

// OpenDB opens a new bbolt dealer database (package storage) in tb's temporary directory and closes
// it when tb ends: the store most tests of the dealer and its adapters run on.
func OpenDB(tb testing.TB) *storage.DB {
	tb.Helper()
	db, err := storage.Open(filepath.Join(tb.TempDir(), "dealerbot.db"))
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { db.Close() })
	return db
}
