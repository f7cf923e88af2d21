package console_test

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/dealerbot/dealerbot/adapters/console"
	"github.com/dealerbot/dealerbot/bot"
	"github.com/dealerbot/dealerbot/engine"
	"github.com/dealerbot/dealerbot/engine/phh"
	"github.com/dealerbot/dealerbot/render"
)

const consoleTable = console.Platform + "/" + console.Workspace + "/" + console.Channel

// checkChips asserts that the chips on the table are exactly what was bought in and not cashed out,
// and that the ledger balances.
func (g *game) checkChips(when string) {
	g.t.Helper()
	tot := g.balance()
	var onTable int64
	for _, s := range g.table().Seats {
		onTable += s.Stack
	}
	var in, out int64
	for _, s := range g.table().Standings {
		in += s.BoughtIn
		out += s.CashedOut
	}
	if got, want := onTable, in-out; got != want {
		g.t.Fatalf("%s: %d chips on the table, want %d (bought in %d, cashed out %d)", when, got, want, in, out)
	}
	if got, want := tot.Bankrolls+tot.OnTables, tot.BroughtIn; got != want {
		g.t.Fatalf("%s: bankrolls + tables = %d, brought in %d", when, got, want)
	}
}

func (g *game) bankroll(user string) int64 {
	g.t.Helper()
	p, ok, err := g.db.Player(context.Background(), console.Workspace, user)
	if err != nil || !ok {
		g.t.Fatalf("player %s: ok=%v err=%v", user, ok, err)
	}
	return p.Bankroll
}

func (g *game) sawPublic(sub string) bool {
	for _, m := range g.publicTexts() {
		if strings.Contains(m, sub) {
			return true
		}
	}
	return false
}

