package discord

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dealerbot/dealerbot/bot"
	"github.com/dealerbot/dealerbot/bot/bottest"
	"github.com/dealerbot/dealerbot/bot/features"
)

// adminPerms is the member permission bit field of a server admin (Administrator).
const adminPerms = "8"

// scheduleSub sends /poker schedule <sub> with options given as name, type, value triples, from a
// member with the given permissions.
func (f *fakeDiscord) scheduleSub(p player, channel, perms, sub string, opts ...any) string {
	var os []any
	for i := 0; i+2 < len(opts); i += 3 {
		os = append(os, map[string]any{"name": opts[i], "type": opts[i+1], "value": opts[i+2]})
	}
	_, tok := f.interaction(2, p, "7000", channel, map[string]any{
		"id": "3000", "name": "poker", "type": 1,
		"options": []any{map[string]any{"name": "schedule", "type": 2, "options": []any{
			map[string]any{"name": sub, "type": 1, "options": os},
		}}},
	}, perms)
	return tok
}

// private checks that an interaction was acknowledged ephemerally and returns what the user saw.
func private(t *testing.T, f *fakeDiscord, n int, tok string) string {
	t.Helper()
	first, final := f.answer(n, tok)
	if first.flags()&64 == 0 {
		t.Errorf("the answer to %s is not ephemeral (flags 64): %s", tok, first)
	}
	return final.content()
}

// pings reports whether a channel post lets Discord ping the users it mentions.
func pings(c call) bool {
	am, _ := c.Body["allowed_mentions"].(map[string]any)
	parse, _ := am["parse"].([]any)
	return slices.Contains(parse, any("users"))
}

