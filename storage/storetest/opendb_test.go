package storetest_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/dealerbot/dealerbot/storage"
	"github.com/dealerbot/dealerbot/storage/storetest"
)

// TestOpenDB: OpenDB gives a new, empty database in the test's temporary directory, closed when the
// test ends.
func TestOpenDB(t *testing.T) {
	ctx := context.Background()
	var db *storage.DB
	t.Run("open", func(t *testing.T) {
		db = storetest.OpenDB(t)
		if !db.Created() || filepath.Base(db.Path()) != "dealerbot.db" {
			t.Fatalf("OpenDB opened %s (created %v)", db.Path(), db.Created())
		}
		if n, err := db.Counts(ctx); err != nil || n.Players != 0 || n.Hands != 0 {
			t.Fatalf("a new database holds %+v, %v", n, err)
		}
	})
	if _, err := db.Counts(ctx); err == nil {
		t.Fatal("the database is still open after its test ended")
	}
}
