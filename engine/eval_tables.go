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
	cardKey  [52]uint64 // what one card adds to key
	cardMask [52]uint64 // what one card ORs into mask

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

func mkScore(c Category, ranks ...int) score {
	s := score(c) << 20
	for i, r := range ranks {
		s |= score(r) << (16 - 4*uint(i))
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

// topRanks returns up to n of the highest ranks set in m, skipping the ranks in skip.
func topRanks(m uint32, n int, skip ...int) []int {
	out := make([]int, 0, n)
	for r := 12; r >= 0 && len(out) < n; r-- {
		if m&(1<<r) != 0 && !slices.Contains(skip, r) {
			out = append(out, r)
		}
	}
	return out
}

// flushScore is the best flush or straight flush in a suit holding the ranks of m (five or more).
func flushScore(m uint32) score {
	if hi := straightHigh(m); hi >= 0 {
		return mkScore(StraightFlush, hi)
	}
	return mkScore(Flush, topRanks(m, 5)...)
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
	switch {
	case high[4] >= 0:
		return mkScore(FourOfAKind, append([]int{high[4]}, topRanks(present, 1, high[4])...)...)
	case high[3] >= 0 && (second[2] >= 0 && second[2] != high[3] || high[2] != high[3]):
		pair := high[2]
		if pair == high[3] {
			pair = second[2]
		}
		return mkScore(FullHouse, high[3], pair)
	case straightHigh(present) >= 0:
		return mkScore(Straight, straightHigh(present))
	case high[3] >= 0:
		return mkScore(ThreeOfAKind, append([]int{high[3]}, topRanks(present, 2, high[3])...)...)
	case second[2] >= 0:
		return mkScore(TwoPair, append([]int{high[2], second[2]}, topRanks(present, 1, high[2], second[2])...)...)
	case high[2] >= 0:
		return mkScore(OnePair, append([]int{high[2]}, topRanks(present, 3, high[2])...)...)
	}
	return mkScore(HighCard, topRanks(present, 5)...)
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
	buckets := make([][]int32, 1<<hashBucketBits)
	for i, ms := range sets {
		b := ms.key * mul >> (64 - hashBucketBits)
		buckets[b] = append(buckets[b], int32(i))
	}
	order := make([]int, len(buckets))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return len(buckets[b]) - len(buckets[a]) })
	used := make([]bool, 1<<hashSlotBits)
	slot := make([]uint32, 0, 16)
	for _, b := range order {
		members := buckets[b]
		if len(members) == 0 {
			break
		}
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
