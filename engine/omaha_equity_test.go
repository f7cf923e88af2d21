package engine

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// naiveOmahaShares deals every remaining board and splits each pot with the naive evaluators.
func naiveOmahaShares(g Game, hands [][]Card, board []Card) (shares []float64, boards int) {
	var used [52]bool
	for _, h := range hands {
		for _, c := range h {
			used[c] = true
		}
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
	shares = make([]float64, len(hands))
	full := append([]Card(nil), board...)
	var deal func(from int)
	deal = func(from int) {
		if len(full) == 5 {
			boards++
			hi := make([]HandRank, len(hands))
			lo := make([][]int, len(hands))
			var bestLo []int
			for i, h := range hands {
				hi[i] = naiveHigh(h, full)
				if g.HiLo() {
					lo[i] = naiveLow(h, full)
					if lo[i] != nil && (bestLo == nil || slices.Compare(lo[i], bestLo) < 0) {
						bestLo = lo[i]
					}
				}
			}
			best := slices.Max(hi)
			part := 1.0
			if bestLo != nil {
				part = 0.5
			}
			var hw, lw int
			for i := range hands {
				if hi[i] == best {
					hw++
				}
				if bestLo != nil && slices.Equal(lo[i], bestLo) {
					lw++
				}
			}
			for i := range hands {
				if hi[i] == best {
					shares[i] += part / float64(hw)
				}
				if bestLo != nil && slices.Equal(lo[i], bestLo) {
					shares[i] += 0.5 / float64(lw)
				}
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
	for i := range shares {
		shares[i] /= float64(boards)
	}
	return shares, boards
}

func TestOmahaEquityExact(t *testing.T) {
	for _, tc := range []struct {
		name  string
		g     Game
		hands []string
		board string
	}{
		{"PLO two-way on the flop", Omaha, []string{"AsAhKdQc", "JsTs9d8d"}, "2s7d9h"},
		{"PLO three-way on the turn", Omaha, []string{"AsAhKdQc", "JsTs9d8d", "5c6c7h8h"}, "2s7d9hKs"},
		{"five-card on the flop", Omaha5, []string{"AsAhKdQcJc", "JsTs9d8d2h"}, "2s7d9h"},
		{"hi-lo two-way on the flop", OmahaHiLo, []string{"As2h3dKc", "AdKsQhJh"}, "4c5c9h"},
		{"hi-lo three-way on the turn", OmahaHiLo, []string{"As2h3dKc", "Ad2s7hJh", "8c8d9s9d"}, "4c5c9hTd"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			hands := make([][]Card, len(tc.hands))
			for i, s := range tc.hands {
				hands[i] = MustParseCards(s)
			}
			board := MustParseCards(tc.board)
			want, boards := naiveOmahaShares(tc.g, hands, board)
			got, err := OmahaEquity(tc.g, hands, board, 1_000_000, rand.NewPCG(1, 2))
			if err != nil {
				t.Fatal(err)
			}
			if !got.Exact || got.Boards != int64(boards) || got.StdErr != 0 {
				t.Fatalf("exact %v over %d boards (stderr %v), want exact over %d", got.Exact, got.Boards, got.StdErr, boards)
			}
			var sum float64
			for i, r := range got.Results {
				sum += r.Share
				if math.Abs(r.Share-want[i]) > 1e-9 {
					t.Errorf("hand %d: share %.6f, naive %.6f", i, r.Share, want[i])
				}
				if r.Wins+r.Ties+r.Losses != got.Boards {
					t.Errorf("hand %d: %d wins, %d ties, %d losses over %d boards", i, r.Wins, r.Ties, r.Losses, got.Boards)
				}
			}
			if math.Abs(sum-1) > 1e-9 {
				t.Fatalf("shares add up to %v", sum)
			}
		})
	}
}

// TestOmahaEquitySampled: three-way before the flop, a sample of 50,000 boards is within 0.5% of the
// exact equity (658,008 boards) and says so: twice its standard error is under 0.5%.
func TestOmahaEquitySampled(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("deals 658,008 boards for the exact answer (CI runs it without -race)")
	}
	hands := [][]Card{MustParseCards("AsAhKdQc"), MustParseCards("JsTs9d8d"), MustParseCards("5c6c7h8h")}
	exact, err := OmahaEquity(Omaha, hands, nil, 1_000_000, rand.NewPCG(1, 2))
	if err != nil || !exact.Exact || exact.Boards != 658008 {
		t.Fatalf("exact: %v %+v", err, exact)
	}
	est, err := OmahaEquity(Omaha, hands, nil, 50000, rand.NewPCG(7, 8))
	if err != nil {
		t.Fatal(err)
	}
	if est.Exact || est.Boards != 50000 || est.StdErr <= 0 || 2*est.StdErr > 0.005 {
		t.Fatalf("sampled: exact %v, %d boards, stderr %v", est.Exact, est.Boards, est.StdErr)
	}
	for i := range hands {
		if d := math.Abs(est.Results[i].Share - exact.Results[i].Share); d > 0.005 {
			t.Errorf("hand %d: sampled %.4f, exact %.4f", i, est.Results[i].Share, exact.Results[i].Share)
		}
	}
	again, _ := OmahaEquity(Omaha, hands, nil, 50000, rand.NewPCG(7, 8))
	if again.Results[0] != est.Results[0] {
		t.Fatalf("the same seed gave %+v then %+v", est.Results[0], again.Results[0])
	}
}

func TestOmahaEquityErrors(t *testing.T) {
	h := func(s string) []Card { return MustParseCards(s) }
	src := rand.NewPCG(1, 1)
	for _, tc := range []struct {
		name    string
		g       Game
		hands   [][]Card
		board   []Card
		samples int
		src     rand.Source
		code    string
		msg     string
	}{
		{"hold'em", Holdem, [][]Card{h("AsKs"), h("QdQc")}, nil, 10, src, ErrEquityGame, "OmahaEquity takes an Omaha game, not hold'em"},
		{"one hand", Omaha, [][]Card{h("AsKsQsJs")}, nil, 10, src, ErrEquityHands, "equity needs at least 2 hands to compare, got 1"},
		{"six cards", Omaha, [][]Card{h("AsKsQsJsTs9s"), h("2c3c4c5c")}, nil, 10, src, ErrEquityHands, "hand 1 has 6 cards; an Omaha hand has 2 to 5"},
		{"shared card", Omaha, [][]Card{h("AsKsQsJs"), h("2c3c4cAs")}, nil, 10, src, ErrEquityCard, "hand 1 and hand 2 hold the same card: every card must be different"},
		{"board of two", Omaha, [][]Card{h("AsKsQsJs"), h("2c3c4c5c")}, h("7h8h"), 10, src, ErrEquityBoard, "the board must have 0, 3, 4 or 5 cards (before the flop, flop, turn, river), not 2"},
		{"no sample", Omaha, [][]Card{h("AsKsQsJs"), h("2c3c4c5c")}, nil, 0, src, ErrEquityBoard, "the sample must be at least 1 board, not 0"},
		{"no source", Omaha, [][]Card{h("AsKsQsJs"), h("2c3c4c5c")}, nil, 10, nil, ErrEquityBoard, "a source of random numbers is needed for sampled boards"},
		{"too many hands", Omaha5, make([][]Card, 10), nil, 10, src, ErrEquityHands, "10 hands and the board need more cards than one deck holds"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.name == "too many hands" {
				for i := range tc.hands {
					tc.hands[i] = []Card{Card(5 * i), Card(5*i + 1), Card(5*i + 2), Card(5*i + 3), Card(5*i + 4)}
				}
			}
			_, err := OmahaEquity(tc.g, tc.hands, tc.board, tc.samples, tc.src)
			e, ok := err.(*Error)
			if !ok || e.Code != tc.code || e.Message != tc.msg {
				t.Fatalf("err %v, want %s %q", err, tc.code, tc.msg)
			}
		})
	}
}
