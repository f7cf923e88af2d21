package stats

import (
	"fmt"
	"maps"
	"math"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/dealerbot/dealerbot/bot/table"
	"github.com/dealerbot/dealerbot/engine"
	"github.com/dealerbot/dealerbot/render"
)

// Definitions says how each figure is worked out, for the help.
const Definitions = `How the stats are worked out, from the hands dealt to the player and the sessions they played:
Cash games — hands dealt in; net — chips won less chips lost; bb/100 — net in big blinds (of each hand's stakes) per 100 hands
All-in adjusted — the net had every pot of a hand whose board was run out after an all-in paid each player their equity (their exact share over every way the board could come) instead of what it paid: luck is the difference
Tournaments — entries, finishing places, in the money (ITM, a prize won), buy-ins and prizes in bankroll chips, net and ROI (net over buy-ins); tournament chips are never counted as chips won
VPIP — % of hands with pre-flop betting in which the player put chips in voluntarily (a call, bet or raise; blinds and checks do not count)
PFR — % of those hands in which the player raised pre-flop
3-bet — % of the times the player faced exactly one pre-flop raise that they re-raised
WTSD (went to showdown) — % of the hands in which the player saw the flop that they played to the showdown
W$SD (won at showdown) — % of the showdowns in which the player won chips
AF (aggression factor) — bets and raises divided by calls, on the flop, turn and river
biggest pot — the largest cash-game pot (everyone's chips in it) of which the player won some
VPIP to AF count every hand, cash and tournament. Bomb pots have no pre-flop betting: they count for hands, net, WTSD and W$SD, not for VPIP, PFR or 3-bet.
A session in which no hand was dealt does not count.`

// Line is one player's figures over a period.
type Line struct {
	User, Name string
	// Cash games (hands without a tournament): hands, net chips, net in big blinds hand by hand.
	Hands int
	Net   int64
	NetBB float64
	// AllIns are the cash hands the player was in when the board was run out after an all-in; Luck
	// is what those hands paid the player above their equity (below it when negative), in chips and
	// in big blinds: the all-in adjusted net is Net - Luck.
	AllIns int
	Luck   float64
	LuckBB float64
	// TournamentHands are tournament hands: they count for the play figures only, since tournament
	// chips are not chips won.
	TournamentHands int
	// Tournaments are the tournaments played, from their sessions: finishing places (0 when not
	// known), those in the money, and the buy-ins paid and prizes won, in bankroll chips.
	Tournaments  int
	Places       []int
	ITM          int
	Paid, Prizes int64
	// Play figures, over every hand, and Games the same by game dealt (Hold'em, Omaha...).
	Play
	Games   map[engine.Game]*Play
	Biggest int64 // the largest cash-game pot won
}

// Tally adds up hands into lines by user. Hands whose action log Walk cannot read are counted in
// skipped and left out.
type Tally struct {
	Lines   map[string]*Line
	Order   []string // users in the order first seen
	Skipped int
	Hands   int
	// Defer, when set, makes Add leave the equity of hands run out after an all-in (the dear part:
	// milliseconds a hand) for Settle, which deals many at once on every CPU. Add keeps the hand
	// record it was given until then.
	Defer   bool
	pending []pending
}

// Play are the play figures of a player's hands: VPIP, PFR, 3-bet, went to showdown, won at
// showdown and the aggression factor's bets and calls.
type Play struct {
	Dealt       int // hands dealt
	Preflop     int // hands with pre-flop betting
	VPIP, PFR   int
	ThreeBetOpp int
	ThreeBet    int
	SawFlop     int
	WTSD, WonSD int
	Bets, Calls int
}

// add adds o's figures to p.
func (p *Play) add(o Play) {
	p.Dealt += o.Dealt
	p.Preflop += o.Preflop
	p.VPIP += o.VPIP
	p.PFR += o.PFR
	p.ThreeBetOpp += o.ThreeBetOpp
	p.ThreeBet += o.ThreeBet
	p.SawFlop += o.SawFlop
	p.WTSD += o.WTSD
	p.WonSD += o.WonSD
	p.Bets += o.Bets
	p.Calls += o.Calls
}

