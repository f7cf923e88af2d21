package render

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dealerbot/dealerbot/engine"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/ with the current output")

// script is a hand built from a fixed deck and scripted actions, so its transcript is the same on
// every run.
type script struct {
	title   string
	rules   engine.Rules
	names   Names
	stacks  []int64
	button  int
	deck    string // first cards of the deck, in dealing order
	actions []engine.Action
}

func act(p int, k engine.ActionKind, amount ...int64) engine.Action {
	a := engine.Action{Player: p, Kind: k}
	if len(amount) > 0 {
		a.Amount = amount[0]
	}
	return a
}

// scripts are the golden hands. Deal order: hole cards one at a time from the player left of the
// button, two rounds; then burn, flop, burn, turn, burn, river.
var scripts = []script{
	{
		// Dave is all-in pre-flop and Carol on the flop: a main pot and two side pots. Alice and Dave
		// both hold king-high straights and split the odd main pot (the odd chip to Dave, first left of
		// the button); Carol cannot beat Bob's set and mucks.
		title:  "side pots, a split main pot and a muck",
		rules:  engine.Rules{SmallBlind: 5, BigBlind: 10},
		names:  Names{"Alice", "Erin", "Bob", "Carol", "Dave"},
		stacks: []int64{1000, 500, 1000, 400, 150},
		button: 0,
		//      Erin Bob Carol Dave Alice (twice)   burn flop      burn turn burn river
		deck: "5c 9h Jh Kd Kc  4d 9c 3d Qc Qd  2c 9s Td Jc  2d 3h 2h 2s",
		actions: []engine.Action{
			act(3, engine.Call), act(4, engine.AllIn), act(0, engine.Call), act(1, engine.Fold),
			act(2, engine.Call), act(3, engine.Call),
			act(2, engine.Check), act(3, engine.Bet, 250), act(0, engine.Call), act(2, engine.Call),
			act(2, engine.Check), act(0, engine.Bet, 100), act(2, engine.Call),
			act(2, engine.Bet, 300), act(0, engine.Call),
		},
	},
	{
		// Heads-up: Bob moves in for more than Alice has; the excess comes back, both hands are turned
		// up and the board runs out.
		title:  "heads-up all-in with an uncalled bet and a run-out",
		rules:  engine.Rules{SmallBlind: 5, BigBlind: 10},
		names:  Names{"Alice", "Bob"},
		stacks: []int64{300, 800},
		button: 0,
		//     Bob Alice Bob Alice  burn flop      burn turn burn river
		deck: "Ks As Kd Ah  2c 7d 5h 9d  2d Qc 3c 2h",
		actions: []engine.Action{
			act(0, engine.Raise, 30), act(1, engine.AllIn), act(0, engine.Call),
		},
	},
	{
		// Antes, a raise and two folds: the raise is returned and nothing is shown.
		title:  "antes and a hand won without a showdown",
		rules:  engine.Rules{SmallBlind: 5, BigBlind: 10, Ante: 1},
		names:  Names{"Alice", "Bob", "Carol"},
		stacks: []int64{1000, 1000, 1000},
		button: 0,
		deck:   "Ac Kc Qc Ad Kd Qd",
		actions: []engine.Action{
			act(0, engine.Raise, 30), act(1, engine.Fold), act(2, engine.Fold),
		},
	},
}

func (s script) setup(t testing.TB) engine.Setup {
	t.Helper()
	deck, err := engine.DeckFrom(engine.MustParseCards(s.deck))
	if err != nil {
		t.Fatalf("%s: %v", s.title, err)
	}
	return engine.Setup{Rules: s.rules, Stacks: s.stacks, Button: s.button, Deck: deck}
}

// transcript plays the script and writes the narrator's lines for every event, in order (the lines a
// hand's table message shows as its log and result, and `history` replays), and each player's
// hole-card message. It also checks that the hand conserved chips. (The turn itself is drawn by the
// table message: TestGoldenHandTable.)
func (s script) transcript(t *testing.T, handNo int64, style CardStyle) string {
	t.Helper()
	h, err := engine.NewHand(s.setup(t))
	if err != nil {
		t.Fatalf("%s: %v", s.title, err)
	}
	var b strings.Builder
	write := func(to string, m Message) { writeMessage(&b, to, m) }
	fmt.Fprintf(&b, "### Hand #%d: %s\n", handNo, s.title)
	n := Narrator{Names: s.names, Style: style}
	for _, m := range n.Events(h.Events()) {
		write("", m)
	}
	for p := range s.stacks {
		write(s.names.Name(p), HoleCards(h.HoleCards(p), handNo, style))
	}
	for i, a := range s.actions {
		if _, ok := h.Options(); !ok {
			t.Fatalf("%s: action %d (%s): nobody is to act", s.title, i+1, a)
		}
		evs, err := h.Apply(a)
		if err != nil {
			t.Fatalf("%s: action %d (%s): %v", s.title, i+1, a, err)
		}
		for _, m := range n.Events(evs) {
			write("", m)
		}
	}
	if !h.Done() {
		t.Fatalf("%s: the script ends before the hand does", s.title)
	}
	var before, after int64
	for p, st := range h.Stacks() {
		before += s.stacks[p]
		after += st
	}
	if before != after {
		t.Fatalf("%s: %d chips before the hand, %d after", s.title, before, after)
	}
	return b.String()
}

