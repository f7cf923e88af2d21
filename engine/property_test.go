package engine

import (
	"flag"
	"math"
	"math/rand/v2"
	"reflect"
	"testing"
	"time"
)

var (
	propSeed  = flag.Uint64("prop.seed", 0, "seed for the random-hand property test (0 = time)")
	propHands = flag.Int("prop.hands", 100000, "hands played by the random-hand property test")
)

// randomSetup makes a random table: 2 to 10 players, stacks from 1 chip up, any structure and ante.
// One table in eight plays near the chip ceiling: blinds up to MaxChips/200 and stacks up to MaxChips,
// so sums of ten full stacks and every pot are exercised where a wrap would show.
func randomSetup(r *rand.Rand) Setup {
	n := 2 + r.IntN(9)
	bb := int64(2 + r.IntN(50))
	huge := r.IntN(8) == 0
	if huge {
		bb = 2 + r.Int64N(MaxChips/200-1)
	}
	rules := Rules{Variant: Variant(r.IntN(3)), SmallBlind: bb / 2, BigBlind: bb}
	switch r.IntN(4) {
	case 1:
		rules.Ante = 1 + int64(r.IntN(int(bb)))
	case 2:
		rules.Ante = bb
		rules.BigBlindAnte = true
	}
	if r.IntN(5) == 0 {
		rules.Chip = int64(1 + r.IntN(5))
	}
	stacks := make([]int64, n)
	for i := range stacks {
		switch r.IntN(4) {
		case 0:
			stacks[i] = 1 + int64(r.IntN(int(2*bb))) // very short: often all-in on the blinds
		default:
			stacks[i] = 1 + int64(r.IntN(int(200*bb)))
		}
		if huge && r.IntN(3) == 0 {
			stacks[i] = MaxChips - r.Int64N(bb) // at the ceiling
		}
	}
	var d Deck = OrderedDeck()
	r.Shuffle(len(d), func(i, j int) { d[i], d[j] = d[j], d[i] })
	s := Setup{Rules: rules, Stacks: stacks, Button: r.IntN(n), Deck: d}
	// Home-game options (RULES.md section 10): a bomb pot now and then, a straddle where allowed, run
	// it twice often.
	s.RunItTwice = r.IntN(3) == 0
	switch r.IntN(8) {
	case 0:
		s.BombPot = 1 + r.Int64N(3*bb)
	case 1, 2:
		s.Straddle = true
		if s.CheckStraddle() != nil {
			s.Straddle = false
		}
	}
	return s
}

// offered lists every action the options allow, with a few amounts for bets and raises.
func offered(o Options, r *rand.Rand) []Action {
	p := o.Player
	if o.RunItTwice {
		return []Action{{Player: p, Kind: RunTwice}, {Player: p, Kind: RunOnce}, {Player: p, Kind: RunTwice}}
	}
	acts := []Action{{Player: p, Kind: Fold}}
	if o.CanCheck {
		acts = append(acts, Action{Player: p, Kind: Check})
	}
	if o.CanCall {
		acts = append(acts, Action{Player: p, Kind: Call})
	}
	if o.CanBet || o.CanRaise {
		k := Raise
		if o.CanBet {
			k = Bet
		}
		acts = append(acts, Action{Player: p, Kind: k, Amount: o.MinTo}, Action{Player: p, Kind: k, Amount: o.MaxTo})
		if o.MaxTo > o.MinTo {
			acts = append(acts, Action{Player: p, Kind: k, Amount: o.MinTo + r.Int64N(o.MaxTo-o.MinTo+1)})
		}
		if o.MaxTo == o.Bet+o.Stack {
			acts = append(acts, Action{Player: p, Kind: AllIn})
		}
	} else if o.CanCall && o.ToCall == o.Stack {
		acts = append(acts, Action{Player: p, Kind: AllIn})
	}
	return acts
}

