package bot_test

import (
	"context"
	"encoding/json"
	"fmt"
	"github.com/dealerbot/dealerbot/storage/record"
	"math/rand/v2"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dealerbot/dealerbot/bot"
	"github.com/dealerbot/dealerbot/bot/bottest"
	"github.com/dealerbot/dealerbot/bot/features"
	"github.com/dealerbot/dealerbot/bot/table"
	"github.com/dealerbot/dealerbot/engine"
	"github.com/dealerbot/dealerbot/storage"
)

// rig is a dealer on a bbolt file in t.TempDir with a clock the test moves. Timers are kept and fired
// by the test (fire), so nothing happens behind its back.
type rig struct {
	tb   testing.TB
	path string
	db   *storage.DB
	d    *bot.Dealer
	chat *rigChat
	// wrap, when set, stands between the dealer and the database (to inject faults).
	wrap func(*storage.DB) features.Store
	clk  *bottest.Clock
	cfg  bot.Config
	// override, when set, is the chat the dealer gets instead of chat (which it should embed).
	override bot.Chat
}

// rigChat records every message; onSend, when set, sees each one first (and may panic).
type rigChat struct {
	schedChat
	onSend atomic.Pointer[func(bot.Message)]
}

func (c *rigChat) Send(ctx context.Context, m bot.Message) error {
	if f := c.onSend.Load(); f != nil {
		(*f)(m)
	}
	return c.schedChat.Send(ctx, m)
}

// saw reports whether a public message in channel ch contained s.
func (c *rigChat) saw(ch, s string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, m := range c.msgs {
		if !m.Private && m.Channel == ch && strings.Contains(m.Text, s) {
			return true
		}
	}
	return false
}

func newRig(tb testing.TB, cfg bot.Config) *rig {
	tb.Helper()
	r := &rig{tb: tb, path: filepath.Join(tb.TempDir(), "dealerbot.db"), chat: &rigChat{},
		clk: bottest.NewClock(time.Date(2026, 11, 20, 20, 0, 0, 0, time.UTC)), cfg: cfg}
	r.open()
	tb.Cleanup(r.close)
	return r
}

func (r *rig) open() {
	r.tb.Helper()
	db, err := storage.Open(r.path)
	if err != nil {
		r.tb.Fatal(err)
	}
	cfg := r.cfg
	if cfg.RateLimit == (bot.RateLimit{}) {
		cfg.RateLimit.Off = true // the tests of the limit set their own
	}
	cfg.Now = r.clock
	cfg.AfterFunc = r.after
	if cfg.Rand == nil {
		cfg.Rand = rand.NewChaCha8([32]byte{7})
	}
	var store features.Store = db
	if r.wrap != nil {
		store = r.wrap(db)
	}
	var chat bot.Chat = r.chat
	if r.override != nil {
		chat = r.override
	}
	d, err := bot.New(store, chat, features.With(store, cfg))
	if err != nil {
		db.Close()
		r.tb.Fatal(err)
	}
	r.db, r.d = db, d
	_ = d.Flush(context.Background()) // what the restore posts is in the channel
}

func (r *rig) close() {
	if r.d != nil {
		r.d.Close(context.Background())
		r.db.Close()
		r.d, r.db = nil, nil
	}
}

// restart closes the dealer and the file and opens both again, as a process restart would.
func (r *rig) restart() { r.close(); r.open() }

func (r *rig) clock() time.Time { return r.clk.Now() }

func (r *rig) after(d time.Duration, f func()) bot.Timer { return r.clk.AfterFunc(d, f) }

// advance moves the clock and fires the timers that came due, in order.
func (r *rig) advance(d time.Duration) { r.clk.Advance(d) }

// cmd runs a command as user in channel ch of workspace "w"; users whose name starts with "admin"
// administer the workspace.
func (r *rig) cmd(ch, user, text string) bot.Reply {
	rep := r.d.Handle(context.Background(), bot.Command{Platform: "test", Workspace: "w", Channel: ch,
		User: user, UserName: user, Admin: strings.HasPrefix(user, "admin"), Text: text})
	_ = r.d.Flush(context.Background()) // the table as the players see it before the next command
	return rep
}

