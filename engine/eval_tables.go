package engine

import (
	"math/bits"
	"slices"
	"sync"
)

// The fast evaluator works on two running values per hand, both built by adding (or OR-ing) one
// precomputed word per card, so that enumerations can carry them through nested loops:
//
//   - key: bits 0..38 count the cards of each rank, three bits per rank (rank r at bit 3r); bits
//     40..55 count the cards of each suit, four bits per suit, starting at 3 (keyStart) so that bit 3
//     of a suit's nibble is set exactly when that suit holds five or more cards.
//   - mask: bit 13*suit+rank is set for each card, so a suit's ranks are one shift and mask away.
//
// With a flush among at most seven cards no full house or four of a kind is possible, so a flush
// is ranked by flushTab from the flush suit's 13-bit rank mask alone. Otherwise the rank counts
// decide, looked up through a perfect hash built once (see buildTables).

const (
	keyStart   = uint64(0x3333) << 40 // every suit nibble starts at 3
	flushFlags = uint64(0x8888) << 40 // top bit of each suit nibble: five or more of that suit
	countMask  = uint64(1)<<39 - 1    // the per-rank counts

	hashBucketBits = 14 // buckets of the two-level perfect hash
	hashSlotBits   = 17 // slots: 131,072 for 73,775 rank multisets of 5, 6 or 7 cards
	hashSlotMask   = 1<<hashSlotBits - 1
)

// Number of equivalence classes of five-card hands, and where each category starts (class numbers
// run 1..7462, higher is better). buildTables checks these against its own enumeration.
const numClasses = 7462

var categoryStart = [...]HandRank{1, 1278, 4138, 4996, 5854, 5864, 7141, 7297, 7453}

var (
	cardKey  [256]uint64 // what one card adds to key (256 entries so a Card index needs no bounds check)
	cardMask [256]uint64 // what one card ORs into mask

	flushTab [1 << 13]uint16 // best flush or straight flush among a suit's ranks (five or more bits set)

	hashMul  uint64                      // multiplier of the perfect hash, chosen by buildTables
	hashDisp [1 << hashBucketBits]uint32 // per-bucket displacement
	rankTab  [1 << hashSlotBits]uint16   // best class of a rank multiset without a flush
)

var tablesOnce sync.Once

// loadTables builds the tables on first use, so binaries that never rank a hand pay nothing.
func loadTables() { tablesOnce.Do(buildTables) }

// rankOf finishes an evaluation from a hand's key and mask (5 to 7 distinct cards).
func rankOf(key, mask uint64) HandRank {
	if f := key & flushFlags; f != 0 {
		s := uint(bits.TrailingZeros64(f)-43) >> 2 * 13
		return HandRank(flushTab[mask>>s&0x1fff])
	}
	p := (key & countMask) * hashMul
	return HandRank(rankTab[(uint32(p>>33)^hashDisp[p>>(64-hashBucketBits)])&hashSlotMask])
}

// score is a plain comparable encoding of a five-card hand used only while building tables:
// category<<20, then up to five rank nibbles in the order they are compared.
type score uint32

func mkScore(c Category) score { return score(c) << 20 }

// with appends one rank nibble after the i ranks already in s.
func (s score) with(i int, r int) score { return s | score(r)<<(16-4*uint(i)) }

// withTop appends the n highest ranks set in m after the i ranks already in s.
func (s score) withTop(i int, m uint32, n int) score {
	for r := 12; r >= 0 && n > 0; r-- {
		if m&(1<<r) != 0 {
			s = s.with(i, r)
			i, n = i+1, n-1
		}
	}
	return s
}

// straightHigh returns the top rank of the best straight in a 13-bit rank mask, or -1.
func straightHigh(m uint32) int {
	for hi := 12; hi >= 4; hi-- {
		if want := uint32(0x1f) << (hi - 4); m&want == want {
			return hi
		}
	}
	if m&0x100f == 0x100f { // A-2-3-4-5
		return 3
	}
	return -1
}

// flushScore is the best flush or straight flush in a suit holding the ranks of m (five or more).
func flushScore(m uint32) score {
	if hi := straightHigh(m); hi >= 0 {
		return mkScore(StraightFlush).with(0, hi)
	}
	return mkScore(Flush).withTop(0, m, 5)
}

// plainScore is the best hand, ignoring suits, that 5 to 7 cards with these rank counts make.
func plainScore(cnt *[13]int) score {
	var present uint32
	var high [5]int // high[k]: highest rank with at least k cards, or -1
	var second [5]int
	for k := range high {
		high[k], second[k] = -1, -1
	}
	for r := 12; r >= 0; r-- {
		if cnt[r] > 0 {
			present |= 1 << r
		}
		for k := 1; k <= cnt[r]; k++ {
			if high[k] < 0 {
				high[k] = r
			} else if second[k] < 0 {
				second[k] = r
			}
		}
	}
	without := func(rs ...int) uint32 {
		m := present
		for _, r := range rs {
			m &^= 1 << r
		}
		return m
	}
	switch q, t, p := high[4], high[3], high[2]; {
	case q >= 0:
		return mkScore(FourOfAKind).with(0, q).withTop(1, without(q), 1)
	case t >= 0 && (p != t || second[2] >= 0):
		if p == t { // the pair is the next rank holding two or more cards
			p = second[2]
		}
		return mkScore(FullHouse).with(0, t).with(1, p)
	case straightHigh(present) >= 0:
		return mkScore(Straight).with(0, straightHigh(present))
	case t >= 0:
		return mkScore(ThreeOfAKind).with(0, t).withTop(1, without(t), 2)
	case second[2] >= 0:
		return mkScore(TwoPair).with(0, p).with(1, second[2]).withTop(2, without(p, second[2]), 1)
	case p >= 0:
		return mkScore(OnePair).with(0, p).withTop(1, without(p), 3)
	}
	return mkScore(HighCard).withTop(0, present, 5)
}

