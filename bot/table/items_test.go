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