// must runs a command that has to succeed.
func (r *rig) must(ch, user, text string) bot.Reply {
	r.tb.Helper()
	rep := r.cmd(ch, user, text)
	if rep.IsError {
		r.tb.Fatalf("%s in %s: %s: %s", user, ch, text, rep.Text)
	}
	return rep
}

// refused runs a command that has to be refused with a sentence containing want, changing nothing.
func (r *rig) refused(ch, user, text, want string) {
	r.tb.Helper()
	before := r.state()
	rep := r.cmd(ch, user, text)
	if !rep.IsError || !strings.Contains(rep.Text, want) {
		r.tb.Fatalf("%s: %s: reply %q (error %v), want a refusal containing %q", user, text, rep.Text, rep.IsError, want)
	}
	if after := r.state(); after != before {
		r.tb.Fatalf("%s: %s was refused but changed the state:\nbefore %s\nafter  %s", user, text, before, after)
	}
}

// state is everything a refused command must leave alone: the chip totals, the tables, the players
// and the schedules.
func (r *rig) state() string {
	r.tb.Helper()
	tot := r.balance()
	tables, err := r.db.Tables(context.Background())
	if err != nil {
		r.tb.Fatal(err)
	}
	players, err := r.db.Players(context.Background(), "w")
	if err != nil {
		r.tb.Fatal(err)
	}
	tj, _ := json.Marshal(tables) // the hand in progress by value, not its pointer
	scheds, err := r.db.Schedules(context.Background())
	if err != nil {
		r.tb.Fatal(err)
	}
	sj, _ := json.Marshal(scheds)
	return fmt.Sprintf("%+v %s %+v %s", tot, tj, players, sj)
}

// balance checks that the ledger balances (with sums that cannot wrap) and returns the totals.
func (r *rig) balance() record.Totals {
	r.tb.Helper()
	tot, err := r.db.Balance(context.Background())
	if err != nil {
		r.tb.Fatalf("chips: %v", err)
	}
	return tot
}

// TestHugeLevelsRefused is reproduction 1 of the hardening issue: a level length that made Level
// divide by zero (and crash every restart) is refused where it is typed, at start, set and in a
// schedule, and the level arithmetic cannot wrap for any stored value.
func TestHugeLevelsRefused(t *testing.T) {
	r := newRig(t, bot.Config{})
	for _, tc := range []struct{ text, want string }{
		{"start levels=9007199254740992m", "Blinds rise every 1 to 1440 minutes"},
		{"start levels=99999999999999999999hands", "Blinds rise every 1 to 1000 hands"},
		{"start end=9223372036854775807h", "A session ends 1 to 24 hours after it starts"},
		{"start end=153722867280912931m", "A session ends 1 to 1440 minutes"},
		{"start rebuy=9223372036854775807", "from 1 to 100"},
		{"start rebuylevels=4294967296", "N from 0 to 100"},
		{"start timer=9223372036854775807", "between 10 and 600 seconds"},
		{"start seats=-9223372036854775808", "2 to 10 seats"},
	} {
		r.refused("c1", "host", tc.text, tc.want)
	}
	r.must("c1", "host", "start levels=1440m")
	r.refused("c1", "host", "set levels=9007199254740992m", "Blinds rise every 1 to 1440 minutes")

	for _, s := range []table.Settings{
		{LevelMinutes: 9007199254740992 / 60, LevelHands: 1 << 62, BigBlind: 2, SmallBlind: 1},
		{LevelMinutes: 1, LevelHands: 1, BigBlind: engine.MaxChips, SmallBlind: engine.MaxChips, Ante: engine.MaxChips},
		{LevelMinutes: -5, LevelHands: -5, BigBlind: 10, SmallBlind: 5, Ante: 1},
	} {
		var lastBB int64
		for _, el := range []time.Duration{-time.Hour, 0, time.Minute, 1000 * time.Hour, 1<<63 - 1} {
			for _, hands := range []int64{-1, 0, 1, 59, 1 << 40, 1<<63 - 1} {
				lv := s.Level(el, hands)
				if lv < 0 || lv > 40 {
					t.Fatalf("%+v: Level(%v, %d) = %d, outside 0..40", s, el, hands, lv)
				}
			}
		}
		for lv := -3; lv < 1000; lv++ {
			rules := s.Rules(lv)
			if err := rules.Validate(); err != nil {
				t.Fatalf("%+v: level %d: %v", s, lv, err)
			}
			if rules.BigBlind < lastBB {
				t.Fatalf("%+v: level %d: blinds fell from %d to %d", s, lv, lastBB, rules.BigBlind)
			}
			lastBB = rules.BigBlind
		}
	}
}

