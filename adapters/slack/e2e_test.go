package slack

import (
	"context"
	"log/slog"
	"math/rand/v2"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	slackapi "github.com/slack-go/slack"

	"github.com/dealerbot/dealerbot/bot"
	"github.com/dealerbot/dealerbot/bot/features"
	"github.com/dealerbot/dealerbot/bot/table"
	"github.com/dealerbot/dealerbot/storage"
)

// stoppedTimer is a timer that never fires: the turn timer and the automatic next deal stay out of
// the scripted hands.
type stoppedTimer struct{}

func (stoppedTimer) Stop() bool { return true }

// table is a running dealer behind the adapter, with its bbolt store.
type desk struct {
	*harness
	t    testing.TB
	db   *storage.DB
	d    *bot.Dealer
	cfg  bot.Config // the dealer's, for a restart
	path string     // the bbolt file
}

// newTable wires adapter, dealer and a real bbolt file like cmd/dealerbot does, and connects over the
// fake Socket Mode.
func newTable(t testing.TB, seed uint64) *desk {
	t.Helper()
	tb := newDealer(t, socketConfig(), seed)
	tb.runSocket(t) // its cleanup (adapter first) runs before the dealer's and the database's
	return tb
}

// newDealer builds the adapter for cfg with a dealer and a bbolt store behind it, not yet running.
func newDealer(t testing.TB, cfg Config, seed uint64) *desk {
	t.Helper()
	h := newHarness(t, cfg)
	path := filepath.Join(t.TempDir(), "x.db")
	db, err := storage.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	var key [32]byte
	key[0], key[1] = byte(seed), byte(seed>>8)
	t.Logf("deck seed %d", seed)
	dcfg := bot.Config{
		Rand:      rand.NewChaCha8(key),
		AfterFunc: func(time.Duration, func()) bot.Timer { return stoppedTimer{} },
		Logger:    slog.New(slog.NewTextHandler(h.logs, nil)),
	}
	d, err := bot.New(db, h.a, features.With(db, dcfg))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := d.Close(ctx); err != nil {
			t.Error(err)
		}
	})
	h.a.SetDealer(d)
	return &desk{harness: h, t: t, db: db, d: d, cfg: dcfg, path: path}
}

// do runs act (a slash command, click or submit by user) and waits for the dealer's reply to user,
// which comes after every public message the command caused. It returns the reply's text.
func (tb *desk) do(user string, act func()) string {
	tb.t.Helper()
	n := len(tb.snapshot())
	act()
	return tb.waitCall(n, "chat.postEphemeral", func(c call) bool { return c.User == user }).Text
}

func (tb *desk) slashDo(user, text string) string {
	tb.t.Helper()
	return tb.do(user, func() { tb.slash("CGAME", user, text) })
}

func button(c call, label string) (slackapi.ButtonBlockElement, bool) {
	for _, b := range c.Buttons {
		if strings.HasPrefix(b.Text.Text, label) {
			return b, true
		}
	}
	return slackapi.ButtonBlockElement{}, false
}

func mustButton(t *testing.T, c call, label string) slackapi.ButtonBlockElement {
	t.Helper()
	b, ok := button(c, label)
	if !ok {
		t.Fatalf("no %q button on %q", label, c.Text)
	}
	return b
}

// record returns the table's committed state.
func (tb *desk) record() table.TableRecord {
	tb.t.Helper()
	recs, err := tb.db.Tables(context.Background())
	if err != nil || len(recs) != 1 {
		tb.t.Fatalf("tables: %v, %d", err, len(recs))
	}
	return recs[0]
}

func chipsOnTable(r table.TableRecord) int64 {
	var sum int64
	for _, s := range r.Seats {
		sum += s.Stack
	}
	return sum
}

func (tb *desk) publicSince(n int) []call {
	var out []call
	for _, c := range tb.snapshot()[n:] {
		if c.Method == "chat.postMessage" && c.Channel == "CGAME" {
			out = append(out, c)
		}
	}
	return out
}

var holeRe = regexp.MustCompile(`your cards: (.+)$`)

func sameState(a, b table.TableRecord) bool {
	if (a.Hand == nil) != (b.Hand == nil) || chipsOnTable(a) != chipsOnTable(b) {
		return false
	}
	return a.Hand == nil || len(a.Hand.Actions) == len(b.Hand.Actions)
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

func TestHoleCardsFallBackWhenDMsAreClosed(t *testing.T) {
	t.Parallel() // the fake's rate limits make it wait for seconds
	tb := newTable(t, 11)
	tb.refuseDM("UCAROL", "cannot_dm_user")
	tb.slashDo("UALICE", "start")
	for _, p := range []string{"UALICE", "UBOB", "UCAROL"} {
		tb.slashDo(p, "join")
	}
	tb.slashDo("UALICE", "deal")

	var carol []call
	for _, c := range tb.snapshot() {
		if holeRe.MatchString(c.Text) && c.Channel != "DUALICE" && c.Channel != "DUBOB" {
			carol = append(carol, c)
		}
	}
	if len(carol) != 1 {
		t.Fatalf("carol's cards went out %d times, want once:\n%s", len(carol), dump(tb.snapshot()))
	}
	if c := carol[0]; c.Method != "chat.postEphemeral" || c.Channel != "CGAME" || c.User != "UCAROL" {
		t.Errorf("carol's cards went by %s to %s/%s, want an ephemeral message in CGAME for UCAROL only", c.Method, c.Channel, c.User)
	}
	cards := holeRe.FindStringSubmatch(carol[0].Text)[1]
	if strings.Contains(tb.logs.String(), cards) {
		t.Errorf("carol's cards %s in the log", cards)
	}
	// The others still got theirs by DM.
	for _, dm := range []string{"DUALICE", "DUBOB"} {
		if tb.waitCall(0, "chat.postMessage", func(c call) bool { return c.Channel == dm && holeRe.MatchString(c.Text) }).Text == "" {
			t.Errorf("no DM to %s", dm)
		}
	}
}