func (s script) tableView(h *engine.Hand, handNo int64) TableView {
	v := TableView{Title: "Friday game", Variant: s.rules.Variant, SmallBlind: s.rules.SmallBlind,
		BigBlind: s.rules.BigBlind, Ante: s.rules.Ante, HandNo: handNo, Board: h.Board(), PotNames: s.names}
	if !h.Done() {
		v.Pots = h.CollectedPots()
	}
	bets := h.Bets()
	for p, st := range h.Stacks() {
		v.Seats = append(v.Seats, SeatView{Seat: p, Name: s.names.Name(p), Stack: st, Bet: bets[p],
			Folded: h.Folded(p), AllIn: h.IsAllIn(p) && !h.Done(), Button: p == h.Button(), ToAct: p == h.ToAct()})
	}
	return v
}

func writeMessage(b *strings.Builder, to string, m Message) {
	if m.Private {
		fmt.Fprintf(b, "--- private to %s\n", to)
	} else {
		b.WriteString("--- public\n")
	}
	b.WriteString(m.Text)
	b.WriteByte('\n')
	styles := [...]string{Secondary: "secondary", Primary: "primary", Success: "success", Danger: "danger"}
	for _, btn := range m.Buttons {
		fmt.Fprintf(b, "  [%s] %s, command %q, token %s", btn.Label, styles[btn.Style], btn.Command, btn.Token)
		if btn.Amount {
			fmt.Fprintf(b, ", amount %d–%d", btn.Min, btn.Max)
		}
		b.WriteByte('\n')
	}
}

// TestGoldenNarration: the narrator's lines for whole hands (side pots, a split, a muck, an all-in
// run-out, a hand won without a showdown), in both card styles.
func TestGoldenNarration(t *testing.T) {
	for _, tc := range []struct {
		file  string
		style CardStyle
	}{
		{"narration_text.golden", TextCards},
		{"narration_emoji.golden", EmojiCards},
	} {
		t.Run(tc.file, func(t *testing.T) {
			var b strings.Builder
			for i, s := range scripts {
				text := s.transcript(t, int64(i+1), tc.style)
				if i > 0 {
					b.WriteByte('\n')
				}
				b.WriteString(text)
			}
			checkGolden(t, tc.file, b.String())
		})
	}
}

// checkGolden compares got with testdata/name, or rewrites the file with -update.
func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if d := diff(string(want), got); d != "" {
		t.Errorf("%s differs from the output (- golden, + now; go test -update accepts the output):\n%s", path, d)
	}
}