// TestOverflowRefused is reproduction 2: bankrolls near 2^63, a table with a maximum of 2^63-1 and
// blinds of 2^62 are refused with a sentence naming the limit; at the ceiling itself chips balance.
func TestOverflowRefused(t *testing.T) {
	r := newRig(t, bot.Config{})
	r.must("c1", "host", "start")
	r.must("c1", "alice", "join 1000")
	r.must("c1", "bob", "join 1000")
	r.must("c1", "alice", "leave")
	r.must("c1", "bob", "leave")
	r.must("c1", "host", "end")

	r.refused("c1", "admin", "adjust alice 9223372036854765807", "at most 1,000,000,000,000 chips")
	r.refused("c1", "admin", "adjust alice 99999999999999999999", "at most 1,000,000,000,000 chips")
	r.refused("c1", "admin", "adjust alice -9223372036854775808", "at most 1,000,000,000,000 chips")
	r.must("c1", "admin", "adjust alice 999999990000")
	r.refused("c1", "admin", "adjust alice 10001", "add at most 0")
	r.must("c1", "admin", "adjust bob 999999990000")

	r.refused("c2", "host", "start max=9223372036854775807", "at most 1,000,000,000,000 chips")
	r.refused("c2", "host", "start blinds=4611686018427387904/4611686018427387904 levels=1hands", "at most 1,000,000,000,000 chips")
	r.refused("c2", "host", "start buyin=9223372036854775807", "at most 1,000,000,000,000 chips")
	r.refused("c2", "host", "start ante=9223372036854775807", "at most 1,000,000,000,000 chips")

	// At the ceiling: blinds that rise every hand, two players with half the table's limit each.
	r.must("c2", "host", "start blinds=1000000000/2000000000 max=1000000000000 buyin=500000000000 levels=1hands timer=off")
	r.refused("c2", "alice", "join 9223372036854775807", "at most 1,000,000,000,000 chips")
	r.must("c2", "alice", "join 500000000000")
	r.must("c2", "bob", "join 500000000000")
	r.refused("c2", "admin", "join 80000000000", "A table may hold at most 1,000,000,000,000 chips")
	before := r.balance()
	for hand := 0; hand < 6; hand++ {
		if rep := r.cmd("c2", "alice", "deal"); rep.IsError {
			break // one player holds every chip: the session is over
		}
		verbs := []string{"call", "check"} // the blinds rise every hand, up to the ceiling's level
		if hand == 5 {
			verbs = []string{"allin", "call"}
		}
		for i := 0; i < 8; i++ {
			for _, u := range []string{"alice", "bob"} {
				for _, v := range verbs {
					r.cmd("c2", u, v)
				}
			}
		}
		if got := r.balance(); got.BroughtIn != before.BroughtIn {
			t.Fatalf("hand %d: chips brought in changed: %+v -> %+v", hand, before, got)
		}
	}
	hands, err := r.db.Hands(context.Background(), "test/w/c2", 10)
	if err != nil || len(hands) < 6 {
		t.Fatalf("hands at the ceiling: %d played (%v), want 6", len(hands), err)
	}
	for _, u := range []string{"alice", "bob"} {
		p, _, err := r.db.Player(context.Background(), "w", u)
		if err != nil {
			t.Fatal(err)
		}
		if p.Bankroll < 0 || p.OnTable < 0 {
			t.Fatalf("%s: bankroll %d, on table %d", u, p.Bankroll, p.OnTable)
		}
	}
}

