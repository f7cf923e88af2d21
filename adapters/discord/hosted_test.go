package discord

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/dealerbot/dealerbot/bot"
	"github.com/dealerbot/dealerbot/bot/bottest"
	"github.com/dealerbot/dealerbot/render"
	"github.com/dealerbot/dealerbot/storage"
)

// fakeProxy is a rate-limit proxy in front of the fake Discord, as nirn-proxy is run: it takes
// Discord's REST paths with the bot's own Authorization header, records them and forwards them.
type fakeProxy struct {
	srv  *httptest.Server
	mu   sync.Mutex
	seen map[string]int // "METHOD /path" (without /api/v9) -> requests
}

func newFakeProxy(t testing.TB, f *fakeDiscord) *fakeProxy {
	target, _ := url.Parse(f.srv.URL)
	forward := httputil.NewSingleHostReverseProxy(target)
	p := &fakeProxy{seen: map[string]int{}}
	p.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if got := r.Header.Get("Authorization"); got != "Bot test-token" {
			t.Errorf("fake proxy: %s %s came with Authorization %q, want the bot's token", r.Method, r.URL.Path, got)
		}
		p.mu.Lock()
		p.seen[r.Method+" "+strings.TrimPrefix(r.URL.Path, "/api/v9")]++
		p.mu.Unlock()
		forward.ServeHTTP(w, r)
	}))
	t.Cleanup(p.srv.Close)
	return p
}

