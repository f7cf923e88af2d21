package render

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math"
	"math/rand/v2"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/dealerbot/dealerbot/engine"
)

func TestChips(t *testing.T) {
	for _, tc := range []struct {
		in   int64
		want string
	}{
		{0, "0"},
		{7, "7"},
		{999, "999"},
		{1000, "1,000"},
		{1250, "1,250"},
		{100000, "100,000"},
		{1234567, "1,234,567"},
		{-5, "-5"},
		{-1250, "-1,250"},
		{-100000, "-100,000"},
		{math.MaxInt64, "9,223,372,036,854,775,807"},
		{math.MinInt64, "-9,223,372,036,854,775,808"},
	} {
		if got := Chips(tc.in); got != tc.want {
			t.Errorf("Chips(%d) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestCards(t *testing.T) {
	for _, tc := range []struct {
		name  string
		cards string
		style CardStyle
		want  string
	}{
		{"text", "As Kh 9d 5c", TextCards, "A♠ K♥ 9♦ 5♣"},
		{"text ten", "Td Ts", TextCards, "10♦ 10♠"},
		{"emoji", "As Kh 9d 5c", EmojiCards, "A♠️ K♥️ 9🔷 5🍀"},
		{"emoji ten", "Tc", EmojiCards, "10🍀"},
		{"none", "", TextCards, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Cards(engine.MustParseCards(tc.cards), tc.style); got != tc.want {
				t.Errorf("Cards(%s) = %q, want %q", tc.cards, got, tc.want)
			}
		})
	}
	if got, want := Cards([]engine.Card{52}, TextCards), "??"; got != want {
		t.Errorf("a card outside the deck is drawn %q, want %q", got, want)
	}
}

// Card pictures are written as the platform's emoji text; without faces (not uploaded yet, or refused)
// they fall back to emoji cards, never to an empty string.
func TestImageCards(t *testing.T) {
	var f Faces
	for c := range f {
		f[c] = fmt.Sprintf("<:c%d:%d>", c, 1000+c)
	}
	kd, _ := engine.ParseCard("Kd")
	if got, want := Card(kd, ImageCards(&f)), fmt.Sprintf("<:c%d:%d>", kd, 1000+int(kd)); got != want {
		t.Errorf("image card %q, want %q", got, want)
	}
	four := CardStyle{Kind: CardImages4, Faces: &f}
	if got := Cards([]engine.Card{kd, 0}, four); got != "<:c"+fmt.Sprint(int(kd))+":"+fmt.Sprint(1000+int(kd))+"> <:c0:1000>" {
		t.Errorf("four-colour image cards %q", got)
	}
	for _, st := range []CardStyle{ImageCards(nil), {Kind: CardImages4}, ImageCards(&Faces{})} {
		if got, want := Card(kd, st), Card(kd, EmojiCards); got != want {
			t.Errorf("image cards without faces draw %q, want the emoji card %q", got, want)
		}
	}
	if got := CardNames([]engine.Card{kd, engine.NewCard(engine.Ten, engine.Clubs)}); got != "King of diamonds, ten of clubs" {
		t.Errorf("CardNames = %q", got)
	}
}

// A finished hand whose showdown with card pictures would pass Discord's 2,000 characters is drawn
// with emoji cards instead of being cut: every line of the result is still there.
func TestHandTableTooLongForPictures(t *testing.T) {
	var f Faces
	for c := range f {
		f[c] = fmt.Sprintf("<:db2_%s_1a2b3c:%d>", engine.Card(c), 1234567890123456789-c)
	}
	st := ImageCards(&f)
	v := HandView{TableView: TableView{HandNo: 7, Variant: engine.NoLimit, SmallBlind: 5, BigBlind: 10}, Over: true}
	for p := 0; p < 10; p++ {
		v.Seats = append(v.Seats, SeatView{Seat: p, Name: fmt.Sprintf("player%d", p), Stack: 100})
		hole := []engine.Card{engine.Card(2 * p), engine.Card(2*p + 1)}
		v.Result = append(v.Result, fmt.Sprintf("player%d shows %s — High card", p, Cards(hole, st)),
			fmt.Sprintf("player%d had %s all-in", p, Cards(hole, st)), fmt.Sprintf("player%d: %s", p, Cards(hole, st)))
	}
	v.Board = []engine.Card{40, 41, 42, 43, 44}
	short := v
	short.Result = v.Result[:2]
	if n := Length(strings.Join(v.Result, "\n")); n <= MaxText {
		t.Fatalf("the test's showdown is only %d characters with pictures", n)
	}
	if got := HandTable(short, st).Text; !strings.Contains(got, f[0]) || !strings.Contains(got, f[40]) {
		t.Fatalf("a short showdown is not drawn with the pictures:\n%s", got)
	}
	got := HandTable(v, st).Text
	if Length(got) > MaxText {
		t.Fatalf("the table is %d characters", Length(got))
	}
	if strings.Contains(got, "<:") {
		t.Errorf("a showdown too long for pictures still has some:\n%s", got)
	}
	for p := 0; p < 10; p++ {
		want := fmt.Sprintf("player%d shows %s — High card", p, Cards([]engine.Card{engine.Card(2 * p), engine.Card(2*p + 1)}, EmojiCards))
		if !strings.Contains(got, want) {
			t.Errorf("the table lacks %q:\n%s", want, got)
		}
	}
}

// TestSuitsDistinct checks what a player relies on: in each style every card of the deck looks
// different, and the emoji style never draws two suits in the same colour (the red ♦️ and the black ♣️
// emoji would pair up with ♥️ and ♠️).
func TestSuitsDistinct(t *testing.T) {
	for _, style := range []CardStyle{TextCards, EmojiCards} {
		seen := map[string]engine.Card{}
		for c := engine.Card(0); c < 52; c++ {
			s := Card(c, style)
			if d, dup := seen[s]; dup {
				t.Errorf("style %d draws %s and %s alike: %q", style.Kind, c, d, s)
			}
			seen[s] = c
		}
	}
	for _, c := range []string{"♦️", "♣️", "♦", "♣"} {
		if strings.Contains(Cards(engine.MustParseCards("2c 2d 2h 2s"), EmojiCards), c) {
			t.Errorf("emoji cards use %s, which shares its colour with another suit", c)
		}
	}
}

func TestTurnButtons(t *testing.T) {
	type btn struct {
		label, command string
		style          Style
		amount         bool
		min, max       int64
	}
	for _, tc := range []struct {
		name string
		o    engine.Options
		text string // the prompt must contain this
		want []btn
	}{
		{
			name: "check or bet",
			o:    engine.Options{CanCheck: true, CanBet: true, MinTo: 20, MaxTo: 1000, Stack: 1000},
			text: "Bob to act on the flop — nothing to call. Bet 20–1,000. 60s left.",
			want: []btn{{"Check", "check", Primary, false, 0, 0},
				{"Bet…", "bet", Secondary, true, 20, 1000}, {"All-in 1,000", "allin", Danger, false, 0, 0}},
		},
		{
			name: "call or raise",
			o:    engine.Options{CanCall: true, ToCall: 40, CanRaise: true, MinTo: 80, MaxTo: 1000, Stack: 1000},
			text: "Bob to act on the flop — 40 to call. Raise to 80–1,000. 60s left.",
			want: []btn{{"Fold", "fold", Danger, false, 0, 0}, {"Call 40", "call", Primary, false, 0, 0},
				{"Raise…", "raise", Secondary, true, 80, 1000}, {"All-in 1,000", "allin", Danger, false, 0, 0}},
		},
		{
			// no Fold button when checking is free.
			name: "big blind's option: check or raise",
			o:    engine.Options{CanCheck: true, CanRaise: true, MinTo: 20, MaxTo: 500, Bet: 10, Stack: 490},
			text: "nothing to call. Raise to 20–500.",
			want: []btn{{"Check", "check", Primary, false, 0, 0},
				{"Raise…", "raise", Secondary, true, 20, 500}, {"All-in 490", "allin", Danger, false, 0, 0}},
		},
		{
			name: "raise not allowed (betting not reopened or capped)",
			o:    engine.Options{CanCall: true, ToCall: 40, Stack: 1000},
			text: "Bob to act on the flop — 40 to call. 60s left.",
			want: []btn{{"Fold", "fold", Danger, false, 0, 0}, {"Call 40", "call", Primary, false, 0, 0}},
		},
		{
			name: "short stack: only all-in remains",
			o:    engine.Options{CanCall: true, ToCall: 25, Stack: 25},
			text: "25 to call (all-in).",
			want: []btn{{"Fold", "fold", Danger, false, 0, 0}, {"All-in 25", "allin", Danger, false, 0, 0}},
		},
		{
			name: "a raise short of a full raise can only be all-in",
			o:    engine.Options{CanCall: true, ToCall: 40, CanRaise: true, MinTo: 70, MaxTo: 70, Stack: 70},
			text: "40 to call. A raise can only be all-in (raise to 70).",
			want: []btn{{"Fold", "fold", Danger, false, 0, 0}, {"Call 40", "call", Primary, false, 0, 0},
				{"All-in 70", "allin", Danger, false, 0, 0}},
		},
		{
			name: "fixed-limit: one raise size, no prompt, no all-in",
			o:    engine.Options{CanCall: true, ToCall: 20, CanRaise: true, MinTo: 40, MaxTo: 40, Stack: 500},
			text: "20 to call. Raise to 40.",
			want: []btn{{"Fold", "fold", Danger, false, 0, 0}, {"Call 20", "call", Primary, false, 0, 0},
				{"Raise to 40", "raise 40", Secondary, false, 40, 40}},
		},
		{
			name: "pot-limit: the pot caps the raise below the stack, so no all-in",
			o:    engine.Options{CanCall: true, ToCall: 50, CanRaise: true, MinTo: 100, MaxTo: 250, Stack: 2000},
			text: "50 to call. Raise to 100–250.",
			want: []btn{{"Fold", "fold", Danger, false, 0, 0}, {"Call 50", "call", Primary, false, 0, 0},
				{"Raise…", "raise", Secondary, true, 100, 250}},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := turn(TurnView{Name: "Bob", Options: tc.o, SecondsLeft: 60, Token: "tok-7", Street: engine.Flop})
			if !strings.Contains(m.Text, tc.text) {
				t.Errorf("text %q does not contain %q", m.Text, tc.text)
			}
			if m.Private {
				t.Error("the turn prompt is private; it belongs in the channel")
			}
			var got []btn
			for _, b := range m.Buttons {
				got = append(got, btn{b.Label, b.Command, b.Style, b.Amount, b.Min, b.Max})
				if b.Token != "tok-7" {
					t.Errorf("button %q carries token %q, want %q", b.Label, b.Token, "tok-7")
				}
			}
			if fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Errorf("buttons\n got %v\nwant %v", got, tc.want)
			}
		})
	}
}

