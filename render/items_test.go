package render

import (
	"slices"
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

// TestItem6SayWhyAHandWon: when a kicker or the second pair decides a pot, the award says so; a
// split pot says "same hand"; hands of different kinds or first ranks say nothing more.
func TestItem6SayWhyAHandWon(t *testing.T) {
	// Alice bets the river and shows first; Bob calls and shows (a hand that cannot win is mucked,
	// and nothing is said of it).
	actions := []engine.Action{
		act(0, engine.Call), act(1, engine.Check),
		act(1, engine.Check), act(0, engine.Check), act(1, engine.Check), act(0, engine.Check),
		act(1, engine.Check), act(0, engine.Bet, 10), act(1, engine.Call),
	}
	tests := []struct {
		name string
		deck string // bob, alice, bob, alice, burn, flop, burn, turn, burn, river
		want string
	}{
		{"a kicker decides", "As Qh 3d 4c 5s Ts Th 8c 5h 8d 6s 2c",
			"bob wins the pot (40) with two pair, tens and eights, ace kicker; alice had a queen kicker"},
		{"the second pair decides", "8h 7h 3d 4c 5s Ts Th 8c 5h 7d 6s 2c",
			"bob wins the pot (40) with two pair, tens and eights; alice had tens and sevens"},
		{"a kicker to a pair", "Ah Kh 3d 4c 5s Ts Tc 8c 5h 7d 6s 2c",
			"bob wins the pot (40) with a pair of tens, ace kicker; alice had a king kicker"},
		{"same hand", "Tc Td 2d 3h 5s As Kd Qc 5h Jh 6s 9s",
			"bob and alice split the pot (40): 20 and 20 with the same hand, a straight, ace high"},
		{"not close", "Th 9c 6d 7d 5s Ts 9h 4c 5h 3d Ks 2c",
			"bob wins the pot (40) with a pair of tens"},
		{"a mucked hand is not told", "As Qh 3d 4c 5s Ts Th 8c 5h 8d 6s 2c",
			"bob wins the pot (40) with two pair, tens and eights"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := script{title: tt.name, rules: engine.Rules{SmallBlind: 5, BigBlind: 10}, names: Names{"alice", "bob"},
				stacks: []int64{1000, 1000}, button: 0, deck: tt.deck, actions: actions}
			if tt.name == "a mucked hand is not told" {
				// Bob bets the river and shows first: Alice, beaten, mucks.
				s.actions = append(slices.Clone(actions[:6]), act(1, engine.Bet, 10), act(0, engine.Call))
			}
			got := s.transcript(t, 1, TextCards)
			if !strings.Contains(got, "\n"+tt.want+"\n") {
				t.Errorf("no line %q in:\n%s", tt.want, got)
			}
		})
	}
}

// TestItem5PotsWhileStreetInPlay: the table message shows the pot collected from the streets before
// plus the bets in front of the players; side pots appear when the street closes, never a side pot of
// one player's unmatched bet.
func TestItem5PotsWhileStreetInPlay(t *testing.T) {
	// Dave is all-in pre-flop for 50 and the others call; on the flop Bob and Carol check and Alice
	// bets 600.
	s := script{title: "a bet on the flop after an all-in", rules: engine.Rules{SmallBlind: 5, BigBlind: 10},
		names: Names{"Alice", "Bob", "Carol", "Dave"}, stacks: []int64{1000, 1000, 1000, 50}, button: 0,
		deck: "Ks Qs Js As Kh Qh Jh Ah 2d 2c 7d 9h"}
	h, err := engine.Replay(s.setup(t), []engine.Action{act(3, engine.AllIn), act(0, engine.Call), act(1, engine.Call), act(2, engine.Call),
		act(1, engine.Check), act(2, engine.Check), act(0, engine.Bet, 600)})
	if err != nil {
		t.Fatal(err)
	}
	text := HandTable(HandView{TableView: s.tableView(h, 1)}, TextCards).Text
	if !strings.Contains(text, "\nBoard: 2c 7d 9h · pot 200 + bets 600\n") && !strings.Contains(text, "\nBoard: 2♣ 7♦ 9♥ · pot 200 + bets 600\n") {
		t.Errorf("no board line with the pot and the bets:\n%s", text)
	}
	if strings.Contains(text, "Side pot") {
		t.Errorf("a side pot while the flop is in play:\n%s", text)
	}
	h, err = engine.Replay(s.setup(t), append(h.Actions(), act(1, engine.Call), act(2, engine.Fold)))
	if err != nil {
		t.Fatal(err)
	}
	text = HandTable(HandView{TableView: s.tableView(h, 1)}, TextCards).Text
	if !strings.Contains(text, "\nMain pot: 200 (Alice, Bob, Dave)\nSide pot 1: 1,200 (Alice, Bob)\n") {
		t.Errorf("no side pot when the flop closed:\n%s", text)
	}
}
