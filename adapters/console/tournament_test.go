package console_test

import (
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dealerbot/dealerbot/bot/table"
	"github.com/dealerbot/dealerbot/engine"
)

// checkTournamentChips: the ledger balances (bankrolls + chips on tables = chips brought in, and the
// chips on tables are the prize pool), and the tournament chips in the seats are exactly the starting
// stacks and rebuys handed out: none appear or vanish in a hand or an elimination.
func (g *game) checkTournamentChips(when string, handedOut int64) {
	g.t.Helper()
	tot := g.balance()
	if got, want := tot.Bankrolls+tot.OnTables, tot.BroughtIn; got != want {
		g.t.Fatalf("%s: bankrolls + tables = %d, brought in %d", when, got, want)
	}
	tr := g.table()
	if tr.Tournament == nil {
		return
	}
	var chips int64
	for _, s := range tr.Seats {
		chips += s.Stack
	}
	if chips != handedOut {
		g.t.Fatalf("%s: %d tournament chips in the seats, want the %d handed out", when, chips, handedOut)
	}
	if tot.OnTables != tr.Tournament.Pool() {
		g.t.Fatalf("%s: %d chips on tables by the ledger, prize pool %d", when, tot.OnTables, tr.Tournament.Pool())
	}
}

func (g *game) mustSee(texts ...string) {
	g.t.Helper()
	if missing := g.sawAll(texts...); missing != "" {
		g.t.Fatalf("no %q in the channel:\n%s", missing, g.out)
	}
}

// TestTournamentAtTheConsole plays a four-player tournament from registration to the last
// elimination: a rebuy, a level change, a double elimination in one hand (the player who started it
// with more chips places higher), payouts to bankrolls through the ledger, and the refusals on the way.
func TestTournamentAtTheConsole(t *testing.T) {
	g := newGame(t)
	g.refuse("alice: start tournament buyin=100 stack=1000 payouts=50/30", "The payouts add up to 80%, not 100%")
	g.refuse("alice: start tournament buyin=100 stack=1000 payouts=50/abc/50", "percentages by place")
	if g.table().ID != "" {
		t.Fatal("a refused start opened a table")
	}
	g.rnd.drawDeck(t, "As Kd Qh Jc") // alice draws the button
	g.must("alice: start tournament buyin=100 stack=1000 payouts=70/30 blinds=10/20 levels=2hands rebuy=1 rebuylevels=1 timer=off")
	g.refuse("alice: join 500", "In a tournament `join` takes no amount")
	g.must("alice: join", "bob: join", "carol: join", "dave: join")
	g.refuse("bob: join", "You are already registered")
	g.refuse("dave: rebuy", "The tournament has not begun")
	start := g.bankroll("alice") + 100 // every bankroll before the buy-in
	for _, u := range []string{"alice", "bob", "carol", "dave"} {
		if got := g.bankroll(u); got != start-100 {
			t.Fatalf("%s's bankroll after registering: %d, want %d", u, got, start-100)
		}
	}
	g.checkTournamentChips("after registration", 4000)

	// Hand 1 (10/20): alice has the button, bob the small blind, carol the big blind; all fold to carol.
	g.must("alice: deal")
	g.mustSee("The tournament begins: 4 entrants, prize pool 400; prizes 1st 280, 2nd 120 (before rebuys).")
	g.refuse("eve: join", "registration is closed")
	g.must("dave: fold", "alice: fold", "bob: fold")
	g.refuse("carol: rebuy", "You can rebuy when your stack is at most the starting stack")
	g.must("dave: rebuy") // within level 1: 100 more in the pool, 1000 more chips
	g.refuse("dave: rebuy", "You have used all 1 of your rebuys")
	g.checkTournamentChips("after the rebuy", 5000)

	// Hand 2 (10/20): bob's button, carol and dave the blinds; all fold to dave.
	g.must("alice: deal", "alice: fold", "bob: fold", "carol: fold")
	if st := g.stacks(); st["alice"] != 1000 || st["bob"] != 990 || st["carol"] != 1000 || st["dave"] != 2010 {
		t.Fatalf("stacks after two hands: %v", st)
	}
	g.refuse("carol: rebuy", "The rebuy period is over")

	// Hand 3 (level 2, 20/40): carol's button, dave 20, alice 40. bob (990) and carol (1000) go
	// all-in and dave's aces bust both: carol started the hand with more and finishes third.
	g.rnd.hand(t, 2, []string{"8c 6d", "Ks Kh", "Qs Qh", "As Ah"}, "2c 7d 9h 3s 4c")
	g.must("alice: deal")
	g.mustSee("Blinds go up: level 2, 20/40; next 30/60 from hand #5.")
	if r := g.say("bob: table"); !strings.Contains(r.Text, "Level 2 · next 30/60 from hand #5 · 4 of 4 left · 2 places paid · prize pool 500") {
		t.Fatalf("the table does not show the tournament:\n%s", r.Text)
	}
	g.must("bob: allin", "carol: allin", "dave: call", "alice: fold")
	g.mustSee("carol is out in 3rd place.", "bob is out in 4th place.", "2 players left; 2 places paid.")
	if st := g.stacks(); len(st) != 2 || st["alice"] != 960 || st["dave"] != 4040 {
		t.Fatalf("stacks after the double elimination: %v", st)
	}
	g.refuse("bob: join", "You are out of this tournament (4th place)")
	g.checkTournamentChips("after the double elimination", 5000)

	// Hand 4, heads-up: alice posted the big blind in hand 3, so dave posts it now and alice has the
	// button; alice all-in, dave calls with aces against kings.
	g.rnd.hand(t, 0, []string{"Kc Kd", "Ac Ad"}, "2c 7d 9h 3s 4c")
	g.must("alice: deal", "alice: allin", "dave: call")
	g.mustSee("alice is out in 2nd place (in the money).", "Tournament over — results · prize pool 500",
		"1. dave wins 350 (+150)", "2. alice wins 150 (+50)", "3. carol (-100)", "4. bob (-100)")
	if g.table().ID != "" {
		t.Fatal("the tournament's table is still open")
	}
	for u, want := range map[string]int64{"alice": start + 50, "dave": start + 150, "bob": start - 100, "carol": start - 100} {
		if got := g.bankroll(u); got != want {
			t.Errorf("%s's bankroll after the tournament: %d, want %d", u, got, want)
		}
	}
	g.checkTournamentChips("after the payouts", 0)
	if tot := g.balance(); tot.OnTables != 0 {
		t.Fatalf("%d chips still on tables after the tournament", tot.OnTables)
	}
}

