package table_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dealerbot/dealerbot/bot/table"
	"github.com/dealerbot/dealerbot/engine"
)

// TestR18TournamentPlaces: six entrants, buy-in 100, pool 600, payouts 65/35: first 390, second 210.
// Two players bust in the same hand having started it with 300 and 500: the one who had 500 places higher.
func TestR18TournamentPlaces(t *testing.T) {
	prizes, err := table.Prizes(6*100, []int{65, 35})
	if err != nil || fmt.Sprint(prizes) != "[390 210]" {
		t.Fatalf("prizes %v, %v; want [390 210]", prizes, err)
	}
	if got := fmt.Sprint(table.DefaultPayouts(6)); got != "[65 35]" {
		t.Fatalf("default payouts for six: %s", got)
	}
	got := table.PlaceEliminated(prizes, 2, []table.Eliminated{{User: "three-hundred", Start: 300, Order: 0}, {User: "five-hundred", Start: 500, Order: 1}})
	if fmt.Sprint(got) != "[2. five-hundred 210 3. three-hundred 0]" {
		t.Fatalf("places %v: the one who started with 500 must finish second", got)
	}
}

// TestR19SharedPlaces: pool 1,000, payouts 50/30/20; second and third bust in the same hand with
// equal starting stacks: they share 300 + 200 and get 250 each.
func TestR19SharedPlaces(t *testing.T) {
	prizes, err := table.Prizes(1000, []int{50, 30, 20})
	if err != nil || fmt.Sprint(prizes) != "[500 300 200]" {
		t.Fatalf("prizes %v, %v", prizes, err)
	}
	got := table.PlaceEliminated(prizes, 2, []table.Eliminated{{User: "b", Start: 400, Order: 1}, {User: "a", Start: 400, Order: 0}})
	if fmt.Sprint(got) != "[2. a 250 2. b 250]" {
		t.Fatalf("places %v, want both second with 250", got)
	}
	// An odd combined prize: the odd chip to the first left of the button.
	odd := table.PlaceEliminated([]int64{500, 301, 200}, 2, []table.Eliminated{{User: "b", Start: 400, Order: 1}, {User: "a", Start: 400, Order: 0}})
	if fmt.Sprint(odd) != "[2. a 251 2. b 250]" {
		t.Fatalf("odd chip: %v", odd)
	}
}

// TestPrizes: rounding down with the remainder to the winner, payouts that do not add up refused.
func TestPrizes(t *testing.T) {
	p, err := table.Prizes(1001, []int{50, 30, 20})
	if err != nil || fmt.Sprint(p) != "[501 300 200]" {
		t.Fatalf("1001 by 50/30/20: %v, %v", p, err)
	}
	for _, bad := range [][]int{{50, 30}, {60, 30, 20}, {100, 0}, {-10, 110}} {
		if _, err := table.Prizes(1000, bad); err == nil {
			t.Errorf("payouts %v accepted", bad)
		}
	}
	if p, _ := table.Prizes(1_000_000_000_000*10, []int{65, 35}); p[0]+p[1] != 10_000_000_000_000 {
		t.Fatalf("prizes of a large pool do not add up: %v", p)
	}
	if got := fmt.Sprint(table.DefaultPayouts(3), table.DefaultPayouts(9)); got != "[100] [50 30 20]" {
		t.Fatalf("default payouts: %s", got)
	}
}

// Issue 28 item 8 at a tournament that allows rebuys: a player who loses the last chip while the
// rebuy period lasts keeps the seat until the next deal, which the dealer makes after the deal delay
// (DealDelay); a `rebuy` before it deals them in, and the deal places the others.

// autoDeal is the dealer's own deal of the next hand after the pause (the shell's autoDeal).
func (g *game) autoDeal() table.Step {
	g.t.Helper()
	st, err := g.s.NextHand(g.now, g.inputs(host))
	if err != nil {
		g.t.Fatalf("automatic deal: %v", err)
	}
	g.take(st)
	return st
}