// TestTurnButtonsAreLegal plays random hands in all three variants and, at every decision, checks
// that each button offered is an action the engine accepts (at both ends of an amount prompt), and
// that every legal kind of action has a button.
func TestTurnButtonsAreLegal(t *testing.T) {
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 1))
	for i := 0; i < 300; i++ {
		s := randomSetup(t, rng)
		h, err := engine.NewHand(s)
		if err != nil {
			t.Fatal(err)
		}
		for !h.Done() {
			o, _ := h.Options()
			m := turn(TurnView{Name: "P", Options: o, Token: "x", Street: h.Street()})
			offered := map[engine.ActionKind]bool{}
			for _, b := range m.Buttons {
				for _, a := range buttonActions(t, o.Player, b) {
					offered[a.Kind] = true
					if err := h.Validate(a); err != nil {
						t.Fatalf("seed %d hand %d: button %q (%s) is refused: %v; options %+v", seed, i, b.Label, a, err, o)
					}
				}
			}
			if offered[engine.Fold] == o.CanCheck {
				t.Fatalf("seed %d hand %d: a Fold button %v with checking free %v (R-23: Fold only when something is owed)", seed, i, offered[engine.Fold], o.CanCheck)
			}
			for _, k := range []engine.ActionKind{engine.Check, engine.Call} {
				if err := h.Validate(engine.Action{Player: o.Player, Kind: k}); err == nil && !offered[k] && !offered[engine.AllIn] {
					t.Fatalf("seed %d hand %d: %s is legal but has no button; options %+v", seed, i, k, o)
				}
			}
			if err := h.Validate(engine.Action{Player: o.Player, Kind: engine.AllIn}); err == nil && o.Stack > 0 &&
				!offered[engine.AllIn] && o.MaxTo >= o.Bet+o.Stack {
				t.Fatalf("seed %d hand %d: all-in is legal but has no button; options %+v", seed, i, o)
			}
			if _, err := h.Apply(randomAction(rng, o)); err != nil {
				t.Fatalf("seed %d hand %d: %v", seed, i, err)
			}
		}
	}
}

