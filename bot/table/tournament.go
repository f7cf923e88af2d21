package table

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/dealerbot/dealerbot/bot/errs"
	"github.com/dealerbot/dealerbot/engine"
	"github.com/dealerbot/dealerbot/render"
)

// Tournament payouts (RULES.md section 10). These are the rules' arithmetic, used by the tournament
// mode: default payouts, prizes from a pool, and places for players eliminated in the same hand.

// DefaultPayouts are the prize percentages by entrants: 2-4 winner takes all; 5-7 65/35; 8-10 50/30/20.
func DefaultPayouts(entrants int) []int {
	switch {
	case entrants >= 8:
		return []int{50, 30, 20}
	case entrants >= 5:
		return []int{65, 35}
	}
	return []int{100}
}

// Prizes splits a pool by percentages (which must add up to 100): each prize is rounded down to a
// whole chip and the remainder goes to the winner.
func Prizes(pool int64, percents []int) ([]int64, error) {
	sum := 0
	for _, p := range percents {
		if p <= 0 {
			return nil, errs.Errorf(errs.Invalid, "Each payout must be a percentage above 0, like payouts=50/30/20.")
		}
		sum += p
	}
	if sum != 100 {
		return nil, errs.Errorf(errs.Invalid, "The payouts add up to %d%%, not 100%%: for example payouts=50/30/20.", sum)
	}
	prizes := make([]int64, len(percents))
	var paid int64
	for i, p := range percents {
		prizes[i] = pool/100*int64(p) + pool%100*int64(p)/100 // pool*p/100 without overflow for any pool
		paid += prizes[i]
	}
	prizes[0] += pool - paid
	return prizes, nil
}

// Eliminated is a player who lost their last chip in a hand: their stack when that hand began and
// their position counted from the first seat left of the button (0 first).
type Eliminated struct {
	User  string
	Start int64
	Order int
}

// Placing is a finishing place and its prize.
type Placing struct {
	User  string
	Place int // 1 is the winner
	Prize int64
}

// PlaceEliminated places the players eliminated in one hand. best is the best place they can take
// (the number of players left before the hand, minus the survivors: with 6 left and 2 out, places 5
// and 6, best 5). Whoever started the hand with more chips finishes higher; players with equal
// starting stacks share their places' combined prizes evenly, the odd chip to the first left of the
// button. prizes[i] is the prize of place i+1 (places past the list win nothing).
func PlaceEliminated(prizes []int64, best int, out []Eliminated) []Placing {
	sorted := slices.Clone(out)
	slices.SortStableFunc(sorted, func(a, b Eliminated) int {
		switch {
		case a.Start != b.Start:
			return int(b.Start - a.Start) // more chips first; stacks are at most MaxChips apart
		}
		return a.Order - b.Order
	})
	prize := func(place int) int64 {
		if place-1 < len(prizes) {
			return prizes[place-1]
		}
		return 0
	}
	var res []Placing
	for i := 0; i < len(sorted); {
		j := i
		for j < len(sorted) && sorted[j].Start == sorted[i].Start {
			j++
		}
		var pool int64
		for k := i; k < j; k++ {
			pool += prize(best + k)
		}
		shares := splitEven(pool, j-i)
		for k := i; k < j; k++ {
			res = append(res, Placing{User: sorted[k].User, Place: best + i, Prize: shares[k-i]})
		}
		i = j
	}
	return res
}

// splitEven divides chips among n, the odd chips to the first.
func splitEven(chips int64, n int) []int64 {
	out := make([]int64, n)
	for i := range out {
		out[i] = chips / int64(n)
		if int64(i) < chips%int64(n) {
			out[i]++
		}
	}
	return out
}

func (p Placing) String() string { return fmt.Sprintf("%d. %s %d", p.Place, p.User, p.Prize) }

// Tournament defaults: what `start tournament` plays when an option is not given.
const (
	defaultTournamentBuyIn = 1000
	defaultTournamentStack = 1500
	defaultTournamentLevel = 15 // minutes
)

// TournamentHelp is the `start tournament` line of the help.
const TournamentHelp = "start tournament buyin=1000 stack=1500 [payouts=50/30/20] [levels=15m] [rebuy=N] [rebuylevels=N] [blinds=10/20] — open a tournament here (host)"

