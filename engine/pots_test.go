package engine

import (
	"math/rand/v2"
	"reflect"
	"testing"
)

// TestItem5PotsWhileStreetInPlay: while a street is in play the pots are the chips collected from the
// streets before it, with every live player who was in them still eligible; the bets in front of the
// players are apart, and side pots appear when the street closes (issue 28 item 5). Pots, with the
// bets in, leaves out a live player who has not matched the bet yet and makes one player's unmatched
// excess a side pot of its own.
func TestItem5PotsWhileStreetInPlay(t *testing.T) {
	// Dave (3) is all-in pre-flop for 50; Alice (0, the button), Bob (1) and Carol (2) call. On the
	// flop Bob and Carol check, Alice bets 600, and Bob and Carol have not answered yet.
	h := mustHand(t, Setup{Rules: nl(5, 10), Stacks: []int64{1000, 1000, 1000, 50}, Button: 0,
		Deck: deckFor(t, 0, []string{"AsAh", "KsKh", "QsQh", "JsJh"}, "2c7d9h3s4d")})
	do(t, h, "3 allin", "0 call", "1 call", "2 call")
	main := Pot{Amount: 200, Eligible: []int{0, 1, 2, 3}}
	if got, want := h.CollectedPots(), []Pot{main}; !reflect.DeepEqual(got, want) {
		t.Fatalf("pots at the flop %+v, want %+v", got, want)
	}
	do(t, h, "1 check", "2 check", "0 bet 600")
	if got, want := h.CollectedPots(), []Pot{main}; !reflect.DeepEqual(got, want) {
		t.Errorf("pots while the flop is in play %+v, want %+v: Bob and Carol, still to act, are in it", got, want)
	}
	if got := h.Pots(); len(got) != 2 || !reflect.DeepEqual(got[1].Eligible, []int{0}) {
		t.Errorf("Pots with the bets in (the street is not closed): %+v, want Alice's unmatched 600 apart", got)
	}
	do(t, h, "1 call", "2 fold")
	want := []Pot{{Amount: 200, Eligible: []int{0, 1, 3}}, {Amount: 1200, Eligible: []int{0, 1}}}
	if got := h.CollectedPots(); !reflect.DeepEqual(got, want) {
		t.Errorf("pots when the flop closed %+v, want the main pot and a side pot of 1,200 for Alice and Bob %+v", got, want)
	}
}

// TestCollectedPotsProperty: at every turn of random hands the collected pots and the bets in front
// of the players add up to every chip in the middle; every player eligible for a collected pot is
// still in the hand; when no bet is in front of anyone the collected pots are the pots.
func TestCollectedPotsProperty(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 28))
	for i := 0; i < 3000; i++ {
		h, err := NewHand(randomSetup(r))
		if err != nil {
			t.Fatal(err)
		}
		for !h.Done() {
			pots, bets := h.CollectedPots(), h.Bets()
			var sum, front int64
			for _, p := range pots {
				sum += p.Amount
				for _, e := range p.Eligible {
					if h.Folded(e) {
						t.Fatalf("hand %d: folded player %d eligible for %+v", i, e, p)
					}
				}
			}
			for _, b := range bets {
				front += b
			}
			if sum+front != h.Pot() {
				t.Fatalf("hand %d: collected %d + bets %d != pot %d", i, sum, front, h.Pot())
			}
			if front == 0 && !reflect.DeepEqual(pots, h.Pots()) {
				t.Fatalf("hand %d: no bets in front, collected %+v != pots %+v", i, pots, h.Pots())
			}
			o, _ := h.Options()
			acts := offered(o, r)
			if _, err := h.Apply(acts[r.IntN(len(acts))]); err != nil {
				t.Fatal(err)
			}
		}
	}
}
