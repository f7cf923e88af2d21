package table_test

import (
	"strings"
	"testing"
	"time"

	"github.com/dealerbot/dealerbot/bot/table"
	"github.com/dealerbot/dealerbot/render"
)

// Issue 28's items that the core decides: what the hand's table message says, when the next hand
// is dealt.

// tableMessage follows a hand's table message as the shell does: its lines from the deal's step on,
// drawn from the last step's view.
type tableMessage struct {
	g     *game
	lines *table.Lines
	last  *table.View
}

// see adds what a step did to the message.
func (m *tableMessage) see(st table.Step) {
	v := st.View
	if v == nil {
		return
	}
	if v.Deal != nil {
		m.lines = table.NewLines(v.Deal, v.Notes)
	}
	m.lines.Add(v, render.TextCards)
	m.last = v
}

// text is the message as it stands.
func (m *tableMessage) text() string {
	v := m.last
	return render.HandTable(m.g.s.HandView(m.lines, v.Hand, v.State, v.Names, m.g.now, time.Time{}), render.TextCards).Text
}

// TestItem10BombPotLineOnce: a bomb pot's table message says it is a bomb pot once, from the deal to
// the end of the hand.
func TestItem10BombPotLineOnce(t *testing.T) {
	g := newGame(t)
	g.do(table.State.Join, alice)
	g.do(table.State.Join, bob)
	g.do(table.State.Join, carol)
	g.do(table.State.BombPot, host)
	m := &tableMessage{g: g}
	m.see(g.deal())
	for g.s.Hand != nil {
		if got := strings.Count(strings.ToLower(m.text()), "bomb pot"); got != 1 {
			t.Fatalf("the table message says bomb pot %d times:\n%s", got, m.text())
		}
		m.see(g.do(table.State.Check, g.toAct()))
	}
	if got := strings.Count(strings.ToLower(m.text()), "bomb pot"); got != 1 {
		t.Fatalf("the finished hand's message says bomb pot %d times:\n%s", got, m.text())
	}
	g.check("after the bomb pot")
}

// TestItem10RepliesInTheSecondPerson: what the dealer says privately to the player who leaves speaks
// to them ("you", "your"); the host who removes a player is told about that player by name.
func TestItem10RepliesInTheSecondPerson(t *testing.T) {
	cash := func(t *testing.T) *game {
		g := newGame(t)
		g.do(table.State.Join, alice)
		g.do(table.State.Join, bob)
		g.do(table.State.Join, carol)
		return g
	}
	tourney := func(t *testing.T, deal bool) *game {
		g := newGame(t, "tournament", "buyin=100", "stack=1000")
		g.do(table.State.Join, alice)
		g.do(table.State.Join, bob)
		g.do(table.State.Join, carol)
		if deal {
			g.deal()
		}
		return g
	}
	tests := []struct {
		name string
		g    func(*testing.T) *game
		deal bool
		v    verbFunc
		by   table.Caller
		args []string
		want string
	}{
		{"leave between hands", cash, false, table.State.Leave, alice, nil, "1,000 chips went back to your bankroll."},
		{"leave in a hand", cash, true, table.State.Leave, alice, nil, "You leave when this hand ends; your stack goes back to your bankroll."},
		{"kicked between hands", cash, false, table.State.Kick, host, []string{"Alice"}, "1,000 chips went back to Alice's bankroll."},
		{"kicked in a hand", cash, true, table.State.Kick, host, []string{"Alice"}, "Alice leaves when this hand ends; the stack goes back to the bankroll."},
		{"unregister", func(t *testing.T) *game { return tourney(t, false) }, false, table.State.Leave, alice, nil, "Your buy-in of 100 went back to your bankroll."},
		{"unregistered", func(t *testing.T) *game { return tourney(t, false) }, false, table.State.Kick, host, []string{"Alice"}, "Alice's buy-in of 100 went back to the bankroll."},
		{"away", func(t *testing.T) *game { return tourney(t, true) }, false, table.State.Leave, alice, nil,
			"Your chips stay in the tournament: the dealer checks when checking is free and folds otherwise; `sitin` brings you back."},
		{"sent away", func(t *testing.T) *game { return tourney(t, true) }, false, table.State.Kick, host, []string{"Alice"},
			"Alice's chips stay in the tournament: the dealer checks when checking is free and folds otherwise; `sitin` brings Alice back."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := tt.g(t)
			if tt.deal {
				g.deal()
			}
			if got := g.do(tt.v, tt.by, tt.args...).Reply; got != tt.want {
				t.Errorf("reply %q, want %q", got, tt.want)
			}
		})
	}
}