// faultStore is the real database with one injected fault: the next action committed at a chosen
// table panics, as a bug anywhere on that table's path would.
type faultStore struct {
	*storage.DB
	panicAt    atomic.Pointer[string] // an action at this table panics
	panicHands atomic.Pointer[string] // reading this table's hands panics
}

func (f *faultStore) Hands(ctx context.Context, table string, n int) ([]table.HandRecord, error) {
	if id := f.panicHands.Load(); id != nil && table == *id {
		f.panicHands.Store(nil)
		panic("injected fault on restore")
	}
	return f.DB.Hands(ctx, table, n)
}

func (f *faultStore) Commit(ctx context.Context, c table.Change) error {
	if id := f.panicAt.Load(); id != nil && c.Actions != nil && c.Actions.Table == *id {
		f.panicAt.Store(nil)
		panic("injected fault")
	}
	return f.DB.Commit(ctx, c)
}

// seatStacks returns a table's committed stacks by user, and whether a hand is in progress.
func (r *rig) seatStacks(ch string) (map[string]int64, bool) {
	r.tb.Helper()
	tables, err := r.db.Tables(context.Background())
	if err != nil {
		r.tb.Fatal(err)
	}
	for _, tr := range tables {
		if tr.Channel == ch {
			out := map[string]int64{}
			for _, s := range tr.Seats {
				if s.User != "" {
					out[s.User] = s.Stack
				}
			}
			return out, tr.Hand != nil
		}
	}
	r.tb.Fatalf("no table in %s", ch)
	return nil, false
}

// wantCancelled checks that the hand at ch is gone with every stack as before it, the chip totals
// unchanged, and the channel told (told is part of the sentence).
func (r *rig) wantCancelled(ch string, before map[string]int64, tot record.Totals, told string) {
	r.tb.Helper()
	after, inHand := r.seatStacks(ch)
	if inHand || fmt.Sprint(after) != fmt.Sprint(before) {
		r.tb.Fatalf("stacks %v (hand in progress %v), want %v and no hand", after, inHand, before)
	}
	if !r.chat.saw(ch, told) {
		r.tb.Fatalf("the channel was not told %q", told)
	}
	if got := r.balance(); got != tot {
		r.tb.Fatalf("chips changed: %+v -> %+v", tot, got)
	}
}

// TestPanicAtOneTable: a panic in one table's command is recovered; that table's hand is cancelled
// with every chip back where it was before the hand, its channel is told, and another table plays on.
func TestPanicAtOneTable(t *testing.T) {
	var fs *faultStore
	r := newRig(t, bot.Config{})
	r.wrap = func(db *storage.DB) features.Store { fs = &faultStore{DB: db}; return fs }
	r.restart()
	for _, ch := range []string{"c1", "c2"} {
		r.must(ch, "host"+ch, "start timer=off")
		r.must(ch, "a"+ch, "join 1000")
		r.must(ch, "b"+ch, "join 1000")
		r.must(ch, "a"+ch, "deal")
	}
	before, _ := r.seatStacks("c1")
	tot := r.balance()
	// Move chips at c1 first, so that "back where they were" means something.
	acted := ""
	for _, u := range []string{"ac1", "bc1"} {
		if rep := r.cmd("c1", u, "raise 100"); !rep.IsError {
			acted = u
			break
		}
	}
	if acted == "" {
		t.Fatal("nobody at c1 could raise")
	}
	id := "test/w/c1"
	fs.panicAt.Store(&id)
	other := "ac1"
	if acted == "ac1" {
		other = "bc1"
	}
	rep := r.cmd("c1", other, "call")
	if !rep.IsError || !strings.Contains(rep.Text, "Sorry, something went wrong") {
		t.Fatalf("the panicking command answered %q, want the apology", rep.Text)
	}
	r.wantCancelled("c1", before, tot, "hand #1 is cancelled and every chip is back")
	// The other table plays its hand to the end.
	for i := 0; i < 20; i++ {
		_, inHand := r.seatStacks("c2")
		if !inHand {
			break
		}
		for _, u := range []string{"ac2", "bc2"} {
			r.cmd("c2", u, "call")
			r.cmd("c2", u, "check")
		}
	}
	if _, inHand := r.seatStacks("c2"); inHand {
		t.Fatal("the other table's hand did not finish")
	}
	// The faulty table is not dealt by itself, but plays again when a player deals.
	r.advance(time.Minute)
	if _, inHand := r.seatStacks("c1"); inHand {
		t.Fatal("a table that panicked was dealt automatically")
	}
	r.must("c1", "ac1", "deal")
	r.balance()
}

