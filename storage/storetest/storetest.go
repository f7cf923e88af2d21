// Package storetest is the one conformance suite every implementation of bot.Store passes: the bbolt
// store (package storage) and the PostgreSQL store (storage/postgres) run the same code through Run.
// It checks every method and error, that Commit is all or nothing, hand numbering across sessions,
// that the ledger balances, the restore of a hand in progress, schedules, and the leases and fences
// through which processes that share a store own communities. OpenDB opens a bbolt store for tests
// that need one.
package storetest

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dealerbot/dealerbot/bot"
	"github.com/dealerbot/dealerbot/bot/money"
	"github.com/dealerbot/dealerbot/bot/schedule"
	"github.com/dealerbot/dealerbot/bot/stats"
	"github.com/dealerbot/dealerbot/bot/table"
	"github.com/dealerbot/dealerbot/engine"
	"github.com/dealerbot/dealerbot/storage/record"
)

// Store is what the suite needs of an implementation: the dealer's stores and the reads the tools
// (balance checks, exports, migrate) use.
type Store interface {
	bot.Store
	stats.Store
	bot.Leases
	bot.DMChannels
	schedule.Store
	Ledger(ctx context.Context) ([]table.LedgerEntry, error)
	Balance(ctx context.Context) (record.Totals, error)
	EachHand(ctx context.Context, fn func(table.HandRecord) error) error
	Close() error
}

// Run runs the suite; open returns a new, empty store, closed by the suite.
func Run(t *testing.T, open func(t *testing.T) Store) {
	tests := []struct {
		name string
		fn   func(t *testing.T, s Store)
	}{
		{"CommitIsAllOrNothing", commitIsAllOrNothing},
		{"GrantOnlyOpensAnAccount", grantOnlyOpensAnAccount},
		{"BankrollNeverBelowZero", bankrollNeverBelowZero},
		{"OverflowRefused", overflowRefused},
		{"ConcurrentCommits", concurrentCommits},
		{"PlayersOfAWorkspace", playersOfAWorkspace},
		{"HandsMostRecentFirst", handsMostRecentFirst},
		{"HandNumbersAcrossSessions", handNumbersAcrossSessions},
		{"HandRoundTrip", handRoundTrip},
		{"ActionLog", actionLog},
		{"RestoreHandInProgress", restoreHandInProgress},
		{"DeleteTable", deleteTable},
		{"SessionsInOrder", sessionsInOrder},
		{"LedgerBalances", ledgerBalances},
		{"BalanceSeesEachPlayer", balanceSeesEachPlayer},
		{"SteppedCommit", steppedCommit},
		{"ConditionalSchedules", conditionalSchedules},
		{"RequestKeys", requestKeys},
		{"Schedules", schedules},
		{"LeaseClaimRenewRelease", leaseClaimRenewRelease},
		{"FencedCommit", fencedCommit},
		{"FencedScheduleWrites", fencedScheduleWrites},
		{"Communities", communities},
		{"AppliedOnce", appliedOnce},
		{"Installations", installations},
		{"MoneyBookAppends", moneyBookAppends},
		{"MoneyInCommit", moneyInCommit},
		{"ConcurrentMoneyAppends", concurrentMoneyAppends},
		{"MoneyNumbering", moneyNumbering},
		{"PaymentHandles", paymentHandles},
		{"HandsOfACommunity", handsOfACommunity},
		{"DMChannels", dmChannels},
		{"CommunitiesAlike", communitiesAlike},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := open(t)
			t.Cleanup(func() { s.Close() })
			tc.fn(t, s)
		})
	}
}

var ctx = context.Background()

func grant(user string, n int64) table.LedgerEntry {
	return table.LedgerEntry{Kind: table.KindGrant, Workspace: "w", User: user, Name: user, Bankroll: n}
}

func buyIn(tableID string, user string, n int64) table.LedgerEntry {
	return table.LedgerEntry{Kind: table.KindBuyIn, Workspace: "w", User: user, Table: tableID, Bankroll: -n, OnTable: n}
}

func tableRec(id string, stacks ...int64) *table.TableRecord {
	t := &table.TableRecord{ID: "console/w/" + id, Platform: "console", Workspace: "w", Channel: id, Button: -1}
	for i, s := range stacks {
		t.Seats = append(t.Seats, table.SeatRecord{User: fmt.Sprintf("u%d", i), Name: fmt.Sprintf("u%d", i), Stack: s})
	}
	return t
}

func commit(t *testing.T, s Store, c table.Change) {
	t.Helper()
	if err := s.Commit(ctx, c); err != nil {
		t.Fatalf("commit: %v", err)
	}
}

func balance(t *testing.T, s Store) record.Totals {
	t.Helper()
	tot, err := s.Balance(ctx)
	if err != nil {
		t.Fatalf("balance: %v", err)
	}
	return tot
}

// A change that would overdraw a bankroll is refused whole: no player, no ledger entry, no table,
// no hand, no session.
func commitIsAllOrNothing(t *testing.T, s Store) {
	err := s.Commit(ctx, table.Change{
		Table:   tableRec("t", 20000),
		Ledger:  []table.LedgerEntry{grant("u0", 10000), buyIn("console/w/t", "u0", 20000)},
		Hand:    &table.HandRecord{Table: "console/w/t", No: 1},
		Session: &table.SessionRecord{Table: "console/w/t"},
	})
	if !errors.Is(err, bot.ErrInsufficient) {
		t.Fatalf("overdrawing commit: err %v, want ErrInsufficient", err)
	}
	if _, ok, _ := s.Player(ctx, "w", "u0"); ok {
		t.Error("the refused change created the player")
	}
	if l, _ := s.Ledger(ctx); len(l) != 0 {
		t.Errorf("the refused change left %d ledger entries", len(l))
	}
	if ts, _ := s.Tables(ctx); len(ts) != 0 {
		t.Errorf("the refused change stored %d tables", len(ts))
	}
	if hs, _ := s.Hands(ctx, "console/w/t", 10); len(hs) != 0 {
		t.Errorf("the refused change stored %d hands", len(hs))
	}
	if ss, _ := s.Sessions(ctx); len(ss) != 0 {
		t.Errorf("the refused change stored %d sessions", len(ss))
	}
}

// A grant opens an account once; a second grant to the same player changes nothing, not even the
// ledger.
func grantOnlyOpensAnAccount(t *testing.T, s Store) {
	for i := 0; i < 2; i++ {
		commit(t, s, table.Change{Ledger: []table.LedgerEntry{grant("u0", 10000)}})
	}
	p, ok, err := s.Player(ctx, "w", "u0")
	if err != nil || !ok || p.Bankroll != 10000 || p.Granted != 10000 || p.Name != "u0" {
		t.Fatalf("after two grants: %+v ok=%v err=%v, want one grant of 10000", p, ok, err)
	}
	if l, _ := s.Ledger(ctx); len(l) != 1 {
		t.Fatalf("ledger holds %d entries after two grants, want 1", len(l))
	}
	if _, ok, err := s.Player(ctx, "w", "nobody"); ok || err != nil {
		t.Fatalf("Player(nobody): ok=%v err=%v, want not found", ok, err)
	}
	if _, ok, _ := s.Player(ctx, "other", "u0"); ok {
		t.Fatal("a player of workspace w was found in workspace other")
	}
	if tot := balance(t, s); tot.BroughtIn != 10000 || tot.Bankrolls != 10000 {
		t.Fatalf("totals %+v", tot)
	}
}

// A bankroll never goes below zero, by one chip or by many; the refused change leaves the bankroll
// as it was and an exact buy-in of everything is allowed.
func bankrollNeverBelowZero(t *testing.T, s Store) {
	commit(t, s, table.Change{Ledger: []table.LedgerEntry{grant("u0", 1000)}})
	err := s.Commit(ctx, table.Change{Ledger: []table.LedgerEntry{buyIn("console/w/t", "u0", 1001)}})
	if !errors.Is(err, bot.ErrInsufficient) {
		t.Fatalf("buy-in of 1001 from 1000: err %v, want ErrInsufficient", err)
	}
	commit(t, s, table.Change{Table: tableRec("t", 1000), Ledger: []table.LedgerEntry{buyIn("console/w/t", "u0", 1000)}})
	p, _, _ := s.Player(ctx, "w", "u0")
	if p.Bankroll != 0 || p.OnTable != 1000 {
		t.Fatalf("after buying in everything: %+v", p)
	}
	// A new player cannot start below zero either.
	err = s.Commit(ctx, table.Change{Ledger: []table.LedgerEntry{{Kind: table.KindAdjust, Workspace: "w", User: "u9", Bankroll: -5}}})
	if !errors.Is(err, bot.ErrInsufficient) {
		t.Fatalf("a new player adjusted to -5: err %v, want ErrInsufficient", err)
	}
	balance(t, s)
}

