package discord

import (
	"context"
	"github.com/dealerbot/dealerbot/storage/storetest"
	"log/slog"
	"math/rand/v2"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/dealerbot/dealerbot/bot"
	"github.com/dealerbot/dealerbot/bot/bottest"
	"github.com/dealerbot/dealerbot/bot/features"
	"github.com/dealerbot/dealerbot/storage"
)

// game drives one table through the fake Discord.
type game struct {
	t       testing.TB
	f       *fakeDiscord
	channel string
	players []player
	tokens  []string // every interaction sent
	d       *bot.Dealer
	a       *Adapter
	clock   *bottest.Clock
	calls   bool // playHand calls and checks after the first raise instead of going all in
}

// flush waits until the dealer has written what it queued for the channel.
func (g *game) flush() {
	g.t.Helper()
	if g.d == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := g.d.Flush(ctx); err != nil {
		g.t.Fatalf("the dealer's channel messages were not written: %v", err)
	}
}

// settle waits until the adapter has finished every interaction it took: its responses and
// follow-ups are all made.
func (g *game) settle() {
	g.t.Helper()
	if g.a == nil {
		return
	}
	for deadline := time.Now().Add(10 * time.Second); g.a.busy.Load() != 0; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			g.t.Fatalf("the adapter is still handling %d interactions", g.a.busy.Load())
		}
	}
}

