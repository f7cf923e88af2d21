package bot_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dealerbot/dealerbot/bot"
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
	chat *schedChat
	mu   sync.Mutex
	now  time.Time
	tm   []*rigTimer
	cfg  bot.Config
}

type rigTimer struct {
	at      time.Time
	f       func()
	stopped bool
}

func (t *rigTimer) Stop() bool { was := !t.stopped; t.stopped = true; return was }

func newRig(tb testing.TB, cfg bot.Config) *rig {
	tb.Helper()
	r := &rig{tb: tb, path: filepath.Join(tb.TempDir(), "dealerbot.db"), chat: &schedChat{},
		now: time.Date(2026, 11, 20, 20, 0, 0, 0, time.UTC), cfg: cfg}
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
	cfg.Now = r.clock
	cfg.AfterFunc = r.after
	if cfg.Rand == nil {
		cfg.Rand = rand.NewChaCha8([32]byte{7})
	}
	d, err := bot.New(db, r.chat, cfg)
	if err != nil {
		db.Close()
		r.tb.Fatal(err)
	}
	r.db, r.d = db, d
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

func (r *rig) clock() time.Time { r.mu.Lock(); defer r.mu.Unlock(); return r.now }

func (r *rig) after(d time.Duration, f func()) bot.Timer {
	r.mu.Lock()
	defer r.mu.Unlock()
	t := &rigTimer{at: r.now.Add(d), f: f}
	r.tm = append(r.tm, t)
	return t
}

// advance moves the clock and fires the timers that came due, in order.
func (r *rig) advance(d time.Duration) {
	r.mu.Lock()
	r.now = r.now.Add(d)
	var due []*rigTimer
	keep := r.tm[:0]
	for _, t := range r.tm {
		switch {
		case t.stopped:
		case !t.at.After(r.now):
			due = append(due, t)
		default:
			keep = append(keep, t)
		}
	}
	r.tm = keep
	r.mu.Unlock()
	for _, t := range due {
		if !t.stopped {
			t.stopped = true
			t.f()
		}
	}
}

// cmd runs a command as user in channel ch of workspace "w"; users whose name starts with "admin"
// administer the workspace.
func (r *rig) cmd(ch, user, text string) bot.Reply {
	return r.d.Handle(context.Background(), bot.Command{Platform: "test", Workspace: "w", Channel: ch,
		User: user, UserName: user, Admin: strings.HasPrefix(user, "admin"), Text: text})
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

// state is everything a refused command must leave alone: the chip totals, the tables and the players.
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
	return fmt.Sprintf("%+v %+v %+v", tot, tables, players)
}

// balance checks that the ledger balances (with sums that cannot wrap) and returns the totals.
func (r *rig) balance() storage.Totals {
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

	for _, s := range []bot.Settings{
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
	r.refused("c2", "admin", "join 400", "A table may hold at most 1,000,000,000,000 chips")
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