// checkTournament asserts that no chip was made or lost: bankrolls and the prize pool hold what the
// grants brought in, the ledger's chips on the table are the pool, and the table holds exactly the
// tournament chips handed out, a starting stack for each entry and each rebuy.
func (g *game) checkTournament(when string) {
	g.t.Helper()
	var banks int64
	for _, b := range g.bankroll {
		banks += b
	}
	if banks+g.onTable != g.granted {
		g.t.Fatalf("%s: bankrolls %d + pool %d != %d granted", when, banks, g.onTable, g.granted)
	}
	tr := g.s.Rec.Tournament
	if !g.s.Open {
		if g.onTable != 0 {
			g.t.Fatalf("%s: the tournament is over and %d chips are still on its table", when, g.onTable)
		}
		return
	}
	var handed int64
	for _, e := range tr.Entries {
		handed += int64(1+e.Rebuys) * tr.Stack
	}
	if got := g.stacks(); got != handed {
		g.t.Fatalf("%s: the table holds %d tournament chips, %d were handed out", when, got, handed)
	}
	if g.onTable != tr.Pool() {
		g.t.Fatalf("%s: the ledger put %d on the table, the prize pool is %d", when, g.onTable, tr.Pool())
	}
}

// act is a betting action by a player.
type act struct {
	v  verbFunc
	by table.Caller
}

// play runs betting actions, each by the player who must be the one to act.
func (g *game) play(acts ...act) table.Step {
	g.t.Helper()
	var st table.Step
	for _, a := range acts {
		if got := g.toAct(); got != a.by {
			g.t.Fatalf("%s is to act, not %s", got.Name, a.by.Name)
		}
		st = g.do(a.v, a.by)
	}
	return st
}

var dave = table.Caller{User: "U4", Name: "Dave"}

// entry is user's tournament entry.
func (g *game) entry(user string) table.Entry {
	tr := g.s.Rec.Tournament
	return tr.Entries[tr.Entry(user)]
}

