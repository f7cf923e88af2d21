package hh

import (
	"bytes"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/dealerbot/dealerbot/engine"
	"github.com/dealerbot/dealerbot/engine/phh"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// script plays a hand from a deck whose first cards are given (hole cards in dealing order: round one
// from the seat left of the button, then round two; then burn, flop, burn, turn, burn, river) and a
// list of verbs for whoever is to act: "fold", "check", "call", "allin", "bet 20", "raise 60".
func script(t *testing.T, rules engine.Rules, stacks []int64, button int, top string, verbs ...string) (engine.Setup, []engine.Action) {
	t.Helper()
	deck, err := engine.DeckFrom(engine.MustParseCards(top))
	if err != nil {
		t.Fatal(err)
	}
	s := engine.Setup{Rules: rules, Stacks: stacks, Button: button, Deck: deck}
	h, err := engine.NewHand(s)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range verbs {
		f := strings.Fields(v)
		a := engine.Action{Player: h.ToAct()}
		switch f[0] {
		case "fold":
			a.Kind = engine.Fold
		case "check":
			a.Kind = engine.Check
		case "call":
			a.Kind = engine.Call
		case "allin":
			a.Kind = engine.AllIn
		case "bet", "raise":
			a.Kind = engine.Bet
			if f[0] == "raise" {
				a.Kind = engine.Raise
			}
			fmt.Sscan(f[1], &a.Amount)
		}
		if _, err := h.Apply(a); err != nil {
			t.Fatalf("%s: %v", v, err)
		}
	}
	if !h.Done() {
		t.Fatalf("the script leaves the hand unfinished")
	}
	return s, h.Actions()
}

var goldenTime = time.Date(2026, 11, 20, 21, 30, 0, 0, time.UTC)

func goldenHands(t *testing.T) map[string]Hand {
	nl := engine.Rules{Variant: engine.NoLimit, SmallBlind: 5, BigBlind: 10}
	names := []string{"alice", "bob", "carol"}
	mk := func(no int64, s engine.Setup, acts []engine.Action, n int) Hand {
		return Hand{Table: "discord/g1/c1", Name: "dealerbot #poker", No: no, Time: goldenTime, Setup: s, Actions: acts,
			Names: names[:n], Seats: []int{1, 3, 6}[:n], MaxSeats: 9, Hero: 0}
	}
	out := map[string]Hand{}
	// Button alice; bob small blind, carol big blind. Everyone folds to the big blind.
	s, a := script(t, nl, []int64{1000, 1000, 1000}, 0, "", "fold", "fold")
	out["fold-out"] = mk(1, s, a, 3)
	// alice raises, carol calls; alice bets the flop and carol folds: the bet comes back.
	s, a = script(t, nl, []int64{1000, 1000, 1000}, 0, "", "raise 30", "fold", "call", "check", "bet 50", "fold")
	out["uncalled-bet"] = mk(2, s, a, 3)
	// alice all-in for 100 with aces, bob and carol all-in for 300: a main and a side pot.
	s, a = script(t, nl, []int64{100, 300, 300}, 0, "Kd Qc Ah Kh Qd As 2c 7s 8d 9h 3c 4c 5c Jd",
		"allin", "allin", "allin")
	out["side-pot-showdown"] = mk(3, s, a, 3)
	// bob folds his small blind; the board is a royal flush, so alice and carol split 25: 13 and 12.
	s, a = script(t, nl, []int64{1000, 1000, 1000}, 0, "2c 3d 4h 5c 6d 7h 8c As Ks Qs 9c Js 9d Ts",
		"call", "fold", "check", "check", "check", "check", "check", "check", "check")
	out["split-odd-chip"] = mk(4, s, a, 3)
	// Fixed limit 10/20 heads-up: bets and raises of fixed sizes to a showdown.
	fl := engine.Rules{Variant: engine.FixedLimit, SmallBlind: 5, BigBlind: 10}
	s, a = script(t, fl, []int64{500, 500}, 0, "Ah 2c Kh 3c 4s Ad 7c 9h 5s Ks 6s Qd",
		"raise 20", "call", "check", "bet 10", "call", "bet 20", "raise 40", "call", "check", "check")
	out["fixed-limit"] = mk(5, s, a, 2)
	// Run it twice: alice's aces win the first board, bob's kings the second; 1,001 split 501/500.
	rit := engine.MustParseCards("2c Ks As 3d Kh Ah 2s 7c 8d 9h 3s Tc 4h 2h 3h Kd 4c 5s 4d 6h 5d Js")
	ritDeck, err := engine.DeckFrom(rit)
	if err != nil {
		t.Fatal(err)
	}
	sr := engine.Setup{Rules: engine.Rules{SmallBlind: 1, BigBlind: 2}, Stacks: []int64{500, 100, 500}, RunItTwice: true, Deck: ritDeck}
	hr, err := engine.NewHand(sr)
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range []engine.Action{{Player: 0, Kind: engine.AllIn}, {Player: 1, Kind: engine.Fold}, {Player: 2, Kind: engine.Call},
		{Player: 2, Kind: engine.RunTwice}, {Player: 0, Kind: engine.RunTwice}} {
		if _, err := hr.Apply(a); err != nil {
			t.Fatal(err)
		}
	}
	out["run-twice"] = mk(7, sr, hr.Actions(), 3)
	// carol has 4 chips left: her big blind is a short all-in.
	s, a = script(t, nl, []int64{1000, 1000, 4}, 0, "Ah 2c 7d Kh 3c 7s 4s Ad 8c 9h 5s Jc 6s Qd", "call", "call",
		"check", "check", "check", "check", "check", "check")
	out["short-all-in-blind"] = mk(6, s, a, 3)
	return out
}

// TestPokerStarsGolden compares the PokerStars text of six scripted hands with golden files, and reads
// each back: the same actions, the same final stacks.
func TestPokerStarsGolden(t *testing.T) {
	for name, h := range goldenHands(t) {
		t.Run(name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := PokerStars(&buf, []Hand{h}); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join("testdata", name+".txt")
			if *update {
				os.MkdirAll("testdata", 0o755)
				if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run with -update to write it)", err)
			}
			if got := buf.String(); got != string(want) {
				t.Fatalf("PokerStars text differs from %s:\n--- got\n%s\n--- want\n%s", path, got, want)
			}
			checkRoundTrip(t, h, buf.String())
		})
	}
}

