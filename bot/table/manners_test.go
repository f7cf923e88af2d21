package table_test

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/dealerbot/dealerbot/bot/table"
	"github.com/dealerbot/dealerbot/engine"
)

// Table manners (RULES.md section 11): the clock and the absent check when checking is free, the big
// blind moves forward one player, a fold when checking is free is never an accident.

// scripted is a table.Random that deals the given decks in order (the first hand's first deck is
// the draw for the button), then shuffles.
type scripted struct {
	decks []engine.Deck
	rest  seeded
}

func (s *scripted) Deck() (engine.Deck, error) {
	if len(s.decks) == 0 {
		return s.rest.Deck()
	}
	d := s.decks[0]
	s.decks = s.decks[1:]
	return d, nil
}

func (s *scripted) Salt() (string, error) { return s.rest.Salt() }

// script makes the game deal these decks, each written as its first cards ("Ac 2d ...").
func (g *game) script(decks ...string) {
	g.t.Helper()
	sc := &scripted{rest: newSeeded(9)}
	for _, d := range decks {
		cards, err := engine.ParseCards(d)
		if err != nil {
			g.t.Fatal(err)
		}
		deck, err := engine.DeckFrom(cards)
		if err != nil {
			g.t.Fatal(err)
		}
		sc.decks = append(sc.decks, deck)
	}
	g.rand = sc
}

// toAct is the player to act.
func (g *game) toAct() table.Caller {
	g.t.Helper()
	if g.s.Hand == nil || g.s.Hand.Done() {
		g.t.Fatal("nobody is to act")
	}
	st := g.s.Rec.Seats[g.s.Rec.Hand.Seats[g.s.Hand.ToAct()]]
	return table.Caller{User: st.User, Name: st.Name}
}

// absent reports whether the dealer acts at once for the player to act, who is leaving or away.
func (g *game) absent() bool { return g.s.Chores(g.now, table.Timers{Turn: true}).Forfeit }

// positions are the names of the running hand's button, small blind and big blind, read from the
// blinds it posted.
func (g *game) positions() (button, small, big string) {
	g.t.Helper()
	names := g.s.Names()
	for _, ev := range g.s.Hand.Events() {
		switch ev.Kind {
		case engine.EvSmallBlind:
			small = names.Name(ev.Player)
		case engine.EvBigBlind:
			big = names.Name(ev.Player)
		}
	}
	return names.Name(g.s.Hand.Button()), small, big
}

// clock runs the turn timer out for the player to act.
func (g *game) clock() table.Step {
	g.t.Helper()
	st, err := g.s.Timeout(g.now)
	if err != nil {
		g.t.Fatalf("timeout: %v", err)
	}
	g.take(st)
	return st
}

// lastAction is the kind of the running (or last) hand's last action.
func lastAction(h *engine.Hand) engine.ActionKind {
	acts := h.Actions()
	return acts[len(acts)-1].Kind
}

