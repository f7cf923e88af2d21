package phh

import (
	"fmt"
	"io"
	"math"
	"strings"
)

// Outcome is what checking one hand history against its finishing_stacks found.
type Outcome int

const (
	Match   Outcome = iota // replayed to the recorded finishing stacks
	Differ                 // replayed, but to other stacks
	Failed                 // unreadable, or the engine could not replay it
	Skipped                // another game, or no finishing_stacks to compare with
)

// CheckHand reads one hand history from r, replays it through the engine and compares the final
// stacks with its finishing_stacks. A player may be off by less than one chip only where the file
// records a fractional stack (a split pot the engine pays in whole chips). detail is a sentence for
// Differ and Failed: which players differ, or why the file could not be read or replayed.
func CheckHand(r io.Reader) (o Outcome, detail string) {
	h, err := Parse(r)
	if err != nil {
		return Failed, err.Error()
	}
	if !Replayable(h.Variant) {
		return Skipped, ""
	}
	hand, err := Replay(h)
	if err != nil {
		return Failed, err.Error()
	}
	if h.FinishingStacks == nil {
		return Skipped, ""
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
	if bad != nil {
		return Differ, strings.Join(bad, "; ")
	}
	return Match, ""
}
