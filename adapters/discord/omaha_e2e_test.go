package discord

import (
	"bytes"
	"encoding/binary"
	"math/rand/v2"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dealerbot/dealerbot/bot"
	"github.com/dealerbot/dealerbot/bot/bottest"
	"github.com/dealerbot/dealerbot/engine"
)

var mention = regexp.MustCompile(`<@(\d+)>`)

// TestDealersChoiceOverFakeDiscord: a dealer's-choice table through the Discord adapter and its
// fake: at the first hand of each of three orbits the player on the button gets a message with a
// button per game, and their click deals the orbit's game (PLO, then O8, then NLH), which every table
// message of the orbit names; another player's click is refused privately and changes nothing;
// chips are conserved.
func TestDealersChoiceOverFakeDiscord(t *testing.T) {
	t.Parallel()
	f := newFakeDiscord(t, testApp)
	g, db, _ := newGameWith(t, f, 7, testConfig(), "cards", 3, "text", "game", 3, "choice", "more", 3, "games=nlh,plo,o8")
	g.calls = true
	byID := map[string]player{}
	for _, p := range g.players {
		byID[p.id] = p
	}
	for orbit, pick := range []struct{ label, header string }{
		{"PLO", "Pot-limit Omaha 5/10 (dealer's choice: NLH, PLO, O8)"},
		{"O8", "Fixed-limit Omaha hi-lo 5/10 (dealer's choice: NLH, PLO, O8)"},
		{"NLH", "No-limit hold'em 5/10 (dealer's choice: NLH, PLO, O8)"},
	} {
		g.clock.Advance(time.Minute) // the players' own command limits refill between hands
		start := f.count()
		tok := f.slash(g.players[0], g.channel, "deal")
		if _, final := f.answer(start, tok); !strings.Contains(final.content(), "chooses the game first") {
			t.Fatalf("orbit %d: deal answered %q", orbit, final.content())
		}
		g.flush()
		prompt := f.waitFor(start, "the choice's message", func(c call) bool {
			return c.Method == "POST" && c.Path == "/channels/"+g.channel+"/messages" && strings.Contains(c.content(), "chooses the game for this orbit")
		})
		s := f.onScreen(prompt.ID)
		m := mention.FindStringSubmatch(s.content)
		if m == nil || len(s.buttons) != 3 {
			t.Fatalf("orbit %d: prompt %q with buttons %v", orbit, s.content, s.buttons)
		}
		chooser := byID[m[1]]
		b, ok := find(t, s.buttons, pick.label)
		if !ok {
			t.Fatalf("no %s button: %v", pick.label, s.buttons)
		}
		other := g.players[0]
		if other == chooser {
			other = g.players[1]
		}
		n := f.count()
		f.clickOn(other, g.channel, prompt.ID, b.id)
		g.flush()
		g.settle()
		for _, c := range f.since(n) {
			if c.Method == "POST" && c.Path == "/channels/"+g.channel+"/messages" {
				t.Fatalf("orbit %d: another player's click posted %q", orbit, c.content())
			}
		}
		n = f.count()
		f.clickOn(chooser, g.channel, prompt.ID, b.id)
		table := f.waitFor(n, "the orbit's first table message", func(c call) bool {
			return c.Method == "POST" && c.Path == "/channels/"+g.channel+"/messages" && tableHeader.MatchString(c.content())
		})
		if !strings.Contains(table.content(), pick.header) {
			t.Fatalf("orbit %d: table message %q, want %q", orbit, table.content(), pick.header)
		}
		g.callDown(t, table.ID)
		for range 2 {
			g.clock.Advance(time.Minute)
			start := f.count()
			tok := f.slash(g.players[0], g.channel, "deal")
			if _, final := f.answer(start, tok); !strings.Contains(final.content(), "Dealt hand") {
				t.Fatalf("deal answered %q", final.content())
			}
			msg := f.waitFor(start, "the hand's table message", func(c call) bool {
				return c.Method == "POST" && c.Path == "/channels/"+g.channel+"/messages" && tableHeader.MatchString(c.content())
			})
			g.callDown(t, msg.ID)
			if _, s := g.tableMessage(); !strings.Contains(s.content, pick.header) {
				t.Fatalf("orbit %d: table message %q, want %q", orbit, s.content, pick.header)
			}
		}
		checkChips(t, db, 3*10000)
	}
}

