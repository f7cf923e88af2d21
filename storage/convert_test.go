package storage

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/dealerbot/dealerbot/bot/table"
	"github.com/dealerbot/dealerbot/storage/internal/handgen"
)

// TestOldJSONHandsAreConverted: hands written as JSON by an earlier version are converted on open,
// once, and read back the same.
func TestOldJSONHandsAreConverted(t *testing.T) {
	path := filepath.Join(t.TempDir(), "old.db")
	d, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	d.Close()
	r := rand.New(rand.NewPCG(5, 6))
	var want []table.HandRecord
	b, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	err = b.Update(func(tx *bolt.Tx) error {
		for i := 0; i < 2500; i++ { // more than one batch
			h := handgen.Played(r, "slack/T1/C1", int64(i+1))
			want = append(want, h)
			v, _ := json.Marshal(h)
			if err := tx.Bucket(bucketHands).Put(handKey(h.Table, h.No), v); err != nil {
				return err
			}
		}
		return tx.Bucket(bucketMeta).Delete(keyHandsFormat)
	})
	b.Close()
	if err != nil {
		t.Fatal(err)
	}
	d, err = Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	got, err := d.Hands(context.Background(), "slack/T1/C1", 3000)
	if err != nil || len(got) != len(want) {
		t.Fatalf("%d hands after conversion, want %d (%v)", len(got), len(want), err)
	}
	for i, h := range got {
		if w := want[len(want)-1-i]; !reflect.DeepEqual(h, w) {
			t.Fatalf("hand %d changed in conversion:\n got %+v\nwant %+v", w.No, h, w)
		}
	}
	err = d.db.View(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketHands).ForEach(func(k, v []byte) error {
			if v[0] == '{' {
				return fmt.Errorf("hand %x is still JSON", k)
			}
			return nil
		})
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestLedgerRecords: a hand's result entries share one record; every entry reads back, in order.
func TestLedgerRecords(t *testing.T) {
	d, err := Open(filepath.Join(t.TempDir(), "l.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	ctx := context.Background()
	at := time.Date(2026, 11, 20, 20, 0, 0, 0, time.UTC)
	var c table.Change
	for _, u := range []string{"a", "b", "c"} {
		c.Ledger = append(c.Ledger, table.LedgerEntry{Time: at, Kind: table.KindGrant, Workspace: "w", User: u, Name: u, Bankroll: 1000},
			table.LedgerEntry{Time: at, Kind: table.KindBuyIn, Workspace: "w", User: u, Name: u, Table: "t", Bankroll: -500, OnTable: 500})
	}
	if err := d.Commit(ctx, c); err != nil {
		t.Fatal(err)
	}
	res := table.Change{Ledger: []table.LedgerEntry{
		{Time: at, Kind: table.KindResult, Workspace: "w", User: "a", Name: "a", Table: "t", HandNo: 7, OnTable: 300},
		{Time: at, Kind: table.KindResult, Workspace: "w", User: "b", Name: "b", Table: "t", HandNo: 7, OnTable: -100},
		{Time: at, Kind: table.KindResult, Workspace: "w", User: "c", Name: "c", Table: "t", HandNo: 7, OnTable: -200},
	}}
	if err := d.Commit(ctx, res); err != nil {
		t.Fatal(err)
	}
	var records int
	d.db.View(func(tx *bolt.Tx) error { records = tx.Bucket(bucketLedger).Stats().KeyN; return nil })
	if records != 7 { // six single entries (grants and buy-ins alternate), one record for the hand
		t.Fatalf("%d ledger records, want 7", records)
	}
	es, err := d.Ledger(ctx)
	if err != nil || len(es) != 9 {
		t.Fatalf("%d ledger entries, %v", len(es), err)
	}
	if last := es[8]; last.User != "c" || last.OnTable != -200 || last.HandNo != 7 || last.Kind != table.KindResult || !last.Time.Equal(at) {
		t.Fatalf("last entry %+v", last)
	}
}
