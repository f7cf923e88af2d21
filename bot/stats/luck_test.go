package stats

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dealerbot/dealerbot/bot/table"
	"github.com/dealerbot/dealerbot/engine"
)

// scripted is a hand of alice (0, the button), bob (1) and carol (2) at 5/10 whose deck deals the
// given hole cards and board; Final is what the engine pays.
func scripted(t *testing.T, stacks []int64, holes []string, board string, actions []engine.Action) table.HandRecord {
	t.Helper()
	return scriptedGame(t, engine.Rules{Variant: engine.NoLimit, SmallBlind: 5, BigBlind: 10}, stacks, holes, board, actions)
}

// scriptedGame is scripted for a game of rules (Omaha deals four or five rounds).
func scriptedGame(t *testing.T, rules engine.Rules, stacks []int64, holes []string, board string, actions []engine.Action) table.HandRecord {
	t.Helper()
	n := len(stacks)
	// Hole cards are dealt one at a time from the player left of the button, two rounds (four or
	// five in Omaha); then a burn before the flop, the turn and the river.
	var first []engine.Card
	for round := 0; round < rules.Game.HoleCards(); round++ {
		for i := 1; i <= n; i++ {
			first = append(first, engine.MustParseCards(holes[i%n])[round])
		}
	}
	b := engine.MustParseCards(board)
	burns := engine.MustParseCards("2h3h4h")
	first = append(first, burns[0], b[0], b[1], b[2], burns[1], b[3], burns[2], b[4])
	deck, err := engine.DeckFrom(first)
	if err != nil {
		t.Fatal(err)
	}
	h := table.HandRecord{Table: "console/local/console", No: 1, Rules: rules,
		Stacks: stacks, Button: 0, Deck: deck, Actions: actions, Users: []string{"alice", "bob", "carol"}[:n], Names: []string{"alice", "bob", "carol"}[:n]}
	e, err := engine.Replay(h.Setup(), h.Actions)
	if err != nil || !e.Done() {
		t.Fatalf("the scripted hand does not play: %v", err)
	}
	for p := range n {
		if got := engine.FormatCards(e.HoleCards(p)); got != holes[p] {
			t.Fatalf("player %d holds %s, want %s", p, got, holes[p])
		}
	}
	if got := engine.FormatCards(e.Board()); got != board {
		t.Fatalf("the board is %s, want %s", got, board)
	}
	h.Final = e.Stacks()
	return h
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-6 }