// callDown plays the hand of table message id to its end by clicks, each player calling or checking.
func (g *game) callDown(t *testing.T, id string) {
	t.Helper()
	g.flush()
	for step := 0; ; step++ {
		if step > 40 {
			t.Fatalf("the hand did not end:\n%s", g.f.onScreen(id).content)
		}
		s := g.f.onScreen(id)
		p, ok := g.actor(s)
		if !ok {
			return
		}
		b, ok := find(t, s.buttons, "Call")
		if !ok {
			if b, ok = find(t, s.buttons, "Check"); !ok {
				t.Fatalf("%s can neither call nor check: %v", p.name, s.buttons)
			}
		}
		if ans := g.clickTable(p, id, b, ""); ans.update == nil {
			t.Fatalf("%s's %q click: %v", p.name, b.label, ans.private)
		}
	}
}

// TestPLORunTwiceOverFakeDiscord: a pot-limit Omaha hand through the Discord adapter where everyone
// puts all their chips in by clicks (the raise form at its pot-limit largest until all-in is on
// offer), everyone clicks "Run it twice", and both boards are awarded; the all-in line shows four
// cards a hand, each player's DM shows their four, and chips are conserved.
func TestPLORunTwiceOverFakeDiscord(t *testing.T) {
	t.Parallel()
	f := newFakeDiscord(t, testApp)
	g, db, _ := newGameWith(t, f, 5, testConfig(), "cards", 3, "text", "game", 3, "plo", "more", 3, "runtwice=on")
	start := f.count()
	tok := f.slash(g.players[0], g.channel, "deal")
	if _, final := f.answer(start, tok); !strings.Contains(final.content(), "Dealt hand") {
		t.Fatalf("deal answered %q", final.content())
	}
	g.flush()
	for _, p := range g.players {
		dms := g.dms(f.since(start), p)
		if len(dms) == 0 {
			t.Fatalf("no hole cards for %s", p.name)
		}
		_, cards, _ := strings.Cut(dms[0].content(), "your cards: ")
		if got := len(strings.Fields(cards)); got != 4 {
			t.Fatalf("%s's DM %q: %d cards, want 4", p.name, dms[0].content(), got)
		}
	}
	id, _ := g.tableMessage()
	for step := 0; ; step++ {
		if step > 30 {
			t.Fatalf("the hand did not end:\n%s", f.onScreen(id).content)
		}
		g.clock.Advance(time.Minute) // the players' own command limits refill
		s := f.onScreen(id)
		p, ok := g.actor(s)
		if !ok {
			m := regexp.MustCompile(`(?m)^▶ (\S+): betting is over`).FindStringSubmatch(s.content)
			if m == nil {
				break // the hand is over
			}
			for _, q := range g.players {
				if q.name == m[1] {
					p, ok = q, true
				}
			}
		}
		var b button
		typed := ""
		switch {
		case hasButton(t, s.buttons, "Run it twice"):
			b, _ = find(t, s.buttons, "Run it twice")
		case hasButton(t, s.buttons, "All-in"):
			b, _ = find(t, s.buttons, "All-in")
		case hasButton(t, s.buttons, "Raise…"):
			b, _ = find(t, s.buttons, "Raise…")
			c, err := parseCustomID(b.id)
			if err != nil {
				t.Fatal(err)
			}
			typed = itoa(c.max)
		default:
			b, ok = find(t, s.buttons, "Call")
			if !ok {
				t.Fatalf("%s: no button to put chips in: %v", p.name, s.buttons)
			}
		}
		if ans := g.clickTable(p, id, b, typed); ans.update == nil {
			t.Fatalf("%s's %q click: %v", p.name, b.label, ans.private)
		}
	}
	s := f.onScreen(id)
	for _, want := range []string{"the board runs twice", "half on the first board", "half on the second board", "Pot-limit Omaha 5/10"} {
		if !strings.Contains(s.content, want) {
			t.Errorf("no %q on the table:\n%s", want, s.content)
		}
	}
	if !regexp.MustCompile(`All-in: \w+ (\S+ ){3}\S+, \w+ (\S+ ){3}\S+, \w+ (\S+ ){3}\S+`).MatchString(s.content) {
		t.Errorf("the all-in line does not show four cards a hand:\n%s", s.content)
	}
	checkChips(t, db, 3*10000)
}