// A player who leaves a tournament is blinded out: still dealt in, blinds posted, the hand checked
// when checking is free and folded otherwise, until the stack is gone and they are placed. A
// restart in the middle changes nothing.
func TestTournamentLeaverIsBlindedOut(t *testing.T) {
	g := newGame(t)
	g.rnd.drawDeck(t, "As Kd Qh") // alice has the button
	g.must("alice: start tournament buyin=100 stack=1000 blinds=100/200 levels=off timer=off",
		"alice: join", "bob: join", "carol: join", "alice: deal")
	g.must("carol: leave")
	g.mustSee("carol is away: a tournament stack stays in play, posting blinds, checking when it is free and folding otherwise")
	g.refuse("carol: leave", "carol is already away")
	if g.stacks()["carol"] == 0 {
		t.Fatal("carol's stack left with her")
	}
	for hand := 0; hand < 60 && g.stacks()["carol"] > 0; hand++ {
		if hand == 3 {
			g.restart()
		}
		for i := 0; i < 20 && g.table().Hand != nil; i++ {
			// While carol is in the hand, alice or bob bets once after the flop: carol, who is checked
			// for when checking is free, folds to it. Otherwise they check and call.
			for _, u := range []string{"alice", "bob"} {
				if carolIn(g.table()) {
					g.say(u + ": bet 200")
				}
				g.say(u + ": call")
				g.say(u + ": check")
			}
		}
		g.checkTournamentChips("while carol is blinded out", 3000)
		g.clock.Advance(3 * time.Second) // the pause before the next hand
	}
	g.mustSee("carol is out in 3rd place.")
	checked := false
	for _, m := range g.publicTexts() {
		checked = checked || strings.Contains(m, "carol checks")
		for _, verb := range []string{"carol calls", "carol bets", "carol raises"} {
			if strings.Contains(m, verb) {
				t.Fatalf("carol acted after leaving: %q", m)
			}
		}
	}
	if !checked {
		t.Error("carol was never checked for in the big blind after limps")
	}
}

