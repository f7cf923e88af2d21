package engine

import (
	"math/rand/v2"
	"testing"
)

// BenchmarkHand plays one complete six-handed no-limit hand to showdown: blinds, a raise and calls
// pre-flop, a bet and calls on the flop, checks on turn and river, showdown and award.
func BenchmarkHand(b *testing.B) {
	r := rand.New(rand.NewPCG(3, 4))
	decks := make([]Deck, 1024)
	for i := range decks {
		decks[i] = OrderedDeck()
		r.Shuffle(52, func(x, y int) { decks[i][x], decks[i][y] = decks[i][y], decks[i][x] })
	}
	stacks := []int64{10000, 10000, 10000, 10000, 10000, 10000}
	rules := Rules{Variant: NoLimit, SmallBlind: 50, BigBlind: 100}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		h, err := NewHand(Setup{Rules: rules, Stacks: stacks, Button: 5, Deck: decks[i%len(decks)]})
		if err != nil {
			b.Fatal(err)
		}
		// Pre-flop: players 2..5 act first; player 2 raises to 300, the rest call.
		h.Apply(Action{Player: 2, Kind: Raise, Amount: 300})
		for _, p := range []int{3, 4, 5, 0, 1} {
			h.Apply(Action{Player: p, Kind: Call})
		}
		h.Apply(Action{Player: 0, Kind: Bet, Amount: 500})
		for _, p := range []int{1, 2, 3, 4, 5} {
			h.Apply(Action{Player: p, Kind: Call})
		}
		for !h.Done() {
			h.Apply(Action{Player: h.ToAct(), Kind: Check})
		}
	}
}
