package console_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/dealerbot/dealerbot/engine"
)

// playOut makes whoever is to act check or call until the hand is over.
func (g *game) playOut(users ...string) {
	g.t.Helper()
	for i := 0; i < 100 && g.table().Hand != nil; i++ {
		for _, u := range users {
			g.say(u + ": check")
			g.say(u + ": call")
		}
	}
	if g.table().Hand != nil {
		g.t.Fatalf("the hand did not end:\n%s", g.out)
	}
}

// sawPublicAll reports whether every text is in some channel message.
func (g *game) sawAll(texts ...string) string {
	all := strings.Join(g.publicTexts(), "\n")
	for _, t := range texts {
		if !strings.Contains(all, t) {
			return t
		}
	}
	return ""
}

// TestHomeGameAtTheConsole plays cash hands with a straddle, a bomb pot and a run-it-twice all-in
// whose runs have different winners, with the refusals on the way; chips balance throughout.
func TestHomeGameAtTheConsole(t *testing.T) {
	g := newGame(t)
	g.rnd.drawDeck(t, "As Kd Qh") // alice draws the button
	g.must("alice: start straddle=on runtwice=on timer=off", "alice: join 1000", "bob: join 1000", "carol: join 1000")
	g.refuse("bob: bombpot", "Only the host (alice) or an admin can call a bomb pot")
	g.must("alice: deal")
	g.playOut("alice", "bob", "carol")

	// Three-handed the button is under the gun: bob has it next.
	g.refuse("alice: straddle", "You are not under the gun next hand (bob is)")
	g.refuse("dave: straddle", "You are not seated at this table")
	g.must("bob: straddle")
	g.refuse("bob: straddle", "You already straddle next hand")
	g.must("alice: deal")
	if missing := g.sawAll("bob will straddle 20 next hand", "bob straddles 20"); missing != "" {
		t.Fatalf("no %q in the channel:\n%s", missing, g.out)
	}
	g.playOut("alice", "bob", "carol")
	g.checkChips("after the straddle")

	g.refuse("alice: bombpot lots", `"lots" is not a number of chips`)
	g.must("alice: bombpot 20", "alice: deal")
	if missing := g.sawAll("Bomb pot: 20 from everyone, no blinds."); missing != "" {
		t.Fatalf("no %q in the channel:\n%s", missing, g.out)
	}
	g.playOut("alice", "bob", "carol")
	g.checkChips("after the bomb pot")

	// Heads-up, alice's aces against bob's kings all-in; run twice, each wins one board.
	g.must("carol: leave")
	tr := g.table()
	// The big blind moves on to the first of alice (seat 0) and bob (seat 1) after the last hand's big
	// blind; heads-up the other one has the button.
	button := -1
	for i := 1; i <= len(tr.Seats); i++ {
		if s := (tr.BigBlind - 1 + i) % len(tr.Seats); s == 0 || s == 1 {
			button = 1 - s
			break
		}
	}
	holes := [][]engine.Card{engine.MustParseCards("As Ah"), engine.MustParseCards("Ks Kh")} // by seat: alice, bob
	var order []engine.Card
	for round := 0; round < 2; round++ {
		for i := 1; i <= 2; i++ {
			order = append(order, holes[(button+i)%2][round])
		}
	}
	order = append(order, engine.MustParseCards("2s 7c 8d 9h 3s Tc 4h 2h 3h Kd 4c 5s 4d 6h 5d Js")...)
	d, err := engine.DeckFrom(order)
	if err != nil {
		t.Fatal(err)
	}
	g.rnd.mu.Lock()
	g.rnd.buf.Write(deckBytes(d))
	g.rnd.buf.Write(bytes.Repeat([]byte{2}, 16))
	g.rnd.mu.Unlock()
	g.must("alice: deal")
	for _, l := range []string{"alice: allin", "bob: allin", "alice: call", "bob: call"} {
		g.say(l)
	}
	g.refuse("carol: runtwice yes", "You are not seated at this table")
	for _, l := range []string{"alice: runtwice yes", "bob: runtwice yes", "alice: runtwice yes"} {
		g.say(l)
	}
	if missing := g.sawAll("the board runs twice", "alice wins half on the first board", "bob wins half on the second board"); missing != "" {
		t.Fatalf("no %q in the channel:\n%s", missing, g.out)
	}
	g.checkChips("after running it twice")
}
