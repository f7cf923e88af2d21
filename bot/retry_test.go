package bot_test

import (
	"context"
	"fmt"
	"github.com/dealerbot/dealerbot/storage/record"
	"github.com/dealerbot/dealerbot/storage/storetest"
	"log/slog"
	"math/rand/v2"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/dealerbot/dealerbot/bot"
	"github.com/dealerbot/dealerbot/bot/bottest"
	"github.com/dealerbot/dealerbot/bot/features"
	"github.com/dealerbot/dealerbot/bot/table"
	"github.com/dealerbot/dealerbot/engine"
	"github.com/dealerbot/dealerbot/storage/pgtest"
	"github.com/dealerbot/dealerbot/storage/postgres"
)

// The dealer's automatic steps (the clock's fold, the fold for a player who left, the next hand's
// deal) have nobody waiting for them: when the store refuses one, it must be tried again, or the
// table stalls. These tests run on every store in storeKinds: bbolt and PostgreSQL.

// storeKind opens an empty store of the test's own, closed when the test ends, and a way to read
// its chip totals (which also checks that its ledger balances).
type storeKind struct {
	name string
	open func(tb testing.TB) (features.Store, func(tb testing.TB) chipTotals)
}

// chipTotals are a store's chips: brought in (grants, adjustments), in bankrolls, and on tables.
type chipTotals struct{ granted, bankrolls, onTables int64 }

var storeKinds = []storeKind{{"bbolt", openBolt}, {"postgres", openPostgres}}

// openPostgres is a postgres.DB on a fresh database of the test server (pgtest: skipped without
// DEALERBOT_TEST_POSTGRES, failed under CI=true).
func openPostgres(tb testing.TB) (features.Store, func(tb testing.TB) chipTotals) {
	tb.Helper()
	db, err := postgres.Open(context.Background(), pgtest.URL(tb))
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { db.Close() })
	return db, totalsOf(db)
}

// openBolt is a storage.DB on a file in tb.TempDir().
func openBolt(tb testing.TB) (features.Store, func(tb testing.TB) chipTotals) {
	tb.Helper()
	db := storetest.OpenDB(tb)
	return db, totalsOf(db)
}

// totalsOf reads a store's chips with its Balance, which also checks that its ledger balances.
func totalsOf(db interface {
	Balance(context.Context) (record.Totals, error)
}) func(tb testing.TB) chipTotals {
	return func(tb testing.TB) chipTotals {
		tb.Helper()
		tot, err := db.Balance(context.Background())
		if err != nil {
			tb.Fatalf("chips: %v", err)
		}
		return chipTotals{granted: tot.BroughtIn, bankrolls: tot.Bankrolls, onTables: tot.OnTables}
	}
}

// onEachStore runs test once per kind of store.
func onEachStore(t *testing.T, test func(t *testing.T, kind storeKind)) {
	for _, kind := range storeKinds {
		t.Run(kind.name, func(t *testing.T) { test(t, kind) })
	}
}

// errDiskFull is what flakyStore answers a commit it refuses.
var errDiskFull = fmt.Errorf("write dealerbot.db: %w", syscall.ENOSPC)

// flakyStore stands between the dealer and a real store and refuses the commits the test chooses,
// as a full disk does: a refused commit changes nothing. Every other call goes to the store.
type flakyStore struct {
	features.Store
	mu      sync.Mutex
	match   func(table.Change) bool
	left    int // how many more matching commits are refused
	refused int // commits refused so far
}

// failNext refuses the next n commits that match.
func (f *flakyStore) failNext(n int, match func(table.Change) bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.left, f.match = n, match
}

// refusals is the number of commits refused so far.
func (f *flakyStore) refusals() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.refused
}

func (f *flakyStore) Commit(ctx context.Context, c table.Change) error {
	f.mu.Lock()
	fail := f.left > 0 && f.match(c)
	if fail {
		f.left--
		f.refused++
	}
	f.mu.Unlock()
	if fail {
		return errDiskFull
	}
	return f.Store.Commit(ctx, c)
}

// actionBy matches the commit of an action of the running hand by player p (a hand index): the
// action log of a hand that goes on, or the record of a hand the action ends.
func actionBy(p int) func(table.Change) bool {
	return func(c table.Change) bool {
		var acts []engine.Action
		switch {
		case c.Actions != nil:
			acts = c.Actions.Actions
		case c.Hand != nil:
			acts = c.Hand.Actions
		}
		return len(acts) > 0 && acts[len(acts)-1].Player == p
	}
}