// TestAllInAdjustedByHand: two all-ins on the turn whose equities are counted by hand.
func TestAllInAdjustedByHand(t *testing.T) {
	t.Run("heads-up", func(t *testing.T) {
		// alice A♠A♥ against bob K♠K♥, 1,000 each, all in on the turn of 2♣ 7♦ 9♥ J♣. 44 cards can
		// come on the river: bob wins on the two kings left (K♦, K♣), alice on the other 42; no river
		// makes a straight or a flush or a tie. The 2,000 pot is worth 2,000 × 42/44 = 1,909.09 to
		// alice and 2,000 × 2/44 = 90.91 to bob: all-in adjusted, alice +909.09 and bob -909.09.
		// The river is K♦: bob wins the pot, +1,000, so his luck is 1,000 - (-909.09) = +1,909.09.
		h := scripted(t, []int64{1000, 1000}, []string{"AsAh", "KsKh"}, "2c7d9hJcKd", []engine.Action{
			act(0, engine.Call), act(1, engine.Check), // pre-flop: alice (button, small blind) completes
			act(1, engine.Check), act(0, engine.Check), // flop
			act(1, engine.Check), act(0, engine.AllIn), act(1, engine.Call), // turn
		})
		if got, want := h.Final, []int64{0, 2000}; !slices.Equal(got, want) {
			t.Fatalf("final stacks %v, want %v", got, want)
		}
		tl := NewTally()
		tl.Add(&h, nil)
		alice, bob := tl.Lines["alice"], tl.Lines["bob"]
		if alice.Net != -1000 || bob.Net != 1000 || alice.AllIns != 1 || bob.AllIns != 1 {
			t.Fatalf("alice %+v\nbob %+v", alice, bob)
		}
		if !near(alice.Adjusted(), 2000*42.0/44-1000) || !near(bob.Adjusted(), 2000*2.0/44-1000) {
			t.Fatalf("all-in adjusted: alice %.4f, bob %.4f; want %.4f and %.4f", alice.Adjusted(), bob.Adjusted(), 2000*42.0/44-1000, 2000*2.0/44-1000)
		}
		if !near(bob.Luck, 1000-(2000*2.0/44-1000)) || !near(bob.LuckBB, bob.Luck/10) {
			t.Fatalf("bob's luck %.4f (%.4f bb)", bob.Luck, bob.LuckBB)
		}
		want := "Cash games: 1 hand · net +1,000 chips · 10000.0 bb/100\nAll-in adjusted: net -909 chips · -9090.9 bb/100 (luck +1,909 chips in 1 all-in run out)\n"
		if got := bob.Text(); got[:len(want)] != want {
			t.Fatalf("bob's stats:\n%s\nwant them to begin\n%s", got, want)
		}
	})
	t.Run("side pot", func(t *testing.T) {
		// alice A♠A♥ (1,000), bob K♠K♥ (1,000) and carol Q♠Q♥ (100), all in on the turn of 2♣ 7♦ 9♥
		// J♣: carol's 100 makes a main pot of 300 for the three, alice's and bob's other 900 each a
		// side pot of 1,800 for the two. 42 cards can come on the river, and none makes a straight,
		// a flush or a tie: Q♦ or Q♣ (2) give carol trips, K♦ or K♣ (2) bob, the other 38 leave
		// alice's aces best.
		//   main pot 300:  alice 38/42, bob 2/42, carol 2/42
		//   side pot 1,800: alice 40/42 (a queen does not help bob), bob 2/42
		// alice: 300×38/42 + 1,800×40/42 = 83,400/42 = 1,985.71, less 1,000 in: +985.71
		// bob:   300×2/42 + 1,800×2/42 = 4,200/42 = 100, less 1,000 in: -900
		// carol: 300×2/42 = 14.29, less 100 in: -85.71
		// The river is 3♠: alice wins both pots, +1,100, a luck of 1,100 - 985.71 = +114.29.
		h := scripted(t, []int64{1000, 1000, 100}, []string{"AsAh", "KsKh", "QsQh"}, "2c7d9hJc3s", []engine.Action{
			act(0, engine.Call), act(1, engine.Call), act(2, engine.Check), // pre-flop
			act(1, engine.Check), act(2, engine.Check), act(0, engine.Check), // flop
			act(1, engine.Check), act(2, engine.AllIn), act(0, engine.AllIn), act(1, engine.Call), // turn
		})
		if got, want := h.Final, []int64{2100, 0, 0}; !slices.Equal(got, want) {
			t.Fatalf("final stacks %v, want %v", got, want)
		}
		tl := NewTally()
		tl.Add(&h, nil)
		want := map[string]float64{"alice": 83400.0/42 - 1000, "bob": 4200.0/42 - 1000, "carol": 600.0/42 - 100}
		var sum float64
		for user, w := range want {
			l := tl.Lines[user]
			if !near(l.Adjusted(), w) || l.AllIns != 1 {
				t.Errorf("%s: all-in adjusted %.4f in %d all-ins, want %.4f in 1", user, l.Adjusted(), l.AllIns, w)
			}
			sum += l.Adjusted()
		}
		if !near(sum, 0) {
			t.Errorf("the all-in adjusted results add up to %.6f, want 0", sum)
		}
		if l := tl.Lines["alice"]; !near(l.Luck, 1100-(83400.0/42-1000)) {
			t.Errorf("alice's luck %.4f", l.Luck)
		}
		// Left to Settle, the equity comes out the same.
		later := NewTally()
		later.Defer = true
		later.Add(&h, nil)
		if l := later.Lines["alice"]; l.AllIns != 0 || l.Luck != 0 {
			t.Fatalf("a deferred equity was added before Settle: %+v", l)
		}
		Settle(NewTally(), later)
		for user := range want {
			if a, b := *tl.Lines[user], *later.Lines[user]; a.Luck != b.Luck || a.LuckBB != b.LuckBB || a.AllIns != b.AllIns || a.Net != b.Net {
				t.Errorf("%s: settled %+v, at once %+v", user, b, a)
			}
		}
	})
}