// TestR21TimeoutChecks: blinds 5/10, the small blind calls, the big blind's timer runs out: the big
// blind checks and the flop is dealt. Had the small blind raised to 30, the big blind would fold.
func TestR21TimeoutChecks(t *testing.T) {
	g := newGame(t, "blinds=5/10")
	g.do(table.State.Join, alice)
	g.do(table.State.Join, bob)
	g.deal()
	_, small, big := g.positions()
	if got := g.toAct().Name; got != small {
		t.Fatalf("heads-up the small blind acts first pre-flop, not %s", got)
	}
	g.do(table.Betting(engine.Call).Act, g.toAct())
	if got := g.toAct().Name; got != big {
		t.Fatalf("%s is to act after the call, want the big blind %s", got, big)
	}
	st := g.clock()
	if got := lastAction(g.s.Hand); got != engine.Check {
		t.Fatalf("the big blind's timeout with nothing to call was a %v, want a check", got)
	}
	if st.View == nil || st.View.RanOut != big {
		t.Errorf("the step says whose time ran out: %+v", st.View)
	}
	if got, want := len(g.s.Hand.Board()), 3; got != want || g.s.Hand.Done() {
		t.Fatalf("after the check the flop is dealt: board %d cards, done %v", got, g.s.Hand.Done())
	}
	g.check("after the check")

	// The next hand: the small blind raises to 30 and the big blind's time runs out: a fold.
	for g.s.Hand != nil {
		g.clock()
	}
	g.deal()
	_, small, big = g.positions()
	stack := func(name string) int64 {
		return g.s.Rec.Seats[g.s.SeatOf(map[string]string{"Alice": alice.User, "Bob": bob.User}[name])].Stack
	}
	smallBefore, bigBefore := stack(small), stack(big) // the seats keep the stacks from before the hand until it ends
	g.do(table.Betting(engine.Raise).Act, g.toAct(), "30")
	g.clock()
	if g.s.Hand != nil || lastAction(g.s.Last.Hand) != engine.Fold {
		t.Fatalf("facing a raise the big blind's timeout folds: hand running %v", g.s.Hand != nil)
	}
	if got, want := stack(small), smallBefore+10; got != want {
		t.Errorf("the small blind has %d after the fold, want %d (the big blind's 10 won)", got, want)
	}
	if got, want := stack(big), bigBefore-10; got != want {
		t.Errorf("the big blind has %d after the fold, want %d", got, want)
	}
	g.check("after the fold")
}

// TestR21AbsentChecks: a player who is away but still dealt in is checked for when nothing is owed
// and folded otherwise, as the clock does: a tournament player who left, blinded out as the big blind
// after limps, and a cash player who typed `leave` during the hand.
func TestR21AbsentChecks(t *testing.T) {
	for _, tc := range []struct {
		name string
		opts []string
	}{
		{"tournament player who left", []string{"tournament", "buyin=1000", "stack=1000", "blinds=5/10"}},
		{"cash player leaving after the hand", []string{"blinds=5/10"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := newGame(t, tc.opts...)
			for _, p := range []table.Caller{alice, bob, carol} {
				g.do(table.State.Join, p)
			}
			g.deal()
			button, small, big := g.positions()
			who := map[string]table.Caller{"Alice": alice, "Bob": bob, "Carol": carol}
			g.do(table.State.Leave, who[big])
			if g.absent() {
				t.Fatalf("the big blind is away, but it is %s's turn", g.toAct().Name)
			}
			if got := g.toAct().Name; got != button {
				t.Fatalf("%s acts first pre-flop, want the button %s", got, button)
			}
			g.do(table.Betting(engine.Call).Act, who[button])
			g.do(table.Betting(engine.Call).Act, who[small])
			if !g.absent() || g.toAct().Name != big {
				t.Fatalf("the big blind %s is to act and away: absent %v", big, g.absent())
			}
			st, err := g.s.Forfeit(g.now)
			if err != nil {
				t.Fatal(err)
			}
			g.take(st)
			if got := lastAction(g.s.Hand); got != engine.Check {
				t.Fatalf("the absent big blind with nothing to call: %v, want a check", got)
			}
			if got := len(g.s.Hand.Board()); got != 3 {
				t.Fatalf("after the check the flop is dealt: %d cards", got)
			}
			if st.View != nil && st.View.RanOut != "" {
				t.Errorf("an absent player's check is not a timeout: %q ran out", st.View.RanOut)
			}
			g.check("after the check")

			// On the flop the small blind bets: the absent player folds.
			if got := g.toAct().Name; got != small {
				t.Fatalf("%s acts first on the flop, want the small blind %s", got, small)
			}
			g.do(table.Betting(engine.Bet).Act, who[small], "10")
			if !g.absent() {
				t.Fatalf("%s is to act, want the absent %s", g.toAct().Name, big)
			}
			g.take(must(g.s.Forfeit(g.now)))
			if got := lastAction(g.s.Hand); got != engine.Fold {
				t.Fatalf("the absent player facing a bet: %v, want a fold", got)
			}
			g.check("after the fold")
		})
	}
}

func must(st table.Step, err error) table.Step {
	if err != nil {
		panic(err)
	}
	return st
}

