package discord

import (
	"context"
	"log/slog"
	"math/rand/v2"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/dealerbot/dealerbot/bot"
	"github.com/dealerbot/dealerbot/storage"
)

// noTimer is a timer factory that never fires: the test decides when hands are dealt, and the
// table runs without a turn timer.
type noTimer struct{}

func (noTimer) Stop() bool { return true }

// game drives one table through the fake Discord.
type game struct {
	t       *testing.T
	f       *fakeDiscord
	channel string
	players []player
	tokens  []string // every interaction sent
}

// do sends a slash command and returns what the user saw and every call the command caused.
func (g *game) do(p player, sub string, opts ...any) (string, []call) {
	g.t.Helper()
	n := g.f.count()
	tok := g.f.slash(p, g.channel, sub, opts...)
	g.tokens = append(g.tokens, tok)
	_, final := g.f.answer(n, tok)
	return final.content(), g.f.since(n)
}

// press clicks a button and returns what the user saw and every call the click caused.
func (g *game) press(p player, b button) (call, []call) {
	g.t.Helper()
	n := g.f.count()
	tok := g.f.click(p, g.channel, b.id)
	g.tokens = append(g.tokens, tok)
	_, final := g.f.answer(n, tok)
	return final, g.f.since(n)
}

func (g *game) posts(calls []call) []call {
	var out []call
	for _, c := range calls {
		if c.Method == "POST" && c.Path == "/channels/"+g.channel+"/messages" {
			out = append(out, c)
		}
	}
	return out
}

func (g *game) dms(calls []call, p player) []call {
	var out []call
	for _, c := range calls {
		if c.Method == "POST" && c.Path == "/channels/"+dmPrefix+p.id+"/messages" {
			out = append(out, c)
		}
	}
	return out
}

// turn finds the newest turn prompt in the channel: who is to act and the buttons offered.
func (g *game) turn() (player, []button, call) {
	g.t.Helper()
	posts := g.posts(g.f.since(0))
	for i := len(posts) - 1; i >= 0; i-- {
		bs := posts[i].buttons()
		if len(bs) == 0 {
			continue
		}
		name, _, ok := strings.Cut(posts[i].content(), " to act")
		if !ok {
			continue
		}
		for _, p := range g.players {
			if p.name == name {
				return p, bs, posts[i]
			}
		}
		g.t.Fatalf("turn prompt for unknown player: %q", posts[i].content())
	}
	g.t.Fatalf("no turn prompt in the channel")
	return player{}, nil, call{}
}

func find(t *testing.T, bs []button, prefix string) (button, bool) {
	t.Helper()
	for _, b := range bs {
		if strings.HasPrefix(b.label, prefix) {
			return b, true
		}
	}
	return button{}, false
}

// holeCards reads the cards out of a hole-card message ("Hand #1 — your cards: A♠ K♥").
func holeCards(t *testing.T, text string) []string {
	t.Helper()
	_, cards, ok := strings.Cut(text, "your cards: ")
	if !ok {
		t.Fatalf("not a hole-card message: %q", text)
	}
	f := strings.Fields(cards)
	if len(f) != 2 {
		t.Fatalf("want two cards in %q", text)
	}
	return f
}