// deals matches the commit that deals a new hand: a table holding a hand the store does not hold yet.
func (f *flakyStore) deals(c table.Change) bool {
	if c.Table == nil || c.Table.Hand == nil || c.Actions != nil || c.Hand != nil {
		return false
	}
	tables, err := f.Store.Tables(context.Background())
	if err != nil {
		return false
	}
	for _, tr := range tables {
		if tr.ID == c.Table.ID {
			return tr.Hand == nil || tr.Hand.No != c.Table.Hand.No
		}
	}
	return false
}

// autoRig is a dealer on a flakyStore over a store of one kind, with a clock the test moves and a
// chat that edits the table message in place. Each timer that fires is followed by a Flush, so what
// it changed is on screen (and the next turn's clock started) before time moves on.
type autoRig struct {
	t     *testing.T
	store *flakyStore
	chips func(testing.TB) chipTotals
	d     *bot.Dealer
	clk   *bottest.Clock
	chat  *surfaceChat
	log   *bottest.Buffer
	users []string
}

// newAutoRig opens a table in channel c1 with start options opts, seats users with 1,000 chips each
// and deals hand #1.
func newAutoRig(t *testing.T, kind storeKind, opts string, users ...string) *autoRig {
	t.Helper()
	store, chips := kind.open(t)
	r := &autoRig{t: t, store: &flakyStore{Store: store}, chips: chips, users: users, log: &bottest.Buffer{},
		clk: bottest.NewClock(time.Date(2026, 11, 20, 20, 0, 0, 0, time.UTC)), chat: &surfaceChat{text: map[string]string{}}}
	d, err := bot.New(r.store, r.chat, features.With(r.store, bot.Config{Now: r.clk.Now, AfterFunc: r.clk.AfterFunc, Rand: rand.NewChaCha8([32]byte{7}),
		RateLimit: bot.RateLimit{Off: true}, PingAfter: -1, Logger: slog.New(slog.NewTextHandler(r.log, nil))}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close(context.Background()) }) // before the store closes
	r.d = d
	r.clk.Settle = r.flush
	r.must(users[0], "start "+opts)
	for _, u := range users {
		r.must(u, "join 1000")
	}
	r.must(users[0], "deal")
	return r
}

func (r *autoRig) flush() {
	if err := r.d.Flush(context.Background()); err != nil {
		r.t.Fatal(err)
	}
}

// must runs a command in c1 that has to succeed, and waits for the table on screen.
func (r *autoRig) must(user, text string) {
	r.t.Helper()
	rep := r.d.Handle(context.Background(), bot.Command{Platform: "test", Workspace: "w", Channel: "c1", User: user, UserName: user, Text: text})
	if rep.IsError {
		r.t.Fatalf("%s: %s: %s", user, text, rep.Text)
	}
	r.flush()
}

// advance moves the clock on, firing the timers that come due.
func (r *autoRig) advance(d time.Duration) { r.clk.Advance(d) }

// table is c1's table as stored.
func (r *autoRig) table() table.TableRecord {
	r.t.Helper()
	tables, err := r.store.Tables(context.Background())
	if err != nil {
		r.t.Fatal(err)
	}
	for _, tr := range tables {
		if tr.Channel == "c1" {
			return tr
		}
	}
	r.t.Fatal("no table in c1")
	return table.TableRecord{}
}

// actions are the stored actions of c1's running hand; it fails the test when there is none.
func (r *autoRig) actions() []engine.Action {
	r.t.Helper()
	tr := r.table()
	if tr.Hand == nil {
		r.t.Fatal("no hand in progress at c1")
	}
	return tr.Hand.Actions
}

// toAct is the user to act in the stored hand and their hand index.
func (r *autoRig) toAct() (string, int) {
	r.t.Helper()
	tr := r.table()
	p := firstToAct(r.t, tr)
	return tr.Seats[tr.Hand.Seats[p]].User, p
}

// screen is the table message on screen.
func (r *autoRig) screen() string {
	r.t.Helper()
	id := r.table().Screen.Message
	r.chat.smu.Lock()
	defer r.chat.smu.Unlock()
	return r.chat.text[id]
}

// wantTurn checks that the table message shows user's turn.
func (r *autoRig) wantTurn(user string) {
	r.t.Helper()
	if s := r.screen(); !strings.Contains(s, "▶ "+user+" to act") {
		r.t.Fatalf("the table message does not show %s's turn:\n%s", user, s)
	}
}

