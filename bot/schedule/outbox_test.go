package schedule_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dealerbot/dealerbot/bot/errs"
	"github.com/dealerbot/dealerbot/bot/schedule"
	"github.com/dealerbot/dealerbot/storage"
	"github.com/dealerbot/dealerbot/storage/storetest"
)

// faultyStore is the schedules' store with the faults of a network between the dealer and its
// database: the answer to a write lost after it landed, or the connection lost before it did.
type faultyStore struct {
	*storage.DB
	loseAnswer int // the next n schedule writes land and answer ErrOutcomeUnknown
	fail       int // the next n schedule writes do not land and answer an error
}

func (f *faultyStore) PutSchedule(ctx context.Context, s *schedule.Schedule) error {
	if f.fail > 0 {
		f.fail--
		return fmt.Errorf("put schedule: connection reset: %w", errs.ErrOutcomeUnknown)
	}
	if f.loseAnswer > 0 {
		f.loseAnswer--
		cp := *s
		if err := f.DB.PutSchedule(ctx, &cp); err != nil {
			return err
		}
		return fmt.Errorf("put schedule: the answer was lost: %w", errs.ErrOutcomeUnknown)
	}
	return f.DB.PutSchedule(ctx, s)
}

// stored returns the one schedule stored.
func stored(t *testing.T, db *storage.DB) schedule.Schedule {
	t.Helper()
	all, err := db.Schedules(context.Background())
	if err != nil || len(all) != 1 {
		t.Fatalf("schedules stored: %d, %v; want 1", len(all), err)
	}
	return all[0]
}

// count returns how many posts start with prefix.
func (h *fakeHost) count(prefix string) int {
	n := 0
	for _, p := range h.posts {
		if strings.HasPrefix(p.Text, prefix) {
			n++
		}
	}
	return n
}

// TestAnswerLostAfterSavingAnnouncement: the tick's write of "announced" lands, but its answer is
// lost (the connection dropped around the COMMIT): the announcement is stored with it, so the next
// tick posts it. Before the outbox, the next tick saw it announced and it was never posted.
func TestAnswerLostAfterSavingAnnouncement(t *testing.T) {
	db := storetest.OpenDB(t)
	c := &clock{sunday}
	m, h := newManager(t, db, c)
	mustDo(t, m, admin, "schedule add weekly fri 20:00 remind=off")
	fs := &faultyStore{DB: db, loseAnswer: 1}
	m.Store = fs

	c.t = time.Date(2026, 11, 26, 19, 0, 0, 0, time.UTC)
	if err := m.Tick(context.Background()); !errors.Is(err, errs.ErrOutcomeUnknown) {
		t.Fatalf("tick with the answer lost = %v, want ErrOutcomeUnknown", err)
	}
	if len(h.posts) != 0 {
		t.Fatalf("posted before the write was known to land: %q", h.log)
	}
	if s := stored(t, db); !s.Announced || len(s.Posts) != 1 {
		t.Fatalf("stored after the lost answer: announced %v, %d posts waiting; want announced with its post", s.Announced, len(s.Posts))
	}
	step(t, m, c, time.Date(2026, 11, 26, 19, 2, 0, 0, time.UTC)) // ticks a minute apart
	if n := h.count("🃏 Home game on Fri 27 Nov 2026 20:00 CET"); n != 1 {
		t.Fatalf("announcement posted %d times, want once: %q", n, h.log)
	}
	if s := stored(t, db); len(s.Posts) != 0 {
		t.Errorf("%d posts still waiting after they went out", len(s.Posts))
	}
}

// TestCrashBetweenPostAndClearSendsSameKey: the announcement went out, and the write that takes it
// off the outbox never landed (the process was stopped, or the connection broke before COMMIT). The
// next tick sends it again under the same key, which the chat shows once where it can (Discord's
// nonce); a third tick sends nothing.
func TestCrashBetweenPostAndClearSendsSameKey(t *testing.T) {
	db := storetest.OpenDB(t)
	c := &clock{sunday}
	m, h := newManager(t, db, c)
	mustDo(t, m, admin, "schedule add weekly fri 20:00 remind=off")
	fs := &faultyStore{DB: db}
	m.Store = fs

	c.t = time.Date(2026, 11, 26, 19, 0, 0, 0, time.UTC)
	fs.fail = 0
	// The first write (progress and post) lands; the second (clearing it) does not.
	m.Store = &clearFails{faultyStore: fs}
	if err := m.Tick(context.Background()); err == nil {
		t.Fatal("tick whose clearing write failed reported no error")
	}
	m.Store = fs
	step(t, m, c, time.Date(2026, 11, 26, 19, 2, 0, 0, time.UTC)) // ticks a minute apart
	if len(h.keys) != 2 || h.keys[0] != h.keys[1] || h.keys[0] == "" || h.posts[0].Text != h.posts[1].Text {
		t.Fatalf("sends %q with keys %q; want the announcement sent again once, under the same key", h.log, h.keys)
	}
	if len(h.keys[0]) > 25 {
		t.Errorf("key %q is longer than Discord's nonce allows (25)", h.keys[0])
	}
}

