package table_test

import (
	"fmt"
	"testing"

	"github.com/dealerbot/dealerbot/bot/table"
)

// TestR18TournamentPlaces: six entrants, buy-in 100, pool 600, payouts 65/35: first 390, second 210.
// Two players bust in the same hand having started it with 300 and 500: the one who had 500 places higher.
func TestR18TournamentPlaces(t *testing.T) {
	prizes, err := table.Prizes(6*100, []int{65, 35})
	if err != nil || fmt.Sprint(prizes) != "[390 210]" {
		t.Fatalf("prizes %v, %v; want [390 210]", prizes, err)
	}
	if got := fmt.Sprint(table.DefaultPayouts(6)); got != "[65 35]" {
		t.Fatalf("default payouts for six: %s", got)
	}
	got := table.PlaceEliminated(prizes, 2, []table.Eliminated{{User: "three-hundred", Start: 300, Order: 0}, {User: "five-hundred", Start: 500, Order: 1}})
	if fmt.Sprint(got) != "[2. five-hundred 210 3. three-hundred 0]" {
		t.Fatalf("places %v: the one who started with 500 must finish second", got)
	}
}

// TestR19SharedPlaces: pool 1,000, payouts 50/30/20; second and third bust in the same hand with
// equal starting stacks: they share 300 + 200 and get 250 each.
func TestR19SharedPlaces(t *testing.T) {
	prizes, err := table.Prizes(1000, []int{50, 30, 20})
	if err != nil || fmt.Sprint(prizes) != "[500 300 200]" {
		t.Fatalf("prizes %v, %v", prizes, err)
	}
	got := table.PlaceEliminated(prizes, 2, []table.Eliminated{{User: "b", Start: 400, Order: 1}, {User: "a", Start: 400, Order: 0}})
	if fmt.Sprint(got) != "[2. a 250 2. b 250]" {
		t.Fatalf("places %v, want both second with 250", got)
	}
	// An odd combined prize: the odd chip to the first left of the button.
	odd := table.PlaceEliminated([]int64{500, 301, 200}, 2, []table.Eliminated{{User: "b", Start: 400, Order: 1}, {User: "a", Start: 400, Order: 0}})
	if fmt.Sprint(odd) != "[2. a 251 2. b 250]" {
		t.Fatalf("odd chip: %v", odd)
	}
}

// TestPrizes: rounding down with the remainder to the winner, payouts that do not add up refused.
func TestPrizes(t *testing.T) {
	p, err := table.Prizes(1001, []int{50, 30, 20})
	if err != nil || fmt.Sprint(p) != "[501 300 200]" {
		t.Fatalf("1001 by 50/30/20: %v, %v", p, err)
	}
	for _, bad := range [][]int{{50, 30}, {60, 30, 20}, {100, 0}, {-10, 110}} {
		if _, err := table.Prizes(1000, bad); err == nil {
			t.Errorf("payouts %v accepted", bad)
		}
	}
	if p, _ := table.Prizes(1_000_000_000_000*10, []int{65, 35}); p[0]+p[1] != 10_000_000_000_000 {
		t.Fatalf("prizes of a large pool do not add up: %v", p)
	}
	if got := fmt.Sprint(table.DefaultPayouts(3), table.DefaultPayouts(9)); got != "[100] [50 30 20]" {
		t.Fatalf("default payouts: %s", got)
	}
}
