package console_test

import (
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