// carolIn reports whether carol is in the running hand and has not folded.
func carolIn(tr table.TableRecord) bool {
	hs := tr.Hand
	if hs == nil {
		return false
	}
	p := slices.IndexFunc(hs.Seats, func(seat int) bool { return tr.Seats[seat].User == "carol" })
	if p < 0 {
		return false
	}
	for _, a := range hs.Actions {
		if a.Player == p && a.Kind == engine.Fold {
			return false
		}
	}
	return true
}

// The host ends a tournament early: the players still in are placed by their chips and paid by place.
// A tournament called off before its first hand gives every buy-in back.
func TestTournamentEndedEarly(t *testing.T) {
	g := newGame(t)
	g.must("alice: start tournament buyin=100 stack=1000", "alice: join", "bob: join")
	before := g.bankroll("bob")
	g.must("alice: end")
	g.mustSee("The tournament is called off before it began: every buy-in goes back")
	if got := g.bankroll("bob"); got != before+100 {
		t.Fatalf("bob's bankroll after the call-off: %d, want %d", got, before+100)
	}
	g.checkTournamentChips("after the call-off", 0)

	g.rnd.drawDeck(t, "As Kd Qh") // alice has the button; bob and carol post 10 and 20
	g.must("alice: start tournament buyin=100 stack=1000 payouts=60/40 timer=off", "alice: join", "bob: join", "carol: join", "alice: deal")
	g.must("alice: fold", "bob: fold") // carol wins bob's small blind
	g.refuse("bob: end", "Only the host (alice) or an admin can end the session")
	g.must("alice: end")
	g.mustSee("1. carol wins 180 (+80)", "2. alice wins 120 (+20)", "3. bob (-100)")
	g.checkTournamentChips("after the early end", 0)
}

// TestTournamentBadInput: each wrong tournament command gets a sentence saying what to do, and
// changes nothing: no table opened, no chips moved, the stored table as it was.
func TestTournamentBadInput(t *testing.T) {
	g := newGame(t)
	for _, c := range []struct{ line, want string }{
		{"alice: start tournament stack=10 blinds=10/20", "The starting stack (10) must be more than the big blind (20)"},
		{"alice: start tournament min=100", "A tournament has one buy-in (buyin=) and one starting stack (stack=): min= is for cash games."},
		{"alice: start tournament payouts=20/20/20/20/20 seats=4", "The payouts name 5 places but the table has 4 seats"},
		{"alice: start tournament payouts=10/10/10/10/10/10/10/10/10/5/5", "Pay at most 10 places"},
		{"alice: start tournament payouts=0/100", "percentages by place that add up to 100"},
		{"alice: start tournament buyin=-5", "The buy-in must be a whole number of chips above 0"},
		{"alice: start tournament buyin=99999999999999999999", "The buy-in can be at most 1,000,000,000,000 chips"},
		{"alice: start tournament stack=500000000000 seats=9", "A starting stack can be at most 111,111,111,111 chips at a 9-seat table"},
	} {
		g.refuse(c.line, c.want)
		if g.table().ID != "" {
			t.Fatalf("%q opened a table", c.line)
		}
	}
	g.must("alice: start tournament buyin=20000")
	before, bal := g.table(), g.balance()
	g.refuse("carol: join", "The buy-in is 20,000 chips and your bankroll holds 10,000") // a new player's bankroll
	if !reflect.DeepEqual(g.table(), before) || g.balance() != bal {
		t.Fatal("a refused registration changed the table or the chips")
	}
	g.must("alice: end")

	g.must("alice: start tournament buyin=100 stack=1000 rebuy=no", "alice: join", "bob: join", "alice: deal")
	before, bal = g.table(), g.balance()
	for _, c := range []struct{ line, want string }{
		{"carol: join 100", "In a tournament `join` takes no amount"},
		{"bob: rebuy", "This tournament has no rebuys."},
		{"bob: rebuy 100", "A tournament rebuy takes no amount"},
	} {
		g.refuse(c.line, c.want)
		if !reflect.DeepEqual(g.table(), before) || g.balance() != bal {
			t.Fatalf("%q changed the table or the chips", c.line)
		}
	}
}

