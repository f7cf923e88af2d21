package render

import (
	"testing"

	"github.com/dealerbot/dealerbot/engine"
)

// BenchmarkEventsHand renders every event of the five-player golden hand (side pots, split, muck).
// Target: under 50µs per hand, so rendering is never noticeable next to a chat API call.
func BenchmarkEventsHand(b *testing.B) {
	s := scripts[0]
	h, err := engine.Replay(s.setup(b), s.actions)
	if err != nil {
		b.Fatal(err)
	}
	evs := h.Events()
	b.ReportAllocs()
	for b.Loop() {
		Events(evs, s.names, EmojiCards)
	}
}

// BenchmarkTableTen renders the worst table summary: ten seats, 80-character names cut to 32, nine side
// pots too long to name everyone (so it is built twice). Target: under 100µs.
func BenchmarkTableTen(b *testing.B) {
	h, names := tenPlayers(b)
	var v TableView
	v.Title, v.HandNo, v.SmallBlind, v.BigBlind, v.Board, v.PotNames = "Friday game", 7, 500, 1000, h.Board(), names
	for _, ev := range h.Events() {
		if ev.Kind == engine.EvPots {
			v.Pots = ev.Pots
		}
	}
	for p := 0; p < 10; p++ {
		v.Seats = append(v.Seats, SeatView{Seat: p, Name: names[p], Stack: 1000 * int64(p), AllIn: true})
	}
	b.ReportAllocs()
	for b.Loop() {
		Table(v, TextCards)
	}
}

// BenchmarkTableRender renders one full hand table message (the five-player golden hand on the flop:
// board, a main pot and a side pot with names, five seats, the last lines, the turn and its buttons),
// in each card style.
func BenchmarkTableRender(b *testing.B) {
	s := scripts[0]
	h, err := engine.Replay(s.setup(b), s.actions[:8]) // Carol has bet all-in on the flop; Alice to act
	if err != nil {
		b.Fatal(err)
	}
	o, ok := h.Options()
	if !ok {
		b.Fatal("nobody to act")
	}
	v := HandView{TableView: s.tableView(h, 12), Commitment: "9f2c4e1ab37d0c55e6a1b2c3d4e5f607",
		Log:  []string{"Bob checks", "Carol is all-in for 250", "Alice calls 250", "Bob calls 250"},
		Turn: &TurnView{Name: "Alice", Options: o, SecondsLeft: 45, Token: "12.8", Street: h.Street()}}
	for _, st := range []struct {
		name  string
		style CardStyle
	}{{"text", TextCards}, {"emoji", EmojiCards}} {
		b.Run(st.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				HandTable(v, st.style)
			}
		})
	}
}
