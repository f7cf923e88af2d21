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

// Table carries stacks, the button and the stakes from hand to hand.
type Table struct {
	Rules  Rules
	Seats  []Seat
	Button int // seat of the button; -1 before the draw

	pending *Rules
	dealt   bool // a hand has been started since the draw
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

// SetRules changes the stakes from the next hand on; a running hand keeps its own.
func (t *Table) SetRules(r Rules) { t.pending = &r }

// PendingRules returns the rules waiting for the next hand, if any.
func (t *Table) PendingRules() (Rules, bool) {
	if t.pending == nil {
		return Rules{}, false
	}
	return *t.pending, true
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
	t.dealt = false
	return draws
}

// StartHand deals the next hand: pending rules take effect, the button moves to the next seat dealt in
// (it stays put for the first hand after the draw), and empty, sitting-out and busted seats are skipped.
// It returns the hand and the table seat of each hand player.
func (t *Table) StartHand(d Deck) (*Hand, []int, error) {
	seats := t.Playing()
	if len(seats) < 2 {
		return nil, nil, fmt.Errorf("a hand needs at least two players with chips who are not sitting out")
	}
	if t.pending != nil {
		t.Rules = *t.pending
		t.pending = nil
	}
	if t.Button < 0 {
		t.Button = seats[0]
	} else if t.dealt || !t.playing(t.Button) {
		t.Button = t.nextPlaying(t.Button)
	}
	t.dealt = true
	button := 0
	stacks := make([]int64, len(seats))
	for i, s := range seats {
		stacks[i] = t.Seats[s].Stack
		if s == t.Button {
			button = i
		}
	}
	h, err := NewHand(Setup{Rules: t.Rules, Stacks: stacks, Button: button, Deck: d})
	if err != nil {
		return nil, nil, err
	}
	return h, seats, nil
}

func (t *Table) nextPlaying(from int) int {
	for i := 1; i <= len(t.Seats); i++ {
		s := (from + i) % len(t.Seats)
		if t.playing(s) {
			return s
		}
	}
	return from
}

// EndHand copies the hand's stacks back to the seats it was dealt from.
func (t *Table) EndHand(h *Hand, seats []int) {
	st := h.Stacks()
	for i, s := range seats {
		t.Seats[s].Stack = st[i]
	}
}