// buttonActions turns a click on b into the engine actions it can lead to.
func buttonActions(t *testing.T, p int, b Button) []engine.Action {
	t.Helper()
	f := strings.Fields(b.Command)
	kinds := map[string]engine.ActionKind{"fold": engine.Fold, "check": engine.Check, "call": engine.Call,
		"bet": engine.Bet, "raise": engine.Raise, "allin": engine.AllIn}
	k, ok := kinds[f[0]]
	if !ok {
		t.Fatalf("button %q runs unknown command %q", b.Label, b.Command)
	}
	switch {
	case b.Amount:
		return []engine.Action{{Player: p, Kind: k, Amount: b.Min}, {Player: p, Kind: k, Amount: b.Max}}
	case len(f) == 2:
		var n int64
		fmt.Sscan(f[1], &n)
		return []engine.Action{{Player: p, Kind: k, Amount: n}}
	}
	return []engine.Action{{Player: p, Kind: k}}
}

func randomSetup(t testing.TB, rng *rand.Rand) engine.Setup {
	n := 2 + rng.IntN(9)
	stacks := make([]int64, n)
	for i := range stacks {
		stacks[i] = 1 + rng.Int64N(400)
	}
	var seed [32]byte
	for i := range seed {
		seed[i] = byte(rng.Uint32())
	}
	deck, err := engine.ShuffledDeck(rand.NewChaCha8(seed))
	if err != nil {
		t.Fatal(err)
	}
	r := engine.Rules{Variant: engine.Variant(rng.IntN(3)), SmallBlind: 5, BigBlind: 10}
	if rng.IntN(3) == 0 {
		r.Ante = 2
		r.BigBlindAnte = rng.IntN(2) == 0
	}
	return engine.Setup{Rules: r, Stacks: stacks, Button: rng.IntN(n), Deck: deck}
}

func randomAction(rng *rand.Rand, o engine.Options) engine.Action {
	a := engine.Action{Player: o.Player}
	switch x := rng.IntN(10); {
	case x == 0:
		a.Kind = engine.Fold
	case x < 3 && (o.CanBet || o.CanRaise):
		a.Kind = engine.Raise
		if o.CanBet {
			a.Kind = engine.Bet
		}
		a.Amount = o.MinTo + rng.Int64N(o.MaxTo-o.MinTo+1)
	case x == 3:
		a.Kind = engine.AllIn
		if !(o.CanBet || o.CanRaise) || o.MaxTo < o.Bet+o.Stack {
			a.Kind = engine.Call
		}
	default:
		a.Kind = engine.Call
	}
	if a.Kind == engine.Call && o.CanCheck {
		a.Kind = engine.Check
	}
	return a
}