// wantRefusals checks how many commits the store has refused so far.
func (r *autoRig) wantRefusals(n int) {
	r.t.Helper()
	if got := r.store.refusals(); got != n {
		r.t.Fatalf("%d commits refused, want %d", got, n)
	}
}

// conserved checks that no chip was made or lost: every player got the starting 10,000, and the
// bankrolls and the chips on the table add up to that.
func (r *autoRig) conserved() {
	r.t.Helper()
	tot := r.chips(r.t)
	if want := int64(len(r.users)) * 10000; tot.granted != want || tot.bankrolls+tot.onTables != want {
		r.t.Fatalf("chips %+v: want %d granted, in bankrolls and on the table", tot, want)
	}
}

// TestTimeoutFoldSurvivesFailedWrite: the turn clock runs out while the store refuses writes. The
// fold is tried again 1 s, then 2 s, then 4 s later, and applied once the store takes it: the turn
// passes to the next player, on screen, and the chips add up. Meanwhile the turn stays the player's.
func TestTimeoutFoldSurvivesFailedWrite(t *testing.T) {
	onEachStore(t, func(t *testing.T, kind storeKind) {
		r := newAutoRig(t, kind, "timer=30", "ann", "ben", "cid")
		who, p := r.toAct()
		r.wantTurn(who)
		r.store.failNext(3, actionBy(p))
		r.advance(30 * time.Second)
		r.wantRefusals(1)
		if acts := r.actions(); len(acts) != 0 {
			t.Fatalf("a refused fold changed the hand: %v", acts)
		}
		r.wantTurn(who)
		if !strings.Contains(r.log.String(), "no space left on device") {
			t.Fatalf("the refused fold was not logged:\n%s", r.log)
		}
		for i, wait := range []time.Duration{time.Second, 2 * time.Second} {
			r.advance(wait - time.Millisecond)
			r.wantRefusals(1 + i)
			r.advance(time.Millisecond)
			r.wantRefusals(2 + i)
		}
		r.advance(4 * time.Second) // the store takes it
		acts := r.actions()
		if len(acts) != 1 || acts[0].Player != p || acts[0].Kind != engine.Fold {
			t.Fatalf("actions %v, want one fold by player %d", acts, p)
		}
		if tr := r.table(); len(tr.Hand.TimedOut) != 1 || tr.Hand.TimedOut[0] != p {
			t.Fatalf("timed out %v, want [%d]", tr.Hand.TimedOut, p)
		}
		next, _ := r.toAct()
		r.wantTurn(next)
		r.wantRefusals(3)
		// Nothing more for that turn: the next player acts, and the hand holds the two actions.
		r.advance(10 * time.Second)
		r.must(next, "call")
		if acts := r.actions(); len(acts) != 2 {
			t.Fatalf("actions %v, want the fold and the call", acts)
		}
		r.conserved()
	})
}

// TestTimeoutRetryGivesWayToThePlayer: the player whose clock ran out acts while the refused fold
// waits to be tried again: their action is taken, and the retry does nothing to the next player.
func TestTimeoutRetryGivesWayToThePlayer(t *testing.T) {
	onEachStore(t, func(t *testing.T, kind storeKind) {
		r := newAutoRig(t, kind, "timer=30", "ann", "ben", "cid")
		who, p := r.toAct()
		r.store.failNext(1, actionBy(p))
		r.advance(30 * time.Second)
		r.wantRefusals(1)
		r.must(who, "call") // before the retry, 1 s later
		next, _ := r.toAct()
		r.wantTurn(next)
		r.advance(20 * time.Second) // retries long due; the next player's 30 s are not over
		acts := r.actions()
		if len(acts) != 1 || acts[0].Player != p || acts[0].Kind != engine.Call {
			t.Fatalf("actions %v, want the call of player %d alone", acts, p)
		}
		if tr := r.table(); len(tr.Hand.TimedOut) != 0 {
			t.Fatalf("timed out %v after the player acted", tr.Hand.TimedOut)
		}
		r.wantTurn(next)
		r.conserved()
	})
}

// leaverAfter has the player who acts after the one to act leave mid-hand (their hand is then
// folded for them when their turn comes), and returns the player to act and the leaver (user, index).
func (r *autoRig) leaverAfter() (first string, leaver string, lp int) {
	r.t.Helper()
	tr := r.table()
	h, err := engine.Replay(tr.Hand.Setup(), tr.Hand.Actions)
	if err != nil {
		r.t.Fatal(err)
	}
	first = tr.Seats[tr.Hand.Seats[h.ToAct()]].User
	if _, err := h.Apply(engine.Action{Player: h.ToAct(), Kind: engine.Call}); err != nil {
		r.t.Fatal(err)
	}
	lp = h.ToAct()
	leaver = tr.Seats[tr.Hand.Seats[lp]].User
	r.must(leaver, "leave")
	return first, leaver, lp
}