// A sum out of int64's range is refused (record.ErrOverflow), never stored wrapped.
func overflowRefused(t *testing.T, s Store) {
	commit(t, s, table.Change{Ledger: []table.LedgerEntry{grant("u0", 1<<62)}})
	err := s.Commit(ctx, table.Change{Ledger: []table.LedgerEntry{{Kind: table.KindAdjust, Workspace: "w", User: "u0", Bankroll: 1 << 62}}})
	if !errors.Is(err, record.ErrOverflow) {
		t.Fatalf("adjust past int64: err %v, want ErrOverflow", err)
	}
	if p, _, _ := s.Player(ctx, "w", "u0"); p.Bankroll != 1<<62 {
		t.Fatalf("bankroll %d after a refused overflow, want %d", p.Bankroll, int64(1<<62))
	}
}

// Many goroutines commit at once; one of them overdraws. Every other change lands, the bad one does
// not, and the ledger balances.
func concurrentCommits(t *testing.T, s Store) {
	const n = 100
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
			tr := tableRec("t"+user, amount)
			tr.Seats[0].User = user
			errs[i] = s.Commit(ctx, table.Change{Table: tr, Ledger: []table.LedgerEntry{grant(user, 10000), buyIn(tr.ID, user, amount)}})
		}(i)
	}
	wg.Wait()
	for i, err := range errs {
		if (i == 7) != (err != nil) {
			t.Fatalf("commit %d: err %v", i, err)
		}
	}
	if tot := balance(t, s); tot.BroughtIn != (n-1)*10000 || tot.OnTables != (n-1)*1000 {
		t.Fatalf("totals %+v, want %d players with 1000 on a table each", tot, n-1)
	}
	// Many buy-ins from one bankroll at once: exactly as many as it covers land.
	commit(t, s, table.Change{Ledger: []table.LedgerEntry{grant("shared", 5000)}})
	var ok sync.WaitGroup
	var mu sync.Mutex
	landed := 0
	for i := 0; i < 20; i++ {
		ok.Add(1)
		go func() {
			defer ok.Done()
			if s.Commit(ctx, table.Change{Ledger: []table.LedgerEntry{buyIn("console/w/x", "shared", 1000)}}) == nil {
				mu.Lock()
				landed++
				mu.Unlock()
			}
		}()
	}
	ok.Wait()
	if p, _, _ := s.Player(ctx, "w", "shared"); landed != 5 || p.Bankroll != 0 || p.OnTable != 5000 {
		t.Fatalf("20 concurrent buy-ins of 1000 from 5000: %d landed, player %+v", landed, p)
	}
}

// Players lists one workspace's players, ordered by user ID.
func playersOfAWorkspace(t *testing.T, s Store) {
	commit(t, s, table.Change{Ledger: []table.LedgerEntry{grant("b", 10), grant("a", 20), grant("B", 5),
		{Kind: table.KindGrant, Workspace: "w2", User: "z", Bankroll: 1}, {Kind: table.KindGrant, Workspace: "ww", User: "q", Bankroll: 1}}})
	ps, err := s.Players(ctx, "w")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range ps {
		got = append(got, fmt.Sprintf("%s:%d", p.User, p.Bankroll))
	}
	if want := "[B:5 a:20 b:10]"; fmt.Sprint(got) != want {
		t.Fatalf("Players(w) = %v, want %s", got, want)
	}
	if ps, _ := s.Players(ctx, "none"); len(ps) != 0 {
		t.Fatalf("Players(none) = %v", ps)
	}
}

// Hands come back most recent first, only the asked table's, at most n.
func handsMostRecentFirst(t *testing.T, s Store) {
	for _, id := range []string{"a", "ab", "b"} {
		for no := int64(1); no <= 5; no++ {
			commit(t, s, table.Change{Hand: &table.HandRecord{Table: id, No: no}})
		}
	}
	hs, err := s.Hands(ctx, "a", 3)
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
	if hs, _ := s.Hands(ctx, "b", 10); len(hs) != 5 || hs[0].No != 5 {
		t.Fatalf("Hands(b, 10): %d hands", len(hs))
	}
	if _, ok, err := s.Hand(ctx, "a", 6); ok || err != nil {
		t.Fatalf("Hand(a, 6): ok=%v err=%v, want none", ok, err)
	}
	var all []string
	err = s.EachHand(ctx, func(h table.HandRecord) error {
		all = append(all, fmt.Sprintf("%s%d", h.Table, h.No))
		return nil
	})
	if err != nil || len(all) != 15 || all[0] != "a1" || all[5] != "ab1" || all[14] != "b5" {
		t.Fatalf("EachHand: %v, err %v", all, err)
	}
}

// Hand numbers go on across sessions: a hand stored under a number already kept (an old version
// numbered each session from 1) is kept beside it, never overwriting it, and Hand returns the newer.
func handNumbersAcrossSessions(t *testing.T, s Store) {
	tr := tableRec("t", 100)
	for no := int64(1); no <= 3; no++ {
		commit(t, s, table.Change{Hand: &table.HandRecord{Table: tr.ID, No: no, Names: []string{"first"}, Stacks: []int64{100}}})
	}
	commit(t, s, table.Change{Session: &table.SessionRecord{Table: tr.ID, HandBase: 0, HandNo: 3}})
	for no := int64(4); no <= 5; no++ {
		commit(t, s, table.Change{Hand: &table.HandRecord{Table: tr.ID, No: no, Names: []string{"second"}, Stacks: []int64{100}}})
	}
	// The same hand again (same number and deck salt) is a retried step: refused, nothing written.
	if err := s.Commit(ctx, table.Change{Hand: &table.HandRecord{Table: tr.ID, No: 2, Names: []string{"retried"}, Stacks: []int64{100}}}); !errors.Is(err, bot.ErrApplied) {
		t.Fatalf("hand 2 again: err %v, want ErrApplied", err)
	}
	// Another hand under a number an older version's session took is kept beside, never over it.
	again := table.HandRecord{Table: tr.ID, No: 2, Names: []string{"again"}, Stacks: []int64{100}, Salt: "0a0b"}
	commit(t, s, table.Change{Hand: &again})
	if err := s.Commit(ctx, table.Change{Hand: &again}); !errors.Is(err, bot.ErrApplied) {
		t.Fatalf("the kept-beside hand 2 again: err %v, want ErrApplied", err)
	}
	h, ok, err := s.Hand(ctx, tr.ID, 2)
	if err != nil || !ok || h.Names[0] != "again" {
		t.Fatalf("Hand(2) = %+v ok=%v err=%v, want the newer hand 2", h, ok, err)
	}
	n := 0
	_ = s.EachHand(ctx, func(table.HandRecord) error { n++; return nil })
	if n != 6 {
		t.Fatalf("%d hands kept, want 6 (none overwritten, none twice)", n)
	}
	hs, _ := s.Hands(ctx, tr.ID, 10)
	if len(hs) != 6 || hs[0].No != 5 {
		t.Fatalf("Hands: %d, first %d", len(hs), hs[0].No)
	}
}

// A finished hand comes back exactly as it was stored.
func handRoundTrip(t *testing.T, s Store) {
	h := sampleHand()
	commit(t, s, table.Change{Hand: &h})
	got, ok, err := s.Hand(ctx, h.Table, h.No)
	if err != nil || !ok {
		t.Fatalf("Hand: ok=%v err=%v", ok, err)
	}
	if !reflect.DeepEqual(got, h) {
		t.Fatalf("hand read back differs:\n got %+v\nwant %+v", got, h)
	}
}

func sampleHand() table.HandRecord {
	deck := engine.OrderedDeck()
	return table.HandRecord{Table: "console/w/t", No: 42, Time: time.Date(2026, 11, 25, 20, 1, 2, 345678900, time.UTC),
		Names: []string{"alice", "bob"}, Users: []string{"ua", "ub"}, Seats: []int{1, 3}, Size: 9,
		Rules: engine.Rules{SmallBlind: 5, BigBlind: 10}, Stacks: []int64{1000, 800}, Button: 1, Deck: deck, Salt: "salt",
		Proof: 1, Actions: []engine.Action{{Player: 1, Kind: engine.Call}, {Player: 0, Kind: engine.Check}}, Final: []int64{1010, 790}}
}