// cardPattern finds drawn cards in a message, in either style.
var cardPattern = regexp.MustCompile(`(10|[2-9JQKA])(♠️|♥️|🔷|🍀|♠|♥|♦|♣)`)

// TestHoleCardsStayPrivate renders every event of the scripted hands and of random hands, one at a
// time and grouped, in both styles, and checks that a player's hole cards appear in a public message
// only from the event that turns them up (EvShow or EvReveal), never before, and never for a hand
// that is mucked or folded.
func TestHoleCardsStayPrivate(t *testing.T) {
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 2))
	var hands []*engine.Hand
	for _, s := range scripts {
		h, err := engine.Replay(s.setup(t), s.actions)
		if err != nil {
			t.Fatal(err)
		}
		hands = append(hands, h)
	}
	for i := 0; i < 300; i++ {
		h, err := engine.NewHand(randomSetup(t, rng))
		if err != nil {
			t.Fatal(err)
		}
		for !h.Done() {
			o, _ := h.Options()
			if _, err := h.Apply(randomAction(rng, o)); err != nil {
				t.Fatal(err)
			}
		}
		hands = append(hands, h)
	}
	for i, h := range hands {
		names := Names{"Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon"}
		for _, style := range []CardStyle{TextCards, EmojiCards} {
			hole := map[string]int{} // drawn card -> owner
			for p := 0; p < h.NumPlayers(); p++ {
				for _, c := range h.Hole(p) {
					hole[Card(c, style)] = p
				}
			}
			turnedUp := map[int]bool{}
			var public []string
			n := Narrator{Names: names, Style: style}
			for k, ev := range h.Events() {
				switch ev.Kind {
				case engine.EvShow:
					turnedUp[ev.Player] = true
				case engine.EvReveal:
					for _, r := range ev.Hands {
						turnedUp[r.Player] = true
					}
				}
				m, ok := Event(ev, names, style)
				if ev.Kind == engine.EvHoleCards && ok {
					t.Fatalf("hand %d: hole cards rendered publicly: %q", i, m.Text)
				}
				var texts []string
				if ok {
					texts = append(texts, m.Text)
				}
				for _, m := range n.Events([]engine.Event{ev}) {
					texts = append(texts, m.Text)
				}
				for _, text := range texts {
					if m.Private {
						t.Fatalf("hand %d: event %s rendered as a private message", i, ev.Kind)
					}
					for _, c := range cardPattern.FindAllString(text, -1) {
						if p, isHole := hole[c]; isHole && !turnedUp[p] {
							t.Fatalf("seed %d hand %d event %d (%s): %q shows player %d's hole card %s before it is turned up",
								seed, i, k, ev.Kind, text, p, c)
						}
					}
				}
				public = append(public, texts...)
			}
			// Grouping must not change what is public.
			for _, m := range Events(h.Events(), names, style) {
				for _, c := range cardPattern.FindAllString(m.Text, -1) {
					if p, isHole := hole[c]; isHole && !turnedUp[p] {
						t.Fatalf("hand %d: grouped message shows player %d's mucked or folded card %s", i, p, c)
					}
				}
			}
		}
	}
}

func TestEventNeverPublishesHoleCardsOrTurns(t *testing.T) {
	names := Names{"Alice", "Bob"}
	for _, ev := range []engine.Event{
		{Kind: engine.EvHoleCards, Player: 0, Cards: engine.MustParseCards("As Ah")},
		{Kind: engine.EvTurn, Player: 1, Street: engine.Flop},
	} {
		if m, ok := Event(ev, names, TextCards); ok {
			t.Errorf("Event(%s) = %q, want nothing public", ev.Kind, m.Text)
		}
		if ms := Events([]engine.Event{ev}, names, EmojiCards); len(ms) != 0 {
			t.Errorf("Events(%s) = %v, want no messages", ev.Kind, ms)
		}
	}
}

