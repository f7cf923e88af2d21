package render

import (
	"fmt"
	"slices"
	"strings"

	"github.com/dealerbot/dealerbot/engine"
)

// boardLabels name the cards a street deals: "Flop: 9♠ 7♣ 5♠".
var boardLabels = [...]string{engine.Preflop: "Pre-flop", engine.Flop: "Flop", engine.Turn: "Turn", engine.River: "River", engine.Showdown: "Showdown"}

// Event is the public channel text for one event, and false when the event has nothing public to say.
// Hole cards (EvHoleCards) are never public, and EvTurn is rendered by Turn, which has the options.
//
// Event knows nothing of the events before it, so an award at showdown does not say which pot it was;
// Events and Narrator do.
func Event(ev engine.Event, names Names, style CardStyle) (Message, bool) {
	n := Narrator{Names: names, Style: style}
	return n.Event(ev)
}

// Events renders a run of events, such as what one Hand.Apply returned, and groups the public lines
// into as few messages as sensible: one for the betting and dealing, and a new one where the showdown
// begins, so the result stands out; a message that would pass MaxText is continued in another.
func Events(evs []engine.Event, names Names, style CardStyle) []Message {
	n := Narrator{Names: names, Style: style}
	return n.Events(evs)
}

// Narrator renders the events of one hand in order and remembers what it needs from earlier events:
// the pots of the last EvPots, so that awards name the main pot and side pots. Use a new Narrator for
// each hand. The zero value renders text cards with "Player N" names.
type Narrator struct {
	Names Names
	Style CardStyle

	pots    []engine.Pot // as of the last EvPots
	awarded []bool       // pots already named by an award
	// shown are the hands shown at the showdown by board (0, or the run of a hand run twice), so
	// that an award can say what beat the runner-up when it was close.
	shown [3]map[int]engine.HandValue

	// HiLo is set for a hi-lo game: a pot the high hand takes whole is said to have had no low.
	HiLo bool
	// high is the award of a pot's high half, said together with its low half, which follows it.
	high *engine.Event
}

// Event renders one event; see the package function Event.
func (n *Narrator) Event(ev engine.Event) (Message, bool) {
	line, ok := n.Line(ev)
	if !ok {
		return Message{}, false
	}
	return Message{Text: clip(line)}, true
}

// Events renders a run of events; see the package function Events.
func (n *Narrator) Events(evs []engine.Event) []Message {
	var msgs []Message
	var cur []string
	showdown := false
	flush := func() {
		if len(cur) > 0 {
			for _, t := range Split(strings.Join(cur, "\n")) {
				msgs = append(msgs, Message{Text: t})
			}
			cur = nil
		}
	}
	for i := 0; i < len(evs); i++ {
		ev := evs[i]
		line, ok := n.Line(ev)
		if !ok {
			continue
		}
		if ev.Kind == engine.EvAnte {
			// Ten players' antes read better as one line.
			j := i
			for j+1 < len(evs) && evs[j+1].Kind == engine.EvAnte {
				j++
			}
			if j > i {
				line = n.antes(evs[i : j+1])
				i = j
			}
		}
		if next := i + 1; ev.Kind == engine.EvPost && next < len(evs) && evs[next].Kind == engine.EvDead && evs[next].Player == ev.Player {
			// Missed blinds read as one line: "dave posts 10 and 5 dead".
			dead, _ := n.Line(evs[next])
			line += " and " + strings.TrimPrefix(dead, n.Names.Name(ev.Player)+" posts ")
			i = next
		}
		if isShowdown(ev) && !showdown {
			flush()
			showdown = true
		}
		cur = append(cur, line)
	}
	flush()
	return msgs
}

// antes writes several antes as one line: "Antes of 1: Bob, Carol and Alice", or with each amount
// when they differ ("Antes: Bob 1, Carol 1 (all-in)").
func (n *Narrator) antes(evs []engine.Event) string {
	same := true
	for _, ev := range evs {
		same = same && ev.Amount == evs[0].Amount && !ev.AllIn
	}
	parts := make([]string, len(evs))
	for i, ev := range evs {
		parts[i] = n.Names.Name(ev.Player)
		if !same {
			parts[i] += " " + Chips(ev.Amount)
			if ev.AllIn {
				parts[i] += " (all-in)"
			}
		}
	}
	if same {
		return "Antes of " + Chips(evs[0].Amount) + ": " + list(parts)
	}
	return "Antes: " + strings.Join(parts, ", ")
}

func isShowdown(ev engine.Event) bool {
	switch ev.Kind {
	case engine.EvShow, engine.EvMuck:
		return true
	case engine.EvAward:
		return ev.Street == engine.Showdown
	}
	return false
}