// TestScheduledGameOverFakeDiscord runs a weekly home game through the fake Discord with the real
// dealer and scheduler on a bbolt file: an admin schedules it with /poker schedule add, the
// announcement's RSVP buttons are clicked, the reminder pings who is going, and at the start the
// table opens with the schedule's settings and the RSVPs are pinged.
func TestScheduledGameOverFakeDiscord(t *testing.T) {
	t.Parallel() // the fake's rate limit makes it wait for seconds; other tests need not wait with it
	f := newFakeDiscord(t, testApp)
	logs := &bottest.Buffer{}
	// Sunday before the game, which is Fri 27 Nov 2026 20:00 CET (19:00 UTC).
	clock := bottest.NewClock(time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC))
	set := func(at time.Time) {
		clock.Set(at)
	}
	a := openAdapter(t, f, logs, clock)

	db, d := openDealer(t, f, a, logs, clock, bot.Config{})
	s, err := features.NewScheduler(d, db, features.ScheduleConfig{DefaultZone: "Europe/Berlin", Now: clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	// Cleanups run last-in first-out: the scheduler closes before the dealer, the dealer before the adapter.
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := s.Close(ctx); err != nil {
			t.Errorf("scheduler Close: %v", err)
		}
	})
	a.SetDealer(d)

	alice, bob, carol, dave := player{"111", "alice"}, player{"222", "bob"}, player{"333", "carol"}, player{"444", "dave"}
	g := &game{t: t, f: f, channel: "5550", players: []player{alice, bob, carol, dave}, d: d}
	ctx := context.Background()
	addOpts := []any{"when", 3, "fri 20:00", "tz", 3, "Europe/Berlin", "length", 3, "2h", "game", 3, "blinds=5/10 buyin=500"}

	// Bob is neither an admin nor the host of a table here: he is refused, privately, and nothing is stored.
	n := f.count()
	got := private(t, f, n, f.scheduleSub(bob, g.channel, "", "add", addOpts...))
	if !strings.Contains(got, "Only an admin or the host") {
		t.Errorf("non-admin schedule add answered %q", got)
	}
	if ps := g.posts(f.since(n)); len(ps) != 0 {
		t.Errorf("refused schedule add posted %v", ps)
	}
	if all, err := db.Schedules(ctx); err != nil || len(all) != 0 {
		t.Fatalf("after the refused add, schedules = %v, %v; want none", all, err)
	}

	// Alice, an admin, schedules the game; the reply lists the next dates and the game's settings.
	n = f.count()
	got = private(t, f, n, f.scheduleSub(alice, g.channel, adminPerms, "add", addOpts...))
	for _, want := range []string{"Fri 27 Nov 2026 20:00 CET", "Fri 4 Dec 2026 20:00 CET", "2 h a game", "Game: no-limit 5/10, buy-in 500"} {
		if !strings.Contains(got, want) {
			t.Errorf("schedule add reply lacks %q: %q", want, got)
		}
	}
	m := regexp.MustCompile(`^Schedule (\S+) added`).FindStringSubmatch(got)
	if m == nil {
		t.Fatalf("schedule add reply names no schedule: %q", got)
	}
	id := m[1]
	all, err := db.Schedules(ctx)
	if err != nil || len(all) != 1 || all[0].ID != id || all[0].Channel != g.channel || all[0].Host != alice.id {
		t.Fatalf("after the add, schedules = %+v, %v; want schedule %s of alice in %s", all, err, id, g.channel)
	}

	start := time.Date(2026, 11, 27, 19, 0, 0, 0, time.UTC)
	tick := func(at time.Time) []call {
		t.Helper()
		set(at)
		n := f.count()
		if err := s.Tick(ctx); err != nil {
			t.Fatalf("Tick at %v: %v", at, err)
		}
		g.flush()
		return g.posts(f.since(n))
	}

	// Nothing is announced before its time.
	if ps := tick(start.Add(-25 * time.Hour)); len(ps) != 0 {
		t.Errorf("25 h before the game, the channel got %v", ps)
	}

	// 24 h before: the announcement, with RSVP buttons that carry the schedule's ID.
	ps := tick(start.Add(-24 * time.Hour))
	if len(ps) != 1 {
		t.Fatalf("24 h before the game, the channel got %d posts, want the announcement:\n%v", len(ps), ps)
	}
	ann := ps[0]
	if want := "Home game on Fri 27 Nov 2026 20:00 CET (in 24 hours), hosted by alice, 2 h long. Game: no-limit 5/10, buy-in 500"; !strings.Contains(ann.content(), want) {
		t.Errorf("announcement = %q, want %q", ann.content(), want)
	}
	bs := ann.buttons()
	rsvp := map[string]button{}
	for _, want := range []struct{ label, command string }{{"Going", "rsvp yes"}, {"Maybe", "rsvp maybe"}, {"Not going", "rsvp no"}} {
		b, ok := find(t, bs, want.label)
		if !ok {
			t.Fatalf("announcement has no %q button: %v", want.label, bs)
		}
		if got, want := b.id, fmt.Sprintf("pk1|b|%s|%s", id, want.command); got != want {
			t.Errorf("%q button custom_id = %q, want %q", b.label, got, want)
		}
		rsvp[want.command] = b
	}
	if len(bs) != 3 {
		t.Errorf("announcement buttons = %v, want Going, Maybe, Not going", bs)
	}

	// Three players answer with the announcement's buttons, each acknowledged privately.
	for _, c := range []struct {
		p          player
		cmd, reply string
	}{
		{bob, "rsvp yes", "You're in for Fri 27 Nov 2026 20:00 CET"},
		{carol, "rsvp maybe", "Marked as maybe for Fri 27 Nov 2026 20:00 CET"},
		{dave, "rsvp no", "Marked as not going for Fri 27 Nov 2026 20:00 CET"},
	} {
		n := f.count()
		got := private(t, f, n, f.click(c.p, g.channel, rsvp[c.cmd].id))
		if !strings.Contains(got, c.reply) {
			t.Errorf("%s clicking %q saw %q, want %q", c.p.name, rsvp[c.cmd].label, got, c.reply)
		}
		if ps := g.posts(f.since(n)); len(ps) != 0 {
			t.Errorf("%s's RSVP posted %v", c.p.name, ps)
		}
	}

	// 30 minutes before: the reminder pings who is going and names the maybes.
	ps = tick(start.Add(-30 * time.Minute))
	if len(ps) != 1 {
		t.Fatalf("30 min before the game, the channel got %d posts, want the reminder:\n%v", len(ps), ps)
	}
	rem := ps[0]
	if want := "The game starts in 30 minutes (20:00 CET). Going: <@" + bob.id + ">. Maybe: carol."; !strings.Contains(rem.content(), want) {
		t.Errorf("reminder = %q, want %q", rem.content(), want)
	}
	if strings.Contains(rem.content(), dave.id) || strings.Contains(rem.content(), dave.name) {
		t.Errorf("reminder names dave, who is not going: %q", rem.content())
	}
	if !pings(rem) {
		t.Errorf("reminder does not allow user mentions, so bob is not pinged: %s", rem)
	}
	if got := rem.buttons(); !slices.Equal(got, bs) {
		t.Errorf("reminder buttons = %v, want the announcement's %v", got, bs)
	}
	// The reminder carries the RSVP buttons now, so the announcement's are taken off.
	f.waitFor(0, "the announcement's buttons to go", func(c call) bool {
		return c.Method == "PATCH" && c.Path == "/channels/"+g.channel+"/messages/"+ann.ID && strings.Contains(c.Raw, `"components":[]`)
	})

	// At the start: the table opens with the schedule's settings, and going and maybe are pinged.
	ps = tick(start)
	var opened, open call
	for _, p := range ps {
		switch {
		case strings.Contains(p.content(), "alice opened a table"):
			opened = p
		case strings.Contains(p.content(), "game is open until"):
			open = p
		}
	}
	for _, want := range []string{"no-limit 5/10", "buy-in 500", "ends after 120 minutes"} {
		if !strings.Contains(opened.content(), want) {
			t.Errorf("table opening = %q, want it to say %q", opened.content(), want)
		}
	}
	if want := "<@" + bob.id + ">, <@" + carol.id + ">: The 20:00 CET game is open until 22:00 CET"; !strings.HasPrefix(open.content(), want) {
		t.Errorf("start post = %q, want %q", open.content(), want)
	}
	if strings.Contains(open.content(), dave.id) {
		t.Errorf("start post pings dave, who is not going: %q", open.content())
	}
	if !pings(open) {
		t.Errorf("start post does not allow user mentions: %s", open)
	}

	// The table is real: bob sits down with the schedule's buy-in.
	reply, calls := g.do(bob, "join")
	if !strings.Contains(reply, "You are in seat") {
		t.Fatalf("bob's join answered %q", reply)
	}
	if ps := g.posts(calls); len(ps) != 1 || !strings.Contains(ps[0].content(), "bob sits down") {
		t.Errorf("bob's join posted %v", ps)
	}
	tables, err := db.Tables(ctx)
	if err != nil || len(tables) != 1 || tables[0].Host != alice.id {
		t.Fatalf("tables = %+v, %v; want alice's one table", tables, err)
	}
	var seated []string
	for _, st := range tables[0].Seats {
		if st.User != "" {
			seated = append(seated, fmt.Sprintf("%s:%d", st.User, st.Stack))
		}
	}
	if got, want := strings.Join(seated, " "), bob.id+":500"; got != want {
		t.Errorf("seated (user:stack) = %q, want %q: bob with the schedule's buy-in", got, want)
	}

	// Chips: nothing created or lost.
	tot, err := db.Balance(ctx)
	if err != nil {
		t.Fatalf("ledger does not balance: %v (%+v)", err, tot)
	}
	if got, want := tot.OnTables, int64(500); got != want {
		t.Errorf("chips on tables = %d, want %d", got, want)
	}
}