// clearFails lets the first schedule write land and fails the ones after it.
type clearFails struct {
	*faultyStore
	n int
}

func (c *clearFails) PutSchedule(ctx context.Context, s *schedule.Schedule) error {
	c.n++
	if c.n > 1 {
		return fmt.Errorf("put schedule: connection reset: %w", errs.ErrOutcomeUnknown)
	}
	return c.faultyStore.PutSchedule(ctx, s)
}

// TestKeysNameEachPost: every post of a game night has its own key, and the same post of the next
// week another one.
func TestKeysNameEachPost(t *testing.T) {
	db := storetest.OpenDB(t)
	c := &clock{sunday}
	m, h := newManager(t, db, c)
	mustDo(t, m, admin, "schedule add weekly fri 20:00")
	for _, at := range []time.Time{
		time.Date(2026, 11, 26, 19, 0, 0, 0, time.UTC),
		time.Date(2026, 11, 27, 18, 30, 0, 0, time.UTC),
		time.Date(2026, 11, 27, 19, 0, 0, 0, time.UTC),
		time.Date(2026, 11, 27, 22, 0, 0, 0, time.UTC),
		time.Date(2026, 12, 3, 19, 0, 0, 0, time.UTC),
	} {
		step(t, m, c, at)
	}
	if len(h.keys) != 5 {
		t.Fatalf("posts %q, want announcement, reminder, opening, results and the next announcement", h.log)
	}
	seen := map[string]bool{}
	for _, k := range h.keys {
		if seen[k] || k == "" {
			t.Errorf("keys %q: want five different ones", h.keys)
		}
		seen[k] = true
	}
}

// openingFailed adds the Friday 20:00 game (no announcement, no reminder) and ticks at its start,
// opening its table failing inside (the database went away): the game is stored, still opening.
func openingFailed(t *testing.T) (*storage.DB, *schedule.Manager, *fakeHost, *clock) {
	t.Helper()
	db := storetest.OpenDB(t)
	c := &clock{time.Date(2026, 11, 27, 18, 0, 0, 0, time.UTC)}
	m, h := newManager(t, db, c)
	mustDo(t, m, admin, "schedule add weekly fri 20:00 announce=off remind=off")
	h.openErr = errors.New("cannot reach the database")
	c.t = time.Date(2026, 11, 27, 19, 0, 0, 0, time.UTC)
	if err := m.Tick(context.Background()); err == nil {
		t.Fatal("tick whose table could not open reported no error")
	}
	return db, m, h, c
}

// TestOpeningLeftByAStoppedTick: the game's start is saved, then opening its table fails inside
// (the database went away): the stored game is still to be opened, and the next tick opens it and
// posts the opening, once.
func TestOpeningLeftByAStoppedTick(t *testing.T) {
	db, m, h, c := openingFailed(t)
	if s := stored(t, db); len(s.Open) != 1 || !s.Open[0].Opening {
		t.Fatalf("stored games %+v, want the game open and its table to be opened", s.Open)
	}
	h.openErr = nil
	step(t, m, c, time.Date(2026, 11, 27, 19, 2, 0, 0, time.UTC)) // ticks a minute apart
	if n := h.count("The 20:00 CET game is open until 23:00 CET"); n != 1 {
		t.Fatalf("opening posted %d times, want once: %q", n, h.log)
	}
	if s := stored(t, db); len(s.Open) != 1 || s.Open[0].Opening || s.Open[0].Waiting {
		t.Errorf("stored games %+v, want the game open", s.Open)
	}
}