// Line is the text of one event, false for an event that says nothing; lines of several pots are
// separated by line breaks. Unlike Event it is not cut to fit a message of its own: a table
// message's log takes it as it is, and is cut as a whole.
func (n *Narrator) Line(ev engine.Event) (string, bool) {
	if n.high != nil || ev.Kind == engine.EvAward && ev.Half != engine.HalfWhole {
		return n.halves(ev) // hilo.go
	}
	name := n.Names.Name(ev.Player)
	allIn := ""
	if ev.AllIn {
		allIn = " and is all-in"
	}
	switch ev.Kind {
	case engine.EvAnte:
		return fmt.Sprintf("%s posts the ante %s%s", name, Chips(ev.Amount), allIn), true
	case engine.EvSmallBlind:
		return fmt.Sprintf("%s posts the small blind %s%s", name, Chips(ev.Amount), allIn), true
	case engine.EvBigBlind:
		return fmt.Sprintf("%s posts the big blind %s%s", name, Chips(ev.Amount), allIn), true
	case engine.EvStraddle:
		return fmt.Sprintf("%s straddles %s", name, Chips(ev.Amount)), true
	case engine.EvPost:
		return fmt.Sprintf("%s posts %s%s", name, Chips(ev.Amount), allIn), true
	case engine.EvDead:
		return fmt.Sprintf("%s posts %s dead%s", name, Chips(ev.Amount), allIn), true
	case engine.EvHoleCards, engine.EvTurn:
		// Hole cards go only to their owner (HoleCards); the turn prompt is Turn.
		return "", false
	case engine.EvFold:
		return name + " folds", true
	case engine.EvCheck:
		return name + " checks", true
	case engine.EvCall:
		return fmt.Sprintf("%s calls %s%s", name, Chips(ev.Amount), allIn), true
	case engine.EvBet:
		if ev.AllIn {
			return fmt.Sprintf("%s is all-in for %s", name, Chips(ev.To)), true
		}
		return fmt.Sprintf("%s bets %s", name, Chips(ev.To)), true
	case engine.EvRaise:
		if ev.AllIn {
			return fmt.Sprintf("%s is all-in for %s", name, Chips(ev.To)), true
		}
		return fmt.Sprintf("%s raises to %s", name, Chips(ev.To)), true
	case engine.EvReturn:
		return fmt.Sprintf("Uncalled %s returned to %s", Chips(ev.Amount), name), true
	case engine.EvPots:
		n.pots = ev.Pots // an engine.Event is immutable: no copy needed
		n.awarded = make([]bool, len(ev.Pots))
		switch len(ev.Pots) {
		case 0:
			return "", false
		case 1:
			return "Pot: " + Chips(ev.Pots[0].Amount), true
		}
		return strings.Join(potLines(ev.Pots, n.Names, true), "\n"), true
	case engine.EvReveal:
		parts := make([]string, len(ev.Hands))
		for i, h := range ev.Hands {
			hole := h.Hole // every hole card; a Revealed made without them has its first two
			if len(hole) == 0 {
				hole = h.Cards[:]
			}
			parts[i] = n.Names.Name(h.Player) + " " + Cards(hole, n.Style)
		}
		return "All-in: " + strings.Join(parts, ", "), true
	case engine.EvRuns:
		if ev.Amount == 2 {
			return "Everyone agreed: the board runs twice, each pot split between the two boards.", true
		}
		if r := ev.Reason(); r != "" {
			r = strings.TrimSuffix(r, ", so the board is run once.")
			return "The board runs once: " + strings.ToLower(r[:1]) + r[1:] + ".", true
		}
		return "The board runs once.", true
	case engine.EvBoard:
		label := boardLabels[min(ev.Street, engine.Showdown)]
		if ev.Run > 0 {
			label = []string{"", "First run, ", "Second run, "}[ev.Run] + strings.ToLower(label)
		}
		if len(ev.Board) > len(ev.Cards) {
			return fmt.Sprintf("%s: %s (board %s)", label, Cards(ev.Cards, n.Style), Cards(ev.Board, n.Style)), true
		}
		return label + ": " + Cards(ev.Cards, n.Style), true
	case engine.EvShow:
		s := name + " shows " + Cards(ev.Cards, n.Style)
		if ev.Value != nil {
			s += " — " + ev.Value.Description
			if ev.Low != 0 {
				s += ", low " + ev.Low.String()
			}
			if run := int(ev.Run); run < len(n.shown) {
				if n.shown[run] == nil {
					n.shown[run] = map[int]engine.HandValue{}
				}
				n.shown[run][ev.Player] = *ev.Value
			}
		}
		if ev.Run == 2 {
			s = "On the second board " + s
		}
		return s, true
	case engine.EvMuck:
		return name + " mucks", true
	case engine.EvAward:
		return n.award(ev), true
	case engine.EvEnd:
		if len(ev.Stacks) == 0 {
			return "", false
		}
		parts := make([]string, len(ev.Stacks))
		for p, s := range ev.Stacks {
			parts[p] = n.Names.Name(p) + " " + Chips(s)
		}
		return "Stacks: " + strings.Join(parts, " · "), true
	}
	return "", false
}

