package discord

import (
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/dealerbot/dealerbot/bot"
	"github.com/dealerbot/dealerbot/bot/bottest"
)

// A command forwarded from another process brings its interaction (Command.Followup); the owner's
// adapter uses it for the player's private messages once the other process has had time to answer
// Discord, and until then the player's interaction before it. A refused token gives way to the one
// before. A form's probe carries none; a handle of another application or a garbled one is ignored.
func TestForwardedInteractions(t *testing.T) {
	a, err := New(testConfig(), nil)
	if err != nil {
		t.Fatal(err)
	}
	clock := bottest.NewClock(time.Date(2026, 11, 20, 20, 0, 0, 0, time.UTC))
	a.now = clock.Now
	k := seat{user: "111", channel: "C1"}
	token := func() string {
		t.Helper()
		i, ok := a.liveToken(k.user, k.channel)
		if !ok {
			return ""
		}
		return i.Token
	}
	forwarded := func(followup string) {
		a.Forwarded(bot.Command{Platform: "discord", Workspace: "7000", Channel: k.channel, User: k.user, Followup: followup})
	}

	a.keep(k, &discordgo.Interaction{AppID: testApp, ID: "1", Token: "here"}, clock.Now(), clock.Now())
	forwarded(testApp + "/2/there")
	if got := token(); got != "here" {
		t.Errorf("right after a forwarded interaction: %q, want the one before (%q)", got, "here")
	}
	clock.Advance(forwardSettle)
	if got := token(); got != "there" {
		t.Errorf("%v after a forwarded interaction: %q, want it (%q)", forwardSettle, got, "there")
	}
	a.forget(k.user, k.channel, &discordgo.Interaction{Token: "there"})
	if got := token(); got != "here" {
		t.Errorf("after Discord refused the forwarded token: %q, want the one before (%q)", got, "here")
	}

	for _, bad := range []string{"", "999/3/other-app", testApp + "/x/notanid", testApp + "/3", "garbled"} {
		forwarded(bad)
		clock.Advance(forwardSettle)
		if got := token(); got != "here" {
			t.Errorf("after a forwarded %q: %q, want it ignored", bad, got)
		}
	}
	i := &discordgo.Interaction{AppID: testApp, ID: "4", Token: "form"}
	if got := followup(bot.Command{Probe: true}, i); got != "" {
		t.Errorf("a probe's followup = %q, want none (its interaction is answered with a form)", got)
	}
	if got, want := followup(bot.Command{}, i), testApp+"/4/form"; got != want {
		t.Errorf("followup = %q, want %q", got, want)
	}

	clock.Advance(tokenUsable)
	if got := token(); got != "" {
		t.Errorf("after %v: %q, want none (too old)", tokenUsable, got)
	}
}
