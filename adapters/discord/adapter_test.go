package discord

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dealerbot/dealerbot/bot"
	"github.com/dealerbot/dealerbot/bot/bottest"
	"github.com/dealerbot/dealerbot/render"
)

const testApp = "424242"

// openAdapter connects a real adapter (real discordgo session) to the fake and closes it at the end
// of the test.
func openAdapter(t testing.TB, f *fakeDiscord, logs *bottest.Buffer, clock *bottest.Clock) *Adapter {
	t.Helper()
	return openAdapterWith(t, f, logs, clock, testConfig())
}

// testConfig is the adapter's configuration in tests: card emojis off unless a test turns them on.
func testConfig() Config {
	return Config{Token: "test-token", AppID: testApp, GuildID: "7000", ShardCount: 1}
}

// openAdapterWith connects an adapter with cfg and opts and closes it when the test ends.
func openAdapterWith(t testing.TB, f *fakeDiscord, logs *bottest.Buffer, clock *bottest.Clock, cfg Config, opts ...Option) *Adapter {
	t.Helper()
	a := connectWith(t, f, logs, clock, cfg, opts...)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := a.Close(ctx); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return a
}

// connect connects a real adapter to the fake; the caller closes it.
func connect(t testing.TB, f *fakeDiscord, logs *bottest.Buffer, clock *bottest.Clock) *Adapter {
	t.Helper()
	return connectWith(t, f, logs, clock, testConfig())
}

// connectWith connects an adapter with cfg and opts to the fake; the caller closes it.
func connectWith(t testing.TB, f *fakeDiscord, logs *bottest.Buffer, clock *bottest.Clock, cfg Config, opts ...Option) *Adapter {
	t.Helper()
	a, err := New(cfg, slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug})), opts...)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.RESTProxy == "" {
		// Under the adapter's own transport (the share of the global limit), every request goes to the fake.
		a.rest.next = f.client().Transport
	}
	a.now = clock.Now
	if cfg.Endpoint() {
		// The Interactions Endpoint, on a mux as cmd/dealerbot serves it; Discord signs with testKey.
		mux := http.NewServeMux()
		a.Routes(mux)
		srv := httptest.NewServer(mux)
		t.Cleanup(srv.Close) // after the adapter's Close, which waits for the interactions in flight
		f.useEndpoint(srv.URL+InteractionsPath, testKey, clock.Now)
	}
	if err := a.Open(context.Background()); err != nil {
		t.Fatalf("Open: %v", err)
	}
	if !cfg.GatewayOff {
		<-f.open
	}
	return a
}

// httpConfig is testConfig with the Interactions Endpoint served and the gateway off.
func httpConfig() Config {
	c := testConfig()
	c.PublicKey, c.ListenAddr, c.GatewayOff = testPublicKey, "127.0.0.1:0", true
	return c
}

// scripted is a stand-in dealer: it records commands and answers with reply.
type scripted struct {
	mu    sync.Mutex
	got   []bot.Command
	reply func(bot.Command) bot.Reply
}

func (s *scripted) Handle(_ context.Context, c bot.Command) bot.Reply {
	s.mu.Lock()
	s.got = append(s.got, c)
	s.mu.Unlock()
	return s.reply(c)
}

func (s *scripted) commands() []bot.Command {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]bot.Command(nil), s.got...)
}