// ParseTournament reads `start tournament` options: buyin=, stack= and payouts= for the tournament,
// the others as table settings. A tournament has no rebuys unless rebuy= says so, and blinds rise every
// 15 minutes unless levels= says otherwise.
func ParseTournament(base Settings, opts []string) (Settings, *Tournament, error) {
	s := base
	s.Rebuys = 0
	s.LevelMinutes = defaultTournamentLevel
	tr := &Tournament{BuyIn: defaultTournamentBuyIn, Stack: defaultTournamentStack}
	var rest []string
	for _, o := range opts {
		key, val, _ := strings.Cut(o, "=")
		var err error
		switch strings.ToLower(key) {
		case "buyin", "buy-in":
			tr.BuyIn, err = chipsArg(val, "buy-in", "buyin=100")
		case "stack":
			tr.Stack, err = chipsArg(val, "starting stack", "stack=1500")
		case "payouts", "payout":
			tr.Payouts, err = parsePayouts(val)
		case "min", "max", "minbuyin", "maxbuyin":
			err = errs.Errorf(errs.Invalid, "A tournament has one buy-in (buyin=) and one starting stack (stack=): %s= is for cash games.", strings.ToLower(key))
		default:
			rest = append(rest, o)
		}
		if err != nil {
			return Settings{}, nil, err
		}
	}
	if err := s.Apply(rest); err != nil {
		return Settings{}, nil, err
	}
	if tr.Stack <= s.BigBlind {
		return Settings{}, nil, errs.Errorf(errs.Invalid, "The starting stack (%s) must be more than the big blind (%s): for example stack=%d.",
			render.Chips(tr.Stack), render.Chips(s.BigBlind), min(100*s.BigBlind, engine.MaxChips))
	}
	if tr.Stack > engine.MaxChips/int64(s.Seats) {
		return Settings{}, nil, errs.Errorf(errs.Invalid, "A starting stack can be at most %s chips at a %d-seat table, so that every chip fits on it.",
			render.Chips(engine.MaxChips/int64(s.Seats)), s.Seats)
	}
	if len(tr.Payouts) > s.Seats {
		return Settings{}, nil, errs.Errorf(errs.Invalid, "The payouts name %d places but the table has %d seats: pay at most %d places.", len(tr.Payouts), s.Seats, s.Seats)
	}
	return s, tr, nil
}

// parsePayouts reads payouts=50/30/20: whole percentages by place, adding up to 100.
func parsePayouts(val string) ([]int, error) {
	parts := strings.Split(strings.TrimSuffix(val, "%"), "/")
	if len(parts) > engine.MaxPlayers {
		return nil, errs.Errorf(errs.Invalid, "Pay at most %d places: for example payouts=50/30/20.", engine.MaxPlayers)
	}
	out := make([]int, len(parts))
	for i, p := range parts {
		v, err := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(p, "%")))
		if err != nil || v <= 0 || v > 100 {
			return nil, errs.Errorf(errs.Invalid, "Write the payouts as percentages by place that add up to 100, like payouts=50/30/20, not %s.", errs.Quote(val))
		}
		out[i] = v
	}
	if _, err := Prizes(0, out); err != nil {
		return nil, err
	}
	return out, nil
}

// maxPool is the largest prize pool: a thousand of the largest buy-ins. It keeps every sum over a
// tournament's entries far from int64's limit, even with unlimited rebuys.
const maxPool = 1000 * engine.MaxChips

// RoomForBuyIn refuses a buy-in or rebuy that would take the prize pool past maxPool.
func (t *Tournament) RoomForBuyIn() error {
	if t.Pool() > maxPool-t.BuyIn {
		return errs.Errorf(errs.Conflict, "The prize pool holds %s chips, the most a tournament may hold: no more buy-ins or rebuys.", render.Chips(t.Pool()))
	}
	return nil
}

// Percents are the tournament's percentages: the host's, or the defaults by entrants.
func (t *Tournament) Percents() []int {
	if len(t.Payouts) > 0 {
		return t.Payouts
	}
	return DefaultPayouts(len(t.Entries))
}

// PrizeList is the prize of each place from the pool. Places nobody can take (more places paid than
// entrants) add their prize to the winner's, so the whole pool is always paid.
func (t *Tournament) PrizeList() []int64 {
	prizes, err := Prizes(t.Pool(), t.Percents())
	if err != nil { // payouts are checked when the tournament opens
		prizes = []int64{t.Pool()}
	}
	for len(prizes) > max(len(t.Entries), 1) {
		prizes[0] += prizes[len(prizes)-1]
		prizes = prizes[:len(prizes)-1]
	}
	return prizes
}

