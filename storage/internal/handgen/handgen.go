// Package handgen plays random finished hands for the tests of the stores and their codec: the hand
// and ledger codec (storage/record) and the bbolt store (storage) fill themselves with the same hands.
package handgen

import (
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/dealerbot/dealerbot/bot/table"
	"github.com/dealerbot/dealerbot/engine"
)

// Played plays a random finished hand of 2 to 10 players and returns it as the dealer stores it.
func Played(r *rand.Rand, tableID string, no int64) table.HandRecord {
	return PlayedOf(r, 2+r.IntN(9), tableID, no)
}

// PlayedOf plays a random finished hand of n players.
func PlayedOf(r *rand.Rand, n int, tableID string, no int64) table.HandRecord {
	rules := engine.Rules{Variant: engine.Variant(r.IntN(3)), SmallBlind: 5, BigBlind: 10}
	if r.IntN(3) == 0 {
		rules.Ante = 2
	}
	stacks := make([]int64, n)
	names, users, seats := make([]string, n), make([]string, n), make([]int, n)
	for i := range stacks {
		stacks[i] = 100 + r.Int64N(5000)
		names[i] = fmt.Sprintf("player %d", i)
		users[i] = fmt.Sprintf("%018d", r.Int64N(1e18))
		seats[i] = i + 1
	}
	deck := engine.OrderedDeck()
	r.Shuffle(52, func(i, j int) { deck[i], deck[j] = deck[j], deck[i] })
	h, err := engine.NewHand(engine.Setup{Rules: rules, Stacks: stacks, Button: r.IntN(n), Deck: deck})
	if err != nil {
		panic(err)
	}
	for !h.Done() {
		o, _ := h.Options()
		kinds := []engine.Action{{Player: o.Player, Kind: engine.Fold}}
		if o.CanCheck {
			kinds = append(kinds, engine.Action{Player: o.Player, Kind: engine.Check})
		}
		if o.CanCall {
			kinds = append(kinds, engine.Action{Player: o.Player, Kind: engine.Call})
		}
		if o.CanBet || o.CanRaise {
			k := engine.Raise
			if o.CanBet {
				k = engine.Bet
			}
			kinds = append(kinds, engine.Action{Player: o.Player, Kind: k, Amount: o.MinTo})
		}
		if _, err := h.Apply(kinds[r.IntN(len(kinds))]); err != nil {
			panic(err)
		}
	}
	s := h.Setup()
	return table.HandRecord{Table: tableID, No: no, Time: time.Unix(1795450000+no, 123).UTC(), Names: names, Users: users,
		Seats: seats, Size: 10, Rules: rules, Stacks: s.Stacks, Button: s.Button, Deck: s.Deck,
		Salt: "0123456789abcdef0123456789abcdef", Proof: 2, Actions: h.Actions(), Final: h.Stacks(),
		Straddle: r.IntN(3) == 0, RunTwice: r.IntN(3) == 0, BombPot: r.Int64N(3) * 20}
}
