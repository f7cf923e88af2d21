package phh

import (
	"bytes"
	"errors"
	"flag"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/dealerbot/dealerbot/engine"
)

var seedFlag = flag.Uint64("phh.seed", 0, "seed for TestFromHandRoundTrip (0: from the clock)")

func mustParse(t testing.TB, s string) *History {
	t.Helper()
	h, err := Parse(strings.NewReader(s))
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func sum(xs []int64) int64 {
	var t int64
	for _, x := range xs {
		t += x
	}
	return t
}

// threeWay is three players checking every street to a showdown the small blind wins with aces.
// ANTES is replaced per test row.
const threeWay = `variant = 'NT'
antes = ANTES
blinds_or_straddles = [10, 20, 0]
min_bet = 20
starting_stacks = [1000, 1000, 1000]
actions = ['d dh p1 AsAd', 'd dh p2 7c2h', 'd dh p3 9d4s', 'p3 cc', 'p1 cc', 'p2 cc',
  'd db Kh8s3c', 'p1 cc', 'p2 cc', 'p3 cc', 'd db 5d', 'p1 cc', 'p2 cc', 'p3 cc',
  'd db Jc', 'p1 cc', 'p2 cc', 'p3 cc', 'p1 sm AsAd', 'p2 sm', 'p3 sm']
`

// headsUp: p2 is the button and posts the small blind, acts first pre-flop and last after the flop.
const headsUp = `variant = 'NT'
antes = [0, 0]
blinds_or_straddles = [1, 2]
min_bet = 2
starting_stacks = [100, 100]
actions = ['d dh p1 AsAd', 'd dh p2 7c2h', 'p2 cbr 6', 'p1 cc', 'd db Kh8s3c', 'p1 cc', 'p2 cbr 4', 'p1 cbr 12', 'p2 f']
`

// allInRunOut shows the hands before the rest of the board is dealt, as real files do.
const allInRunOut = `variant = 'NT'
antes = [0, 0]
blinds_or_straddles = [1, 2]
min_bet = 2
starting_stacks = [100, 60]
actions = ['d dh p1 AhAd', 'd dh p2 KsKd', 'p2 cbr 60', 'p1 cc', 'p2 sm KsKd', 'p1 sm AhAd',
  'd db 2c7h9d', 'd db 3s', 'd db 4h']
`

const fixedLimit = `variant = 'FT'
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
small_bet = 2
big_bet = 4
starting_stacks = [50, 50, 50]
actions = ['d dh p1 ????', 'd dh p2 AsAd', 'd dh p3 KsKd', 'RAISE', 'p1 f', 'p2 cc',
  'd db 2c7h9d', 'p2 cc', 'p3 cbr 2', 'p2 cbr 4', 'p3 cc', 'd db 3s', 'p2 cbr 4', 'p3 cc',
  'd db 4h', 'p2 cc', 'p3 cc', 'p2 sm AsAd', 'p3 sm']
`

func TestReplay(t *testing.T) {
	pluribusWith := func(old, new string) string { return strings.Replace(pluribusHand, old, new, 1) }
	tests := []struct {
		name   string
		input  string
		stacks []int64 // final stacks, p1 first
		board  string
		err    string // part of the error; empty when the replay must succeed
	}{
		{name: "pluribus", input: pluribusHand, stacks: []int64{10310, 9900, 10000, 9790, 10000, 10000}, board: "7d5h9d7cQh"},
		{name: "heads-up button posts the small blind", input: headsUp, stacks: []int64{110, 90}, board: "Kh8s3c"},
		{name: "all-in shown before the run-out", input: allInRunOut, stacks: []int64{160, 0}, board: "2c7h9d3s4h"},
		// The big blind's ante is dead money in the pot the aces win: 60 in blinds and calls plus 20.
		{name: "big-blind ante", input: strings.Replace(threeWay, "ANTES", "[0, 20, 0]", 1),
			stacks: []int64{1060, 960, 980}, board: "Kh8s3c5dJc"},
		{name: "everyone antes", input: strings.Replace(threeWay, "ANTES", "[5, 5, 5]", 1),
			stacks: []int64{1050, 975, 975}, board: "Kh8s3c5dJc"},
		{name: "no antes", input: strings.Replace(threeWay, "ANTES", "[0, 0, 0]", 1),
			stacks: []int64{1040, 980, 980}, board: "Kh8s3c5dJc"},
		{name: "unknown cards of a folded player", input: strings.Replace(strings.Replace(threeWay, "ANTES", "[0, 0, 0]", 1),
			"'d dh p3 9d4s', 'p3 cc'", "'d dh p3 ????', 'p3 cc'", 1), stacks: []int64{1040, 980, 980}, board: "Kh8s3c5dJc"},
		// The big blind is all-in for 1, no more than the small blind posted: nobody is asked, but
		// pokerkit may record the small blind's check anyway. It changes nothing.
		{name: "no-op check after an all-in", input: strings.NewReplacer("[100, 60]", "[100, 1]",
			"'p2 cbr 60', 'p1 cc', ", "'p1 cc', ").Replace(allInRunOut), stacks: []int64{101, 0}, board: "2c7h9d3s4h"},
		// Fixed-limit: a raise to 4 pre-flop, 2 and 4 on the flop, 4 on the turn: the aces win 1 + 12 + 12.
		{name: "fixed-limit", input: strings.Replace(fixedLimit, "RAISE", "p3 cbr 4", 1), stacks: []int64{49, 63, 38}, board: "2c7h9d3s4h"},

		{name: "fixed-limit raise of the wrong size", input: strings.Replace(fixedLimit, "RAISE", "p3 cbr 5", 1),
			err: `action 4 "p3 cbr 5" (engine player 2: raise to 5) refused: In fixed-limit the raise is to exactly 4.`},
		{name: "raise too small", input: pluribusWith("p4 cbr 210", "p4 cbr 150"),
			err: `action 8 "p4 cbr 150" (engine player 3: raise to 150) refused: The smallest raise is to 200.`},
		{name: "out of turn", input: pluribusWith("'p3 f', 'p4 cbr 210'", "'p4 cbr 210', 'p3 f'"),
			err: "It is not your turn: wait for player 2 to act."},
		{name: "ends early", input: pluribusWith(", 'p4 f']", "]"), err: "the actions end before the hand is over: p4 is still to act"},
		{name: "action after the end", input: pluribusWith("'p4 f']", "'p4 f', 'p1 cc']"), err: `action 22 "p1 cc" comes after the hand is over`},
		{name: "call after an all-in run-out", input: strings.Replace(allInRunOut, "'p1 cc', ", "'p1 cc', 'p2 cc', ", 1),
			err: `action 5 "p2 cc" comes after the hand is over`},
		{name: "board dealt after the hand ended", input: strings.Replace(headsUp, "'p2 f']", "'p2 f', 'd db 2d']", 1),
			err: "the file deals 4 board cards but the engine dealt 3 (Kh8s3c)"},
		{name: "six board cards", input: pluribusWith("'p4 f']", "'p4 f', 'd db 2c']"), err: `action "d db 2c": the board has only five cards`},
		{name: "card dealt twice", input: pluribusWith("d dh p2 8s4c", "d dh p2 8sTc"), err: "Tc is dealt twice"},
		{name: "shown cards differ from the dealt ones", input: strings.Replace(strings.Replace(threeWay, "ANTES", "[0, 0, 0]", 1), "'p1 sm AsAd'", "'p1 sm AsAh'", 1),
			err: "the file gives Ad and Ah for the same card"},
		{name: "three hole cards", input: pluribusWith("d dh p2 8s4c", "d dh p2 8s4c2d"), err: "a hold'em player has 2 hole cards, not 3"},
		{name: "mixed antes", input: strings.Replace(threeWay, "ANTES", "[5, 10, 0]", 1), err: "neither equal for everyone nor posted by the big blind alone"},
		{name: "straddle", input: strings.Replace(strings.Replace(threeWay, "ANTES", "[0, 0, 0]", 1), "[10, 20, 0]", "[10, 20, 60]", 1),
			err: "p3 posts a straddle of 60"},
		{name: "half-chip stack", input: pluribusWith("[10000, 10000,", "[10000.5, 10000,"), err: "p1's starting stack is 10000.5: the engine plays whole chips only"},
		{name: "half-chip raise", input: pluribusWith("p4 cbr 210", "p4 cbr 210.5"), err: "the engine plays whole chips only"},
		{name: "no blinds", input: strings.Replace(headsUp, "blinds_or_straddles = [1, 2]\n", "", 1), err: "blinds_or_straddles must list one amount per player"},
		{name: "one player", input: "variant = 'NT'\nstarting_stacks = [100]\n", err: "the hand has 1 players; the engine deals to 2 to 10"},
		{name: "stud action in hold'em", input: strings.Replace(headsUp, "'p2 cbr 6'", "'p2 pb'", 1), err: `"pb" is not an action of hold'em or Omaha`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := mustParse(t, tt.input)
			hand, err := Replay(h)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("Replay error %v, want one containing %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := hand.Stacks(); !reflect.DeepEqual(got, tt.stacks) {
				t.Errorf("final stacks %v, want %v", got, tt.stacks)
			}
			if got, want := sum(hand.Stacks()), sum(hand.Setup().Stacks); got != want {
				t.Errorf("%d chips at the end, %d at the start", got, want)
			}
			if got := engine.FormatCards(hand.Board()); got != tt.board {
				t.Errorf("board %s, want %s", got, tt.board)
			}
		})
	}
}

