package console_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"github.com/dealerbot/dealerbot/storage/record"
	"io"
	"log/slog"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dealerbot/dealerbot/adapters/console"
	"github.com/dealerbot/dealerbot/bot"
	"github.com/dealerbot/dealerbot/bot/bottest"
	"github.com/dealerbot/dealerbot/bot/features"
	"github.com/dealerbot/dealerbot/bot/table"
	"github.com/dealerbot/dealerbot/engine"
	"github.com/dealerbot/dealerbot/storage"
)

// newClock is the console tests' clock, at Friday 20 November 2026, 20:00 UTC.
func newClock() *bottest.Clock {
	return bottest.NewClock(time.Date(2026, 11, 20, 20, 0, 0, 0, time.UTC))
}

// deckBytes returns the bytes that make engine.ShuffledDeck produce d: the Fisher–Yates swaps run
// backwards from the wanted order.
func deckBytes(d engine.Deck) []byte {
	cur := engine.OrderedDeck()
	var out []byte
	for i := 51; i > 0; i-- {
		j := 0
		for k := 0; k <= i; k++ {
			if cur[k] == d[i] {
				j = k
			}
		}
		out = binary.LittleEndian.AppendUint32(out, uint32(j))
		cur[i], cur[j] = cur[j], cur[i]
	}
	return out
}

// scriptRand is Config.Rand for scripted games: the bytes given first, then a seeded generator.
type scriptRand struct {
	mu   sync.Mutex
	buf  bytes.Buffer
	rest *rand.ChaCha8
}

func newScriptRand(seed byte) *scriptRand {
	var s [32]byte
	s[0] = seed
	return &scriptRand{rest: rand.NewChaCha8(s)}
}

func (r *scriptRand) Read(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.buf.Len() > 0 {
		return r.buf.Read(p)
	}
	return r.rest.Read(p)
}