// Left is the number of players still in.
func (t *Tournament) Left() int {
	n := 0
	for _, e := range t.Entries {
		if e.Place == 0 {
			n++
		}
	}
	return n
}

// PlacesPaid is the number of places that win a prize.
func (t *Tournament) PlacesPaid() int { return min(len(t.Percents()), max(len(t.Entries), 1)) }

// Describe is the tournament's one-line summary.
func (t *Tournament) Describe(s Settings) string {
	var b strings.Builder
	fmt.Fprintf(&b, "buy-in %s for %s chips, ", render.Chips(t.BuyIn), render.Chips(t.Stack))
	if len(t.Payouts) > 0 {
		b.WriteString("payouts ")
		for i, p := range t.Payouts {
			if i > 0 {
				b.WriteString("/")
			}
			fmt.Fprintf(&b, "%d", p)
		}
		b.WriteString("%")
	} else {
		b.WriteString("payouts by entrants (2-4 winner takes all, 5-7 65/35, 8-10 50/30/20)")
	}
	fmt.Fprintf(&b, ", blinds %s/%s", render.Chips(s.SmallBlind), render.Chips(s.BigBlind))
	if s.Ante > 0 {
		fmt.Fprintf(&b, ", ante %s", render.Chips(s.Ante))
	}
	switch {
	case s.LevelMinutes > 0:
		fmt.Fprintf(&b, " rising every %s", count(s.LevelMinutes, "minute", "minutes"))
	case s.LevelHands > 0:
		fmt.Fprintf(&b, " rising every %s", count(s.LevelHands, "hand", "hands"))
	}
	switch {
	case s.Rebuys == 0:
		b.WriteString(", no rebuys")
	case s.Rebuys < 0:
		b.WriteString(", rebuys allowed")
	default:
		fmt.Fprintf(&b, ", up to %s", count(s.Rebuys, "rebuy", "rebuys"))
	}
	if s.Rebuys != 0 && s.RebuyLevels > 0 {
		fmt.Fprintf(&b, " until level %d ends", s.RebuyLevels)
	}
	if s.Timer > 0 {
		fmt.Fprintf(&b, ", %d s to act", s.Timer)
	}
	if s.EndMinutes > 0 {
		fmt.Fprintf(&b, ", ends after %s", count(s.EndMinutes, "minute", "minutes"))
	}
	fmt.Fprintf(&b, ", %d seats", s.Seats)
	return b.String()
}

// busts are the players of hand hs who lost their last chip in it (final: its stacks), with their
// stack when it began and their position from the first seat left of the button.
func busts(n TableRecord, hs *HandState, final []int64) []Eliminated {
	var out []Eliminated
	np := len(hs.Seats)
	for p, s := range hs.Seats {
		if final[p] == 0 {
			out = append(out, Eliminated{User: n.Seats[s].User, Start: hs.Stacks[p], Order: (p - hs.Button - 1 + 2*np) % np})
		}
	}
	return out
}

// Eliminate places the tournament players out in hand hs (busts) and empties their seats. It returns
// the lines to announce and the places, by hand index, with the prizes they pay as the pool stands
// (the pool changes only by rebuys, which end before places are paid in practice).
func Eliminate(n *TableRecord, hs *HandState, out []Eliminated) ([]string, []Finish) {
	if len(out) == 0 {
		return nil, nil
	}
	playerOf := map[string]int{}
	for p, s := range hs.Seats {
		playerOf[n.Seats[s].User] = p
	}
	placings, lines := placeOut(n, hs.No, out)
	var finishes []Finish
	for _, pl := range placings {
		finishes = append(finishes, Finish{Player: playerOf[pl.User], Place: pl.Place, Prize: pl.Prize})
	}
	return append(lines, n.Tournament.leftLine()...), finishes
}

// holdBusts keeps the players out in hand no (busts) in the tournament until the next deal, because
// one of them may still rebuy: each keeps the seat with no chips and is marked Busted, and the next
// deal places those who did not rebuy (placeBusted). All of the hand's players out wait, also those
// who cannot rebuy, since their places depend on who of the others does.
func holdBusts(n *TableRecord, no int64, out []Eliminated) {
	tr := n.Tournament
	for _, o := range out {
		e := &tr.Entries[tr.Entry(o.User)]
		e.Busted, e.OutHand, e.Start, e.Order, e.Declined = true, no, o.Start, o.Order, false
	}
}