// TestItem8TournamentRebuyBeforeTheDeal: three players, rebuys allowed; Carol loses her last chip.
// She is offered a rebuy within the deal delay, stays seated with no chips (not placed, the hand's
// record names no finish for her) and nobody's `deal` cuts her time short. A `rebuy` in it deals her
// in; without one the dealer's deal places her third. Without automatic deals a `deal` places her.
func TestItem8TournamentRebuyBeforeTheDeal(t *testing.T) {
	bust := func(t *testing.T, delay time.Duration) (*game, table.Step) {
		g := newGame(t, "tournament", "buyin=100", "stack=1000", "rebuy=1", "levels=20m", "timer=off")
		g.s.DealDelay = delay
		for _, by := range []table.Caller{alice, bob, carol} {
			g.do(table.State.Join, by)
		}
		// Alice draws the button and moves in with kings; Bob folds his small blind; Carol, in the
		// big blind, calls with 7-2 and loses every chip.
		g.script("As Kd Qh", "Ac 7c Kc Ad 2d Kh 6d 3s 8h 9d 5d Jh 6h 4c")
		g.deal()
		st := g.play(act{table.Betting(engine.AllIn).Act, alice}, act{table.Betting(engine.Fold).Act, bob}, act{table.Betting(engine.Call).Act, carol})
		if g.s.Hand != nil || g.s.Rec.Seats[2].User != "U3" || g.s.Rec.Seats[2].Stack != 0 {
			t.Fatalf("Carol did not bust, or lost her seat: %+v", g.s.Rec.Seats)
		}
		g.checkTournament("after Carol's bust")
		return g, st
	}
	t.Run("offer", func(t *testing.T) {
		g, st := bust(t, 3*time.Second)
		want := "Carol is out of chips: `rebuy` within 30 s to be dealt in next hand (100 into the prize pool for 1,000 chips), or `rebuy no` to be out of the tournament now."
		if !slices.Contains(st.View.Result, want) {
			t.Errorf("the hand's result %q does not offer %q", st.View.Result, want)
		}
		if st.Ends || !st.Timers.Deal || st.Timers.DealWhenShown {
			t.Errorf("ends %v, timers %+v: the deal waits for the time to rebuy, a deadline of the record", st.Ends, st.Timers)
		}
		// The time to rebuy is 30 s (longer than the deal delay), counted down on the table.
		if ch := g.s.Chores(g.now, table.Timers{Deal: true}); !ch.Deal || ch.Pause != 30*time.Second {
			t.Errorf("the deal's chores at the bust: %+v, want a deal in 30 s", ch)
		}
		if tv := table.TournamentView(g.s.Rec, g.now.Add(12*time.Second)); tv.RebuyIn != "Carol may rebuy: 18 s left" || tv.Left != 2 {
			t.Errorf("the table's countdown 12 s later: %q, %d left; want Carol's 18 s and 2 players left", tv.RebuyIn, tv.Left)
		}
		if e := g.entry("U3"); e.Place != 0 || !e.Busted || g.s.Rec.Tournament.Left() != 3 {
			t.Errorf("Carol's entry %+v, %d left: she is not placed before the next deal", e, g.s.Rec.Tournament.Left())
		}
		if f := st.Change.Hand.Tournament.Finishes; len(f) != 0 {
			t.Errorf("the hand's record names finishes %+v while Carol may still rebuy", f)
		}
		for _, by := range []table.Caller{bob, host, carol} {
			if _, err := g.try(table.State.Deal, by); err == nil || !strings.Contains(err.Error(), "Carol may still rebuy, 30 s left: the next hand is dealt as soon as each has answered (`rebuy` or `rebuy no`), or when the time is up.") {
				t.Errorf("%s's deal during Carol's time to rebuy: %v", by.Name, err)
			}
		}
	})
	t.Run("leave declines", func(t *testing.T) {
		g, _ := bust(t, 3*time.Second)
		st := g.do(table.State.Leave, carol)
		if g.s.Hand == nil || !slices.Contains(st.View.Notes, "Carol is out in 3rd place.") {
			t.Errorf("Carol's leave while out of chips: %q, notes %q; want her placed and the next hand dealt", st.Reply, st.View.Notes)
		}
	})
	t.Run("rebuy", func(t *testing.T) {
		g, _ := bust(t, 3*time.Second)
		st := g.do(table.State.Rebuy, carol)
		// Hers was the only answer the deal waited for: it is dealt at once.
		if want := "You rebought for 100: 1,000 more chips. You are dealt in next hand. Nobody else has to answer: hand #2 is dealt."; st.Reply != want || st.View == nil || st.View.Deal == nil {
			t.Errorf("rebuy: %q, view %+v; want %q and the deal", st.Reply, st.View, want)
		}
		g.checkTournament("after Carol's rebuy")
		if g.s.Hand == nil || g.s.PlayerOf(2) < 0 || g.entry("U3").Busted || g.s.Rec.Tournament.Left() != 3 {
			t.Errorf("Carol rebought before the deal and is not dealt in: %+v", g.entry("U3"))
		}
		g.checkTournament("after the deal")
	})
	t.Run("placed at the deal", func(t *testing.T) {
		g, _ := bust(t, 3*time.Second)
		st := g.autoDeal()
		for _, want := range []string{"Carol is out in 3rd place.", "2 players left; 1 place paid."} {
			if !slices.Contains(st.View.Notes, want) {
				t.Errorf("the deal's notes %q do not say %q", st.View.Notes, want)
			}
		}
		if e := g.entry("U3"); e.Place != 3 || e.Busted || g.s.SeatOf("U3") >= 0 || len(g.s.Rec.Hand.Seats) != 2 {
			t.Errorf("Carol's entry %+v, seat %d, %d dealt in: she is placed third and her seat freed", e, g.s.SeatOf("U3"), len(g.s.Rec.Hand.Seats))
		}
		if _, err := g.try(table.State.Rebuy, carol); err == nil {
			t.Error("Carol rebought after the deal placed her")
		}
		g.checkTournament("after the deal")
	})
	t.Run("no deal delay", func(t *testing.T) {
		g, st := bust(t, 0)
		want := "Carol is out of chips: `rebuy` within 30 s to be dealt in next hand (100 into the prize pool for 1,000 chips), or `rebuy no` to be out of the tournament now."
		if !slices.Contains(st.View.Result, want) || st.Timers.DealWhenShown {
			t.Errorf("result %q, timers %+v: want %q", st.View.Result, st.Timers, want)
		}
		if _, err := g.try(table.State.Deal, bob); err == nil {
			t.Errorf("Bob dealt during Carol's time to rebuy")
		}
		g.now = g.now.Add(30 * time.Second)
		if _, err := g.try(table.State.Rebuy, carol); err == nil || !strings.Contains(err.Error(), "The time to rebuy is over") {
			t.Errorf("Carol's rebuy after her time: %v", err)
		}
		st = g.do(table.State.Deal, bob)
		if !slices.Contains(st.View.Notes, "Carol is out in 3rd place.") {
			t.Errorf("Bob's deal did not place Carol: %q", st.View.Notes)
		}
	})
}

