package slack

import (
	"slices"
	"strings"
	"testing"
	"time"

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

// BenchmarkSlackHand plays one 3-player hand (a raise through the amount form, calls, checked down:
// 12 actions) by clicks on its table message, over the fake Slack with its limits on and off.
// Between hands the timer stops while the channel's post budget refills, as between hands at a real
// table; the hand itself must not wait for a limit. Reported: ns/op (from the deal command to the
// final table on screen), Web API calls and response_url posts per action, channel posts and
// updates per action, and the median time from a click to the next player's buttons on screen.
func BenchmarkSlackHand(b *testing.B) {
	for _, limits := range []bool{true, false} {
		name := "limits=off"
		if limits {
			name = "limits=on"
		}
		b.Run(name, func(b *testing.B) {
			tb := newTable(b, 3)
			tb.limits = limits
			tb.slashDo("UALICE", "start blinds=5/10 buyin=1000 timer=0")
			for _, p := range []string{"UALICE", "UBOB", "UCAROL"} {
				tb.slashDo(p, "join 1000")
			}
			var all slackStats
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				time.Sleep(3100 * time.Millisecond)
				b.StartTimer()
				st := tb.playHand(true)
				all.actions += st.actions
				all.api += st.api
				all.hooks += st.hooks
				all.writes += st.writes
				all.waits = append(all.waits, st.waits...)
			}
			b.StopTimer()
			slices.Sort(all.waits)
			per := func(n int) float64 { return float64(n) / float64(all.actions) }
			b.ReportMetric(per(all.api), "api/action")
			b.ReportMetric(per(all.hooks), "hooks/action")
			b.ReportMetric(per(all.writes), "writes/action")
			b.ReportMetric(float64(all.waits[len(all.waits)/2].Microseconds())/1000, "click-ms")
		})
	}
}
