package hh

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"time"
	_ "time/tzdata" // PokerStars writes its times in ET (America/New_York)

	"github.com/dealerbot/dealerbot/engine"
	"github.com/dealerbot/dealerbot/render"
)

// PokerStars writes hands as PokerStars hand-history text, play-money style (whole chips, no currency,
// no thousands separators), each hand followed by two blank lines as in PokerStars' own files. A
// tournament hand is written as PokerStars writes one: the tournament's number, buy-in and level in
// the header, the table named after the tournament, and who finished the tournament in the hand.
func PokerStars(w io.Writer, hands []Hand) error {
	for i := range hands {
		text, err := PokerStarsHand(&hands[i])
		if err != nil {
			return err
		}
		if _, err := io.WriteString(w, text+"\n\n\n"); err != nil {
			return err
		}
	}
	return nil
}

var eastern = func() *time.Location {
	loc, err := time.LoadLocation("America/New_York")
	if err != nil {
		return time.UTC
	}
	return loc
}()

// PokerStarsHand is one hand as PokerStars text, without the blank lines that follow it.
func PokerStarsHand(h *Hand) (string, error) {
	eh, err := h.replay()
	if err != nil {
		return "", err
	}
	evs := eh.Events()
	r := h.Setup.Rules
	var b strings.Builder
	limit := map[engine.Variant]string{engine.NoLimit: "No Limit", engine.PotLimit: "Pot Limit", engine.FixedLimit: "Limit"}[r.Variant]
	// The game as PokerStars names it: "Hold'em No Limit", "Omaha Pot Limit", "Omaha Hi/Lo Limit",
	// "5 Card Omaha Pot Limit".
	limit = starsGame[r.Game] + " " + limit
	stakes := fmt.Sprintf("%d/%d", r.SmallBlind, r.BigBlind)
	if r.Variant == engine.FixedLimit {
		small, big := r.SmallBet, r.BigBet
		if small == 0 {
			small = r.BigBlind
		}
		if big == 0 {
			big = 2 * small
		}
		stakes = fmt.Sprintf("%d/%d", small, big)
	}
	if t := h.Tournament; t != nil {
		id := TournamentID(h.Table, t.Began)
		fmt.Fprintf(&b, "PokerStars Hand #%d: Tournament #%d, %d+0 %s - Level %s (%s) - %s ET\n",
			HandID(h.Table, h.No), id, t.BuyIn, limit, roman(t.Level), stakes, starsTime(h.Time))
		fmt.Fprintf(&b, "Table '%d 1' %d-max Seat #%d is the button\n", id, h.maxSeats(), h.seat(h.Setup.Button))
	} else {
		fmt.Fprintf(&b, "PokerStars Hand #%d:  %s (%s) - %s ET\n", HandID(h.Table, h.No), limit, stakes, starsTime(h.Time))
		fmt.Fprintf(&b, "Table '%s' %d-max (Play Money) Seat #%d is the button\n", tableName(h), h.maxSeats(), h.seat(h.Setup.Button))
	}
	n := len(h.Setup.Stacks)
	order := seatOrder(h, n)
	for _, p := range order {
		fmt.Fprintf(&b, "Seat %d: %s (%d in chips)\n", h.seat(p), h.name(p), h.Setup.Stacks[p])
	}
	sb, bb := blindsOf(evs)
	allIn := func(ev engine.Event) string {
		if ev.AllIn {
			return " and is all-in"
		}
		return ""
	}
	var (
		current      int64 // the highest bet of the street
		street       = engine.Preflop
		board        []engine.Card
		showdown     bool
		collected    = make([]int64, n)
		foldedOn     = make([]engine.Street, n)
		folded       = make([]bool, n)
		showed       = map[int]*engine.HandValue{}
		mucked       = map[int]bool{}
		pots         []int64 // amounts awarded, by pot index (each run's halves in turn when run twice)
		board2       []engine.Card
		showRun      uint8
		secondHalves int // second-board awards so far
		lastPots     []engine.Pot
		voluntary    = make([]bool, n)
		posted       = make([]bool, n) // posted a blind or straddle: never "didn't bet"
		holeCardsW   bool
		// A hand run twice: what each player showed and collected on each board.
		showedRun    [3]map[int]*engine.HandValue
		collectedRun [3][]int64
		lows         [3]map[int]engine.LowRank // the lows shown (hi-lo), by board
		lastIdx      int                       // the pot of the last award
	)
	for r := range showedRun {
		showedRun[r], collectedRun[r], lows[r] = map[int]*engine.HandValue{}, make([]int64, n), map[int]engine.LowRank{}
	}
	holeCards := func() {
		if holeCardsW {
			return
		}
		holeCardsW = true
		b.WriteString("*** HOLE CARDS ***\n")
		if h.Hero >= 0 && h.Hero < n {
			fmt.Fprintf(&b, "Dealt to %s [%s]\n", h.name(h.Hero), cards(eh.HoleCards(h.Hero)))
		}
	}
	for _, ev := range evs {
		p := ev.Player
		switch ev.Kind {
		case engine.EvAnte:
			fmt.Fprintf(&b, "%s: posts the ante %d%s\n", h.name(p), ev.Amount, allIn(ev))
		case engine.EvSmallBlind:
			fmt.Fprintf(&b, "%s: posts small blind %d%s\n", h.name(p), ev.Amount, allIn(ev))
			current = max(current, ev.To)
			posted[p] = true
		case engine.EvBigBlind:
			fmt.Fprintf(&b, "%s: posts big blind %d%s\n", h.name(p), ev.Amount, allIn(ev))
			current = max(current, ev.To)
			posted[p] = true
		case engine.EvStraddle:
			fmt.Fprintf(&b, "%s: posts straddle %d\n", h.name(p), ev.Amount)
			current = max(current, ev.To)
			posted[p] = true
		case engine.EvPost: // missed blinds: the big blind live (with the small blind dead, EvDead)
			fmt.Fprintf(&b, "%s: posts big blind %d%s\n", h.name(p), ev.Amount, allIn(ev))
			current = max(current, ev.To)
			posted[p] = true
		case engine.EvDead:
			fmt.Fprintf(&b, "%s: posts the ante %d%s\n", h.name(p), ev.Amount, allIn(ev)) // dead money, as an ante is
			posted[p] = true
		case engine.EvHoleCards:
			holeCards()
		case engine.EvFold:
			holeCards()
			fmt.Fprintf(&b, "%s: folds\n", h.name(p))
			folded[p], foldedOn[p] = true, street
		case engine.EvCheck:
			fmt.Fprintf(&b, "%s: checks\n", h.name(p))
		case engine.EvCall:
			voluntary[p] = true
			fmt.Fprintf(&b, "%s: calls %d%s\n", h.name(p), ev.Amount, allIn(ev))
		case engine.EvBet:
			voluntary[p] = true
			fmt.Fprintf(&b, "%s: bets %d%s\n", h.name(p), ev.Amount, allIn(ev))
			current = ev.To
		case engine.EvRaise:
			voluntary[p] = true
			fmt.Fprintf(&b, "%s: raises %d to %d%s\n", h.name(p), ev.To-current, ev.To, allIn(ev))
			current = ev.To
		case engine.EvReturn:
			fmt.Fprintf(&b, "Uncalled bet (%d) returned to %s\n", ev.Amount, h.name(p))
		case engine.EvPots:
			lastPots = ev.Pots
		case engine.EvBoard:
			street = ev.Street
			current = 0
			run := [...]string{"", "FIRST ", "SECOND "}[ev.Run]
			switch ev.Street {
			case engine.Flop:
				fmt.Fprintf(&b, "*** %sFLOP *** [%s]\n", run, cards(ev.Board))
			case engine.Turn:
				fmt.Fprintf(&b, "*** %sTURN *** [%s] [%s]\n", run, cards(ev.Board[:3]), cards(ev.Cards))
			case engine.River:
				fmt.Fprintf(&b, "*** %sRIVER *** [%s] [%s]\n", run, cards(ev.Board[:4]), cards(ev.Cards))
			}
			if ev.Run == 2 {
				board2 = ev.Board
			} else {
				board = ev.Board
			}
		case engine.EvShow:
			if ev.Run > 0 && showRun != ev.Run {
				showRun, showdown = ev.Run, true
				fmt.Fprintf(&b, "*** %s SHOW DOWN ***\n", [...]string{"", "FIRST", "SECOND"}[ev.Run])
			}
			if !showdown {
				showdown = true
				b.WriteString("*** SHOW DOWN ***\n")
			}
			showed[p] = ev.Value
			showedRun[ev.Run][p] = ev.Value
			lows[ev.Run][p] = ev.Low
			fmt.Fprintf(&b, "%s: shows [%s] (%s)\n", h.name(p), cards(ev.Cards), describeHiLo(r.Game, ev.Value, ev.Low))
		case engine.EvMuck:
			if !showdown {
				showdown = true
				b.WriteString("*** SHOW DOWN ***\n")
			}
			mucked[p] = true
			fmt.Fprintf(&b, "%s: mucks hand\n", h.name(p))
		case engine.EvAward:
			// Awards come main pot first, then each side pot; a hand run twice awards them again, in
			// the same order, for the second board: those halves add to the pots of the first.
			// In hi-lo the low half of a pot follows its high half and adds to the same pot; each
			// half's winners get a "collected" line of their own, as PokerStars writes them.
			pot := ev.Pots[0]
			idx := len(pots)
			if ev.Half == engine.HalfLow {
				idx = lastIdx
				pots[idx] += pot.Amount
			} else if ev.Run == 2 {
				idx = secondHalves
				secondHalves++
				pots[idx] += pot.Amount
			} else {
				pots = append(pots, pot.Amount)
			}
			lastIdx = idx
			for i, wnr := range pot.Winners {
				collected[wnr] += pot.Shares[i]
				collectedRun[ev.Run][wnr] += pot.Shares[i]
				fmt.Fprintf(&b, "%s collected %d from %s\n", h.name(wnr), pot.Shares[i], potLabel(idx, len(lastPots)))
			}
		}
	}
	if !showdown {
		for p := 0; p < n; p++ {
			if collected[p] > 0 && !folded[p] {
				fmt.Fprintf(&b, "%s: doesn't show hand\n", h.name(p))
			}
		}
	}
	if t := h.Tournament; t != nil {
		writeFinishes(&b, h, t.Finishes)
	}
	b.WriteString("*** SUMMARY ***\n")
	var total int64
	for _, a := range pots {
		total += a
	}
	if len(pots) <= 1 {
		fmt.Fprintf(&b, "Total pot %d | Rake 0\n", total)
	} else {
		fmt.Fprintf(&b, "Total pot %d Main pot %d.", total, pots[0])
		for i := 1; i < len(pots); i++ {
			if len(pots) == 2 {
				fmt.Fprintf(&b, " Side pot %d.", pots[i])
			} else {
				fmt.Fprintf(&b, " Side pot-%d %d.", i, pots[i])
			}
		}
		b.WriteString(" | Rake 0\n")
	}
	switch {
	case board2 != nil:
		fmt.Fprintf(&b, "Hand was run twice\nFIRST Board [%s]\nSECOND Board [%s]\n", cards(board), cards(board2))
	case len(board) > 0:
		fmt.Fprintf(&b, "Board [%s]\n", cards(board))
	}
	for _, p := range order {
		label := ""
		switch p {
		case h.Setup.Button:
			label = " (button)"
		case sb:
			label = " (small blind)"
		case bb:
			label = " (big blind)"
		}
		if p == h.Setup.Button && p == sb {
			label = " (button) (small blind)"
		}
		fmt.Fprintf(&b, "Seat %d: %s%s ", h.seat(p), h.name(p), label)
		switch {
		case folded[p] && foldedOn[p] == engine.Preflop:
			b.WriteString("folded before Flop")
			if !voluntary[p] && !posted[p] {
				b.WriteString(" (didn't bet)")
			}
		case folded[p]:
			fmt.Fprintf(&b, "folded on the %s", streetName(foldedOn[p]))
		case board2 != nil && showedRun[1][p] != nil && showedRun[2][p] != nil:
			// Run twice: one clause per board, as PokerStars writes it.
			fmt.Fprintf(&b, "showed [%s] and ", cards(eh.HoleCards(p)))
			for run := 1; run <= 2; run++ {
				if run == 2 {
					b.WriteString(", and ")
				}
				if won := collectedRun[run][p]; won > 0 {
					fmt.Fprintf(&b, "won (%d) with %s", won, describeHiLo(r.Game, showedRun[run][p], lows[run][p]))
				} else {
					fmt.Fprintf(&b, "lost with %s", describeHiLo(r.Game, showedRun[run][p], lows[run][p]))
				}
			}
		case showed[p] != nil && collected[p] > 0:
			fmt.Fprintf(&b, "showed [%s] and won (%d) with %s", cards(eh.HoleCards(p)), collected[p], describeHiLo(r.Game, showed[p], lows[0][p]))
		case showed[p] != nil:
			fmt.Fprintf(&b, "showed [%s] and lost with %s", cards(eh.HoleCards(p)), describeHiLo(r.Game, showed[p], lows[0][p]))
		case mucked[p]:
			b.WriteString("mucked")
		case collected[p] > 0:
			fmt.Fprintf(&b, "collected (%d)", collected[p])
		default:
			b.WriteString("mucked")
		}
		b.WriteString("\n")
	}
	return strings.TrimSuffix(b.String(), "\n"), nil
}

