package postgres_test

import (
	"context"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/dealerbot/dealerbot/bot/money"
	"github.com/dealerbot/dealerbot/storage"
	"github.com/dealerbot/dealerbot/storage/record"
)

// Migrating a bbolt file copies its money books, numbered as they were, and its payment handles; the
// copy's books go on after their newest event.
func TestImportCopiesMoney(t *testing.T) {
	ctx := context.Background()
	src, err := storage.Open(filepath.Join(t.TempDir(), "src.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	at := time.Date(2026, 3, 6, 23, 0, 0, 0, time.UTC)
	for _, c := range []string{"console/local", "discord/1"} {
		evs := []money.Event{{Time: at, Kind: money.KindDebt, Community: c, From: "bob", To: "alice", Amount: 350, Currency: "USD"},
			{Time: at, Kind: money.KindPaid, Community: c, Debt: 1, By: "bob"}}
		if err := src.AppendMoney(ctx, c, 0, evs); err != nil {
			t.Fatal(err)
		}
	}
	if err := src.SetHandle(ctx, "discord/1", "alice", money.Handle{App: "venmo", Name: "@alice-w"}); err != nil {
		t.Fatal(err)
	}
	snap, err := src.Snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	dst := mustOpen(t)
	defer dst.Close()
	want, err := src.Summary(ctx)
	if err != nil {
		t.Fatal(err)
	}
	// The copy, read back in Import's transaction, holds the same money events and handles.
	err = dst.Import(ctx, snap, func(got record.Summary) error {
		if d := record.SumsDiffer(got, want); len(d) > 0 || got.Counts != want.Counts || got.Counts.MoneyEvents != 4 || got.Counts.Handles != 1 {
			t.Errorf("the copy differs in %v: counts %+v, want %+v", d, got.Counts, want.Counts)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []string{"console/local", "discord/1"} {
		want, _ := src.MoneyBook(ctx, c)
		got, err := dst.MoneyBook(ctx, c)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Fatalf("%s's book in the copy: %+v, %v; want %+v", c, got, err, want)
		}
	}
	if hs, _ := dst.Handles(ctx, "discord/1"); hs["alice"].Name != "@alice-w" {
		t.Fatalf("handles in the copy: %+v", hs)
	}
	if err := dst.AppendMoney(ctx, "discord/1", 2, []money.Event{{Time: at, Kind: money.KindConfirmed, Community: "discord/1", Debt: 1, By: "alice"}}); err != nil {
		t.Fatalf("appending after the copied book: %v", err)
	}
}