func TestEventLines(t *testing.T) {
	names := Names{"Alice", "Bob", "Carol"}
	aces := &engine.HandValue{Category: engine.TwoPair, Description: "Two pair, aces and eights"}
	for _, tc := range []struct {
		name string
		ev   engine.Event
		want string
	}{
		{"small blind", engine.Event{Kind: engine.EvSmallBlind, Player: 0, Amount: 5, To: 5}, "Alice posts the small blind 5"},
		{"short big blind", engine.Event{Kind: engine.EvBigBlind, Player: 1, Amount: 7, To: 7, AllIn: true},
			"Bob posts the big blind 7 and is all-in"},
		{"ante", engine.Event{Kind: engine.EvAnte, Player: 2, Amount: 1}, "Carol posts the ante 1"},
		{"fold", engine.Event{Kind: engine.EvFold, Player: 2}, "Carol folds"},
		{"check", engine.Event{Kind: engine.EvCheck, Player: 0}, "Alice checks"},
		{"call", engine.Event{Kind: engine.EvCall, Player: 1, Amount: 40, To: 60}, "Bob calls 40"},
		{"call all-in", engine.Event{Kind: engine.EvCall, Player: 1, Amount: 35, To: 55, AllIn: true}, "Bob calls 35 and is all-in"},
		{"bet", engine.Event{Kind: engine.EvBet, Player: 0, Amount: 1500, To: 1500}, "Alice bets 1,500"},
		{"raise", engine.Event{Kind: engine.EvRaise, Player: 1, Amount: 50, To: 60}, "Bob raises to 60"},
		{"raise all-in", engine.Event{Kind: engine.EvRaise, Player: 2, Amount: 230, To: 240, AllIn: true}, "Carol is all-in for 240"},
		{"uncalled", engine.Event{Kind: engine.EvReturn, Player: 0, Amount: 50}, "Uncalled 50 returned to Alice"},
		{"one pot", engine.Event{Kind: engine.EvPots, Player: -1, Pots: []engine.Pot{{Amount: 120, Eligible: []int{0, 1}}}}, "Pot: 120"},
		{"side pots", engine.Event{Kind: engine.EvPots, Player: -1, Pots: []engine.Pot{
			{Amount: 300, Eligible: []int{0, 1, 2}}, {Amount: 1400, Eligible: []int{1, 2}}}},
			"Main pot: 300 (Alice, Bob, Carol)\nSide pot 1: 1,400 (Bob, Carol)"},
		{"flop", engine.Event{Kind: engine.EvBoard, Player: -1, Street: engine.Flop,
			Cards: engine.MustParseCards("7d5h9d"), Board: engine.MustParseCards("7d5h9d")}, "Flop: 7♦ 5♥ 9♦"},
		{"river", engine.Event{Kind: engine.EvBoard, Player: -1, Street: engine.River,
			Cards: engine.MustParseCards("Ac"), Board: engine.MustParseCards("7d5h9dJsAc")}, "River: A♣ (board 7♦ 5♥ 9♦ J♠ A♣)"},
		{"reveal", engine.Event{Kind: engine.EvReveal, Player: -1, Hands: []engine.Revealed{
			{Player: 0, Cards: [2]engine.Card{engine.NewCard(engine.Ace, engine.Spades), engine.NewCard(engine.Ace, engine.Hearts)}},
			{Player: 1, Cards: [2]engine.Card{engine.NewCard(engine.King, engine.Spades), engine.NewCard(engine.King, engine.Diamonds)}}}},
			"All-in: Alice A♠ A♥, Bob K♠ K♦"},
		{"show", engine.Event{Kind: engine.EvShow, Player: 1, Street: engine.Showdown, Cards: engine.MustParseCards("KsKd"),
			Value: &engine.HandValue{Description: "Full house, kings full of sevens"}}, "Bob shows K♠ K♦ — Full house, kings full of sevens"},
		{"muck", engine.Event{Kind: engine.EvMuck, Player: 2, Street: engine.Showdown}, "Carol mucks"},
		{"award without context", engine.Event{Kind: engine.EvAward, Player: -1, Street: engine.Showdown, Amount: 300, Value: aces,
			Pots: []engine.Pot{{Amount: 300, Eligible: []int{0, 1}, Winners: []int{0}, Shares: []int64{300}}}},
			"Alice wins 300 with two pair, aces and eights"},
		{"three-way split", engine.Event{Kind: engine.EvAward, Player: -1, Street: engine.Showdown, Amount: 35, Value: aces,
			Pots: []engine.Pot{{Amount: 35, Eligible: []int{0, 1, 2}, Winners: []int{0, 1, 2}, Shares: []int64{12, 12, 11}}}},
			"Alice, Bob and Carol split 35: 12, 12 and 11 with the same hand, two pair, aces and eights"},
		{"won by folds", engine.Event{Kind: engine.EvAward, Player: 1, Street: engine.Flop, Amount: 90,
			Pots: []engine.Pot{{Amount: 90, Eligible: []int{1}, Winners: []int{1}, Shares: []int64{90}}}},
			"Bob wins 90 — everyone else folded"},
		{"end", engine.Event{Kind: engine.EvEnd, Player: -1, Stacks: []int64{1250, 0, 750}}, "Stacks: Alice 1,250 · Bob 0 · Carol 750"},
		{"missing name", engine.Event{Kind: engine.EvCheck, Player: 5}, "Player 6 checks"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, ok := Event(tc.ev, names, TextCards)
			if !ok {
				t.Fatalf("Event(%s) has nothing to say, want %q", tc.ev.Kind, tc.want)
			}
			if m.Text != tc.want || m.Private || len(m.Buttons) > 0 {
				t.Errorf("Event(%s) = %+v, want public text %q", tc.ev.Kind, m, tc.want)
			}
		})
	}
}

// TestAwardsNamePots checks that after the pots are announced each award says which pot it is, even
// when two pots have the same players.
func TestAwardsNamePots(t *testing.T) {
	names := Names{"Alice", "Bob", "Carol"}
	n := Narrator{Names: names}
	pots := []engine.Pot{{Amount: 300, Eligible: []int{0, 1, 2}}, {Amount: 400, Eligible: []int{1, 2}}, {Amount: 35, Eligible: []int{1, 2}}}
	msgs := n.Events([]engine.Event{
		{Kind: engine.EvPots, Player: -1, Street: engine.River, Pots: pots},
		{Kind: engine.EvAward, Player: -1, Street: engine.Showdown, Amount: 300,
			Pots: []engine.Pot{{Amount: 300, Eligible: []int{0, 1, 2}, Winners: []int{0}, Shares: []int64{300}}}},
		{Kind: engine.EvAward, Player: -1, Street: engine.Showdown, Amount: 400,
			Pots: []engine.Pot{{Amount: 400, Eligible: []int{1, 2}, Winners: []int{2}, Shares: []int64{400}}}},
		{Kind: engine.EvAward, Player: -1, Street: engine.Showdown, Amount: 35,
			Pots: []engine.Pot{{Amount: 35, Eligible: []int{1, 2}, Winners: []int{1, 2}, Shares: []int64{18, 17}}}},
	})
	if len(msgs) != 2 {
		t.Fatalf("got %d messages, want the pots and then the showdown: %v", len(msgs), msgs)
	}
	want := "Alice wins the main pot (300)\nCarol wins side pot 1 (400)\nBob and Carol split side pot 2 (35): 18 and 17"
	if got := msgs[1].Text; got != want {
		t.Errorf("awards:\n%s\nwant:\n%s", got, want)
	}
}

