package slack

import (
	"context"
	"github.com/dealerbot/dealerbot/storage/storetest"
	"strings"
	"sync"
	"testing"
	"time"

	slackapi "github.com/slack-go/slack"

	"github.com/dealerbot/dealerbot/bot"
	"github.com/dealerbot/dealerbot/bot/features"
)

// TestScheduledGameOverSocketMode runs a weekly home game through the fake Slack with the real dealer,
// the real scheduler and a bbolt file: a workspace admin schedules it by slash command (a player may
// not), the announcement carries RSVP buttons, two players answer by clicking them, the reminder
// mentions who is going, and at the start the table opens with the schedule's settings and the RSVPs
// are pinged. The scheduler's clock is injected and ticked by hand, as cmd/dealerbot's runner would.
func TestScheduledGameOverSocketMode(t *testing.T) {
	t.Parallel() // the fake's rate limits make it wait for seconds
	h := newHarness(t, socketConfig())
	db := storetest.OpenDB(t)

	var mu sync.Mutex
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC) // a Sunday
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	set := func(at time.Time) { mu.Lock(); now = at; mu.Unlock() }

	d, err := bot.New(db, h.a, features.With(db, bot.Config{
		Now:       clock,
		AfterFunc: func(time.Duration, func()) bot.Timer { return stoppedTimer{} },
	}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := d.Close(ctx); err != nil {
			t.Error(err)
		}
	})
	s, err := features.NewScheduler(d, db, features.ScheduleConfig{DefaultZone: "America/New_York", Now: clock})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { // before the dealer, after the adapter
		if err := s.Close(context.Background()); err != nil {
			t.Error(err)
		}
	})
	h.a.SetDealer(d)
	tb := &desk{harness: h, t: t, db: db, d: d}
	tb.runSocket(t)
	h.setAdmin("UALICE")
	ctx := context.Background()

	// tick moves the clock and runs the scheduler; it returns the channel posts that caused.
	tick := func(at time.Time) []call {
		t.Helper()
		set(at)
		n := len(tb.snapshot())
		if err := s.Tick(ctx); err != nil {
			t.Fatalf("tick at %s: %v", at, err)
		}
		tb.flush()
		return tb.publicSince(n)
	}

	// A player who neither administers the workspace nor hosts a table here is refused, privately.
	n := len(tb.snapshot())
	got := tb.slashDo("UBOB", "schedule add weekly fri 20:00 length=2h blinds=5/10 buyin=500")
	if !strings.Contains(got, "Only an admin or the host") {
		t.Errorf("non-admin schedule add answered %q, want a refusal", got)
	}
	if pub := tb.publicSince(n); len(pub) != 0 {
		t.Errorf("a refused schedule add posted in the channel:\n%s", dump(pub))
	}
	if got := tb.slashDo("UBOB", "schedule list"); !strings.Contains(got, "No games are scheduled here") {
		t.Errorf("after a refused add, schedule list = %q, want none", got)
	}
	if all, err := db.Schedules(ctx); err != nil || len(all) != 0 {
		t.Fatalf("stored schedules after a refused add: %v, %v", all, err)
	}

	// The admin's add is answered with the next dates in New York time: 20:00 EST on Friday is
	// 01:00 UTC on Saturday, so a date in the server's zone would show up as a Saturday.
	n = len(tb.snapshot())
	got = tb.slashDo("UALICE", "schedule add weekly fri 20:00 length=2h blinds=5/10 buyin=500")
	for _, want := range []string{
		"(America/New_York), 2 h a game",
		"Next games: Fri 27 Nov 2026 20:00 EST; Fri 4 Dec 2026 20:00 EST; Fri 11 Dec 2026 20:00 EST.",
		"Game: no-limit 5/10, buy-in 500",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("schedule add reply lacks %q:\n%s", want, got)
		}
	}
	if pub := tb.publicSince(n); len(pub) != 0 {
		t.Errorf("schedule add posted in the channel:\n%s", dump(pub))
	}
	all, err := db.Schedules(ctx)
	if err != nil || len(all) != 1 {
		t.Fatalf("stored schedules after the admin's add: %v, %v", all, err)
	}
	id := all[0].ID
	if got, want := all[0].Channel, "CGAME"; got != want {
		t.Errorf("schedule stored for channel %q, want %q", got, want)
	}
	if got := tb.slashDo("UBOB", "schedule list"); !strings.Contains(got, "next Fri 27 Nov 2026 20:00 EST") {
		t.Errorf("schedule list = %q, want the schedule and its next game", got)
	}

	start := time.Date(2026, 11, 28, 1, 0, 0, 0, time.UTC) // Fri 27 Nov 2026 20:00 EST

	// Nothing happens before the announcement is due.
	if pub := tick(start.Add(-25 * time.Hour)); len(pub) != 0 {
		t.Errorf("posts 25 hours before the game:\n%s", dump(pub))
	}

	// 24 hours before: the announcement with the three RSVP buttons.
	pub := tick(start.Add(-24 * time.Hour))
	if len(pub) != 1 {
		t.Fatalf("announcement: %d channel posts, want 1:\n%s", len(pub), dump(tb.snapshot()))
	}
	ann := pub[0]
	if want := "Home game on Fri 27 Nov 2026 20:00 EST (in 24 hours), hosted by alice, 2 h long. Game: no-limit 5/10, buy-in 500"; !strings.Contains(ann.Text, want) {
		t.Errorf("announcement %q lacks %q", ann.Text, want)
	}
	buttons := []struct {
		label, command string
		style          slackapi.Style
	}{
		{"Going", "rsvp yes", slackapi.StylePrimary},
		{"Maybe", "rsvp maybe", slackapi.StyleDefault},
		{"Not going", "rsvp no", slackapi.StyleDanger},
	}
	if len(ann.Buttons) != len(buttons) {
		t.Fatalf("announcement has %d buttons, want %d:\n%s", len(ann.Buttons), len(buttons), dump(pub))
	}
	for i, want := range buttons {
		b := ann.Buttons[i]
		if b.Text.Text != want.label {
			t.Errorf("button %d is %q, want %q", i, b.Text.Text, want.label)
		}
		if !strings.HasPrefix(b.ActionID, actionPrefix) {
			t.Errorf("%s button's action_id %q is not one the adapter runs on click", want.label, b.ActionID)
		}
		if b.Style != want.style {
			t.Errorf("%s button's style %q, want %q", want.label, b.Style, want.style)
		}
		v, err := decodeValue(b.Value)
		if err != nil {
			t.Errorf("%s button: %v", want.label, err)
			continue
		}
		if v != (buttonValue{Command: want.command, Token: id, Channel: "CGAME"}) {
			t.Errorf("%s button carries %+v, want command %q for schedule %s in CGAME", want.label, v, want.command, id)
		}
	}

	// Bob clicks Going and Carol Maybe; each is answered privately, and the channel stays quiet.
	for _, c := range []struct{ user, label, want string }{
		{"UBOB", "Going", "You're in for Fri 27 Nov 2026 20:00 EST."},
		{"UCAROL", "Maybe", "Marked as maybe for Fri 27 Nov 2026 20:00 EST."},
	} {
		n := len(tb.snapshot())
		tb.click("CGAME", c.user, mustButton(t, ann, c.label))
		ack := tb.waitCall(n, "chat.postEphemeral", func(e call) bool { return e.User == c.user })
		if !strings.Contains(ack.Text, c.want) || ack.Channel != "CGAME" {
			t.Errorf("%s's %s click answered %q in %s, want %q in CGAME", c.user, c.label, ack.Text, ack.Channel, c.want)
		}
		if pub := tb.publicSince(n); len(pub) != 0 {
			t.Errorf("an RSVP click posted in the channel:\n%s", dump(pub))
		}
	}

	// 30 minutes before: the reminder mentions Bob (a Slack mention notifies him) and names Carol.
	pub = tick(start.Add(-30 * time.Minute))
	if len(pub) != 1 {
		t.Fatalf("reminder: %d channel posts, want 1:\n%s", len(pub), dump(tb.snapshot()))
	}
	if want := "The game starts in 30 minutes (20:00 EST). Going: <@UBOB>. Maybe: carol."; !strings.Contains(pub[0].Text, want) {
		t.Errorf("reminder %q lacks %q", pub[0].Text, want)
	}
	if got := len(pub[0].Buttons); got != len(buttons) {
		t.Errorf("reminder has %d RSVP buttons, want %d for late answers", got, len(buttons))
	}

	// At the start the table opens with the schedule's settings, hosted by the admin, and both
	// players who answered yes or maybe are pinged.
	pub = tick(start)
	var texts []string
	for _, c := range pub {
		texts = append(texts, c.Text)
	}
	opened := strings.Join(texts, "\n")
	for _, want := range []string{
		"alice opened a table: no-limit 5/10, buy-in 500",
		"<@UBOB>, <@UCAROL>: The 20:00 EST game is open until 22:00 EST",
	} {
		if !strings.Contains(opened, want) {
			t.Errorf("channel at the start lacks %q:\n%s", want, opened)
		}
	}
	rec := tb.record()
	if rec.Channel != "CGAME" || rec.Host != "UALICE" || rec.Settings.SmallBlind != 5 || rec.Settings.BigBlind != 10 || rec.Settings.BuyIn != 500 {
		t.Errorf("opened table: channel %s, host %s, blinds %d/%d, buy-in %d; want CGAME, UALICE, 5/10, 500",
			rec.Channel, rec.Host, rec.Settings.SmallBlind, rec.Settings.BigBlind, rec.Settings.BuyIn)
	}
	if got, want := rec.Settings.Variant.String(), "no-limit"; got != want {
		t.Errorf("opened table's game is %q, want %q", got, want)
	}

	// A later tick opens nothing twice.
	if pub := tick(start.Add(time.Minute)); len(pub) != 0 {
		t.Errorf("posts a minute after the start:\n%s", dump(pub))
	}

	// The players sit down with the schedule's buy-in, and every chip is accounted for.
	for _, p := range []string{"UBOB", "UCAROL"} {
		if got := tb.slashDo(p, "join"); !strings.Contains(got, "500") {
			t.Errorf("%s's join answered %q, want the 500 buy-in", p, got)
		}
	}
	if got, want := chipsOnTable(tb.record()), int64(1000); got != want {
		t.Errorf("chips on the table after two joins: %d, want %d", got, want)
	}
	tot, err := db.Balance(ctx)
	if err != nil {
		t.Errorf("chips not conserved: %v", err)
	}
	if got, want := tot.OnTables, int64(1000); got != want {
		t.Errorf("ledger has %d chips on tables, want %d", got, want)
	}
}