// AF is the aggression factor: bets and raises per call; infinite with bets and no call, NaN with
// neither.
func (p *Play) AF() float64 {
	switch {
	case p.Calls > 0:
		return float64(p.Bets) / float64(p.Calls)
	case p.Bets > 0:
		return math.Inf(1)
	}
	return math.NaN()
}

// Text writes the play figures on one line.
func (p *Play) Text() string {
	return fmt.Sprintf("VPIP %s · PFR %s · 3-bet %s · WTSD %s · W$SD %s · AF %s",
		pct(Pct(p.VPIP, p.Preflop)), pct(Pct(p.PFR, p.Preflop)), pct(Pct(p.ThreeBet, p.ThreeBetOpp)), pct(Pct(p.WTSD, p.SawFlop)),
		pct(Pct(p.WonSD, p.WTSD)), num(p.AF(), 1))
}

// game returns l's play figures of game g.
func (l *Line) game(g engine.Game) *Play {
	if l.Games == nil {
		l.Games = map[engine.Game]*Play{}
	}
	p := l.Games[g]
	if p == nil {
		p = &Play{}
		l.Games[g] = p
	}
	return p
}

// NewTally returns an empty tally.
func NewTally() *Tally { return &Tally{Lines: map[string]*Line{}} }

func (t *Tally) line(user, name string) *Line {
	l := t.Lines[user]
	if l == nil {
		l = &Line{User: user, Name: user}
		t.Lines[user] = l
		t.Order = append(t.Order, user)
	}
	if name != "" {
		l.Name = name
	}
	return l
}

// Add adds one hand for the players keep accepts (nil: everyone). A hand nobody kept is not read.
// A cash hand run out after an all-in is replayed for its equity (Expected, now or at Settle);
// when that fails the hand's all-in adjusted result is its real one.
func (t *Tally) Add(h *table.HandRecord, keep func(user string) bool) {
	if keep != nil && !slices.ContainsFunc(h.Users, keep) {
		return
	}
	w, err := Walk(h.Setup(), h.Actions)
	if err != nil || len(h.Final) != len(h.Stacks) || len(h.Users) < len(h.Stacks) {
		t.Skipped++
		return
	}
	t.Hands++
	cash := h.Tournament == nil
	if cash && w.RunOut {
		if t.Defer {
			t.pending = append(t.pending, pending{h: h, w: w, keep: keep})
		} else {
			ev, _ := Expected(h.Setup(), h.Actions, w)
			t.addLuck(h, w, ev, keep)
		}
	}
	for p, s := range w.Seats {
		user := h.Users[p]
		if keep != nil && !keep(user) {
			continue
		}
		name := ""
		if p < len(h.Names) {
			name = h.Names[p]
		}
		l := t.line(user, name)
		net := h.Final[p] - h.Stacks[p]
		won := h.Final[p]-(h.Stacks[p]-s.Contrib) > 0 // chips came back from the pot
		if cash {
			l.Hands++
			l.Net += net
			bb := float64(h.Rules.BigBlind)
			if bb > 0 {
				l.NetBB += float64(net) / bb
			}
			if won && w.Pot > l.Biggest {
				l.Biggest = w.Pot
			}
		} else {
			l.TournamentHands++
		}
		pl := Play{Dealt: 1, SawFlop: b2i(s.SawFlop), Bets: s.Bets, Calls: s.Calls}
		if w.Preflop {
			pl.Preflop, pl.VPIP, pl.PFR, pl.ThreeBetOpp, pl.ThreeBet = 1, b2i(s.VPIP), b2i(s.PFR), b2i(s.ThreeBetOpp), b2i(s.ThreeBet)
		}
		if s.Showdown {
			pl.WTSD, pl.WonSD = 1, b2i(won)
		}
		l.Play.add(pl)
		l.game(h.Rules.Game).add(pl)
	}
}