func TestReplayOtherGame(t *testing.T) {
	_, err := Replay(mustParse(t, otherGame))
	var u *UnsupportedError
	if !errors.As(err, &u) || u.Variant != "FR" {
		t.Fatalf("Replay of a stud hand: %v, want an UnsupportedError for FR", err)
	}
	if got, want := err.Error(), `variant "FR" is not a game dealerbot deals, so it cannot be replayed: only hold'em (NT, FT, PT) and Omaha (PO, FO/8, PO5, PO/8) replay`; got != want {
		t.Errorf("error %q, want %q", got, want)
	}
}

// TestReplayHalfChips: a split pot the file pays in half chips; the engine pays the odd chip to the
// winner first left of the button, so p1 gets 10113 where the file says 10112.5.
func TestReplayHalfChips(t *testing.T) {
	hand, err := Replay(mustParse(t, halfChips))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := hand.Stacks(), []int64{10113, 9775, 10000, 10000, 10112, 10000}; !reflect.DeepEqual(got, want) {
		t.Errorf("final stacks %v, want %v", got, want)
	}
}

// playRandom plays a hand to its end with random legal decisions.
func playRandom(t *testing.T, r *rand.Rand, s engine.Setup) *engine.Hand {
	t.Helper()
	hand, err := engine.NewHand(s)
	if err != nil {
		t.Fatal(err)
	}
	for steps := 0; !hand.Done(); steps++ {
		if steps > 500 {
			t.Fatal("the hand does not end")
		}
		o, ok := hand.Options()
		if !ok {
			t.Fatal("nobody to act in an unfinished hand")
		}
		a := engine.Action{Player: o.Player}
		switch k := r.IntN(10); {
		case o.RunItTwice:
			a.Kind = engine.RunTwice
		case (o.CanBet || o.CanRaise) && k < 3:
			a.Kind = engine.Raise
			if o.CanBet {
				a.Kind = engine.Bet
			}
			a.Amount = o.MinTo
			if o.MaxTo > o.MinTo {
				a.Amount += r.Int64N(o.MaxTo - o.MinTo + 1)
			}
		case o.CanCall && k < 5:
			a.Kind = engine.Fold
		case o.CanCall:
			a.Kind = engine.Call
		default:
			a.Kind = engine.Check
		}
		if _, err := hand.Apply(a); err != nil {
			t.Fatalf("random action %s refused: %v", a, err)
		}
	}
	return hand
}