func hasButton(t *testing.T, bs []button, prefix string) bool {
	_, ok := find(t, bs, prefix)
	return ok
}

// scriptedRand is the dealer's Rand with scripted decks first (deckOrder), then a seeded generator.
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

// TestO8QuarteredOverFakeDiscord: RULES.md R-28 through the Discord adapter from a scripted deck:
// carol (on the button) makes three kings for the high half, alice and bob tie for the low and get a
// quarter each; the table message says so in one sentence, and chips are conserved.
func TestO8QuarteredOverFakeDiscord(t *testing.T) {
	t.Parallel()
	f := newFakeDiscord(t, testApp)
	logs := &bottest.Buffer{}
	clock := bottest.NewClock(time.Date(2026, 11, 20, 20, 0, 0, 0, time.UTC))
	a := openAdapterWith(t, f, logs, clock, testConfig())
	r := &scriptedRand{rest: rand.NewChaCha8([32]byte{9})}
	db, d := openDealer(t, f, a, logs, clock, bot.Config{StartingBankroll: 10000, Rand: r, DealDelay: time.Hour})
	a.SetDealer(d)
	alice, bob, carol := player{"111", "alice"}, player{"222", "bob"}, player{"333", "carol"}
	g := &game{t: t, f: f, channel: "5550", players: []player{alice, bob, carol}, d: d, a: a, clock: clock}
	if reply, _ := g.do(alice, "start", "game", 3, "o8", "cards", 3, "text", "timer", 4, 0); !strings.Contains(reply, "table is open") {
		t.Fatalf("start reply = %q", reply)
	}
	for i, p := range g.players {
		g.do(p, "join", "amount", 4, []int{1000, 1000, 500}[i]) // as checkChips counts them
	}
	// The draw for the button (carol's ace), then the hand: four rounds of hole cards from alice (left
	// of the button), then burn, flop, burn, turn, burn, river.
	r.deck(t, engine.MustParseCards("2s 3d Ah"), false)
	top := engine.MustParseCards("3s 3h Kc 4s 4h 8d Qc Tc 8s Jc 9c 6c 2h Ac 2d 7h 5c Ks 5d Kd")
	r.deck(t, top, true)
	g.clock.Advance(time.Minute)
	start := f.count()
	tok := f.slash(alice, g.channel, "deal")
	if _, final := f.answer(start, tok); !strings.Contains(final.content(), "Dealt hand") {
		t.Fatalf("deal answered %q", final.content())
	}
	g.flush()
	id, _ := g.tableMessage()
	g.callDown(t, id)
	s := f.onScreen(id)
	want := "carol wins the high (15) with three of a kind, kings, alice and bob split the low (8 and 7) with 7-4-3-2-A (quartered)"
	if !strings.Contains(s.content, want) || !strings.Contains(s.content, "Fixed-limit Omaha hi-lo 5/10") {
		t.Fatalf("the table message does not say %q:\n%s", want, s.content)
	}
	checkChips(t, db, 3*10000)
}
