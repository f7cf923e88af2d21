package render

import (
	"strings"
	"testing"

	"github.com/dealerbot/dealerbot/engine"
)

// Issue 28's items that render decides.

// TestItem10TournamentHeaderOnce: a tournament's table, and a tournament hand's table message, say
// "Tournament" once in their header; the progress line under the stakes begins with the level.
func TestItem10TournamentHeaderOnce(t *testing.T) {
	tv := &TournamentView{Level: 2, NextSmall: 30, NextBig: 60, NextIn: "in 7 min", Left: 3, Entrants: 5, Paid: 2, Pool: 600}
	seats := []SeatView{{Seat: 0, Name: "Alice", Stack: 3100, Button: true}, {Seat: 2, Name: "Carol", Stack: 2400}}
	between := Table(TableView{Title: "Tournament table", Variant: engine.NoLimit, SmallBlind: 20, BigBlind: 40, Tournament: tv, Seats: seats}, TextCards).Text
	hand := HandTable(HandView{TableView: TableView{Title: "Tournament", Variant: engine.NoLimit, SmallBlind: 20, BigBlind: 40,
		HandNo: 7, Tournament: tv, Seats: seats}}, TextCards).Text
	for name, text := range map[string]string{"table": between, "hand": hand} {
		if got := strings.Count(strings.ToLower(text), "tournament"); got != 1 {
			t.Errorf("the %s says tournament %d times:\n%s", name, got, text)
		}
		if !strings.Contains(text, "\nLevel 2 · next 30/60 in 7 min · 3 of 5 left · 2 places paid · prize pool 600\n") {
			t.Errorf("the %s has no progress line beginning with the level:\n%s", name, text)
		}
	}
}