func TestAdapterOverFakeDiscord(t *testing.T) {
	t.Parallel() // the fake's rate limit makes it wait for seconds; other tests need not wait with it
	f := newFakeDiscord(t, testApp)
	logs := &bottest.Buffer{}
	clock := bottest.NewClock(time.Date(2026, 11, 20, 20, 0, 0, 0, time.UTC))
	a := openAdapter(t, f, logs, clock)
	alice, bob := player{"111", "alice"}, player{"222", "bob"}
	release := make(chan struct{})
	dealer := &scripted{reply: func(c bot.Command) bot.Reply {
		switch c.Text {
		case "sitout":
			<-release // a slow dealer: the interaction must be acknowledged without waiting for it
			return bot.Reply{Text: "slow but sure"}
		case "join 1000":
			return bot.Reply{Text: "You sit down with 1000 chips."}
		case "table":
			return bot.Reply{Text: "Your turn.", Buttons: []render.Button{
				{Label: "Fold", Command: "fold", Token: "h1.4", Style: render.Danger},
				{Label: "Raise…", Command: "raise", Token: "h1.4", Amount: true, Min: 40, Max: 980},
			}}
		case "deal":
			var m map[string]int
			m["boom"]++ // a bug in the dealer must not take the bot down
		case "export 5":
			return bot.Reply{Text: "Your 5 hands.", Files: []render.File{{Name: "dealerbot-hands-1-5.txt", ContentType: "text/plain; charset=utf-8",
				Data: []byte("PokerStars Hand #1:  Hold'em No Limit (5/10)")}}}
		case "cards":
			return bot.Reply{Text: "Your cards:", Extra: []render.Message{{Text: "Hole cards for hand 1: Q♦ Q♣", Private: true}}}
		}
		return bot.Reply{Text: "ok " + c.Text}
	}}
	a.SetDealer(dealer)

	t.Run("connects and registers /poker on the test server", func(t *testing.T) {
		f.mu.Lock()
		id := f.identify
		f.mu.Unlock()
		if got, want := id["token"], "Bot test-token"; got != want {
			t.Errorf("IDENTIFY token = %v, want %v", got, want)
		}
		reg := f.waitFor(0, "command registration", func(c call) bool {
			return c.Method == "PUT" && c.Path == "/applications/"+testApp+"/guilds/7000/commands"
		})
		if !strings.Contains(reg.String(), `"name":"poker"`) {
			t.Errorf("registered %s, want /poker", reg)
		}
		if !strings.Contains(logs.String(), "client_id="+testApp) || !strings.Contains(logs.String(), "applications.commands") {
			t.Errorf("invite URL not logged:\n%s", logs.String())
		}
		deadline := time.Now().Add(5 * time.Second)
		for {
			f.mu.Lock()
			n := f.heartbeat
			f.mu.Unlock()
			if n > 0 {
				break
			}
			if time.Now().After(deadline) {
				t.Fatal("no heartbeat reached the gateway")
			}
			time.Sleep(20 * time.Millisecond)
		}
	})

	t.Run("slash command is acknowledged at once, then answered privately", func(t *testing.T) {
		n := f.count()
		tok := f.slash(alice, "C1", "join", "amount", 4, 1000)
		first, final := f.answer(n, tok)
		if got, want := first.Body["type"], 5.0; got != want {
			t.Errorf("first response type = %v, want %v (deferred)", got, want)
		}
		if first.flags()&64 == 0 {
			t.Errorf("deferral is not ephemeral: %s", first)
		}
		if got, want := final.content(), "You sit down with 1000 chips."; got != want {
			t.Errorf("reply = %q, want %q", got, want)
		}
		cmds := dealer.commands()
		last := cmds[len(cmds)-1]
		// The interaction's ID is the delivery's: the same interaction twice is applied once. Its token
		// goes along, for the process that owns the table if this one forwards the command there.
		seq, _ := strconv.Atoi(strings.TrimPrefix(tok, "itok"))
		want := bot.Command{Platform: "discord", Workspace: "7000", Channel: "C1", User: alice.id, UserName: "alice", Text: "join 1000",
			ID: fmt.Sprintf("discord/%d", 500000+seq), Followup: fmt.Sprintf("%s/%d/%s", testApp, 500000+seq, tok)}
		if last != want {
			t.Errorf("dealer got %+v, want %+v", last, want)
		}
	})

	t.Run("an export comes as a private file", func(t *testing.T) {
		n := f.count()
		_, tok := f.interaction(2, alice, "7000", "C1", map[string]any{"id": "3000", "name": "poker", "type": 1,
			"options": []any{map[string]any{"name": "hands", "type": 2, "options": []any{
				map[string]any{"name": "export", "type": 1, "options": []any{map[string]any{"name": "last", "type": 4, "value": 5}}}}}}}, "")
		file := f.waitFor(n, "the file follow-up", func(c call) bool { return len(c.Files) > 0 })
		if !strings.Contains(file.Path, "/webhooks/"+testApp+"/"+tok) || file.flags()&64 == 0 ||
			!strings.HasPrefix(file.Files["dealerbot-hands-1-5.txt"], "PokerStars Hand #1") {
			t.Fatalf("file sent as %s (files %v), want an ephemeral follow-up with the export", file, file.Files)
		}
		for _, c := range f.since(n) {
			if strings.HasPrefix(c.Path, "/channels/") {
				t.Fatalf("the export reached a channel: %s", c)
			}
		}
	})

	t.Run("a slow dealer does not hold up the acknowledgement", func(t *testing.T) {
		n := f.count()
		tok := f.slash(alice, "C1", "sitout")
		f.waitFor(n, "the deferral while the dealer is busy", func(c call) bool {
			return strings.Contains(c.Path, "/"+tok+"/callback") && c.Body["type"] == 5.0
		})
		close(release)
		_, final := f.answer(n, tok)
		if got, want := final.content(), "slow but sure"; got != want {
			t.Errorf("reply = %q, want %q", got, want)
		}
	})

	t.Run("malformed option is refused without reaching the dealer", func(t *testing.T) {
		before := len(dealer.commands())
		n := f.count()
		tok := f.slash(bob, "C1", "raise", "to", 3, "sixty") // a string where Discord promised an integer
		first, _ := f.answer(n, tok)
		if got, want := first.Body["type"], 4.0; got != want {
			t.Errorf("response type = %v, want %v (an immediate message)", got, want)
		}
		if first.flags()&64 == 0 {
			t.Errorf("error is not ephemeral: %s", first)
		}
		if !strings.Contains(first.content(), "/poker raise to must be a whole number of chips") {
			t.Errorf("error = %q, want a sentence about the amount", first.content())
		}
		if got := len(dealer.commands()); got != before {
			t.Errorf("the dealer received the malformed command")
		}
	})

	t.Run("buttons and the raise form", func(t *testing.T) {
		n := f.count()
		_, final := f.answer(n, f.slash(alice, "C1", "table"))
		bs := final.buttons()
		if len(bs) != 2 {
			t.Fatalf("reply buttons = %+v, want Fold and Raise…", bs)
		}
		n = f.count()
		_, final = f.answer(n, f.click(alice, "C1", bs[0].id))
		if got, want := final.content(), "ok fold"; got != want {
			t.Errorf("fold click reply = %q, want %q", got, want)
		}
		cmds := dealer.commands()
		if last := cmds[len(cmds)-1]; last.Text != "fold" || last.Token != "h1.4" || last.User != alice.id {
			t.Errorf("fold click became %+v", last)
		}

		before := len(dealer.commands())
		n = f.count()
		modal, _ := f.answer(n, f.click(alice, "C1", bs[1].id))
		if got, want := modal.Body["type"], 9.0; got != want {
			t.Fatalf("Raise… answered with type %v, want %v (a modal)", got, want)
		}
		// The dealer was only asked whether alice may raise (it said yes), nothing was run.
		if cmds := dealer.commands()[before:]; len(cmds) != 1 || !cmds[0].Probe || cmds[0].Text != "raise" || cmds[0].Token != "h1.4" || cmds[0].User != alice.id {
			t.Errorf("opening the form sent the dealer %+v, want one probe of raise by alice with token h1.4", cmds)
		}
		data := modal.Body["data"].(map[string]any)
		row := data["components"].([]any)[0].(map[string]any)
		input := row["components"].([]any)[0].(map[string]any)
		if label := input["label"].(string); !strings.Contains(label, "40") || !strings.Contains(label, "980") {
			t.Errorf("form label %q does not give the range", label)
		}
		n = f.count()
		_, final = f.answer(n, f.submit(alice, "C1", data["custom_id"].(string), "80"))
		if got, want := final.content(), "ok raise 80"; got != want {
			t.Errorf("raise form reply = %q, want %q", got, want)
		}
		cmds = dealer.commands()
		if last := cmds[len(cmds)-1]; last.Token != "h1.4" {
			t.Errorf("raise form lost the token: %+v", last)
		}

		n = f.count()
		_, final = f.answer(n, f.submit(alice, "C1", data["custom_id"].(string), "lots"))
		if !strings.Contains(final.content(), "whole number") {
			t.Errorf("bad amount reply = %q", final.content())
		}
	})

	t.Run("a panic in the dealer is answered and survived", func(t *testing.T) {
		n := f.count()
		_, final := f.answer(n, f.slash(alice, "C1", "deal"))
		if !strings.Contains(final.content(), "something went wrong on my side") {
			t.Errorf("reply after panic = %q", final.content())
		}
		if !strings.Contains(logs.String(), "panic while handling an interaction") {
			t.Errorf("panic not logged")
		}
		n = f.count()
		_, final = f.answer(n, f.slash(alice, "C1", "chips"))
		if got, want := final.content(), "ok chips"; got != want {
			t.Errorf("after the panic: reply = %q, want %q", got, want)
		}
	})

	t.Run("private extras follow the reply ephemerally", func(t *testing.T) {
		n := f.count()
		tok := f.slash(bob, "C1", "cards")
		f.answer(n, tok)
		fu := f.waitFor(n, "follow-up", func(c call) bool {
			return c.Method == "POST" && c.Path == "/webhooks/"+testApp+"/"+tok
		})
		if fu.flags()&64 == 0 || !strings.Contains(fu.content(), "Q♦ Q♣") {
			t.Errorf("follow-up = %s, want the cards, ephemeral", fu)
		}
	})

	t.Run("long channel posts are split, buttons on the last", func(t *testing.T) {
		n := f.count()
		text := strings.Repeat("Alice checks.\n", 320) // 4480 characters
		err := a.Send(context.Background(), bot.Message{Channel: "C2", Message: render.Message{Text: text,
			Buttons: []render.Button{{Label: "Call", Command: "call", Token: "t"}}}})
		if err != nil {
			t.Fatal(err)
		}
		posts := f.since(n)
		if len(posts) != 3 {
			t.Fatalf("%d calls, want 3 posts:\n%s", len(posts), f.dump(n))
		}
		for k, p := range posts {
			if p.Path != "/channels/C2/messages" || utf16Len(p.content()) > 2000 {
				t.Errorf("post %d: %s (%d characters)", k, p.Path, utf16Len(p.content()))
			}
			if has := len(p.buttons()) > 0; has != (k == 2) {
				t.Errorf("post %d has buttons = %v", k, has)
			}
		}
	})

	t.Run("the table message is posted once and edited in place", func(t *testing.T) {
		ctx := context.Background()
		n := f.count()
		m := bot.Message{Channel: "C3", Message: render.Message{Text: "Hand #1 · alice to act",
			Buttons: []render.Button{{Label: "Fold", Command: "fold", Token: "1.0"}, {Label: "My cards", Command: "cards"}}}}
		id, err := a.Post(ctx, m)
		if err != nil || id == "" {
			t.Fatalf("Post = %q, %v", id, err)
		}
		m.Text, m.Buttons = "Hand #1 · alice wins 15", nil
		if err := a.Edit(ctx, m, id); err != nil {
			t.Fatalf("Edit: %v", err)
		}
		got := f.since(n)
		if len(got) != 2 || got[0].Method != "POST" || got[0].ID != id || len(got[0].buttons()) != 2 ||
			got[1].Method != "PATCH" || got[1].Path != "/channels/C3/messages/"+id || got[1].content() != m.Text || !strings.Contains(got[1].Raw, `"components":[]`) {
			t.Fatalf("want one post with two buttons, then an edit of it with no buttons left:\n%s", f.dump(n))
		}
		// A turn ping is posted and deleted the same way.
		n = f.count()
		ping, err := a.Post(ctx, bot.Message{Channel: "C3", Message: render.Message{Text: "🔔 <@222>, it is your turn in hand #1."}})
		if err != nil {
			t.Fatal(err)
		}
		if err := a.Delete(ctx, bot.Message{Channel: "C3"}, ping); err != nil {
			t.Fatalf("Delete: %v", err)
		}
		if got := f.since(n); len(got) != 2 || !pings(got[0]) || got[1].Method != "DELETE" || got[1].Path != "/channels/C3/messages/"+ping {
			t.Fatalf("want the ping posted (mentions allowed) and deleted:\n%s", f.dump(n))
		}
	})

	t.Run("a newer post the dealer names like an older one takes the older one's buttons off", func(t *testing.T) {
		ctx := context.Background()
		post := func(prompt, text string, buttons ...render.Button) string {
			n := f.count()
			if err := a.Send(ctx, bot.Message{Channel: "C3", Prompt: prompt, Message: render.Message{Text: text, Buttons: buttons}}); err != nil {
				t.Fatal(err)
			}
			return f.waitFor(n, "the post", func(c call) bool { return c.Path == "/channels/C3/messages" }).ID
		}
		rsvp := func(token string) []render.Button {
			return []render.Button{{Label: "Going", Command: "rsvp yes", Token: token}, {Label: "Not going", Command: "rsvp no", Token: token}}
		}
		friday := post("rsvp g1", "Game on Friday?", rsvp("g1")...)
		saturday := post("rsvp g2", "Game on Saturday?", rsvp("g2")...)                                     // another schedule: stands alone
		post("", "Show my cards", render.Button{Label: "Cards", Command: "cards"})                          // unnamed: never replaced, never replaces
		post("", "Game on Friday, again?", render.Button{Label: "Going", Command: "rsvp yes", Token: "g1"}) // the same buttons, unnamed
		n := f.count()
		post("rsvp g1", "Friday's game starts in 30 minutes", rsvp("g1")...)
		f.waitFor(n, "the announcement's buttons to go", func(c call) bool {
			return c.Method == "PATCH" && c.Path == "/channels/C3/messages/"+friday && strings.Contains(c.Raw, `"components":[]`)
		})
		a.cleanups.Wait() // every edit the adapter started has been made
		for _, c := range f.since(n) {
			if c.Method == "PATCH" && c.Path != "/channels/C3/messages/"+friday {
				t.Errorf("edited a message the dealer did not name the same: %s (Saturday's %s)", c, saturday)
			}
		}
	})

	t.Run("hole cards by DM, and the DM-blocked fallback", func(t *testing.T) {
		ctx := context.Background()
		n := f.count()
		if err := a.Send(ctx, bot.Message{User: alice.id, Message: render.Message{Text: "Your cards: A♠ A♥", Private: true}}); err != nil {
			t.Fatalf("DM: %v", err)
		}
		got := f.since(n)
		if len(got) != 2 || got[0].Path != "/users/@me/channels" || got[1].Path != "/channels/"+dmPrefix+alice.id+"/messages" {
			t.Fatalf("DM calls:\n%s", f.dump(n))
		}

		f.block(bob.id)
		n = f.count()
		err := a.Send(ctx, bot.Message{User: bob.id, Message: render.Message{Text: "Your cards: 7♣ 2♦", Private: true}})
		if !errors.Is(err, bot.ErrDMBlocked) {
			t.Fatalf("Send to a user with closed DMs = %v, want bot.ErrDMBlocked", err)
		}
		if tries := len(f.since(n)); tries != 2 {
			t.Errorf("%d calls for the first try, want 2 (open DM, send)", tries)
		}
		n = f.count()
		err = a.Send(ctx, bot.Message{User: bob.id, Message: render.Message{Text: "Your cards: 7♣ 2♦", Private: true}})
		if !errors.Is(err, bot.ErrDMBlocked) || f.count() != n {
			t.Errorf("second DM: %v after %d calls; want bot.ErrDMBlocked without asking Discord again", err, f.count()-n)
		}
		clock.Advance(dmRetryAfter + time.Minute)
		f.mu.Lock()
		delete(f.blocked, bob.id)
		f.mu.Unlock()
		if err := a.Send(ctx, bot.Message{User: bob.id, Message: render.Message{Text: "Your cards: 9♣ 9♦", Private: true}}); err != nil {
			t.Errorf("DM after the user opened DMs again: %v", err)
		}
		if l := logs.String(); strings.Contains(l, "7♣") || strings.Contains(l, "A♠") || strings.Contains(l, "9♣") {
			t.Errorf("hole cards reached the log:\n%s", l)
		}
	})
}