// TestRestorePanicQuarantines: a table whose restore panics, or whose stored settings are out of
// range (the crash-on-every-restart of reproduction 1), is quarantined and the dealer starts.
func TestRestorePanicQuarantines(t *testing.T) {
	r := newRig(t, bot.Config{})
	r.must("c1", "host", "start timer=off")
	r.must("c1", "alice", "join 1000")
	r.must("c1", "bob", "join 1000")
	r.must("c1", "alice", "deal")
	before, _ := r.seatStacks("c1")
	tot := r.balance()
	r.close()
	// The restore reads the table's kept hands on its goroutine: make that read panic once.
	var fs *faultStore
	r.wrap = func(db *storage.DB) features.Store {
		fs = &faultStore{DB: db}
		id := "test/w/c1"
		fs.panicHands.Store(&id)
		return fs
	}
	r.open() // must not crash or fail
	r.wrap = nil
	r.wantCancelled("c1", before, tot, "This table hit an error while I restarted")
	r.advance(time.Hour)
	if _, inHand := r.seatStacks("c1"); inHand {
		t.Fatal("a quarantined table was dealt automatically")
	}

	// Settings out of range in the stored record (an older version allowed them).
	tables, err := r.db.Tables(context.Background())
	if err != nil || len(tables) != 1 {
		t.Fatalf("tables: %v, %v", tables, err)
	}
	bad := tables[0]
	bad.Settings.LevelMinutes = 9007199254740992 / 60
	if err := r.db.Commit(context.Background(), table.Change{Table: &bad}); err != nil {
		t.Fatal(err)
	}
	r.restart()
	if !r.chat.saw("c1", "This table has settings out of range") {
		t.Fatal("the channel was not told about the bad settings")
	}
	r.must("c1", "host", "end")
	if got := r.balance(); got.OnTables != 0 || got.BroughtIn != tot.BroughtIn {
		t.Fatalf("after end: %+v", got)
	}
}

// TestNoTableWithoutGame is reproduction 3: commands in channels with no game (help, chips, unknown
// words, actions) start no table goroutine, and a table's goroutine ends with its session.
func TestNoTableWithoutGame(t *testing.T) {
	r := newRig(t, bot.Config{})
	base := runtime.NumGoroutine()
	for i := 0; i < 2000; i++ {
		ch := fmt.Sprintf("c%d", i)
		for _, text := range []string{"help", "chips", "leaderboard", "verify", "dance", "call", "join", "end", "", "raise 9999999999999999999999"} {
			rep := r.cmd(ch, "u", text)
			if text != "help" && text != "chips" && text != "leaderboard" && text != "verify" && !rep.IsError {
				t.Fatalf("%q in a channel with no game: %q", text, rep.Text)
			}
		}
	}
	if n := r.d.Tables(); n != 0 {
		t.Fatalf("%d table goroutines after commands in channels with no game, want 0", n)
	}
	if n := runtime.NumGoroutine(); n > base+10 {
		t.Fatalf("%d goroutines after 20,000 commands, %d before", n, base)
	}
	r.refused("c1", "u", "start seats=99", "2 to 10 seats") // a failed start keeps no table either
	r.must("c1", "host", "start")
	r.must("c1", "alice", "join")
	if n := r.d.Tables(); n != 1 {
		t.Fatalf("%d tables with one game open, want 1", n)
	}
	r.must("c1", "host", "end")
	waitFor(t, "the ended table's goroutine to exit", func() bool { return r.d.Tables() == 0 })
	// The channel can open a new table at once, and a timer of the old one finds nothing to do.
	r.must("c1", "host", "start")
	r.advance(time.Hour)
	r.must("c1", "host", "end")
	r.balance()
}