// TestItem8TournamentHeadsUpBust: heads-up, Bob loses his last chip while he may rebuy: the hand does
// not end the tournament. When the deal delay passes without a rebuy the dealer's deal places him
// second and ends the tournament, Alice paid the pool, in one step; with a rebuy they play on. A host
// who ends the tournament meanwhile places him second as well.
func TestItem8TournamentHeadsUpBust(t *testing.T) {
	bust := func(t *testing.T) (*game, table.Step) {
		g := newGame(t, "tournament", "buyin=100", "stack=1000", "rebuy=1", "levels=20m", "timer=off")
		g.s.DealDelay = 3 * time.Second
		g.do(table.State.Join, alice)
		g.do(table.State.Join, bob)
		// Alice draws the button (the small blind heads-up) and moves in with kings; Bob calls with 7-2.
		g.script("As Kd", "7c Kc 2d Kh 6d 3s 8h 9d 5d Jh 6h 4c")
		g.deal()
		st := g.play(act{table.Betting(engine.AllIn).Act, alice}, act{table.Betting(engine.Call).Act, bob})
		g.checkTournament("after Bob's bust")
		return g, st
	}
	t.Run("window closes", func(t *testing.T) {
		g, st := bust(t)
		if st.Ends || !g.s.Open || !st.Timers.Deal {
			t.Fatalf("ends %v, timers %+v: the tournament ended while Bob may still rebuy", st.Ends, st.Timers)
		}
		for _, f := range st.Change.Hand.Tournament.Finishes {
			t.Errorf("the hand's record names a finish while Bob may rebuy: %+v", f)
		}
		if len(g.s.Playing()) != 1 || !g.s.Dealable() {
			t.Errorf("one player with chips and Bob waiting: the dealer must still deal (Dealable %v)", g.s.Dealable())
		}
		before := g.bankroll["U1"]
		st = g.autoDeal()
		if g.s.Open || st.Change.DeleteTable == "" {
			t.Fatalf("the deal after Bob's time did not end the tournament: %+v", st)
		}
		var posts []string
		for _, m := range st.Posts {
			posts = append(posts, m.Text)
		}
		all := strings.Join(posts, "\n")
		for _, want := range []string{"Bob is out in 2nd place.", "Tournament over — results", "1. Alice wins 200 (+100)", "2. Bob (-100)"} {
			if !strings.Contains(all, want) {
				t.Errorf("the end does not say %q:\n%s", want, all)
			}
		}
		if got := g.bankroll["U1"] - before; got != 200 {
			t.Errorf("Alice won %d, want the pool of 200", got)
		}
		g.checkTournament("after the tournament")
	})
	t.Run("declines", func(t *testing.T) {
		g, _ := bust(t)
		st := g.do(table.State.Rebuy, bob, "no")
		if !st.Ends && (st.Next == nil || st.Next.Open) {
			t.Errorf("Bob declined, the only answer the deal waited for: %q, the tournament goes on", st.Reply)
		}
	})
	t.Run("rebuy", func(t *testing.T) {
		g, _ := bust(t)
		g.do(table.State.Rebuy, bob) // the only answer the deal waited for: dealt at once
		if g.s.Hand == nil || len(g.s.Rec.Hand.Seats) != 2 {
			t.Fatal("Bob rebought and is not dealt in heads-up")
		}
		g.checkTournament("after Bob's rebuy")
	})
	t.Run("host ends", func(t *testing.T) {
		g, _ := bust(t)
		st := g.do(table.State.End, host)
		var all string
		for _, m := range st.Posts {
			all += m.Text + "\n"
		}
		if !strings.Contains(all, "Bob is out in 2nd place.") || !strings.Contains(all, "1. Alice wins 200 (+100)") {
			t.Errorf("the host's end:\n%s", all)
		}
		g.checkTournament("after the end")
	})
}