// tenPlayers is a ten-handed hand where everyone is all-in pre-flop for a different amount (nine side
// pots), played by players with the longest names a platform allows.
func tenPlayers(t testing.TB) (*engine.Hand, Names) {
	stacks := make([]int64, 10)
	names := make(Names, 10)
	for i := range stacks {
		stacks[i] = 1_000_000 + int64(i)*111_111
		names[i] = strings.Repeat(string(rune('A'+i)), 80) // Slack allows 80; we cut at 32
	}
	deck, err := engine.DeckFrom(nil)
	if err != nil {
		t.Fatal(err)
	}
	h, err := engine.NewHand(engine.Setup{Rules: engine.Rules{SmallBlind: 500, BigBlind: 1000, Ante: 100},
		Stacks: stacks, Button: 0, Deck: deck})
	if err != nil {
		t.Fatal(err)
	}
	for !h.Done() {
		o, _ := h.Options()
		if _, err := h.Apply(engine.Action{Player: o.Player, Kind: engine.AllIn}); err != nil {
			t.Fatal(err)
		}
	}
	return h, names
}

func TestMessagesFitDiscord(t *testing.T) {
	h, names := tenPlayers(t)
	var pots []engine.Pot
	for _, ev := range h.Events() {
		if ev.Kind == engine.EvPots {
			pots = ev.Pots
		}
	}
	if len(pots) < 9 {
		t.Fatalf("the ten-player hand has %d pots, want at least 9", len(pots))
	}
	var msgs []Message
	for _, style := range []CardStyle{TextCards, EmojiCards} {
		msgs = append(msgs, Events(h.Events(), names, style)...)
		for _, ev := range h.Events() {
			if m, ok := Event(ev, names, style); ok {
				msgs = append(msgs, m)
			}
		}
		v := TableView{Title: strings.Repeat("T", 300), Variant: engine.PotLimit, SmallBlind: 500, BigBlind: 1000,
			Ante: 100, HandNo: 123456, Board: h.Board(), Pots: pots, PotNames: names}
		for p := 0; p < 10; p++ {
			v.Seats = append(v.Seats, SeatView{Seat: p, Name: names[p], Stack: math.MaxInt64, Bet: math.MaxInt64,
				AllIn: true, Button: p == 0, ToAct: p == 1})
		}
		msgs = append(msgs, Table(v, style), HoleCards(h.HoleCards(0), math.MaxInt64, style))
		eq := EquityView{Names: names}
		for p := 0; p < 10; p++ {
			eq.Hands = append(eq.Hands, engine.Revealed{Player: p, Cards: h.Hole(p)})
			eq.Results = append(eq.Results, engine.EquityResult{Wins: 1, Ties: 1, Losses: int64(p)})
		}
		msgs = append(msgs, Equity(eq, style))
		msgs = append(msgs, turn(TurnView{Name: names[9], Options: engine.Options{CanCall: true, ToCall: math.MaxInt64 / 4,
			CanRaise: true, MinTo: math.MaxInt64 / 2, MaxTo: math.MaxInt64, Stack: math.MaxInt64 / 2}, SecondsLeft: 600}))
	}
	var st []Standing
	var lb []LeaderRow
	for i := 0; i < 500; i++ {
		st = append(st, Standing{Name: fmt.Sprint(names[i%10], i), BoughtIn: math.MaxInt64 / 2})
		lb = append(lb, LeaderRow{Name: names[i%10], Chips: math.MaxInt64, Net: math.MinInt64 / 2, Hands: i})
	}
	msgs = append(msgs, Standings("Session", st), Leaderboard("All time", lb))
	for _, m := range msgs {
		if n := Length(m.Text); n > MaxText {
			t.Errorf("message of %d characters (limit %d) begins %q", n, MaxText, m.Text[:80])
		}
	}
	if lines := strings.Count(Standings("Session", st).Text, "\n"); lines < 20 {
		t.Errorf("the long standings were cut to %d lines; clipping should keep as many as fit", lines)
	}
}