// TestAllInAdjustedConserved: over random hands run out after an all-in, the all-in adjusted results
// of each hand add up to zero as the real ones do, nobody expects less than losing what they put in,
// and on the flop and turn the boards dealt here (dealShares, for side pots) give engine.Equity's
// shares for the pots every live hand contests.
func TestAllInAdjustedConserved(t *testing.T) {
	seed := uint64(time.Now().UnixNano())
	r := rand.New(rand.NewPCG(seed, 11))
	runOut := 0
	for i := 0; i < 200; i++ {
		s, acts, h := randomHand(r)
		if h == nil || !h.Done() {
			continue
		}
		w, err := Walk(s, acts)
		if err != nil {
			t.Fatalf("seed %d hand %d: %v", seed, i, err)
		}
		if !w.RunOut {
			continue
		}
		runOut++
		ev, err := Expected(s, acts, w)
		if err != nil {
			t.Fatalf("seed %d hand %d: %v\nsetup %+v\nactions %v", seed, i, err, s, acts)
		}
		var sum float64
		for p, e := range ev {
			sum += e
			if e < -float64(w.Seats[p].Contrib)-1e-9 {
				t.Fatalf("seed %d hand %d: player %d expects %.2f, below what they put in", seed, i, p, e)
			}
		}
		if math.Abs(sum) > 1e-6 {
			t.Fatalf("seed %d hand %d: all-in adjusted results add up to %.6f\nsetup %+v\nactions %v", seed, i, sum, s, acts)
		}
		var live []int
		var hands [][2]engine.Card
		for p := range w.Seats {
			if !h.Folded(p) {
				live, hands = append(live, p), append(hands, h.Hole(p))
			}
		}
		eq, err := engine.Equity(hands, h.Board()[:w.Known])
		if err != nil {
			t.Fatal(err)
		}
		pots := h.Pots()
		dealt := dealShares(h, live, h.Board()[:w.Known], pots, uint64(i))
		// Before the flop dealShares samples sampledBoards boards: within 2 % of the exact share (over
		// four standard errors); from the flop on it deals every board.
		close := near
		if w.Known < 3 {
			close = func(a, b float64) bool { return math.Abs(a-b) < 0.02 }
		}
		for k, pot := range pots {
			if len(pot.Eligible) != len(live) || len(live) < 2 {
				continue
			}
			for j, p := range pot.Eligible {
				if want := eq[slices.Index(live, p)].Share; !close(dealt[k][j], want) {
					t.Fatalf("seed %d hand %d pot %d: player %d's share dealt here %.6f, engine.Equity %.6f", seed, i, k, p, dealt[k][j], want)
				}
			}
		}
	}
	if runOut == 0 {
		t.Fatalf("seed %d: no hand was run out", seed)
	}
}

// TestAllInAdjustedOmaha: a pot-limit Omaha all-in on the turn, its equity counted by hand, and the
// play figures kept apart by game.
func TestAllInAdjustedOmaha(t *testing.T) {
	// alice A♠A♥3♦4♦ against bob K♠K♥5♦6♦, 20 each, all in on the turn of 2♣ 7♦ 9♥ J♣. A hand is
	// exactly two hole cards and three of the board: 40 cards can come on the river; bob wins on the
	// two kings left (trips) and the four eights (5♦6♦ with 7-8-9: a straight), alice on the other
	// 34 (no flush: the board has one diamond; a pair on the board gives aces-up against kings-up).
	// The 40 pot is worth 40 × 34/40 = 34 to alice, 6 to bob: all-in adjusted, alice +14, bob -14.
	// The river is 8♠: bob wins, +20, a luck of 20 - (-14) = +34.
	rules := engine.Rules{Game: engine.Omaha, Variant: engine.PotLimit, SmallBlind: 5, BigBlind: 10}
	h := scriptedGame(t, rules, []int64{20, 20}, []string{"AsAh3d4d", "KsKh5d6d"}, "2c7d9hJc8s", []engine.Action{
		act(0, engine.Call), act(1, engine.Check), // pre-flop
		act(1, engine.Check), act(0, engine.Check), // flop
		act(1, engine.Check), act(0, engine.AllIn), act(1, engine.Call), // turn
	})
	if got, want := h.Final, []int64{0, 40}; !slices.Equal(got, want) {
		t.Fatalf("final stacks %v, want %v", got, want)
	}
	tl := NewTally()
	tl.Add(&h, nil)
	hold := scripted(t, []int64{1000, 1000}, []string{"AsAh", "KsKh"}, "2c7d9hJcKd", []engine.Action{
		act(0, engine.Call), act(1, engine.Check), act(1, engine.Check), act(0, engine.Check),
		act(1, engine.Check), act(0, engine.AllIn), act(1, engine.Call),
	})
	tl.Add(&hold, nil)
	bob := tl.Lines["bob"]
	// The Omaha hand: 20 - (-14); the Hold'em hand of TestAllInAdjustedByHand: 1,000 - (-909.09).
	if want := 34 + 1000 - (2000*2.0/44 - 1000); !near(bob.Luck, want) || bob.AllIns != 2 {
		t.Fatalf("bob's luck %.4f in %d all-ins, want %.4f in 2", bob.Luck, bob.AllIns, want)
	}
	if len(bob.Games) != 2 || bob.Games[engine.Omaha].Dealt != 1 || bob.Games[engine.Holdem].Dealt != 1 || bob.Dealt != 2 {
		t.Fatalf("bob's figures by game %+v (overall %d hands dealt), want a hand of each", bob.Games, bob.Dealt)
	}
	text := bob.Text()
	for _, want := range []string{"\nHold'em: 1 hand · VPIP ", "\nOmaha: 1 hand · VPIP "} {
		if !strings.Contains(text, want) {
			t.Fatalf("bob's stats:\n%s\nwant a line %q", text, want)
		}
	}
}