// writeFinishes writes who finished the tournament in the hand as PokerStars does, the worst place
// first: "carol finished the tournament in 3rd place", "alice finished the tournament in 2nd place and
// received 210.", "bob wins the tournament and receives 390 - congratulations!".
func writeFinishes(b *strings.Builder, h *Hand, fs []Finish) {
	fs = slices.Clone(fs)
	slices.SortStableFunc(fs, func(x, y Finish) int { return y.Place - x.Place })
	for _, f := range fs {
		switch {
		case f.Place == 1:
			fmt.Fprintf(b, "%s wins the tournament and receives %d - congratulations!\n", h.name(f.Player), f.Prize)
		case f.Prize > 0:
			fmt.Fprintf(b, "%s finished the tournament in %s place and received %d.\n", h.name(f.Player), render.Ordinal(f.Place), f.Prize)
		default:
			fmt.Fprintf(b, "%s finished the tournament in %s place\n", h.name(f.Player), render.Ordinal(f.Place))
		}
	}
}

// roman writes a level as PokerStars does: I, II, III, IV ... (levels from 1 to 3999).
func roman(n int) string {
	if n <= 0 || n >= 4000 {
		return fmt.Sprint(n)
	}
	var b strings.Builder
	for _, d := range []struct {
		v int
		s string
	}{{1000, "M"}, {900, "CM"}, {500, "D"}, {400, "CD"}, {100, "C"}, {90, "XC"}, {50, "L"}, {40, "XL"}, {10, "X"}, {9, "IX"}, {5, "V"}, {4, "IV"}, {1, "I"}} {
		for ; n >= d.v; n -= d.v {
			b.WriteString(d.s)
		}
	}
	return b.String()
}