// checkRoundTrip reads a PokerStars export back and compares it with the engine's replay: the same
// betting actions and the same final stacks, and no unshown hole card but the hero's.
func checkRoundTrip(t *testing.T, h Hand, text string) {
	t.Helper()
	hands, err := parsePokerStars(text)
	if err != nil {
		t.Fatalf("%v\n%s", err, text)
	}
	if len(hands) != 1 || !hands[0].SummaryOK {
		t.Fatalf("read %d hands back (summary %v):\n%s", len(hands), len(hands) > 0 && hands[0].SummaryOK, text)
	}
	p := hands[0]
	eh, err := h.replay()
	if err != nil {
		t.Fatal(err)
	}
	if p.ID != fmt.Sprint(HandID(h.Table, h.No)) {
		t.Fatalf("hand ID %s, want %d", p.ID, HandID(h.Table, h.No))
	}
	final := eh.Stacks()
	for i := range h.Setup.Stacks {
		if got := p.final(h.name(i)); got != final[i] {
			t.Fatalf("%s ends with %d by the text, %d by the engine:\n%s", h.name(i), got, final[i], text)
		}
	}
	var want []parsedAction
	for _, ev := range eh.Events() {
		a := parsedAction{Name: h.name(ev.Player)}
		switch ev.Kind {
		case engine.EvFold:
			a.Verb = "fold"
		case engine.EvCheck:
			a.Verb = "check"
		case engine.EvCall:
			a.Verb, a.To = "call", ev.Amount
		case engine.EvBet:
			a.Verb, a.To = "bet", ev.To
		case engine.EvRaise:
			a.Verb, a.To = "raise", ev.To
		default:
			continue
		}
		want = append(want, a)
	}
	if fmt.Sprint(p.Actions) != fmt.Sprint(want) {
		t.Fatalf("actions read back:\n%v\nwant\n%v\n%s", p.Actions, want, text)
	}
	shown := map[int]bool{}
	for _, ev := range eh.Events() {
		if ev.Kind == engine.EvShow {
			shown[ev.Player] = true
		}
	}
	written := map[string]bool{} // every card in brackets, as cards are written (not inside "Three")
	for _, m := range bracketed.FindAllStringSubmatch(text, -1) {
		for _, c := range strings.Fields(m[1]) {
			written[c] = true
		}
	}
	for i := range h.Setup.Stacks {
		for _, c := range eh.HoleCards(i) {
			if written[c.String()] && !shown[i] && i != h.Hero && !onBoard(eh, c) {
				t.Fatalf("%s's unshown card %s is in the export:\n%s", h.name(i), c, text)
			}
		}
	}
	if h.Hero >= 0 {
		if p.Dealt[h.name(h.Hero)] != cards(eh.HoleCards(h.Hero)) {
			t.Fatalf("Dealt to %s: %q", h.name(h.Hero), p.Dealt[h.name(h.Hero)])
		}
	}
}

var bracketed = regexp.MustCompile(`\[([^\]]*)\]`)

func onBoard(h *engine.Hand, c engine.Card) bool {
	for _, b := range h.Board() {
		if b == c {
			return true
		}
	}
	return false
}