func TestSplit(t *testing.T) {
	var lines []string
	for i := 0; i < 300; i++ {
		lines = append(lines, fmt.Sprintf("line %d %s", i, strings.Repeat("🍀", i%40)))
	}
	lines = append(lines, strings.Repeat("x", 4500)) // one line longer than a message
	text := strings.Join(lines, "\n")
	parts := Split(text)
	if len(parts) < 2 {
		t.Fatalf("Split gave %d parts for %d characters", len(parts), Length(text))
	}
	for _, p := range parts {
		if Length(p) > MaxText {
			t.Errorf("part of %d characters", Length(p))
		}
	}
	if got := strings.ReplaceAll(strings.Join(parts, ""), "\n", ""); got != strings.ReplaceAll(text, "\n", "") {
		t.Error("Split lost or changed text")
	}
	if got := Split("short"); len(got) != 1 || got[0] != "short" {
		t.Errorf("Split(short) = %q", got)
	}
}

func TestHoleCardsMessage(t *testing.T) {
	m := HoleCards([]engine.Card{engine.NewCard(engine.Ace, engine.Spades), engine.NewCard(engine.King, engine.Hearts)}, 12, TextCards)
	if got, want := m.Text, "Hand #12 — your cards: A♠ K♥"; got != want || !m.Private {
		t.Errorf("HoleCards = %+v, want private %q", m, want)
	}
}

func TestTable(t *testing.T) {
	// Alice went all-in before the flop and Bob and Carol bet on: the pots collected then, and Carol's
	// bet on the flop in front of her.
	v := TableView{Title: "Friday game", Variant: engine.NoLimit, SmallBlind: 5, BigBlind: 10, Ante: 1, HandNo: 12,
		Board: engine.MustParseCards("7d5h9d"), PotNames: Names{"Alice", "Bob", "Carol"},
		Pots: []engine.Pot{{Amount: 300, Eligible: []int{0, 1, 2}}, {Amount: 1400, Eligible: []int{1, 2}}},
		Seats: []SeatView{
			{Seat: 0, Name: "Alice", Stack: 0, AllIn: true, Button: true},
			{Seat: 1, Name: "Bob", Stack: 1250, ToAct: true},
			{Seat: 3, Name: "Carol", Stack: 700, Bet: 800},
			{Seat: 5, Name: "Dave", Stack: 500, Folded: true},
			{Seat: 6, Name: "Erin", Stack: 1000, SittingOut: true},
		}}
	want := `Friday game · hand #12
No-limit 5/10, ante 1
Board: 7♦ 5♥ 9♦ · bets 800
Main pot: 300 (Alice, Bob, Carol)
Side pot 1: 1,400 (Bob, Carol)
• 1. Alice 0 · button · all-in
▶ 2. Bob 1,250 · to act
• 4. Carol 700 · bet 800
• 6. Dave 500 · folded
• 7. Erin 1,000 · sitting out`
	if got := Table(v, TextCards).Text; got != want {
		t.Errorf("Table:\n%s\nwant:\n%s\ndiff:\n%s", got, want, diff(want, got))
	}
	between := Table(TableView{Title: "Friday game", BigBlind: 10, SmallBlind: 5,
		Seats: []SeatView{{Seat: 0, Name: "Alice", Stack: 0}}}, TextCards).Text
	for _, s := range []string{"between hands", "• 1. Alice 0 · no chips"} {
		if !strings.Contains(between, s) {
			t.Errorf("table between hands %q lacks %q", between, s)
		}
	}
}

func TestStandings(t *testing.T) {
	m := Standings("Friday game — results", []Standing{
		{Name: "Bob", BoughtIn: 1000, CashedOut: 800},
		{Name: "Alice", BoughtIn: 1000, CashedOut: 1350},
		{Name: "Carol", BoughtIn: 2000, CashedOut: 2000},
	})
	want := "Friday game — results\n1. Alice +350 (in 1,000, out 1,350)\n2. Carol 0 (in 2,000, out 2,000)\n3. Bob -200 (in 1,000, out 800)"
	if m.Text != want {
		t.Errorf("Standings:\n%s\nwant:\n%s", m.Text, want)
	}
	if got := Standings("", nil).Text; !strings.Contains(got, "Nobody has bought in yet.") {
		t.Errorf("empty standings = %q", got)
	}
}

func TestLeaderboard(t *testing.T) {
	m := Leaderboard("Leaderboard", []LeaderRow{
		{Name: "Bob", Chips: 500, Net: -500, Hands: 40},
		{Name: "Carol", Chips: 3000, Net: 1350, Hands: 1},
		{Name: "Alice", Chips: 2350, Net: 1350, Hands: 120},
	})
	want := "Leaderboard\n1. Carol +1,350 · 3,000 chips · 1 hand\n2. Alice +1,350 · 2,350 chips · 120 hands\n3. Bob -500 · 500 chips · 40 hands"
	if m.Text != want {
		t.Errorf("Leaderboard:\n%s\nwant:\n%s", m.Text, want)
	}
}

