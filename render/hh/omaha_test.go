package hh

import (
	"strings"
	"testing"

	"github.com/dealerbot/dealerbot/engine"
)

// PokerStars text of Omaha hands: the headers PokerStars writes ("Omaha Hi/Lo Limit", "Omaha Pot
// Limit", "5 Card Omaha Pot Limit"), every hole card, a hi-lo showdown as "(HI: ...; LO: 7,4,3,2,A)"
// and each half's winners on "collected ... from pot" lines of their own, one pot in the summary
// (PokerStars' Omaha Hi/Lo hands write the halves so: "Player_7 collected $17 from pot" twice).
func TestPokerStarsOmaha(t *testing.T) {
	// RULES.md R-28: carol's three kings take the high half (600), alice and bob the low (300 each).
	rules := engine.Rules{Game: engine.OmahaHiLo, Variant: engine.FixedLimit, SmallBlind: 50, BigBlind: 100}
	top := "3s 3h Kc 4s 4h 8d Qc Tc 8s Jc 9c 6c 2h Ac 2d 7h 5c Ks 5d Kd"
	s, acts := script(t, rules, []int64{400, 400, 400}, 2, top, "raise 200", "raise 300", "raise 400", "call", "call")
	h := Hand{Table: "console/w/c", Name: "Friday", No: 7, Time: goldenTime, Setup: s, Actions: acts,
		Names: []string{"alice", "bob", "carol"}, Hero: 0}
	text, err := PokerStarsHand(&h)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		":  Omaha Hi/Lo Limit (100/200) - ",
		"Dealt to alice [3s 4s Qc Jc]\n",
		"carol: shows [Kc 8d 8s 6c] (HI: three of a kind, Kings; LO: 8,7,6,2,A)\n",
		"alice: shows [3s 4s Qc Jc] (HI: ",
		"; LO: 7,4,3,2,A)\n",
		"carol collected 600 from pot\nalice collected 300 from pot\nbob collected 300 from pot\n",
		"Total pot 1200 | Rake 0\n",
		"Seat 3: carol (button) showed [Kc 8d 8s 6c] and won (600) with HI: three of a kind, Kings; LO: 8,7,6,2,A",
		"Seat 1: alice (small blind) showed [3s 4s Qc Jc] and won (300) with HI: ",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("no %q in:\n%s", want, text)
		}
	}
	checkRoundTrip(t, h, text)
	checkOHHRoundTrip(t, h)
	checkPHHRoundTrip(t, h)
	if o, err := ToOHH(&h); err != nil || o.OHH.GameType != "OmahaHiLo" || len(o.OHH.Rounds) == 0 {
		t.Errorf("OHH: %v, game type %q", err, o.OHH.GameType)
	}

	for _, tc := range []struct {
		game   engine.Game
		header string
		top    string
	}{
		{engine.Omaha, ":  Omaha Pot Limit (50/100) - ", "As Kd 2c 3c Ah Kh 4d 5d Ac Ks 6h 7h"},
		{engine.Omaha5, ":  5 Card Omaha Pot Limit (50/100) - ", "As Kd 2c 3c Ah Kh 4d 5d Ac Ks 6h 7h 9s 9h"},
	} {
		s, acts := script(t, engine.Rules{Game: tc.game, Variant: engine.PotLimit, SmallBlind: 50, BigBlind: 100}, []int64{1000, 1000}, 0, tc.top, "fold")
		h := Hand{Table: "console/w/c", Name: "Friday", No: 8, Time: goldenTime, Setup: s, Actions: acts, Names: []string{"alice", "bob"}, Hero: 1}
		text, err := PokerStarsHand(&h)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(text, tc.header) || !strings.Contains(text, "Dealt to bob ["+cards(s.Deck[:0])) {
			t.Errorf("%v: no %q in:\n%s", tc.game, tc.header, text)
		}
		if got := strings.Count(strings.SplitN(strings.SplitN(text, "Dealt to bob [", 2)[1], "]", 2)[0], " ") + 1; got != tc.game.HoleCards() {
			t.Errorf("%v: bob is dealt %d cards:\n%s", tc.game, got, text)
		}
		checkRoundTrip(t, h, text)
	}
}