// TestFromHandRoundTrip: random engine hands written as PHH, read back and replayed end with the same
// stacks, board and hole cards, whatever the button, the number of players and the game.
func TestFromHandRoundTrip(t *testing.T) {
	seed := *seedFlag
	if seed == 0 {
		seed = uint64(time.Now().UnixNano())
	}
	t.Logf("seed %d (rerun with -phh.seed=%d)", seed, seed)
	r := rand.New(rand.NewPCG(seed, 0))
	src := rand.NewChaCha8([32]byte{byte(seed), byte(seed >> 8), byte(seed >> 16), byte(seed >> 24)})
	twice := 0 // Omaha hands run twice
	defer func() {
		if twice == 0 && !t.Failed() {
			t.Errorf("no hand was run twice: the round trip of a second board went untested")
		}
	}()
	for i := 0; i < 300; i++ {
		game := engine.Game(r.IntN(4))
		n := 2 + r.IntN(game.MaxPlayers()-1)
		rules := engine.Rules{Variant: engine.Variant(r.IntN(3)), Game: game, SmallBlind: 5, BigBlind: 10}
		switch r.IntN(3) {
		case 1:
			rules.Ante = 2
		case 2:
			rules.Ante, rules.BigBlindAnte = 10, true
		}
		if r.IntN(4) == 0 {
			rules.Chip = 5
		}
		// Omaha hands run twice when the deck holds the second board: the file says so (runsKey).
		s := engine.Setup{Rules: rules, Stacks: make([]int64, n), Button: r.IntN(n), RunItTwice: game != engine.Holdem && r.IntN(2) == 0}
		for p := range s.Stacks {
			s.Stacks[p] = 1 + r.Int64N(400)
		}
		d, err := engine.ShuffledDeck(src)
		if err != nil {
			t.Fatal(err)
		}
		s.Deck = d
		names := make([]string, n)
		for p := range names {
			names[p] = string(rune('A' + p))
		}
		hand := playRandom(t, r, s)
		h := FromHand(hand, names)
		out, err := h.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		back, err := Parse(bytes.NewReader(out))
		if err != nil {
			t.Fatalf("hand %d: written history does not parse: %v\n%s", i, err, out)
		}
		again, err := Replay(back)
		if err != nil {
			t.Fatalf("hand %d: written history does not replay: %v\n%s", i, err, out)
		}
		// PHH player j is engine player (Button+1+j) mod n.
		final := hand.Stacks()
		for j := 0; j < n; j++ {
			e := (s.Button + 1 + j) % n
			if got, want := again.Stacks()[j], final[e]; got != want {
				t.Fatalf("hand %d: p%d (engine player %d) ends with %d after the round trip, %d in the hand\n%s", i, j+1, e, got, want, out)
			}
			if got, want := back.FinishingStacks[j], float64(final[e]); got != want {
				t.Fatalf("hand %d: finishing_stacks p%d = %v, want %v", i, j+1, got, want)
			}
			if got, want := engine.FormatCards(again.HoleCards(j)), engine.FormatCards(hand.HoleCards(e)); got != want {
				t.Fatalf("hand %d: p%d holds %v after the round trip, %v in the hand", i, j+1, got, want)
			}
			if got, want := back.Players[j], names[e]; got != want {
				t.Fatalf("hand %d: p%d is %q, want %q", i, j+1, got, want)
			}
		}
		if hand.Board2() != nil {
			twice++
		}
		if got, want := back.Variant, Variant(rules.Variant, game); got != want {
			t.Fatalf("hand %d: variant %s, want %s", i, got, want)
		}
		if got, want := engine.FormatCards(again.Board2()), engine.FormatCards(hand.Board2()); got != want {
			t.Fatalf("hand %d: second board %s after the round trip, %s in the hand", i, got, want)
		}
		if got, want := engine.FormatCards(again.Board()), engine.FormatCards(hand.Board()); got != want {
			t.Fatalf("hand %d: board %s after the round trip, %s in the hand", i, got, want)
		}
		if got, want := sum(again.Stacks()), sum(s.Stacks); got != want {
			t.Fatalf("hand %d: %d chips at the end, %d at the start", i, got, want)
		}
	}
}

