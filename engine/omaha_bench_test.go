package engine

import (
	"math/rand/v2"
	"testing"
)

// BenchmarkOmahaEval values one player's hand on one river board per iteration, the board's
// preparation included: the high hand of four (or five) hole cards, and the high and the low of an
// Omaha hi-lo hand. Targets: 250 ns for four-card high, 500 ns for hi-lo.
func BenchmarkOmahaEval(b *testing.B) {
	loadTables()
	lowTable()
	r := rand.New(rand.NewPCG(35, 1))
	type deal struct{ hole, board []Card }
	deals := func(k int) []deal {
		out := make([]deal, 1024)
		for i := range out {
			d := OrderedDeck()
			r.Shuffle(52, func(x, y int) { d[x], d[y] = d[y], d[x] })
			out[i] = deal{hole: append([]Card(nil), d[:k]...), board: append([]Card(nil), d[k:k+5]...)}
		}
		return out
	}
	four, five := deals(4), deals(5)
	var sink HandRank
	var sinkLow LowRank
	b.Run("high4", func(b *testing.B) {
		var ob omahaBoard
		for i := 0; i < b.N; i++ {
			d := &four[i&1023]
			ob.set(d.board)
			sink += ob.high(d.hole)
		}
	})
	b.Run("high5", func(b *testing.B) {
		var ob omahaBoard
		for i := 0; i < b.N; i++ {
			d := &five[i&1023]
			ob.set(d.board)
			sink += ob.high(d.hole)
		}
	})
	b.Run("hilo4", func(b *testing.B) {
		var ob omahaBoard
		for i := 0; i < b.N; i++ {
			d := &four[i&1023]
			ob.set(d.board)
			sink += ob.high(d.hole)
			sinkLow += ob.lowOf(d.hole)
		}
	})
	b.Run("EvaluateOmaha", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			d := &four[i&1023]
			sink += EvaluateOmaha(d.hole, d.board)
		}
	})
	_, _ = sink, sinkLow
}

// BenchmarkOmahaEquity: a two-way PLO all-in on the flop, exact (target 5 ms), and a three-way all-in
// before the flop sampled to within 0.5% (twice the standard error, reported as err95%; target
// 100 ms).
func BenchmarkOmahaEquity(b *testing.B) {
	b.Run("flop2way", func(b *testing.B) {
		hands := [][]Card{MustParseCards("AsAhKdQc"), MustParseCards("JsTs9d8d")}
		board := MustParseCards("2s7d9h")
		for i := 0; i < b.N; i++ {
			est, err := OmahaEquity(Omaha, hands, board, 1_000_000, rand.NewPCG(1, 2))
			if err != nil || !est.Exact {
				b.Fatal(err, est.Exact)
			}
		}
	})
	b.Run("preflop3way", func(b *testing.B) {
		hands := [][]Card{MustParseCards("AsAhKdQc"), MustParseCards("JsTs9d8d"), MustParseCards("5c6c7h8h")}
		var err95 float64
		for i := 0; i < b.N; i++ {
			est, err := OmahaEquity(Omaha, hands, nil, 50000, rand.NewPCG(uint64(i), 2))
			if err != nil || est.Exact {
				b.Fatal(err, est.Exact)
			}
			err95 = 2 * est.StdErr
		}
		b.ReportMetric(100*err95, "err95%")
	})
}