// RebuyTime is the least time a tournament player out of chips has to rebuy; a longer deal delay
// gives them that instead (RebuyWindow).
const RebuyTime = 30 * time.Second

// RebuyWindow is how long the players out of chips in a hand have to rebuy before the next deal
// places them: the deal delay or RebuyTime, whichever is longer. It is short, shown as a countdown,
// and cut short when each of them has answered.
func RebuyWindow(dealDelay time.Duration) time.Duration { return max(dealDelay, RebuyTime) }

// Busted are the users of the tournament's players out of chips whose places wait for the next deal
// (holdBusts), in entry order; none at a cash table.
func (t *Tournament) Busted() []string {
	if t == nil {
		return nil
	}
	var out []string
	for _, e := range t.Entries {
		if e.Busted {
			out = append(out, e.User)
		}
	}
	return out
}

// placeBusted places the players out of chips who did not rebuy before this deal (holdBusts), those
// out in the same hand together as if placed when it ended, and empties their seats. It returns the
// lines to announce; none when nobody was waiting.
func placeBusted(n *TableRecord) []string {
	tr := n.Tournament
	if len(tr.Busted()) == 0 {
		return nil
	}
	byHand := map[int64][]Eliminated{}
	var hands []int64
	for _, e := range tr.Entries {
		if !e.Busted {
			continue
		}
		if _, ok := byHand[e.OutHand]; !ok {
			hands = append(hands, e.OutHand)
		}
		byHand[e.OutHand] = append(byHand[e.OutHand], Eliminated{User: e.User, Start: e.Start, Order: e.Order})
	}
	slices.Sort(hands) // out earlier, placed lower
	tr.RebuyBy = time.Time{}
	var lines []string
	for _, no := range hands {
		_, l := placeOut(n, no, byHand[no])
		lines = append(lines, l...)
	}
	return lines
}

// placeOut places the players out together in hand no below every player still in, records their
// places and empties their seats. It returns the places and a line for each.
func placeOut(n *TableRecord, no int64, out []Eliminated) ([]Placing, []string) {
	tr := n.Tournament
	placings := PlaceEliminated(tr.PrizeList(), tr.Left()-len(out)+1, out)
	atPlace := map[int]int{} // players sharing each place
	for _, pl := range placings {
		atPlace[pl.Place]++
	}
	paid := tr.PlacesPaid()
	var lines []string
	for _, pl := range placings {
		e := &tr.Entries[tr.Entry(pl.User)]
		o := out[slices.IndexFunc(out, func(o Eliminated) bool { return o.User == pl.User })]
		e.Place, e.OutHand, e.Start, e.Order, e.Busted, e.Declined = pl.Place, no, o.Start, o.Order, false, false
		for i, st := range n.Seats {
			if st.User == pl.User {
				n.Seats[i] = SeatRecord{}
			}
		}
		line := fmt.Sprintf("%s is out in %s place", e.Name, render.Ordinal(pl.Place))
		if atPlace[pl.Place] > 1 {
			line = fmt.Sprintf("%s is out, sharing %s place", e.Name, render.Ordinal(pl.Place))
		}
		if pl.Place <= paid {
			line += " (in the money)"
		}
		lines = append(lines, line+".")
	}
	return placings, lines
}

// leftLine says how many players are left and how many places are paid, while the tournament goes on.
func (t *Tournament) leftLine() []string {
	left, paid := t.Left(), t.PlacesPaid()
	if left <= 1 {
		return nil
	}
	return []string{fmt.Sprintf("%d players left; %d %s paid.", left, paid, Plural(paid, "place", "places"))}
}