// TestProofVerifies follows the instructions of a `verify` proof with an independent SHA-256: every
// opened card hashes to its line, the lines hash to the commitment posted before the hand, and a
// changed card, salt or line fails.
func TestProofVerifies(t *testing.T) {
	deck, err := engine.DeckFrom(engine.MustParseCards("As Kd 7h"))
	if err != nil {
		t.Fatal(err)
	}
	secret := "f00d-salt"
	commitment := DeckCommitment(deck, secret)
	leaves := Leaves(deck, secret)
	public := Open(deck, secret, engine.MustParseCards("Kd 2c"))
	own := Open(deck, secret, engine.MustParseCards("As"))
	msg := Proof(ProofView{HandNo: 12, Commitment: commitment, Leaves: leaves, Public: public, Own: own}, TextCards)
	if !msg.Private {
		t.Fatal("a proof is a private reply")
	}
	// Every printf line: hash it as the reader would and find the line it names.
	lineRe := regexp.MustCompile("printf '%s' '([0-9]+:[^:']+:[0-9a-f]+)' \\| sha256sum` gives line ([0-9]+): `([0-9a-f]{64})`")
	opened := lineRe.FindAllStringSubmatch(msg.Text, -1)
	if len(opened) != 3 {
		t.Fatalf("the proof opens %d cards, want 3:\n%s", len(opened), msg.Text)
	}
	block := msg.Text[strings.Index(msg.Text, "```\n")+4 : strings.LastIndex(msg.Text, "```")]
	lines := strings.Split(strings.TrimSuffix(block, "\n"), "\n")
	if len(lines) != 52 {
		t.Fatalf("%d lines in the proof, want 52", len(lines))
	}
	for _, o := range opened {
		sum := sha256.Sum256([]byte(o[1]))
		n, _ := strconv.Atoi(o[2])
		if got := hex.EncodeToString(sum[:]); got != o[3] || lines[n-1] != got {
			t.Errorf("opened %s hashes to %s, line %d is %s", o[1], got, n, lines[n-1])
		}
	}
	sum := sha256.Sum256([]byte(block))
	if got := hex.EncodeToString(sum[:]); got != commitment {
		t.Fatalf("sha256 of the 52 lines is %s, the commitment %s", got, commitment)
	}
	for _, o := range append(public, own...) {
		if !VerifyOpening(commitment, leaves, o) {
			t.Errorf("opening %+v does not verify", o)
		}
		bad := o
		bad.Card = deck[(o.Pos+1)%52]
		if VerifyOpening(commitment, leaves, bad) {
			t.Errorf("a changed card verifies: %+v", bad)
		}
		bad = o
		bad.Salt = CardSalt(secret, o.Pos+1)
		if VerifyOpening(commitment, leaves, bad) {
			t.Errorf("a changed salt verifies: %+v", bad)
		}
	}
	other := append([]string(nil), leaves...)
	other[0] = Leaf(0, deck[1], CardSalt(secret, 0))
	if VerifyOpening(commitment, other, public[0]) {
		t.Error("a changed line still matches the commitment")
	}
	// The salts of cards not opened appear nowhere in the proof, and neither does the secret.
	for i := range deck {
		if strings.Contains(msg.Text, CardSalt(secret, i)) != slices.ContainsFunc(append(public, own...), func(o Opening) bool { return o.Pos == i }) {
			t.Errorf("position %d: its salt is shown iff it is opened, and it is not so", i)
		}
	}
	if strings.Contains(msg.Text, secret) {
		t.Error("the proof shows the hand's secret")
	}
}

func TestNames(t *testing.T) {
	long := strings.Repeat("é", 40)
	names := Names{"  Bob \n Smith ", "", long, strings.Repeat("x", 32), "Zoë", "Ann  Lee", "Ann\tLee", "Ann ", " \t"}
	for _, tc := range []struct {
		p    int
		want string
	}{
		{0, "Bob Smith"},
		{1, "Player 2"},
		{2, strings.Repeat("é", 31) + "…"},
		{3, strings.Repeat("x", 32)},
		{4, "Zoë"},
		{5, "Ann Lee"},
		{6, "Ann Lee"},
		{7, "Ann"},
		{8, "Player 9"},
		{9, "Player 10"},
		{-1, "Someone"},
	} {
		if got := names.Name(tc.p); got != tc.want {
			t.Errorf("Name(%d) = %q, want %q", tc.p, got, tc.want)
		}
	}
}

// TestRunTwiceNarration: a hand run twice names both runs' boards and each board's half of the pot.
func TestRunTwiceNarration(t *testing.T) {
	order := engine.MustParseCards("2c Ks As 3d Kh Ah 2s 7c 8d 9h 3s Tc 4h 2h 3h Kd 4c 5s 4d 6h 5d Js")
	deck, err := engine.DeckFrom(order)
	if err != nil {
		t.Fatal(err)
	}
	h, err := engine.NewHand(engine.Setup{Rules: engine.Rules{SmallBlind: 1, BigBlind: 2}, Stacks: []int64{500, 100, 500}, RunItTwice: true, Deck: deck})
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range []engine.Action{{Player: 0, Kind: engine.AllIn}, {Player: 1, Kind: engine.Fold}, {Player: 2, Kind: engine.Call},
		{Player: 2, Kind: engine.RunTwice}, {Player: 0, Kind: engine.RunTwice}} {
		if _, err := h.Apply(a); err != nil {
			t.Fatal(err)
		}
	}
	var text []string
	for _, m := range (&Narrator{Names: Names{"A", "C", "B"}, Style: TextCards}).Events(h.Events()) {
		text = append(text, m.Text)
	}
	all := strings.Join(text, "\n")
	for _, want := range []string{"the board runs twice", "First run, flop", "Second run, flop", "A wins half on the first board (501)", "B wins half on the second board (500)"} {
		if !strings.Contains(all, want) {
			t.Errorf("narration lacks %q:\n%s", want, all)
		}
	}
}
