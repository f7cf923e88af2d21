package console_test

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/dealerbot/dealerbot/engine"
)

// TestConsoleDealersChoice: a dealer's-choice session of four orbits at the console: the button is
// asked with buttons (`choose ...` at the console), nothing is dealt until they answer, a wrong player
// or game is refused, no answer within the turn timer keeps the game; the game is kept in the table's
// record across a restart; chips are conserved after every hand.
func TestConsoleDealersChoice(t *testing.T) {
	g := newGame(t)
	g.must("alice: start game=choice games=nlh,plo,o8 timer=30", "alice: join 1000", "bob: join 1000", "carol: join 1000")
	players := []string{"alice", "bob", "carol"}
	chooserName := func() string {
		rec := g.table()
		if rec.Orbit.Chooser == "" {
			t.Fatalf("nobody is choosing:\n%s", g.out)
		}
		return rec.Orbit.ChooserName
	}
	var dealt []engine.Game
	for orbit, pick := range []string{"plo", "o8", "", "nlh"} {
		if orbit == 0 {
			g.must("alice: deal")
		} else {
			g.clock.Advance(3 * time.Second) // the pause after a hand: the deal asks the button
		}
		who := chooserName()
		if !g.sawPublic(who+" has the button and chooses the game for this orbit") || !strings.Contains(g.out.String(), "choose plo") {
			t.Fatalf("orbit %d: no prompt with buttons:\n%s", orbit, g.out)
		}
		if g.table().Hand != nil {
			t.Fatalf("orbit %d: dealt before the button chose", orbit)
		}
		other := "alice"
		if strings.EqualFold(who, "alice") {
			other = "bob"
		}
		g.refuse(other+": choose plo", "choice: they have the button")
		g.refuse(strings.ToLower(who)+": choose plo5", `"plo5" is not one of this table's games`)
		if orbit == 1 {
			g.restart() // the choice waited for is in the table's record
			chooserName()
		}
		if pick == "" {
			g.clock.Advance(30 * time.Second) // no answer: the game stays
			if !g.sawPublic(who + " did not choose") {
				t.Fatalf("orbit %d: no word of the missed choice:\n%s", orbit, g.out)
			}
		} else {
			g.must(strings.ToLower(who) + ": choose " + pick)
		}
		for h := range 3 {
			if h > 0 {
				g.clock.Advance(3 * time.Second)
			}
			rec := g.table()
			if rec.Hand == nil {
				t.Fatalf("orbit %d hand %d: not dealt:\n%s", orbit, h, g.out)
			}
			dealt = append(dealt, rec.Hand.Rules.Game)
			g.playOut(players...)
			g.checkChips("after a hand")
		}
		if orbit == 0 && !g.sawPublic("Hand #1 · Pot-limit Omaha 5/10 (dealer's choice: NLH, PLO, O8)") {
			t.Errorf("the table message does not say the game:\n%s", g.out)
		}
	}
	want := []engine.Game{engine.Omaha, engine.Omaha, engine.Omaha, engine.OmahaHiLo, engine.OmahaHiLo, engine.OmahaHiLo,
		engine.OmahaHiLo, engine.OmahaHiLo, engine.OmahaHiLo, engine.Holdem, engine.Holdem, engine.Holdem}
	for i := range want {
		if dealt[i] != want[i] {
			t.Fatalf("games dealt %v, want %v", dealt, want)
		}
	}
	if !g.sawPublic("Fixed-limit Omaha hi-lo 5/10") || !g.sawPublic("No-limit hold'em 5/10") {
		t.Errorf("the table message does not say the game:\n%s", g.out)
	}
}

// shoveOut has the players put all their chips in at pot limit: all-in when the pot allows it, else
// the largest raise the refusal names, else a call; it stops when the hand is over or asks whether to
// run it twice.
func (g *game) shoveOut(players ...string) {
	g.t.Helper()
	largest := regexp.MustCompile(`largest raise is to ([\d,]+)`)
	for range 50 {
		if rec := g.table(); rec.Hand == nil || strings.Contains(g.out.String(), "Run it twice") {
			return
		}
		for _, p := range players {
			r := g.say(p + ": allin")
			if m := largest.FindStringSubmatch(r.Text); r.IsError && m != nil {
				r = g.say(p + ": raise " + strings.ReplaceAll(m[1], ",", ""))
			}
			if r.IsError {
				g.say(p + ": call")
			}
		}
	}
}