// diff is a line diff by longest common subsequence; golden files are small.
func diff(a, b string) string {
	if a == b {
		return ""
	}
	x, y := strings.Split(a, "\n"), strings.Split(b, "\n")
	lcs := make([][]int, len(x)+1)
	for i := range lcs {
		lcs[i] = make([]int, len(y)+1)
	}
	for i := len(x) - 1; i >= 0; i-- {
		for j := len(y) - 1; j >= 0; j-- {
			if x[i] == y[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var out bytes.Buffer
	i, j := 0, 0
	for i < len(x) || j < len(y) {
		switch {
		case i < len(x) && j < len(y) && x[i] == y[j]:
			i, j = i+1, j+1
		case j < len(y) && (i == len(x) || lcs[i][j+1] >= lcs[i+1][j]):
			fmt.Fprintf(&out, "%d: + %s\n", j+1, y[j])
			j++
		default:
			fmt.Fprintf(&out, "%d: - %s\n", i+1, x[i])
			i++
		}
	}
	return out.String()
}

// TestGoldenTournament: the table of a tournament between hands (level, next blinds and when, players
// left, places paid, a bomb pot and a straddle called for the next hand) and a tournament's results,
// with a shared place and a player who paid a rebuy.
func TestGoldenTournament(t *testing.T) {
	v := TableView{Title: "Tournament table", Variant: engine.NoLimit, SmallBlind: 20, BigBlind: 40,
		Tournament: &TournamentView{Level: 2, NextSmall: 30, NextBig: 60, NextIn: "in 7 min", Left: 3, Entrants: 5, Paid: 2, Pool: 600},
		Notes:      []string{"Next hand: a bomb pot of 80 each.", "Next hand: Carol straddles."},
		Seats: []SeatView{{Seat: 0, Name: "Alice", Stack: 3100, Button: true}, {Seat: 2, Name: "Carol", Stack: 2400},
			{Seat: 4, Name: "Erin", Stack: 1500, SittingOut: true}}}
	res := TournamentResult("Tournament over — results", 600, []Place{
		{Place: 1, Name: "Alice", Paid: 100, Prize: 390}, {Place: 2, Name: "Carol", Paid: 200, Prize: 210},
		{Place: 3, Name: "Erin", Paid: 100}, {Place: 4, Name: "Bob", Paid: 100}, {Place: 4, Name: "Dave", Paid: 100}})
	checkGolden(t, "tournament.golden", Table(v, TextCards).Text+"\n\n"+res.Text+"\n")
}

// liveTranscript plays the script as the hand's table message sees it: the message after the deal and
// after every action, edited in place, with the turn, the last lines, the commitment and at the end
// the showdown. It checks that no version shows a hole card of a player before that player's cards
// are turned up, and never the cards of a player who folded or mucked.
func (s script) liveTranscript(t *testing.T, handNo int64, style CardStyle) string {
	t.Helper()
	h, err := engine.NewHand(s.setup(t))
	if err != nil {
		t.Fatalf("%s: %v", s.title, err)
	}
	n := Narrator{Names: s.names, Style: style}
	var log []string
	var result []string
	showdown := false
	add := func(evs []engine.Event) {
		for _, ev := range evs {
			line, ok := n.Line(ev)
			if !ok {
				continue
			}
			if isShowdown(ev) || ev.Kind == engine.EvReveal {
				showdown = true
			}
			if !showdown && (ev.Kind == engine.EvPots || ev.Kind == engine.EvBoard || ev.Kind == engine.EvEnd) {
				continue // the table shows the board and pots itself
			}
			for _, l := range strings.Split(line, "\n") {
				if showdown || ev.Kind == engine.EvAward {
					result = append(result, l)
				} else {
					log = append(log, l)
				}
			}
			if ev.Kind == engine.EvReveal && len(ev.Hands) > 1 {
				// The hands' chances before the run-out, as the bot adds them.
				hands := make([][2]engine.Card, len(ev.Hands))
				for i, r := range ev.Hands {
					hands[i] = r.Cards
				}
				res, err := engine.Equity(hands, ev.Board)
				if err != nil {
					t.Fatal(err)
				}
				result = append(result, Equity(EquityView{Names: s.names, Hands: ev.Hands, Board: ev.Board, Results: res}, style).Text)
			}
		}
	}
	shown := map[int]bool{}
	view := func(i int) HandView {
		for _, ev := range h.Events() {
			switch ev.Kind {
			case engine.EvShow:
				shown[ev.Player] = true
			case engine.EvReveal:
				for _, r := range ev.Hands {
					shown[r.Player] = true
				}
			}
		}
		v := HandView{TableView: s.tableView(h, handNo), Log: log, Result: result, Over: h.Done(), Showdown: showdown,
			Commitment: "9f2c4e1ab37d0c55e6a1b2c3d4e5f60718293a4b5c6d7e8f9a0b1c2d3e4f5a6b"}
		if o, ok := h.Options(); ok {
			v.Turn = &TurnView{Name: s.names.Name(o.Player), Options: o, SecondsLeft: 60, Token: fmt.Sprintf("%d.%d", handNo, i), Street: h.Street()}
		}
		return v
	}
	var b strings.Builder
	fmt.Fprintf(&b, "### Hand #%d: %s\n", handNo, s.title)
	write := func(i int) {
		m := HandTable(view(i), style)
		for p := range s.stacks {
			if shown[p] {
				continue
			}
			for _, c := range h.Hole(p) {
				if c1 := Card(c, style); strings.Contains(m.Text, c1) && !strings.Contains(Cards(h.Board(), style), c1) {
					t.Fatalf("%s, version %d: %s's unshown card %s is in the table message:\n%s", s.title, i, s.names.Name(p), c1, m.Text)
				}
			}
		}
		writeMessage(&b, "", m)
	}
	add(h.Events())
	write(0)
	for i, a := range s.actions {
		evs, err := h.Apply(a)
		if err != nil {
			t.Fatalf("%s: action %d (%s): %v", s.title, i+1, a, err)
		}
		add(evs)
		write(i + 1)
	}
	return b.String()
}

// TestGoldenHandTable: the hand's table message through whole hands (side pots and a split, an
// all-in run-out, a hand won without a showdown), in both card styles.
func TestGoldenHandTable(t *testing.T) {
	for _, tc := range []struct {
		file  string
		style CardStyle
	}{
		{"table_text.golden", TextCards},
		{"table_emoji.golden", EmojiCards},
	} {
		t.Run(tc.file, func(t *testing.T) {
			var b strings.Builder
			for i, s := range scripts {
				if i > 0 {
					b.WriteByte('\n')
				}
				b.WriteString(s.liveTranscript(t, int64(i+1), tc.style))
			}
			checkGolden(t, tc.file, b.String())
		})
	}
}
