package engine

import (
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
	"time"
)

// A clone plays on without touching the hand it came from, and plays exactly as a replay of the
// same actions: at every decision of many random hands (run-it-twice, bomb pots and straddles
// included, as randomSetup makes them) the hand is cloned, the clone takes the next action, and the
// original must still be what it was, while the clone equals the replay.
func TestCloneIsIndependent(t *testing.T) {
	seed := *propSeed
	if seed == 0 {
		seed = uint64(time.Now().UnixNano())
	}
	t.Logf("seed %d (rerun with -prop.seed=%d)", seed, seed)
	r := rand.New(rand.NewPCG(seed, 7))
	for i := 0; i < 300; i++ {
		h, err := NewHand(randomSetup(r))
		if err != nil {
			t.Fatal(err)
		}
		for !h.Done() {
			o, _ := h.Options()
			acts := offered(o, r)
			a := acts[r.IntN(len(acts))]
			before := snapshot(h)
			evBefore := append([]Event(nil), h.Events()...)
			c := h.Clone()
			if _, err := c.Apply(a); err != nil {
				t.Fatalf("hand %d: clone refused %v: %v", i, a, err)
			}
			if snapshot(h) != before || !reflect.DeepEqual(h.Events(), evBefore) {
				t.Fatalf("hand %d: acting on the clone changed the original", i)
			}
			again, err := Replay(c.Setup(), c.Actions())
			if err != nil {
				t.Fatal(err)
			}
			if snapshot(again) != snapshot(c) || !reflect.DeepEqual(again.Events(), c.Events()) ||
				!reflect.DeepEqual(again.Board(), c.Board()) || !reflect.DeepEqual(again.Board2(), c.Board2()) {
				t.Fatalf("hand %d: the clone after %v differs from the replay", i, a)
			}
			// The original and the clone go different ways: each must still equal its own replay
			// (a card store or log shared between them would show here).
			if len(acts) > 1 && r.IntN(4) == 0 {
				o2 := h.Clone()
				other := acts[(slices.Index(acts, a)+1)%len(acts)]
				if _, err := o2.Apply(other); err != nil {
					t.Fatal(err)
				}
				for _, x := range []*Hand{c, o2} {
					for !x.Done() {
						xo, _ := x.Options()
						xa := offered(xo, r)
						if _, err := x.Apply(xa[0]); err != nil {
							t.Fatal(err)
						}
					}
				}
				for _, x := range []*Hand{c, o2} {
					rx, err := Replay(x.Setup(), x.Actions())
					if err != nil || !reflect.DeepEqual(rx.Events(), x.Events()) || snapshot(rx) != snapshot(x) {
						t.Fatalf("hand %d: two clones played apart differ from their replays", i)
					}
				}
				break
			}
			if c.Done() != again.Done() {
				t.Fatalf("hand %d: done %v, replay %v", i, c.Done(), again.Done())
			}
			h = c // play on from the clone, as the table does
		}
	}
}

// BenchmarkStepClone and BenchmarkStepReplay compare what a table's step costs: cloning the hand
// in play, or replaying it from its setup, before one action.
func BenchmarkStepClone(b *testing.B) { benchStep(b, func(h *Hand) *Hand { return h.Clone() }) }
func BenchmarkStepReplay(b *testing.B) {
	benchStep(b, func(h *Hand) *Hand { r, _ := Replay(h.Setup(), h.Actions()); return r })
}

func benchStep(b *testing.B, copyOf func(*Hand) *Hand) {
	r := rand.New(rand.NewPCG(1, 1))
	h, _ := NewHand(Setup{Rules: Rules{SmallBlind: 5, BigBlind: 10}, Stacks: []int64{1000, 1000, 1000, 1000, 1000, 1000}, Deck: OrderedDeck()})
	for k := 0; k < 8 && !h.Done(); k++ { // a hand some actions in, as a call meets it mid-street
		o, _ := h.Options()
		acts := offered(o, r)
		h.Apply(acts[len(acts)-1])
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		_ = copyOf(h)
	}
}
