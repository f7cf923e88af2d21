package engine

import "fmt"

// Seat is one place at a table. An empty seat has Player "".
type Seat struct {
	Player     string
	Stack      int64
	SittingOut bool
}

// ButtonDraw is one card of the high-card draw for the button.
type ButtonDraw struct {
	Seat  int
	Card  Card
	Round int
}

// Table is the seats a session starts with, for the high-card draw that places the button before its
// first hand (DrawForButton). Hands are dealt with NewHand from a Setup; moving the button and the
// blinds from hand to hand is the caller's (bot/table, RULES.md section 11).
type Table struct {
	Rules  Rules
	Seats  []Seat
	Button int // seat of the button; -1 before the draw
}

// NewTable returns an empty table of 2 to 10 seats.
func NewTable(seats int, r Rules) (*Table, error) {
	if seats < 2 || seats > MaxPlayers {
		return nil, fmt.Errorf("a table has 2 to %d seats, not %d", MaxPlayers, seats)
	}
	if err := r.Validate(); err != nil {
		return nil, err
	}
	return &Table{Rules: r, Seats: make([]Seat, seats), Button: -1}, nil
}

// playing reports whether seat s is dealt into the next hand.
func (t *Table) playing(s int) bool {
	st := t.Seats[s]
	return st.Player != "" && !st.SittingOut && st.Stack > 0
}

// Playing returns the seats that would be dealt into the next hand.
func (t *Table) Playing() []int {
	var out []int
	for s := range t.Seats {
		if t.playing(s) {
			out = append(out, s)
		}
	}
	return out
}

// DrawForButton deals one card face up to every seat that will play, from the top of d; the highest
// rank takes the button, and players tied for highest draw again until one is alone.
func (t *Table) DrawForButton(d Deck) []ButtonDraw {
	contenders := t.Playing()
	var draws []ButtonDraw
	next := 0
	for round := 1; len(contenders) > 1; round++ {
		if next+len(contenders) > len(d) {
			next = 0 // a very long run of ties reuses the deck; ranks are still fair
		}
		var best Rank
		cards := make([]Card, len(contenders))
		for i, s := range contenders {
			cards[i] = d[next]
			next++
			draws = append(draws, ButtonDraw{Seat: s, Card: cards[i], Round: round})
			if cards[i].Rank() > best {
				best = cards[i].Rank()
			}
		}
		var tied []int
		for i, s := range contenders {
			if cards[i].Rank() == best {
				tied = append(tied, s)
			}
		}
		contenders = tied
	}
	if len(contenders) == 1 {
		t.Button = contenders[0]
	}
	return draws
}
