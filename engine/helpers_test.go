package engine

import (
	"strings"
	"testing"
)

// deckFor builds a deck that deals holes[p] (two cards, or four or five in Omaha) to player p (dealing starts left of the button) and then
// the given board, with burn cards taken from the cards nobody uses.
func deckFor(tb testing.TB, button int, holes []string, board string) Deck {
	tb.Helper()
	n := len(holes)
	used := map[Card]bool{}
	hc := make([][]Card, n)
	for p, s := range holes {
		hc[p] = MustParseCards(s)
		for _, c := range hc[p] {
			used[c] = true
		}
	}
	bc := MustParseCards(board)
	for _, c := range bc {
		used[c] = true
	}
	var spare []Card
	for c := Card(0); c < 52; c++ {
		if !used[c] {
			spare = append(spare, c)
		}
	}
	var order []Card
	for round := 0; round < len(hc[0]); round++ { // two rounds, four or five in Omaha
		for i := 1; i <= n; i++ {
			order = append(order, hc[(button+i)%n][round])
		}
	}
	burn := func() { order = append(order, spare[0]); spare = spare[1:] }
	if len(bc) >= 3 {
		burn()
		order = append(order, bc[:3]...)
	}
	for i := 3; i < len(bc); i++ {
		burn()
		order = append(order, bc[i])
	}
	d, err := DeckFrom(order)
	if err != nil {
		tb.Fatal(err)
	}
	return d
}

func mustHand(tb testing.TB, s Setup) *Hand {
	tb.Helper()
	h, err := NewHand(s)
	if err != nil {
		tb.Fatalf("NewHand: %v", err)
	}
	return h
}

// do applies a scripted action such as "2 raise 60", "0 call", "1 allin" and fails the test on error.
func do(tb testing.TB, h *Hand, script ...string) []Event {
	tb.Helper()
	var all []Event
	for _, line := range script {
		a := parseAction(tb, line)
		evs, err := h.Apply(a)
		if err != nil {
			tb.Fatalf("%q: %v", line, err)
		}
		all = append(all, evs...)
	}
	return all
}

func parseAction(tb testing.TB, line string) Action {
	tb.Helper()
	var a Action
	f := strings.Fields(line)
	if len(f) < 2 {
		tb.Fatalf("bad script line %q", line)
	}
	a.Player = int(f[0][0] - '0')
	kinds := map[string]ActionKind{"fold": Fold, "check": Check, "call": Call, "bet": Bet, "raise": Raise, "allin": AllIn}
	k, ok := kinds[f[1]]
	if !ok {
		tb.Fatalf("bad action in %q", line)
	}
	a.Kind = k
	if len(f) > 2 {
		var v int64
		for _, ch := range f[2] {
			v = v*10 + int64(ch-'0')
		}
		a.Amount = v
	}
	return a
}

// refuse checks that an action is refused with the given code and that nothing changed.
func refuse(tb testing.TB, h *Hand, line, code string) *Error {
	tb.Helper()
	before := snapshot(h)
	_, err := h.Apply(parseAction(tb, line))
	if err == nil {
		tb.Fatalf("%q was accepted, want refusal %s", line, code)
	}
	e, ok := err.(*Error)
	if !ok {
		tb.Fatalf("%q: error %T %v is not an *Error", line, err, err)
	}
	if e.Code != code {
		tb.Fatalf("%q: code %s (%s), want %s", line, e.Code, e.Message, code)
	}
	if after := snapshot(h); after != before {
		tb.Fatalf("%q was refused but changed the hand:\nbefore %s\nafter  %s", line, before, after)
	}
	return e
}

func snapshot(h *Hand) string {
	var b strings.Builder
	o, _ := h.Options()
	b.WriteString(strings.Join([]string{
		sprint(h.Stacks()), sprint(h.Bets()), sprint(h.Contributions()), sprint(o), sprint(len(h.Events())), sprint(len(h.Actions())),
	}, "|"))
	return b.String()
}

func total(xs []int64) int64 {
	var t int64
	for _, x := range xs {
		t += x
	}
	return t
}

// checkConserved asserts that a finished hand's stacks add up to what the players started with.
func checkConserved(tb testing.TB, h *Hand) {
	tb.Helper()
	if !h.Done() {
		tb.Fatalf("hand is not over")
	}
	if got, want := total(h.Stacks()), total(h.Setup().Stacks); got != want {
		tb.Fatalf("chips after the hand %d, before %d", got, want)
	}
	for p, s := range h.Stacks() {
		if s < 0 {
			tb.Fatalf("player %d has a negative stack %d", p, s)
		}
	}
}

func eqStacks(tb testing.TB, got, want []int64) {
	tb.Helper()
	if sprint(got) != sprint(want) {
		tb.Fatalf("stacks %v, want %v", got, want)
	}
}
