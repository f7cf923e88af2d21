package engine

import "testing"

// R-29 at the engine: dave, back from sitting out, posts 10 live and 5 dead beside the hand's own
// blinds. With no raise he may check (his 10 is live); the 5 is in the pot and counts toward nobody's
// call.
func TestR29MissedBlindsPosted(t *testing.T) {
	// alice 0 (small blind), bob 1 (big blind), carol 2 (under the gun), dave 3 (button).
	s := Setup{Rules: nl(5, 10), Stacks: []int64{1000, 1000, 1000, 1000}, Button: 3,
		Posts: []Post{3: {Live: 10, Dead: 5}},
		Deck:  deckFor(t, 3, []string{"2c3c", "2d3d", "4c5c", "4d5d"}, "TsJsQs8h9h")}
	h := mustHand(t, s)
	var live, dead bool
	for _, ev := range h.Events() {
		live = live || ev.Kind == EvPost && ev.Player == 3 && ev.Amount == 10 && ev.To == 10
		dead = dead || ev.Kind == EvDead && ev.Player == 3 && ev.Amount == 5
	}
	if !live || !dead {
		t.Fatalf("want dave's post of 10 live and 5 dead among the events: %v", h.Events())
	}
	if got, want := h.Pot(), int64(30); got != want {
		t.Fatalf("pot before the action %d, want %d (blinds 15, dave's 10 live and 5 dead)", got, want)
	}
	if o, _ := h.Options(); o.Player != 2 || o.ToCall != 10 {
		t.Fatalf("carol's options %+v: want 10 to call (the dead 5 counts toward nobody's call)", o)
	}
	do(t, h, "2 call")
	o, _ := h.Options()
	if o.Player != 3 || !o.CanCheck || o.ToCall != 0 {
		t.Fatalf("dave's options %+v: want a check, his 10 is live", o)
	}
	do(t, h, "3 check", "0 call", "1 check")
	if h.Street() != Flop || h.Pot() != 45 {
		t.Fatalf("after pre-flop: street %v, pot %d; want the flop and 45", h.Street(), h.Pot())
	}
	if got := h.Contributions()[3]; got != 15 {
		t.Fatalf("dave put in %d, want 15", got)
	}
	for range 3 {
		do(t, h, "0 check", "1 check", "2 check", "3 check")
	}
	checkConserved(t, h)
	again, err := Replay(h.Setup(), h.Actions())
	if err != nil || snapshot(again) != snapshot(h) {
		t.Fatalf("replay of a hand with posts differs: %v", err)
	}
}

func TestPostsRaisedAndInTheBlinds(t *testing.T) {
	deck := deckFor(t, 3, []string{"2c3c", "2d3d", "4c5c", "4d5d"}, "TsJsQs8h9h")
	// A raise before dave: he owes the raise less his live 10.
	h := mustHand(t, Setup{Rules: nl(5, 10), Stacks: []int64{1000, 1000, 1000, 1000}, Button: 3,
		Posts: []Post{3: {Live: 10, Dead: 5}}, Deck: deck})
	do(t, h, "2 raise 30")
	if o, _ := h.Options(); o.Player != 3 || o.ToCall != 20 {
		t.Fatalf("dave's options %+v: want 20 to call", o)
	}
	// A poster in the small blind: the blind counts toward the live post (5 more to 10), the dead 5 apart.
	h = mustHand(t, Setup{Rules: nl(5, 10), Stacks: []int64{1000, 1000, 1000, 1000}, Button: 3,
		Posts: []Post{0: {Live: 10, Dead: 5}, 3: {}}, Deck: deck})
	if got := h.Contributions()[0]; got != 15 || h.Bets()[0] != 10 {
		t.Fatalf("the small blind's poster put in %d with %d in front, want 15 and 10", got, h.Bets()[0])
	}
	// A short poster is all-in for what they have, live first.
	h = mustHand(t, Setup{Rules: nl(5, 10), Stacks: []int64{1000, 1000, 1000, 12}, Button: 3,
		Posts: []Post{3: {Live: 10, Dead: 5}}, Deck: deck})
	if !h.IsAllIn(3) || h.Contributions()[3] != 12 || h.Bets()[3] != 10 {
		t.Fatalf("short poster: all-in %v, in %d, in front %d; want all-in, 12, 10", h.IsAllIn(3), h.Contributions()[3], h.Bets()[3])
	}
	do(t, h, "2 call", "0 call", "1 check")
	for !h.Done() {
		o, _ := h.Options()
		do(t, h, sprint(o.Player)+" check")
	}
	checkConserved(t, h)
	for name, bad := range map[string]Setup{
		"too few":  {Rules: nl(5, 10), Stacks: []int64{1000, 1000, 1000}, Posts: []Post{{Live: 10}}, Deck: deck},
		"too live": {Rules: nl(5, 10), Stacks: []int64{1000, 1000, 1000}, Posts: []Post{2: {Live: 11}}, Deck: deck},
		"negative": {Rules: nl(5, 10), Stacks: []int64{1000, 1000, 1000}, Posts: []Post{2: {Dead: -1}}, Deck: deck},
		"bomb pot": {Rules: nl(5, 10), Stacks: []int64{1000, 1000, 1000}, Posts: []Post{2: {Live: 10}}, BombPot: 20, Deck: deck},
		"too dead": {Rules: nl(5, 10), Stacks: []int64{1000, 1000, 1000}, Posts: []Post{2: {Dead: 11}}, Deck: deck},
	} {
		if _, err := NewHand(bad); err == nil {
			t.Errorf("%s: posts %v were allowed", name, bad.Posts)
		}
	}
}