// The action log written alone on each action is put back into the table's hand; a log from an
// earlier hand is ignored; a table without a hand drops the log.
func actionLog(t *testing.T, s Store) {
	tr := tableRec("t", 100, 100)
	tr.Hand = &table.HandState{No: 2}
	acts := []engine.Action{{Player: 0, Kind: engine.Call}, {Player: 1, Kind: engine.Check}}
	commit(t, s, table.Change{Table: tr})
	commit(t, s, table.Change{Actions: &table.ActionLog{Table: tr.ID, HandNo: 2, Actions: acts}})
	ts, _ := s.Tables(ctx)
	if len(ts) != 1 || len(ts[0].Hand.Actions) != 2 {
		t.Fatalf("tables %+v, want the hand with 2 actions", ts)
	}
	one, ok, err := s.Table(ctx, tr.ID)
	if err != nil || !ok || !reflect.DeepEqual(one, ts[0]) {
		t.Fatalf("Table(%s) = %+v ok=%v err=%v, want what Tables returns", tr.ID, one, ok, err)
	}
	if _, ok, err := s.Table(ctx, tr.ID+"x"); ok || err != nil {
		t.Fatalf("Table of a channel without one: ok=%v err=%v", ok, err)
	}
	tr.Hand = &table.HandState{No: 3}
	commit(t, s, table.Change{Table: tr})
	if ts, _ := s.Tables(ctx); len(ts[0].Hand.Actions) != 0 {
		t.Fatalf("hand 3 got hand 2's actions: %+v", ts[0].Hand)
	}
	commit(t, s, table.Change{Actions: &table.ActionLog{Table: tr.ID, HandNo: 3, Actions: acts[:1]}})
	tr.Hand = nil
	commit(t, s, table.Change{Table: tr})
	tr.Hand = &table.HandState{No: 3}
	commit(t, s, table.Change{Table: tr})
	if ts, _ := s.Tables(ctx); len(ts[0].Hand.Actions) != 0 {
		t.Fatalf("the log of a finished hand came back: %+v", ts[0].Hand)
	}
}

// A hand in progress comes back from the store as it was committed (deck, actions, deadline) and
// replays to the same decision point.
func restoreHandInProgress(t *testing.T, s Store) {
	deck := engine.OrderedDeck()
	deadline := time.Date(2026, 11, 25, 21, 0, 0, 123456789, time.UTC)
	tr := tableRec("t", 1000, 1000, 1000)
	tr.Button, tr.HandNo = 0, 7
	tr.Hand = &table.HandState{No: 7, Rules: engine.Rules{SmallBlind: 5, BigBlind: 10}, Stacks: []int64{1000, 1000, 1000},
		Button: 0, Seats: []int{0, 1, 2}, Deck: deck, Salt: "s"}
	commit(t, s, table.Change{Table: tr})
	h, err := engine.NewHand(tr.Hand.Setup())
	if err != nil {
		t.Fatal(err)
	}
	var acts []engine.Action
	for _, a := range []engine.Action{{Kind: engine.Call}, {Kind: engine.Raise, Amount: 40}} {
		a.Player = h.ToAct()
		if _, err := h.Apply(a); err != nil {
			t.Fatal(err)
		}
		acts = append(acts, a)
		commit(t, s, table.Change{Actions: &table.ActionLog{Table: tr.ID, HandNo: 7, Actions: acts, Deadline: deadline}})
	}
	ts, err := s.CommunityTables(ctx, "console/w")
	if err != nil || len(ts) != 1 {
		t.Fatalf("CommunityTables: %d tables, err %v", len(ts), err)
	}
	got := ts[0].Hand
	if !reflect.DeepEqual(got.Deck, deck) || !reflect.DeepEqual(got.Actions, acts) || !got.Deadline.Equal(deadline) {
		t.Fatalf("restored hand: deck same %v, actions %+v, deadline %v", reflect.DeepEqual(got.Deck, deck), got.Actions, got.Deadline)
	}
	r, err := engine.Replay(got.Setup(), got.Actions)
	if err != nil {
		t.Fatal(err)
	}
	if r.ToAct() != h.ToAct() || r.Pot() != h.Pot() {
		t.Fatalf("replayed hand: to act %d pot %d, want %d and %d", r.ToAct(), r.Pot(), h.ToAct(), h.Pot())
	}
}

// DeleteTable removes the table and its action log.
func deleteTable(t *testing.T, s Store) {
	tr := tableRec("t", 100)
	tr.Hand = &table.HandState{No: 1}
	commit(t, s, table.Change{Table: tr})
	commit(t, s, table.Change{Actions: &table.ActionLog{Table: tr.ID, HandNo: 1, Actions: []engine.Action{{Kind: engine.Fold}}}})
	commit(t, s, table.Change{DeleteTable: tr.ID})
	if ts, _ := s.Tables(ctx); len(ts) != 0 {
		t.Fatalf("%d tables after delete", len(ts))
	}
	tr.Hand = &table.HandState{No: 1}
	commit(t, s, table.Change{Table: tr})
	if ts, _ := s.Tables(ctx); len(ts[0].Hand.Actions) != 0 {
		t.Fatal("a deleted table's action log came back")
	}
}

// Sessions come back oldest first, whole.
func sessionsInOrder(t *testing.T, s Store) {
	for i := 1; i <= 3; i++ {
		commit(t, s, table.Change{Session: &table.SessionRecord{Table: fmt.Sprint("t", i), HandBase: int64(i * 10), HandNo: int64(i*10 + 5),
			Started: time.Date(2026, 1, i, 20, 0, 0, 0, time.UTC), Standings: []table.Standing{{User: "u", Name: "U", BoughtIn: 100, CashedOut: int64(i)}}}})
	}
	ss, err := s.Sessions(ctx)
	if err != nil || len(ss) != 3 {
		t.Fatalf("Sessions: %d, err %v", len(ss), err)
	}
	for i, se := range ss {
		if se.Table != fmt.Sprint("t", i+1) || se.HandNo != int64((i+1)*10+5) || se.Standings[0].CashedOut != int64(i+1) {
			t.Fatalf("session %d: %+v", i, se)
		}
	}
}

