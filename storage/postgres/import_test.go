package postgres_test

import (
	"context"
	"errors"
	"path/filepath"
	"testing"

	"github.com/dealerbot/dealerbot/bot/table"
	"github.com/dealerbot/dealerbot/storage"
	"github.com/dealerbot/dealerbot/storage/record"
)

// TestImportCheckRollsBack: Import's check sees the copy before its commit, summed up as it will be
// read, and an error from it leaves the database as it was: empty, and ready for another copy.
func TestImportCheckRollsBack(t *testing.T) {
	ctx := context.Background()
	src, err := storage.Open(filepath.Join(t.TempDir(), "src.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	if err := src.Commit(ctx, table.Change{Ledger: []table.LedgerEntry{{Kind: table.KindGrant, Workspace: "w", User: "u", Bankroll: 500}}}); err != nil {
		t.Fatal(err)
	}
	if err := src.PutDMChannel(ctx, "discord", "1", "2"); err != nil {
		t.Fatal(err)
	}
	snap, err := src.Snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	dst := mustOpen(t)
	defer dst.Close()
	refuse := errors.New("the copy differs")
	var seen record.Summary
	if err := dst.Import(ctx, snap, func(s record.Summary) error { seen = s; return refuse }); !errors.Is(err, refuse) {
		t.Fatalf("Import with a failing check: %v", err)
	}
	if seen.Counts.Players != 1 || seen.Counts.DMChannels != 1 || seen.Totals.Bankrolls != 500 || seen.Balance != nil {
		t.Fatalf("the check saw %+v", seen)
	}
	if n, err := dst.Counts(ctx); err != nil || n != (record.Counts{}) {
		t.Fatalf("after a refused check the database holds %+v, %v", n, err)
	}
	if err := dst.Import(ctx, snap, nil); err != nil {
		t.Fatalf("a copy after the rolled-back one: %v", err)
	}
}