// PayTournament settles a tournament that is over: the players still in are placed by their chips
// (one of them is the winner when a single player holds every chip), the pool is paid by place, and
// each entry's buy-ins leave the table for its prize in one ledger entry. Before the first hand
// everyone gets the buy-in back. It returns the result lines.
func PayTournament(n *TableRecord, c *Change, now time.Time) render.Message {
	tr := n.Tournament
	prize := map[string]int64{}
	place := map[string]int{}
	if !tr.Began.IsZero() {
		prizes := tr.PrizeList()
		// Every seated player is an entrant still in: placing empties the seats, and EndSession has
		// placed the players out of chips who were waiting for the next deal (placeBusted).
		var still []Eliminated
		for i, s := range n.Seats {
			if s.User != "" {
				still = append(still, Eliminated{User: s.User, Start: s.Stack, Order: (i - n.Button - 1 + 2*len(n.Seats)) % len(n.Seats)})
			}
		}
		groups := [][]Eliminated{still}
		bests := []int{1}
		byHand := map[int64]int{}
		for _, e := range tr.Entries {
			if e.Place == 0 {
				continue
			}
			g, ok := byHand[e.OutHand]
			if !ok {
				g = len(groups)
				byHand[e.OutHand] = g
				groups, bests = append(groups, nil), append(bests, e.Place)
			}
			groups[g] = append(groups[g], Eliminated{User: e.User, Start: e.Start, Order: e.Order})
			bests[g] = min(bests[g], e.Place)
		}
		for g, out := range groups {
			for _, pl := range PlaceEliminated(prizes, bests[g], out) {
				prize[pl.User], place[pl.User] = pl.Prize, pl.Place
			}
		}
	}
	rows := make([]render.Place, 0, len(tr.Entries))
	for i, e := range tr.Entries {
		got := prize[e.User]
		if tr.Began.IsZero() {
			got = e.Paid // no hand was dealt: every buy-in goes back
		}
		c.Ledger = append(c.Ledger, LedgerEntry{Time: now, Kind: KindPrize, Workspace: n.Workspace, User: e.User,
			Name: e.Name, Table: n.ID, Bankroll: got, OnTable: -e.Paid})
		if j := StandingIndex(n.Standings, e.User); j >= 0 {
			n.Standings[j].CashedOut += got
		}
		tr.Entries[i].Place = place[e.User]
		rows = append(rows, render.Place{Place: place[e.User], Name: e.Name, Paid: e.Paid, Prize: got})
	}
	for i := range n.Seats {
		n.Seats[i] = SeatRecord{}
	}
	if tr.Began.IsZero() {
		return render.TournamentResult("The tournament is called off before it began: every buy-in goes back", tr.Pool(), rows)
	}
	return render.TournamentResult("Tournament over — results", tr.Pool(), rows)
}

func Plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// count is n and the word for n of a thing: "1 hand", "3 hands".
func count(n int, one, many string) string { return fmt.Sprintf("%d %s", n, Plural(n, one, many)) }

// TournamentView is a tournament's progress line for the table view and level changes; nil for a
// cash game.
func TournamentView(rec TableRecord, now time.Time) *render.TournamentView {
	tr := rec.Tournament
	if tr == nil {
		return nil
	}
	s := rec.Settings
	// Players out of chips waiting to rebuy are not counted as left: they are in again if they do.
	v := &render.TournamentView{Level: rec.Level + 1, Left: tr.Left() - len(tr.Busted()), Entrants: len(tr.Entries), Paid: tr.PlacesPaid(), Pool: tr.Pool()}
	if names, left := (State{Open: true, Rec: rec}).rebuyWait(now); len(names) > 0 && left > 0 {
		v.RebuyIn = fmt.Sprintf("%s may rebuy: %s left", strings.Join(names, " and "), Seconds(left))
	}
	next := s.Rules(rec.Level + 1)
	if cur := s.Rules(rec.Level); next.BigBlind == cur.BigBlind && next.Ante == cur.Ante {
		return v // the blinds no longer rise
	}
	v.NextSmall, v.NextBig, v.NextAnte = next.SmallBlind, next.BigBlind, next.Ante
	switch {
	case s.LevelMinutes > 0:
		from := tr.Began
		if from.IsZero() {
			v.NextIn = fmt.Sprintf("after %d min of play", s.LevelMinutes)
			break
		}
		at := from.Add(time.Duration(rec.Level+1) * time.Duration(s.LevelMinutes) * time.Minute)
		mins := int((at.Sub(now) + time.Minute - 1) / time.Minute)
		v.NextIn = fmt.Sprintf("in %d min", max(mins, 0))
		if s.LevelHands > 0 {
			v.NextIn += fmt.Sprintf(" or from hand #%d", rec.HandBase+int64(rec.Level+1)*int64(s.LevelHands)+1)
		}
	case s.LevelHands > 0:
		// Level L is dealt from hand L*LevelHands+1 on (Settings.Level counts the hands dealt before).
		v.NextIn = fmt.Sprintf("from hand #%d", rec.HandBase+int64(rec.Level+1)*int64(s.LevelHands)+1)
	}
	return v
}