var dan = table.Caller{User: "U4", Name: "Dan"}

// TestR22NoBigBlindTwice: the big blind moves forward one player each hand, and the small blind and
// the button follow from it, so nobody posts the big blind twice in a row.
func TestR22NoBigBlindTwice(t *testing.T) {
	type hand struct{ button, small, big string }
	pos := func(g *game) hand {
		b, s, bb := g.positions()
		return hand{b, s, bb}
	}
	// A, B, C in seats 1-3; hand 1: C has the button, A posts the small blind, B the big blind. C
	// busts. Hand 2 is heads-up: A posts the big blind, B has the button and posts the small blind.
	t.Run("three to heads-up", func(t *testing.T) {
		g := newGame(t, "blinds=5/10")
		for _, p := range []table.Caller{alice, bob, carol} {
			g.do(table.State.Join, p)
		}
		// The draw gives Carol the button; Alice's aces beat Carol's seven-deuce.
		g.script("2c 3d Ah", "As Kc 7h Ad Qc 2s 3c Kd 9h 4h 5c Jd 6d Jc")
		g.deal()
		if got, want := pos(g), (hand{"Carol", "Alice", "Bob"}); got != want {
			t.Fatalf("hand 1: button, small blind, big blind %v, want %v", got, want)
		}
		g.do(table.Betting(engine.AllIn).Act, carol)
		g.do(table.Betting(engine.Call).Act, alice)
		g.do(table.Betting(engine.Fold).Act, bob)
		if g.s.Hand != nil || g.s.Rec.Seats[2].Stack != 0 {
			t.Fatalf("carol busts in hand 1: stack %d", g.s.Rec.Seats[2].Stack)
		}
		g.check("after hand 1")
		g.deal()
		if got, want := pos(g), (hand{"Bob", "Bob", "Alice"}); got != want {
			t.Fatalf("hand 2 heads-up: button, small blind, big blind %v, want %v (Bob posted the big blind last hand)", got, want)
		}
		g.check("after the deal of hand 2")
	})
	// Four players A, B, C, D: button A, small blind B, big blind C; B leaves; next hand: big blind
	// D, small blind C, button A. Alice keeps the button and is under the gun for a straddle.
	t.Run("the small blind leaves", func(t *testing.T) {
		g := newGame(t, "blinds=5/10", "straddle=on")
		for _, p := range []table.Caller{alice, bob, carol, dan} {
			g.do(table.State.Join, p)
		}
		g.script("Ah 2c 3d 4s")
		g.deal()
		if got, want := pos(g), (hand{"Alice", "Bob", "Carol"}); got != want {
			t.Fatalf("hand 1: button, small blind, big blind %v, want %v", got, want)
		}
		for _, p := range []table.Caller{dan, alice, bob} {
			g.do(table.Betting(engine.Fold).Act, p)
		}
		g.do(table.State.Leave, bob)
		if _, err := g.try(table.State.Straddle, dan); err == nil || !strings.Contains(err.Error(), "(Alice is)") {
			t.Fatalf("dan, the next big blind, straddles: %v", err)
		}
		g.do(table.State.Straddle, alice)
		g.deal()
		if got, want := pos(g), (hand{"Alice", "Carol", "Dan"}); got != want {
			t.Fatalf("hand 2: button, small blind, big blind %v, want %v", got, want)
		}
		if !g.s.Rec.Hand.Straddle {
			t.Error("alice, under the gun, straddles hand 2")
		}
		g.check("after the deal of hand 2")
	})
	// When nobody joins or leaves, the button moves one seat each hand.
	t.Run("nobody joins or leaves", func(t *testing.T) {
		g := newGame(t, "blinds=5/10")
		for _, p := range []table.Caller{alice, bob, carol, dan} {
			g.do(table.State.Join, p)
		}
		g.script("Ah 2c 3d 4s")
		want := []hand{{"Alice", "Bob", "Carol"}, {"Bob", "Carol", "Dan"}, {"Carol", "Dan", "Alice"}, {"Dan", "Alice", "Bob"}, {"Alice", "Bob", "Carol"}}
		for i, w := range want {
			g.deal()
			if got := pos(g); got != w {
				t.Fatalf("hand %d: button, small blind, big blind %v, want %v", i+1, got, w)
			}
			for g.s.Hand != nil {
				g.do(table.Betting(engine.Fold).Act, g.toAct())
			}
		}
		g.check("after five hands")
	})
}

