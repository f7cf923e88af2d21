package engine

import (
	"math"
	"math/rand/v2"
	"testing"
)

// FuzzActions drives a hand with arbitrary actions, legal or not: nothing panics, refused actions
// change nothing, and a finished hand conserves chips.
func FuzzActions(f *testing.F) {
	f.Add(uint64(1), []byte{0, 1, 2, 3, 4, 5})
	f.Add(uint64(42), []byte{5, 5, 5, 5, 1, 1, 1, 1, 1, 1, 1, 1})
	f.Add(uint64(7), []byte{3, 200, 4, 9, 0})
	f.Fuzz(func(t *testing.T, seed uint64, script []byte) {
		r := rand.New(rand.NewPCG(seed, 1))
		s := randomSetup(r)
		h, err := NewHand(s)
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i+1 < len(script) && !h.Done(); i += 2 {
			a := Action{Player: int(script[i]>>4) % (h.NumPlayers() + 1), Kind: ActionKind(script[i] % 8)}
			o, _ := h.Options()
			switch script[i+1] % 4 {
			case 0:
				a.Amount = int64(script[i+1])
				if script[i+1]&0x80 != 0 { // the extremes a user could type
					a.Amount = []int64{math.MaxInt64, math.MinInt64, MaxChips, MaxChips + 1}[script[i+1]&3]
				}
			case 1:
				a.Amount = o.MinTo
			case 2:
				a.Amount = o.MaxTo
			case 3:
				a.Player = o.Player
				a.Amount = o.MinTo + int64(script[i+1])
			}
			before := snapshot(h)
			if _, err := h.Apply(a); err != nil {
				if _, ok := err.(*Error); !ok {
					t.Fatalf("%v: error %T is not a player error", a, err)
				}
				if snapshot(h) != before {
					t.Fatalf("%v refused but changed the hand", a)
				}
			}
		}
		for !h.Done() {
			if _, err := h.Timeout(); err != nil {
				t.Fatal(err)
			}
		}
		checkHandInvariants(t, 0, h)
	})
}