// TestItem8TournamentTimeToRebuy (issue 37 item 2: nobody answers, the deal comes when the countdown
// ends): at a tournament with rebuys, a player who loses the last chip is offered a rebuy within 30 s
// (longer than the 3 s deal delay), counted down on the table, and keeps the seat until then. carol
// rebuys at once and, hers being the only answer awaited, is dealt in at once; bob does not answer (a
// restart in his time changes nothing) and the deal when his 30 s are over places him third;
// heads-up, carol's second bust does not end the tournament until her 30 s are over, when she is
// placed second and alice paid. Nobody's `deal` cuts the time short, chips balance throughout, and
// the hand histories name no finish for a player who rebought. The clock is the test's: no sleep.
func TestItem8TournamentTimeToRebuy(t *testing.T) {
	g := newGame(t)
	g.rnd.drawDeck(t, "As Kd Qh") // alice has the button
	g.must("alice: start tournament buyin=100 stack=1000 rebuy=2 levels=20m timer=off", "alice: join", "bob: join", "carol: join")
	start := g.bankroll("alice") + 100

	// Hand 1: alice moves in with kings, bob folds his small blind, carol calls from the big blind
	// with 7-2 and loses every chip.
	g.rnd.hand(t, 0, []string{"Kc Kh", "Qs Qd", "7c 2d"}, "3s 8h 9d Jh 4c")
	g.must("alice: deal", "alice: allin", "bob: fold", "carol: call")
	g.mustSee("carol is out of chips: `rebuy` within 30 s to be dealt in next hand (100 into the prize pool for 1,000 chips), or `rebuy no` to be out of the tournament now.",
		"2 of 3 left · 1 place paid · prize pool 300 ·", "carol may rebuy: 30 s left")
	if s := g.stacks(); len(s) != 3 || s["carol"] != 0 {
		t.Fatalf("carol lost her seat at once: %v", s)
	}
	g.refuse("bob: deal", "carol may still rebuy, 30 s left: the next hand is dealt as soon as each has answered (`rebuy` or `rebuy no`), or when the time is up.")
	g.clock.Advance(10 * time.Second)
	g.refuse("alice: deal", "carol may still rebuy, 20 s left")
	if g.table().Hand != nil {
		t.Fatal("the next hand was dealt before carol answered or her 30 s were over")
	}
	// Hand 2: bob has the button and moves in with 7-2, carol folds her small blind, alice calls
	// with aces: bob is out of chips and does not answer.
	g.rnd.hand(t, 1, []string{"As Ah", "7c 2d", "Qs Qd"}, "3s 8h 9d Jh 4c")
	g.must("carol: rebuy")
	g.checkTournamentChips("after carol's rebuy", 4000)
	if tr := g.table(); tr.Hand == nil || len(tr.Hand.Seats) != 3 {
		t.Fatalf("carol rebought, the only answer awaited, and is not dealt in at once: %+v", tr.Hand)
	}
	g.must("bob: allin", "carol: fold", "alice: call")
	g.mustSee("bob is out of chips: `rebuy` within 30 s to be dealt in next hand")
	if strings.Contains(strings.Join(g.publicTexts(), "\n"), "bob is out in") {
		t.Fatal("bob was placed while he may still rebuy")
	}
	g.clock.Advance(10 * time.Second)
	g.restart()
	g.checkTournamentChips("after the restart", 4000)
	g.refuse("carol: deal", "bob may still rebuy, 20 s left")
	// Hand 3, heads-up: alice has the button and moves in with aces; carol calls with 7-2.
	g.rnd.hand(t, 0, []string{"As Ah", "7c 2d"}, "3s 8h 9d Jh 4c")
	g.clock.Advance(19 * time.Second)
	if g.table().Hand != nil {
		t.Fatal("the next hand was dealt before bob's 30 s were over")
	}
	g.clock.Advance(time.Second)
	g.mustSee("bob is out in 3rd place.", "2 players left; 1 place paid.")
	if tr := g.table(); tr.Hand == nil || len(tr.Hand.Seats) != 2 || g.stacks()["bob"] != 0 || len(g.stacks()) != 2 {
		t.Fatalf("the deal after bob's time: hand %+v, stacks %v", tr.Hand, g.stacks())
	}
	g.refuse("bob: rebuy", "You are not seated at this table")
	g.checkTournamentChips("after bob's place", 4000)

	g.must("alice: allin", "carol: call")
	g.mustSee("carol is out of chips: `rebuy` within 30 s")
	if g.table().ID == "" || g.sawAll("Tournament over") == "" {
		t.Fatal("the tournament ended while carol may still rebuy")
	}
	g.checkTournamentChips("after carol's second bust", 4000)
	g.clock.Advance(30 * time.Second)
	g.mustSee("carol is out in 2nd place.", "Tournament over — results · prize pool 400", "1. alice wins 400 (+300)", "2. carol (-200)", "3. bob (-100)")
	if g.table().ID != "" {
		t.Fatal("the tournament's table is still open after carol's time")
	}
	for u, want := range map[string]int64{"alice": start + 300, "bob": start - 100, "carol": start - 200} {
		if got := g.bankroll(u); got != want {
			t.Errorf("%s's bankroll after the tournament: %d, want %d", u, got, want)
		}
	}
	g.checkTournamentChips("after the payouts", 0)

	// carol rebought after hand 1: no hand history says she finished the tournament there.
	r := g.say("carol: export session")
	if r.IsError || len(r.Files) != 1 {
		t.Fatalf("export: %+v", r)
	}
	if hh := string(r.Files[0].Data); strings.Count(hh, "PokerStars Hand #") != 3 || strings.Contains(hh, "finished the tournament") {
		t.Errorf("carol's hand histories:\n%s", hh)
	}
}

