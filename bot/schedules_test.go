package bot_test

import (
	"bytes"
	"context"
	"fmt"
	"github.com/dealerbot/dealerbot/storage/storetest"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dealerbot/dealerbot/bot"
	"github.com/dealerbot/dealerbot/bot/features"
	"github.com/dealerbot/dealerbot/bot/schedule"
	"github.com/dealerbot/dealerbot/render"
	"github.com/dealerbot/dealerbot/storage"
)

// schedChat records every message the dealer and the scheduler send, and each channel's newest table
// message (for clicks on its buttons).
type schedChat struct {
	mu    sync.Mutex
	msgs  []bot.Message
	table map[string]shownTable
}

// shownTable is a table message as last drawn: its ID and buttons.
type shownTable struct {
	id      string
	buttons []render.Button
}

func (c *schedChat) keep(id string, m bot.Message) {
	if !strings.HasPrefix(m.Text, "Hand #") && !strings.Contains(m.Text, "· Hand #") {
		return // a ping or a note
	}
	if c.table == nil {
		c.table = map[string]shownTable{}
	}
	c.table[m.Channel] = shownTable{id: id, buttons: m.Buttons}
}

// shown returns channel ch's table message as last drawn.
func (c *schedChat) shown(ch string) (shownTable, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	st, ok := c.table[ch]
	return st, ok
}

func (c *schedChat) Send(ctx context.Context, m bot.Message) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.msgs = append(c.msgs, m)
	return nil
}

// Post records a table message as a channel message; every later version (Edit) is recorded too, so
// msgs holds everything the channel ever showed.
func (c *schedChat) Post(ctx context.Context, m bot.Message) (string, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.msgs = append(c.msgs, m)
	id := fmt.Sprintf("m%d", len(c.msgs))
	c.keep(id, m)
	return id, nil
}

func (c *schedChat) Edit(ctx context.Context, m bot.Message, id string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.msgs = append(c.msgs, m)
	c.keep(id, m)
	return nil
}

func (c *schedChat) Delete(context.Context, bot.Message, string) error { return nil }

// all returns every message sent so far.
func (c *schedChat) all() []bot.Message {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]bot.Message(nil), c.msgs...)
}

func (c *schedChat) public() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []string
	for _, m := range c.msgs {
		if !m.Private {
			out = append(out, m.Text)
		}
	}
	return out
}

type schedTimer struct{}

func (schedTimer) Stop() bool { return true }

// schedNight is a dealer and a scheduler on a bbolt file in t.TempDir, with a clock the test sets.
// Timers never fire: the tests deal by hand, so nothing happens behind their back.
type schedNight struct {
	db   *storage.DB
	d    *bot.Dealer
	s    *features.Scheduler
	chat *schedChat
	mu   sync.Mutex
	now  time.Time
}