// randomHand plays a random hand: 2 to 10 players, any structure, antes now and then, stacks from
// very short to deep, and actions drawn from what the engine offers.
func randomHand(r *rand.Rand, no int64) Hand {
	n := 2 + r.IntN(9)
	bb := int64(2 + r.IntN(40))
	rules := engine.Rules{Variant: engine.Variant(r.IntN(3)), SmallBlind: bb / 2, BigBlind: bb}
	if r.IntN(4) == 0 {
		rules.Ante = 1 + r.Int64N(bb)
	}
	stacks := make([]int64, n)
	for i := range stacks {
		stacks[i] = 1 + r.Int64N(150*bb)
	}
	d := engine.OrderedDeck()
	r.Shuffle(len(d), func(i, j int) { d[i], d[j] = d[j], d[i] })
	s := engine.Setup{Rules: rules, Stacks: stacks, Button: r.IntN(n), Deck: d}
	switch r.IntN(6) { // home-game options: bomb pots and straddles
	case 0:
		s.BombPot = 1 + r.Int64N(3*bb)
	case 1:
		if s.Straddle = true; s.CheckStraddle() != nil {
			s.Straddle = false
		}
	}
	h, err := engine.NewHand(s)
	if err != nil {
		panic(err)
	}
	s.RunItTwice = r.IntN(3) == 0
	h, err = engine.NewHand(s)
	if err != nil {
		panic(err)
	}
	for !h.Done() {
		o, _ := h.Options()
		p := o.Player
		if o.RunItTwice {
			kind := []engine.ActionKind{engine.RunTwice, engine.RunTwice, engine.RunOnce}[r.IntN(3)]
			if _, err := h.Apply(engine.Action{Player: p, Kind: kind}); err != nil {
				panic(err)
			}
			continue
		}
		acts := []engine.Action{{Player: p, Kind: engine.Fold}}
		if o.CanCheck {
			acts = append(acts, engine.Action{Player: p, Kind: engine.Check}, engine.Action{Player: p, Kind: engine.Check})
		}
		if o.CanCall {
			acts = append(acts, engine.Action{Player: p, Kind: engine.Call}, engine.Action{Player: p, Kind: engine.Call})
		}
		if o.CanBet || o.CanRaise {
			k := engine.Raise
			if o.CanBet {
				k = engine.Bet
			}
			acts = append(acts, engine.Action{Player: p, Kind: k, Amount: o.MinTo + r.Int64N(o.MaxTo-o.MinTo+1)})
		}
		if _, err := h.Apply(acts[r.IntN(len(acts))]); err != nil {
			panic(err)
		}
	}
	names := make([]string, n)
	seats := make([]int, n)
	for i := range names {
		names[i] = fmt.Sprintf("player %d", i+1)
		seats[i] = i + 1
	}
	return Hand{Table: "test/w/c", Name: "random", No: no, Time: goldenTime, Setup: s, Actions: h.Actions(),
		Names: names, Seats: seats, MaxSeats: 10, Hero: r.IntN(n+1) - 1}
}

// TestRoundTripRandomHands: 10,000 random hands of every structure, exported to PokerStars text and
// to OHH, read back to the same actions and final stacks.
func TestRoundTripRandomHands(t *testing.T) {
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	r := rand.New(rand.NewPCG(seed, 9))
	count := 10000
	if testing.Short() {
		count = 1000
	}
	for i := 0; i < count; i++ {
		h := randomHand(r, int64(i+1))
		text, err := PokerStarsHand(&h)
		if err != nil {
			t.Fatal(err)
		}
		checkRoundTrip(t, h, text)
		checkOHHRoundTrip(t, h)
		checkPHHRoundTrip(t, h)
	}
}

// TestRoundTripCorpus exports every hand of the PHH corpus the engine plays and reads it back.
func TestRoundTripCorpus(t *testing.T) {
	root := filepath.Join("..", "..", "..", "shared", "phh")
	if _, err := os.Stat(root); err != nil {
		t.Skipf("the hand-history corpus %s is not here (%v)", root, err)
	}
	played := 0
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".phh") {
			return err
		}
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		defer f.Close()
		hist, err := phh.Parse(f)
		if err != nil || !phh.Replayable(hist.Variant) {
			return nil
		}
		eh, err := phh.Replay(hist)
		if err != nil {
			return nil // not whole chips, or not a hand the engine plays
		}
		names := make([]string, eh.NumPlayers())
		for i := range names {
			names[i] = fmt.Sprintf("p%d", i+1)
		}
		h := Hand{Table: path, Name: filepath.Base(path), No: int64(played + 1), Time: goldenTime, Setup: eh.Setup(),
			Actions: eh.Actions(), Names: names, Hero: -1}
		text, err := PokerStarsHand(&h)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		checkRoundTrip(t, h, text)
		checkOHHRoundTrip(t, h)
		checkPHHRoundTrip(t, h)
		played++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if played < 10000 {
		t.Fatalf("%d corpus hands exported, want every one the engine plays (10,018)", played)
	}
	t.Logf("%d corpus hands exported and read back", played)
}
