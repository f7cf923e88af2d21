package bot

import (
	"fmt"
	"slices"
)

// Tournament payouts (RULES.md section 10). These are the rules' arithmetic, used by the tournament
// mode: default payouts, prizes from a pool, and places for players eliminated in the same hand.

// DefaultPayouts are the prize percentages by entrants: 2-4 winner takes all; 5-7 65/35; 8-10 50/30/20.
func DefaultPayouts(entrants int) []int {
	switch {
	case entrants >= 8:
		return []int{50, 30, 20}
	case entrants >= 5:
		return []int{65, 35}
	}
	return []int{100}
}

// Prizes splits a pool by percentages (which must add up to 100): each prize is rounded down to a
// whole chip and the remainder goes to the winner.
func Prizes(pool int64, percents []int) ([]int64, error) {
	sum := 0
	for _, p := range percents {
		if p <= 0 {
			return nil, userErrorf("Each payout must be a percentage above 0, like payouts=50/30/20.")
		}
		sum += p
	}
	if sum != 100 {
		return nil, userErrorf("The payouts add up to %d%%, not 100%%: for example payouts=50/30/20.", sum)
	}
	prizes := make([]int64, len(percents))
	var paid int64
	for i, p := range percents {
		prizes[i] = pool/100*int64(p) + pool%100*int64(p)/100 // pool*p/100 without overflow for any pool
		paid += prizes[i]
	}
	prizes[0] += pool - paid
	return prizes, nil
}

// Eliminated is a player who lost their last chip in a hand: their stack when that hand began and
// their position counted from the first seat left of the button (0 first).
type Eliminated struct {
	User  string
	Start int64
	Order int
}

// Placing is a finishing place and its prize.
type Placing struct {
	User  string
	Place int // 1 is the winner
	Prize int64
}

// PlaceEliminated places the players eliminated in one hand. best is the best place they can take
// (the number of players left before the hand, minus the survivors: with 6 left and 2 out, places 5
// and 6, best 5). Whoever started the hand with more chips finishes higher; players with equal
// starting stacks share their places' combined prizes evenly, the odd chip to the first left of the
// button. prizes[i] is the prize of place i+1 (places past the list win nothing).
func PlaceEliminated(prizes []int64, best int, out []Eliminated) []Placing {
	sorted := slices.Clone(out)
	slices.SortStableFunc(sorted, func(a, b Eliminated) int {
		switch {
		case a.Start != b.Start:
			return int(b.Start - a.Start) // more chips first; stacks are at most MaxChips apart
		}
		return a.Order - b.Order
	})
	prize := func(place int) int64 {
		if place-1 < len(prizes) {
			return prizes[place-1]
		}
		return 0
	}
	var res []Placing
	for i := 0; i < len(sorted); {
		j := i
		for j < len(sorted) && sorted[j].Start == sorted[i].Start {
			j++
		}
		var pool int64
		for k := i; k < j; k++ {
			pool += prize(best + k)
		}
		shares := splitEven(pool, j-i)
		for k := i; k < j; k++ {
			res = append(res, Placing{User: sorted[k].User, Place: best + i, Prize: shares[k-i]})
		}
		i = j
	}
	return res
}

// splitEven divides chips among n, the odd chips to the first.
func splitEven(chips int64, n int) []int64 {
	out := make([]int64, n)
	for i := range out {
		out[i] = chips / int64(n)
		if int64(i) < chips%int64(n) {
			out[i]++
		}
	}
	return out
}

func (p Placing) String() string { return fmt.Sprintf("%d. %s %d", p.Place, p.User, p.Prize) }