// TestRebuyTournamentOneDeclinesDealtAtOnce (issue 37 item 2): carol and dave lose their last chips in
// one hand and both may rebuy. carol's `rebuy no` leaves dave to answer, so nothing is dealt; dave's
// rebuy is the last answer and the next hand is dealt at once (the clock has not moved), with carol
// placed and "N of M left" counting only the players still in.
func TestRebuyTournamentOneDeclinesDealtAtOnce(t *testing.T) {
	g := newGame(t)
	g.rnd.drawDeck(t, "As Kd Qh Jc") // alice has the button
	g.must("alice: start tournament buyin=100 stack=1000 rebuy=2 levels=20m timer=off", "alice: join", "bob: join", "carol: join", "dave: join")
	// Hand 1: dave (under the gun) moves in with 7-2, alice calls with aces, bob folds his small
	// blind, carol calls with queens from the big blind: carol and dave lose every chip.
	g.rnd.hand(t, 0, []string{"As Ah", "Kc Kd", "Qs Qd", "7c 2d"}, "3s 8h 9d Jh 4c")
	g.must("alice: deal", "dave: allin", "alice: call", "bob: fold", "carol: call")
	g.mustSee("carol is out of chips: `rebuy` within 30 s", "dave is out of chips: `rebuy` within 30 s", "2 of 4 left", "carol and dave may rebuy: 30 s left")
	g.refuse("alice: deal", "carol and dave may still rebuy, 30 s left")
	g.must("carol: rebuy no")
	if g.table().Hand != nil {
		t.Fatal("carol's `rebuy no` dealt while dave may still rebuy")
	}
	g.refuse("carol: rebuy no", "You said already that you do not rebuy")
	g.refuse("bob: rebuy no", "`rebuy no` answers the offer to rebuy when you are out of chips")
	g.refuse("alice: deal", "dave may still rebuy, 30 s left")
	if r := g.say("dave: rebuy"); r.IsError || !strings.Contains(r.Text, "Nobody else has to answer: hand #2 is dealt.") {
		t.Fatalf("dave's rebuy, the last answer: %q", r.Text)
	}
	tr := g.table()
	if tr.Hand == nil || tr.Hand.No != 2 || len(tr.Hand.Seats) != 3 {
		t.Fatalf("the next hand was not dealt at once with alice, bob and dave: %+v", tr.Hand)
	}
	g.mustSee("carol is out in 4th place.", "3 of 4 left")
	g.checkTournamentChips("after the deal", 5000)
}
