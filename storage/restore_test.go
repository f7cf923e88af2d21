package storage

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/dealerbot/dealerbot/bot"
	"github.com/dealerbot/dealerbot/bot/money"
	"github.com/dealerbot/dealerbot/bot/schedule"
	"github.com/dealerbot/dealerbot/bot/table"
	"github.com/dealerbot/dealerbot/storage/internal/handgen"
	"github.com/dealerbot/dealerbot/storage/record"
)

// TestImport: a snapshot imported into a new file holds every record of the original (the summaries
// agree, kept hands and removed schedules' numbers included), numbers new records after the copied
// ones, and a second import into it is refused with nothing written.
func TestImport(t *testing.T) {
	ctx := context.Background()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	src, err := Open(filepath.Join(t.TempDir(), "src.db"))
	must(err)
	defer src.Close()
	r := rand.New(rand.NewPCG(3, 4))
	for i := 0; i < 1500; i++ { // more than a batch
		h := handgen.Played(r, []string{"console/w/a", "console/w/b"}[i%2], int64(i/2+1))
		must(src.Commit(ctx, table.Change{Hand: &h}))
	}
	for i := 0; i < 2; i++ { // two other hands numbered 7 at table a, as older versions kept them
		h := handgen.Played(r, "console/w/a", 7)
		h.Salt = fmt.Sprintf("%02x", i+1)
		must(src.Commit(ctx, table.Change{Hand: &h}))
	}
	now := time.Unix(1_800_000_000, 0).UTC()
	must(src.Commit(ctx, table.Change{Ledger: []table.LedgerEntry{
		{Kind: table.KindGrant, Workspace: "w", User: "u0", Bankroll: 1000}, {Kind: table.KindGrant, Workspace: "w", User: "u1", Bankroll: 1000},
	}, Session: &table.SessionRecord{Table: "console/w/a", Started: now, Ended: now.Add(time.Hour)}}))
	tr := &table.TableRecord{ID: "console/w/a", Platform: "console", Workspace: "w", Channel: "a", Button: -1,
		Seats: []table.SeatRecord{{User: "u0", Name: "u0", Stack: 300}}}
	must(src.Commit(ctx, table.Change{Table: tr, Ledger: []table.LedgerEntry{{Kind: table.KindBuyIn, Workspace: "w", User: "u0", Table: tr.ID, Bankroll: -300, OnTable: 300}}}))
	must(src.Commit(ctx, table.Change{Actions: &table.ActionLog{Table: tr.ID, HandNo: 1, Deadline: now}}))
	var ids []string
	for range 3 {
		s := &schedule.Schedule{Platform: "console", Workspace: "w"}
		must(src.PutSchedule(ctx, s))
		ids = append(ids, s.ID)
	}
	must(src.PutRSVP(ctx, schedule.RSVP{Schedule: ids[1], Game: now, User: "u0", Answer: schedule.Yes}))
	must(src.PutResult(ctx, schedule.Result{Schedule: ids[2], Game: now}, nil))
	must(src.DeleteSchedule(ctx, ids[2]))
	must(src.AppendMoney(ctx, "console/w", 0, []money.Event{{Time: now, Kind: money.KindDebt, Community: "console/w", From: "u1", To: "u0", Amount: 5, Currency: "USD"}}))
	must(src.SetHandle(ctx, "console/w", "u0", money.Handle{App: "venmo", Name: "@u0"}))
	must(src.PutInstallation(ctx, bot.Installation{Platform: "slack", Workspace: "T1", Token: []byte{9, 0, 9}, Scopes: []string{"commands"}, Installed: now}))
	must(src.PutDMChannel(ctx, "discord", "u0", "d1"))

	want, err := src.Summary(ctx)
	must(err)
	snap, err := src.Snapshot(ctx)
	must(err)
	dst, err := Open(filepath.Join(t.TempDir(), "dst.db"))
	must(err)
	defer dst.Close()
	must(dst.Import(ctx, snap))
	got, err := dst.Summary(ctx)
	must(err)
	if d := record.SumsDiffer(got, want); len(d) > 0 || got.Counts != want.Counts || got.Totals != want.Totals || got.Balance != nil {
		t.Fatalf("the copy differs in %v: %+v\nwant %+v", d, got, want)
	}
	for _, k := range record.SumKinds {
		if got.Sums[k].N == 0 {
			t.Errorf("the test has no %s", k)
		}
	}
	var a, b []table.HandRecord
	must(src.EachHand(ctx, func(h table.HandRecord) error { a = append(a, h); return nil }))
	must(dst.EachHand(ctx, func(h table.HandRecord) error { b = append(b, h); return nil }))
	if !reflect.DeepEqual(a, b) {
		t.Fatal("the copy's hands differ")
	}
	// New records go on after the copied ones: a schedule after the removed one.
	s := &schedule.Schedule{Platform: "console", Workspace: "w"}
	must(dst.PutSchedule(ctx, s))
	if s.ID != "4" {
		t.Errorf("a new schedule in the copy is %s, want 4", s.ID)
	}
	before, err := dst.Counts(ctx)
	must(err)
	if err := dst.Import(ctx, snap); !errors.Is(err, ErrNotEmpty) {
		t.Fatalf("a second import: %v, want ErrNotEmpty", err)
	}
	if after, _ := dst.Counts(ctx); after != before {
		t.Fatalf("a refused import changed the copy: %+v, was %+v", after, before)
	}
}
