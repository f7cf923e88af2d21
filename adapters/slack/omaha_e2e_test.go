package slack

import (
	"bytes"
	"context"
	"encoding/binary"
	"log/slog"
	"math/rand/v2"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	slackapi "github.com/slack-go/slack"

	"github.com/dealerbot/dealerbot/bot"
	"github.com/dealerbot/dealerbot/bot/features"
	"github.com/dealerbot/dealerbot/engine"
	"github.com/dealerbot/dealerbot/storage"
)

var slackMention = regexp.MustCompile(`<@(U[A-Z0-9]+)>`)

// TestDealersChoiceOverSocketMode: a dealer's-choice table over Socket Mode against the fake Slack:
// at the first hand of each of three orbits the player on the button gets a message with a button
// per game, and their click deals the orbit's game (PLO, then O8, then NLH), which each table
// message of the orbit names; chips are conserved.
func TestDealersChoiceOverSocketMode(t *testing.T) {
	t.Parallel()
	tb := newTable(t, 11)
	if got := tb.slashDo("UALICE", "start game=choice games=nlh,plo,o8 blinds=5/10 buyin=1000 timer=0"); !strings.Contains(got, "host") {
		t.Fatalf("start reply %q", got)
	}
	for _, p := range []string{"UALICE", "UBOB", "UCAROL"} {
		tb.slashDo(p, "join 1000")
	}
	for orbit, pick := range []struct{ label, header string }{
		{"PLO", "Pot-limit Omaha 5/10 (dealer's choice: NLH, PLO, O8)"},
		{"O8", "Fixed-limit Omaha hi-lo 5/10 (dealer's choice: NLH, PLO, O8)"},
		{"NLH", "No-limit hold'em 5/10 (dealer's choice: NLH, PLO, O8)"},
	} {
		time.Sleep(1100 * time.Millisecond) // the players' own command limits (real time here) refill
		n := len(tb.snapshot())
		if got := tb.slashDo("UALICE", "deal"); !strings.Contains(got, "chooses the game first") {
			t.Fatalf("orbit %d: deal answered %q", orbit, got)
		}
		tb.flush()
		prompt := tb.waitCall(n, "chat.postMessage", func(c call) bool {
			return c.Channel == "CGAME" && strings.Contains(c.Text, "chooses the game for this orbit")
		})
		m := slackMention.FindStringSubmatch(prompt.Text)
		if m == nil || len(prompt.Buttons) != 3 {
			t.Fatalf("orbit %d: prompt %q with %d buttons", orbit, prompt.Text, len(prompt.Buttons))
		}
		b := mustButton(t, prompt, pick.label)
		time.Sleep(1100 * time.Millisecond)
		n = len(tb.snapshot())
		tb.clickOn("CGAME", m[1], prompt.TS, b)
		table := tb.waitCall(n, "chat.postMessage", func(c call) bool { return c.Channel == "CGAME" && tableHeader.MatchString(c.Text) })
		if !strings.Contains(table.Text, pick.header) {
			t.Fatalf("orbit %d: table message %q, want %q", orbit, table.Text, pick.header)
		}
		tb.flush()
		tb.callDown(table.TS)
		for range 2 {
			time.Sleep(1100 * time.Millisecond)
			n := len(tb.snapshot())
			if got := tb.slashDo("UALICE", "deal"); !strings.Contains(got, "Dealt hand") {
				t.Fatalf("deal answered %q", got)
			}
			tb.flush()
			msg := tb.waitCall(n, "chat.postMessage", func(c call) bool { return c.Channel == "CGAME" && tableHeader.MatchString(c.Text) })
			if !strings.Contains(msg.Text, pick.header) {
				t.Fatalf("orbit %d: table message %q, want %q", orbit, msg.Text, pick.header)
			}
			tb.callDown(msg.TS)
		}
		if got := chipsOnTable(tb.record()); got != 3000 {
			t.Fatalf("orbit %d: %d chips on the table, want 3,000", orbit, got)
		}
	}
}

// callDown plays the hand of table message ts to its end by clicks, everyone calling or checking.
func (tb *desk) callDown(ts string) {
	tb.t.Helper()
	for step := 0; ; step++ {
		s := tb.onScreen(ts)
		who, ok := tb.actor(s)
		if !ok {
			return
		}
		if step > 80 {
			tb.t.Fatalf("the hand did not end:\n%s", s.Text)
		}
		b, ok := shownButton(s, "Call")
		if !ok {
			b, ok = shownButton(s, "Check")
		}
		if !ok {
			tb.t.Fatalf("%s can neither call nor check:\n%s", who, s.Text)
		}
		p := tb.press(who, ts, b, "")
		if p.update == nil && len(p.private) == 1 && strings.Contains(p.private[0].Text, "commands too fast") {
			time.Sleep(time.Second) // the player's own command limit (real time here): click again
			continue
		}
		if p.update == nil {
			tb.t.Fatalf("%s's %q: %+v", who, b.Text.Text, p.private)
		}
	}
}