// A night of play through the ledger: buy-ins, results, a rebuy, cash-outs, an adjustment. The
// ledger balances after every step and its entries come back in order.
func ledgerBalances(t *testing.T, s Store) {
	id := "console/w/t"
	seatsOf := func(id string, a, b int64) *table.TableRecord { // a's and b's seats
		tr := tableRec(id, a, b)
		tr.Seats[0].User, tr.Seats[1].User = "a", "b"
		return tr
	}
	steps := []table.Change{
		{Ledger: []table.LedgerEntry{grant("a", 1000), grant("b", 1000)}},
		{Table: seatsOf("t", 500, 500), Ledger: []table.LedgerEntry{buyIn(id, "u0", 0), buyIn(id, "a", 500), buyIn(id, "b", 500)}},
		{Table: seatsOf("t", 700, 300), Ledger: []table.LedgerEntry{
			{Kind: table.KindResult, Workspace: "w", User: "a", Table: id, HandNo: 1, OnTable: 200},
			{Kind: table.KindResult, Workspace: "w", User: "b", Table: id, HandNo: 1, OnTable: -200}}},
		{Table: seatsOf("t", 700, 500), Ledger: []table.LedgerEntry{{Kind: table.KindRebuy, Workspace: "w", User: "b", Table: id, Bankroll: -200, OnTable: 200}}},
		{DeleteTable: id, Ledger: []table.LedgerEntry{
			{Kind: table.KindCashOut, Workspace: "w", User: "a", Table: id, Bankroll: 700, OnTable: -700},
			{Kind: table.KindCashOut, Workspace: "w", User: "b", Table: id, Bankroll: 500, OnTable: -500}}},
		{Ledger: []table.LedgerEntry{{Kind: table.KindAdjust, Workspace: "w", User: "b", Bankroll: 250}}},
	}
	for i, c := range steps {
		commit(t, s, c)
		if _, err := s.Balance(ctx); err != nil {
			t.Fatalf("after step %d: %v", i, err)
		}
	}
	tot := balance(t, s)
	if tot.BroughtIn != 2250 || tot.Bankrolls != 2250 || tot.OnTables != 0 {
		t.Fatalf("totals %+v", tot)
	}
	l, err := s.Ledger(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for _, e := range l {
		kinds = append(kinds, e.Kind+":"+e.User)
	}
	want := "[grant:a grant:b buy-in:u0 buy-in:a buy-in:b result:a result:b rebuy:b cash-out:a cash-out:b adjust:b]"
	if fmt.Sprint(kinds) != want {
		t.Fatalf("ledger %v\nwant %s", kinds, want)
	}
	if a, _, _ := s.Player(ctx, "w", "a"); a.Hands != 1 || a.Bankroll != 1200 {
		t.Fatalf("player a %+v, want 1 hand and 1200", a)
	}
	// A table whose stacks disagree with the ledger is found out.
	commit(t, s, table.Change{Table: tableRec("bad", 1)})
	if _, err := s.Balance(ctx); err == nil {
		t.Fatal("Balance accepted a table holding a chip the ledger does not know")
	}
}

// A stepped change applies only to the version it was computed from; every write of a table moves
// its version on; the store gives back the version and the last step's key, so a writer that never
// heard its commit's outcome can tell whether it landed.
func steppedCommit(t *testing.T, s Store) {
	id := "console/w/t"
	version := func(want int64, step string) {
		t.Helper()
		tr, ok, err := s.Table(ctx, id)
		if err != nil || !ok || tr.Version != want || tr.Step != step {
			t.Fatalf("Table: version %d step %q ok=%v err=%v, want version %d step %q", tr.Version, tr.Step, ok, err, want, step)
		}
		ts, err := s.Tables(ctx)
		if err != nil || len(ts) != 1 || ts[0].Version != want || ts[0].Step != step {
			t.Fatalf("Tables: %+v err=%v, want version %d step %q", ts, err, want, step)
		}
		cs, err := s.CommunityTables(ctx, "console/w")
		if err != nil || len(cs) != 1 || cs[0].Version != want || cs[0].Step != step {
			t.Fatalf("CommunityTables: %+v err=%v, want version %d step %q", cs, err, want, step)
		}
	}
	commit(t, s, table.Change{Ledger: []table.LedgerEntry{grant("u0", 1000)}})
	commit(t, s, table.Change{Step: "s1", Table: tableRec("t", 100), Ledger: []table.LedgerEntry{buyIn(id, "u0", 100)}})
	version(1, "s1")
	tr := tableRec("t", 100)
	tr.Hand = &table.HandState{No: 1}
	commit(t, s, table.Change{Step: "s2", Base: 1, Table: tr})
	commit(t, s, table.Change{Step: "s3", Base: 2, Actions: &table.ActionLog{Table: id, HandNo: 1, Actions: []engine.Action{{Kind: engine.Call}}}})
	version(3, "s3")
	// The same buy-in computed from version 1 again: refused, and nothing of it is written.
	err := s.Commit(ctx, table.Change{Step: "s4", Base: 1, Table: tableRec("t", 200), Ledger: []table.LedgerEntry{buyIn(id, "u0", 100)}})
	if !errors.Is(err, bot.ErrStale) {
		t.Fatalf("a step from an old version: err %v, want ErrStale", err)
	}
	version(3, "s3")
	if p, _, _ := s.Player(ctx, "w", "u0"); p.Bankroll != 900 || p.OnTable != 100 {
		t.Fatalf("player %+v after the refused step, want 900 and 100 on the table", p)
	}
	// A write that is not a step moves the version on too, and a step from before it is stale.
	commit(t, s, table.Change{Table: tr})
	version(4, "")
	if err := s.Commit(ctx, table.Change{Step: "s5", Base: 3, Table: tr}); !errors.Is(err, bot.ErrStale) {
		t.Fatalf("a step from before a plain write: err %v, want ErrStale", err)
	}
	// The table's end: deleted, then opened again from version 0.
	commit(t, s, table.Change{Step: "s6", Base: 4, DeleteTable: id, Ledger: []table.LedgerEntry{{Kind: table.KindCashOut, Workspace: "w", User: "u0", Table: id, Bankroll: 100, OnTable: -100}}})
	if _, ok, _ := s.Table(ctx, id); ok {
		t.Fatal("the deleted table is still there")
	}
	if err := s.Commit(ctx, table.Change{Step: "s7", Base: 4, Table: tableRec("t")}); !errors.Is(err, bot.ErrStale) {
		t.Fatalf("a step on a table that is gone: err %v, want ErrStale", err)
	}
	commit(t, s, table.Change{Step: "s8", Table: tableRec("t")})
	version(1, "s8")
	balance(t, s)
}

// A schedule is written only at the version it was read at: a copy read before a command changed
// it, or before it was removed, cannot write it back (a removed schedule never comes back), and a
// result written with a stale copy is refused whole; a removed schedule's result is kept alone.
func conditionalSchedules(t *testing.T, s Store) {
	sch := &schedule.Schedule{Platform: "console", Workspace: "w", Channel: "c", When: "weekly fri 20:00"}
	if err := s.PutSchedule(ctx, sch); err != nil {
		t.Fatal(err)
	}
	read := func() schedule.Schedule {
		t.Helper()
		all, err := s.Schedules(ctx)
		if err != nil || len(all) != 1 {
			t.Fatalf("Schedules: %v err %v", all, err)
		}
		return all[0]
	}
	a, b := read(), read()
	a.Announced = true
	if err := s.PutSchedule(ctx, &a); err != nil {
		t.Fatalf("the first write of a copy: %v", err)
	}
	b.Skip = []time.Time{time.Date(2026, 12, 4, 20, 0, 0, 0, time.UTC)}
	if err := s.PutSchedule(ctx, &b); !errors.Is(err, bot.ErrStale) {
		t.Fatalf("a write from the older copy: %v, want ErrStale", err)
	}
	if got := read(); !got.Announced || len(got.Skip) != 0 || got.Version != a.Version {
		t.Fatalf("stored %+v, want the first write's (version %d)", got, a.Version)
	}
	game := time.Date(2026, 12, 4, 20, 0, 0, 0, time.UTC)
	if err := s.PutResult(ctx, schedule.Result{Schedule: sch.ID, Game: game}, &b); !errors.Is(err, bot.ErrStale) {
		t.Fatalf("a result with the older copy: %v, want ErrStale", err)
	}
	if rs, _ := s.Results(ctx, sch.ID); len(rs) != 0 {
		t.Fatal("the refused result was written")
	}
	if err := s.PutResult(ctx, schedule.Result{Schedule: sch.ID, Game: game}, &a); err != nil {
		t.Fatalf("a result with the current copy: %v", err)
	}
	if err := s.DeleteSchedule(ctx, sch.ID); err != nil {
		t.Fatal(err)
	}
	if err := s.PutSchedule(ctx, &a); !errors.Is(err, bot.ErrStale) {
		t.Fatalf("writing back a removed schedule: %v, want ErrStale", err)
	}
	if all, _ := s.Schedules(ctx); len(all) != 0 {
		t.Fatalf("the removed schedule came back: %+v", all)
	}
	later := game.Add(7 * 24 * time.Hour)
	if err := s.PutResult(ctx, schedule.Result{Schedule: sch.ID, Game: later}, &a); err != nil {
		t.Fatalf("the result of a removed schedule's game: %v", err)
	}
	if rs, _ := s.Results(ctx, sch.ID); len(rs) != 2 {
		t.Fatalf("%d results, want both games'", len(rs))
	}
	if all, _ := s.Schedules(ctx); len(all) != 0 {
		t.Fatal("a result brought the removed schedule back")
	}
}

// A write keyed for the request it comes from is applied once: a change's Once and a money append's
// Key are refused the second time (ErrApplied), and Landed reports both.
func requestKeys(t *testing.T, s Store) {
	for _, key := range []string{"req-1", "req-2"} {
		if ok, err := s.Landed(ctx, key); err != nil || ok {
			t.Fatalf("Landed(%s) before any write: %v, %v", key, ok, err)
		}
	}
	commit(t, s, table.Change{Once: "req-1", Ledger: []table.LedgerEntry{grant("u0", 1000)}})
	adjust := table.Change{Once: "req-1", Ledger: []table.LedgerEntry{{Kind: table.KindAdjust, Workspace: "w", User: "u0", Bankroll: 5}}}
	if err := s.Commit(ctx, adjust); !errors.Is(err, bot.ErrApplied) {
		t.Fatalf("the same request again: %v, want ErrApplied", err)
	}
	ev := []money.Event{{Kind: money.KindExpense, Community: "console/w", By: "u0", Amount: 3000, Currency: "USD", Key: "req-2"},
		{Kind: money.KindDebt, Community: "console/w", From: "u1", To: "u0", Amount: 1500, Currency: "USD", Key: "req-2"}}
	if err := s.AppendMoney(ctx, "console/w", 0, ev); err != nil {
		t.Fatal(err)
	}
	if err := s.AppendMoney(ctx, "console/w", 2, ev); !errors.Is(err, bot.ErrApplied) {
		t.Fatalf("the same money request again: %v, want ErrApplied", err)
	}
	book, err := s.MoneyBook(ctx, "console/w")
	if err != nil || len(book) != 2 || book[0].Key != "req-2" || book[1].Key != "req-2" {
		t.Fatalf("book %+v err %v, want the request's two events, once, with its key", book, err)
	}
	for _, key := range []string{"req-1", "req-2"} {
		if ok, err := s.Landed(ctx, key); err != nil || !ok {
			t.Fatalf("Landed(%s) after the write: %v, %v", key, ok, err)
		}
	}
	if p, _, _ := s.Player(ctx, "w", "u0"); p.Bankroll != 1000 {
		t.Fatalf("bankroll %d, want 1,000 (the repeated adjustment refused)", p.Bankroll)
	}
	for i := 0; i < 2; i++ { // a schedule added by the same delivery twice is added once
		sch := &schedule.Schedule{Platform: "console", Workspace: "w", Channel: "c", When: "weekly fri 20:00", Key: "req-3"}
		err := s.PutSchedule(ctx, sch)
		if want := []error{nil, bot.ErrApplied}[i]; !errors.Is(err, want) {
			t.Fatalf("adding the schedule, time %d: %v, want %v", i+1, err, want)
		}
	}
	if all, err := s.Schedules(ctx); err != nil || len(all) != 1 {
		t.Fatalf("schedules %+v err %v, want one", all, err)
	}
}

// A step applied twice whose chips add up to nothing (a hand's results counted twice) still shows:
// Balance compares each player's chips on tables with their seats, not only the totals.
func balanceSeesEachPlayer(t *testing.T, s Store) {
	id := "console/w/t"
	tr := tableRec("t", 700, 300)
	commit(t, s, table.Change{Ledger: []table.LedgerEntry{grant("u0", 1000), grant("u1", 1000)}})
	commit(t, s, table.Change{Table: tableRec("t", 500, 500), Ledger: []table.LedgerEntry{buyIn(id, "u0", 500), buyIn(id, "u1", 500)}})
	results := []table.LedgerEntry{
		{Kind: table.KindResult, Workspace: "w", User: "u0", Table: id, HandNo: 1, OnTable: 200},
		{Kind: table.KindResult, Workspace: "w", User: "u1", Table: id, HandNo: 1, OnTable: -200}}
	commit(t, s, table.Change{Table: tr, Ledger: results})
	balance(t, s)
	commit(t, s, table.Change{Ledger: results}) // the same results again
	tot, err := s.Balance(ctx)
	if err == nil {
		t.Fatalf("Balance accepted a hand's results counted twice (totals %+v)", tot)
	}
	if !strings.Contains(err.Error(), "w/u0 has 900 chips on tables") {
		t.Fatalf("Balance: %v, want it to name u0's 900 chips", err)
	}
}

// Schedules get numbers, RSVPs replace earlier answers and are refused for a schedule that is gone,
// results outlive their schedule.
func schedules(t *testing.T, s Store) {
	game := time.Date(2026, 12, 4, 20, 0, 0, 0, time.UTC)
	a := &schedule.Schedule{Platform: "console", Workspace: "w", Channel: "c", Host: "h", When: "weekly fri 20:00", Zone: "UTC"}
	if err := s.PutSchedule(ctx, a); err != nil || a.ID == "" {
		t.Fatalf("PutSchedule: ID %q err %v", a.ID, err)
	}
	b := &schedule.Schedule{Platform: "console", Workspace: "w", Channel: "d"}
	if err := s.PutSchedule(ctx, b); err != nil || b.ID == a.ID {
		t.Fatalf("second schedule: ID %q (first %q) err %v", b.ID, a.ID, err)
	}
	a.Announced = true
	if err := s.PutSchedule(ctx, a); err != nil {
		t.Fatal(err)
	}
	all, err := s.Schedules(ctx)
	if err != nil || len(all) != 2 || all[0].ID != a.ID || !all[0].Announced {
		t.Fatalf("Schedules: %+v err %v", all, err)
	}
	t1 := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	for _, r := range []schedule.RSVP{{Schedule: a.ID, Game: game, User: "z", Answer: schedule.Yes, Time: t1},
		{Schedule: a.ID, Game: game, User: "y", Answer: schedule.Maybe, Time: t1.Add(time.Hour)},
		{Schedule: a.ID, Game: game, User: "z", Answer: schedule.No, Time: t1.Add(2 * time.Hour)},
		{Schedule: a.ID, Game: game.Add(time.Nanosecond), User: "x", Answer: schedule.Yes, Time: t1}} {
		if err := s.PutRSVP(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	rs, err := s.RSVPs(ctx, a.ID, game)
	if err != nil || len(rs) != 2 || rs[0].User != "y" || rs[1].User != "z" || rs[1].Answer != schedule.No {
		t.Fatalf("RSVPs: %+v err %v", rs, err)
	}
	res := schedule.Result{Schedule: a.ID, Game: game, Ended: game.Add(3 * time.Hour), Players: []schedule.Balance{{User: "y", Name: "Y", Net: 50}}}
	a.Open = nil
	if err := s.PutResult(ctx, res, a); err != nil {
		t.Fatal(err)
	}
	if err := s.DeleteSchedule(ctx, a.ID); err != nil {
		t.Fatal(err)
	}
	if err := s.PutRSVP(ctx, schedule.RSVP{Schedule: a.ID, Game: game, User: "w", Answer: schedule.Yes}); err == nil {
		t.Fatal("an RSVP for a removed schedule was stored")
	}
	if rs, _ := s.RSVPs(ctx, a.ID, game); len(rs) != 0 {
		t.Fatalf("a removed schedule's RSVPs stayed: %+v", rs)
	}
	got, err := s.Results(ctx, a.ID)
	if err != nil || len(got) != 1 || got[0].Players[0].Net != 50 || !got[0].Game.Equal(game) {
		t.Fatalf("Results after removal: %+v err %v", got, err)
	}
	if all, _ := s.Schedules(ctx); len(all) != 1 || all[0].ID != b.ID {
		t.Fatalf("Schedules after removal: %+v", all)
	}
	if err := s.DeleteSchedule(ctx, "abc"); err == nil {
		t.Fatal("DeleteSchedule(abc) succeeded")
	}
}

// A community is claimed once; another owner is refused while the lease lives and takes it over,
// with a new epoch, once it has expired; the old owner can no longer renew; a released lease is
// free at once.
func leaseClaimRenewRelease(t *testing.T, s Store) {
	const c = "discord/g1"
	a, err := s.Claim(ctx, c, "A", time.Minute)
	if err != nil || a.Epoch < 1 || a.Owner != "A" || !a.Live {
		t.Fatalf("first claim: %+v err %v", a, err)
	}
	if _, err := s.Claim(ctx, c, "B", time.Minute); !errors.Is(err, bot.ErrOwned) {
		t.Fatalf("B claims A's live lease: err %v, want ErrOwned", err)
	}
	if _, err := s.Claim(ctx, c, "A", time.Minute); !errors.Is(err, bot.ErrOwned) {
		t.Fatalf("A claims its own live lease: err %v, want ErrOwned (renew it instead)", err)
	}
	a2, err := s.Renew(ctx, a, -time.Second) // renewed into the past: expired, still A's
	if err != nil || a2.Epoch != a.Epoch || a2.Live {
		t.Fatalf("renew: %+v err %v", a2, err)
	}
	// Expired but untaken: A may still renew it at the same epoch.
	if a2, err = s.Renew(ctx, a2, -time.Second); err != nil || a2.Epoch != a.Epoch {
		t.Fatalf("renew of an expired, untaken lease: %+v err %v", a2, err)
	}
	b, err := s.Claim(ctx, c, "B", time.Minute)
	if err != nil || b.Epoch != a.Epoch+1 || b.Owner != "B" {
		t.Fatalf("B takes over the expired lease: %+v err %v, want epoch %d", b, err, a.Epoch+1)
	}
	if _, err := s.Renew(ctx, a, time.Minute); !errors.Is(err, bot.ErrNotOwner) {
		t.Fatalf("A renews after the takeover: err %v, want ErrNotOwner", err)
	}
	if err := s.Release(ctx, a); err != nil {
		t.Fatalf("A releases a lease it lost: %v (want no error, and B keeps it)", err)
	}
	if _, err := s.Claim(ctx, c, "C", time.Minute); !errors.Is(err, bot.ErrOwned) {
		t.Fatalf("C claims after A's stale release: err %v, want ErrOwned", err)
	}
	if err := s.Release(ctx, b); err != nil {
		t.Fatal(err)
	}
	cl, err := s.Claim(ctx, c, "C", time.Minute)
	if err != nil || cl.Epoch != b.Epoch+1 {
		t.Fatalf("C claims the released lease: %+v err %v, want epoch %d", cl, err, b.Epoch+1)
	}
	// Communities are independent.
	if _, err := s.Claim(ctx, "slack/T1", "A", time.Minute); err != nil {
		t.Fatalf("claim another community: %v", err)
	}
}

// A commit under a fence lands only while the fence is the lease: after a takeover the old owner's
// commit is refused (ErrNotOwner) and writes nothing, even together with ledger entries.
func fencedCommit(t *testing.T, s Store) {
	const c = "console/w"
	a, err := s.Claim(ctx, c, "A", -time.Second)
	if err != nil {
		t.Fatal(err)
	}
	tr := tableRec("t", 100)
	commit(t, s, table.Change{Fence: a.Fence(), Table: tr, Ledger: []table.LedgerEntry{grant("u0", 1000), buyIn(tr.ID, "u0", 100)}})
	b, err := s.Claim(ctx, c, "B", time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	stale := tableRec("t", 100)
	stale.HandNo = 99
	for name, ch := range map[string]table.Change{
		"table":  {Fence: a.Fence(), Table: stale},
		"ledger": {Fence: a.Fence(), Ledger: []table.LedgerEntry{{Kind: table.KindAdjust, Workspace: "w", User: "u0", Bankroll: 5}}},
		"grant":  {Fence: a.Fence(), Ledger: []table.LedgerEntry{grant("new", 10)}},
		"hand":   {Fence: a.Fence(), Hand: &table.HandRecord{Table: tr.ID, No: 1}},
		"delete": {Fence: a.Fence(), DeleteTable: tr.ID},
		"forged": {Fence: &bot.Fence{Community: c, Owner: "A", Epoch: b.Epoch}, Table: stale},
		"none":   {Fence: &bot.Fence{Community: "console/nobody", Owner: "A", Epoch: 1}, Table: stale},
	} {
		if err := s.Commit(ctx, ch); !errors.Is(err, bot.ErrNotOwner) {
			t.Errorf("%s under the old fence: err %v, want ErrNotOwner", name, err)
		}
	}
	ts, _ := s.Tables(ctx)
	if len(ts) != 1 || ts[0].HandNo != 0 {
		t.Fatalf("tables after refused commits: %+v", ts)
	}
	if p, _, _ := s.Player(ctx, "w", "u0"); p.Bankroll != 900 {
		t.Fatalf("bankroll %d after a refused adjust, want 900", p.Bankroll)
	}
	if _, ok, _ := s.Player(ctx, "w", "new"); ok {
		t.Fatal("a refused grant opened an account")
	}
	if hs, _ := s.Hands(ctx, tr.ID, 5); len(hs) != 0 {
		t.Fatal("a refused hand was stored")
	}
	commit(t, s, table.Change{Fence: b.Fence(), Table: stale})
	if ts, _ := s.Tables(ctx); ts[0].HandNo != 99 {
		t.Fatal("the new owner's commit did not land")
	}
	balance(t, s)
}

// Schedule writes made under a fence in their context are refused once the fence is stale.
func fencedScheduleWrites(t *testing.T, s Store) {
	const c = "console/w"
	a, _ := s.Claim(ctx, c, "A", -time.Second)
	sc := &schedule.Schedule{Platform: "console", Workspace: "w", Channel: "c"}
	fa := table.WithFence(ctx, a.Fence())
	if err := s.PutSchedule(fa, sc); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Claim(ctx, c, "B", time.Minute); err != nil {
		t.Fatal(err)
	}
	sc.Announced = true
	if err := s.PutSchedule(fa, sc); !errors.Is(err, bot.ErrNotOwner) {
		t.Fatalf("PutSchedule under a stale fence: err %v, want ErrNotOwner", err)
	}
	game := time.Date(2026, 12, 4, 20, 0, 0, 0, time.UTC)
	if err := s.PutResult(fa, schedule.Result{Schedule: sc.ID, Game: game}, sc); !errors.Is(err, bot.ErrNotOwner) {
		t.Fatalf("PutResult under a stale fence: err %v, want ErrNotOwner", err)
	}
	if err := s.DeleteSchedule(fa, sc.ID); !errors.Is(err, bot.ErrNotOwner) {
		t.Fatalf("DeleteSchedule under a stale fence: err %v, want ErrNotOwner", err)
	}
	all, _ := s.Schedules(ctx)
	if len(all) != 1 || all[0].Announced {
		t.Fatalf("schedules after refused writes: %+v", all)
	}
	if rs, _ := s.Results(ctx, sc.ID); len(rs) != 0 {
		t.Fatal("a refused result was stored")
	}
}

// Communities lists every community with tables, schedules or a lease, with the lease.
func communities(t *testing.T, s Store) {
	commit(t, s, table.Change{Table: &table.TableRecord{ID: "discord/g1/c1", Platform: "discord", Workspace: "g1", Channel: "c1"}})
	commit(t, s, table.Change{Table: &table.TableRecord{ID: "discord/g1/c2", Platform: "discord", Workspace: "g1", Channel: "c2"}})
	commit(t, s, table.Change{Table: &table.TableRecord{ID: "slack/T1/c1", Platform: "slack", Workspace: "T1", Channel: "c1"}})
	if err := s.PutSchedule(ctx, &schedule.Schedule{Platform: "slack", Workspace: "T2", Channel: "c"}); err != nil {
		t.Fatal(err)
	}
	l, err := s.Claim(ctx, "console/console", "A", time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := s.Communities(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range cs {
		got = append(got, fmt.Sprintf("%s:%s:%v", c.Community, c.Owner, c.Live))
	}
	want := "[console/console:A:true discord/g1::false slack/T1::false slack/T2::false]"
	if fmt.Sprint(got) != want {
		t.Fatalf("Communities = %v\nwant %s", got, want)
	}
	if cs[0].Epoch != l.Epoch {
		t.Fatalf("epoch %d, want %d", cs[0].Epoch, l.Epoch)
	}
	ts, err := s.CommunityTables(ctx, "discord/g1")
	if err != nil || len(ts) != 2 || ts[0].ID != "discord/g1/c1" {
		t.Fatalf("CommunityTables(discord/g1): %+v err %v", ts, err)
	}
	if ts, _ := s.CommunityTables(ctx, "discord/g"); len(ts) != 0 {
		t.Fatal("a community matched by prefix")
	}
}

// A change carrying a delivery ID is applied once: the same ID again is refused (bot.ErrApplied) and
// writes nothing; a change refused for another reason does not use its ID up.
func appliedOnce(t *testing.T, s Store) {
	tr := tableRec("t", 100)
	commit(t, s, table.Change{Once: "interaction-1", Table: tr, Ledger: []table.LedgerEntry{grant("u0", 1000), buyIn(tr.ID, "u0", 100)}})
	again := tableRec("t", 100)
	again.HandNo = 5
	if err := s.Commit(ctx, table.Change{Once: "interaction-1", Table: again, Ledger: []table.LedgerEntry{{Kind: table.KindAdjust, Workspace: "w", User: "u0", Bankroll: 7}}}); !errors.Is(err, bot.ErrApplied) {
		t.Fatalf("the same delivery again: err %v, want ErrApplied", err)
	}
	if ts, _ := s.Tables(ctx); ts[0].HandNo != 0 {
		t.Fatal("the repeated delivery wrote the table")
	}
	if p, _, _ := s.Player(ctx, "w", "u0"); p.Bankroll != 900 {
		t.Fatalf("bankroll %d after the repeated delivery, want 900", p.Bankroll)
	}
	// Refused for want of chips: the ID is not used up.
	if err := s.Commit(ctx, table.Change{Once: "interaction-2", Ledger: []table.LedgerEntry{buyIn(tr.ID, "u0", 5000)}}); !errors.Is(err, bot.ErrInsufficient) {
		t.Fatalf("overdrawing: %v", err)
	}
	commit(t, s, table.Change{Once: "interaction-2", Table: again})
	if err := s.Commit(ctx, table.Change{Once: "grant-3", Ledger: []table.LedgerEntry{grant("new", 10)}}); err != nil {
		t.Fatal(err)
	}
	if err := s.Commit(ctx, table.Change{Once: "grant-3", Ledger: []table.LedgerEntry{grant("other", 10)}}); !errors.Is(err, bot.ErrApplied) {
		t.Fatalf("a repeated change with grants: err %v, want ErrApplied", err)
	}
	if _, ok, _ := s.Player(ctx, "w", "other"); ok {
		t.Fatal("the repeated grant opened an account")
	}
	balance(t, s)
}

// Installations are kept one per workspace: read back exactly as put (the sealed token's bytes as
// given, binary included), replaced by an install again, kept apart between workspaces and between
// platforms, and deleted (deleting one that is not there is no error). One without a workspace is
// refused and nothing is stored.
func installations(t *testing.T, s Store) {
	is, ok := any(s).(bot.Installations)
	if !ok {
		t.Fatal("the store does not keep installations (bot.Installations)")
	}
	get := func(platform, workspace string) (bot.Installation, bool) {
		t.Helper()
		in, ok, err := is.Installation(ctx, platform, workspace)
		if err != nil {
			t.Fatalf("installation %s/%s: %v", platform, workspace, err)
		}
		return in, ok
	}
	same := func(got, want bot.Installation) bool {
		g, w := got, want
		g.Installed, w.Installed = time.Time{}, time.Time{}
		return reflect.DeepEqual(g, w) && got.Installed.Equal(want.Installed)
	}
	if _, ok := get("slack", "T1"); ok {
		t.Fatal("an empty store has an installation")
	}
	at := time.Date(2026, 11, 20, 20, 0, 0, 0, time.UTC)
	t1 := bot.Installation{Platform: "slack", Workspace: "T1", Name: "Home game", BotUser: "UBOT1",
		Scopes: []string{"commands", "chat:write"}, Token: []byte{1, 0, 0xff, 'x', 0}, InstalledBy: "UALICE", Installed: at}
	t2 := bot.Installation{Platform: "slack", Workspace: "T2", Name: "Office", BotUser: "UBOT2", Token: []byte{1, 2, 3}, Installed: at.Add(time.Hour)}
	d1 := bot.Installation{Platform: "discord", Workspace: "T1", Token: []byte{9}, Installed: at}
	for _, in := range []bot.Installation{t1, t2, d1} {
		if err := is.PutInstallation(ctx, in); err != nil {
			t.Fatalf("put %s/%s: %v", in.Platform, in.Workspace, err)
		}
	}
	for _, want := range []bot.Installation{t1, t2, d1} {
		if got, ok := get(want.Platform, want.Workspace); !ok || !same(got, want) {
			t.Errorf("installation %s/%s read back as %+v (found %v), want %+v", want.Platform, want.Workspace, got, ok, want)
		}
	}

	again := t1
	again.Token, again.Name, again.Scopes, again.Installed = []byte{1, 7, 7}, "Home game (renamed)", []string{"commands"}, at.Add(2*time.Hour)
	if err := is.PutInstallation(ctx, again); err != nil {
		t.Fatal(err)
	}
	if got, _ := get("slack", "T1"); !same(got, again) {
		t.Errorf("installed again: read back %+v, want %+v", got, again)
	}

	if err := is.DeleteInstallation(ctx, "slack", "T1"); err != nil {
		t.Fatal(err)
	}
	if _, ok := get("slack", "T1"); ok {
		t.Error("the deleted installation is still there")
	}
	if got, ok := get("slack", "T2"); !ok || !same(got, t2) {
		t.Errorf("deleting T1 changed T2: %+v (found %v)", got, ok)
	}
	if got, ok := get("discord", "T1"); !ok || !same(got, d1) {
		t.Errorf("deleting slack/T1 changed discord/T1: %+v (found %v)", got, ok)
	}
	if err := is.DeleteInstallation(ctx, "slack", "T1"); err != nil {
		t.Errorf("deleting a missing installation: %v, want no error", err)
	}

	if err := is.PutInstallation(ctx, bot.Installation{Platform: "slack", Token: []byte{1}}); err == nil {
		t.Error("an installation without a workspace was stored")
	}
	if _, ok := get("slack", ""); ok {
		t.Error("the refused installation was stored")
	}
}

func moneyEvent(community, kind string, amount int64) money.Event {
	return money.Event{Time: time.Date(2026, 3, 6, 23, 0, 0, 0, time.UTC), Kind: kind, Community: community,
		From: "bob", To: "alice", Amount: amount, Currency: "USD"}
}

func book(t *testing.T, s Store, community string) []money.Event {
	t.Helper()
	evs, err := s.MoneyBook(ctx, community)
	if err != nil {
		t.Fatalf("money book: %v", err)
	}
	return evs
}

// A book numbers its events from 1 per community; an append that did not see the newest event is
// refused and writes nothing.
func moneyBookAppends(t *testing.T, s Store) {
	if evs := book(t, s, "console/w"); len(evs) != 0 {
		t.Fatalf("a new store has a book: %v", evs)
	}
	if err := s.AppendMoney(ctx, "console/w", 0, []money.Event{moneyEvent("console/w", money.KindDebt, 500), moneyEvent("console/w", money.KindDebt, 700)}); err != nil {
		t.Fatal(err)
	}
	if err := s.AppendMoney(ctx, "console/x", 0, []money.Event{moneyEvent("console/x", money.KindDebt, 1)}); err != nil {
		t.Fatal(err)
	}
	err := s.AppendMoney(ctx, "console/w", 1, []money.Event{moneyEvent("console/w", money.KindPaid, 0)})
	if !errors.Is(err, bot.ErrMoneyMoved) {
		t.Fatalf("append after a stale head: %v, want ErrMoneyMoved", err)
	}
	if err := s.AppendMoney(ctx, "console/w", 2, []money.Event{{Kind: money.KindPaid, Community: "console/w", Debt: 1, By: "bob"}}); err != nil {
		t.Fatal(err)
	}
	evs := book(t, s, "console/w")
	if len(evs) != 3 {
		t.Fatalf("book has %d events, want 3: %+v", len(evs), evs)
	}
	for i, e := range evs {
		if e.Seq != uint64(i+1) {
			t.Errorf("event %d has Seq %d", i, e.Seq)
		}
	}
	if got := evs[1]; got.Amount != 700 || got.From != "bob" || got.Currency != "USD" || !got.Time.Equal(moneyEvent("", "", 0).Time) {
		t.Errorf("event read back as %+v", got)
	}
	if got := evs[2]; got.Kind != money.KindPaid || got.Debt != 1 {
		t.Errorf("paid event read back as %+v", got)
	}
	if evs := book(t, s, "console/x"); len(evs) != 1 || evs[0].Seq != 1 {
		t.Errorf("the other community's book: %+v", evs)
	}
	cs, err := s.MoneyCommunities(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(cs) != "[console/w console/x]" {
		t.Errorf("communities with a book: %v", cs)
	}
}

// A Change's money events (a session's settle-up) are appended with it, or not at all.
func moneyInCommit(t *testing.T, s Store) {
	commit(t, s, table.Change{Ledger: []table.LedgerEntry{grant("u0", 100)}})
	if err := s.AppendMoney(ctx, "console/w", 0, []money.Event{moneyEvent("console/w", money.KindExpense, 3000)}); err != nil {
		t.Fatal(err)
	}
	err := s.Commit(ctx, table.Change{
		Ledger:  []table.LedgerEntry{buyIn("console/w/t", "u0", 200)},
		Session: &table.SessionRecord{Table: "console/w/t"},
		Money:   []money.Event{moneyEvent("console/w", money.KindSession, 0)}, MoneyAfter: 1,
	})
	if !errors.Is(err, bot.ErrInsufficient) {
		t.Fatalf("overdrawing commit: %v", err)
	}
	if evs := book(t, s, "console/w"); len(evs) != 1 {
		t.Fatalf("the refused change wrote money events: %+v", evs)
	}
	// A settle-up worked out before another event came is refused whole: its debt numbers are stale.
	err = s.Commit(ctx, table.Change{Session: &table.SessionRecord{Table: "console/w/t"},
		Money: []money.Event{moneyEvent("console/w", money.KindSession, 0)}, MoneyAfter: 0})
	if !errors.Is(err, bot.ErrMoneyMoved) {
		t.Fatalf("a session's money after a stale head: %v, want ErrMoneyMoved", err)
	}
	if sessions, _ := s.Sessions(ctx); len(sessions) != 0 {
		t.Fatalf("the refused change wrote its session")
	}
	commit(t, s, table.Change{Session: &table.SessionRecord{Table: "console/w/t"}, MoneyAfter: 1,
		Money: []money.Event{moneyEvent("console/w", money.KindSession, 0), moneyEvent("console/w", money.KindDebt, 250)}})
	evs := book(t, s, "console/w")
	if len(evs) != 3 || evs[1].Kind != money.KindSession || evs[2].Seq != 3 || evs[2].Amount != 250 {
		t.Fatalf("book after the session: %+v", evs)
	}
	if sessions, _ := s.Sessions(ctx); len(sessions) != 1 {
		t.Fatalf("%d sessions, want 1", len(sessions))
	}
}

// moneyNumbering (issue 37): a community's debts and expenses are numbered from 1 without gaps, one
// count for each, however the book's other events (sessions, payments, reminders, another
// community's events) fall between them and whether they came in a table's commit or an append: the
// numbers the dealer gives (money.Book.Number) are kept by the store and read back. (The numbers
// were the events' Seq once: #3, #12, #13 in a fresh database.) A book written before numbers were
// kept goes on numbering after its largest, its old debts keeping their numbers (their Seq).
func moneyNumbering(t *testing.T, s Store) {
	// appendNumbered appends evs to community's book as the dealer does: numbered after the book.
	appendNumbered := func(community string, evs ...money.Event) {
		t.Helper()
		b := money.Fold(book(t, s, community))
		b.Number(evs)
		if err := s.AppendMoney(ctx, community, b.Head, evs); err != nil {
			t.Fatal(err)
		}
	}
	w := func(kind string, amount int64) money.Event { return moneyEvent("console/w", kind, amount) }
	appendNumbered("console/w", w(money.KindExpense, 3000))
	appendNumbered("console/x", moneyEvent("console/x", money.KindDebt, 1), moneyEvent("console/x", money.KindExpense, 1))
	settle := []money.Event{w(money.KindSession, 0), w(money.KindDebt, 250), w(money.KindDebt, 300), w(money.KindDebt, 400)}
	money.Fold(book(t, s, "console/w")).Number(settle)
	commit(t, s, table.Change{Session: &table.SessionRecord{Table: "console/w/t"}, MoneyAfter: 1, Money: settle})
	paid := w(money.KindPaid, 0)
	paid.Debt = 4 // the second debt, by its Seq
	reminded := w(money.KindReminded, 0)
	reminded.Reminded = []uint64{4, 5}
	appendNumbered("console/w", paid, reminded, w(money.KindExpense, 800), w(money.KindDebt, 400))
	evs := book(t, s, "console/w")
	var got []string
	for i, e := range evs {
		if e.Seq != uint64(i+1) {
			t.Errorf("event %d has Seq %d", i, e.Seq)
		}
		if e.No != 0 {
			got = append(got, fmt.Sprintf("%s #%d", e.Kind, e.No))
		}
	}
	if want := "expense #1, debt #1, debt #2, debt #3, expense #2, debt #4"; strings.Join(got, ", ") != want {
		t.Errorf("numbers read back: %s, want %s", strings.Join(got, ", "), want)
	}
	b := money.Fold(evs)
	if d := b.DebtNo(2); d == nil || d.Opened.Amount != 300 || d.Status != money.Paid {
		t.Errorf("debt #2 (the Seq 4 event, marked paid by Seq): %+v", d)
	}
	if d := b.DebtNo(5); d != nil {
		t.Errorf("a debt #5 in a book of four debts: %+v", d)
	}
	if evs := book(t, s, "console/x"); len(evs) != 2 || evs[0].No != 1 || evs[1].No != 1 {
		t.Errorf("the other community's book: %+v", evs)
	}
	// A book from before: its events have no numbers; their Seq are.
	if err := s.AppendMoney(ctx, "console/old", 0, []money.Event{moneyEvent("console/old", money.KindSession, 0),
		moneyEvent("console/old", money.KindExpense, 10), moneyEvent("console/old", money.KindDebt, 20)}); err != nil {
		t.Fatal(err)
	}
	appendNumbered("console/old", moneyEvent("console/old", money.KindDebt, 30))
	old := money.Fold(book(t, s, "console/old"))
	if d, n := old.DebtNo(3), old.DebtNo(4); d == nil || d.Opened.Amount != 20 || n == nil || n.Opened.Amount != 30 {
		t.Errorf("an old book's debts: #3 %+v, #4 %+v; want the old one keeping its number and the new one after it", d, n)
	}
}

// Appends racing for one book each land once, numbered without gaps, when each retries after
// ErrMoneyMoved.
func concurrentMoneyAppends(t *testing.T, s Store) {
	const n = 8
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				evs, err := s.MoneyBook(ctx, "console/w")
				if err != nil {
					errs <- err
					return
				}
				var head uint64
				if len(evs) > 0 {
					head = evs[len(evs)-1].Seq
				}
				err = s.AppendMoney(ctx, "console/w", head, []money.Event{moneyEvent("console/w", money.KindExpense, int64(i+1))})
				if errors.Is(err, bot.ErrMoneyMoved) {
					continue
				}
				errs <- err
				return
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	evs := book(t, s, "console/w")
	seen := map[int64]bool{}
	for i, e := range evs {
		if e.Seq != uint64(i+1) {
			t.Errorf("event %d has Seq %d", i, e.Seq)
		}
		seen[e.Amount] = true
	}
	if len(evs) != n || len(seen) != n {
		t.Fatalf("%d events (%d distinct) after %d appends", len(evs), len(seen), n)
	}
}

// Handles are kept per community and user; the zero handle clears one.
func paymentHandles(t *testing.T, s Store) {
	set := func(community, user string, h money.Handle) {
		t.Helper()
		if err := s.SetHandle(ctx, community, user, h); err != nil {
			t.Fatal(err)
		}
	}
	set("console/w", "alice", money.Handle{App: "venmo", Name: "@alice-w"})
	set("console/w", "bob", money.Handle{App: "zelle", Name: "bob@example.com"})
	set("console/x", "alice", money.Handle{App: "paypal", Name: "alicex"})
	set("console/w", "alice", money.Handle{App: "cashapp", Name: "$alice"})
	hs, err := s.Handles(ctx, "console/w")
	if err != nil {
		t.Fatal(err)
	}
	if len(hs) != 2 || hs["alice"] != (money.Handle{App: "cashapp", Name: "$alice"}) || hs["bob"].Name != "bob@example.com" {
		t.Fatalf("handles: %+v", hs)
	}
	set("console/w", "alice", money.Handle{})
	hs, _ = s.Handles(ctx, "console/w")
	if _, ok := hs["alice"]; ok || len(hs) != 1 {
		t.Fatalf("after clearing alice's: %+v", hs)
	}
	if hs, _ := s.Handles(ctx, "console/x"); hs["alice"].Name != "alicex" {
		t.Fatalf("the other community's handles: %+v", hs)
	}
}

// EachHandOf reads the hands of the tables under a prefix, table by table in number order, and no
// others.
func handsOfACommunity(t *testing.T, s Store) {
	for _, tb := range []string{"discord/1/b", "discord/1/a", "discord/12/a", "slack/1/a", "discord/1_/x"} {
		for no := int64(3); no >= 1; no-- {
			h := sampleHand()
			h.Table, h.No = tb, no
			commit(t, s, table.Change{Hand: &h})
		}
	}
	var got []string
	err := s.EachHandOf(ctx, "discord/1/", func(h table.HandRecord) error {
		got = append(got, fmt.Sprintf("%s#%d", h.Table, h.No))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if want := "[discord/1/a#1 discord/1/a#2 discord/1/a#3 discord/1/b#1 discord/1/b#2 discord/1/b#3]"; fmt.Sprint(got) != want {
		t.Fatalf("hands of discord/1/: %v, want %s", got, want)
	}
	stop := errors.New("stop")
	n := 0
	if err := s.EachHandOf(ctx, "discord/", func(table.HandRecord) error { n++; return stop }); !errors.Is(err, stop) || n != 1 {
		t.Fatalf("fn's error did not stop the walk: %v after %d hands", err, n)
	}
}

// DM channels are kept per platform and user; a newer one replaces the older.
func dmChannels(t *testing.T, s Store) {
	if ch, ok, err := s.DMChannel(ctx, "discord", "111"); err != nil || ok || ch != "" {
		t.Fatalf("a user never seen: %q, %v, %v; want none", ch, ok, err)
	}
	for _, p := range []struct{ platform, user, channel string }{
		{"discord", "111", "dm-1"}, {"discord", "222", "dm-2"}, {"slack", "111", "D111"}, {"discord", "111", "dm-1b"},
	} {
		if err := s.PutDMChannel(ctx, p.platform, p.user, p.channel); err != nil {
			t.Fatal(err)
		}
	}
	for _, w := range []struct{ platform, user, want string }{
		{"discord", "111", "dm-1b"}, {"discord", "222", "dm-2"}, {"slack", "111", "D111"}, {"slack", "222", ""}, {"discord", "11", ""},
	} {
		ch, ok, err := s.DMChannel(ctx, w.platform, w.user)
		if err != nil || ch != w.want || ok != (w.want != "") {
			t.Errorf("DMChannel(%s, %s) = %q, %v, %v; want %q", w.platform, w.user, ch, ok, err, w.want)
		}
	}
}

// Communities whose names begin alike ("discord/g1", "discord/g10", "discord/g1x") are told apart:
// each lists its own tables, and every one of them is listed once, with several tables each.
func communitiesAlike(t *testing.T, s Store) {
	for _, id := range []string{"discord/g1/c1", "discord/g1/c2", "discord/g1/c3", "discord/g10/c1", "discord/g1x/c1", "discord/g10/c2", "console/local/console"} {
		var platform, ws, ch string
		if parts := strings.SplitN(id, "/", 3); len(parts) == 3 {
			platform, ws, ch = parts[0], parts[1], parts[2]
		}
		commit(t, s, table.Change{Table: &table.TableRecord{ID: id, Platform: platform, Workspace: ws, Channel: ch, Button: -1}})
	}
	cs, err := s.Communities(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range cs {
		got = append(got, c.Community)
	}
	if want := "[console/local discord/g1 discord/g10 discord/g1x]"; fmt.Sprint(got) != want {
		t.Fatalf("Communities = %v, want %s", got, want)
	}
	for c, want := range map[string]string{"discord/g1": "[discord/g1/c1 discord/g1/c2 discord/g1/c3]",
		"discord/g10": "[discord/g10/c1 discord/g10/c2]", "discord/g1x": "[discord/g1x/c1]", "discord": "[]", "discord/g1/c1": "[]"} {
		ts, err := s.CommunityTables(ctx, c)
		var ids []string
		for _, tr := range ts {
			ids = append(ids, tr.ID)
		}
		if err != nil || fmt.Sprint(ids) != want && !(want == "[]" && len(ids) == 0) {
			t.Errorf("CommunityTables(%s) = %v, %v; want %s", c, ids, err, want)
		}
	}
}
