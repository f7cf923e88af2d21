package engine_test

import (
	"fmt"

	"github.com/dealerbot/dealerbot/engine"
)

// A heads-up hand from a scripted deck (cards go out one at a time from the big blind, so player 0
// gets As Ah): the button raises, the big blind calls, both check to the
// river, and the better hand takes the pot.
func ExampleNewHand() {
	deck, _ := engine.DeckFrom(engine.MustParseCards("Ks As Kd Ah 2c 7d 9h Js 3c 4c 5d Qh"))
	h, _ := engine.NewHand(engine.Setup{
		Rules:  engine.Rules{Variant: engine.NoLimit, SmallBlind: 5, BigBlind: 10},
		Stacks: []int64{1000, 1000},
		Button: 0,
		Deck:   deck,
	})
	o, _ := h.Options()
	fmt.Printf("player %d to act: call %d, or raise to %d..%d\n", o.Player, o.ToCall, o.MinTo, o.MaxTo)
	script := []engine.Action{
		{Player: 0, Kind: engine.Raise, Amount: 30},
		{Player: 1, Kind: engine.Call},
		{Player: 1, Kind: engine.Check}, {Player: 0, Kind: engine.Check},
		{Player: 1, Kind: engine.Check}, {Player: 0, Kind: engine.Check},
		{Player: 1, Kind: engine.Check}, {Player: 0, Kind: engine.Check},
	}
	for _, a := range script {
		if _, err := h.Apply(a); err != nil {
			fmt.Println(err)
		}
	}
	for _, e := range h.Events() {
		switch e.Kind {
		case engine.EvShow:
			fmt.Printf("player %d shows %s: %s\n", e.Player, engine.FormatCards(e.Cards), e.Value.Description)
		case engine.EvAward:
			fmt.Printf("pot of %d to player %d\n", e.Amount, e.Pots[0].Winners[0])
		}
	}
	fmt.Println("board", engine.FormatCards(h.Board()), "stacks", h.Stacks())
	// Output:
	// player 0 to act: call 5, or raise to 20..1000
	// player 1 shows KsKd: Pair of kings
	// player 0 shows AsAh: Pair of aces
	// pot of 60 to player 0
	// board 7d9hJs4cQh stacks [1030 970]
}
