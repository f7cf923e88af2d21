package render

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/dealerbot/dealerbot/engine"
)

// omahaDeck orders a deck so that the players (button first to act after it) get holes and the board
// comes out as given, with a spare card burnt before each street.
func omahaDeck(t *testing.T, button int, holes []string, board string) engine.Deck {
	t.Helper()
	used := map[engine.Card]bool{}
	hc := make([][]engine.Card, len(holes))
	for p, s := range holes {
		hc[p] = engine.MustParseCards(s)
		for _, c := range hc[p] {
			used[c] = true
		}
	}
	bc := engine.MustParseCards(board)
	for _, c := range bc {
		used[c] = true
	}
	var spare, order []engine.Card
	for c := engine.Card(0); c < 52; c++ {
		if !used[c] {
			spare = append(spare, c)
		}
	}
	for round := range hc[0] {
		for i := 1; i <= len(hc); i++ {
			order = append(order, hc[(button+i)%len(hc)][round])
		}
	}
	burn := func() { order = append(order, spare[0]); spare = spare[1:] }
	burn()
	order = append(order, bc[:3]...)
	for _, c := range bc[3:] {
		burn()
		order = append(order, c)
	}
	d, err := engine.DeckFrom(order)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// The showdown says both halves of a hi-lo pot in one sentence (RULES.md section 12): R-26's split,
// R-28's quartered low, R-27's no low, and a scoop.
func TestHiLoShowdownWords(t *testing.T) {
	names := Names{"alice", "bob", "carol"}
	for _, tc := range []struct {
		name   string
		holes  []string
		board  string
		script []engine.Action
		want   string
	}{
		{"quartered (R-28)", []string{"3s4sQcJc", "3h4hTc9c", "Kc8d8s6c"}, "Ac2d7hKsKd", nil,
			"carol wins the high (600) with three of a kind, kings, alice and bob split the low (300 and 300) with 7-4-3-2-A (quartered)"},
		{"split (R-26)", []string{"As3sQdJd", "Kh9h9s6c", "TcTdJhJs"}, "2c5d8hKsKc", nil,
			"bob wins the high (600) with three of a kind, kings, alice the low (600) with 8-5-3-2-A"},
		{"no low (R-27)", []string{"As3sQhJd", "Kh9h9s6c", "TcTdJhJs"}, "KcQdTh7s2c", nil,
			"alice wins the pot (1,200) with a straight, ace high, no low"},
		{"scoop", []string{"As2sKdKh", "Th9h9s6c", "TcTdJhJs"}, "3c4d8hKsQc", nil,
			"alice scoops 1,200: the high with three of a kind, kings, the low with 8-4-3-2-A"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h, err := engine.NewHand(engine.Setup{Rules: engine.Rules{Game: engine.OmahaHiLo, Variant: engine.FixedLimit, SmallBlind: 50, BigBlind: 100},
				Stacks: []int64{400, 400, 400}, Button: 2, Deck: omahaDeck(t, 2, tc.holes, tc.board)})
			if err != nil {
				t.Fatal(err)
			}
			evs := h.Events()
			for _, a := range []engine.Action{{Player: 2, Kind: engine.Raise, Amount: 200},
				{Player: 0, Kind: engine.Raise, Amount: 300}, {Player: 1, Kind: engine.Raise, Amount: 400}, {Player: 2, Kind: engine.Call}, {Player: 0, Kind: engine.Call}} {
				more, err := h.Apply(a)
				if err != nil {
					t.Fatal(err)
				}
				evs = append(evs, more...)
			}
			_ = evs
			n := Narrator{Names: names, Style: TextCards, HiLo: true}
			var lines []string
			for _, ev := range h.Events() {
				if l, ok := n.Line(ev); ok {
					lines = append(lines, l)
				}
			}
			if got := strings.Join(lines, "\n"); !strings.Contains(got, tc.want) {
				t.Errorf("showdown:\n%s\nwant a line with %q", got, tc.want)
			}
		})
	}
}

// Omaha's all-in chances show every hole card, and "~" before figures from a sample of the boards.
func TestOmahaEquityLine(t *testing.T) {
	hands := []engine.Revealed{{Player: 0, Hole: engine.MustParseCards("AsAhKsKh")}, {Player: 1, Hole: engine.MustParseCards("9c8c7d6d")}}
	est, err := engine.OmahaEquity(engine.Omaha, [][]engine.Card{hands[0].Hole, hands[1].Hole}, nil, 500, rand.NewPCG(1, 2))
	if err != nil || est.Exact {
		t.Fatalf("%v %+v", err, est)
	}
	got := Equity(EquityView{Names: Names{"alice", "bob"}, Hands: hands, Results: est.Results, Sampled: true}, TextCards).Text
	if !strings.HasPrefix(got, "Chances to win: alice A♠ A♥ K♠ K♥ ~") || !strings.Contains(got, "bob 9♣ 8♣ 7♦ 6♦ ~") {
		t.Errorf("equity line %q", got)
	}
	got = Equity(EquityView{Names: Names{"alice", "bob"}, Hands: hands, Results: est.Results, Sampled: true, Shares: true}, TextCards).Text
	if !strings.HasPrefix(got, "Expected shares of the pot, high and low: alice") {
		t.Errorf("hi-lo equity line %q", got)
	}
}
