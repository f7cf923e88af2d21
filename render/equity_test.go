package render

import (
	"strings"
	"testing"

	"github.com/dealerbot/dealerbot/engine"
)

func hole(s string) [2]engine.Card {
	cs := engine.MustParseCards(s)
	return [2]engine.Card{cs[0], cs[1]}
}

func TestEquity(t *testing.T) {
	names := Names{"Alice", "Bob", "Carol"}
	aa := engine.Revealed{Player: 0, Cards: hole("As Ah")}
	kk := engine.Revealed{Player: 1, Cards: hole("Ks Kd")}
	qq := engine.Revealed{Player: 2, Cards: hole("Qc Qd")}
	for _, tc := range []struct {
		name string
		v    EquityView
		want string
	}{
		{"heads-up with ties", EquityView{Names: names, Hands: []engine.Revealed{aa, kk}, Results: []engine.EquityResult{
			{Wins: 8195, Ties: 46, Losses: 1759}, {Wins: 1759, Ties: 46, Losses: 8195}}},
			"Chances to win: Alice A♠ A♥ 81.95% · Bob K♠ K♦ 17.59% (tie 0.46%)"},
		{"on a board, no ties", EquityView{Names: names, Hands: []engine.Revealed{aa, kk},
			Board: engine.MustParseCards("7d 5h 9d"), Results: []engine.EquityResult{{Wins: 900, Losses: 90}, {Wins: 90, Losses: 900}}},
			"Chances to win on 7♦ 5♥ 9♦: Alice A♠ A♥ 90.91% · Bob K♠ K♦ 9.09%"},
		{"three-way, ties differ", EquityView{Names: names, Hands: []engine.Revealed{aa, kk, qq}, Results: []engine.EquityResult{
			{Wins: 700, Ties: 0, Losses: 300}, {Wins: 150, Ties: 20, Losses: 830}, {Wins: 130, Ties: 20, Losses: 850}}},
			"Chances to win: Alice A♠ A♥ 70.00% · Bob K♠ K♦ 15.00% (tie 2.00%) · Carol Q♣ Q♦ 13.00% (tie 2.00%)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Equity(tc.v, TextCards).Text; got != tc.want {
				t.Errorf("Equity =\n%q\nwant\n%q", got, tc.want)
			}
		})
	}
}

// TestEquityFromEngine renders the engine's own figures: quad aces on the flop cannot lose.
func TestEquityFromEngine(t *testing.T) {
	hands := []engine.Revealed{{Player: 0, Cards: hole("Ac Kd")}, {Player: 1, Cards: hole("Ks Kh")}}
	board := engine.MustParseCards("As Ad Ah")
	res, err := engine.Equity([][2]engine.Card{hands[0].Cards, hands[1].Cards}, board)
	if err != nil {
		t.Fatal(err)
	}
	got := Equity(EquityView{Names: Names{"Alice", "Bob"}, Hands: hands, Board: board, Results: res}, EmojiCards).Text
	want := "Chances to win on A♠️ A🔷 A♥️: Alice A🍀 K🔷 100.00% · Bob K♠️ K♥️ 0.00%"
	if got != want {
		t.Errorf("Equity =\n%q\nwant\n%q", got, want)
	}
	if strings.Contains(got, "tie") {
		t.Error("a hand that cannot tie is shown with a tie chance")
	}
}
