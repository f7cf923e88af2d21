package storage_test

import (
	"path/filepath"
	"testing"

	"github.com/dealerbot/dealerbot/storage"
	"github.com/dealerbot/dealerbot/storage/storetest"
)

// The bbolt store passes the conformance suite every bot.Store passes.
func TestConformance(t *testing.T) {
	storetest.Run(t, func(t *testing.T) storetest.Store {
		db, err := storage.Open(filepath.Join(t.TempDir(), "test.db"))
		if err != nil {
			t.Fatal(err)
		}
		return db
	})
}
