package engine

import (
	"fmt"
	"math/bits"
	"strings"
	"sync"
)

// Omaha hands are exactly two hole cards and three board cards (RULES.md section 12). The high
// evaluator reuses the Hold'em tables: a five-card hand without a flush is its rank counts looked up
// through the perfect hash (rankTab), a flush is flushTab of its suit's ranks. For each board the
// three-card subsets are prepared once (omahaBoard); each pair of hole cards then adds its counts to
// each subset's and looks the sum up, and only a suited pair meets the subsets of its own suit.

// omahaBoard holds a board's three-card subsets, ready to meet any player's pairs of hole cards.
type omahaBoard struct {
	n     int        // subsets: 1 (flop), 4 (turn) or 10 (river)
	key   [10]uint64 // rank counts of each subset (key bits 0..38)
	suit  [10]int8   // the suit of a subset of one suit, else -1
	ranks [10]uint16 // the ranks of each subset, a 13-bit mask
	low   uint8      // the board's distinct ranks eight or lower, aces as bit 0 (lowBit)
}

// lowBit is a card's bit in a low mask: ace bit 0, two bit 1 .. eight bit 7; 0 for nine and up.
var lowBit = func() (t [256]uint8) {
	for c := 0; c < 52; c++ {
		switch r := Rank(c >> 2); {
		case r == Ace:
			t[c] = 1
		case r <= Eight:
			t[c] = 1 << (r + 1)
		}
	}
	return t
}()

// set prepares the three-card subsets of a board of 3 to 5 cards.
func (b *omahaBoard) set(board []Card) {
	b.n = 0
	b.low = 0
	for _, c := range board {
		b.low |= lowBit[c]
	}
	m := len(board)
	for i := 0; i < m; i++ {
		for j := i + 1; j < m; j++ {
			for k := j + 1; k < m; k++ {
				x, y, z := board[i], board[j], board[k]
				b.key[b.n] = (cardKey[x] + cardKey[y] + cardKey[z]) & countMask
				b.ranks[b.n] = 1<<x.Rank() | 1<<y.Rank() | 1<<z.Rank()
				b.suit[b.n] = -1
				if x.Suit() == y.Suit() && y.Suit() == z.Suit() {
					b.suit[b.n] = int8(x.Suit())
				}
				b.n++
			}
		}
	}
}

// lookupCounts ranks five cards without a flush from their rank counts (key bits 0..38).
func lookupCounts(counts uint64) HandRank {
	p := counts * hashMul
	return HandRank(rankTab[(uint32(p>>33)^hashDisp[p>>(64-hashBucketBits)])&hashSlotMask])
}

// high returns the best rank of two of hole and three of the board.
func (b *omahaBoard) high(hole []Card) HandRank {
	var best HandRank
	for i := 0; i < len(hole); i++ {
		ci := hole[i]
		ki := cardKey[ci] & countMask
		for j := i + 1; j < len(hole); j++ {
			cj := hole[j]
			pk := ki + cardKey[cj]&countMask
			for t := 0; t < b.n; t++ {
				if r := lookupCounts(pk + b.key[t]); r > best {
					best = r
				}
			}
			if s := int8(ci.Suit()); s == int8(cj.Suit()) {
				pr := uint16(1)<<ci.Rank() | uint16(1)<<cj.Rank()
				for t := 0; t < b.n; t++ {
					if b.suit[t] == s {
						if r := HandRank(flushTab[pr|b.ranks[t]]); r > best {
							best = r
						}
					}
				}
			}
		}
	}
	return best
}

// lowOf returns the best low two of hole and three of the board make, as a LowRank (0 for none).
func (b *omahaBoard) lowOf(hole []Card) LowRank {
	var m uint8
	for _, c := range hole {
		m |= lowBit[c]
	}
	return lowTable()[uint16(m)<<8|uint16(b.low)]
}

// LowRank orders eight-or-better low hands: higher is better (A-2-3-4-5 is the best); 0 is no
// qualifying low.
type LowRank uint16

// lowRankOf turns a low mask (five bits of lowBit) into its rank: lows compare from the highest card
// down, which is comparing the masks as numbers, smaller being better.
func lowRankOf(mask uint8) LowRank { return LowRank(0x100 - uint16(mask)) }

// lowMask is the inverse of lowRankOf.
func (r LowRank) mask() uint8 { return uint8(0x100 - uint16(r)) }

// String reads the low highest card first, "7-5-4-2-A"; "no low" for the zero rank.
func (r LowRank) String() string {
	if r == 0 {
		return "no low"
	}
	m := r.mask()
	var parts []string
	for bit := 7; bit >= 0; bit-- {
		if m&(1<<bit) != 0 {
			if bit == 0 {
				parts = append(parts, "A")
			} else {
				parts = append(parts, Rank(bit-1).String())
			}
		}
	}
	return strings.Join(parts, "-")
}

// lowTab[hole<<8|board] is the best low from the distinct low ranks of the hole cards and of the
// board: two different ranks of the hole's, three of the board's, five different ranks in all.
var (
	lowOnce sync.Once
	lowTab  []LowRank
)