// TestSession plays a whole session through the console adapter on a real bbolt file: an all-in with
// a side pot, a rebuy, a split pot, timeouts that sit a player out, rising blinds, a player leaving
// mid-hand, a voluntary sit-out, and the end with standings. Chips are checked after every hand, and
// no hole card reaches the channel before its hand's showdown.
func TestSession(t *testing.T) {
	g := newGame(t)
	const start = 10000 // bot.Config's default starting bankroll

	// Hand 1: alice draws the button; bob (500) and alice (1000) are all-in against carol (2000).
	g.rnd.drawDeck(t, "As Kd Qh")
	g.rnd.hand(t, 0, []string{"Kc Kh", "Ac Ad", "Qc Qd"}, "2c 7d 9h 4s Jc")
	g.must("alice: start blinds=5/10 timer=30 levels=3hands", "alice: join 1000", "bob: join 500", "carol: join 2000", "alice: deal",
		"alice: allin", "bob: allin", "carol: call")
	st := g.stacks()
	if st["bob"] != 3*500 || st["alice"] != 2*(1000-500) || st["carol"] != 2000-1000 {
		t.Fatalf("after the side pot: %v; want bob to win the main pot (1500) and alice the side pot (1000)", st)
	}
	if !g.sawPublic("alice wins side pot 1 (1,000)") {
		t.Fatalf("no side pot announced:\n%s", g.out)
	}
	if !g.sawPublic("Chances to win") {
		t.Fatalf("the all-in hands were turned up without their chances to win:\n%s", g.out)
	}
	g.checkChips("hand 1")
	if got := g.bankroll("carol"); got != start-2000 {
		t.Fatalf("carol's bankroll after buying in for 2000 is %d, want %d", got, start-2000)
	}

	// A rebuy between hands.
	g.must("carol: rebuy 500")
	if got := g.stacks()["carol"]; got != 1500 {
		t.Fatalf("carol's stack after a rebuy of 500 is %d, want 1500", got)
	}
	g.checkChips("rebuy")

	// Hand 2 deals itself after the pause: the button moves to bob; the board is a straight both
	// remaining players play, so alice and bob split the pot (carol folded her small blind).
	g.rnd.hand(t, 1, []string{"2c 2d", "3c 3d", "Kh Qs"}, "5c 6d 7h 8s 9c")
	before := g.stacks()
	g.clock.Advance(3 * time.Second)
	if g.table().HandNo != 2 {
		t.Fatalf("no automatic second hand:\n%s", g.out)
	}
	g.must("bob: call", "carol: fold", "alice: check",
		"alice: check", "bob: check", "alice: check", "bob: check", "alice: check", "bob: check")
	st = g.stacks()
	wonA, wonB := st["alice"]-before["alice"]+10, st["bob"]-before["bob"]+10 // each put in 10
	if wonA+wonB != 25 || wonA-wonB > 1 || wonB-wonA > 1 {
		t.Fatalf("split pot of 25: alice got %d, bob %d; want halves (odd chip to one)", wonA, wonB)
	}
	g.checkChips("hand 2")

	// Hand 3: carol, first to act, lets her time run out and folds; alice folds to bob.
	g.clock.Advance(3 * time.Second)
	if g.table().HandNo != 3 {
		t.Fatal("no third hand")
	}
	g.refuse("alice: fold", "It is carol's turn, not yours")
	g.clock.Advance(30 * time.Second)
	if !g.sawPublic("carol ran out of time") {
		t.Fatalf("no timeout announced:\n%s", g.out)
	}
	g.must("alice: fold")
	g.checkChips("hand 3")
	if g.table().Hand != nil {
		t.Fatal("hand 3 did not end")
	}

	// Hand 4: blinds rise after three hands. carol times out again (checking is free for the big
	// blind, then she folds to a bet), her second timed-out hand in a row: she is sat out.
	g.clock.Advance(3 * time.Second)
	tr := g.table()
	if tr.Hand == nil || tr.Hand.Rules.BigBlind != 20 || !g.sawPublic("Blinds go up") {
		t.Fatalf("blinds did not rise for hand 4: %+v", tr.Hand)
	}
	g.must("alice: fold", "bob: call")
	g.clock.Advance(30 * time.Second) // carol checks
	g.must("bob: bet 20")
	g.clock.Advance(30 * time.Second) // carol folds
	g.checkChips("hand 4")
	for _, s := range g.table().Seats {
		if s.User == "carol" && !s.SittingOut {
			t.Fatal("carol timed out two hands in a row but is not sitting out")
		}
	}

	// dave joins; hand 5's big blind moves on from carol's seat to his: alice has the button, bob
	// the small blind. Facing alice's raise, dave leaves on his turn (folding his big blind) and is
	// cashed out.
	g.must("dave: join 400")
	g.clock.Advance(3 * time.Second)
	if tr := g.table(); tr.Hand == nil || len(tr.Hand.Seats) != 3 || contains(tr.Hand.Seats, 2) {
		t.Fatalf("hand 5 should deal alice, bob and dave, not carol: %+v", tr.Hand)
	}
	g.must("alice: raise 60", "bob: fold", "dave: leave")
	if _, seated := g.stacks()["dave"]; seated {
		t.Fatal("dave is still seated after leaving")
	}
	if got, want := g.bankroll("dave"), int64(start-20); got != want {
		t.Fatalf("dave's bankroll after posting a 20 big blind and leaving is %d, want %d", got, want)
	}
	g.checkChips("hand 5")

	// A voluntary sit-out: alice sits out, carol sits back in; hand 6 is carol against bob.
	g.must("alice: sitout", "carol: sitin")
	aliceBefore := g.stacks()["alice"]
	g.must("bob: deal")
	if tr := g.table(); len(tr.Hand.Seats) != 2 || contains(tr.Hand.Seats, 0) {
		t.Fatalf("alice sits out but was dealt in: %+v", tr.Hand)
	}
	g.must("carol: fold")
	if got := g.stacks()["alice"]; got != aliceBefore {
		t.Fatalf("alice's stack changed from %d to %d while sitting out", aliceBefore, got)
	}
	g.checkChips("hand 6")
	if r := g.say("carol: history"); r.IsError || !strings.Contains(r.Text, "Hand #6") {
		t.Fatalf("history: %q", r.Text)
	}

	if r := g.say("bob: chips"); r.IsError || !strings.Contains(r.Text, "Your bankroll: 9,500 chips") {
		t.Fatalf("chips: %q", r.Text)
	}
	if r := g.say("carol: leaderboard"); r.IsError || !strings.Contains(r.Text, "bob") || !strings.Contains(r.Text, "dave") {
		t.Fatalf("leaderboard: %q", r.Text)
	}

	// The host ends the session: everyone is cashed out and standings are posted.
	g.refuse("bob: end", "Only the host")
	g.must("alice: end")
	if g.table().ID != "" {
		t.Fatal("the table is still open after end")
	}
	if !g.sawPublic("standings") {
		t.Fatalf("no standings posted:\n%s", g.out)
	}
	tot := g.balance()
	if tot.OnTables != 0 || tot.Bankrolls != tot.BroughtIn || tot.BroughtIn != 4*start {
		t.Fatalf("after the end every chip should be back in bankrolls: %+v", tot)
	}
	sessions, err := g.db.Sessions(context.Background())
	if err != nil || len(sessions) != 1 {
		t.Fatalf("sessions: %v %v", sessions, err)
	}
	var in, out int64
	for _, s := range sessions[0].Standings {
		in += s.BoughtIn
		out += s.CashedOut
	}
	if in != out || len(sessions[0].Standings) != 4 {
		t.Fatalf("standings: %+v; bought in %d, cashed out %d", sessions[0].Standings, in, out)
	}
	checkNoHoleCards(t, g)
}