// TestItem8TournamentTwoBustsOneRebuys: Carol and Dave lose their last chips in the same hand, Dave
// having started it with more; Dave has used his one rebuy, so only Carol is offered one, and Dave's
// place waits for her answer. If she rebuys Dave is last, fourth; if not he is third and she fourth.
// A restart in the pause (the record through JSON) keeps them waiting.
func TestItem8TournamentTwoBustsOneRebuys(t *testing.T) {
	bust := func(t *testing.T) (*game, table.Step) {
		g := newGame(t, "tournament", "buyin=100", "stack=1000", "rebuy=1", "levels=20m", "timer=off")
		g.s.DealDelay = 3 * time.Second
		for _, by := range []table.Caller{alice, bob, carol, dave} {
			g.do(table.State.Join, by)
		}
		// Hand 1: Alice has the button, Bob and Carol the blinds; all fold to Carol. Alice and Dave
		// rebuy. Hand 2: Bob's button, Carol and Dave the blinds; Alice moves in with aces, Bob folds,
		// Carol (1,010) and Dave (2,000) call and lose.
		g.script("As Kd Qh Jc", "2c 3c 4c 5c 6c 7d 8d 9c", "7c 8c As Kc 2d 3d Ah Kd 6d 4s 9h Jd 6h Qc 6s 5h")
		g.deal()
		g.play(act{table.Betting(engine.Fold).Act, dave}, act{table.Betting(engine.Fold).Act, alice}, act{table.Betting(engine.Fold).Act, bob})
		g.do(table.State.Rebuy, alice)
		g.do(table.State.Rebuy, dave)
		g.autoDeal()
		st := g.play(act{table.Betting(engine.AllIn).Act, alice}, act{table.Betting(engine.Fold).Act, bob}, act{table.Betting(engine.AllIn).Act, carol}, act{table.Betting(engine.Call).Act, dave})
		if s := g.s.Rec.Seats; s[2].Stack != 0 || s[3].Stack != 0 || s[2].User == "" || s[3].User == "" {
			t.Fatalf("Carol and Dave did not both bust: %+v", s)
		}
		g.checkTournament("after the double bust")
		return g, st
	}
	t.Run("offers", func(t *testing.T) {
		_, st := bust(t)
		for _, want := range []string{
			"Carol is out of chips: `rebuy` within 30 s to be dealt in next hand (100 into the prize pool for 1,000 chips), or `rebuy no` to be out of the tournament now.",
			"Dave is out of chips and cannot rebuy: Dave is placed at the next deal, once it is known who of the others out rebuys.",
		} {
			if !slices.Contains(st.View.Result, want) {
				t.Errorf("the hand's result %q does not say %q", st.View.Result, want)
			}
		}
	})
	t.Run("Carol rebuys", func(t *testing.T) {
		g, _ := bust(t)
		if _, err := g.try(table.State.Rebuy, dave); err == nil || !strings.Contains(err.Error(), "You have used all 1 of your rebuys") {
			t.Errorf("Dave's rebuy: %v", err)
		}
		st := g.do(table.State.Rebuy, carol) // Dave cannot rebuy: hers is the last answer, the deal comes at once
		if !slices.Contains(st.View.Notes, "Dave is out in 4th place.") || g.entry("U4").Place != 4 || g.entry("U3").Place != 0 {
			t.Errorf("notes %q, Dave %+v, Carol %+v: Dave is fourth, Carol plays on", st.View.Notes, g.entry("U4"), g.entry("U3"))
		}
		g.checkTournament("after the deal")
	})
	t.Run("nobody rebuys, after a restart", func(t *testing.T) {
		g, _ := bust(t)
		b, err := json.Marshal(g.s.Rec)
		if err != nil {
			t.Fatal(err)
		}
		var rec table.TableRecord
		if err := json.Unmarshal(b, &rec); err != nil {
			t.Fatal(err)
		}
		if g.s, err = table.Restore(rec); err != nil {
			t.Fatal(err)
		}
		g.s.DealDelay = 3 * time.Second
		if got := g.s.Rec.Tournament.Busted(); !slices.Equal(got, []string{"U3", "U4"}) {
			t.Fatalf("after the restart %v wait to be placed, want Carol and Dave", got)
		}
		// The time to rebuy is the record's: 10 s after the bust, 20 s are left after the restart.
		if ch := g.s.Chores(g.now.Add(10*time.Second), table.Timers{Deal: true}); ch.Pause != 20*time.Second {
			t.Errorf("after the restart the deal comes in %v, want 20s", ch.Pause)
		}
		st := g.autoDeal()
		for _, want := range []string{"Dave is out in 3rd place.", "Carol is out in 4th place.", "2 players left; 1 place paid."} {
			if !slices.Contains(st.View.Notes, want) {
				t.Errorf("the deal's notes %q do not say %q", st.View.Notes, want)
			}
		}
		g.checkTournament("after the deal")
	})
}

