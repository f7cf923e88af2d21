package phh

import (
	"errors"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/dealerbot/dealerbot/engine"
)

// Outcome is what checking one hand history against its finishing_stacks found.
type Outcome int

const (
	Match   Outcome = iota // replayed to the recorded finishing stacks
	Differ                 // replayed, but to other stacks
	Failed                 // unreadable, of a game dealerbot does not deal, or the engine could not replay it
	Skipped                // no finishing_stacks to compare with
	// Expected is a difference RULES.md makes on purpose where pokerkit, which wrote the file, plays
	// otherwise (ExpectedDifferences): the detail names the rule. It is not a failure.
	Expected
)

// The known differences between RULES.md and pokerkit that make a replay end with other stacks than
// a file pokerkit wrote, each a sentence for the check's report. The rulebook wins.
const (
	DiffNoLowSidePot = "pokerkit halves a hi-lo pot whose players have no low between them when another " +
		"player has one; RULES.md section 12 gives it all to the high hand"
	DiffRemainder = "pokerkit gives the whole odd-chip remainder of a split pot to one winner; RULES.md " +
		"section 6 gives one chip at a time from the first seat left of the button, in each half of a hi-lo pot"
	DiffLimitRaise = "pokerkit's fixed-limit Omaha hi-lo accepts a raise of more than one bet; RULES.md " +
		"section 4 raises by exactly one bet"
)

// CheckHand reads one hand history from r, replays it through the engine and compares the final
// stacks with its finishing_stacks (CheckHistory).
func CheckHand(r io.Reader) (o Outcome, detail string) {
	h, err := Parse(r)
	if err != nil {
		return Failed, err.Error()
	}
	return CheckHistory(h)
}

// CheckHistory replays a parsed hand history and compares the final stacks with its
// finishing_stacks. A player may be off by less than one chip only where the file records a
// fractional stack (a split pot the engine pays in whole chips). A history of a game dealerbot does
// not deal is Failed, with the reason. A hi-lo hand whose difference comes from one of the known
// differences between RULES.md and pokerkit is Expected, its detail naming the rule and the stacks.
// detail is a sentence for every outcome but Match.
func CheckHistory(h *History) (o Outcome, detail string) {
	if !Replayable(h.Variant) {
		return Failed, (&UnsupportedError{Variant: h.Variant}).Error()
	}
	if h.FinishingStacks == nil {
		return Skipped, "the file records no finishing_stacks to compare with"
	}
	hand, err := Replay(h)
	if err != nil {
		var ee *engine.Error
		if v, g, _ := Game(h.Variant); v == engine.FixedLimit && g.HiLo() && errors.As(err, &ee) && ee.Code == engine.ErrTooLarge {
			return Expected, DiffLimitRaise + ": " + err.Error()
		}
		return Failed, err.Error()
	}
	got := hand.Stacks()
	var bad []string
	for i, want := range h.FinishingStacks {
		diff := math.Abs(float64(got[i]) - want)
		if diff == 0 || (want != math.Trunc(want) && diff < 1) {
			continue
		}
		bad = append(bad, fmt.Sprintf("p%d finished with %d, the file says %s", i+1, got[i], formatAmount(want)))
	}
	if bad == nil {
		return Match, ""
	}
	if why := knownDifferences(hand); why != nil {
		return Expected, strings.Join(why, "; ") + ": " + strings.Join(bad, "; ")
	}
	return Differ, strings.Join(bad, "; ")
}

// knownDifferences lists the known differences with pokerkit (the Diff sentences) that the replayed
// hand's awards ran into.
func knownDifferences(hand *engine.Hand) []string {
	var why []string
	chip := hand.Setup().Rules.Chip
	if chip <= 0 {
		chip = 1
	}
	lowOn := map[uint8]bool{} // runs on whose board some player shows a low
	for _, e := range hand.Events() {
		if e.Kind == engine.EvShow && e.Low != 0 {
			lowOn[e.Run] = true
		}
	}
	noLow, remainder := false, false
	for _, e := range hand.Events() {
		if e.Kind != engine.EvAward || e.Street != engine.Showdown {
			continue
		}
		if hand.Game().HiLo() && e.Half == engine.HalfWhole && lowOn[e.Run] {
			noLow = true
		}
		if w := int64(len(e.Pots[0].Winners)); w > 1 && e.Amount/chip%w >= 2 {
			remainder = true
		}
	}
	if noLow {
		why = append(why, DiffNoLowSidePot)
	}
	if remainder {
		why = append(why, DiffRemainder)
	}
	return why
}
