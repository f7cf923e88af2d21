package stats

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/dealerbot/dealerbot/engine"
)

// randomHand plays a hand with random legal actions through the engine.
func randomHand(r *rand.Rand) (engine.Setup, []engine.Action, *engine.Hand) {
	n := 2 + r.IntN(engine.MaxPlayers-1)
	s := engine.Setup{Rules: engine.Rules{Variant: engine.Variant(r.IntN(3)), SmallBlind: 5, BigBlind: 10}, Button: r.IntN(n)}
	if r.IntN(4) == 0 {
		s.Rules.Ante = 1 + r.Int64N(3)
		s.Rules.BigBlindAnte = r.IntN(2) == 0
	}
	for i := 0; i < n; i++ {
		s.Stacks = append(s.Stacks, 5+r.Int64N(400))
	}
	switch r.IntN(6) {
	case 0:
		s.BombPot = 1 + r.Int64N(20)
	case 1:
		if n > 2 {
			s.Straddle = true
		}
	}
	s.RunItTwice = r.IntN(3) == 0
	deck := engine.OrderedDeck()
	r.Shuffle(52, func(i, j int) { deck[i], deck[j] = deck[j], deck[i] })
	s.Deck = deck
	if s.CheckStraddle() != nil {
		s.Straddle = false
	}
	h, err := engine.NewHand(s)
	if err != nil {
		return s, nil, nil
	}
	var acts []engine.Action
	for !h.Done() {
		o, ok := h.Options()
		if !ok {
			break
		}
		var a engine.Action
		a.Player = o.Player
		switch {
		case o.RunItTwice:
			a.Kind = engine.RunTwice
			if r.IntN(2) == 0 {
				a.Kind = engine.RunOnce
			}
		default:
			var choices []engine.Action
			if o.CanCheck {
				choices = append(choices, engine.Action{Player: o.Player, Kind: engine.Check}, engine.Action{Player: o.Player, Kind: engine.Check})
			} else {
				choices = append(choices, engine.Action{Player: o.Player, Kind: engine.Fold})
			}
			if o.CanCall {
				choices = append(choices, engine.Action{Player: o.Player, Kind: engine.Call}, engine.Action{Player: o.Player, Kind: engine.Call})
			}
			if o.CanBet || o.CanRaise {
				k := engine.Raise
				if o.CanBet {
					k = engine.Bet
				}
				choices = append(choices, engine.Action{Player: o.Player, Kind: k, Amount: o.MinTo + r.Int64N(o.MaxTo-o.MinTo+1)})
				if r.IntN(5) == 0 {
					choices = append(choices, engine.Action{Player: o.Player, Kind: engine.AllIn})
				}
			}
			a = choices[r.IntN(len(choices))]
		}
		if _, err := h.Apply(a); err != nil {
			continue // an all-in that is not allowed here, say: pick again
		}
		acts = append(acts, a)
	}
	return s, acts, h
}

// Walk agrees with the engine's own replay on every hand: who put in how much, voluntarily or not,
// raised pre-flop, saw the flop and the showdown, bet, raised or called after the flop, and whether
// the board was run out after an all-in (the engine's reveal), from how many cards.
func TestWalkAgreesWithTheEngine(t *testing.T) {
	seed := uint64(time.Now().UnixNano())
	r := rand.New(rand.NewPCG(seed, 7))
	for i := 0; i < 5000; i++ {
		s, acts, h := randomHand(r)
		if h == nil || !h.Done() {
			continue
		}
		got, err := Walk(s, acts)
		if err != nil {
			t.Fatalf("seed %d hand %d: %v\nsetup %+v\nactions %v", seed, i, err, s, acts)
		}
		n := len(s.Stacks)
		want := Hand{Seats: make([]Seat, n), Preflop: s.BombPot == 0}
		folded := make([]bool, n)
		flop := false
		for _, e := range h.Events() {
			switch e.Kind {
			case engine.EvAnte, engine.EvSmallBlind, engine.EvBigBlind, engine.EvStraddle:
				want.Seats[e.Player].Contrib += e.Amount
			case engine.EvCall, engine.EvBet, engine.EvRaise:
				want.Seats[e.Player].Contrib += e.Amount
				if e.Street == engine.Preflop {
					want.Seats[e.Player].VPIP = true
					if e.Kind != engine.EvCall {
						want.Seats[e.Player].PFR = true
					}
				} else if e.Kind == engine.EvCall {
					want.Seats[e.Player].Calls++
				} else {
					want.Seats[e.Player].Bets++
				}
			case engine.EvReturn:
				want.Seats[e.Player].Contrib -= e.Amount
			case engine.EvFold:
				folded[e.Player] = true
			case engine.EvReveal:
				want.RunOut, want.Known = true, len(e.Board)
			case engine.EvBoard:
				if !flop {
					flop = true
					for p := range want.Seats {
						want.Seats[p].SawFlop = !folded[p]
					}
				}
			}
		}
		live := 0
		for p := range folded {
			if !folded[p] {
				live++
			}
		}
		want.Showdown = live > 1
		for p := range want.Seats {
			want.Seats[p].Showdown = want.Showdown && !folded[p]
			want.Pot += want.Seats[p].Contrib
			// 3-bets are Walk's own reading: keep them out of the comparison.
			want.Seats[p].ThreeBetOpp, want.Seats[p].ThreeBet = got.Seats[p].ThreeBetOpp, got.Seats[p].ThreeBet
		}
		if !equalHands(got, want) {
			t.Fatalf("seed %d hand %d:\nsetup %+v\nactions %v\nwalk   %+v\nengine %+v", seed, i, s, acts, got, want)
		}
	}
}

func equalHands(a, b Hand) bool {
	if a.Pot != b.Pot || a.Preflop != b.Preflop || a.Showdown != b.Showdown || a.RunOut != b.RunOut || a.Known != b.Known ||
		len(a.Seats) != len(b.Seats) {
		return false
	}
	for i := range a.Seats {
		if a.Seats[i] != b.Seats[i] {
			return false
		}
	}
	return true
}