// TestLeaverFoldSurvivesFailedWrite (the reported stall): the fold for a player who left mid-hand
// is refused by a full disk. The table shows the hand as it stands, the leaver's turn (not the turn
// before it), and the fold is tried again until the store takes it; then the turn passes on, the
// leaver is folded once and the chips add up.
func TestLeaverFoldSurvivesFailedWrite(t *testing.T) {
	onEachStore(t, func(t *testing.T, kind storeKind) {
		r := newAutoRig(t, kind, "timer=30", "ann", "ben", "cid")
		first, leaver, lp := r.leaverAfter()
		r.store.failNext(2, actionBy(lp))
		r.must(first, "call") // taken; the fold for the leaver that follows is refused
		r.wantRefusals(1)
		if acts := r.actions(); len(acts) != 1 {
			t.Fatalf("actions %v, want the call alone", acts)
		}
		r.wantTurn(leaver)
		r.advance(time.Second)
		r.wantRefusals(2)
		r.advance(2 * time.Second) // the store takes it
		acts := r.actions()
		if len(acts) != 2 || acts[1].Player != lp || acts[1].Kind != engine.Fold {
			t.Fatalf("actions %v, want the call and one fold by the leaver (player %d)", acts, lp)
		}
		next, _ := r.toAct()
		r.wantTurn(next)
		r.advance(10 * time.Second)
		if acts := r.actions(); len(acts) != 2 {
			t.Fatalf("actions %v after the fold was taken, want the same two", acts)
		}
		r.wantRefusals(2)
		r.conserved()
	})
}

// TestLeaverFoldRetryGivesWayToTheLeaver: a player who left mid-hand may still act while the fold
// for them waits to be tried again: their check or call is taken, and the retry does nothing more.
func TestLeaverFoldRetryGivesWayToTheLeaver(t *testing.T) {
	onEachStore(t, func(t *testing.T, kind storeKind) {
		r := newAutoRig(t, kind, "timer=30", "ann", "ben", "cid")
		first, leaver, lp := r.leaverAfter()
		r.store.failNext(1, actionBy(lp))
		r.must(first, "call")
		r.wantRefusals(1)
		r.must(leaver, "call")
		r.advance(20 * time.Second)
		acts := r.actions()
		if len(acts) != 2 || acts[1].Player != lp || acts[1].Kind != engine.Call {
			t.Fatalf("actions %v, want the call and the leaver's own call", acts)
		}
		r.conserved()
	})
}

// foldHand ends the running hand heads-up: the player to act folds.
func (r *autoRig) foldHand() {
	r.t.Helper()
	who, _ := r.toAct()
	r.must(who, "fold")
	if r.table().Hand != nil {
		r.t.Fatal("the hand did not end with a fold heads-up")
	}
}

// TestAutomaticDealSurvivesFailedWrite: the deal of the next hand, 3 s after the last one ended, is
// refused by the store; it is tried again 1 s and then 2 s later, and hand #2 is dealt once, its
// turn on screen, the chips adding up.
func TestAutomaticDealSurvivesFailedWrite(t *testing.T) {
	onEachStore(t, func(t *testing.T, kind storeKind) {
		r := newAutoRig(t, kind, "timer=off", "ann", "ben")
		r.foldHand()
		r.store.failNext(2, r.store.deals)
		r.advance(3 * time.Second)
		r.wantRefusals(1)
		if tr := r.table(); tr.Hand != nil || tr.HandNo != 1 {
			t.Fatalf("a refused deal changed the table: hand %+v, %d hands", tr.Hand, tr.HandNo)
		}
		r.advance(time.Second)
		r.wantRefusals(2)
		r.advance(2 * time.Second) // the store takes it
		tr := r.table()
		if tr.Hand == nil || tr.Hand.No != 2 || tr.HandNo != 2 {
			t.Fatalf("after the retries: hand %+v, %d hands; want hand #2 dealt", tr.Hand, tr.HandNo)
		}
		who, _ := r.toAct()
		r.wantTurn(who)
		if !strings.Contains(r.screen(), "Hand #2") {
			t.Fatalf("the table message is not hand #2's:\n%s", r.screen())
		}
		r.advance(time.Minute)
		if tr := r.table(); tr.Hand == nil || tr.Hand.No != 2 || tr.HandNo != 2 || len(tr.Hand.Actions) != 0 {
			t.Fatalf("a minute later: hand %+v, %d hands; want hand #2 as dealt", tr.Hand, tr.HandNo)
		}
		r.wantRefusals(2)
		r.conserved()
	})
}

