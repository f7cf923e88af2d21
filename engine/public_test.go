package engine

import (
	"reflect"
	"testing"
)

// checkPublic asserts that Public tells at once what the accessors tell one by one, and that its
// slices are the caller's own: changing them leaves the hand as it was. TestPropertyRandomHands runs
// it at every decision of one random hand in ten, and at its end.
func checkPublic(t *testing.T, i int, h *Hand) {
	t.Helper()
	v := h.Public()
	folded, allIn := make([]bool, h.NumPlayers()), make([]bool, h.NumPlayers())
	for p := range folded {
		folded[p], allIn[p] = h.Folded(p), h.IsAllIn(p)
	}
	want := Public{Button: h.Button(), Street: h.Street(), ToAct: h.ToAct(), Done: h.Done(), Stacks: h.Stacks(),
		Bets: h.Bets(), Folded: folded, AllIn: allIn, Board: h.Board(), Board2: h.Board2(), Pots: h.CollectedPots()}
	if o, ok := h.Options(); ok {
		want.Turn = &o
	}
	if !reflect.DeepEqual(v, want) {
		t.Fatalf("hand %d: Public\n%+v\nthe accessors\n%+v", i, v, want)
	}
	before := snapshot(h)
	v.Stacks[0], v.Bets[0], v.Folded[0], v.AllIn[0] = -1, -1, !v.Folded[0], !v.AllIn[0]
	if v.Turn != nil {
		v.Turn.MinTo = -1
	}
	if len(v.Board) > 0 {
		v.Board[0] ^= 1
	}
	if snapshot(h) != before || !reflect.DeepEqual(h.Board(), want.Board) || h.Folded(0) != want.Folded[0] {
		t.Fatalf("hand %d: changing what Public returned changed the hand", i)
	}
}