// drawDeck scripts the draw for the button: first cards go to the seats dealt in, in seat order.
func (r *scriptRand) drawDeck(t testing.TB, cards string) {
	t.Helper()
	d, err := engine.DeckFrom(engine.MustParseCards(cards))
	if err != nil {
		t.Fatal(err)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.buf.Write(deckBytes(d))
}

// hand scripts the next hand's deck and salt. holes are by hand player (index in the hand, the
// players dealt in by seat order); button is the hand index of the button; board is five cards.
func (r *scriptRand) hand(t testing.TB, button int, holes []string, board string) {
	t.Helper()
	n := len(holes)
	var order []engine.Card
	hc := make([][]engine.Card, n)
	for p, h := range holes {
		hc[p] = engine.MustParseCards(h)
	}
	for round := 0; round < len(hc[0]); round++ { // two rounds, four or five in Omaha
		for i := 1; i <= n; i++ {
			order = append(order, hc[(button+i)%n][round])
		}
	}
	b := engine.MustParseCards(board)
	used := map[engine.Card]bool{}
	for _, c := range order {
		used[c] = true
	}
	for _, c := range b {
		used[c] = true
	}
	var burns []engine.Card
	for c := engine.Card(0); c < 52 && len(burns) < 3; c++ {
		if !used[c] {
			burns = append(burns, c)
		}
	}
	order = append(order, burns[0], b[0], b[1], b[2], burns[1], b[3], burns[2], b[4])
	d, err := engine.DeckFrom(order)
	if err != nil {
		t.Fatal(err)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.buf.Write(deckBytes(d))
	r.buf.Write(bytes.Repeat([]byte{byte(n)}, 16)) // salt
}

// game is a dealer on a real bbolt file, driven like the console does.
type game struct {
	t     testing.TB
	path  string
	db    *storage.DB
	chat  *console.Chat
	out   *bytes.Buffer
	d     *bot.Dealer
	clock *bottest.Clock
	rnd   *scriptRand
	opts  console.Options
	// wrap, when set, gives the dealer another Chat around the console one.
	wrap func(*console.Chat) bot.Chat
	// logs collects the dealer's log lines at every level, across restarts.
	logs *bottest.Buffer
}

func mustOpen(tb testing.TB, path string) *storage.DB {
	tb.Helper()
	db, err := storage.Open(path)
	if err != nil {
		tb.Fatal(err)
	}
	return db
}

func newGame(t testing.TB, opts ...func(*game)) *game {
	t.Helper()
	g := &game{t: t, path: filepath.Join(t.TempDir(), "dealer.db"), clock: newClock(), rnd: newScriptRand(1),
		opts: console.Options{Admins: []string{"admin"}, FileDir: t.TempDir()}, logs: &bottest.Buffer{}} // files a player is sent go to a temporary folder
	for _, o := range opts {
		o(g)
	}
	g.open()
	t.Cleanup(g.stop)
	return g
}

func (g *game) open() {
	g.t.Helper()
	g.db = mustOpen(g.t, g.path)
	g.out = &bytes.Buffer{}
	g.chat = console.NewChat(g.out)
	var chat bot.Chat = g.chat
	if g.wrap != nil {
		chat = g.wrap(g.chat)
	}
	if g.logs == nil {
		g.logs = &bottest.Buffer{}
	}
	log := slog.New(slog.NewTextHandler(g.logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	d, err := bot.New(g.db, chat, features.With(g.db, bot.Config{Now: g.clock.Now, AfterFunc: g.clock.AfterFunc, Rand: g.rnd,
		DealDelay: 3 * time.Second, Logger: log, RateLimit: bot.RateLimit{Off: true}})) // as the console runs
	if err != nil {
		g.t.Fatal(err)
	}
	g.d = d
	flush := func(ctx context.Context, channels ...bot.Command) error { return g.d.Flush(ctx, channels...) }
	g.opts.Flush = flush
	g.clock.Settle = func() { _ = flush(context.Background()) }
	_ = flush(context.Background()) // what the restore drew is on screen
}

// stop closes the dealer and the file, as a clean shutdown does.
func (g *game) stop() {
	if g.d != nil {
		g.d.Close(context.Background())
		g.d = nil
	}
	if g.db != nil {
		g.db.Close()
		g.db = nil
	}
}

// restart closes everything and starts again from the file.
func (g *game) restart() {
	g.t.Helper()
	g.stop()
	g.open()
}

// say runs one console line, such as "alice: raise 60", and returns the reply.
func (g *game) say(line string) bot.Reply {
	g.t.Helper()
	cmd, ok, err := console.ParseLine(line, g.opts)
	if err != nil || !ok {
		g.t.Fatalf("bad line %q: %v", line, err)
	}
	r := g.d.Handle(context.Background(), cmd)
	if err := g.d.Flush(context.Background()); err != nil { // the table as drawn before the next line, as console.Run does
		g.t.Fatal(err)
	}
	return r
}

// must runs lines that must all succeed.
func (g *game) must(lines ...string) {
	g.t.Helper()
	for _, l := range lines {
		if r := g.say(l); r.IsError {
			g.t.Fatalf("%q refused: %s\n--- output so far:\n%s", l, r.Text, g.out.String())
		}
	}
}

// refuse runs a line that must be refused with a reply containing want.
func (g *game) refuse(line, want string) {
	g.t.Helper()
	r := g.say(line)
	if !r.IsError || !strings.Contains(r.Text, want) {
		g.t.Fatalf("%q: got reply %q (error %v), want an error containing %q", line, r.Text, r.IsError, want)
	}
}

// table returns the stored table record of the console channel.
func (g *game) table() table.TableRecord {
	g.t.Helper()
	recs, err := g.db.Tables(context.Background())
	if err != nil {
		g.t.Fatal(err)
	}
	for _, r := range recs {
		if r.Channel == console.Channel {
			return r
		}
	}
	return table.TableRecord{}
}

// stacks returns the stacks of the seated players by name.
func (g *game) stacks() map[string]int64 {
	out := map[string]int64{}
	for _, s := range g.table().Seats {
		if s.User != "" {
			out[s.User] = s.Stack
		}
	}
	return out
}

func (g *game) balance() record.Totals {
	g.t.Helper()
	tot, err := g.db.Balance(context.Background())
	if err != nil {
		g.t.Fatal(err)
	}
	return tot
}

// publicTexts returns the channel messages so far.
func (g *game) publicTexts() []string {
	var out []string
	for _, m := range g.chat.Messages() {
		if !m.Private {
			out = append(out, m.Text)
		}
	}
	return out
}

var _ io.Reader = (*scriptRand)(nil)

func storageOpen(path string) (*storage.DB, error) { return storage.Open(path) }