// TestDealRetryGivesWayToAPlayersDeal: a player deals while the refused automatic deal waits to be
// tried again. Their hand is dealt, the retry deals nothing more, and when that hand ends the next
// one comes after the usual 3 s pause.
func TestDealRetryGivesWayToAPlayersDeal(t *testing.T) {
	onEachStore(t, func(t *testing.T, kind storeKind) {
		r := newAutoRig(t, kind, "timer=off", "ann", "ben")
		r.foldHand()
		r.store.failNext(1, r.store.deals)
		r.advance(3 * time.Second)
		r.wantRefusals(1)
		r.must("ben", "deal")
		if tr := r.table(); tr.Hand == nil || tr.Hand.No != 2 {
			t.Fatalf("the player's deal: hand %+v", tr.Hand)
		}
		r.foldHand() // hand #2 ends before the retry would have come
		r.advance(2 * time.Second)
		if tr := r.table(); tr.Hand != nil || tr.HandNo != 2 {
			t.Fatalf("2 s after hand #2 ended: hand %+v, %d hands; want the pause of 3 s", tr.Hand, tr.HandNo)
		}
		r.advance(time.Second)
		if tr := r.table(); tr.Hand == nil || tr.Hand.No != 3 || tr.HandNo != 3 {
			t.Fatalf("3 s after hand #2 ended: hand %+v, %d hands; want hand #3", tr.Hand, tr.HandNo)
		}
		r.conserved()
	})
}

// TestRetryBackoff: while the store keeps refusing, the automatic deal is tried again after 1, 2,
// 4, 8 and 16 s, then every 30 s; it is dealt as soon as the store takes it.
func TestRetryBackoff(t *testing.T) {
	onEachStore(t, func(t *testing.T, kind storeKind) {
		r := newAutoRig(t, kind, "timer=off", "ann", "ben")
		r.foldHand()
		waits := []time.Duration{1, 2, 4, 8, 16, 30, 30, 30}
		r.store.failNext(1+len(waits), r.store.deals)
		r.advance(3 * time.Second)
		r.wantRefusals(1)
		for i, w := range waits {
			r.advance(w*time.Second - time.Millisecond)
			r.wantRefusals(1 + i)
			r.advance(time.Millisecond)
			r.wantRefusals(2 + i)
		}
		if tr := r.table(); tr.Hand != nil {
			t.Fatalf("dealt while the store refused: %+v", tr.Hand)
		}
		r.advance(30 * time.Second)
		if tr := r.table(); tr.Hand == nil || tr.Hand.No != 2 {
			t.Fatalf("once the store takes it: hand %+v, want hand #2", tr.Hand)
		}
		r.conserved()
	})
}

// TestSessionEndSurvivesFailedWrite: the host ends the session during a hand; the fold that ends the
// hand is taken, but the store refuses the session's end (cash-outs, standings). The player's fold is
// not answered with an apology, and the end is tried again 1 s later: the table closes, the standings
// are posted once and every chip is back in a bankroll.
func TestSessionEndSurvivesFailedWrite(t *testing.T) {
	onEachStore(t, func(t *testing.T, kind storeKind) {
		r := newAutoRig(t, kind, "timer=off", "ann", "ben")
		r.must("ann", "end")
		r.store.failNext(1, func(c table.Change) bool { return c.DeleteTable != "" })
		r.foldHand()
		r.wantRefusals(1)
		standings := func() int {
			n := 0
			for _, m := range r.chat.all() {
				if !m.Private && strings.Contains(m.Text, "Session over — standings") {
					n++
				}
			}
			return n
		}
		if n := standings(); n != 0 {
			t.Fatalf("standings posted %d times while the end was refused", n)
		}
		r.advance(time.Second)
		tables, err := r.store.Tables(context.Background())
		if err != nil || len(tables) != 0 {
			t.Fatalf("tables %+v (%v) after the retry, want the table closed", tables, err)
		}
		r.advance(time.Minute)
		if n := standings(); n != 1 {
			t.Fatalf("standings posted %d times, want once", n)
		}
		r.wantRefusals(1)
		r.conserved()
		if tot := r.chips(t); tot.onTables != 0 {
			t.Fatalf("chips %+v: %d still on a closed table", tot, tot.onTables)
		}
	})
}
