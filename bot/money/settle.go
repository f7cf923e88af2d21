package money

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/dealerbot/dealerbot/render"
)

// The fewest payments that square a night: the settle-up of a night played for chips (a schedule's
// results) and of one played for money (Settle).

// Balance is a player's net result: positive won, negative lost.
type Balance struct {
	User string
	Name string
	Net  int64
}

// Payment is one transfer of the settle-up: From pays To Amount chips.
type Payment struct {
	From, To Balance // Net is the player's balance for the night
	Amount   int64
}

func (p Payment) String() string {
	return fmt.Sprintf("%s pays %s %s", p.From.Name, p.To.Name, render.Chips(p.Amount))
}

// exactLimit is the most players SettleUp splits into zero-sum groups exactly (2^n subsets).
const exactLimit = 16

// SettleUp returns the fewest payments that square everyone: after them every balance is zero.
// Players who broke even pay and receive nothing. Balances must sum to zero; otherwise SettleUp
// returns an error saying by how much they are off, and no payments.
//
// The fewest payments for n players with a non-zero balance is n minus the largest number of groups
// the players split into whose balances each sum to zero; within a group of k players, k-1 payments
// suffice (each squares at least one player). SettleUp finds the groups exactly for up to 16 players
// and otherwise treats everyone as one group, which still needs at most n-1 payments.
func SettleUp(balances []Balance) ([]Payment, error) {
	var sum int64
	var live []Balance
	for _, b := range balances {
		sum += b.Net
		if b.Net != 0 {
			live = append(live, b)
		}
	}
	if sum != 0 {
		return nil, fmt.Errorf("the results do not add up to zero (off by %s chips): settle by hand", render.Chips(sum))
	}
	// Stable input order: largest winners and losers first, ties by name, so the list reads well and
	// is the same every time.
	slices.SortStableFunc(live, func(a, b Balance) int {
		if c := cmp.Compare(abs(b.Net), abs(a.Net)); c != 0 {
			return c
		}
		return strings.Compare(a.Name, b.Name)
	})
	var out []Payment
	for _, g := range zeroGroups(live) {
		out = append(out, settleGroup(g)...)
	}
	return out, nil
}

// zeroGroups splits balances (summing to zero) into as many zero-sum groups as it can.
func zeroGroups(bs []Balance) [][]Balance {
	n := len(bs)
	if n == 0 {
		return nil
	}
	if n > exactLimit {
		return [][]Balance{bs}
	}
	full := 1<<n - 1
	sums := make([]int64, full+1)
	for m := 1; m <= full; m++ {
		low := m & -m
		i := trailingZeros(low)
		sums[m] = sums[m^low] + bs[i].Net
	}
	// best[m] is the most zero-sum groups the players in m can be cut into, counting a trailing
	// partial group as none; from[m] is the player removed last to reach it.
	best := make([]int8, full+1)
	from := make([]int8, full+1)
	for m := 1; m <= full; m++ {
		best[m], from[m] = -1, -1
		for i := 0; i < n; i++ {
			if m&(1<<i) == 0 {
				continue
			}
			if v := best[m^(1<<i)]; v > best[m] {
				best[m], from[m] = v, int8(i)
			}
		}
		if sums[m] == 0 {
			best[m]++
		}
	}
	// Walk back: each time the remaining set sums to zero, a group closes.
	var masks []int
	cur := 0
	for m := full; m != 0; {
		if sums[m] == 0 && cur != 0 {
			masks = append(masks, cur)
			cur = 0
		}
		i := int(from[m])
		cur |= 1 << i
		m ^= 1 << i
	}
	masks = append(masks, cur)
	// Groups in input order, led by the player who comes first (the largest balance).
	slices.SortFunc(masks, func(a, b int) int { return cmp.Compare(a&-a, b&-b) })
	var groups [][]Balance
	for _, m := range masks {
		var g []Balance
		for i := range n {
			if m&(1<<i) != 0 {
				g = append(g, bs[i])
			}
		}
		groups = append(groups, g)
	}
	return groups
}

// settleGroup squares a zero-sum group with at most len(g)-1 payments: the biggest loser pays the
// biggest winner as much as squares one of them, until everyone is square.
func settleGroup(g []Balance) []Payment {
	bal := make([]int64, len(g))
	for i, b := range g {
		bal[i] = b.Net
	}
	var out []Payment
	for {
		lo, hi := -1, -1
		for i, v := range bal {
			if v < 0 && (lo < 0 || v < bal[lo]) {
				lo = i
			}
			if v > 0 && (hi < 0 || v > bal[hi]) {
				hi = i
			}
		}
		if lo < 0 || hi < 0 {
			return out
		}
		amt := min(-bal[lo], bal[hi])
		bal[lo] += amt
		bal[hi] -= amt
		out = append(out, Payment{From: g[lo], To: g[hi], Amount: amt})
	}
}

func trailingZeros(x int) int {
	n := 0
	for x&1 == 0 {
		x >>= 1
		n++
	}
	return n
}
