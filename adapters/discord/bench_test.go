package discord

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/dealerbot/dealerbot/render"
)

// The adapter's own work per interaction must be negligible next to Discord's round trip (tens of
// milliseconds) and its 3 s deadline. Targets: SlashCommand < 20 µs/op, TurnComponents < 20 µs/op,
// SplitContent of a 5,000-character text < 200 µs/op.

func BenchmarkSlashCommand(b *testing.B) {
	i := &discordgo.Interaction{Type: discordgo.InteractionApplicationCommand, GuildID: "G", ChannelID: "C",
		Member: &discordgo.Member{User: &discordgo.User{ID: "1", Username: "alice"}},
		Data: discordgo.ApplicationCommandInteractionData{Name: "poker", Options: []*discordgo.ApplicationCommandInteractionDataOption{
			sub("start", opt("variant", tString, "pot-limit"), opt("small_blind", tInt, 10.0), opt("big_blind", tInt, 20.0),
				opt("buyin", tInt, 1000.0), opt("timer", tInt, 60.0), opt("cards", tString, "emoji")),
		}}}
	for b.Loop() {
		if _, err := SlashCommand(i); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkTurnComponents(b *testing.B) {
	bs := []render.Button{
		{Label: "Fold", Command: "fold", Token: "12.7", Style: render.Danger},
		{Label: "Call 40", Command: "call", Token: "12.7", Style: render.Primary},
		{Label: "Raise…", Command: "raise", Token: "12.7", Amount: true, Min: 80, Max: 1960},
		{Label: "All-in 1,960", Command: "allin", Token: "12.7", Style: render.Danger},
	}
	for b.Loop() {
		if _, err := Components(bs); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSplitContent(b *testing.B) {
	text := strings.Repeat("alice checks ♠♥ 🂡\n", 250)
	for b.Loop() {
		if len(SplitContent(text)) < 2 {
			b.Fatal("not split")
		}
	}
}

// FuzzCustomID: any custom ID either is refused with a sentence for the user or decodes to a click
// that encodes back to the same meaning.
func FuzzCustomID(f *testing.F) {
	for _, s := range []string{"pk1|b|1.2|fold", "pk1|a|20|1000|1.0|raise", "pk1|m|1|2|a%7Cb|bet", "pk1|b||cards", "x", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, id string) {
		c, err := parseCustomID(id)
		if err != nil {
			if ok := isInputError(err); !ok {
				t.Fatalf("error %v is not written for the user", err)
			}
			return
		}
		if c.command == "" {
			t.Fatalf("%q decoded to a click without a command", id)
		}
		again, err := c.customID()
		if err != nil {
			return // re-escaping a hand-made token can make it longer than Discord allows
		}
		back, err := parseCustomID(again)
		if err != nil || back != c {
			t.Fatalf("%q -> %+v -> %q -> %+v, %v", id, c, again, back, err)
		}
	})
}

// FuzzInteraction: whatever JSON arrives as an interaction, translating it never panics, and a
// refusal is a sentence for the user.
func FuzzInteraction(f *testing.F) {
	for _, s := range []string{
		`{"type":2,"guild_id":"1","channel_id":"2","member":{"user":{"id":"3","username":"a"},"permissions":"0"},"data":{"name":"poker","type":1,"options":[{"name":"raise","type":1,"options":[{"name":"to","type":4,"value":60}]}]}}`,
		`{"type":2,"guild_id":"1","channel_id":"2","member":{"user":{"id":"3"},"permissions":"8"},"data":{"name":"poker","options":[{"name":"schedule","type":2,"options":[{"name":"rsvp","type":1,"options":[{"name":"answer","type":3,"value":"yes"}]}]}]}}`,
		`{"type":2,"guild_id":"1","channel_id":"2","member":{"user":{"id":"3"}},"data":{"name":"poker","options":[{"name":"kick","type":1,"options":[{"name":"player","type":6,"value":{"x":1}}]}]}}`,
		`{"type":3,"guild_id":"1","channel_id":"2","user":{"id":"3"},"data":{"custom_id":"pk1|a|1|9|t|bet","component_type":2}}`,
		`{"type":5,"guild_id":"1","channel_id":"2","member":{"user":{"id":"3"}},"data":{"custom_id":"pk1|m|1|9|t|bet","components":[{"type":1,"components":[{"type":4,"custom_id":"amount","value":"5"}]}]}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		var i discordgo.Interaction
		if json.Unmarshal(raw, &i) != nil {
			return // discordgo drops events it cannot decode
		}
		check := func(err error) {
			if err == nil {
				return
			}
			if ok := isInputError(err); !ok && !strings.HasPrefix(err.Error(), "interaction type") {
				t.Fatalf("error %v is not written for the user", err)
			}
		}
		switch i.Type {
		case discordgo.InteractionApplicationCommand:
			_, err := SlashCommand(&i)
			check(err)
		case discordgo.InteractionMessageComponent:
			_, _, err := ComponentClick(&i)
			check(err)
		case discordgo.InteractionModalSubmit:
			_, err := ModalSubmit(&i)
			check(err)
		}
	})
}

// BenchmarkDiscordHand plays one 3-player hand (a raise through the amount form, calls, checked down:
// 12 actions) by clicks on its table message, over the fake Discord with its channel rate limit on
// and off. Between hands the timer stops and the channel's 5 s window passes, as between hands at a
// real table; the hand itself must not wait for the limit. Reported: ns/op (the hand, from the deal
// command to the final table on screen), channel writes per action, public messages per hand and the
// median time from a click to the next player's buttons on screen.
func BenchmarkDiscordHand(b *testing.B) {
	for _, limits := range []bool{true, false} {
		name := "limits=off"
		if limits {
			name = "limits=on"
		}
		b.Run(name, func(b *testing.B) {
			f := newFakeDiscord(b, testApp)
			f.limits = limits
			g, _, _ := newGame(b, f, 7)
			g.calls = true
			var actions, writes, messages int
			var waits []time.Duration
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				time.Sleep(f.window + 100*time.Millisecond)
				g.clock.Advance(time.Minute) // and the players' own command limits refill
				b.StartTimer()
				st := g.playHand(b)
				actions += st.actions
				writes += st.writes
				messages += st.messages
				waits = append(waits, st.waits...)
			}
			b.StopTimer()
			slices.Sort(waits)
			b.ReportMetric(float64(writes)/float64(actions), "writes/action")
			b.ReportMetric(float64(messages)/float64(b.N), "msgs/hand")
			b.ReportMetric(float64(waits[len(waits)/2].Microseconds())/1000, "click-ms")
		})
	}
}