// multiset is one rank multiset of 5 to 7 cards while the tables are built.
type multiset struct {
	key   uint64 // per-rank counts, as in a hand's key
	s     score
	class uint16
}

// buildTables fills the card words, numbers the 7,462 classes, and builds flushTab and the perfect
// hash over rank multisets. It runs once, through loadTables (tens of milliseconds).
func buildTables() {
	for c := range 52 {
		r, s := c>>2, c&3
		cardKey[c] = 1<<(3*r) | 1<<(40+4*s)
		cardMask[c] = 1 << (13*s + r)
	}

	// Every class is reachable by some five-card hand: non-flush rank multisets plus flushes.
	all := make([]score, 0, 6175+1287)
	var cnt [13]int
	sets := make([]multiset, 0, 73775)
	var walk func(r, n int, key uint64)
	walk = func(r, n int, key uint64) {
		if r == 13 {
			if n >= 5 {
				s := plainScore(&cnt)
				sets = append(sets, multiset{key: key, s: s})
				if n == 5 {
					all = append(all, s)
				}
			}
			return
		}
		for c := 0; c <= 4 && n+c <= 7; c++ {
			cnt[r] = c
			walk(r+1, n+c, key+uint64(c)<<(3*r))
		}
		cnt[r] = 0
	}
	walk(0, 0, 0)
	for m := uint32(0); m < 1<<13; m++ {
		if bits.OnesCount32(m) == 5 {
			all = append(all, flushScore(m))
		}
	}
	slices.Sort(all)
	all = slices.Compact(all)
	if len(all) != numClasses {
		panic("engine: evaluator tables: wrong number of hand classes")
	}
	class := func(s score) uint16 {
		i, ok := slices.BinarySearch(all, s)
		if !ok {
			panic("engine: evaluator tables: hand outside the five-card classes")
		}
		return uint16(i + 1)
	}
	for i, s := range all {
		c := Category(s >> 20)
		if i == 0 || Category(all[i-1]>>20) != c {
			if categoryStart[c] != HandRank(i+1) {
				panic("engine: evaluator tables: category boundaries moved")
			}
		}
	}
	for m := uint32(0); m < 1<<13; m++ {
		if bits.OnesCount32(m) >= 5 {
			flushTab[m] = class(flushScore(m))
		}
	}
	for i := range sets {
		sets[i].class = class(sets[i].s)
	}

	// Two-level perfect hash: p = key*mul; the top bits pick a bucket, bits 33..49 a slot, and each
	// bucket's displacement (XOR) is chosen so its keys land on free slots. Largest buckets go first.
	// The multiplier is fixed; should a bucket hold two keys with the same slot bits, try the next.
	for mul := uint64(0x9e3779b97f4a7c15); ; mul += 2 {
		if buildHash(mul, sets) {
			hashMul = mul
			return
		}
	}
}

// buildHash tries one multiplier and fills hashDisp and rankTab; it reports false if two keys of
// one bucket share their slot bits, which no displacement can separate.
func buildHash(mul uint64, sets []multiset) bool {
	// Group the multisets by bucket (a counting sort: start[b] is where bucket b's members begin).
	const nb = 1 << hashBucketBits
	var start [nb + 1]int32
	for _, ms := range sets {
		start[ms.key*mul>>(64-hashBucketBits)+1]++
	}
	biggest := int32(0)
	for b := 1; b <= nb; b++ {
		biggest = max(biggest, start[b])
		start[b] += start[b-1]
	}
	grouped := make([]int32, len(sets))
	fill := start
	for i, ms := range sets {
		b := ms.key * mul >> (64 - hashBucketBits)
		grouped[fill[b]] = int32(i)
		fill[b]++
	}
	// Place the largest buckets first, while the table is emptiest.
	order := make([]int, 0, nb)
	for size := biggest; size > 0; size-- {
		for b := range nb {
			if start[b+1]-start[b] == size {
				order = append(order, b)
			}
		}
	}
	used := make([]bool, 1<<hashSlotBits)
	slot := make([]uint32, 0, 16)
	for _, b := range order {
		members := grouped[start[b]:start[b+1]]
		slot = slot[:0]
		for _, i := range members {
			x := uint32(sets[i].key*mul>>33) & hashSlotMask
			if slices.Contains(slot, x) {
				return false
			}
			slot = append(slot, x)
		}
		d := uint32(0)
	search:
		for ; d < 1<<hashSlotBits; d++ {
			for _, x := range slot {
				if used[x^d] {
					continue search
				}
			}
			break
		}
		if d == 1<<hashSlotBits {
			return false
		}
		for j, x := range slot {
			used[x^d] = true
			rankTab[x^d] = sets[members[j]].class
		}
		hashDisp[b] = d
	}
	return true
}
