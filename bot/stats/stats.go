package stats

import (
	"fmt"
	"math"
	"strings"

	"github.com/dealerbot/dealerbot/bot/table"
	"github.com/dealerbot/dealerbot/render"
)

// Definitions says how each figure is worked out, for the help.
const Definitions = `How the stats are worked out, from the hands dealt to the player:
hands — hands dealt in; net — chips won less chips lost; bb/100 — net in big blinds (of each hand's stakes) per 100 hands
VPIP — % of hands with pre-flop betting in which the player put chips in voluntarily (a call, bet or raise; blinds and checks do not count)
PFR — % of those hands in which the player raised pre-flop
3-bet — % of the times the player faced exactly one pre-flop raise that they re-raised
WTSD (went to showdown) — % of the hands in which the player saw the flop that they played to the showdown
W$SD (won at showdown) — % of the showdowns in which the player won chips
AF (aggression factor) — bets and raises divided by calls, on the flop, turn and river
biggest pot — the largest pot (everyone's chips in it) of which the player won some
Bomb pots have no pre-flop betting: they count for hands, net, WTSD and W$SD, not for VPIP, PFR or 3-bet.`

// Line is one player's figures over a period.
type Line struct {
	User, Name  string
	Hands       int
	Net         int64
	NetBB       float64 // net in big blinds, hand by hand
	Preflop     int     // hands with pre-flop betting
	VPIP, PFR   int
	ThreeBetOpp int
	ThreeBet    int
	SawFlop     int
	WTSD, WonSD int
	Bets, Calls int
	Biggest     int64
}

// Tally adds up hands into lines by user. Hands whose action log Walk cannot read are counted in
// skipped and left out.
type Tally struct {
	Lines   map[string]*Line
	Order   []string // users in the order first seen
	Skipped int
	Hands   int
}

// NewTally returns an empty tally.
func NewTally() *Tally { return &Tally{Lines: map[string]*Line{}} }

// Add adds one hand for the players keep accepts (nil: everyone).
func (t *Tally) Add(h *table.HandRecord, keep func(user string) bool) {
	w, err := Walk(h.Setup(), h.Actions)
	if err != nil || len(h.Final) != len(h.Stacks) || len(h.Users) < len(h.Stacks) {
		t.Skipped++
		return
	}
	t.Hands++
	for p, s := range w.Seats {
		user := h.Users[p]
		if keep != nil && !keep(user) {
			continue
		}
		l := t.Lines[user]
		if l == nil {
			l = &Line{User: user}
			t.Lines[user] = l
			t.Order = append(t.Order, user)
		}
		if p < len(h.Names) && h.Names[p] != "" {
			l.Name = h.Names[p]
		}
		net := h.Final[p] - h.Stacks[p]
		l.Hands++
		l.Net += net
		if bb := h.Rules.BigBlind; bb > 0 {
			l.NetBB += float64(net) / float64(bb)
		}
		if w.Preflop {
			l.Preflop++
			l.VPIP += b2i(s.VPIP)
			l.PFR += b2i(s.PFR)
			l.ThreeBetOpp += b2i(s.ThreeBetOpp)
			l.ThreeBet += b2i(s.ThreeBet)
		}
		l.SawFlop += b2i(s.SawFlop)
		won := h.Final[p]-(h.Stacks[p]-s.Contrib) > 0 // chips came back from the pot
		if s.Showdown {
			l.WTSD++
			l.WonSD += b2i(won)
		}
		l.Bets += s.Bets
		l.Calls += s.Calls
		if won && w.Pot > l.Biggest {
			l.Biggest = w.Pot
		}
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// Pct is part of whole in percent; NaN when whole is 0.
func Pct(part, whole int) float64 {
	if whole == 0 {
		return math.NaN()
	}
	return 100 * float64(part) / float64(whole)
}

// BB100 is big blinds won per 100 hands; NaN without hands.
func (l *Line) BB100() float64 {
	if l.Hands == 0 {
		return math.NaN()
	}
	return 100 * l.NetBB / float64(l.Hands)
}

// AF is the aggression factor; +Inf with bets and no calls, NaN with neither.
func (l *Line) AF() float64 {
	switch {
	case l.Calls > 0:
		return float64(l.Bets) / float64(l.Calls)
	case l.Bets > 0:
		return math.Inf(1)
	}
	return math.NaN()
}

// Text writes a line's figures: two lines of text.
func (l *Line) Text() string {
	return fmt.Sprintf("Hands %d · net %s chips · %s bb/100\nVPIP %s · PFR %s · 3-bet %s · WTSD %s · W$SD %s · AF %s · biggest pot won %s",
		l.Hands, signed(l.Net), num(l.BB100(), 1), pct(Pct(l.VPIP, l.Preflop)), pct(Pct(l.PFR, l.Preflop)),
		pct(Pct(l.ThreeBet, l.ThreeBetOpp)), pct(Pct(l.WTSD, l.SawFlop)), pct(Pct(l.WonSD, l.WTSD)), num(l.AF(), 1), render.Chips(l.Biggest))
}

func signed(n int64) string {
	if n > 0 {
		return "+" + render.Chips(n)
	}
	return render.Chips(n)
}

func pct(f float64) string {
	if math.IsNaN(f) {
		return "—"
	}
	return strings.TrimSuffix(fmt.Sprintf("%.0f", f), ".0") + "%"
}

func num(f float64, prec int) string {
	switch {
	case math.IsNaN(f):
		return "—"
	case math.IsInf(f, 1):
		return "∞"
	}
	return fmt.Sprintf("%.*f", prec, f)
}
