package table_test

import (
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dealerbot/dealerbot/bot/table"
	"github.com/dealerbot/dealerbot/engine"
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
		m.see(g.do(table.Betting(engine.Check).Act, g.toAct()))
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

// TestItem8TimeToRebuyOrStraddle: a player out of chips is offered a rebuy within the deal delay,
// the pause before the next hand starts only when that offer is on screen (Timers.DealWhenShown), and a
// `rebuy` (or a `straddle`) typed before the next deal is in that hand. A player who cannot rebuy
// is told so.
func TestItem8TimeToRebuyOrStraddle(t *testing.T) {
	bust := func(t *testing.T, opts ...string) (*game, table.Step) {
		g := newGame(t, opts...)
		g.s.DealDelay = 10 * time.Second
		g.do(table.State.Join, alice)
		g.do(table.State.Join, bob)
		g.do(table.State.Join, carol)
		dave := table.Caller{User: "U4", Name: "Dave"}
		g.do(table.State.Join, dave)
		// Alice draws the button; Bob posts the small blind, Carol the big blind, Dave is under the
		// gun. Carol moves in with 7-2 and Alice calls with kings.
		g.script("As Kd Qh Jc", "Ac 7c 5d Kc Ad 2d 6d Kh 3h 3s 8h 9d 4h Jh 5h 4c")
		g.deal()
		for _, a := range []struct {
			v  verbFunc
			by table.Caller
		}{{table.Betting(engine.Call).Act, dave}, {table.Betting(engine.Call).Act, alice}, {table.Betting(engine.Call).Act, bob}, {table.Betting(engine.AllIn).Act, carol},
			{table.Betting(engine.Fold).Act, dave}, {table.Betting(engine.Call).Act, alice}} {
			if got := g.toAct(); got != a.by {
				t.Fatalf("%s is to act, not %s", got.Name, a.by.Name)
			}
			g.do(a.v, a.by)
		}
		st := g.do(table.Betting(engine.Fold).Act, bob)
		if g.s.Hand != nil || g.s.Rec.Seats[2].Stack != 0 {
			t.Fatalf("Carol did not bust: %+v", g.s.Rec.Seats)
		}
		g.check("after Carol's bust")
		return g, st
	}
	t.Run("rebuy", func(t *testing.T) {
		g, st := bust(t)
		want := "Carol is out of chips: `rebuy` within 10 s to be dealt in next hand, or `leave`."
		if !slices.Contains(st.View.Result, want) {
			t.Errorf("the hand's result %q does not offer %q", st.View.Result, want)
		}
		if !st.Timers.Deal || !st.Timers.DealWhenShown {
			t.Errorf("timers %+v: the deal's pause starts when the offer is on screen", st.Timers)
		}
		if st := g.do(table.State.Rebuy, carol); !st.Timers.Deal {
			t.Errorf("a rebuy does not ask for the deal: %+v", st.Timers)
		}
		g.deal()
		if g.s.PlayerOf(2) < 0 {
			t.Errorf("Carol rebought before the deal and is not dealt in")
		}
		g.check("after the rebuy")
	})
	t.Run("straddle", func(t *testing.T) {
		g, _ := bust(t, "straddle=on")
		g.do(table.State.Leave, carol)
		// Next hand the big blind moves on to Dave, Bob posts the small blind and Alice keeps the
		// button: three-handed, she is under the gun.
		g.do(table.State.Straddle, alice)
		g.deal()
		if !g.s.Rec.Hand.Straddle {
			t.Errorf("Alice's straddle, typed before the deal, is not in the hand")
		}
	})
	t.Run("no rebuys", func(t *testing.T) {
		_, st := bust(t, "rebuy=0")
		want := "Carol is out of chips and cannot rebuy here: `leave` frees the seat."
		if !slices.Contains(st.View.Result, want) || st.Timers.DealWhenShown {
			t.Errorf("result %q, timers %+v: want %q and the usual pause", st.View.Result, st.Timers, want)
		}
	})
}

// TestItem11TournamentHandRecord: a tournament hand's record keeps its tournament for the hand
// histories: the start, buy-in, starting stack, blind level and rebuys, and who finished the
// tournament in the hand with the prize of their place; a cash-game hand keeps none. The rebuy
// period ends during the hand, so the players out are placed when it ends (item 8: while they may
// rebuy they are placed at the next deal, and the hand's record names no finishes).
func TestItem11TournamentHandRecord(t *testing.T) {
	g := newGame(t, "tournament", "buyin=100", "stack=1000", "payouts=70/30", "levels=20m", "rebuy=1", "rebuylevels=1")
	g.do(table.State.Join, alice)
	g.do(table.State.Join, bob)
	g.do(table.State.Join, carol)
	// Alice draws the button; Bob's aces beat Alice's kings and Carol's 7-2, all in pre-flop.
	g.script("As Kd Qh", "Ac 7c Kc Ad 2d Kh 6d 3s 8h 9d 5d Jh 6h 4c")
	g.deal()
	began := g.s.Rec.Tournament.Began
	var st table.Step
	for _, by := range []table.Caller{alice, bob, carol} {
		if by == carol {
			g.now = g.now.Add(20 * time.Minute) // level 2 by the clock: the rebuy period is over
		}
		st = g.do(table.Betting(engine.AllIn).Act, by)
	}
	hr := st.Change.Hand
	if hr == nil || hr.Tournament == nil {
		t.Fatalf("the tournament hand's record keeps no tournament: %+v", hr)
	}
	want := table.TournamentHand{Began: began, BuyIn: 100, Stack: 1000, Level: 1, LevelMinutes: 20, Rebuys: true,
		Finishes: []table.Finish{{Player: 2, Place: 2, Prize: 45}, {Player: 0, Place: 2, Prize: 45}, {Player: 1, Place: 1, Prize: 210}}}
	if !reflect.DeepEqual(*hr.Tournament, want) {
		t.Errorf("the hand's tournament\n%+v, want\n%+v", *hr.Tournament, want)
	}
	if !st.Ends {
		t.Errorf("the hand that leaves one player with every chip does not end the tournament")
	}

	c := newGame(t)
	c.do(table.State.Join, alice)
	c.do(table.State.Join, bob)
	c.deal()
	for c.s.Hand != nil {
		st = c.do(table.Betting(engine.Fold).Act, c.toAct())
	}
	if st.Change.Hand == nil || st.Change.Hand.Tournament != nil {
		t.Errorf("a cash-game hand's record: %+v", st.Change.Hand)
	}
}