// TestButtonSkipsEmptyAndSittingOut: an empty seat and a player sitting out are dealt no cards and
// skipped by the button, which stays where the draw put it for the first hand and then moves
// clockwise over the seats dealt in; no chip is made or lost. One player with chips, or none sitting
// in, is not a hand.
func TestButtonSkipsEmptyAndSittingOut(t *testing.T) {
	erin := table.Caller{User: "U5", Name: "Erin"}
	g := newGame(t, "blinds=5/10")
	for _, p := range []table.Caller{alice, bob, carol, dan, erin} {
		g.do(table.State.Join, p)
	}
	g.do(table.State.Leave, bob)  // seat 1 empty
	g.do(table.State.SitOut, dan) // seat 3 sitting out
	g.script("Ah 2c 3d")          // the draw, to seats 0, 2 and 4: Alice's ace takes the button
	var buttons []string
	for i := 0; i < 4; i++ {
		g.deal()
		if got, want := g.s.Rec.Hand.Seats, []int{0, 2, 4}; !slices.Equal(got, want) {
			t.Fatalf("hand %d dealt seats %v, want %v", i+1, got, want)
		}
		b, _, _ := g.positions()
		buttons = append(buttons, b)
		for g.s.Hand != nil {
			g.do(table.Betting(engine.Fold).Act, g.toAct())
		}
		g.check(fmt.Sprintf("after hand %d", i+1))
	}
	if want := []string{"Alice", "Carol", "Erin", "Alice"}; !slices.Equal(buttons, want) {
		t.Fatalf("buttons %v, want %v", buttons, want)
	}
	g.do(table.State.SitOut, carol)
	g.do(table.State.SitOut, erin)
	if _, err := g.s.Deal(g.now, host, nil, g.inputs(host)); err == nil || !strings.Contains(err.Error(), "A hand needs two players") {
		t.Fatalf("a deal to one player sitting in: %v, want a refusal", err)
	}
}

// TestR23FoldWhenFree: the big blind, with nothing to call after limps, types `fold`: nothing changes
// and the reply says checking is free; `fold` again folds the hand. The reminder is for one turn: a
// fold on a later turn when checking is free is answered again, and a fold facing a bet folds at once.
func TestR23FoldWhenFree(t *testing.T) {
	g := newGame(t, "blinds=5/10")
	for _, p := range []table.Caller{alice, bob, carol} {
		g.do(table.State.Join, p)
	}
	g.script("2c 3d Ah") // carol has the button, alice the small blind, bob the big blind
	g.deal()
	g.do(table.Betting(engine.Call).Act, carol)
	g.do(table.Betting(engine.Call).Act, alice)
	const reminder = "Nothing to call: you can check. Type fold again to fold anyway."
	before := snapshot(g.s)
	st := g.do(table.Betting(engine.Fold).Act, bob)
	if st.Reply != reminder {
		t.Fatalf("bob's first fold with nothing to call: reply %q, want %q", st.Reply, reminder)
	}
	if !reflect.DeepEqual(before, snapshot(g.s)) || !st.Change.Empty() || st.View != nil || len(st.Posts) != 0 || st.Timers != (table.Timers{}) {
		t.Fatalf("the reminder changed the hand or said something to the channel: %+v", st)
	}
	if got := g.toAct().Name; got != "Bob" {
		t.Fatalf("after the reminder it is still bob's turn, not %s's", got)
	}
	g.do(table.Betting(engine.Fold).Act, bob)
	if p := g.s.PlayerOf(g.s.SeatOf(bob.User)); !g.s.Hand.Folded(p) || len(g.s.Hand.Board()) != 3 {
		t.Fatalf("bob's second fold folds and the flop comes: folded %v, board %d cards", g.s.Hand.Folded(p), len(g.s.Hand.Board()))
	}
	g.check("after bob's fold")

	// On the flop alice may check: her fold is answered again (a new turn), and a check still works.
	if st := g.do(table.Betting(engine.Fold).Act, alice); st.Reply != reminder {
		t.Fatalf("alice's fold on the flop: reply %q", st.Reply)
	}
	g.do(table.Betting(engine.Check).Act, alice)
	// bob's reminder was for his turn pre-flop; carol's fold facing a bet folds at once.
	g.do(table.Betting(engine.Check).Act, carol)
	g.do(table.Betting(engine.Bet).Act, alice, "10")
	if st := g.do(table.Betting(engine.Fold).Act, carol); st.Reply == reminder || g.s.Hand != nil {
		t.Fatalf("carol's fold facing a bet: reply %q, hand running %v", st.Reply, g.s.Hand != nil)
	}
	g.check("after carol's fold")
}