// addLuck adds a run-out hand's luck (its real results less ev, Expected's) for the players keep
// accepts who were in at the showdown; ev nil (Expected failed) adds nothing but the all-in.
func (t *Tally) addLuck(h *table.HandRecord, w Hand, ev []float64, keep func(user string) bool) {
	for p, s := range w.Seats {
		user := h.Users[p]
		if !s.Showdown || keep != nil && !keep(user) {
			continue
		}
		l := t.line(user, "")
		l.AllIns++
		if ev == nil {
			continue
		}
		luck := float64(h.Final[p]-h.Stacks[p]) - ev[p]
		l.Luck += luck
		if bb := float64(h.Rules.BigBlind); bb > 0 {
			l.LuckBB += luck / bb
		}
	}
}

// pending is a hand Add left for Settle to deal its equity.
type pending struct {
	h    *table.HandRecord
	w    Hand
	keep func(user string) bool
}

// Settle deals the equity of the hands Add left to it (Defer), for every tally given, the hands
// shared among the CPUs, and adds their luck.
func Settle(ts ...*Tally) {
	var work []*pending
	for _, t := range ts {
		for i := range t.pending {
			work = append(work, &t.pending[i])
		}
	}
	evs := make([][]float64, len(work))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(work)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := int(next.Add(1) - 1); i < len(work); i = int(next.Add(1) - 1) {
				evs[i], _ = Expected(work[i].h.Setup(), work[i].h.Actions, work[i].w)
			}
		}()
	}
	wg.Wait()
	k := 0
	for _, t := range ts {
		for _, p := range t.pending {
			t.addLuck(p.h, p.w, evs[k], p.keep)
			k++
		}
		t.pending = nil
	}
}

// AddTournament adds a finished tournament's results (a session's) for the players keep accepts.
func (t *Tally) AddTournament(fs []table.TournamentFinish, keep func(user string) bool) {
	for _, f := range fs {
		if keep != nil && !keep(f.User) {
			continue
		}
		l := t.line(f.User, f.Name)
		l.Tournaments++
		l.Places = append(l.Places, f.Place)
		l.ITM += b2i(f.Prize > 0)
		l.Paid += f.Paid
		l.Prizes += f.Prize
	}
}