// TestConsolePLORunTwice: a pot-limit Omaha all-in before the flop, run twice: four cards a hand in
// the all-in line and its chances, both boards awarded, chips conserved, no hole card in the channel
// before the all-in.
func TestConsolePLORunTwice(t *testing.T) {
	g := newGame(t)
	g.must("alice: start game=plo runtwice=on timer=off", "alice: join 1000", "bob: join 1000", "alice: deal")
	if !g.sawPublic("Pot-limit Omaha 5/10") {
		t.Fatalf("the table does not say the game:\n%s", g.out)
	}
	dealt := g.table().Hand
	g.shoveOut("alice", "bob")
	for _, l := range []string{"alice: runtwice yes", "bob: runtwice yes", "alice: runtwice yes"} {
		g.say(l)
	}
	if missing := g.sawAll("the board runs twice", "half on the first board", "half on the second board", "Chances to win"); missing != "" {
		t.Fatalf("no %q in the channel:\n%s", missing, g.out)
	}
	allIn := regexp.MustCompile(`All-in: \w+ (\S+ ){3}\S+, \w+ (\S+ ){3}\S+\n`)
	if !allIn.MatchString(g.out.String()) {
		t.Errorf("the all-in line does not show four cards a hand:\n%s", g.out)
	}
	if dealt == nil || dealt.Rules.Game != engine.Omaha {
		t.Fatalf("dealt %+v", dealt)
	}
	g.checkChips("after running it twice")
	// The hand's export names the game and deals four cards a hand, the asker's own alone.
	r := g.say("alice: export session")
	if r.IsError || len(r.Files) != 1 {
		t.Fatalf("export: %+v", r)
	}
	text := string(r.Files[0].Data)
	if !strings.Contains(text, ":  Omaha Pot Limit (5/10) - ") || !regexp.MustCompile(`Dealt to alice \[\S\S \S\S \S\S \S\S\]`).MatchString(text) {
		t.Errorf("the export:\n%s", text)
	}
}

// TestConsoleO8Quartered: RULES.md R-28 at the console: carol's three kings take the high half,
// alice and bob tie for the low and get a quarter each; the showdown says so.
func TestConsoleO8Quartered(t *testing.T) {
	g := newGame(t)
	g.rnd.drawDeck(t, "2s 3d Ah") // carol draws the button
	g.rnd.hand(t, 2, []string{"3s 4s Qc Jc", "3h 4h Tc 9c", "Kc 8d 8s 6c"}, "Ac 2d 7h Ks Kd")
	g.must("alice: start game=o8 timer=off", "alice: join 1000", "bob: join 1000", "carol: join 1000", "alice: deal")
	g.playOut("alice", "bob", "carol")
	if missing := g.sawAll("Fixed-limit Omaha hi-lo 5/10", "carol wins the high (15) with three of a kind, kings, alice and bob split the low (8 and 7) with 7-4-3-2-A (quartered)"); missing != "" {
		t.Fatalf("no %q in the channel:\n%s", missing, g.out)
	}
	st := g.stacks()
	if st["carol"] != 1005 || st["alice"] != 998 || st["bob"] != 997 {
		t.Errorf("stacks %v, want carol +5, alice -2, bob -3", st)
	}
	g.checkChips("after the quartered pot")
}

// TestConsoleVerifyOmaha: `verify N` of an Omaha hand opens every hole card of the asker's, four of
// them, against the deck's commitment, and none of the other player's unshown ones.
func TestConsoleVerifyOmaha(t *testing.T) {
	g := newGame(t)
	g.must("alice: start game=plo timer=off", "alice: join 1000", "bob: join 1000", "alice: deal")
	folder, other := "alice", "bob"
	if r := g.say("alice: fold"); r.IsError {
		folder, other = "bob", "alice"
		g.must("bob: fold")
	}
	for who, want := range map[string]int{folder: 4, other: 4} {
		r := g.say(who + ": verify 1")
		if r.IsError {
			t.Fatalf("%s: verify 1: %s", who, r.Text)
		}
		_, own, ok := strings.Cut(r.Text, "Your cards (only you see this):\n")
		own, _, _ = strings.Cut(own, "The 52 lines")
		if got := strings.Count(own, "sha256sum"); !ok || got != want {
			t.Errorf("%s's proof opens %d own cards, want %d:\n%s", who, got, want, r.Text)
		}
		if strings.Contains(r.Text, "Public cards:") {
			t.Errorf("%s's proof opens public cards of a hand that showed none:\n%s", who, r.Text)
		}
	}
	g.checkChips("after the fold")
}