// TestRaiseTo: `raise to 40`, `bet to 40` and `raise 40` all name the same total; a raise that names
// no amount, or more than one, is refused with a sentence and changes nothing.
func TestRaiseTo(t *testing.T) {
	deal := func(t *testing.T) *game {
		g := newGame(t, "blinds=5/10")
		for _, p := range []table.Caller{alice, bob, carol} {
			g.do(table.State.Join, p)
		}
		g.script("2c 3d Ah") // carol has the button and acts first pre-flop
		g.deal()
		return g
	}
	total := func(g *game, who table.Caller) int64 {
		return g.s.Hand.Bets()[g.s.PlayerOf(g.s.SeatOf(who.User))]
	}
	for _, typed := range []string{"raise 40", "raise to 40", "raise To 40", "bet to 40", "bet 40"} {
		t.Run(typed, func(t *testing.T) {
			g := deal(t)
			verb, args, _ := strings.Cut(typed, " ")
			v := map[string]verbFunc{"raise": table.Betting(engine.Raise).Act, "bet": table.Betting(engine.Bet).Act}[verb]
			if verb == "bet" { // a bet opens a street: everyone checks to the flop first
				g.do(table.Betting(engine.Call).Act, carol)
				g.do(table.Betting(engine.Call).Act, alice)
				g.do(table.Betting(engine.Check).Act, bob)
				if got := g.toAct(); got != alice {
					t.Fatalf("%s acts first on the flop, want alice", got.Name)
				}
				g.do(v, alice, strings.Fields(args)...)
				if got := total(g, alice); got != 40 {
					t.Fatalf("%q: alice's bet is %d, want 40", typed, got)
				}
			} else {
				g.do(v, carol, strings.Fields(args)...)
				if got := total(g, carol); got != 40 {
					t.Fatalf("%q: carol's bet is %d, want 40 in all", typed, got)
				}
			}
			g.check(typed)
		})
	}
	g := deal(t)
	for _, r := range []refusal{
		{"raise to nothing", table.Betting(engine.Raise).Act, carol, []string{"to"}, "Say how much: `raise 60` makes your bet 60 in all."},
		{"raise to abc", table.Betting(engine.Raise).Act, carol, []string{"to", "abc"}, `"abc" is not a number of chips: write it in digits, like ` + "`raise 60`."},
		{"two amounts", table.Betting(engine.Raise).Act, carol, []string{"40", "60"}, "Say one amount: `raise 60` makes your bet 60 in all."},
		{"raise to 40 now", table.Betting(engine.Raise).Act, carol, []string{"to", "40", "now"}, "Say one amount"},
	} {
		before := snapshot(g.s)
		_, err := r.v(g.s, g.now, r.by, r.args, g.inputs(r.by))
		if err == nil || !strings.Contains(err.Error(), r.want) {
			t.Errorf("%s: got %v, want a refusal containing %q", r.name, err, r.want)
		}
		if !reflect.DeepEqual(before, snapshot(g.s)) {
			t.Errorf("%s: the refusal changed the table", r.name)
		}
	}
}