func lowTable() []LowRank {
	lowOnce.Do(func() {
		t := make([]LowRank, 1<<16)
		var pairs, triples []uint8
		for m := 0; m < 256; m++ {
			switch bits.OnesCount8(uint8(m)) {
			case 2:
				pairs = append(pairs, uint8(m))
			case 3:
				triples = append(triples, uint8(m))
			}
		}
		// The best low of a hole mask and a board mask: any two of the hole's ranks and three of the
		// board's, five different ranks in all.
		var triplesIn [256][]uint8
		for bm := range triplesIn {
			for _, q := range triples {
				if uint8(bm)&q == q {
					triplesIn[bm] = append(triplesIn[bm], q)
				}
			}
		}
		var pairsIn []uint8
		for hm := 0; hm < 256; hm++ {
			pairsIn = pairsIn[:0]
			for _, p := range pairs {
				if uint8(hm)&p == p {
					pairsIn = append(pairsIn, p)
				}
			}
			for bm := 0; bm < 256 && len(pairsIn) > 0; bm++ {
				var best LowRank
				for _, q := range triplesIn[bm] {
					for _, p := range pairsIn {
						if p&q == 0 {
							best = max(best, lowRankOf(p|q))
						}
					}
				}
				t[hm<<8|bm] = best
			}
		}
		lowTab = t
	})
	return lowTab
}

// LowValue is an eight-or-better low as players see it: its rank, the five cards (two hole cards and
// three board cards, highest first) and a description such as "7-5-4-2-A".
type LowValue struct {
	Rank        LowRank
	Cards       [5]Card
	Description string
}

// checkOmaha panics on hands the Omaha evaluators cannot value, like Evaluate does: callers hold real
// dealt cards.
func checkOmaha(hole, board []Card) {
	var seen uint64
	for _, c := range hole {
		if c > 51 {
			panic(fmt.Sprintf("engine: %d is not a card; cards are numbered 0 to 51", c))
		}
		seen |= 1 << c
	}
	for _, c := range board {
		if c > 51 {
			panic(fmt.Sprintf("engine: %d is not a card; cards are numbered 0 to 51", c))
		}
		seen |= 1 << c
	}
	switch {
	case len(hole) < 2 || len(hole) > maxHole:
		panic(fmt.Sprintf("engine: an Omaha hand has 2 to %d hole cards, not %d", maxHole, len(hole)))
	case len(board) < 3 || len(board) > 5:
		panic(fmt.Sprintf("engine: an Omaha board has 3 to 5 cards, not %d", len(board)))
	case bits.OnesCount64(seen) != len(hole)+len(board):
		panic("engine: a card appears twice; pass different cards")
	}
}

// EvaluateOmaha returns the rank of the best high hand made of exactly two of hole (2 to 5 cards) and
// exactly three of board (3 to 5 cards). It panics on the inputs Evaluate panics on.
func EvaluateOmaha(hole, board []Card) HandRank {
	checkOmaha(hole, board)
	loadTables()
	var b omahaBoard
	b.set(board)
	return b.high(hole)
}

// EvaluateLow returns the best eight-or-better low made of exactly two of hole and three of board,
// or 0 when they make none.
func EvaluateLow(hole, board []Card) LowRank {
	checkOmaha(hole, board)
	var b omahaBoard
	b.set(board)
	return b.lowOf(hole)
}

// BestOmaha returns the best high hand of exactly two of hole and three of board, with its cards as
// the hand reads (Best's order) and its description. Among equally good choices the earliest hole
// cards, then the earliest board cards, play.
func BestOmaha(hole, board []Card) HandValue {
	best := EvaluateOmaha(hole, board)
	var five [5]Card
	found := false
	forOmaha(hole, board, func(f [5]Card) bool {
		if Evaluate(f[:]...) == best {
			five, found = f, true
			return true
		}
		return false
	})
	if !found {
		panic("engine.BestOmaha: no two and three cards make the hand's rank") // the tables agree
	}
	return describeFive(best, five)
}

// BestLow returns the best eight-or-better low of exactly two of hole and three of board, and false
// when there is none.
func BestLow(hole, board []Card) (LowValue, bool) {
	r := EvaluateLow(hole, board)
	if r == 0 {
		return LowValue{}, false
	}
	want := r.mask()
	var v LowValue
	forOmaha(hole, board, func(f [5]Card) bool {
		var m uint8
		for _, c := range f {
			m |= lowBit[c]
		}
		if m != want || bits.OnesCount8(m) != 5 {
			return false
		}
		// Highest first: by low bit, the ace (bit 0) last.
		k := 0
		for bit := 7; bit >= 0; bit-- {
			for _, c := range f {
				if lowBit[c] == 1<<bit {
					v.Cards[k] = c
					k++
					break
				}
			}
		}
		return true
	})
	v.Rank, v.Description = r, r.String()
	return v, true
}

// forOmaha calls try with each hand of two hole cards (first) and three board cards, hole pairs and
// board triples in input order, until try returns true.
func forOmaha(hole, board []Card, try func([5]Card) bool) {
	for i := 0; i < len(hole); i++ {
		for j := i + 1; j < len(hole); j++ {
			for x := 0; x < len(board); x++ {
				for y := x + 1; y < len(board); y++ {
					for z := y + 1; z < len(board); z++ {
						if try([5]Card{hole[i], hole[j], board[x], board[y], board[z]}) {
							return
						}
					}
				}
			}
		}
	}
}