// openDealer opens a real dealer on a bbolt file in t.TempDir behind the adapter a, with cfg's clock,
// timers (never firing) and logger filled in. The dealer closes before the adapter (cleanups run
// last-in first-out), and a failed test logs every REST call the adapter made.
func openDealer(t *testing.T, f *fakeDiscord, a *Adapter, logs *syncBuffer, clock *fakeClock, cfg bot.Config) (*storage.DB, *bot.Dealer) {
	t.Helper()
	db, err := storage.Open(filepath.Join(t.TempDir(), "dealerbot.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	cfg.Now = clock.Now
	cfg.AfterFunc = func(time.Duration, func()) bot.Timer { return noTimer{} }
	cfg.Logger = slog.New(slog.NewTextHandler(logs, nil))
	d, err := bot.New(db, a, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := d.Close(ctx); err != nil {
			t.Errorf("dealer Close: %v", err)
		}
	})
	t.Cleanup(func() {
		if t.Failed() || testing.Verbose() {
			t.Logf("every REST call the adapter made:\n%s", f.dump(0))
		}
	})
	return db, d
}

// TestHandOverFakeDiscord plays a whole hand with the real dealer and a real bbolt file behind the
// adapter, through a real discordgo session talking to the fake Discord.
func TestHandOverFakeDiscord(t *testing.T) {
	f := newFakeDiscord(t, testApp)
	logs := &syncBuffer{}
	clock := &fakeClock{now: time.Date(2026, 11, 20, 20, 0, 0, 0, time.UTC)}
	a := openAdapter(t, f, logs, clock)

	seed := uint64(time.Now().UnixNano())
	t.Logf("deck seed %d", seed)
	var s [32]byte
	for i := range 8 {
		s[i] = byte(seed >> (8 * i))
	}
	db, d := openDealer(t, f, a, logs, clock, bot.Config{StartingBankroll: 10000, Rand: rand.NewChaCha8(s), DealDelay: time.Hour})
	a.SetDealer(d)

	alice, bob, carol := player{"111", "alice"}, player{"222", "bob"}, player{"333", "carol"}
	g := &game{t: t, f: f, channel: "5550", players: []player{alice, bob, carol}}
	ctx := context.Background()

	// Open the table and sit down three players; carol is short-stacked so an all-in is cheap.
	reply, calls := g.do(alice, "start", "small_blind", 4, 5, "big_blind", 4, 10, "buyin", 4, 1000, "timer", 4, 0, "cards", 3, "text")
	if !strings.Contains(reply, "table is open") {
		t.Fatalf("start reply = %q", reply)
	}
	if ps := g.posts(calls); len(ps) != 1 || !strings.Contains(ps[0].content(), "alice opened a table") {
		t.Errorf("start posts = %v", ps)
	}
	for _, j := range []struct {
		p      player
		amount int
	}{{alice, 1000}, {bob, 1000}, {carol, 500}} {
		reply, calls = g.do(j.p, "join", "amount", 4, j.amount)
		if !strings.Contains(reply, "You are in seat") {
			t.Fatalf("%s join reply = %q", j.p.name, reply)
		}
		if ps := g.posts(calls); len(ps) != 1 || !strings.Contains(ps[0].content(), j.p.name+" sits down") {
			t.Errorf("%s join posts = %v", j.p.name, ps)
		}
	}

	// A malformed option is refused before it reaches the dealer, and nothing is posted.
	n := f.count()
	tok := f.slash(bob, g.channel, "rebuy", "amount", 4, -5)
	first, _ := f.answer(n, tok)
	if first.Body["type"] != 4.0 || first.flags()&64 == 0 || !strings.Contains(first.content(), "must be a whole number of chips, 1 or more") {
		t.Errorf("malformed rebuy answered %s", first)
	}
	if ps := g.posts(f.since(n)); len(ps) != 0 {
		t.Errorf("malformed command posted %v", ps)
	}

	// Carol does not accept DMs.
	f.block(carol.id)
	reply, calls = g.do(alice, "deal")
	if !strings.Contains(reply, "Dealt hand #1") {
		t.Fatalf("deal reply = %q", reply)
	}
	posts := g.posts(calls)
	joined := ""
	for _, p := range posts {
		joined += p.content() + "\n"
	}
	if !strings.Contains(joined, "posts the small blind 5") || !strings.Contains(joined, "posts the big blind 10") {
		t.Errorf("no blinds posted:\n%s", joined)
	}
	hole := map[string][]string{}
	for _, p := range []player{alice, bob} {
		dms := g.dms(calls, p)
		if len(dms) != 1 {
			t.Fatalf("%s got %d DMs, want 1 with the hole cards", p.name, len(dms))
		}
		hole[p.name] = holeCards(t, dms[0].content())
	}
	if dms := g.dms(calls, carol); len(dms) != 1 {
		t.Errorf("carol: %d DM attempts, want 1 (refused with 50007)", len(dms))
	}

	// Carol's next reply carries her cards, privately, with a Show my cards button.
	n = f.count()
	tok = f.slash(carol, g.channel, "table")
	_, final := f.answer(n, tok)
	if _, ok := find(t, final.buttons(), "Show my cards"); !ok {
		t.Errorf("carol's reply has no Show my cards button: %s", final)
	}
	fu := f.waitFor(n, "carol's cards as a follow-up", func(c call) bool {
		return c.Path == "/webhooks/"+testApp+"/"+tok && strings.Contains(c.content(), "your cards:")
	})
	if fu.flags()&64 == 0 {
		t.Errorf("carol's cards were not ephemeral: %s", fu)
	}
	hole[carol.name] = holeCards(t, fu.content())
	show, _ := find(t, final.buttons(), "Show my cards")
	got, _ := g.press(carol, show)
	if !strings.Contains(got.content(), strings.Join(hole[carol.name], " ")) {
		t.Errorf("Show my cards answered %q, want carol's cards %v", got.content(), hole[carol.name])
	}

	// A click by the wrong player is refused privately and changes nothing.
	actor, bs, firstPrompt := g.turn()
	var other player
	for _, p := range g.players {
		if p != actor {
			other = p
		}
	}
	fold, _ := find(t, bs, "Fold")
	got, calls = g.press(other, fold)
	if !strings.Contains(got.content(), "It is "+actor.name+"'s turn, not yours") {
		t.Errorf("wrong player's click answered %q", got.content())
	}
	if ps := g.posts(calls); len(ps) != 0 {
		t.Errorf("wrong player's click posted %v", ps)
	}

	// Nor does the wrong player get the amount form: the dealer's refusal comes at once, privately.
	raise, ok := find(t, bs, "Raise…")
	if !ok {
		t.Fatalf("no Raise… button in %v", bs)
	}
	refusedForm := func(p player, want string) {
		t.Helper()
		n := f.count()
		tok := f.click(p, g.channel, raise.id)
		g.tokens = append(g.tokens, tok)
		first, _ := f.answer(n, tok)
		if first.Body["type"] != 4.0 || first.flags()&64 == 0 || !strings.Contains(first.content(), want) {
			t.Errorf("%s's Raise… click answered %s, want %q privately", p.name, first, want)
		}
		for _, c := range f.since(n) {
			if strings.Contains(c.Path, "/"+tok+"/") && c.Body["type"] == 9.0 {
				t.Errorf("%s's Raise… click opened the form", p.name)
			}
		}
		if ps := g.posts(f.since(n)); len(ps) != 0 {
			t.Errorf("%s's Raise… click posted %v", p.name, ps)
		}
	}
	refusedForm(other, "It is "+actor.name+"'s turn, not yours")

	// The player to act raises the minimum through the form.
	n = f.count()
	modal, _ := f.answer(n, f.click(actor, g.channel, raise.id))
	if modal.Body["type"] != 9.0 {
		t.Fatalf("Raise… answered %s, want a modal", modal)
	}
	mc, err := parseCustomID(modal.Body["data"].(map[string]any)["custom_id"].(string))
	if err != nil {
		t.Fatal(err)
	}
	n = f.count()
	tok = f.submit(actor, g.channel, modal.Body["data"].(map[string]any)["custom_id"].(string), "  "+itoa(mc.min))
	_, final = f.answer(n, tok)
	if !strings.Contains(final.content(), "Done") {
		t.Fatalf("raise form answered %q", final.content())
	}
	if ps := g.posts(f.since(n)); len(ps) == 0 || !strings.Contains(ps[0].content(), actor.name+" raises") {
		t.Errorf("raise not announced: %v", ps)
	}

	// The new prompt replaced the old one, whose buttons are removed...
	f.waitFor(n, "the old prompt's buttons to go", func(c call) bool {
		return c.Method == "PATCH" && c.Path == "/channels/"+g.channel+"/messages/"+firstPrompt.ID && strings.Contains(c.Raw, `"components":[]`)
	})
	// ...and a click that was already on its way is answered, never acted on.
	got, calls = g.press(actor, fold)
	if !strings.Contains(got.content(), "earlier turn") {
		t.Errorf("stale click answered %q", got.content())
	}
	if ps := g.posts(calls); len(ps) != 0 {
		t.Errorf("stale click posted %v", ps)
	}
	// So is an old Raise…, before any form opens.
	refusedForm(actor, "earlier turn")

	// The next player moves all in; everyone else calls or checks it down.
	actor, bs, _ = g.turn()
	allin, ok := find(t, bs, "All-in")
	if !ok {
		t.Fatalf("no All-in button in %v", bs)
	}
	beforeLast := f.count() // calls before the action that closes the betting
	if got, _ = g.press(actor, allin); !strings.Contains(got.content(), "Done") {
		t.Fatalf("all-in answered %q", got.content())
	}
	showdown := -1
	for step := 0; showdown < 0; step++ {
		if step > 20 {
			t.Fatal("the hand did not end")
		}
		all := g.posts(f.since(0))
		for i, p := range all {
			if c := p.content(); strings.Contains(c, " wins ") || strings.Contains(c, " split ") { // a three-way split has no winner alone
				showdown = i
			}
		}
		if showdown >= 0 {
			break
		}
		actor, bs, _ = g.turn()
		var b button
		for _, want := range []string{"Check", "Call", "All-in"} {
			if b, ok = find(t, bs, want); ok {
				break
			}
		}
		beforeLast = f.count()
		if got, _ = g.press(actor, b); !strings.Contains(got.content(), "Done") {
			t.Fatalf("%s pressing %q answered %q", actor.name, b.label, got.content())
		}
	}

	all := g.posts(f.since(0))
	shown := false
	for i, p := range all {
		shown = shown || strings.Contains(p.content(), " shows ")
		if utf16Len(p.content()) > 2000 {
			t.Errorf("channel post %d is too long", i)
		}
	}
	if !shown {
		t.Errorf("no showdown posted")
	}
	// Until the betting closed, no hole card was in any channel post.
	for _, p := range g.posts(f.since(0)[:beforeLast]) {
		if strings.HasPrefix(p.content(), "Draw for the button:") {
			continue // the draw uses its own deck: its cards may match hole cards by chance
		}
		for name, cards := range hole {
			for _, c := range cards {
				if strings.Contains(p.content(), c) {
					t.Errorf("%s's card %s was in the channel before the showdown: %q", name, c, p.content())
				}
			}
		}
	}
	for name, cards := range hole {
		for _, c := range cards {
			if strings.Contains(logs.String(), c) {
				t.Errorf("%s's card %s reached the log", name, c)
			}
		}
	}

	// Every interaction was answered, every deferral privately.
	for _, tok := range g.tokens {
		f.waitFor(0, "an answer to "+tok, func(c call) bool { return strings.Contains(c.Path, "/"+tok+"/callback") })
	}
	for _, c := range f.since(0) {
		if strings.HasSuffix(c.Path, "/callback") && c.Body["type"] == 5.0 && c.flags()&64 == 0 {
			t.Errorf("a deferral was public: %s", c)
		}
	}

	// Chips: nothing created or lost.
	tot, err := db.Balance(ctx)
	if err != nil {
		t.Fatalf("ledger does not balance: %v (%+v)", err, tot)
	}
	if got, want := tot.Bankrolls+tot.OnTables, int64(3*10000); got != want {
		t.Errorf("bankrolls + chips on tables = %d, want %d", got, want)
	}
	tables, err := db.Tables(ctx)
	if err != nil || len(tables) != 1 {
		t.Fatalf("tables: %v, %v", tables, err)
	}
	var stacks int64
	for _, s := range tables[0].Seats {
		stacks += s.Stack
	}
	if stacks != 2500 {
		t.Errorf("stacks after the hand sum to %d, want the 2500 bought in", stacks)
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