// TestShardOpen: a second shard identifies as such and leaves command registration to shard 0, so
// processes do not overwrite each other's commands.
func TestShardOpen(t *testing.T) {
	f := newFakeDiscord(t, testApp)
	cfg, err := ConfigFromEnv(env(map[string]string{"DISCORD_TOKEN": "test-token", "DISCORD_APP_ID": testApp,
		"DISCORD_SHARD_ID": "1", "DISCORD_SHARD_COUNT": "2"}))
	if err != nil {
		t.Fatal(err)
	}
	a, err := New(cfg, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	a.session.Client = f.client()
	if err := a.Open(context.Background()); err != nil {
		t.Fatal(err)
	}
	defer a.Close(context.Background())
	<-f.open
	f.mu.Lock()
	shard := f.identify["shard"]
	f.mu.Unlock()
	if got, want := fmt.Sprint(shard), "[1 2]"; got != want {
		t.Errorf("IDENTIFY shard = %s, want %s", got, want)
	}
	ready(t, a)
	for _, c := range f.since(0) {
		if strings.HasPrefix(c.Path, "/applications/") && c.Method != "GET" {
			t.Errorf("shard 1 registered commands or uploaded card emojis (shard 0 does): %s", c)
		}
	}
}

// TestRaiseProbe: a click on an amount button asks the dealer first. A refusal is shown privately
// instead of the form; a dealer that does not answer in time does not hold the form up (Discord
// wants the first response within 3 s and a form cannot follow a deferral); a panic is apologised for.
func TestRaiseProbe(t *testing.T) {
	f := newFakeDiscord(t, testApp)
	logs := &bottest.Buffer{}
	clock := bottest.NewClock(time.Date(2026, 11, 20, 20, 0, 0, 0, time.UTC))
	a := openAdapter(t, f, logs, clock)
	const wait = 300 * time.Millisecond
	a.mu.Lock()
	a.probeWait = wait
	a.mu.Unlock()
	alice, bob := player{"111", "alice"}, player{"222", "bob"}
	release := make(chan struct{})
	lateAnswer := make(chan struct{}, 1) // the busy dealer's answer, once released
	var once sync.Once
	t.Cleanup(func() { once.Do(func() { close(release) }) }) // before the adapter closes (cleanups run in reverse)
	dealer := &scripted{reply: func(c bot.Command) bot.Reply {
		switch {
		case c.Text == "bet":
			var m map[string]int
			m["boom"]++ // a bug in the dealer, while probing
		case c.Probe && c.Text == "call":
			<-release // a busy dealer
			defer func() { lateAnswer <- struct{}{} }()
			return bot.Reply{}
		case c.Probe && c.Token != "h2.0":
			return bot.Reply{Text: "That button is from an earlier turn: use the newest message.", IsError: true}
		case c.Probe && c.User != alice.id:
			return bot.Reply{Text: "It is alice's turn, not yours.", IsError: true}
		case c.Probe:
			return bot.Reply{}
		}
		return bot.Reply{Text: "ok " + c.Text}
	}}
	a.SetDealer(dealer)
	id := func(command, token string) string {
		t.Helper()
		id, err := click{kind: 'a', command: command, token: token, min: 20, max: 1000}.customID()
		if err != nil {
			t.Fatal(err)
		}
		return id
	}
	// refused clicks p on an amount button and checks the dealer's refusal came back privately, as the
	// first and only response, and the dealer saw only a probe.
	refused := func(p player, customID, want string) {
		t.Helper()
		before := len(dealer.commands())
		n := f.count()
		tok := f.click(p, "C1", customID)
		first, _ := f.answer(n, tok)
		if first.Body["type"] != 4.0 || first.flags()&64 == 0 || !strings.Contains(first.content(), want) {
			t.Errorf("%s's click answered %s, want %q privately", p.name, first, want)
		}
		for _, c := range f.since(n) {
			if strings.Contains(c.Path, "/"+tok+"/") && c.Body["type"] == 9.0 {
				t.Errorf("%s's click opened the form: %s", p.name, c)
			}
		}
		for _, c := range dealer.commands()[before:] {
			if !c.Probe {
				t.Errorf("%s's click ran %+v", p.name, c)
			}
		}
	}

	t.Run("the wrong player is refused without a form", func(t *testing.T) {
		refused(bob, id("raise", "h2.0"), "It is alice's turn, not yours")
	})

	t.Run("an old button is refused without a form", func(t *testing.T) {
		refused(alice, id("raise", "h1.9"), "earlier turn")
	})

	t.Run("the player to act gets the form", func(t *testing.T) {
		n := f.count()
		modal, _ := f.answer(n, f.click(alice, "C1", id("raise", "h2.0")))
		if modal.Body["type"] != 9.0 {
			t.Fatalf("alice's click answered %s, want the form", modal)
		}
		n = f.count()
		_, final := f.answer(n, f.submit(alice, "C1", modal.Body["data"].(map[string]any)["custom_id"].(string), "60"))
		if got, want := final.content(), "ok raise 60"; got != want {
			t.Errorf("form reply = %q, want %q", got, want)
		}
	})

	t.Run("a dealer too busy to answer does not hold up the form", func(t *testing.T) {
		n := f.count()
		start := time.Now()
		tok := f.click(alice, "C1", id("call", "h2.0"))
		modal := f.waitFor(n, "the form", func(c call) bool { return strings.Contains(c.Path, "/"+tok+"/callback") })
		took := time.Since(start)
		if modal.Body["type"] != 9.0 {
			t.Fatalf("click answered %s, want the form", modal)
		}
		select {
		case <-release:
			t.Fatal("the dealer was released before the form opened")
		default:
		}
		if took < wait || took > wait+2*time.Second {
			t.Errorf("the form opened after %v, want just after the %v bound", took, wait)
		}
		once.Do(func() { close(release) })
		// The late answer is dropped: nothing else is sent for that click.
		<-lateAnswer
		later := f.click(alice, "C1", id("raise", "h1.9")) // an interaction after the dealer's late answer
		f.answer(n, later)
		var got []call
		for _, c := range f.since(n) {
			if strings.Contains(c.Path, "/"+tok) {
				got = append(got, c)
			}
		}
		if len(got) != 1 {
			t.Errorf("the click got %d responses, want only the form:\n%v", len(got), got)
		}
	})

	t.Run("a panic while probing is apologised for and logged", func(t *testing.T) {
		n := f.count()
		tok := f.click(alice, "C1", id("bet", "h2.0"))
		first, _ := f.answer(n, tok)
		if first.Body["type"] != 4.0 || first.flags()&64 == 0 || !strings.Contains(first.content(), "something went wrong on my side") {
			t.Errorf("click answered %s, want an apology", first)
		}
		if !strings.Contains(logs.String(), "panic while handling an interaction") {
			t.Errorf("panic not logged")
		}
		refused(bob, id("raise", "h2.0"), "not yours") // still serving
	})
}

// TestRegistrationBeforeTheBotIsInTheServer: with DISCORD_GUILD_ID set before the bot was added to
// that server, Discord refuses the command registration (403, 50001). The invite link is in the log
// before that, and the start stops with one sentence saying what to do.
func TestRegistrationBeforeTheBotIsInTheServer(t *testing.T) {
	f := newFakeDiscord(t, testApp)
	f.mu.Lock()
	f.notIn = map[string]bool{"7000": true}
	f.mu.Unlock()
	logs := &bottest.Buffer{}
	a, err := New(testConfig(), slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug})))
	if err != nil {
		t.Fatal(err)
	}
	a.session.Client = f.client()
	err = a.Open(context.Background())
	if err == nil {
		a.Close(context.Background())
		t.Fatal("Open succeeded though the command could not be registered")
	}
	for _, want := range []string{"the bot is not in it yet", "open the invite link logged above", "DISCORD_GUILD_ID"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the error %q does not say %q", err, want)
		}
	}
	if !strings.Contains(logs.String(), "invite the bot to a server with this link") || !strings.Contains(logs.String(), "client_id="+testApp) {
		t.Fatalf("the invite link is not logged before the refusal:\n%s", logs.String())
	}
}

