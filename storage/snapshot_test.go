package storage

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/dealerbot/dealerbot/bot"
	"github.com/dealerbot/dealerbot/bot/schedule"
	"github.com/dealerbot/dealerbot/bot/table"
	"github.com/dealerbot/dealerbot/storage/internal/handgen"
	"github.com/dealerbot/dealerbot/storage/record"
)

// TestSnapshot: a snapshot holds every record under its key as stored, numbers the hands kept under
// a taken number in the order they were kept, walks the hands in EachHand's order across batches,
// keeps the bucket sequences (a removed schedule's number too), and Counts agrees with it.
func TestSnapshot(t *testing.T) {
	ctx := context.Background()
	d, err := Open(filepath.Join(t.TempDir(), "snap.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	r := rand.New(rand.NewPCG(7, 8))
	for i := 0; i < 2100; i++ { // more than two batches
		h := handgen.Played(r, []string{"console/w/a", "console/w/b"}[i%2], int64(i/2+1))
		must(d.Commit(ctx, table.Change{Hand: &h}))
	}
	for i := 0; i < 2; i++ { // two other hands numbered 7 at table a, as older versions kept them
		h := handgen.Played(r, "console/w/a", 7)
		h.Salt = fmt.Sprintf("%02x", i+1)
		must(d.Commit(ctx, table.Change{Hand: &h}))
		if err := d.Commit(ctx, table.Change{Hand: &h}); !errors.Is(err, bot.ErrApplied) {
			t.Fatalf("the same hand again: %v, want ErrApplied", err)
		}
	}
	now := time.Unix(1_800_000_000, 0).UTC()
	result := func(u string, n int64) table.LedgerEntry {
		return table.LedgerEntry{Time: now, Kind: table.KindResult, Workspace: "w", User: u, Table: "console/w/a", HandNo: 1, OnTable: n}
	}
	must(d.Commit(ctx, table.Change{Ledger: []table.LedgerEntry{
		{Kind: table.KindGrant, Workspace: "w", User: "u0", Bankroll: 1000}, {Kind: table.KindGrant, Workspace: "w", User: "u1", Bankroll: 1000}, // one record
	}}))
	must(d.Commit(ctx, table.Change{Ledger: []table.LedgerEntry{result("u0", 50), result("u1", -50)}})) // one record
	var ids []string
	for range 3 {
		s := &schedule.Schedule{Platform: "console", Workspace: "w"}
		must(d.PutSchedule(ctx, s))
		ids = append(ids, s.ID)
	}
	game := now.Add(48 * time.Hour)
	must(d.PutRSVP(ctx, schedule.RSVP{Schedule: ids[1], Game: game, User: "u0", Answer: schedule.Yes}))
	must(d.PutResult(ctx, schedule.Result{Schedule: ids[2], Game: game}, nil))
	must(d.DeleteSchedule(ctx, ids[2]))

	s, err := d.Snapshot(ctx)
	must(err)
	var want []table.HandRecord
	must(d.EachHand(ctx, func(h table.HandRecord) error { want = append(want, h); return nil }))
	var got []record.RawHand
	must(s.Hands(ctx, func(h record.RawHand) error { got = append(got, h); return nil }))
	if len(got) != len(want) || len(got) != 2102 {
		t.Fatalf("the snapshot walks %d hands, EachHand %d; want 2102", len(got), len(want))
	}
	var kept []int
	for i, h := range got {
		dh, err := record.DecodeHand(h.Table, h.No, h.Rec)
		if err != nil || !reflect.DeepEqual(dh, want[i]) {
			t.Fatalf("hand %d of the snapshot (%s %d) is not EachHand's: %v", i, h.Table, h.No, err)
		}
		if h.Table == "console/w/a" && h.No == 7 {
			kept = append(kept, h.Kept)
		} else if h.Kept != 0 {
			t.Fatalf("hand %s %d numbered kept %d", h.Table, h.No, h.Kept)
		}
	}
	if !reflect.DeepEqual(kept, []int{0, 1, 2}) {
		t.Errorf("the hands under number 7 are numbered %v, want [0 1 2]", kept)
	}
	if len(s.Players) != 2 || len(s.Ledger) != 2 || s.LedgerSeq != 2 || s.ScheduleSeq != 3 || len(s.Schedules) != 2 {
		t.Errorf("snapshot: %d players, %d ledger records (sequence %d), %d schedules (sequence %d)",
			len(s.Players), len(s.Ledger), s.LedgerSeq, len(s.Schedules), s.ScheduleSeq)
	}
	if len(s.RSVPs) != 1 || s.RSVPs[0].Schedule != 2 || s.RSVPs[0].Game != game.UnixNano() || s.RSVPs[0].User != "u0" {
		t.Errorf("rsvps %+v", s.RSVPs)
	}
	var rec schedule.Result
	if len(s.Results) != 1 || s.Results[0].Schedule != 3 || json.Unmarshal(s.Results[0].Rec, &rec) != nil || !rec.Game.Equal(game) {
		t.Errorf("results %+v: want the removed schedule's", s.Results)
	}
	n, err := d.Counts(ctx)
	must(err)
	if want := (record.Counts{Players: 2, LedgerEntries: 4, Hands: 2102, Schedules: 2, RSVPs: 1, Results: 1}); n != want {
		t.Errorf("Counts = %+v, want %+v", n, want)
	}
}
