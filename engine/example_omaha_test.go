package engine_test

import (
	"fmt"

	"github.com/dealerbot/dealerbot/engine"
)

// An Omaha hi-lo hand (RULES.md R-26's cards) checked down heads-up: every award says which half of
// the pot it pays, a high half with the winner's Value, a low half with the winner's Low.
func ExampleRules_omahaHiLo() {
	// Hole cards go out one at a time from the big blind (player 1), four rounds; then burn and flop,
	// burn and turn, burn and river.
	deck, _ := engine.DeckFrom(engine.MustParseCards(
		"Kh As 9h 3s 9s Qd 6c Jd" + "Tc 2c5d8h" + "Td Ks" + "Ts Kc"))
	h, _ := engine.NewHand(engine.Setup{
		Rules:  engine.Rules{Game: engine.OmahaHiLo, Variant: engine.FixedLimit, SmallBlind: 5, BigBlind: 10},
		Stacks: []int64{500, 500},
		Button: 0,
		Deck:   deck,
	})
	names := []string{"alice", "bob"}
	h.Apply(engine.Action{Player: 0, Kind: engine.Call})
	for !h.Done() {
		h.Apply(engine.Action{Player: h.ToAct(), Kind: engine.Check})
	}
	for _, e := range h.Events() {
		switch {
		case e.Kind == engine.EvAward && e.Half == engine.HalfLow:
			fmt.Printf("%s wins the low, %d, with %s\n", names[e.Pots[0].Winners[0]], e.Amount, e.Low)
		case e.Kind == engine.EvAward:
			fmt.Printf("%s wins the %s, %d, with %s\n", names[e.Pots[0].Winners[0]], e.Half, e.Amount, e.Value.Description)
		}
	}
	fmt.Println("stacks", h.Stacks())
	// Output:
	// bob wins the high, 10, with Three of a kind, kings
	// alice wins the low, 10, with 8-5-3-2-A
	// stacks [500 500]
}

// Two of the hole cards and three of the board, always: four hearts in the hand and one on the board
// make no flush.
func ExampleBestOmaha() {
	board := engine.MustParseCards("Kh Qh 7h 2c 3d")
	v := engine.BestOmaha(engine.MustParseCards("Ah 9s 8s 4c"), board)
	fmt.Println(v.Description, engine.FormatCards(v.Cards[:]))
	low, ok := engine.BestLow(engine.MustParseCards("Ah 9s 8s 4c"), board)
	fmt.Println(low.Description, ok)
	// Output:
	// High card, ace AhKhQh9s7h
	// 7-4-3-2-A true
}