// TestRebuyTournamentTwoBustOneDeclines (issue 37 item 2): Carol and Dave lose their last chips in the
// same hand and both may rebuy. The deal waits for both (the host's `deal` is refused with the time
// left); Carol's `rebuy no` leaves Dave to answer; Dave's rebuy is the last answer and the next hand is
// dealt at once, with Carol placed fourth, long before the 30 s are over.
func TestRebuyTournamentTwoBustOneDeclines(t *testing.T) {
	g := newGame(t, "tournament", "buyin=100", "stack=1000", "rebuy=2", "levels=20m", "timer=off")
	g.s.DealDelay = 3 * time.Second
	for _, by := range []table.Caller{alice, bob, carol, dave} {
		g.do(table.State.Join, by)
	}
	g.script("As Kd Qh Jc", "2c 3c 4c 5c 6c 7d 8d 9c", "7c 8c As Kc 2d 3d Ah Kd 6d 4s 9h Jd 6h Qc 6s 5h")
	g.deal()
	g.play(act{table.Betting(engine.Fold).Act, dave}, act{table.Betting(engine.Fold).Act, alice}, act{table.Betting(engine.Fold).Act, bob})
	g.do(table.State.Rebuy, alice)
	g.do(table.State.Rebuy, dave)
	g.autoDeal()
	st := g.play(act{table.Betting(engine.AllIn).Act, alice}, act{table.Betting(engine.Fold).Act, bob}, act{table.Betting(engine.AllIn).Act, carol}, act{table.Betting(engine.Call).Act, dave})
	for _, want := range []string{
		"Carol is out of chips: `rebuy` within 30 s to be dealt in next hand (100 into the prize pool for 1,000 chips), or `rebuy no` to be out of the tournament now.",
		"Dave is out of chips: `rebuy` within 30 s to be dealt in next hand (100 into the prize pool for 1,000 chips), or `rebuy no` to be out of the tournament now.",
	} {
		if !slices.Contains(st.View.Result, want) {
			t.Errorf("the hand's result %q does not say %q", st.View.Result, want)
		}
	}
	if tv := table.TournamentView(g.s.Rec, g.now); tv.Left != 2 || tv.RebuyIn != "Carol and Dave may rebuy: 30 s left" {
		t.Errorf("the table says %d of %d left, %q: want 2 left (Carol and Dave are out unless they rebuy) and their countdown", tv.Left, tv.Entrants, tv.RebuyIn)
	}
	g.now = g.now.Add(4 * time.Second)
	if _, err := g.try(table.State.Deal, host); err == nil || !strings.Contains(err.Error(), "Carol and Dave may still rebuy, 26 s left") {
		t.Errorf("the host's deal while both may rebuy: %v", err)
	}
	st = g.do(table.State.Rebuy, carol, "no")
	if st.View != nil || g.s.Hand != nil || st.Reply != "You do not rebuy: you are out of the tournament, placed when the next hand is dealt." {
		t.Fatalf("Carol's decline dealt while Dave may still rebuy: %q", st.Reply)
	}
	if _, err := g.try(table.State.Rebuy, carol, "no"); err == nil || !strings.Contains(err.Error(), "You said already") {
		t.Errorf("Carol's second decline: %v", err)
	}
	if _, err := g.try(table.State.Deal, host); err == nil || !strings.Contains(err.Error(), "Dave may still rebuy, 26 s left") {
		t.Errorf("the host's deal while Dave may rebuy: %v", err)
	}
	if tv := table.TournamentView(g.s.Rec, g.now); tv.RebuyIn != "Dave may rebuy: 26 s left" {
		t.Errorf("the countdown after Carol's decline: %q", tv.RebuyIn)
	}
	st = g.do(table.State.Rebuy, dave)
	if st.View == nil || st.View.Deal == nil || g.s.Hand == nil {
		t.Fatalf("Dave's rebuy, the last answer: %q, no deal", st.Reply)
	}
	if !slices.Contains(st.View.Notes, "Carol is out in 4th place.") || g.entry("U3").Place != 4 || g.entry("U4").Place != 0 || g.s.PlayerOf(3) < 0 {
		t.Errorf("notes %q, Carol %+v, Dave %+v: Carol is fourth, Dave dealt in", st.View.Notes, g.entry("U3"), g.entry("U4"))
	}
	if tv := table.TournamentView(g.s.Rec, g.now); tv.Left != 3 || tv.RebuyIn != "" {
		t.Errorf("after the deal the table says %d left, %q", tv.Left, tv.RebuyIn)
	}
	g.checkTournament("after the deal")
	if _, err := g.try(table.State.Rebuy, bob, "no"); err == nil || !strings.Contains(err.Error(), "`rebuy no` answers the offer to rebuy when you are out of chips") {
		t.Errorf("Bob's `rebuy no` with chips: %v", err)
	}
}
