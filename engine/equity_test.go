package engine

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"
)

func holes(t testing.TB, hs ...string) [][2]Card {
	t.Helper()
	out := make([][2]Card, len(hs))
	for i, h := range hs {
		cs := MustParseCards(h)
		if len(cs) != 2 {
			t.Fatalf("%q is not two cards", h)
		}
		out[i] = [2]Card{cs[0], cs[1]}
	}
	return out
}

// slowEquity recounts Equity's figures the plain way: build each board as a slice, rank every
// hand with Evaluate, pay the pot to the best hands. Shares are kept as pot fractions per board.
func slowEquity(hands [][2]Card, board []Card) []EquityResult {
	var used [52]bool
	for _, h := range hands {
		used[h[0]], used[h[1]] = true, true
	}
	for _, c := range board {
		used[c] = true
	}
	var rest []Card
	for c := Card(0); c < 52; c++ {
		if !used[c] {
			rest = append(rest, c)
		}
	}
	out := make([]EquityResult, len(hands))
	full := append([]Card(nil), board...)
	boards := 0
	var deal func(from int)
	deal = func(from int) {
		if len(full) == 5 {
			boards++
			ranks := make([]HandRank, len(hands))
			var best HandRank
			for i, h := range hands {
				ranks[i] = Evaluate(append([]Card{h[0], h[1]}, full...)...)
				best = max(best, ranks[i])
			}
			var winners []int
			for i, r := range ranks {
				if r == best {
					winners = append(winners, i)
				} else {
					out[i].Losses++
				}
			}
			for _, w := range winners {
				if len(winners) == 1 {
					out[w].Wins++
				} else {
					out[w].Ties++
				}
				out[w].Share += 1 / float64(len(winners))
			}
			return
		}
		for i := from; i < len(rest); i++ {
			full = append(full, rest[i])
			deal(i + 1)
			full = full[:len(full)-1]
		}
	}
	deal(0)
	for i := range out {
		out[i].Share /= float64(boards)
	}
	return out
}

// checkTotals: every hand sees the same boards, and the shares of the pot add up to the whole pot.
func checkTotals(t *testing.T, got []EquityResult, boards int64) {
	t.Helper()
	sum := 0.0
	for i, r := range got {
		if n := r.Wins + r.Ties + r.Losses; n != boards {
			t.Errorf("hand %d: %d wins + %d ties + %d losses = %d boards, want %d", i+1, r.Wins, r.Ties, r.Losses, n, boards)
		}
		sum += r.Share
	}
	if math.Abs(sum-1) > 1e-9 {
		t.Errorf("shares add up to %v of the pot, want 1", sum)
	}
}

// TestEquityAcesVersusKings is the textbook all-in before the flop: As-Ah against Ks-Kd over all
// 1,712,304 boards.
func TestEquityAcesVersusKings(t *testing.T) {
	got, err := Equity(holes(t, "AsAh", "KsKd"), nil)
	if err != nil {
		t.Fatal(err)
	}
	checkTotals(t, got, 1712304)
	aces, kings := got[0], got[1]
	if aces.Wins != 1399204 || aces.Ties != 7923 || aces.Losses != 305177 {
		t.Errorf("aces: %d wins, %d ties, %d losses; want 1,399,204, 7,923 and 305,177", aces.Wins, aces.Ties, aces.Losses)
	}
	if kings.Wins != aces.Losses || kings.Ties != aces.Ties || kings.Losses != aces.Wins {
		t.Errorf("kings %+v do not mirror aces %+v", kings, aces)
	}
	if got, want := math.Round(aces.Share*1e5)/1e3, 81.946; got != want {
		t.Errorf("aces' share %.3f%%, want %.3f%%", got, want)
	}
}

// TestEquityMatchesSlowCount compares Equity with the plain recount before the flop (three hands),
// on the flop and on the turn.
func TestEquityMatchesSlowCount(t *testing.T) {
	tests := []struct {
		name   string
		hands  []string
		board  string
		boards int64
	}{
		{"three-way before the flop", []string{"AcKc", "QhQd", "7s6s"}, "", 1370754},
		{"heads-up on the flop", []string{"AhKh", "QsQc"}, "Th9h2c", 990},
		{"heads-up on the turn, chopped often", []string{"AcQd", "AdQh"}, "As7c2dKh", 44},
		{"three-way on the flop", []string{"AhKh", "QsQc", "Jd9d"}, "Th9h2c", 903},
		{"four-way on the turn", []string{"AsAd", "KsQs", "8c8h", "Jh9c"}, "8dTs2s4c", 40},
	}
	if testing.Short() || raceEnabled {
		tests = tests[1:]
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			hs, board := holes(t, tt.hands...), MustParseCards(tt.board)
			got, err := Equity(hs, board)
			if err != nil {
				t.Fatal(err)
			}
			checkTotals(t, got, tt.boards)
			want := slowEquity(hs, board)
			for i := range got {
				g, w := got[i], want[i]
				if g.Wins != w.Wins || g.Ties != w.Ties || g.Losses != w.Losses || math.Abs(g.Share-w.Share) > 1e-12 {
					t.Errorf("%s: got %+v, the slow count says %+v", tt.hands[i], g, w)
				}
			}
		})
	}
}