// TestRedacted: a history fit to publish hides every hole card that was not shown, leaves the
// original alone, and still replays to the same stacks when the hidden hands folded.
func TestRedacted(t *testing.T) {
	showdown, err := Replay(mustParse(t, strings.Replace(threeWay, "ANTES", "[0, 0, 0]", 1)))
	if err != nil {
		t.Fatal(err)
	}
	full := FromHand(showdown, nil)
	out, err := full.Redacted().Marshal()
	if err != nil {
		t.Fatal(err)
	}
	for _, hidden := range []string{"7c2h", "9d4s"} { // mucked at showdown
		if strings.Contains(string(out), hidden) {
			t.Errorf("the redacted history shows the mucked hand %s:\n%s", hidden, out)
		}
	}
	if !strings.Contains(string(out), `"d dh p1 AsAd"`) || !strings.Contains(string(out), `"p1 sm AsAd"`) {
		t.Errorf("the winner's shown hand is missing from the redacted history:\n%s", out)
	}
	if got, want := full.Actions[1], (Action{Player: 2, Op: "dh", Cards: "7c2h"}); got != want {
		t.Errorf("Redacted changed the original: %+v, want %+v", got, want)
	}

	folded, err := Replay(mustParse(t, headsUp))
	if err != nil {
		t.Fatal(err)
	}
	public := FromHand(folded, nil).Redacted()
	for _, a := range public.Actions {
		if a.Op == "dh" && a.Cards != "????" {
			t.Errorf("nobody showed, yet %q is public", a)
		}
	}
	again, err := Replay(public)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := again.Stacks(), folded.Stacks(); !reflect.DeepEqual(got, want) {
		t.Errorf("the redacted history replays to %v, the hand ended %v", got, want)
	}
}