// TestPostThatCannotGoOut: while the channel refuses the bot, the announcement waits in the outbox
// and the schedule goes on (its reminder queues behind it, in order); once the channel takes posts
// again both go out, oldest first. A post that could not go out for PostTTL is dropped, logged.
func TestPostThatCannotGoOut(t *testing.T) {
	db := storetest.OpenDB(t)
	c := &clock{sunday}
	m, h := newManager(t, db, c)
	var logs bytes.Buffer
	m.Logger = slog.New(slog.NewTextHandler(&logs, nil))
	mustDo(t, m, admin, "schedule add weekly fri 20:00 announce=50m remind=30m")
	h.postErr = errors.New("the bot may not post in this channel")
	step(t, m, c, time.Date(2026, 11, 27, 18, 10, 0, 0, time.UTC))
	step(t, m, c, time.Date(2026, 11, 27, 18, 30, 0, 0, time.UTC))
	if s := stored(t, db); len(s.Posts) != 2 || !s.Reminded {
		t.Fatalf("stored: %d posts waiting, reminded %v; want the announcement and the reminder waiting", len(s.Posts), s.Reminded)
	}
	h.postErr = nil
	step(t, m, c, time.Date(2026, 11, 27, 18, 31, 0, 0, time.UTC))
	if len(h.posts) != 2 || !strings.HasPrefix(h.posts[0].Text, "🃏") || !strings.HasPrefix(h.posts[1].Text, "⏰") {
		t.Fatalf("posts %q, want the announcement, then the reminder", h.log)
	}

	// The week after, the channel refuses the bot for over an hour: the posts are dropped.
	h.postErr = errors.New("the bot may not post in this channel")
	step(t, m, c, time.Date(2026, 12, 4, 18, 10, 0, 0, time.UTC))
	step(t, m, c, time.Date(2026, 12, 4, 19, 11, 0, 0, time.UTC))
	// The announcement (18:10) is over an hour old and dropped; the reminder (18:30) and the
	// opening (19:00) wait.
	s := stored(t, db)
	var waiting []string
	for _, p := range s.Posts {
		waiting = append(waiting, p.Made.UTC().Format("15:04")+" "+strings.SplitN(p.Message.Text, " ", 2)[0])
	}
	if got, want := strings.Join(waiting, ", "), "18:30 ⏰, 19:00 The"; got != want {
		t.Errorf("posts waiting: %q, want %q", got, want)
	}
	if !strings.Contains(logs.String(), "schedule post dropped") {
		t.Errorf("no log line for the dropped post:\n%s", logs.String())
	}
}

// A table opened by a tick that stopped before it saved so (the write after Host.Open failed): the
// next tick asks what became of the table rather than opening another.
func TestTableOpenedBeforeTheTickStopped(t *testing.T) {
	for _, c := range []struct {
		name   string
		played bool // the game was over by the next tick (one player won every chip)
	}{{"still open", false}, {"already played", true}} {
		t.Run(c.name, func(t *testing.T) {
			db := storetest.OpenDB(t)
			clk := &clock{time.Date(2026, 11, 27, 18, 0, 0, 0, time.UTC)}
			m, h := newManager(t, db, clk)
			mustDo(t, m, admin, "schedule add weekly fri 20:00 announce=off remind=off")
			m.Store = &clearFails{faultyStore: &faultyStore{DB: db}} // the start lands, the opening's write does not
			clk.t = time.Date(2026, 11, 27, 19, 0, 0, 0, time.UTC)
			if err := m.Tick(context.Background()); err == nil {
				t.Fatal("tick whose write after opening the table failed reported no error")
			}
			m.Store = db
			if c.played {
				h.tables[time.Date(2026, 11, 27, 19, 0, 0, 0, time.UTC).Unix()] = schedule.Played
				h.endedEarly, h.results = true, []schedule.Balance{{User: "UB", Name: "Bob", Net: 100}, {User: "UC", Name: "Carol", Net: -100}}
			}
			step(t, m, clk, time.Date(2026, 11, 27, 19, 3, 0, 0, time.UTC))
			opens := 0
			for _, l := range h.log {
				if strings.HasPrefix(l, "open ") {
					opens++
				}
			}
			if opens != 1 {
				t.Errorf("the table was opened %d times, want once: %q", opens, h.log)
			}
			want := 1
			if c.played {
				want = 0 // the game is over: no late "is open" post
				if n := h.count("Results of the Fri 27 Nov 2026 20:00 CET game"); n != 1 {
					t.Errorf("results posted %d times, want once: %q", n, h.log)
				}
			}
			if n := h.count("The 20:00 CET game is open"); n != want {
				t.Errorf("opening posted %d times, want %d: %q", n, want, h.log)
			}
			if s := stored(t, db); len(s.Posts) != 0 || slices.ContainsFunc(s.Open, func(o schedule.Session) bool { return o.Opening || o.Waiting }) {
				t.Errorf("stored: %d posts waiting, games %+v; want none waiting and none opening", len(s.Posts), s.Open)
			}
		})
	}
}

// A game left opening by a tick that stopped, found again only past Grace (the bot was down): it is
// missed, as a start found past Grace is, and no table opens late.
func TestOpeningFoundPastGraceIsMissed(t *testing.T) {
	db, m, h, c := openingFailed(t)
	h.openErr = nil
	c.t = time.Date(2026, 11, 27, 19, 0, 0, 0, time.UTC).Add(schedule.Grace + time.Minute)
	if err := m.Tick(context.Background()); err != nil {
		t.Fatal(err)
	}
	if n := h.count("I was offline and missed the game on Fri 27 Nov 2026 20:00 CET"); n != 1 || len(h.log) != 2 {
		t.Errorf("calls %q; want the failed open, then the game posted as missed", h.log)
	}
	if s := stored(t, db); len(s.Open) != 0 || len(s.Posts) != 0 {
		t.Errorf("stored games %+v, %d posts waiting; want none", s.Open, len(s.Posts))
	}
}