// TestEquityRiver: with the whole board dealt there is exactly one board left to count.
func TestEquityRiver(t *testing.T) {
	tests := []struct {
		name  string
		hands []string
		board string
		want  []EquityResult
	}{
		{"best hand wins", []string{"JsTs", "AhAd", "KcKd"}, "AsKsQs2d3c",
			[]EquityResult{{Wins: 1, Share: 1}, {Losses: 1}, {Losses: 1}}},
		{"the board plays three ways", []string{"2c3c", "4d5d", "7h2h"}, "TsJsQsKsAs",
			[]EquityResult{{Ties: 1, Share: 1.0 / 3}, {Ties: 1, Share: 1.0 / 3}, {Ties: 1, Share: 1.0 / 3}}},
		{"two of three split", []string{"Ac8d", "Ad8h", "KcQd"}, "Ah8s7c3d2s",
			[]EquityResult{{Ties: 1, Share: 0.5}, {Ties: 1, Share: 0.5}, {Losses: 1}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Equity(holes(t, tt.hands...), MustParseCards(tt.board))
			if err != nil {
				t.Fatal(err)
			}
			for i := range got {
				if got[i] != tt.want[i] {
					t.Errorf("%s: got %+v, want %+v", tt.hands[i], got[i], tt.want[i])
				}
			}
		})
	}
}

// TestEquityRefuses: each bad input is refused with a code and a sentence saying what to do, and
// no result.
func TestEquityRefuses(t *testing.T) {
	tests := []struct {
		name      string
		hands     [][2]Card
		board     []Card
		code, msg string
	}{
		{"one hand", holes(t, "AsAh"), nil, ErrEquityHands, "equity needs at least 2 hands to compare, got 1"},
		{"no hands", nil, nil, ErrEquityHands, "equity needs at least 2 hands to compare, got 0"},
		{"24 hands", make([][2]Card, 24), nil, ErrEquityHands, "equity takes at most 23 hands (one deck), got 24"},
		{"two board cards", holes(t, "AsAh", "KsKd"), MustParseCards("2c3c"), ErrEquityBoard,
			"the board must have 0, 3, 4 or 5 cards (before the flop, flop, turn, river), not 2"},
		{"six board cards", holes(t, "AsAh", "KsKd"), MustParseCards("2c3c4c5c6c7c"), ErrEquityBoard,
			"the board must have 0, 3, 4 or 5 cards (before the flop, flop, turn, river), not 6"},
		{"card in two hands", holes(t, "AsAh", "AsKd"), nil, ErrEquityCard,
			"hand 1 and hand 2 hold the same card: every card must be different"},
		{"card in a hand and on the board", holes(t, "AsAh", "KsKd"), MustParseCards("2c3cKd"), ErrEquityCard,
			"hand 2 and the board hold the same card: every card must be different"},
		{"pocket pair of one card", holes(t, "AsAs", "KsKd"), nil, ErrEquityCard,
			"hand 1 holds the same card twice: every card must be different"},
		{"not a card", [][2]Card{{0, 1}, {2, 60}}, nil, ErrEquityCard,
			"hand 2 holds 60, which is not a card: cards are numbered 0 to 51"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Equity(tt.hands, tt.board)
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error %v, want an *Error", err)
			}
			if e.Code != tt.code || e.Message != tt.msg {
				t.Errorf("error %s %q, want %s %q", e.Code, e.Message, tt.code, tt.msg)
			}
			if got != nil {
				t.Errorf("results %v alongside an error", got)
			}
			for _, h := range tt.hands {
				for _, c := range h {
					if c < 52 && strings.Contains(e.Message, c.String()) {
						t.Errorf("the error names %s, which may be a hole card", c)
					}
				}
			}
		})
	}
}

// BenchmarkEquityHeadsUpPreflop enumerates As-Ah against Ks-Kd. Target: under 10 ms/op.
func BenchmarkEquityHeadsUpPreflop(b *testing.B) {
	hs := holes(b, "AsAh", "KsKd")
	loadTables()
	for b.Loop() {
		if _, err := Equity(hs, nil); err != nil {
			b.Fatal(err)
		}
	}
}

func ExampleEquity() {
	hands := [][2]Card{
		{NewCard(Ace, Spades), NewCard(Ace, Hearts)},
		{NewCard(King, Spades), NewCard(King, Diamonds)},
	}
	res, err := Equity(hands, nil) // all-in before the flop: every one of 1,712,304 boards
	if err != nil {
		fmt.Println(err)
		return
	}
	for i, r := range res {
		fmt.Printf("%s: %d wins, %d ties, %d losses, %.3f%% of the pot\n",
			FormatCards(hands[i][:]), r.Wins, r.Ties, r.Losses, 100*r.Share)
	}
	// Output:
	// AsAh: 1399204 wins, 7923 ties, 305177 losses, 81.946% of the pot
	// KsKd: 305177 wins, 7923 ties, 1399204 losses, 18.054% of the pot
}
