package render

import (
	"fmt"
	"slices"
	"strings"

	"github.com/dealerbot/dealerbot/engine"
)

// halves says a hi-lo pot's two awards in one sentence (RULES.md section 12): "alice wins the high
// (501) with a flush, bob the low (500) with 7-5-4-2-A"; one player who wins both scoops it, and two
// players who tie for the low are quartered. The high half's award waits for the low half's, which
// the engine emits right after it; any other event first says the high half alone.
func (n *Narrator) halves(ev engine.Event) (string, bool) {
	if ev.Kind == engine.EvAward && ev.Half == engine.HalfHigh {
		var pre string
		if n.high != nil {
			pre = n.halfLine(*n.high, nil) + "\n"
		}
		h := ev
		n.high = &h
		if pre != "" {
			return pre[:len(pre)-1], true
		}
		return "", false
	}
	if n.high == nil {
		return n.award(ev), true // a low half with no high half before it: not dealt by the engine
	}
	hi := *n.high
	n.high = nil
	if ev.Kind == engine.EvAward && ev.Half == engine.HalfLow {
		return n.halfLine(hi, &ev), true
	}
	line, ok := n.Line(ev)
	if !ok {
		return n.halfLine(hi, nil), true
	}
	return n.halfLine(hi, nil) + "\n" + line, true
}

// halfLine is the sentence of a high half and its low half (nil when none follows).
func (n *Narrator) halfLine(hi engine.Event, lo *engine.Event) string {
	hp := hi.Pots[0]
	total := hp.Amount
	if lo != nil {
		total += lo.Pots[0].Amount
	}
	where := ""
	if k := n.potIndexOf(hp.Eligible, total); k >= 0 && len(n.pots) > 1 {
		where = capitalize(potName(k, len(n.pots))) + " (" + Chips(total) + "): "
	}
	if hi.Run > 0 {
		where = []string{"", "First board", "Second board"}[hi.Run] + ", half of a pot (" + Chips(total) + "): "
	}
	highWith := ""
	if hi.Value != nil {
		highWith = handPhrase(*hi.Value)
	}
	if lo == nil {
		return where + n.half(hp, "the high", highWith, true)
	}
	lp := lo.Pots[0]
	if len(hp.Winners) == 1 && len(lp.Winners) == 1 && hp.Winners[0] == lp.Winners[0] {
		return fmt.Sprintf("%s%s scoops %s: the high with %s, the low with %s", where, n.Names.Name(hp.Winners[0]),
			Chips(total), highWith, lo.Low.String())
	}
	s := where + n.half(hp, "the high", highWith, true) + ", " + n.half(lp, "the low", lo.Low.String(), false)
	if len(lp.Winners) == 2 && len(hp.Winners) == 1 && !slices.Contains(lp.Winners, hp.Winners[0]) {
		s += " (quartered)"
	}
	return s
}

// half says who won one half: "alice wins the high (501) with a flush", or as the second half of a
// sentence "bob the low (500) with 7-5-4-2-A"; tied winners split it ("alice and bob split the low
// (300 and 300) with 7-4-3-2-A").
func (n *Narrator) half(p engine.Pot, what, with string, first bool) string {
	if len(p.Winners) == 1 {
		verb := " wins "
		if !first {
			verb = " "
		}
		return fmt.Sprintf("%s%s%s (%s) with %s", n.Names.Name(p.Winners[0]), verb, what, Chips(p.Amount), with)
	}
	shares := make([]string, len(p.Shares))
	for i, s := range p.Shares {
		shares[i] = Chips(s)
	}
	return fmt.Sprintf("%s split %s (%s) with %s", list(n.Names.of(p.Winners)), what, list(shares), with)
}

// potIndexOf is potIndex for a pot known by its players and amount: the pot a hi-lo pot's halves
// share.
func (n *Narrator) potIndexOf(eligible []int, amount int64) int {
	return n.potIndex(engine.Pot{Eligible: eligible, Amount: amount})
}

// previews begin the lines that show the hands of an all-in before the board is dealt: the hands
// turned up (Narrator's EvReveal) and their chances (Equity).
var previews = []string{"All-in: ", "Chances to win", "Expected shares of the pot"}

// withoutPreviews is the view of a finished hand without its all-in previews, whose cards the
// showdown's lines show again.
func (v HandView) withoutPreviews() HandView {
	v.Result = slices.DeleteFunc(slices.Clone(v.Result), func(l string) bool {
		return slices.ContainsFunc(previews, func(p string) bool { return strings.HasPrefix(l, p) })
	})
	return v
}