// waitFor polls cond for up to 5 s: it waits for something asynchronous to happen, and is no timing
// assertion (a passing run returns as soon as cond holds).
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); !cond(); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
	}
}

// TestRateLimit: one user's eleventh command in a second is refused with a sentence and changes
// nothing; another user is not held up; a second later the user may go on.
func TestRateLimit(t *testing.T) {
	r := newRig(t, bot.Config{RateLimit: bot.DefaultRateLimit})
	r.must("c1", "host", "start")
	r.must("c1", "alice", "join")
	for i := 0; i < 9; i++ {
		r.must("c1", "alice", "chips")
	}
	r.refused("c1", "alice", "leave", "You are sending commands too fast: slow down")
	r.must("c1", "bob", "join")
	r.advance(time.Second)
	r.must("c1", "alice", "table")
}

// TestUnboundedInputClipped: nothing a user types is echoed back unbounded.
func TestUnboundedInputClipped(t *testing.T) {
	r := newRig(t, bot.Config{})
	r.must("c1", "host", "start")
	huge := strings.Repeat("x", 20000)
	for _, text := range []string{huge, "set " + huge, "set blinds=" + huge + "/2", "join " + huge, "kick " + huge,
		"adjust " + huge + " 5", "start " + huge + "=1", "history " + huge} {
		user := "host"
		if strings.HasPrefix(text, "adjust") {
			user = "admin"
		}
		rep := r.cmd("c1", user, text)
		if !rep.IsError || len(rep.Text) > 300 {
			t.Fatalf("%.30s…: reply of %d bytes (error %v), want a refusal of at most 300: %.100q", text, len(rep.Text), rep.IsError, rep.Text)
		}
	}
}

// TestScheduleLimits: only an admin or the host of the channel's open table adds schedules; a
// channel holds at most five; games come at least an hour apart; `schedule list` stays short.
func TestScheduleLimits(t *testing.T) {
	r := newRig(t, bot.Config{})
	s, err := features.NewScheduler(r.d, r.db, features.ScheduleConfig{DefaultZone: "UTC"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close(context.Background()) })
	sched := func(ch, user, text string) bot.Reply {
		return r.d.Handle(context.Background(), bot.Command{Platform: "test", Workspace: "w", Channel: ch, User: user,
			UserName: user, Admin: strings.HasPrefix(user, "admin"), Text: text})
	}
	refused := func(ch, user, text, want string) {
		t.Helper()
		before, _ := r.db.Schedules(context.Background())
		rep := sched(ch, user, text)
		if !rep.IsError || !strings.Contains(rep.Text, want) || len(rep.Text) > 300 {
			t.Fatalf("%s: %q (error %v), want a refusal of at most 300 characters containing %q", text, rep.Text, rep.IsError, want)
		}
		if after, _ := r.db.Schedules(context.Background()); len(after) != len(before) {
			t.Fatalf("%s was refused but the schedules went from %d to %d", text, len(before), len(after))
		}
	}
	refused("c1", "mallory", "schedule add daily 20:00", "Only an admin or the host")
	r.must("c1", "mallory", "start")
	refused("c1", "mallory", "schedule add * * * * *", "must start at least 3 h apart")
	refused("c1", "mallory", "schedule add 0,30 20 * * *", "must start at least 3 h apart")
	refused("c1", "mallory", "schedule add daily 20:00 length=25h", "between")
	refused("c1", "mallory", "schedule add daily 20:00 levels=9007199254740992m", "Blinds rise every 1 to 1440 minutes")
	for i := 0; i < 5; i++ {
		if rep := sched("c1", "mallory", fmt.Sprintf("schedule add daily %02d:00", 10+i)); rep.IsError {
			t.Fatalf("schedule %d: %s", i+1, rep.Text)
		}
	}
	refused("c1", "mallory", "schedule add daily 18:00", "already has 5 schedules")
	refused("c1", "admin", "schedule add weekly fri 20:00", "already has 5 schedules")
	if rep := sched("c2", "admin", "schedule add weekly fri 20:00"); rep.IsError {
		t.Fatalf("another channel: %s", rep.Text)
	}
	rep := sched("c1", "mallory", "schedule list")
	if rep.IsError || len(rep.Text) > 1900 || strings.Count(rep.Text, "\n") != 6 {
		t.Fatalf("schedule list: %d bytes, %d lines: %q", len(rep.Text), strings.Count(rep.Text, "\n"), rep.Text)
	}
}

