package engine

import (
	"strings"
	"testing"
)

func seatTable(t *testing.T, stacks ...int64) *Table {
	t.Helper()
	tb, err := NewTable(len(stacks), nl(5, 10))
	if err != nil {
		t.Fatal(err)
	}
	for i, s := range stacks {
		if s > 0 {
			tb.Seats[i] = Seat{Player: string(rune('A' + i)), Stack: s}
		}
	}
	return tb
}

func TestDrawForButtonRedrawsTies(t *testing.T) {
	tb := seatTable(t, 100, 100, 100)
	// Seats 0 and 2 both draw a king; the redraw gives seat 2 the ace.
	d, _ := DeckFrom(MustParseCards("Ks 7d Kh 2c As"))
	draws := tb.DrawForButton(d)
	if tb.Button != 2 {
		t.Fatalf("button %d, want seat 2", tb.Button)
	}
	if len(draws) != 5 || draws[3].Round != 2 || draws[3].Seat != 0 || draws[4].Seat != 2 {
		t.Fatalf("draws %+v: want 3 cards, then a redraw between seats 0 and 2", draws)
	}
}

// Only seats that will be dealt in draw for the button: not an empty seat, a busted player or one
// sitting out. (The button's moves from hand to hand are bot/table's: TestButtonSkipsEmptyAndSittingOut.)
func TestDrawForButtonSkipsEmptyBustedAndSittingOut(t *testing.T) {
	tb := seatTable(t, 100, 0, 100, 100, 100, 100)
	tb.Seats[3].SittingOut = true
	tb.Seats[5].Stack = 0 // busted
	if got, want := tb.Playing(), []int{0, 2, 4}; sprint(got) != sprint(want) {
		t.Fatalf("playing seats %v, want %v", got, want)
	}
	d, _ := DeckFrom(MustParseCards("2c Ah 3d"))
	draws := tb.DrawForButton(d)
	if len(draws) != 3 || draws[0].Seat != 0 || draws[1].Seat != 2 || draws[2].Seat != 4 || tb.Button != 2 {
		t.Fatalf("draws %+v, button %d: want one card each to seats 0, 2 and 4, the ace's seat 2 on the button", draws, tb.Button)
	}
}

// A hand is dealt to 2 to 10 players, at a table of 2 to 10 seats. (The dealer's refusal to deal to
// one player is bot/table's: TestButtonSkipsEmptyAndSittingOut.)
func TestHandNeedsTwoPlayers(t *testing.T) {
	if _, err := NewHand(Setup{Rules: nl(5, 10), Stacks: []int64{100}, Deck: OrderedDeck()}); err == nil || !strings.Contains(err.Error(), "2 to 10 players") {
		t.Fatalf("a hand with one player: %v, want a refusal", err)
	}
	if _, err := NewTable(11, nl(5, 10)); err == nil {
		t.Fatal("an 11-seat table was allowed")
	}
}