func newSchedNight(t *testing.T, now time.Time, seed byte) *schedNight {
	t.Helper()
	n := &schedNight{chat: &schedChat{}, now: now}
	db := storetest.OpenDB(t)
	n.db = db
	var err error
	n.d, err = bot.New(db, n.chat, features.With(db, bot.Config{Now: n.clock, AfterFunc: func(time.Duration, func()) bot.Timer { return schedTimer{} },
		Rand: rand.NewChaCha8([32]byte{seed})}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { n.d.Close(context.Background()) })
	n.s, err = features.NewScheduler(n.d, db, features.ScheduleConfig{DefaultZone: "Europe/Berlin"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { n.s.Close(context.Background()) }) // runs first: the scheduler before the dealer
	return n
}

func (n *schedNight) clock() time.Time { n.mu.Lock(); defer n.mu.Unlock(); return n.now }
func (n *schedNight) set(t time.Time)  { n.mu.Lock(); n.now = t; n.mu.Unlock() }

// tick sets the clock to at and fires what is due.
func (n *schedNight) tick(t *testing.T, at time.Time) {
	t.Helper()
	n.set(at)
	if err := n.s.Tick(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := n.d.Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
}

func (n *schedNight) cmd(user, name string, admin bool, text string) bot.Reply {
	r := n.d.Handle(context.Background(), bot.Command{Platform: "console", Workspace: "W", Channel: "C", User: user, UserName: name, Admin: admin, Text: text})
	_ = n.d.Flush(context.Background()) // what the command posts is in the channel before the next one
	return r
}

// TestSchedulerGameNight runs a scheduled game through the real dealer and a bbolt file: the table
// opens at the start with the schedule's settings, two players play a hand, and at the end time the
// session ends and the results and settle-up are posted; chips are conserved throughout.
func TestSchedulerGameNight(t *testing.T) {
	n := newSchedNight(t, time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC), 0)
	ctx, db, s, chat, cmd, set := context.Background(), n.db, n.s, n.chat, n.cmd, n.set

	if r := cmd("UB", "Bob", false, "schedule add weekly fri 20:00"); !r.IsError || !strings.Contains(r.Text, "Only an admin or the host") {
		t.Errorf("non-admin add = %q", r.Text)
	}
	if r := cmd("UA", "Alice", true, "schedule add weekly fri 20:00 blinds=five"); !r.IsError || !strings.Contains(r.Text, "Write the blinds as small/big") {
		t.Errorf("bad blinds = %q", r.Text)
	}
	r := cmd("UA", "Alice", true, "schedule add weekly fri 20:00 length=2h blinds=5/10 buyin=500")
	if r.IsError || !strings.Contains(r.Text, "Fri 27 Nov 2026 20:00 CET") || !strings.Contains(r.Text, "no-limit 5/10, buy-in 500") || !strings.Contains(r.Text, "Game: no-limit 5/10") {
		t.Fatalf("add = %q", r.Text)
	}
	if r := cmd("UB", "Bob", false, "rsvp yes"); r.IsError {
		t.Fatalf("rsvp = %q", r.Text)
	}
	if r := cmd("UB", "Bob", false, "help"); !strings.Contains(r.Text, "schedule add") || !strings.Contains(r.Text, "fold, check, call") {
		t.Errorf("help lacks the dealer's or the schedule's commands: %q", r.Text)
	}

	start := time.Date(2026, 11, 27, 19, 0, 0, 0, time.UTC)
	for _, at := range []time.Time{start.Add(-24 * time.Hour), start.Add(-30 * time.Minute), start} {
		set(at)
		if err := s.Tick(ctx); err != nil {
			t.Fatal(err)
		}
	}
	if err := n.d.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	pub := strings.Join(chat.public(), "\n")
	for _, want := range []string{"Home game on Fri 27 Nov 2026 20:00 CET (in 24 hours), hosted by Alice, 2 h long. Game: no-limit 5/10, buy-in 500", "The game starts in 30 minutes (20:00 CET). Going: @Bob.", "Alice opened a table: no-limit 5/10", "ends after 120 minutes", "@Bob: The 20:00 CET game is open until 22:00 CET"} {
		if !strings.Contains(pub, want) {
			t.Errorf("channel lacks %q:\n%s", want, pub)
		}
	}
	// The reminder offers the announcement's RSVP buttons again: the dealer names both posts alike
	// (Prompt), so that an adapter takes the announcement's buttons off; no other post is named.
	var rsvps []bot.Message
	for _, m := range chat.all() {
		switch {
		case len(m.Buttons) > 0 && strings.HasPrefix(m.Buttons[0].Command, "rsvp "):
			rsvps = append(rsvps, m)
		case m.Prompt != "":
			t.Errorf("a post without RSVP buttons is named %q: %q", m.Prompt, m.Text)
		}
	}
	if len(rsvps) != 2 || rsvps[0].Prompt == "" || rsvps[1].Prompt != rsvps[0].Prompt || !strings.Contains(rsvps[0].Prompt, rsvps[0].Buttons[0].Token) {
		t.Errorf("the announcement and the reminder: %+v; want both named after their schedule", rsvps)
	}

	for _, p := range [][2]string{{"UB", "Bob"}, {"UC", "Carol"}} {
		if r := cmd(p[0], p[1], false, "join"); r.IsError {
			t.Fatalf("%s join: %q", p[1], r.Text)
		}
	}
	if r := cmd("UB", "Bob", false, "deal"); r.IsError {
		t.Fatalf("deal: %q", r.Text)
	}
	// Whoever is to act folds; heads-up that ends the hand.
	if r := cmd("UB", "Bob", false, "fold"); r.IsError {
		if r := cmd("UC", "Carol", false, "fold"); r.IsError {
			t.Fatalf("nobody could fold: %q", r.Text)
		}
	}

	set(start.Add(2 * time.Hour))
	if err := s.Tick(ctx); err != nil {
		t.Fatal(err)
	}
	pub = strings.Join(chat.public(), "\n")
	i := strings.Index(pub, "Results of the Fri 27 Nov 2026 20:00 CET game:")
	if i < 0 {
		t.Fatalf("no results posted:\n%s", pub)
	}
	res := pub[i:]
	won := strings.Contains(res, "1. Bob +5\n2. Carol -5\nSettle-up:\n• Carol pays Bob 5")
	lost := strings.Contains(res, "1. Carol +5\n2. Bob -5\nSettle-up:\n• Bob pays Carol 5")
	if won == lost {
		t.Errorf("results = %q, want the small blind (5) paid by the folder to the other", res)
	}
	if _, err := db.Balance(ctx); err != nil {
		t.Errorf("chips not conserved: %v", err)
	}
	sr := cmd("UB", "Bob", false, "leaderboard season")
	season := sr.Text
	if !strings.Contains(season, "1 game") || !(strings.Contains(season, "Bob +5") || strings.Contains(season, "Bob -5")) {
		t.Errorf("season = %q", season)
	}
	// The season's chart comes with it (package stats), as `stats chart season` draws it.
	if len(sr.Files) != 1 || sr.Files[0].ContentType != "image/png" || !bytes.HasPrefix(sr.Files[0].Data, []byte("\x89PNG")) {
		t.Errorf("the season leaderboard has no chart: %d files", len(sr.Files))
	}
	if err := s.Close(ctx); err != nil {
		t.Fatal(err)
	}
}

// TestSchedulerEndsEarly: in a freeze-out (no rebuys) the session ends when one player holds every
// chip, and the scheduler posts the results and settle-up right away, long before the end time.
func TestSchedulerEndsEarly(t *testing.T) {
	n := newSchedNight(t, time.Date(2026, 11, 27, 18, 55, 0, 0, time.UTC), 7)
	ctx, db, s, chat := context.Background(), n.db, n.s, n.chat
	cmd := func(user, name string, text string) bot.Reply { return n.cmd(user, name, user == "UA", text) }
	if r := cmd("UA", "Alice", "schedule add weekly fri 20:00 length=3h rebuy=no buyin=500"); r.IsError {
		t.Fatal(r.Text)
	}
	n.tick(t, time.Date(2026, 11, 27, 19, 0, 0, 0, time.UTC))
	for _, p := range [][2]string{{"UB", "Bob"}, {"UC", "Carol"}} {
		if r := cmd(p[0], p[1], "join"); r.IsError {
			t.Fatalf("%s join: %q", p[1], r.Text)
		}
	}
	if r := cmd("UB", "Bob", "deal"); r.IsError {
		t.Fatal(r.Text)
	}
	first, second := [2]string{"UB", "Bob"}, [2]string{"UC", "Carol"}
	if r := cmd(first[0], first[1], "allin"); r.IsError {
		first, second = second, first
		if r := cmd(first[0], first[1], "allin"); r.IsError {
			t.Fatalf("nobody could go all-in: %q", r.Text)
		}
	}
	if r := cmd(second[0], second[1], "call"); r.IsError {
		t.Fatalf("call: %q", r.Text)
	}
	pub := strings.Join(chat.public(), "\n")
	if !strings.Contains(pub, "One player holds every chip") {
		t.Fatalf("the seeded deck did not give a winner (a split?): choose another seed.\n%s", pub)
	}
	n.tick(t, n.clock().Add(time.Minute))
	pub = strings.Join(chat.public(), "\n")
	a := strings.Contains(pub, "1. Bob +500\n2. Carol -500\nSettle-up:\n• Carol pays Bob 500")
	b := strings.Contains(pub, "1. Carol +500\n2. Bob -500\nSettle-up:\n• Bob pays Carol 500")
	if a == b {
		t.Errorf("want the results and a 500 settle-up posted an hour after the start:\n%s", pub)
	}
	if _, err := db.Balance(ctx); err != nil {
		t.Errorf("chips not conserved: %v", err)
	}
	s.Close(ctx)
}

func TestNewSchedulerBadZone(t *testing.T) {
	db, err := storage.Open(filepath.Join(t.TempDir(), "dealerbot.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	d, err := bot.New(db, &schedChat{}, features.With(db, bot.Config{}))
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close(context.Background())
	if _, err := features.NewScheduler(d, db, features.ScheduleConfig{DefaultZone: "Europe/Berln"}); err == nil || !strings.Contains(err.Error(), "Europe/Berln") {
		t.Errorf("NewScheduler with a misspelt zone: err = %v, want one naming it", err)
	}
}

// TestSchedulerLevelsAndEndMidHand: a scheduled game's blinds rise on the schedule's clock (from the
// next hand, never inside one), and when the end time comes during a hand, that hand is played out
// first: the results are posted only after it, with chips conserved.
func TestSchedulerLevelsAndEndMidHand(t *testing.T) {
	n := newSchedNight(t, time.Date(2026, 11, 27, 18, 0, 0, 0, time.UTC), 3)
	ctx, db, chat, set := context.Background(), n.db, n.chat, n.set
	cmd := func(user, text string) bot.Reply { return n.cmd(user, user, user == "alice", text) }
	tick := func(at time.Time) { t.Helper(); n.tick(t, at) }
	// whoever is to act folds (heads-up, that ends the hand)
	fold := func() {
		t.Helper()
		if r := cmd("bob", "fold"); r.IsError {
			if r := cmd("carol", "fold"); r.IsError {
				t.Fatalf("nobody could fold: %q", r.Text)
			}
		}
	}
	if r := cmd("alice", "schedule add weekly fri 20:00 length=1h blinds=5/10 levels=20m buyin=1000 remind=off"); r.IsError {
		t.Fatal(r.Text)
	}
	start := time.Date(2026, 11, 27, 19, 0, 0, 0, time.UTC)
	tick(start)
	for _, p := range []string{"bob", "carol"} {
		if r := cmd(p, "join"); r.IsError {
			t.Fatalf("%s join: %q", p, r.Text)
		}
	}
	if r := cmd("bob", "deal"); r.IsError {
		t.Fatal(r.Text)
	}
	// 25 minutes in, during hand 1: the level changes only from the next hand.
	set(start.Add(25 * time.Minute))
	fold()
	pub := strings.Join(chat.public(), "\n")
	if strings.Contains(pub, "Blinds go up") {
		t.Fatalf("blinds rose inside a hand:\n%s", pub)
	}
	if r := cmd("bob", "deal"); r.IsError {
		t.Fatal(r.Text)
	}
	pub = strings.Join(chat.public(), "\n")
	if !strings.Contains(pub, "Blinds go up: level 2") || !strings.Contains(pub, "posts the big blind 20") {
		t.Fatalf("hand 2 did not start at the second level (10/20):\n%s", pub)
	}

	// The end time passes with hand 2 still in play: no results yet, and the hand goes on.
	tick(start.Add(time.Hour))
	pub = strings.Join(chat.public(), "\n")
	if strings.Contains(pub, "Results of the") || !strings.Contains(pub, "it ends when this hand is over") {
		t.Fatalf("want the session to end after the hand in play, and no results yet:\n%s", pub)
	}
	fold()
	tick(start.Add(time.Hour + time.Minute))
	pub = strings.Join(chat.public(), "\n")
	i := strings.Index(pub, "Results of the Fri 27 Nov 2026 20:00 CET game:")
	if i < 0 {
		t.Fatalf("no results after the last hand:\n%s", pub)
	}
	if strings.Count(pub, "Results of the") != 1 || !strings.Contains(pub[i:], "Settle-up:") {
		t.Errorf("want one results post with a settle-up:\n%s", pub[i:])
	}
	if r := cmd("bob", "deal"); !r.IsError {
		t.Errorf("a hand could be dealt after the session ended: %q", r.Text)
	}
	tot, err := db.Balance(ctx)
	if err != nil {
		t.Fatalf("chips not conserved: %v", err)
	}
	if tot.OnTables != 0 {
		t.Errorf("%d chips still on the table after the session", tot.OnTables)
	}
}

// TestSchedulerEndsOnlyItsOwnTable is reproduction 6: the scheduler acts with the schedule's own
// authority, so a table a user opened in the game's window is neither taken over nor ended by it.
func TestSchedulerEndsOnlyItsOwnTable(t *testing.T) {
	n := newSchedNight(t, time.Date(2026, 11, 27, 18, 0, 0, 0, time.UTC), 3)
	ctx := context.Background()
	if r := n.cmd("UA", "Alice", true, "schedule add weekly fri 20:00 length=2h"); r.IsError {
		t.Fatal(r.Text)
	}
	// Ten minutes before the game, Mallory opens her own table in the channel and sits down.
	n.set(time.Date(2026, 11, 27, 18, 50, 0, 0, time.UTC))
	for _, c := range [][2]string{{"UM", "start"}, {"UM", "join"}} {
		if r := n.cmd(c[0], "Mallory", false, c[1]); r.IsError {
			t.Fatalf("%s: %s", c[1], r.Text)
		}
	}
	n.tick(t, time.Date(2026, 11, 27, 19, 0, 0, 0, time.UTC)) // the game cannot open: a table runs
	if pub := strings.Join(n.chat.public(), "\n"); !strings.Contains(pub, "I could not open the table") {
		t.Fatalf("the channel was not told the game could not open:\n%s", pub)
	}
	n.tick(t, time.Date(2026, 11, 27, 21, 0, 0, 0, time.UTC)) // the game's end time
	tables, err := n.db.Tables(ctx)
	if err != nil || len(tables) != 1 || tables[0].Host != "UM" || tables[0].Ending {
		t.Fatalf("Mallory's table after the schedule's end: %+v, %v; want it open and not ending", tables, err)
	}
	// The schedule's authority does not reach her table through its host either.
	if r := n.cmd("UA", "Alice", false, "end"); !r.IsError {
		t.Fatalf("Alice (host of the schedule, not of this table) ended Mallory's table: %q", r.Text)
	}
	if _, err := n.db.Balance(ctx); err != nil {
		t.Fatal(err)
	}
}

// TestScheduledGameWaitsForTheOpenTable: a scheduled game whose start finds another table open in
// the channel is not dropped: the channel is told, and the game's table opens at the first tick after
// the other table ends, before the game's end time.
func TestScheduledGameWaitsForTheOpenTable(t *testing.T) {
	n := newSchedNight(t, time.Date(2026, 11, 27, 18, 0, 0, 0, time.UTC), 3)
	ctx := context.Background()
	if r := n.cmd("UA", "Alice", true, "schedule add weekly fri 20:00 length=2h blinds=5/10"); r.IsError {
		t.Fatal(r.Text)
	}
	n.set(time.Date(2026, 11, 27, 18, 50, 0, 0, time.UTC))
	for _, c := range []string{"start", "join"} {
		if r := n.cmd("UM", "Mallory", false, c); r.IsError {
			t.Fatalf("%s: %s", c, r.Text)
		}
	}
	n.tick(t, time.Date(2026, 11, 27, 19, 0, 0, 0, time.UTC))
	if pub := strings.Join(n.chat.public(), "\n"); !strings.Contains(pub, "I will open it as soon as I can, until 22:00 CET") {
		t.Fatalf("the channel was not told the game waits:\n%s", pub)
	}
	n.tick(t, time.Date(2026, 11, 27, 19, 10, 0, 0, time.UTC)) // Mallory's table still runs
	if tables, _ := n.db.Tables(ctx); len(tables) != 1 || tables[0].Host != "UM" {
		t.Fatalf("tables while Mallory plays: %+v", tables)
	}
	if r := n.cmd("UM", "Mallory", false, "end"); r.IsError {
		t.Fatal(r.Text)
	}
	n.tick(t, time.Date(2026, 11, 27, 19, 31, 0, 0, time.UTC))
	tables, err := n.db.Tables(ctx)
	if err != nil || len(tables) != 1 || tables[0].Schedule == "" || tables[0].Settings.BigBlind != 10 {
		t.Fatalf("the scheduled game did not open after Mallory's table ended: %+v, %v", tables, err)
	}
	// The scheduler's opening and the table's own first post ("Alice opened a table") are written by
	// different writers: either may come last.
	if pub := n.chat.public(); !slices.ContainsFunc(pub[max(0, len(pub)-2):], func(p string) bool {
		return strings.Contains(p, "The 20:00 CET game is open until 22:00 CET")
	}) {
		t.Fatalf("last posts %q, want the game's opening among them", pub[max(0, len(pub)-2):])
	}
	// At its end time the game ends and is settled as usual.
	n.tick(t, time.Date(2026, 11, 27, 21, 0, 0, 0, time.UTC))
	if tables, _ := n.db.Tables(ctx); len(tables) != 0 {
		t.Fatalf("tables after the end time: %+v", tables)
	}
	if tot, err := n.db.Balance(ctx); err != nil || tot.OnTables != 0 {
		t.Fatalf("chips after the game: %+v, %v", tot, err)
	}
}

// schedWriteFault fails the schedule writes numbered from failFrom (counted from 1) with a broken
// connection, nothing written; 0 fails none.
type schedWriteFault struct {
	features.Store
	puts, failFrom int
}

func (f *schedWriteFault) PutSchedule(ctx context.Context, s *schedule.Schedule) error {
	f.puts++
	if f.failFrom > 0 && f.puts >= f.failFrom {
		return fmt.Errorf("put schedule: connection reset: %w", bot.ErrOutcomeUnknown)
	}
	return f.Store.PutSchedule(ctx, s)
}

// TestScheduledTableOpensOnce: the scheduler opened a game's table and could not save that it did
// (the write after the opening failed). The next tick finds the table the game's and posts the
// opening, or, when the game was already over by then (the host ended it), finds its session and
// opens no second table.
func TestScheduledTableOpensOnce(t *testing.T) {
	for _, ended := range []bool{false, true} {
		t.Run(fmt.Sprintf("ended=%v", ended), func(t *testing.T) {
			r := newRig(t, bot.Config{})
			w := &schedWriteFault{Store: r.db}
			s, err := features.NewScheduler(r.d, w, features.ScheduleConfig{DefaultZone: "UTC", Now: r.clock})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { s.Close(context.Background()) })
			ctx := context.Background()
			r.must("c2", "admin", "schedule add on 2026-11-20 21:00 announce=off remind=off length=1h")
			r.clk.Set(time.Date(2026, 11, 20, 21, 0, 0, 0, time.UTC))
			w.failFrom = w.puts + 2 // the start lands; the write after the table opened does not
			if err := s.Tick(ctx); err == nil {
				t.Fatal("the tick whose write failed reported no error")
			}
			if _, open, err := r.db.Table(ctx, "test/w/c2"); err != nil || !open {
				t.Fatalf("after the failed write the game's table is open: %v, %v; want open", open, err)
			}
			w.failFrom = 0
			if ended {
				r.must("c2", "admin", "end")
			}
			for _, at := range []time.Time{time.Date(2026, 11, 20, 21, 1, 0, 0, time.UTC), time.Date(2026, 11, 20, 21, 2, 0, 0, time.UTC)} {
				r.clk.Set(at)
				if err := s.Tick(ctx); err != nil {
					t.Fatal(err)
				}
				r.d.Flush(ctx)
			}
			var opened, openPosts int
			r.chat.mu.Lock()
			for _, m := range r.chat.msgs {
				if m.Private || m.Channel != "c2" {
					continue
				}
				if strings.Contains(m.Text, "opened a table") {
					opened++
				}
				if strings.Contains(m.Text, "game is open until") {
					openPosts++
				}
			}
			r.chat.mu.Unlock()
			want := 1
			if ended {
				want = 0
			}
			if opened != 1 || openPosts != want {
				t.Errorf("tables opened %d, opening posts %d; want 1 and %d", opened, openPosts, want)
			}
			if _, open, _ := r.db.Table(ctx, "test/w/c2"); open == ended {
				t.Errorf("the channel's table is open: %v; want %v", open, !ended)
			}
			all, err := r.db.Schedules(ctx)
			if err != nil || len(all) != 1 || len(all[0].Posts) != 0 {
				t.Fatalf("schedules %+v, %v; want one with no post waiting", all, err)
			}
			if o := all[0].Open; !ended && (len(o) != 1 || o[0].Opening || o[0].Waiting) {
				t.Errorf("stored game %+v, want it open", o)
			}
		})
	}
}