// TestRESTProxy: with DISCORD_REST_PROXY every REST request (commands registered at start, the
// interactions' answers, table posts and edits, hole-card DMs) goes to the proxy, and a hand plays
// through it as it does straight to Discord.
func TestRESTProxy(t *testing.T) {
	f := newFakeDiscord(t, testApp)
	p := newFakeProxy(t, f)
	cfg := testConfig()
	cfg.RESTProxy = p.srv.URL
	g, db, _ := newGameWith(t, f, 7, cfg, "cards", 3, "text")
	g.playHand(t)
	g.flush()
	checkChips(t, db, 30000)

	calls := f.since(0)
	got := map[string]int{}
	for _, c := range calls {
		got[c.Method+" "+c.Path]++
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	for k, n := range got {
		if p.seen[k] < n {
			t.Errorf("%s reached Discord %d times, through the proxy %d times", k, n, p.seen[k])
		}
	}
	for _, want := range []string{"PUT /applications/" + testApp + "/guilds/7000/commands", "POST /channels/" + g.channel + "/messages",
		"POST /users/@me/channels", "POST /channels/" + dmPrefix + g.players[1].id + "/messages"} {
		if p.seen[want] == 0 {
			t.Errorf("no %s through the proxy", want)
		}
	}
	callbacks := 0
	for k, n := range p.seen {
		if strings.HasPrefix(k, "POST /interactions/") {
			callbacks += n
		}
	}
	if callbacks == 0 {
		t.Error("no interaction callback through the proxy")
	}
	for _, pl := range g.players {
		if len(g.dms(calls, pl)) == 0 {
			t.Errorf("%s got no cards", pl.name)
		}
	}
}

// metric is the value of the dealer's counter name for Discord in reg.
func metric(t testing.TB, reg *prometheus.Registry, name string) float64 {
	t.Helper()
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, mf := range mfs {
		if mf.GetName() != name {
			continue
		}
		for _, m := range mf.GetMetric() {
			for _, l := range m.GetLabel() {
				if l.GetName() == "platform" && l.GetValue() == "discord" {
					return m.GetCounter().GetValue()
				}
			}
		}
	}
	return 0
}

// TestGlobalShare: two processes on one bot token, each with DISCORD_GLOBAL_SHARE=2, post a burst at
// once; together they stay within Discord's global limit (50 requests a second: the fake answers
// more with a global 429), every post arrives, and the waits are counted in the dealer's metrics.
// The same burst from a process without a share runs into the limit: discordgo waits out the 429s,
// which the metrics count too, and the posts still arrive.
func TestGlobalShare(t *testing.T) {
	f := newFakeDiscord(t, testApp)
	logs, clock := &bottest.Buffer{}, bottest.NewClock(time.Date(2026, 11, 20, 20, 0, 0, 0, time.UTC))
	const posts = 60 // per process, each in a channel of its own: no channel bucket gets in the way
	burst := func(a *Adapter, name string) {
		var wg sync.WaitGroup
		for i := range posts {
			wg.Add(1)
			go func() {
				defer wg.Done()
				m := bot.Message{Channel: fmt.Sprintf("%s-%d", name, i), Message: render.Message{Text: "The table is open."}}
				if err := a.Send(context.Background(), m); err != nil {
					t.Errorf("%s: post %d: %v", name, i, err)
				}
			}()
		}
		wg.Wait()
	}
	globalHits := func() int {
		f.mu.Lock()
		defer f.mu.Unlock()
		return f.globalHits
	}

	cfg := testConfig()
	cfg.GlobalShare = 2
	var regs []*prometheus.Registry
	var procs []*Adapter
	for range 2 {
		reg := prometheus.NewRegistry()
		regs = append(regs, reg)
		procs = append(procs, openAdapterWith(t, f, logs, clock, cfg, WithMetrics(bot.NewMetrics(reg))))
	}
	n := f.count()
	var wg sync.WaitGroup
	for i, a := range procs {
		wg.Add(1)
		go func() { defer wg.Done(); burst(a, fmt.Sprintf("p%d", i)) }()
	}
	wg.Wait()
	calls := f.since(n)
	if len(calls) != 2*posts {
		t.Fatalf("%d posts arrived, want %d", len(calls), 2*posts)
	}
	if hits := globalHits(); hits != 0 {
		t.Errorf("two processes with a share of 2 each ran into the global limit %d times", hits)
	}
	for i, reg := range regs {
		if waits := metric(t, reg, "dealerbot_ratelimit_waits_total"); waits < posts-float64(cfg.globalPerSecond()) {
			t.Errorf("process %d counted %v rate-limit waits, want at least %d", i, waits, posts-cfg.globalPerSecond())
		}
	}
	t.Logf("%d posts from two processes in %v, at most %d in any second", len(calls), calls[len(calls)-1].At.Sub(calls[0].At), busiest(calls))

	// The same burst from one process with no share of its own.
	reg := prometheus.NewRegistry()
	a := openAdapterWith(t, f, logs, clock, testConfig(), WithMetrics(bot.NewMetrics(reg)))
	time.Sleep(time.Second) // the fake's current second ends
	n = f.count()
	burst(a, "greedy")
	hits := globalHits()
	if hits == 0 {
		t.Fatalf("%d posts at once never ran into the fake's global limit", posts)
	}
	if got := metric(t, reg, "dealerbot_ratelimit_429_total"); got == 0 {
		t.Errorf("%d global 429s, none counted in dealerbot_ratelimit_429_total", hits)
	}
	delivered := 0
	for _, c := range f.since(n) {
		if strings.HasPrefix(c.Path, "/channels/greedy-") {
			delivered++
		}
	}
	t.Logf("without a share: %d global 429s; %d posts arrived", hits, posts)
	if delivered < posts {
		t.Errorf("%d requests reached the fake for %d posts", delivered, posts)
	}
}

// busiest is the most calls received within one second.
func busiest(calls []call) int {
	most := 0
	for i := range calls {
		n := 0
		for _, c := range calls[i:] {
			if c.At.Sub(calls[i].At) >= time.Second {
				break
			}
			n++
		}
		most = max(most, n)
	}
	return most
}

// cardsOf waits until every player of g has this hand's hole cards (n: the first call of the deal)
// and returns the call that brought them to each: an ephemeral follow-up or a DM.
func (g *game) cardsOf(n int) map[string]call {
	g.t.Helper()
	got := map[string]call{}
	for _, p := range g.players {
		got[p.id] = g.f.waitFor(n, p.name+"'s cards", func(c call) bool {
			if c.Method != "POST" || c.Refused || !strings.Contains(c.content(), "your cards: ") {
				return false
			}
			if c.Path == "/channels/"+dmPrefix+p.id+"/messages" {
				return true
			}
			tok, ok := strings.CutPrefix(c.Path, "/webhooks/"+testApp+"/")
			return ok && g.f.who[tok].user == p.id // waitFor holds f.mu
		})
	}
	return got
}

// newest is p's newest interaction in g's channel answered before call n (and not with a form).
func (g *game) newest(p player, n int) string {
	g.t.Helper()
	tok := ""
	for _, c := range g.f.since(0)[:n] {
		t, ok := strings.CutPrefix(c.Path, "/interactions/")
		if !ok || c.Body["type"] == 9.0 {
			continue
		}
		parts := strings.Split(t, "/")
		g.f.mu.Lock()
		who := g.f.who[parts[1]]
		g.f.mu.Unlock()
		if who.user == p.id && who.channel == g.channel {
			tok = parts[1]
		}
	}
	return tok
}

// deal deals the next hand by alice's /poker deal and returns the call that brought each player's
// cards, with the first call of the deal.
func (g *game) deal() (map[string]call, string, int) {
	g.t.Helper()
	g.clock.Advance(time.Minute) // the players' own command limits refill between hands
	n := g.f.count()
	tok := g.f.slash(g.players[0], g.channel, "deal")
	if _, final := g.f.answer(n, tok); !strings.Contains(final.content(), "Dealt hand") {
		g.t.Fatalf("deal answered %q", final.content())
	}
	id := g.f.waitFor(n, "the hand's table message", func(c call) bool {
		return c.Method == "POST" && c.Path == "/channels/"+g.channel+"/messages" && tableHeader.MatchString(c.content())
	}).ID
	return g.cardsOf(n), id, n
}

// TestHoleCardsEphemeral: with DISCORD_HOLE_CARDS=ephemeral, each player's cards come as an
// ephemeral follow-up on their own newest interaction in the table's channel (the join, then the
// clicks of the hand before), never in a channel message or the log, and with no DM. A player whose
// token Discord refuses gets a DM instead, and so does everyone once their tokens are too old.
func TestHoleCardsEphemeral(t *testing.T) {
	f := newFakeDiscord(t, testApp)
	cfg := testConfig()
	cfg.EphemeralCards = true
	g, db, logs := newGameWith(t, f, 7, cfg, "cards", 3, "text")
	g.calls = true // a raise, then calls and checks: nobody busts, three players every hand
	ephemeral := func(cards map[string]call, n int, want map[string]bool) {
		t.Helper()
		for _, p := range g.players {
			c := cards[p.id]
			tok, ok := strings.CutPrefix(c.Path, "/webhooks/"+testApp+"/")
			switch {
			case !want[p.id] && c.Path != "/channels/"+dmPrefix+p.id+"/messages":
				t.Errorf("%s's cards: %s, want a DM", p.name, c)
			case !want[p.id]:
			case !ok || c.flags()&64 == 0:
				t.Errorf("%s's cards: %s, want an ephemeral follow-up", p.name, c)
			case tok != g.newest(p, n):
				t.Errorf("%s's cards followed interaction %s, want their newest in the channel, %s", p.name, tok, g.newest(p, n))
			}
		}
	}
	all := map[string]bool{g.players[0].id: true, g.players[1].id: true, g.players[2].id: true}

	// Hand 1: everyone's newest interaction is their join (alice's deal is still being answered).
	cards, id, n := g.deal()
	ephemeral(cards, n, all)
	for _, c := range f.since(0) {
		if c.Path == "/users/@me/channels" || strings.HasPrefix(c.Path, "/channels/"+dmPrefix) {
			t.Errorf("a DM with every player's interaction live: %s", c)
		}
	}
	g.playHandFrom(t, id, n)

	// Hand 2: their clicks in hand 1 are newer.
	cards, id, n = g.deal()
	ephemeral(cards, n, all)
	g.playHandFrom(t, id, n)

	// Hand 3: Discord refuses bob's newest token (expired on its clock): his cards go by DM.
	bob := g.players[1]
	refused := g.newest(bob, f.count())
	f.mu.Lock()
	f.asked[refused] = f.now().Add(-16 * time.Minute)
	f.mu.Unlock()
	cards, id, n = g.deal()
	ephemeral(cards, n, map[string]bool{g.players[0].id: true, g.players[2].id: true})
	g.playHandFrom(t, id, n)

	// Hand 4: fifteen minutes later, every token has lived too long: DMs for all.
	g.clock.Advance(15 * time.Minute)
	cards, id, n = g.deal()
	ephemeral(cards, n, map[string]bool{})
	g.playHandFrom(t, id, n)
	g.flush()
	checkChips(t, db, 30000)

	for _, c := range f.since(0) {
		if g.public(c) && strings.Contains(c.content(), "your cards") {
			t.Errorf("hole cards in the channel: %s", c)
		}
	}
	for _, c := range f.since(0) {
		if _, hole, ok := strings.Cut(c.content(), "your cards: "); ok && strings.Contains(logs.String(), hole) {
			t.Errorf("hole cards %q reached the log", hole)
		}
	}
}

// TestDMChannelsKeptAcrossRestart: a DM channel opened once is kept in the database, so a restarted
// adapter DMs the player without opening it again; a kept channel Discord no longer knows is opened
// anew, once, and the message still arrives.
func TestDMChannelsKeptAcrossRestart(t *testing.T) {
	f := newFakeDiscord(t, testApp)
	logs, clock := &bottest.Buffer{}, bottest.NewClock(time.Date(2026, 11, 20, 20, 0, 0, 0, time.UTC))
	path := filepath.Join(t.TempDir(), "dealerbot.db")
	ctx := context.Background()
	cards := bot.Message{User: "111", Channel: "5550", Message: render.Message{Text: "Hand #1 — your cards: A♠ K♥", Private: true}}
	opened := func(calls []call) int {
		n := 0
		for _, c := range calls {
			if c.Method == "POST" && c.Path == "/users/@me/channels" {
				n++
			}
		}
		return n
	}
	run := func(what string, wantOpened int) {
		t.Helper()
		db, err := storage.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		a := connectWith(t, f, logs, clock, testConfig(), WithStore(db))
		defer a.Close(ctx)
		n := f.count()
		for range 2 {
			if err := a.Send(ctx, cards); err != nil {
				t.Fatalf("%s: %v", what, err)
			}
		}
		calls := f.since(n)
		if got := opened(calls); got != wantOpened {
			t.Errorf("%s: %d DM channels opened, want %d:\n%s", what, got, wantOpened, f.dump(n))
		}
		if got := len(postsTo(calls, "/channels/"+dmPrefix+"111/messages")); got != 2 {
			t.Errorf("%s: %d DMs arrived, want 2:\n%s", what, got, f.dump(n))
		}
	}
	run("first start", 1)
	run("after a restart", 0)

	db, err := storage.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.PutDMChannel(ctx, "discord", "111", "4040"); err != nil {
		t.Fatal(err)
	}
	db.Close()
	f.mu.Lock()
	f.gone["4040"] = true
	f.mu.Unlock()
	run("with a kept channel Discord deleted", 1)
}

// postsTo returns the POSTs to path among calls.
func postsTo(calls []call, path string) []call {
	var out []call
	for _, c := range calls {
		if c.Method == "POST" && c.Path == path {
			out = append(out, c)
		}
	}
	return out
}

// TestCountsGlobally: what counts against the bot's global limit, and so waits for this process's
// share of it: everything but interaction callbacks and the interaction webhooks (follow-ups, edits
// of a response), which Discord exempts.
func TestCountsGlobally(t *testing.T) {
	for _, tc := range []struct {
		name, path string
		want       bool
	}{
		{"a channel post", "/api/v9/channels/1/messages", true},
		{"a DM channel opened", "/api/v9/users/@me/channels", true},
		{"commands registered", "/api/v9/applications/1/guilds/2/commands", true},
		{"the gateway's address", "/api/v9/gateway", true},
		{"an interaction callback", "/api/v9/interactions/1/tok/callback", false},
		{"a follow-up", "/api/v9/webhooks/1/tok", false},
		{"an edit of a response", "/api/v9/webhooks/1/tok/messages/@original", false},
		{"a follow-up without a version", "/api/webhooks/1/tok", false},
		{"not Discord's API", "/other", true},
	} {
		if got := countsGlobally(tc.path); got != tc.want {
			t.Errorf("%s: countsGlobally(%q) = %v, want %v", tc.name, tc.path, got, tc.want)
		}
	}
}