// refusedSample lists actions the options do not allow.
func refusedSample(h *Hand, o Options) []Action {
	p := o.Player
	if o.RunItTwice {
		return []Action{{Player: p, Kind: Call}, {Player: p, Kind: Raise, Amount: 1 << 40}, {Player: (p + 1) % h.NumPlayers(), Kind: RunTwice}}
	}
	bad := []Action{{Player: (p + 1) % h.NumPlayers(), Kind: Fold}, {Player: p, Kind: Raise, Amount: -5},
		{Player: p, Kind: Raise, Amount: math.MaxInt64}, {Player: p, Kind: Bet, Amount: math.MinInt64}}
	if !o.CanCheck {
		bad = append(bad, Action{Player: p, Kind: Check})
	} else {
		bad = append(bad, Action{Player: p, Kind: Call})
	}
	if o.CanBet || o.CanRaise {
		bad = append(bad, Action{Player: p, Kind: Raise, Amount: o.MaxTo + 1})
		if o.MinTo < o.Bet+o.Stack {
			bad = append(bad, Action{Player: p, Kind: Raise, Amount: o.MinTo - 1})
		}
	} else {
		bad = append(bad, Action{Player: p, Kind: Raise, Amount: o.Bet + o.Stack})
	}
	return bad
}

func TestPropertyRandomHands(t *testing.T) {
	seed := *propSeed
	if seed == 0 {
		seed = uint64(time.Now().UnixNano())
	}
	t.Logf("seed %d (rerun with -prop.seed=%d)", seed, seed)
	r := rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
	hands := *propHands
	for i := 0; i < hands; i++ {
		s := randomSetup(r)
		h, err := NewHand(s)
		if err != nil {
			t.Fatalf("hand %d: NewHand: %v", i, err)
		}
		for steps := 0; !h.Done(); steps++ {
			if steps > 500 {
				t.Fatalf("hand %d: no end after 500 actions", i)
			}
			o, ok := h.Options()
			if !ok {
				t.Fatalf("hand %d: not done but nobody to act", i)
			}
			acts := offered(o, r)
			for _, a := range acts {
				if err := h.Validate(a); err != nil {
					t.Fatalf("hand %d: offered %v refused: %v (options %+v)", i, a, err, o)
				}
			}
			if i%10 == 0 {
				checkPublic(t, i, h)
				before := snapshot(h)
				for _, a := range refusedSample(h, o) {
					if _, err := h.Apply(a); err == nil {
						t.Fatalf("hand %d: %v accepted, options %+v", i, a, o)
					}
				}
				if after := snapshot(h); after != before {
					t.Fatalf("hand %d: refused actions changed the hand", i)
				}
			}
			// Fold rarely, so that many hands reach showdowns and side pots.
			a := acts[r.IntN(len(acts))]
			if a.Kind == Fold && len(acts) > 1 && r.IntN(4) != 0 {
				a = acts[1+r.IntN(len(acts)-1)]
			}
			if _, err := h.Apply(a); err != nil {
				t.Fatalf("hand %d: %v: %v", i, a, err)
			}
		}
		checkHandInvariants(t, i, h)
		if i%10 == 0 {
			checkPublic(t, i, h)
		}
		if i%97 == 0 {
			again, err := Replay(h.Setup(), h.Actions())
			if err != nil {
				t.Fatalf("hand %d: replay: %v", i, err)
			}
			if !reflect.DeepEqual(again.Events(), h.Events()) {
				t.Fatalf("hand %d: replay gave different events", i)
			}
		}
	}
}

func checkHandInvariants(t *testing.T, i int, h *Hand) {
	t.Helper()
	start := h.Setup().Stacks
	end := h.Stacks()
	if total(end) != total(start) {
		t.Fatalf("hand %d: chips %d after, %d before", i, total(end), total(start))
	}
	var put, awarded int64
	for _, c := range h.Contributions() {
		put += c
	}
	var returned int64
	for _, e := range h.Events() {
		switch e.Kind {
		case EvAward:
			for _, s := range e.Pots[0].Shares {
				awarded += s
			}
			if len(e.Pots[0].Winners) == 0 {
				t.Fatalf("hand %d: a pot of %d has no winner", i, e.Amount)
			}
			for _, w := range e.Pots[0].Winners {
				if h.Folded(w) {
					t.Fatalf("hand %d: folded player %d won a pot", i, w)
				}
			}
		case EvReturn:
			returned += e.Amount
		}
	}
	if awarded != put {
		t.Fatalf("hand %d: awarded %d of %d put in", i, awarded, put)
	}
	for p, s := range end {
		if s < 0 {
			t.Fatalf("hand %d: player %d stack %d", i, p, s)
		}
	}
	if h.Pot() != 0 {
		t.Fatalf("hand %d: %d chips left in the middle", i, h.Pot())
	}
	_ = returned
}