// starsTime is t in ET as PokerStars writes it: the hour without a leading zero ("2024/01/15 9:30:00").
func starsTime(t time.Time) string {
	et := t.In(eastern)
	return fmt.Sprintf("%s %d:%s", et.Format("2006/01/02"), et.Hour(), et.Format("04:05"))
}

// tableName is the table's name without quotes, which would end PokerStars' quoted name early.
func tableName(h *Hand) string {
	name := h.Name
	if name == "" {
		name = h.Table
	}
	return strings.NewReplacer("'", "", "\n", " ", "\r", " ").Replace(name)
}

// seatOrder lists the players by seat number.
func seatOrder(h *Hand, n int) []int {
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	for i := 1; i < n; i++ {
		for j := i; j > 0 && h.seat(order[j]) < h.seat(order[j-1]); j-- {
			order[j], order[j-1] = order[j-1], order[j]
		}
	}
	return order
}

func potLabel(idx, pots int) string {
	switch {
	case pots <= 1:
		return "pot"
	case idx == 0:
		return "main pot"
	case pots == 2:
		return "side pot"
	}
	return fmt.Sprintf("side pot-%d", idx)
}

func streetName(s engine.Street) string {
	switch s {
	case engine.Flop:
		return "Flop"
	case engine.Turn:
		return "Turn"
	case engine.River:
		return "River"
	}
	return "Flop"
}