func contains(s []int, x int) bool {
	for _, v := range s {
		if v == x {
			return true
		}
	}
	return false
}

// checkNoHoleCards replays every stored hand and checks the channel: between a hand's commitment and
// its deck reveal, a player's hole card appears only if the player's cards were turned up, and only
// after the last turn prompt of the hand (that is, at showdown). The dealer's log never names a
// hole card at all.
func checkNoHoleCards(t *testing.T, g *game) {
	t.Helper()
	hands, err := g.db.Hands(context.Background(), consoleTable, 1000)
	if err != nil || len(hands) == 0 {
		t.Fatalf("hands: %d, %v", len(hands), err)
	}
	var pub []bot.Message
	for _, m := range g.chat.Messages() {
		if !m.Private {
			pub = append(pub, m)
		}
	}
	for _, hr := range hands {
		h, err := engine.Replay(hr.Setup(), hr.Actions)
		if err != nil {
			t.Fatal(err)
		}
		// The stored setup and actions are the whole hand: its PHH history is rendered from them.
		if text, err := phh.FromHand(h, hr.Names).Marshal(); err != nil || !strings.Contains(string(text), "actions") {
			t.Fatalf("hand %d does not render as a PHH history: %v", hr.No, err)
		}
		// The hand is one table message, drawn again at each change, its commitment in the head line
		// from the first drawing; no deck is revealed until the next hand's (it would show the folded
		// hands), so an unshown hole card may appear nowhere in that range.
		head := func(no int64) *regexp.Regexp { return regexp.MustCompile(fmt.Sprintf(`(^|· )Hand #%d · `, no)) }
		from, to := -1, len(pub)
		for i, m := range pub {
			if from < 0 && head(hr.No).MatchString(m.Text) {
				from = i
			}
			if from >= 0 && head(hr.No+1).MatchString(m.Text) {
				to = i
				break
			}
		}
		if from < 0 {
			t.Fatalf("hand %d: no table message in the channel", hr.No)
		}
		if c := render.DeckCommitment(hr.Deck, hr.Salt); !strings.Contains(pub[from].Text, "deck "+c[:16]) {
			t.Fatalf("hand %d: the first drawing of its table message has no commitment:\n%s", hr.No, pub[from].Text)
		}
		lastTurn := from
		for i := from; i < to; i++ {
			if len(pub[i].Buttons) > 0 {
				lastTurn = i
			}
		}
		shown := map[int]bool{}
		for _, ev := range h.Events() {
			if ev.Kind == engine.EvShow {
				shown[ev.Player] = true
			}
			if ev.Kind == engine.EvReveal {
				for _, r := range ev.Hands {
					shown[r.Player] = true
				}
			}
		}
		logs := g.logs.String()
		for p := range hr.Stacks {
			hole := h.Hole(p)
			for _, c := range hole {
				// The card as players read it, or as a word like Kd.
				word := regexp.MustCompile(`(^|[^A-Za-z0-9])` + c.String() + `([^A-Za-z0-9]|$)`)
				if strings.Contains(logs, render.Card(c, render.TextCards)) || strings.Contains(logs, render.Card(c, render.EmojiCards)) || word.MatchString(logs) {
					t.Fatalf("hand %d: %s's hole card %s is in the log:\n%s", hr.No, hr.Names[p], c, logs)
				}
				s := render.Card(c, render.TextCards)
				for i := from; i < to; i++ {
					if strings.Contains(pub[i].Text, s) && (!shown[p] || i <= lastTurn) {
						t.Fatalf("hand %d: %s's hole card %s is in channel message %q", hr.No, hr.Names[p], s, pub[i].Text)
					}
				}
			}
		}
	}
}
