package hh

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/dealerbot/dealerbot/engine"
	"github.com/dealerbot/dealerbot/engine/phh"
)

// checkOHHRoundTrip writes a hand as OHH, decodes the JSON as a tracker would and works out each
// player's final stack from it: posts and actions put chips in, an uncalled bet comes back at the end
// of its round (the highest total of the round above the next highest), and pots pay out. It also
// compares the betting actions with the engine's and checks that no unshown card but the hero's is in
// the JSON.
func checkOHHRoundTrip(t *testing.T, h Hand) {
	t.Helper()
	var buf bytes.Buffer
	if err := WriteOHH(&buf, []Hand{h}); err != nil {
		t.Fatal(err)
	}
	if strings.Count(buf.String(), "\n") != 1 {
		t.Fatal("an OHH hand must be one line")
	}
	if strings.Contains(buf.String(), `"actions":null`) {
		t.Fatalf("a round's actions are null, not []: %s", buf.String())
	}
	var doc OHH
	dec := json.NewDecoder(&buf)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&doc); err != nil {
		t.Fatal(err)
	}
	o := doc.OHH
	eh, err := h.replay()
	if err != nil {
		t.Fatal(err)
	}
	stack := map[int]int64{}
	for _, p := range o.Players {
		stack[p.ID] = p.StartingStack
	}
	var acts []string
	for _, r := range o.Rounds {
		street := map[int]int64{}
		for _, a := range r.Actions {
			switch a.Action {
			case "Post Ante", "Post Dead": // dead money
				stack[a.PlayerID] -= a.Amount
			case "Post SB", "Post BB", "Straddle", "Call", "Bet", "Raise":
				stack[a.PlayerID] -= a.Amount
				street[a.PlayerID] += a.Amount
			}
			switch a.Action {
			case "Fold", "Check", "Call", "Bet", "Raise":
				acts = append(acts, fmt.Sprintf("%d %s %d", a.PlayerID, a.Action, a.Amount))
			}
		}
		top, second, who := int64(-1), int64(-1), -1
		for p, v := range street {
			switch {
			case v > top:
				second, top, who = top, v, p
			case v > second:
				second = v
			}
		}
		if who >= 0 && top > max(second, 0) {
			stack[who] += top - max(second, 0)
		}
	}
	for _, pot := range o.Pots {
		for _, wn := range pot.PlayerWins {
			stack[wn.PlayerID] += wn.WinAmount
		}
	}
	for p, want := range eh.Stacks() {
		if stack[p] != want {
			t.Fatalf("OHH: player %d ends with %d, the engine %d:\n%s", p, stack[p], want, buf.String())
		}
	}
	var want []string
	for _, ev := range eh.Events() {
		kind := map[engine.EventKind]string{engine.EvFold: "Fold", engine.EvCheck: "Check", engine.EvCall: "Call", engine.EvBet: "Bet", engine.EvRaise: "Raise"}[ev.Kind]
		if kind != "" {
			want = append(want, fmt.Sprintf("%d %s %d", ev.Player, kind, map[bool]int64{true: ev.Amount}[ev.Kind >= engine.EvCall]))
		}
	}
	if strings.Join(acts, ";") != strings.Join(want, ";") {
		t.Fatalf("OHH actions %v, want %v", acts, want)
	}
	shown := map[int]bool{}
	for _, ev := range eh.Events() {
		if ev.Kind == engine.EvShow {
			shown[ev.Player] = true
		}
	}
	for p := range h.Setup.Stacks {
		for _, c := range eh.Hole(p) {
			if strings.Contains(buf.String(), `"`+c.String()+`"`) && !shown[p] && p != h.Hero && !onBoard(eh, c) {
				t.Fatalf("OHH shows player %d's unshown card %s", p, c)
			}
		}
	}
}

// checkPHHRoundTrip writes the hand as a published PHH file, reads it back and replays it as
// `dealerbot phh check` does: the same final stacks, and no unshown hole card but the hero's.
func checkPHHRoundTrip(t *testing.T, h Hand) {
	t.Helper()
	hist, err := PHH(&h)
	if err != nil {
		t.Fatal(err)
	}
	text, err := hist.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if res, detail := phh.CheckHand(bytes.NewReader(text)); res != phh.Match {
		t.Fatalf("phh check of the export: %v %s\n%s", res, detail, text)
	}
	eh, err := h.replay()
	if err != nil {
		t.Fatal(err)
	}
	shown := map[int]bool{}
	for _, ev := range eh.Events() {
		if ev.Kind == engine.EvShow {
			shown[ev.Player] = true
		}
		if ev.Kind == engine.EvReveal {
			for _, r := range ev.Hands {
				shown[r.Player] = true
			}
		}
	}
	for p := range h.Setup.Stacks {
		hole := eh.Hole(p)
		if strings.Contains(string(text), engine.FormatCards(hole[:])) != (shown[p] || p == h.Hero) {
			t.Fatalf("player %d (hero %d, shown %v): hole cards written %v\n%s", p, h.Hero, shown[p], !(shown[p] || p == h.Hero), text)
		}
	}
}

// TestBombPotRunTwice: a bomb pot that puts a player all-in and is run twice exports to every format
// and replays (the pre-flop checks of the bomb pot come once, before the first flop).
func TestBombPotRunTwice(t *testing.T) {
	d := engine.OrderedDeck()
	s := engine.Setup{Rules: engine.Rules{SmallBlind: 16, BigBlind: 33}, Stacks: []int64{2826, 42}, BombPot: 72, RunItTwice: true, Deck: d}
	eh, err := engine.NewHand(s)
	if err != nil {
		t.Fatal(err)
	}
	for !eh.Done() {
		o, _ := eh.Options()
		kind := engine.Check
		if o.RunItTwice {
			kind = engine.RunTwice
		}
		if _, err := eh.Apply(engine.Action{Player: o.Player, Kind: kind}); err != nil {
			t.Fatal(err)
		}
	}
	if len(eh.Board2()) == 0 {
		t.Fatal("the hand was not run twice")
	}
	h := Hand{Table: "t", No: 1, Setup: s, Actions: eh.Actions(), Hero: -1}
	text, err := PokerStarsHand(&h)
	if err != nil {
		t.Fatal(err)
	}
	checkRoundTrip(t, h, text)
	checkOHHRoundTrip(t, h)
	checkPHHRoundTrip(t, h)
}
