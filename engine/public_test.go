package engine

import (
	"math/rand/v2"
	"reflect"
	"testing"
	"time"
)

// Public tells at once what the accessors tell one by one, at every decision of many random hands
// and at their end, and its slices are the caller's own: changing them leaves the hand as it was.
func TestPublicIsTheAccessors(t *testing.T) {
	seed := *propSeed
	if seed == 0 {
		seed = uint64(time.Now().UnixNano())
	}
	t.Logf("seed %d (rerun with -prop.seed=%d)", seed, seed)
	r := rand.New(rand.NewPCG(seed, 11))
	for i := 0; i < 200; i++ {
		h, err := NewHand(randomSetup(r))
		if err != nil {
			t.Fatal(err)
		}
		for {
			v := h.Public()
			folded, allIn := make([]bool, h.NumPlayers()), make([]bool, h.NumPlayers())
			for p := range folded {
				folded[p], allIn[p] = h.Folded(p), h.IsAllIn(p)
			}
			o, ok := h.Options()
			want := Public{Button: h.Button(), Street: h.Street(), ToAct: h.ToAct(), Done: h.Done(), Stacks: h.Stacks(),
				Bets: h.Bets(), Folded: folded, AllIn: allIn, Board: h.Board(), Board2: h.Board2(), Pots: h.CollectedPots()}
			if ok {
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
				v.Board[0] = v.Board[0] ^ 1
			}
			if snapshot(h) != before || !reflect.DeepEqual(h.Board(), want.Board) || h.Folded(0) != want.Folded[0] {
				t.Fatalf("hand %d: changing what Public returned changed the hand", i)
			}
			if h.Done() {
				break
			}
			acts := offered(o, r)
			if _, err := h.Apply(acts[r.IntN(len(acts))]); err != nil {
				t.Fatal(err)
			}
		}
	}
}
