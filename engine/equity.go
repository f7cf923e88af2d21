package engine

import "fmt"

// EquityResult is one hand's outcome over every way the board can be completed. Wins + Ties +
// Losses is the number of boards, the same for every hand.
type EquityResult struct {
	Wins   int64   // boards on which this hand alone is best
	Ties   int64   // boards on which it shares the best hand
	Losses int64   // boards on which another hand is better
	Share  float64 // expected fraction of the pot, 0..1: a win counts 1, a k-way tie 1/k
}

// MaxEquityHands is the most hands Equity accepts: with five board cards, 23 hands use 51 cards.
const MaxEquityHands = 23

// Error codes of Equity.
const (
	ErrEquityHands = "equity_hands" // fewer than 2 hands, or more than MaxEquityHands
	ErrEquityBoard = "equity_board" // a board of 1, 2 or more than 5 cards
	ErrEquityCard  = "equity_card"  // a card that does not exist, or the same card twice
)

// Equity deals every remaining board (all of them: 1,712,304 for two hands before the flop, one on
// the river) and reports for each hand how often it wins, ties and loses, and its expected share of
// the pot. board holds 0, 3, 4 or 5 cards. It returns an *Error, and nothing else, when there are
// fewer than 2 hands, a board of another size, or a card that is out of range or repeated.
func Equity(hands [][2]Card, board []Card) ([]EquityResult, error) {
	if err := checkEquity(hands, board); err != nil {
		return nil, err
	}
	loadTables()
	e := equityRun{n: len(hands)}
	var used uint64
	for i, h := range hands {
		e.key[i] = cardKey[h[0]] + cardKey[h[1]]
		e.mask[i] = cardMask[h[0]] | cardMask[h[1]]
		used |= 1<<h[0] | 1<<h[1]
	}
	k, m := keyStart, uint64(0)
	for _, c := range board {
		k += cardKey[c]
		m |= cardMask[c]
		used |= 1 << c
	}
	var rest [52]Card
	n := 0
	for c := Card(0); c < 52; c++ {
		if used&(1<<c) == 0 {
			rest[n] = c
			n++
		}
	}
	// One loop per missing board card, each carrying the partial board's key and mask; the last
	// card's boards are collected in a batch and scored together.
	var bk, bm [52]uint64
	last := func(from int, k, m uint64) {
		j := 0
		for _, z := range rest[from:n] {
			bk[j], bm[j] = k+cardKey[z], m|cardMask[z]
			j++
		}
		e.score(bk[:j], bm[:j])
	}
	switch 5 - len(board) {
	case 0:
		bk[0], bm[0] = k, m
		e.score(bk[:1], bm[:1])
	case 1:
		last(0, k, m)
	case 2:
		for i := 0; i < n; i++ {
			last(i+1, k+cardKey[rest[i]], m|cardMask[rest[i]])
		}
	case 5:
		for i := 0; i < n; i++ {
			ka, ma := k+cardKey[rest[i]], m|cardMask[rest[i]]
			for j := i + 1; j < n; j++ {
				kb, mb := ka+cardKey[rest[j]], ma|cardMask[rest[j]]
				for x := j + 1; x < n; x++ {
					kc, mc := kb+cardKey[rest[x]], mb|cardMask[rest[x]]
					for y := x + 1; y < n; y++ {
						last(y+1, kc+cardKey[rest[y]], mc|cardMask[rest[y]])
					}
				}
			}
		}
	}
	out := make([]EquityResult, e.n)
	for i := range out {
		r := &out[i]
		r.Wins = e.wins[i]
		for k, t := range e.tied[i] {
			if t > 0 {
				r.Ties += t
				r.Share += float64(t) / float64(k)
			}
		}
		r.Losses = e.boards - r.Wins - r.Ties
		r.Share = (r.Share + float64(r.Wins)) / float64(e.boards)
	}
	return out, nil
}

// equityRun holds the hands' own cards and the running counts of one Equity call.
type equityRun struct {
	n      int
	key    [MaxEquityHands]uint64
	mask   [MaxEquityHands]uint64
	rank   [MaxEquityHands]HandRank
	boards int64
	wins   [MaxEquityHands]int64
	tied   [MaxEquityHands][MaxEquityHands + 1]int64 // tied[i][k]: boards hand i shared k ways
}

// score ranks every hand on a batch of complete boards (their keys and masks) and counts the
// outcomes. Two hands, the common all-in, take a shorter path.
func (e *equityRun) score(ks, ms []uint64) {
	e.boards += int64(len(ks))
	ms = ms[:len(ks)]
	if e.n == 2 {
		k0, m0, k1, m1 := e.key[0], e.mask[0], e.key[1], e.mask[1]
		var w0, w1, tie int64
		for i, k := range ks {
			r0, r1 := rankOf(k+k0, ms[i]|m0), rankOf(k+k1, ms[i]|m1)
			switch {
			case r0 > r1:
				w0++
			case r1 > r0:
				w1++
			default:
				tie++
			}
		}
		e.wins[0] += w0
		e.wins[1] += w1
		e.tied[0][2] += tie
		e.tied[1][2] += tie
		return
	}
	for b, k := range ks {
		m := ms[b]
		best, ways := HandRank(0), 0
		for i := 0; i < e.n; i++ {
			r := rankOf(k+e.key[i], m|e.mask[i])
			e.rank[i] = r
			if r > best {
				best, ways = r, 1
			} else if r == best {
				ways++
			}
		}
		for i := 0; i < e.n; i++ {
			if e.rank[i] == best {
				if ways == 1 {
					e.wins[i]++
				} else {
					e.tied[i][ways]++
				}
			}
		}
	}
}

// checkEquity refuses inputs Equity cannot deal from, with a sentence saying what to change.
func checkEquity(hands [][2]Card, board []Card) *Error {
	switch {
	case len(hands) < 2:
		return errorf(ErrEquityHands, "equity needs at least 2 hands to compare, got %d", len(hands))
	case len(hands) > MaxEquityHands:
		return errorf(ErrEquityHands, "equity takes at most %d hands (one deck), got %d", MaxEquityHands, len(hands))
	}
	switch len(board) {
	case 0, 3, 4, 5:
	default:
		return errorf(ErrEquityBoard, "the board must have 0, 3, 4 or 5 cards (before the flop, flop, turn, river), not %d", len(board))
	}
	return distinctCards(hands, board)
}

// distinctCards refuses a card that is no card, or that two hands or the board both hold (or a hand
// twice), saying where the clash is but never naming the card: it may be a hole card.
func distinctCards[H interface{ ~[2]Card | ~[]Card }](hands []H, board []Card) *Error {
	var where [52]int // 0 while a card is unseen, i+1 once hand i holds it, -1 once the board does
	place := func(w int) string {
		if w < 0 {
			return "the board"
		}
		return fmt.Sprintf("hand %d", w)
	}
	see := func(c Card, w int) *Error {
		if c > 51 {
			return errorf(ErrEquityCard, "%s holds %d, which is not a card: cards are numbered 0 to 51", place(w), c)
		}
		if where[c] == w && w > 0 {
			return errorf(ErrEquityCard, "%s holds the same card twice: every card must be different", place(w))
		}
		if where[c] != 0 {
			return errorf(ErrEquityCard, "%s and %s hold the same card: every card must be different", place(where[c]), place(w))
		}
		where[c] = w
		return nil
	}
	for i, h := range hands {
		for k := 0; k < len(h); k++ {
			if err := see(h[k], i+1); err != nil {
				return err
			}
		}
	}
	for _, c := range board {
		if err := see(c, -1); err != nil {
			return err
		}
	}
	return nil
}
