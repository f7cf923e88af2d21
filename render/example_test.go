package render_test

import (
	"fmt"

	"github.com/dealerbot/dealerbot/engine"
	"github.com/dealerbot/dealerbot/render"
)

func ExampleCards() {
	cs := engine.MustParseCards("As Kh Td 5c")
	fmt.Println(render.Cards(cs, render.TextCards))
	fmt.Println(render.Cards(cs, render.EmojiCards))
	fmt.Println(render.Chips(1250), render.Chips(-200))
	// Output:
	// A♠ K♥ 10♦ 5♣
	// A♠️ K♥️ 10🔷 5🍀
	// 1,250 -200
}

func ExampleHandTable() {
	o := engine.Options{Player: 1, CanCall: true, ToCall: 40, CanRaise: true, MinTo: 80, MaxTo: 1000, Stack: 1000}
	m := render.HandTable(render.HandView{TableView: render.TableView{HandNo: 3, Variant: engine.NoLimit, SmallBlind: 20, BigBlind: 40},
		Turn: &render.TurnView{Name: "Bob", Options: o, SecondsLeft: 60, Token: "3.0", Street: engine.Preflop}}, render.TextCards)
	fmt.Println(m.Text)
	for _, b := range m.Buttons {
		fmt.Printf("%s -> %s\n", b.Label, b.Command)
	}
	// Output:
	// Hand #3 · No-limit 20/40
	// ▶ Bob to act pre-flop — 40 to call. Raise to 80–1,000. 60s left.
	// Fold -> fold
	// Call 40 -> call
	// Raise… -> raise
	// All-in 1,000 -> allin
	// My cards -> cards
}

func ExampleEvents() {
	deck, _ := engine.DeckFrom(engine.MustParseCards("Ks As Kd Ah"))
	h, _ := engine.NewHand(engine.Setup{Rules: engine.Rules{SmallBlind: 5, BigBlind: 10},
		Stacks: []int64{300, 300}, Button: 0, Deck: deck})
	names := render.Names{"Alice", "Bob"}
	evs, _ := h.Apply(engine.Action{Player: 0, Kind: engine.Fold})
	for _, m := range render.Events(append(h.Events()[:2:2], evs...), names, render.TextCards) {
		fmt.Println(m.Text)
	}
	// Output:
	// Alice posts the small blind 5
	// Bob posts the big blind 10
	// Alice folds
	// Uncalled 5 returned to Bob
	// Bob wins 10 — everyone else folded
	// Stacks: Alice 295 · Bob 305
}