// TestPLORunTwiceOverSocketMode: a three-way pot-limit Omaha all-in by clicks over Socket Mode (the
// raise form at its pot-limit largest until all-in is on offer), run twice by everyone's click: both
// boards are awarded, the all-in line shows four cards a hand, chips are conserved.
func TestPLORunTwiceOverSocketMode(t *testing.T) {
	t.Parallel()
	tb := newTable(t, 5)
	ts, _ := tb.dealt("start game=plo runtwice=on blinds=5/10 buyin=1000 timer=0")
	for step := 0; ; step++ {
		if step > 30 {
			t.Fatalf("the hand did not end:\n%s", tb.onScreen(ts).Text)
		}
		s := tb.onScreen(ts)
		who, ok := tb.actor(s)
		if !ok {
			m := regexp.MustCompile(`(?m)^▶ (\S+): betting is over`).FindStringSubmatch(s.Text)
			if m == nil {
				break // the hand is over
			}
			for id, name := range tb.names {
				if name == m[1] {
					who = id
				}
			}
		}
		var b slackapi.ButtonBlockElement
		typed := ""
		if b, ok = shownButton(s, "Run it twice"); !ok {
			if b, ok = shownButton(s, "All-in"); !ok {
				if b, ok = shownButton(s, "Raise"); ok {
					v, err := decodeValue(b.Value)
					if err != nil {
						t.Fatal(err)
					}
					typed = itoa(v.Max)
				} else if b, ok = shownButton(s, "Call"); !ok {
					t.Fatalf("%s: no button to put chips in:\n%s", who, s.Text)
				}
			}
		}
		p := tb.press(who, ts, b, typed)
		if p.update == nil && len(p.private) == 1 && strings.Contains(p.private[0].Text, "commands too fast") {
			time.Sleep(time.Second) // the player's own command limit (real time here): click again
			continue
		}
		if p.update == nil {
			t.Fatalf("%s's %q: %+v", who, b.Text.Text, p.private)
		}
	}
	s := tb.onScreen(ts)
	for _, want := range []string{"the board runs twice", "half on the first board", "half on the second board", "Pot-limit Omaha 5/10"} {
		if !strings.Contains(s.Text, want) {
			t.Errorf("no %q on the table:\n%s", want, s.Text)
		}
	}
	if !regexp.MustCompile(`All-in: \w+ (\S+ ){3}\S+, \w+ (\S+ ){3}\S+, \w+ (\S+ ){3}\S+`).MatchString(s.Text) {
		t.Errorf("the all-in line does not show four cards a hand:\n%s", s.Text)
	}
	if got := chipsOnTable(tb.record()); got != 3000 {
		t.Fatalf("%d chips on the table, want 3,000", got)
	}
}

// scriptedRand is the dealer's Rand with scripted decks first (deck), then a seeded generator.
type scriptedRand struct {
	mu   sync.Mutex
	buf  bytes.Buffer
	rest *rand.ChaCha8
}

func (r *scriptedRand) Read(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.buf.Len() > 0 {
		return r.buf.Read(p)
	}
	return r.rest.Read(p)
}

// deck scripts the next shuffle to come out as cards, then (salt) 16 bytes of salt.
func (r *scriptedRand) deck(t *testing.T, cards []engine.Card, salt bool) {
	t.Helper()
	d, err := engine.DeckFrom(cards)
	if err != nil {
		t.Fatal(err)
	}
	cur := engine.OrderedDeck() // the Fisher–Yates swaps engine.ShuffledDeck makes, run backwards
	r.mu.Lock()
	defer r.mu.Unlock()
	for i := 51; i > 0; i-- {
		j := 0
		for k := 0; k <= i; k++ {
			if cur[k] == d[i] {
				j = k
			}
		}
		r.buf.Write(binary.LittleEndian.AppendUint32(nil, uint32(j)))
		cur[i], cur[j] = cur[j], cur[i]
	}
	if salt {
		r.buf.Write(bytes.Repeat([]byte{7}, 16))
	}
}

// TestO8QuarteredOverSocketMode: RULES.md R-28 over Socket Mode from a scripted deck: carol (on the
// button) takes the high half with three kings, alice and bob tie for the low and get a quarter each;
// the table message says so in one sentence, and chips are conserved.
func TestO8QuarteredOverSocketMode(t *testing.T) {
	t.Parallel()
	r := &scriptedRand{rest: rand.NewChaCha8([32]byte{9})}
	r.deck(t, engine.MustParseCards("2s 3d Ah"), false) // the draw for the button: carol's ace
	r.deck(t, engine.MustParseCards("3s 3h Kc 4s 4h 8d Qc Tc 8s Jc 9c 6c 2h Ac 2d 7h 5c Ks 5d Kd"), true)
	h := newHarness(t, socketConfig())
	db, err := storage.Open(filepath.Join(t.TempDir(), "x.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	d, err := bot.New(db, h.a, features.With(db, bot.Config{Rand: r, AfterFunc: func(time.Duration, func()) bot.Timer { return stoppedTimer{} },
		Logger: slog.New(slog.NewTextHandler(h.logs, nil))}))
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
	tb := &desk{harness: h, t: t, db: db, d: d}
	tb.runSocket(t)
	ts, _ := tb.dealt("start game=o8 blinds=5/10 buyin=1000 timer=0")
	tb.callDown(ts)
	s := tb.onScreen(ts)
	want := "carol wins the high (15) with three of a kind, kings, alice and bob split the low (8 and 7) with 7-4-3-2-A (quartered)"
	if !strings.Contains(s.Text, want) || !strings.Contains(s.Text, "Fixed-limit Omaha hi-lo 5/10") {
		t.Fatalf("the table message does not say %q:\n%s", want, s.Text)
	}
	if got := chipsOnTable(tb.record()); got != 3000 {
		t.Fatalf("%d chips on the table, want 3,000", got)
	}
}