// Merge adds o's lines to t's (a copy: o is left alone).
func (t *Tally) Merge(o *Tally) {
	t.Skipped += o.Skipped
	t.Hands += o.Hands
	for _, u := range o.Order {
		ol := o.Lines[u]
		l := t.line(u, ol.Name)
		places := append(l.Places, ol.Places...)
		biggest := max(l.Biggest, ol.Biggest)
		l.Hands += ol.Hands
		l.Net += ol.Net
		l.NetBB += ol.NetBB
		l.AllIns += ol.AllIns
		l.Luck += ol.Luck
		l.LuckBB += ol.LuckBB
		l.TournamentHands += ol.TournamentHands
		l.Tournaments += ol.Tournaments
		l.ITM += ol.ITM
		l.Paid += ol.Paid
		l.Prizes += ol.Prizes
		l.Play.add(ol.Play)
		for g, p := range ol.Games {
			l.game(g).add(*p)
		}
		l.Places, l.Biggest = places, biggest
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

// Adjusted is the all-in adjusted net of the cash games, in chips: Net less the luck.
func (l *Line) Adjusted() float64 { return float64(l.Net) - l.Luck }

// AdjustedBB100 is the all-in adjusted result in big blinds per 100 cash hands; NaN without hands.
func (l *Line) AdjustedBB100() float64 {
	if l.Hands == 0 {
		return math.NaN()
	}
	return 100 * (l.NetBB - l.LuckBB) / float64(l.Hands)
}

// ROI is the tournaments' net over their buy-ins, in percent; NaN without buy-ins.
func (l *Line) ROI() float64 {
	if l.Paid == 0 {
		return math.NaN()
	}
	return 100 * float64(l.Prizes-l.Paid) / float64(l.Paid)
}

// maxPlaces is how many finishing places Text lists.
const maxPlaces = 8

// Text writes a line's figures: a line for cash games and their all-in adjusted result (when the
// player played cash hands), one for tournaments (when they played one), and one of play figures.
func (l *Line) Text() string {
	var b strings.Builder
	if l.Hands > 0 {
		fmt.Fprintf(&b, "Cash games: %d %s · net %s chips · %s bb/100\n", l.Hands, plural(l.Hands, "hand", "hands"), signed(l.Net), num(l.BB100(), 1))
		if l.AllIns == 0 {
			b.WriteString("All-in adjusted: the same (no board was run out after an all-in)\n")
		} else {
			fmt.Fprintf(&b, "All-in adjusted: net %s chips · %s bb/100 (luck %s chips in %d %s run out)\n",
				signed(int64(math.Round(l.Adjusted()))), num(l.AdjustedBB100(), 1), signed(int64(math.Round(l.Luck))), l.AllIns, plural(l.AllIns, "all-in", "all-ins"))
		}
	}
	if l.Tournaments > 0 {
		places := make([]string, 0, maxPlaces+1)
		for i, p := range l.Places {
			if i == maxPlaces {
				places = append(places, "…")
				break
			}
			places = append(places, Ordinal(p))
		}
		fmt.Fprintf(&b, "Tournaments: %d played · %s %s · in the money %d (%s) · buy-ins %s · prizes %s · net %s chips · ROI %s",
			l.Tournaments, plural(len(l.Places), "finish", "finishes"), strings.Join(places, ", "), l.ITM, pct(Pct(l.ITM, l.Tournaments)),
			render.Chips(l.Paid), render.Chips(l.Prizes), signed(l.Prizes-l.Paid), signedPct(l.ROI()))
		if l.TournamentHands > 0 {
			fmt.Fprintf(&b, " (%d %s)", l.TournamentHands, plural(l.TournamentHands, "hand", "hands"))
		}
		b.WriteString("\n")
	} else if l.TournamentHands > 0 {
		fmt.Fprintf(&b, "Tournaments: %d %s in a tournament not finished in the period\n", l.TournamentHands, plural(l.TournamentHands, "hand", "hands"))
	}
	biggest := "—"
	if l.Hands > 0 {
		biggest = render.Chips(l.Biggest)
	}
	fmt.Fprintf(&b, "VPIP %s · PFR %s · 3-bet %s · WTSD %s · W$SD %s · AF %s · biggest pot won %s",
		pct(Pct(l.VPIP, l.Preflop)), pct(Pct(l.PFR, l.Preflop)), pct(Pct(l.ThreeBet, l.ThreeBetOpp)), pct(Pct(l.WTSD, l.SawFlop)),
		pct(Pct(l.WonSD, l.WTSD)), num(l.AF(), 1), biggest)
	if l.Hands > 0 && l.TournamentHands > 0 {
		fmt.Fprintf(&b, " (VPIP to AF over all %d hands)", l.Hands+l.TournamentHands)
	}
	if len(l.Games) > 1 { // a mixed table, or several games in the period: each game's own
		games := slices.Sorted(maps.Keys(l.Games))
		for _, g := range games {
			p := l.Games[g]
			name := g.String()
			fmt.Fprintf(&b, "\n%s: %d %s · %s", strings.ToUpper(name[:1])+name[1:], p.Dealt, plural(p.Dealt, "hand", "hands"), p.Text())
		}
	}
	return b.String()
}

// Ordinal writes a finishing place: "1st", "22nd"; "?" when not known (0).
func Ordinal(n int) string {
	if n <= 0 {
		return "?"
	}
	suffix := "th"
	switch {
	case n%100 >= 11 && n%100 <= 13:
	case n%10 == 1:
		suffix = "st"
	case n%10 == 2:
		suffix = "nd"
	case n%10 == 3:
		suffix = "rd"
	}
	return fmt.Sprintf("%d%s", n, suffix)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func signedPct(f float64) string {
	if f > 0 {
		return "+" + pct(f)
	}
	return pct(f)
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
