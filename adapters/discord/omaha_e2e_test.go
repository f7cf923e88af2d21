package discord

import (
	"regexp"
	"strings"
	"testing"
	"time"
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