// TestZeroStartingBankroll: NoStartingBankroll gives new players nothing (reproduction 5: 0 used to
// become 10000), and a starting bankroll above the ceiling is refused.
func TestZeroStartingBankroll(t *testing.T) {
	r := newRig(t, bot.Config{StartingBankroll: bot.NoStartingBankroll})
	r.must("c1", "host", "start")
	r.refused("c1", "alice", "join", "Your bankroll holds only 0 chips")
	if rep := r.must("c1", "alice", "chips"); !strings.Contains(rep.Text, "starts at 0 chips") {
		t.Fatalf("chips: %q", rep.Text)
	}
	db, err := storage.Open(filepath.Join(t.TempDir(), "x.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := bot.New(db, &rigChat{}, features.With(db, bot.Config{StartingBankroll: engine.MaxChips + 1})); err == nil {
		t.Fatal("a starting bankroll above the ceiling was accepted")
	}
}

// A table that `start` brings into being is not retired before the start reaches it, whatever else
// reaches the new table first (here Flush, which visits every table; a timer could too).
func TestStartWhileFlushing(t *testing.T) {
	d, _ := newBenchDealer(t, "bbolt")
	ctx := context.Background()
	stop := make(chan struct{})
	flushed := make(chan struct{})
	go func() {
		defer close(flushed)
		for {
			select {
			case <-stop:
				return
			default:
				_ = d.Flush(ctx)
			}
		}
	}()
	var wg sync.WaitGroup
	var mu sync.Mutex
	var refused []string
	for i := range 1000 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ch := fmt.Sprintf("c%04d", i)
			r := d.Handle(ctx, bot.Command{Platform: "bench", Workspace: "w", Channel: ch, User: "u" + ch, UserName: "U", Text: "start"})
			if r.IsError {
				mu.Lock()
				refused = append(refused, ch+": "+r.Text)
				mu.Unlock()
			}
			_ = d.Flush(ctx) // as the console does after each command
		}()
	}
	wg.Wait()
	close(stop)
	<-flushed
	if len(refused) > 0 {
		t.Fatalf("%d of 1000 starts refused, first %s", len(refused), refused[0])
	}
	if n := d.Tables(); n != 1000 {
		t.Fatalf("%d tables open, want 1000", n)
	}
}

// Flush with a command waits for one channel's table message only: after it the turn is on screen there,
// and a channel without a table returns at once.
func TestFlushOfAChannelShowsTheTurn(t *testing.T) {
	d, chat := newBenchDealer(t, "bbolt")
	dr := &driver{d: d, chat: chat, ch: "solo"}
	dr.setup(t)
	dr.deal(t) // Handle, then Flush of its channel
	if !dr.live || dr.next.name == "" {
		t.Fatal("after Flush of its channel the dealt hand's turn is not on screen")
	}
	for i := 0; i < 3 && dr.live; i++ {
		before := dr.next
		dr.act(t)
		if dr.live && dr.next == before {
			t.Fatalf("action %d: the table message still shows the turn before it", i+1)
		}
	}
	if err := d.Flush(context.Background(), bot.Command{Platform: "bench", Workspace: "w", Channel: "empty"}); err != nil {
		t.Fatal(err)
	}
}
