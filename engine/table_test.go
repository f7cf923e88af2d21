package engine

import "testing"

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

func TestButtonMovesAndSkipsEmptyBustedAndSittingOut(t *testing.T) {
	tb := seatTable(t, 100, 0, 100, 100, 100)
	tb.Seats[3].SittingOut = true
	tb.Button = 0
	var seen []int
	for i := 0; i < 4; i++ {
		h, seats, err := tb.StartHand(OrderedDeck())
		if err != nil {
			t.Fatal(err)
		}
		seen = append(seen, seats[h.Button()])
		if len(seats) != 3 {
			t.Fatalf("dealt seats %v, want 0, 2 and 4", seats)
		}
		for !h.Done() {
			h.Timeout()
		}
		tb.EndHand(h, seats)
		if got := tb.Seats[0].Stack + tb.Seats[2].Stack + tb.Seats[4].Stack; got != 300 {
			t.Fatalf("table chips %d, want 300", got)
		}
	}
	// The first hand keeps the drawn button; then it moves clockwise over the dealt-in seats.
	if want := []int{0, 2, 4, 0}; sprint(seen) != sprint(want) {
		t.Fatalf("buttons %v, want %v", seen, want)
	}
}

func TestBlindLevelChangesOnlyBetweenHands(t *testing.T) {
	tb := seatTable(t, 1000, 1000)
	tb.Button = 0
	h, seats, err := tb.StartHand(OrderedDeck())
	if err != nil {
		t.Fatal(err)
	}
	tb.SetRules(nl(10, 20))
	if h.Setup().Rules.BigBlind != 10 || tb.Rules.BigBlind != 10 {
		t.Fatal("new level applied inside the running hand")
	}
	for !h.Done() {
		h.Timeout()
	}
	tb.EndHand(h, seats)
	h, _, _ = tb.StartHand(OrderedDeck())
	if got := h.Setup().Rules.BigBlind; got != 20 {
		t.Fatalf("next hand's big blind %d, want 20", got)
	}
}

func TestStartHandNeedsTwoPlayers(t *testing.T) {
	tb := seatTable(t, 100, 0)
	if _, _, err := tb.StartHand(OrderedDeck()); err == nil {
		t.Fatal("a hand started with one player")
	}
	if _, err := NewTable(11, nl(5, 10)); err == nil {
		t.Fatal("an 11-seat table was allowed")
	}
}