func (n *Narrator) award(ev engine.Event) string {
	if len(ev.Pots) == 0 {
		return fmt.Sprintf("%s wins %s", n.Names.Name(ev.Player), Chips(ev.Amount))
	}
	pot := ev.Pots[0]
	if ev.Street != engine.Showdown {
		// Everyone else folded: the hand ended before a showdown and nothing is shown.
		w := ev.Player
		if len(pot.Winners) > 0 {
			w = pot.Winners[0]
		}
		return fmt.Sprintf("%s wins %s — everyone else folded", n.Names.Name(w), Chips(pot.Amount))
	}
	// "the main pot (605)" when the pots are known, else just "605".
	amount := Chips(pot.Amount)
	if k := n.potIndex(pot); k >= 0 {
		amount = potName(k, len(n.pots)) + " (" + amount + ")"
	}
	if ev.Run > 0 {
		// A hand run twice: each board wins half of each pot.
		amount = []string{"", "half on the first board", "half on the second board"}[ev.Run] + " (" + Chips(pot.Amount) + ")"
	}
	if len(pot.Winners) <= 1 {
		w := ev.Player
		if len(pot.Winners) == 1 {
			w = pot.Winners[0]
		}
		with := ""
		if ev.Value != nil {
			with = " with " + handPhrase(*ev.Value) + n.decided(ev, w)
		}
		if n.HiLo && ev.Street == engine.Showdown {
			with += ", no low"
		}
		return fmt.Sprintf("%s wins %s%s", n.Names.Name(w), amount, with)
	}
	shares := make([]string, len(pot.Shares))
	for i, s := range pot.Shares {
		shares[i] = Chips(s)
	}
	with := ""
	if ev.Value != nil {
		with = " with the same hand, " + handPhrase(*ev.Value)
	}
	return fmt.Sprintf("%s split %s: %s%s", list(n.Names.of(pot.Winners)), amount, list(shares), with)
}

// handPhrase is a hand's description inside a sentence: "a pair of tens", "two pair, tens and
// eights", "a flush, ace high".
func handPhrase(v engine.HandValue) string {
	d := v.Description
	if d == "" {
		return d
	}
	d = strings.ToLower(d[:1]) + d[1:]
	switch v.Category {
	case engine.OnePair, engine.Straight, engine.Flush, engine.FullHouse, engine.StraightFlush:
		return "a " + d
	}
	return d
}

// decided says what decided a pot that winner w won at the showdown when it was close: against the
// best other hand shown that could win it, of the same kind, a kicker (", ace kicker; alice had a
// queen kicker") or the second pair or the pair of a full house ("; alice had tens and sevens").
// It is empty when the hands differ in kind or in their first rank, which the descriptions say.
func (n *Narrator) decided(ev engine.Event, w int) string {
	if ev.Street != engine.Showdown || ev.Value == nil || len(ev.Pots) == 0 || int(ev.Run) >= len(n.shown) {
		return ""
	}
	shown := n.shown[ev.Run]
	win := *ev.Value
	var next []int // the runners-up
	var best engine.HandValue
	for _, p := range ev.Pots[0].Eligible {
		v, ok := shown[p]
		switch {
		case p == w || !ok || v.Rank >= win.Rank:
		case v.Rank > best.Rank:
			next, best = []int{p}, v
		case v.Rank == best.Rank:
			next = append(next, p)
		}
	}
	if len(next) == 0 || best.Category != win.Category {
		return ""
	}
	a, b := rankOrder(win), rankOrder(best)
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	who := list(n.Names.of(next))
	switch {
	case i == 0 || i >= len(a) || i >= len(b):
		return ""
	case i == 1 && (win.Category == engine.TwoPair || win.Category == engine.FullHouse):
		_, rest, _ := strings.Cut(best.Description, ", ")
		return "; " + who + " had " + rest
	}
	return fmt.Sprintf(", %s kicker; %s had %s kicker", a[i].Name(false), who, withArticle(b[i].Name(false)))
}

// rankOrder is the distinct ranks of a hand as it reads: sets first, then kickers high to low.
func rankOrder(v engine.HandValue) []engine.Rank {
	var out []engine.Rank
	for _, c := range v.Cards {
		if r := c.Rank(); len(out) == 0 || out[len(out)-1] != r {
			out = append(out, r)
		}
	}
	return out
}

// withArticle puts "a" or "an" before a rank's name: "a queen", "an ace", "an eight".
func withArticle(name string) string {
	if strings.HasPrefix(name, "a") || strings.HasPrefix(name, "e") {
		return "an " + name
	}
	return "a " + name
}

// potIndex finds which of the last announced pots an award is for: the first not yet awarded with the
// same players eligible, else -1. Pots are awarded in the order they were announced.
func (n *Narrator) potIndex(p engine.Pot) int {
	for k, q := range n.pots {
		if !n.awarded[k] && slices.Equal(q.Eligible, p.Eligible) && q.Amount == p.Amount {
			n.awarded[k] = true
			return k
		}
	}
	return -1
}
