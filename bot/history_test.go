package bot_test

import (
	"strings"
	"testing"
	"time"

	"github.com/dealerbot/dealerbot/bot"
)

// TestHistoryIsHandNumber: `history 15` is hand #15, the hand's own number in the channel (numbers go
// on across sessions, an empty session in between), not the 15th most recent; `history` alone is the
// latest and `history last N` counts back. Bad numbers are refused with the usage and change nothing.
func TestHistoryIsHandNumber(t *testing.T) {
	r := newRig(t, bot.Config{})
	session := func(hands int) {
		r.must("c1", "ann", "start timer=off")
		r.must("c1", "ann", "join 1000")
		r.must("c1", "ben", "join 1000")
		for i := 0; i < hands; i++ {
			r.must("c1", "ann", "deal")
			r.playOut("c1", "ann", "ben")
		}
		r.must("c1", "ann", "end")
		r.advance(time.Minute)
	}
	session(10)
	session(0) // an empty start/end deals no hand and takes no number
	session(6)

	for _, tt := range []struct{ text, want string }{
		{"history 15", "Hand #15 "},
		{"history #15", "Hand #15 "},
		{"history 1", "Hand #1 "},
		{"history 16", "Hand #16 "},
		{"history", "Hand #16 "},
		{"history last 1", "Hand #16 "},
		{"history last 3", "Hand #14 "},
		{"history LAST 16", "Hand #1 "},
	} {
		if rep := r.must("c1", "ben", tt.text); !strings.HasPrefix(rep.Text, tt.want) {
			t.Errorf("%s: %.40q, want it to begin %q", tt.text, rep.Text, tt.want)
		}
	}
	if rep := r.must("c1", "ben", "history 15"); !strings.Contains(rep.Text, "Type `verify 15`") {
		t.Errorf("history 15 does not offer to verify hand 15:\n%s", rep.Text)
	}
	usage := "Write `history` for the last hand, `history 15` for hand #15, or `history last 3` for the third most recent (up to 100)."
	for _, tt := range []struct{ text, want string }{
		{"history 17", "Hand #17 has not finished in this channel: the latest is #16 (`history 16`)."},
		{"history 0", usage},
		{"history -3", usage},
		{"history x", usage},
		{"history 99999999999999999999", usage},
		{"history last", usage},
		{"history last 0", usage},
		{"history last 101", usage},
		{"history last 17", "This channel has only 16 finished hands: ask for `history last 16` or less."},
		{"history 3 4", usage},
		{"history last " + strings.Repeat("9", 5000), usage},
	} {
		r.refused("c1", "ben", tt.text, tt.want)
	}
}