func cards(cs []engine.Card) string {
	parts := make([]string, len(cs))
	for i, c := range cs {
		parts[i] = c.String()
	}
	return strings.Join(parts, " ")
}

var (
	rankWord   = [...]string{"Deuce", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten", "Jack", "Queen", "King", "Ace"}
	rankPlural = [...]string{"Deuces", "Threes", "Fours", "Fives", "Sixes", "Sevens", "Eights", "Nines", "Tens", "Jacks", "Queens", "Kings", "Aces"}
)

// describe words a shown hand the way PokerStars does: "a pair of Aces", "two pair, Aces and Kings".
func describe(v *engine.HandValue) string {
	if v == nil {
		return ""
	}
	c := v.Cards
	r := func(i int) engine.Rank { return c[i].Rank() }
	switch v.Category {
	case engine.StraightFlush:
		if r(0) == engine.Ace {
			return "a Royal Flush"
		}
		return fmt.Sprintf("a straight flush, %s to %s", rankWord[r(4)], rankWord[r(0)])
	case engine.FourOfAKind:
		return "four of a kind, " + rankPlural[r(0)]
	case engine.FullHouse:
		return fmt.Sprintf("a full house, %s full of %s", rankPlural[r(0)], rankPlural[r(3)])
	case engine.Flush:
		return fmt.Sprintf("a flush, %s high", rankWord[r(0)])
	case engine.Straight:
		return fmt.Sprintf("a straight, %s to %s", rankWord[r(4)], rankWord[r(0)])
	case engine.ThreeOfAKind:
		return "three of a kind, " + rankPlural[r(0)]
	case engine.TwoPair:
		return fmt.Sprintf("two pair, %s and %s", rankPlural[r(0)], rankPlural[r(2)])
	case engine.OnePair:
		return "a pair of " + rankPlural[r(0)]
	}
	return "high card " + rankWord[r(0)]
}

// starsGame names the games as PokerStars' headers do.
var starsGame = map[engine.Game]string{engine.Holdem: "Hold'em", engine.Omaha: "Omaha", engine.Omaha5: "5 Card Omaha", engine.OmahaHiLo: "Omaha Hi/Lo"}

// describeHiLo words a shown hand; in hi-lo both halves, as PokerStars does: "HI: a pair of Kings;
// LO: 8,5,3,2,A", or "HI: a pair of Kings" without a low.
func describeHiLo(g engine.Game, v *engine.HandValue, low engine.LowRank) string {
	if !g.HiLo() {
		return describe(v)
	}
	s := "HI: " + describe(v)
	if low != 0 {
		s += "; LO: " + strings.ReplaceAll(low.String(), "-", ",")
	}
	return s
}
