package engine

import (
	"math"
	"math/rand/v2"
)

// EquityEstimate is OmahaEquity's answer: each hand's outcome over the boards dealt, whether those
// were every remaining board or a random sample, and the sample's error.
type EquityEstimate struct {
	// Results has one entry per hand. Wins counts boards on which the hand takes the whole pot alone
	// (in hi-lo, a scoop), Ties boards on which it takes part of it, Losses boards on which it takes
	// nothing; Share is its expected fraction of the pot, hi-lo halves included.
	Results []EquityResult
	// Boards is the number of boards dealt: all of them when Exact, else the sample's size.
	Boards int64
	// Exact is set when every remaining board was dealt, so Share is exact.
	Exact bool
	// StdErr is the standard error of a sampled Share (the largest over the hands): the true equity is
	// within 2 x StdErr of Share 95 times in 100. It is 0 when Exact.
	StdErr float64
}

// ErrEquityGame is the code of OmahaEquity for a game it does not take (Hold'em has Equity).
const ErrEquityGame = "equity_game"

// OmahaEquity reports the all-in equity of Omaha hands (four or five hole cards each; in OmahaHiLo,
// half pots count as half) on a board of 0, 3, 4 or 5 cards. When the remaining boards number at most
// maxBoards it deals every one and the result is exact; otherwise it deals maxBoards random boards
// drawn with src (a seeded source gives the same answer every time) and states the error in StdErr.
// It returns an *Error, and changes nothing, for a game that is not Omaha, fewer than 2 hands, more
// than fit the deck, hands of other than 2 to 5 cards, a board of another size, a repeated or
// unknown card, or a sample of fewer than 1 board.
func OmahaEquity(g Game, hands [][]Card, board []Card, maxBoards int, src rand.Source) (EquityEstimate, error) {
	if g == Holdem || g > OmahaHiLo {
		return EquityEstimate{}, errorf(ErrEquityGame, "OmahaEquity takes an Omaha game, not %s", g)
	}
	if err := checkOmahaEquity(hands, board, maxBoards, src); err != nil {
		return EquityEstimate{}, err
	}
	loadTables()
	if g.HiLo() {
		lowTable()
	}
	e := omahaEquityRun{hands: hands, hilo: g.HiLo(), n: len(hands)}
	var used uint64
	for _, h := range hands {
		for _, c := range h {
			used |= 1 << c
		}
	}
	for _, c := range board {
		used |= 1 << c
	}
	var rest []Card
	for c := Card(0); c < 52; c++ {
		if used&(1<<c) == 0 {
			rest = append(rest, c)
		}
	}
	missing := 5 - len(board)
	var full [5]Card
	copy(full[:], board)
	total := binomial(len(rest), missing)
	est := EquityEstimate{Results: make([]EquityResult, len(hands))}
	if total <= int64(maxBoards) {
		est.Exact = true
		var deal func(from, k int)
		deal = func(from, k int) {
			if k == 5 {
				e.score(&full)
				return
			}
			for i := from; i <= len(rest)-(5-k); i++ {
				full[k] = rest[i]
				deal(i+1, k+1)
			}
		}
		deal(0, len(board))
	} else {
		r := rand.New(src)
		for b := 0; b < maxBoards; b++ {
			// A partial Fisher–Yates over the remaining cards picks the missing ones.
			for k := 0; k < missing; k++ {
				j := k + r.IntN(len(rest)-k)
				rest[k], rest[j] = rest[j], rest[k]
				full[len(board)+k] = rest[k]
			}
			e.score(&full)
		}
	}
	est.Boards = e.boards
	for i := range est.Results {
		res := &est.Results[i]
		res.Wins, res.Ties = e.wins[i], e.ties[i]
		res.Losses = e.boards - res.Wins - res.Ties
		res.Share = e.share[i] / float64(e.boards)
		if !est.Exact && e.boards > 1 {
			v := (e.shareSq[i] - e.share[i]*e.share[i]/float64(e.boards)) / float64(e.boards-1)
			est.StdErr = max(est.StdErr, math.Sqrt(max(v, 0)/float64(e.boards)))
		}
	}
	return est, nil
}

// omahaEquityRun holds the running counts of one OmahaEquity call.
type omahaEquityRun struct {
	hands          [][]Card
	hilo           bool
	n              int
	b              omahaBoard
	boards         int64
	wins, ties     [MaxEquityHands]int64
	share, shareSq [MaxEquityHands]float64
	hi             [MaxEquityHands]HandRank
	lo             [MaxEquityHands]LowRank
}

// score values every hand on one complete board and counts what each takes of the pot.
func (e *omahaEquityRun) score(board *[5]Card) {
	e.boards++
	e.b.set(board[:])
	var bestHi HandRank
	var bestLo LowRank
	for i, h := range e.hands {
		e.hi[i] = e.b.high(h)
		bestHi = max(bestHi, e.hi[i])
		if e.hilo {
			e.lo[i] = e.b.lowOf(h)
			bestLo = max(bestLo, e.lo[i])
		}
	}
	hiWays, loWays := 0, 0
	for i := 0; i < e.n; i++ {
		if e.hi[i] == bestHi {
			hiWays++
		}
		if bestLo > 0 && e.lo[i] == bestLo {
			loWays++
		}
	}
	hiPart := 1.0
	if bestLo > 0 {
		hiPart = 0.5
	}
	for i := 0; i < e.n; i++ {
		var s float64
		if e.hi[i] == bestHi {
			s += hiPart / float64(hiWays)
		}
		if bestLo > 0 && e.lo[i] == bestLo {
			s += 0.5 / float64(loWays)
		}
		switch {
		case s == 1:
			e.wins[i]++
		case s > 0:
			e.ties[i]++
		}
		e.share[i] += s
		e.shareSq[i] += s * s
	}
}

// binomial is n choose k, small arguments only (n <= 52, k <= 5).
func binomial(n, k int) int64 {
	if k < 0 || k > n {
		return 0
	}
	r := int64(1)
	for i := 0; i < k; i++ {
		r = r * int64(n-i) / int64(i+1)
	}
	return r
}

// checkOmahaEquity refuses inputs OmahaEquity cannot deal from, with a sentence saying what to change.
func checkOmahaEquity(hands [][]Card, board []Card, maxBoards int, src rand.Source) *Error {
	cards := len(board)
	for _, h := range hands {
		cards += len(h)
	}
	switch {
	case len(hands) < 2:
		return errorf(ErrEquityHands, "equity needs at least 2 hands to compare, got %d", len(hands))
	case len(hands) > MaxEquityHands || cards+5-len(board) > 52:
		return errorf(ErrEquityHands, "%d hands and the board need more cards than one deck holds", len(hands))
	case maxBoards < 1:
		return errorf(ErrEquityBoard, "the sample must be at least 1 board, not %d", maxBoards)
	case src == nil:
		return errorf(ErrEquityBoard, "a source of random numbers is needed for sampled boards")
	}
	for i, h := range hands {
		if len(h) < 2 || len(h) > maxHole {
			return errorf(ErrEquityHands, "hand %d has %d cards; an Omaha hand has 2 to %d", i+1, len(h), maxHole)
		}
	}
	switch len(board) {
	case 0, 3, 4, 5:
	default:
		return errorf(ErrEquityBoard, "the board must have 0, 3, 4 or 5 cards (before the flop, flop, turn, river), not %d", len(board))
	}
	return distinctCards(hands, board)
}
