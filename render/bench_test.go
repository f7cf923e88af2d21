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
