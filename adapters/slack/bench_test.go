package slack

import (
	"strings"
	"testing"

	"github.com/dealerbot/dealerbot/render"
)

// BenchmarkPosts lays out a long message (about 4,000 characters, mentions and escapes) with a turn's
// buttons. Target: well under 1 ms, so posting is bounded by Slack, not by the layout.
func BenchmarkPosts(b *testing.B) {
	m := render.Message{Text: strings.Repeat("<@U123> raises & <calls> ", 160), Buttons: []render.Button{
		{Label: "Fold", Command: "fold", Token: "t"}, {Label: "Call 40", Command: "call", Token: "t"},
		{Label: "Raise…", Command: "raise", Token: "t", Amount: true, Min: 80, Max: 1000},
	}}
	for b.Loop() {
		posts(m, "C1")
	}
}