// do sends a slash command and returns what the user saw and every call the command caused.
func (g *game) do(p player, sub string, opts ...any) (string, []call) {
	g.t.Helper()
	n := g.f.count()
	tok := g.f.slash(p, g.channel, sub, opts...)
	g.tokens = append(g.tokens, tok)
	_, final := g.f.answer(n, tok)
	g.flush()
	return final.content(), g.f.since(n)
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

func find(t testing.TB, bs []button, prefix string) (button, bool) {
	t.Helper()
	for _, b := range bs {
		if strings.HasPrefix(b.label, prefix) {
			return b, true
		}
	}
	return button{}, false
}

// holeCards reads the cards out of a hole-card message ("Hand #1 — your cards: A♠ K♥").
func holeCards(t testing.TB, text string) []string {
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
func openDealer(t testing.TB, f *fakeDiscord, a *Adapter, logs *bottest.Buffer, clock *bottest.Clock, cfg bot.Config) (*storage.DB, *bot.Dealer) {
	t.Helper()
	db := storetest.OpenDB(t)
	cfg.Now = clock.Now
	cfg.AfterFunc = bottest.NoTimer
	cfg.Logger = slog.New(slog.NewTextHandler(logs, nil))
	d, err := bot.New(db, a, features.With(db, cfg))
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

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// The hand's table message, as the fake shows it.

var (
	tableHeader = regexp.MustCompile(`Hand #(\d+) ·`)
	turnLine    = regexp.MustCompile(`(?m)^▶ (\S+) to act`)
	drawLine    = regexp.MustCompile(`(?m)^Draw for the button:.*$`)
)

// tableMessage is the newest hand's table message in the channel: its ID and what it shows now.
func (g *game) tableMessage() (string, shown) {
	g.t.Helper()
	posts := g.posts(g.f.since(0))
	for i := len(posts) - 1; i >= 0; i-- {
		if tableHeader.MatchString(posts[i].content()) {
			return posts[i].ID, g.f.onScreen(posts[i].ID)
		}
	}
	g.t.Fatalf("no table message in the channel:\n%s", g.f.dump(0))
	return "", shown{}
}

// actor is the player the table message says is to act.
func (g *game) actor(s shown) (player, bool) {
	m := turnLine.FindStringSubmatch(s.content)
	if m == nil {
		return player{}, false
	}
	for _, p := range g.players {
		if p.name == m[1] {
			return p, true
		}
	}
	g.t.Fatalf("the table names an unknown player to act: %q", s.content)
	return player{}, false
}

// clickAnswer is what a click on the table message led to.
type clickAnswer struct {
	callback call   // the interaction response
	update   *call  // the table message brought up to date through the interaction, if it was
	private  []call // ephemeral follow-ups
	latency  time.Duration
}

// clickTable clicks button b of table message msg as p (typed: the amount typed into the form the
// button opens) and waits for the answer: the update of the table or a private reply.
func (g *game) clickTable(p player, msg string, b button, typed string) clickAnswer {
	g.t.Helper()
	f := g.f
	n := f.count()
	sent := time.Now()
	tok := f.clickOn(p, g.channel, msg, b.id)
	g.tokens = append(g.tokens, tok)
	cb := f.waitFor(n, "the answer to "+tok, func(c call) bool { return strings.HasSuffix(c.Path, "/"+tok+"/callback") })
	if cb.Body["type"] == 9.0 { // the amount form: type into it and submit
		id := cb.Body["data"].(map[string]any)["custom_id"].(string)
		n = f.count()
		sent = time.Now()
		tok = f.submitOn(p, g.channel, msg, id, typed)
		g.tokens = append(g.tokens, tok)
		cb = f.waitFor(n, "the answer to the form "+tok, func(c call) bool { return strings.HasSuffix(c.Path, "/"+tok+"/callback") })
	}
	ans := clickAnswer{callback: cb}
	switch cb.Body["type"] {
	case 6.0, 7.0:
		if cb.Body["type"] == 7.0 {
			// The answer is the new table itself; private follow-ups may come after it.
			ans.update, ans.latency = &cb, cb.At.Sub(sent)
		} else {
			// The dealer answers with the new table (a PATCH of @original) and/or private follow-ups.
			last := f.waitFor(n, "the update or reply to "+tok, func(c call) bool { return strings.HasPrefix(c.Path, "/webhooks/"+testApp+"/"+tok) })
			ans.latency = last.At.Sub(sent)
		}
		g.flush()
		g.settle() // a follow-up after the update is sent before the interaction's handling ends
		for _, c := range f.since(n) {
			switch {
			case c.Method == "PATCH" && c.Path == "/webhooks/"+testApp+"/"+tok+"/messages/@original":
				ans.update = &c
			case c.Method == "POST" && c.Path == "/webhooks/"+testApp+"/"+tok:
				ans.private = append(ans.private, c)
			}
		}
	case 5.0:
		ans.private = append(ans.private, f.waitFor(n, "the reply to "+tok, func(c call) bool {
			return c.Method == "PATCH" && c.Path == "/webhooks/"+testApp+"/"+tok+"/messages/@original"
		}))
		ans.latency = ans.private[0].At.Sub(sent)
	default:
		ans.private = append(ans.private, cb)
	}
	return ans
}

// public reports whether c shows something in the channel: a post or edit there, or an update of a
// channel message through a click.
func (g *game) public(c call) bool {
	if strings.HasPrefix(c.Path, "/channels/"+g.channel+"/") {
		return true
	}
	if strings.HasPrefix(c.Path, "/interactions/") && c.Body["type"] == 7.0 {
		return true // an update of the clicked message
	}
	tok, ok := strings.CutPrefix(c.Path, "/webhooks/"+testApp+"/")
	tok, ok2 := strings.CutSuffix(tok, "/messages/@original")
	if !ok || !ok2 || c.Method != "PATCH" {
		return false
	}
	g.f.mu.Lock()
	defer g.f.mu.Unlock()
	return g.f.updating(tok)
}

// writes are the channel's message writes (posts, edits, deletes) among calls.
func (g *game) writes(calls []call) int {
	n := 0
	for _, c := range calls {
		if c.Method != "GET" && strings.HasPrefix(c.Path, "/channels/"+g.channel+"/messages") {
			n++
		}
	}
	return n
}

// handStats is what one hand cost.
type handStats struct {
	actions  int             // player actions taken by clicks
	writes   int             // channel writes from the deal to the end
	messages int             // channel messages created from the deal to the end
	took     time.Duration   // from the deal command to the final table on screen
	waits    []time.Duration // from each click to the table showing its result
	before   []call          // every call up to the one that closed the betting
}

// playHand deals a hand and plays it by clicks on its table message: the first player to act raises
// the minimum through the amount form, and everyone after goes all in (calling all in when that is
// all they can do), so that with unequal stacks the hand ends in a side pot and an all-in run-out.
func (g *game) playHand(tb testing.TB) handStats {
	tb.Helper()
	f := g.f
	start := f.count()
	began := time.Now()
	tok := f.slash(g.players[0], g.channel, "deal")
	g.tokens = append(g.tokens, tok)
	if _, final := f.answer(start, tok); !strings.Contains(final.content(), "Dealt hand") {
		tb.Fatalf("deal answered %q", final.content())
	}
	id := ""
	f.waitFor(start, "the hand's table message", func(c call) bool {
		if c.Method == "POST" && c.Path == "/channels/"+g.channel+"/messages" && tableHeader.MatchString(c.content()) {
			id = c.ID
			return true
		}
		return false
	})
	st := g.playHandFrom(tb, id, start)
	st.took = time.Since(began)
	return st
}

// playHandFrom plays the hand of table message id by clicks; start is the first call of the hand.
func (g *game) playHandFrom(tb testing.TB, id string, start int) handStats {
	tb.Helper()
	f := g.f
	// The dealer takes message id as the table message once its post returns. A click faster than
	// that (no person is) finds it not yet on screen, and the update goes to the channel instead of
	// through the click.
	g.flush()
	st := handStats{}
	began := time.Now()
	raised := false
	for step := 0; ; step++ {
		if step > 12 {
			tb.Fatalf("the hand did not end:\n%s", f.onScreen(id).content)
		}
		s := f.onScreen(id)
		p, ok := g.actor(s)
		if !ok {
			break // the hand is over
		}
		want := []string{"All-in", "Call", "Check"}
		if g.calls {
			want = []string{"Call", "Check"}
		}
		if !raised {
			want = []string{"Raise…", "Bet…"}
		}
		var b button
		for _, w := range want {
			if b, ok = find(g.t, s.buttons, w); ok {
				break
			}
		}
		if !ok {
			tb.Fatalf("%s has none of %v on the table: %v", p.name, want, s.buttons)
		}
		min := ""
		if !raised {
			c, err := parseCustomID(b.id)
			if err != nil {
				tb.Fatal(err)
			}
			min = itoa(c.min)
		}
		st.before = f.since(0)
		ans := g.clickTable(p, id, b, min)
		if ans.update == nil || len(ans.private) != 0 {
			tb.Fatalf("%s's %q click: update %v, private %v; want the table updated through the click alone", p.name, b.label, ans.update, ans.private)
		}
		if !strings.Contains(ans.update.content(), "Hand #") {
			tb.Fatalf("the click updated the message to %q", ans.update.content())
		}
		raised = true
		st.actions++
		st.waits = append(st.waits, ans.latency)
	}
	st.took = time.Since(began)
	g.flush()
	for _, c := range f.since(start) {
		if c.Method == "POST" && c.Path == "/channels/"+g.channel+"/messages" {
			st.messages++
		}
	}
	st.writes = g.writes(f.since(start))
	return st
}

// newGame opens a real dealer (a bbolt file in t.TempDir) behind a real adapter talking to the fake,
// with a fixed deck seed, a table of 5/10 with cards as text and no timer, and three players seated:
// alice and bob with 1,000, carol with 500.
func newGame(t testing.TB, f *fakeDiscord, seed uint64) (*game, *storage.DB, *bottest.Buffer) {
	t.Helper()
	return newGameWith(t, f, seed, testConfig(), "cards", 3, "text")
}

// newGameWith is newGame with the adapter configured by cfg and the table started with more options
// (name, type, value triples).
func newGameWith(t testing.TB, f *fakeDiscord, seed uint64, cfg Config, opts ...any) (*game, *storage.DB, *bottest.Buffer) {
	t.Helper()
	logs := &bottest.Buffer{}
	clock := bottest.NewClock(time.Date(2026, 11, 20, 20, 0, 0, 0, time.UTC))
	a := openAdapterWith(t, f, logs, clock, cfg)
	var s [32]byte
	for i := range 8 {
		s[i] = byte(seed >> (8 * i))
	}
	db, d := openDealer(t, f, a, logs, clock, bot.Config{StartingBankroll: 10000, Rand: rand.NewChaCha8(s), DealDelay: time.Hour})
	a.SetDealer(d)
	alice, bob, carol := player{"111", "alice"}, player{"222", "bob"}, player{"333", "carol"}
	g := &game{t: t, f: f, channel: "5550", players: []player{alice, bob, carol}, d: d, a: a, clock: clock}
	reply, _ := g.do(alice, "start", append([]any{"small_blind", 4, 5, "big_blind", 4, 10, "buyin", 4, 1000, "timer", 4, 0}, opts...)...)
	if !strings.Contains(reply, "table is open") {
		t.Fatalf("start reply = %q", reply)
	}
	for _, j := range []struct {
		p      player
		amount int
	}{{alice, 1000}, {bob, 1000}, {carol, 500}} {
		if reply, _ := g.do(j.p, "join", "amount", 4, j.amount); !strings.Contains(reply, "You are in seat") {
			t.Fatalf("%s join reply = %q", j.p.name, reply)
		}
	}
	return g, db, logs
}

// checkChips: the ledger balances and the players' chips are all still there.
func checkChips(t *testing.T, db *storage.DB, bankrolls int64) {
	t.Helper()
	ctx := context.Background()
	tot, err := db.Balance(ctx)
	if err != nil {
		t.Fatalf("ledger does not balance: %v (%+v)", err, tot)
	}
	if got := tot.Bankrolls + tot.OnTables; got != bankrolls {
		t.Errorf("bankrolls + chips on tables = %d, want %d", got, bankrolls)
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
		t.Errorf("stacks sum to %d, want the 2,500 bought in", stacks)
	}
}

// TestHandOverFakeDiscord plays a whole hand with the real dealer and a real bbolt file behind the
// adapter, through a real discordgo session talking to a fake Discord that enforces the channel rate
// limit: one table message for the hand, brought up to date through each click's own interaction.
func TestHandOverFakeDiscord(t *testing.T) {
	t.Parallel() // the fake's rate limit makes it wait for seconds; other tests need not wait with it
	f := newFakeDiscord(t, testApp)
	seed := uint64(time.Now().UnixNano())
	t.Logf("deck seed %d", seed)
	g, db, logs := newGame(t, f, seed)
	checkHand(t, g, db, logs)
}

// TestHandOverHTTP plays the hand of TestHandOverFakeDiscord, with the same checks, with the gateway
// off and every interaction POSTed to the Interactions Endpoint, signed: no websocket is opened,
// every first response is the HTTP response's body (no REST callback), each click that acts updates
// the table message through that response (type 7), and hole cards still go by DM over REST.
func TestHandOverHTTP(t *testing.T) {
	t.Parallel()
	f := newFakeDiscord(t, testApp)
	seed := uint64(time.Now().UnixNano())
	t.Logf("deck seed %d", seed)
	g, db, logs := newGameWith(t, f, seed, httpConfig(), "cards", 3, "text")
	st, from := checkHand(t, g, db, logs)

	f.mu.Lock()
	gateway := f.gatewayUse
	f.mu.Unlock()
	if gateway != 0 {
		t.Errorf("the gateway was asked for or dialled %d times with DISCORD_GATEWAY=off", gateway)
	}
	registered := false
	for _, c := range f.since(0) {
		registered = registered || c.Method == "PUT" && c.Path == "/applications/"+testApp+"/guilds/7000/commands"
		if strings.HasPrefix(c.Path, "/interactions/") && !c.HTTP {
			t.Errorf("an interaction was answered by a REST callback, not in the HTTP response: %s", c)
		}
	}
	if !registered {
		t.Errorf("/%s was not registered at start with the gateway off", CommandName)
	}
	updates := 0
	for _, c := range f.since(from) {
		if strings.HasPrefix(c.Path, "/interactions/") && c.Body["type"] == 7.0 {
			updates++
		}
		if c.Method == "PATCH" && strings.HasSuffix(c.Path, "/messages/@original") {
			t.Errorf("a click's answer was deferred and edited in over REST: %s", c)
		}
	}
	if updates != st.actions {
		t.Errorf("%d clicks updated the table in their HTTP response (type 7), want one for each of the %d actions", updates, st.actions)
	}
	// A figure, not a check: from each click to its HTTP response carrying the new table (loopback).
	waits := slices.Clone(st.waits)
	slices.Sort(waits)
	if len(waits) > 0 {
		t.Logf("a click's response with the updated table came after %v (median), %v (slowest) of %d", waits[len(waits)/2], waits[len(waits)-1], len(waits))
	}
}

// checkHand plays a hand on g's table by slash commands and clicks, as the players would, and checks
// what they see: the table message, hole cards by DM (carol's DMs are closed), My cards, refusals of
// the wrong player, the budget of channel writes, no hole card public before the showdown, every
// interaction answered in time and chips conserved. It returns the clicks' hand and the first call of it.
func checkHand(t *testing.T, g *game, db *storage.DB, logs *bottest.Buffer) (handStats, int) {
	f := g.f
	alice, bob, carol := g.players[0], g.players[1], g.players[2]
	f.block(carol.id) // carol does not accept DMs

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

	// The deal: the table message, and the hole cards by DM.
	dealt := f.count()
	reply, calls := g.do(alice, "deal")
	if !strings.Contains(reply, "Dealt hand #1") {
		t.Fatalf("deal reply = %q", reply)
	}
	id, s := g.tableMessage()
	for _, want := range []string{"Hand #1", "No-limit 5/10", "deck ", "Draw for the button:", "posts the small blind 5", "posts the big blind 10", " to act"} {
		if !strings.Contains(s.content, want) {
			t.Errorf("the table message lacks %q:\n%s", want, s.content)
		}
	}
	if _, ok := find(t, s.buttons, "My cards"); !ok {
		t.Errorf("no My cards button on the table: %v", s.buttons)
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

	// My cards: privately, also for carol, whose DMs are closed.
	mine, _ := find(t, s.buttons, "My cards")
	for _, p := range g.players {
		ans := g.clickTable(p, id, mine, "")
		if ans.update != nil || len(ans.private) == 0 {
			t.Fatalf("%s's My cards: update %v, private %v", p.name, ans.update, ans.private)
		}
		text := ""
		for _, c := range ans.private {
			if c.flags()&64 == 0 && c.Body["type"] != nil {
				t.Errorf("%s's cards were not ephemeral: %s", p.name, c)
			}
			text += c.content() + "\n"
		}
		if p == carol {
			hole[carol.name] = holeCards(t, text[strings.Index(text, "your cards:")-10:])
		}
		if !strings.Contains(text, strings.Join(hole[p.name], " ")) {
			t.Errorf("%s's My cards answered %q, want %v", p.name, text, hole[p.name])
		}
	}

	// A click by the wrong player is refused privately and changes nothing.
	actor, _ := g.actor(s)
	var other player
	for _, p := range g.players {
		if p != actor {
			other = p
		}
	}
	fold, _ := find(t, s.buttons, "Fold")
	n = f.count()
	ans := g.clickTable(other, id, fold, "")
	if ans.update != nil || len(ans.private) != 1 || !strings.Contains(ans.private[0].content(), "It is "+actor.name+"'s turn, not yours") ||
		ans.private[0].flags()&64 == 0 {
		t.Errorf("wrong player's click: update %v, private %v", ans.update, ans.private)
	}
	if w := g.writes(f.since(n)); w != 0 || f.onScreen(id).content != s.content {
		t.Errorf("wrong player's click made %d channel writes or changed the table", w)
	}
	// Nor does the wrong player get the amount form.
	raise, ok := find(t, s.buttons, "Raise…")
	if !ok {
		t.Fatalf("no Raise… button in %v", s.buttons)
	}
	n = f.count()
	tok = f.clickOn(other, g.channel, id, raise.id)
	g.tokens = append(g.tokens, tok)
	if first, _ := f.answer(n, tok); first.Body["type"] != 4.0 || first.flags()&64 == 0 || !strings.Contains(first.content(), "not yours") {
		t.Errorf("%s's Raise… click answered %s, want a private refusal", other.name, first)
	}

	// The hand, by clicks: a raise through the form, then all-ins into a side pot and a run-out.
	before := f.count()
	st := g.playHandFrom(t, id, before)
	if st.actions < 3 {
		t.Errorf("the hand took %d actions, want at least 3", st.actions)
	}
	end := f.onScreen(id)
	for _, want := range []string{" shows ", "side pot", " wins "} {
		if !strings.Contains(end.content, want) && !(want == " wins " && strings.Contains(end.content, " split")) {
			t.Errorf("the final table lacks %q:\n%s", want, end.content)
		}
	}
	if len(end.buttons) > 1 {
		t.Errorf("the finished hand still offers %v", end.buttons)
	}
	// Who went broke is said on the table message, not in a post of its own.
	if strings.Contains(end.content, " 0 · no chips") && !strings.Contains(end.content, "is out of chips: `rebuy`") {
		t.Errorf("a player went broke but the table does not say so:\n%s", end.content)
	}
	for _, c := range g.posts(f.since(before)) {
		if strings.Contains(c.content(), "out of chips") {
			t.Errorf("a post of its own for a player out of chips: %s", c)
		}
	}

	// Budgets: the clicks cost no channel write (the showdown picture follows the result in one edit of
	// its own); the hand made at most 1 write per action and at most 4 public messages.
	pictures := 0
	for _, c := range f.since(before) {
		if c.Method == "PATCH" && c.Path == "/channels/"+g.channel+"/messages/"+id {
			if _, ok := c.Body["attachments"]; ok && len(c.Files) == 1 {
				pictures++
				continue
			}
			t.Errorf("a click was shown by a channel edit, not through its interaction: %s", c)
		}
	}
	if pictures != 1 || len(end.files) != 1 {
		t.Errorf("the showdown picture was attached by %d edits and the table shows %d pictures; want 1 and 1", pictures, len(end.files))
	}
	hand := f.since(dealt)
	if w := g.writes(hand); float64(w)/float64(st.actions) > 1.0 {
		t.Errorf("%d channel writes for %d actions, want at most 1 per action:\n%s", w, st.actions, f.dump(dealt))
	}
	if m := len(g.posts(hand)); m > 4 {
		t.Errorf("%d public messages in the hand, want at most 4:\n%s", m, f.dump(dealt))
	}
	t.Logf("hand: %d actions, %d channel writes, %d public messages, %d 429s", st.actions, g.writes(hand), len(g.posts(hand)), f.limited)

	// Until the betting closed, no hole card was in any channel message or edit.
	for _, c := range st.before {
		if !g.public(c) {
			continue
		}
		// The draw for the button uses its own deck: its cards may match hole cards by chance.
		text := drawLine.ReplaceAllString(c.content(), "")
		for name, cards := range hole {
			for _, card := range cards {
				if strings.Contains(text, card) {
					t.Errorf("%s's card %s was public before the showdown: %s", name, card, c)
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
	// Every interaction was answered in time, every deferral privately.
	for _, tok := range g.tokens {
		f.waitFor(0, "an answer to "+tok, func(c call) bool { return strings.Contains(c.Path, "/"+tok+"/callback") })
	}
	for _, c := range f.since(0) {
		if strings.HasSuffix(c.Path, "/callback") && c.Body["type"] == 5.0 && c.flags()&64 == 0 {
			t.Errorf("a deferral was public: %s", c)
		}
	}
	checkChips(t, db, 3*10000)
	return st, before
}

// TestRestartMidHandOverFakeDiscord: the process stops in the middle of a hand (dealer, adapter and
// gateway connection) and starts again on the same bbolt file. The hand's table message is brought
// up to date by an edit of the same message (no new one), its buttons are those of the player to
// act, a button from before the last action is refused, and the hand plays on to the end by clicks
// on that message.
func TestRestartMidHandOverFakeDiscord(t *testing.T) {
	t.Parallel()
	f := newFakeDiscord(t, testApp)
	path := filepath.Join(t.TempDir(), "dealerbot.db")
	logs := &bottest.Buffer{}
	clock := bottest.NewClock(time.Date(2026, 11, 20, 20, 0, 0, 0, time.UTC))
	open := func() (*Adapter, *bot.Dealer, *storage.DB) {
		a := connect(t, f, logs, clock)
		db, err := storage.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		d, err := bot.New(db, a, features.With(db, bot.Config{StartingBankroll: 10000, DealDelay: time.Hour, Now: clock.Now, Logger: slog.New(slog.NewTextHandler(logs, nil)),
			AfterFunc: bottest.NoTimer}))
		if err != nil {
			t.Fatal(err)
		}
		a.SetDealer(d)
		return a, d, db
	}
	stop := func(a *Adapter, d *bot.Dealer, db *storage.DB) {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := d.Close(ctx); err != nil {
			t.Errorf("dealer Close: %v", err)
		}
		if err := db.Close(); err != nil {
			t.Errorf("db Close: %v", err)
		}
		if err := a.Close(ctx); err != nil {
			t.Errorf("adapter Close: %v", err)
		}
	}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("every REST call:\n%s", f.dump(0))
		}
	})

	a, d, db := open()
	alice, bob, carol := player{"111", "alice"}, player{"222", "bob"}, player{"333", "carol"}
	g := &game{t: t, f: f, channel: "5550", players: []player{alice, bob, carol}, d: d, a: a}
	// One blind alone is refused by the dealer, which reads the blinds, and opens nothing.
	if reply, calls := g.do(alice, "start", "big_blind", 4, 10); !strings.Contains(reply, `"big_blind" names the big blind only: give the small blind too`) || len(g.posts(calls)) != 0 {
		t.Fatalf("start with the big blind alone: reply %q, posts %v", reply, g.posts(calls))
	}
	g.do(alice, "start", "small_blind", 4, 5, "big_blind", 4, 10, "buyin", 4, 1000, "timer", 4, 30, "cards", 3, "text")
	for _, p := range g.players {
		if reply, _ := g.do(p, "join", "amount", 4, 1000); !strings.Contains(reply, "You are in seat") {
			t.Fatalf("%s join reply = %q", p.name, reply)
		}
	}
	g.do(alice, "deal")
	id, s := g.tableMessage()
	first, _ := g.actor(s)
	callB, ok := find(t, s.buttons, "Call")
	if !ok {
		t.Fatalf("no Call button: %v", s.buttons)
	}
	if ans := g.clickTable(first, id, callB, ""); ans.update == nil {
		t.Fatalf("the call was not shown through the click: %+v", ans.private)
	}
	before := f.onScreen(id)
	next, _ := g.actor(before)
	stop(a, d, db)

	// The restart: the same message is edited to the current state; nothing new is posted.
	n := f.count()
	a, d, db = open()
	defer stop(a, d, db)
	g.d, g.a = d, a
	f.waitFor(n, "the table message's edit after the restart", func(c call) bool {
		return c.Method == "PATCH" && c.Path == "/channels/"+g.channel+"/messages/"+id
	})
	g.flush()
	for _, c := range g.posts(f.since(n)) {
		if tableHeader.MatchString(c.content()) {
			t.Errorf("a new table message after the restart: %s", c)
		}
	}
	after := f.onScreen(id)
	if p, ok := g.actor(after); !ok || p != next {
		t.Fatalf("after the restart the table shows %v to act, want %s:\n%s", p, next.name, after.content)
	}
	if !slices.Equal(after.buttons, before.buttons) {
		t.Errorf("the buttons after the restart %v differ from before %v", after.buttons, before.buttons)
	}
	// The first player's button from before their call is stale.
	// Refused privately, and the message it came from is brought up to date (the clicker's copy may
	// be the one behind).
	if ans := g.clickTable(first, id, callB, ""); ans.update == nil || len(ans.private) != 1 || !strings.Contains(ans.private[0].content(), "earlier turn") {
		t.Errorf("a pre-restart stale click: update %v, private %v", ans.update, ans.private)
	}
	// The hand plays on by clicks on the same message.
	for step := 0; ; step++ {
		s := f.onScreen(id)
		p, ok := g.actor(s)
		if !ok {
			break
		}
		if step > 12 {
			t.Fatalf("the hand did not end:\n%s", s.content)
		}
		var b button
		for _, w := range []string{"Check", "Call"} {
			if b, ok = find(t, s.buttons, w); ok {
				break
			}
		}
		if ans := g.clickTable(p, id, b, ""); ans.update == nil {
			t.Fatalf("%s's %q after the restart: %+v", p.name, b.label, ans.private)
		}
	}
	if end := f.onScreen(id).content; !strings.Contains(end, " wins ") && !strings.Contains(end, " split") {
		t.Errorf("the hand's end is not on the table:\n%s", end)
	}
	tot, err := db.Balance(context.Background())
	if err != nil || tot.Bankrolls+tot.OnTables != 3*10000 {
		t.Errorf("chips after the restart: %+v, %v", tot, err)
	}
}