// TestFormOpensInTimeUnderLoad: the Raise… form must be the first answer to the click, within
// Discord's 3 s (the fake refuses a later one, 10062). Measured against a slow service (every REST
// request answered 0.7 s late), a dealer too busy to answer the probe, and the REST client waiting out
// a global 429 from a table post: the form still opens in time, because the probe is bounded at a
// second and the interaction callback does not queue behind the global limit (Discord does not count
// it toward it).
func TestFormOpensInTimeUnderLoad(t *testing.T) {
	f := newFakeDiscord(t, testApp)
	logs := &bottest.Buffer{}
	clock := bottest.NewClock(time.Date(2026, 11, 20, 20, 0, 0, 0, time.UTC))
	a := openAdapter(t, f, logs, clock)
	release := make(chan struct{})
	var once sync.Once
	t.Cleanup(func() { once.Do(func() { close(release) }) })
	a.SetDealer(&scripted{reply: func(c bot.Command) bot.Reply {
		if c.Probe {
			<-release // the table is busy
		}
		return bot.Reply{}
	}})
	f.mu.Lock()
	f.latency = 700 * time.Millisecond
	f.globalUntil = time.Now().Add(6 * time.Second)
	f.mu.Unlock()
	posted := make(chan error, 1)
	go func() {
		_, err := a.Post(context.Background(), botMessage("5551", render.Message{Text: "Hand #1 · to act"}))
		posted <- err
	}()
	f.waitFor(0, "a table post refused with a global 429", func(c call) bool { return c.Method == "POST" && c.Path == "/channels/5551/messages" })
	id, err := click{kind: 'a', command: "raise", token: "h2.0", min: 20, max: 1000}.customID()
	if err != nil {
		t.Fatal(err)
	}
	n := f.count()
	start := time.Now()
	tok := f.click(player{"111", "alice"}, "C1", id)
	form := f.waitFor(n, "the form", func(c call) bool { return strings.Contains(c.Path, "/"+tok+"/callback") })
	took := time.Since(start)
	f.mu.Lock()
	late := slices.Contains(f.expired, tok)
	f.mu.Unlock()
	if form.Body["type"] != 9.0 || late {
		t.Fatalf("the click was answered with %s after %v (too late: %v), want the form within 3 s", form, took, late)
	}
	t.Logf("the form opened %v after the click (Discord's limit: 3 s)", took.Round(10*time.Millisecond))
	once.Do(func() { close(release) })
	if err := <-posted; err != nil {
		t.Fatalf("the table post after the global limit: %v", err)
	}
}
