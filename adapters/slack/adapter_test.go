package slack

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	slackapi "github.com/slack-go/slack"

	"github.com/dealerbot/dealerbot/bot"
	"github.com/dealerbot/dealerbot/render"
)

func TestSocketSlashCommandRepliesEphemerally(t *testing.T) {
	h := newHarness(t, socketConfig())
	d := &fakeDealer{reply: func(c bot.Command) bot.Reply {
		if c.Text == "help" {
			return bot.Reply{Text: "Commands: start, join, deal, fold, call, raise N"}
		}
		return bot.Reply{Text: "Unknown command " + c.Text + ". Try /poker help.", IsError: true}
	}}
	h.a.SetDealer(d)
	h.setAdmin("UADMIN")
	h.runSocket(t)

	h.slash("CGAME", "UADMIN", "")
	got := h.waitCall(0, "chat.postEphemeral", nil)
	if got.Channel != "CGAME" || got.User != "UADMIN" || !strings.Contains(got.Text, "Commands:") {
		t.Errorf("help reply %+v, want the bot's help shown only to UADMIN in CGAME", got)
	}
	n := len(h.snapshot())
	h.slash("CGAME", "UBOB", "dance")
	got = h.waitCall(n, "chat.postEphemeral", nil)
	if got.User != "UBOB" || !strings.Contains(got.Text, "Try /poker help") {
		t.Errorf("unknown-command reply %+v, want the bot's error shown only to UBOB", got)
	}
	cmds := d.commands()
	if len(cmds) != 2 {
		t.Fatalf("dealer got %d commands, want 2", len(cmds))
	}
	want0 := bot.Command{Platform: "slack", Workspace: "T1", Channel: "CGAME", User: "UADMIN", UserName: "UADMIN", Admin: true, Text: "help"}
	if cmds[0] != want0 {
		t.Errorf("first command %+v, want %+v", cmds[0], want0)
	}
	if cmds[1].Admin {
		t.Error("a regular member was passed on as an admin")
	}
	for _, c := range h.snapshot() {
		if c.Method == "chat.postMessage" {
			t.Errorf("a reply was posted publicly: %+v", c)
		}
	}
}

func TestSocketButtonsAndAmountModal(t *testing.T) {
	h := newHarness(t, socketConfig())
	d := &fakeDealer{}
	h.a.SetDealer(d)
	h.runSocket(t)

	turn := render.Message{Text: "Bob to act — 40 to call.", Buttons: []render.Button{
		{Label: "Fold", Command: "fold", Token: "tok1", Style: render.Danger},
		{Label: "Call 40", Command: "call", Token: "tok1", Style: render.Primary},
		{Label: "Raise…", Command: "raise", Token: "tok1", Amount: true, Min: 80, Max: 1000},
	}}
	if err := h.a.Send(context.Background(), bot.Message{Workspace: "T1", Channel: "CGAME", Message: turn}); err != nil {
		t.Fatal(err)
	}
	post := h.waitCall(0, "chat.postMessage", nil)
	if post.Channel != "CGAME" || len(post.Buttons) != 3 || post.Text != turn.Text {
		t.Fatalf("turn post %+v", post)
	}

	// Call runs at once with the button's token.
	h.click("CGAME", "UBOB", post.Buttons[1])
	h.waitFor("the call", func([]call) bool { return len(d.commands()) == 1 })
	if c := d.commands()[0]; c.Text != "call" || c.Token != "tok1" || c.User != "UBOB" || c.Channel != "CGAME" {
		t.Errorf("click became %+v", c)
	}

	// Raise… opens a modal showing the range, and runs nothing yet.
	n := len(h.snapshot())
	h.click("CGAME", "UBOB", post.Buttons[2])
	v := h.waitCall(n, "views.open", nil)
	if v.Trigger != "trig-"+post.Buttons[2].ActionID {
		t.Errorf("views.open with trigger %q, want the click's", v.Trigger)
	}
	if !strings.Contains(v.Text, "80") || !strings.Contains(v.Text, "1,000") {
		t.Errorf("modal label %q does not show 80 to 1,000", v.Text)
	}
	if len(d.commands()) != 1 {
		t.Errorf("opening the modal ran a command: %+v", d.commands())
	}
	// The dealer was asked first whether bob may raise now, with the click's command.
	wantProbe := bot.Command{Platform: "slack", Workspace: "T1", Channel: "CGAME", User: "UBOB", UserName: "bob", Text: "raise", Token: "tok1", Probe: true}
	if p := d.probed(); len(p) != 1 || p[0] != wantProbe {
		t.Errorf("probes %+v, want one: %+v", p, wantProbe)
	}

	// What is not a number is refused inside the modal and runs nothing.
	ack := h.submit("UBOB", v.View, "lots")
	var resp slackapi.ViewSubmissionResponse
	if err := json.Unmarshal(ack, &resp); err != nil || resp.ResponseAction != slackapi.RAErrors ||
		!strings.Contains(resp.Errors[amountBlockID], "80 to 1000") {
		t.Errorf("ack for a bad amount %s, want a field error naming the range", ack)
	}
	h.settle()
	if len(d.commands()) != 1 {
		t.Fatalf("a refused amount ran a command: %+v", d.commands())
	}

	// An amount outside the range the dealer gave when the form opened is refused inside the form
	// (response_action errors, issue 37 item 8): the form stays open and nothing runs.
	for _, typed := range []string{"5000", "40", "-80"} {
		ack := h.submit("UBOB", v.View, typed)
		var resp slackapi.ViewSubmissionResponse
		if err := json.Unmarshal(ack, &resp); err != nil || resp.ResponseAction != slackapi.RAErrors ||
			resp.Errors[amountBlockID] != typed+" is not in the range: enter a whole number of chips from 80 to 1000." {
			t.Errorf("ack for %s: %s, want the range error inside the form", typed, ack)
		}
	}
	h.settle()
	if len(d.commands()) != 1 {
		t.Fatalf("an amount out of range ran a command: %+v", d.commands())
	}

	// A number in the range closes the modal and becomes "raise N" with the token, for the dealer
	// to judge.
	for i, typed := range []string{"250", "1,000"} {
		ack = h.submit("UBOB", v.View, typed)
		if len(ack) != 0 && string(ack) != "null" {
			t.Errorf("ack for %s: %s, want an empty ack (closes the modal)", typed, ack)
		}
		h.waitFor("the raise", func([]call) bool { return len(d.commands()) == 2+i })
		want := bot.Command{Platform: "slack", Workspace: "T1", Channel: "CGAME", User: "UBOB", UserName: "bob", Text: "raise " + strings.ReplaceAll(typed, ",", ""), Token: "tok1"}
		if c := d.commands()[1+i]; c != want {
			t.Errorf("submission became %+v, want %+v", c, want)
		}
	}
}

func TestAmountModalThatCannotOpenExplainsTheCommand(t *testing.T) {
	h := newHarness(t, socketConfig())
	h.a.SetDealer(&fakeDealer{})
	h.runSocket(t)
	h.limit("views.open", 1) // no retry: the trigger would be too old by the time Retry-After has passed
	b := buttonElement(render.Button{Label: "Bet…", Command: "bet", Token: "t", Amount: true, Min: 20, Max: 500}, 0, "CGAME")
	h.click("CGAME", "UBOB", *b)
	got := h.waitCall(0, "chat.postEphemeral", nil)
	if got.User != "UBOB" || !strings.Contains(got.Text, "/poker bet N") || !strings.Contains(got.Text, "20 to 500") {
		t.Errorf("fallback %+v, want a private hint to type /poker bet N with 20 to 500", got)
	}
}

// countCalls counts the calls of method in cs.
func countCalls(cs []call, method string) int {
	n := 0
	for _, c := range cs {
		if c.Method == method {
			n++
		}
	}
	return n
}

// An amount button clicked by someone the dealer refuses gets the refusal privately, not the form.
func TestAmountButtonRefusedByTheProbe(t *testing.T) {
	h := newHarness(t, socketConfig())
	d := &fakeDealer{probe: func(_ context.Context, c bot.Command) bot.Reply {
		return bot.Reply{Text: "It is alice's turn, not yours.", IsError: true}
	}}
	h.a.SetDealer(d)
	h.runSocket(t)
	b := buttonElement(render.Button{Label: "Raise…", Command: "raise", Token: "tok1", Amount: true, Min: 80, Max: 1000}, 2, "CGAME")
	h.click("CGAME", "UBOB", *b)
	got := h.waitCall(0, "chat.postEphemeral", nil)
	if got.Channel != "CGAME" || got.User != "UBOB" || got.Text != "It is alice's turn, not yours." {
		t.Errorf("refusal %+v, want the dealer's answer shown only to UBOB in CGAME", got)
	}
	if p := d.probed(); len(p) != 1 || p[0].Text != "raise" || p[0].Token != "tok1" || p[0].User != "UBOB" || p[0].Channel != "CGAME" {
		t.Errorf("probes %+v, want the click's command", p)
	}
	h.settle()
	if cs := h.snapshot(); countCalls(cs, "views.open") != 0 || len(d.commands()) != 0 {
		t.Errorf("a refused click opened the form or ran %+v:\n%s", d.commands(), dump(cs))
	}
}

// A dealer that does not answer the probe in time does not cost the player the form: it opens while
// the click's trigger is still valid, and the late answer is not shown.
func TestSlowProbeStillOpensTheAmountForm(t *testing.T) {
	for _, tt := range []struct {
		name     string
		wait     time.Duration // the adapter's probeWait; 0 keeps the default
		honorCtx bool          // the dealer gives up when the adapter stops waiting
	}{
		{name: "dealer ignores the context", wait: 0},
		{name: "dealer gives up with the context", wait: 200 * time.Millisecond, honorCtx: true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, socketConfig())
			if tt.wait > 0 {
				h.a.probeWait = tt.wait
			}
			release := make(chan struct{})
			answered := make(chan struct{}, 1) // the dealer's late answer is given
			d := &fakeDealer{probe: func(ctx context.Context, c bot.Command) bot.Reply {
				defer func() { answered <- struct{}{} }()
				if tt.honorCtx {
					select {
					case <-release:
					case <-ctx.Done():
						return bot.Reply{Text: "The dealer is busy or shutting down and nothing changed: please try again.", IsError: true}
					}
				} else {
					<-release
				}
				return bot.Reply{Text: "It is alice's turn, not yours.", IsError: true}
			}}
			h.a.SetDealer(d)
			h.runSocket(t)
			var once sync.Once
			free := func() { once.Do(func() { close(release) }) }
			defer free() // before the adapter's Close

			b := buttonElement(render.Button{Label: "Raise…", Command: "raise", Token: "tok1", Amount: true, Min: 80, Max: 1000}, 2, "CGAME")
			start := time.Now()
			h.click("CGAME", "UBOB", *b) // acked within 3s although the dealer is busy
			v := h.waitCall(0, "views.open", nil)
			took := time.Since(start)
			if v.Trigger != "trig-"+b.ActionID {
				t.Errorf("views.open with trigger %q, want the click's", v.Trigger)
			}
			if took >= 3*time.Second || took < h.a.probeWait {
				t.Errorf("the form opened %v after the click; want after the probe's %v and within the trigger's 3s", took, h.a.probeWait)
			}
			if len(d.probed()) != 1 {
				t.Errorf("probes %+v, want one", d.probed())
			}
			free() // the dealer's late refusal is not shown: the form is already open
			<-answered
			h.settle()
			if cs := h.snapshot(); countCalls(cs, "chat.postEphemeral") != 0 || countCalls(cs, "views.open") != 1 {
				t.Errorf("want the form only, no late private answer:\n%s", dump(cs))
			}
		})
	}
}

func TestPrivateMessageGoesByDM(t *testing.T) {
	h := newHarness(t, socketConfig())
	ctx := context.Background()
	hole := render.Message{Text: "Hand #1 — your cards: A♠ K♥", Private: true}
	for range 2 {
		if err := h.a.Send(ctx, bot.Message{Workspace: "T1", Channel: "CGAME", User: "UALICE", Message: hole}); err != nil {
			t.Fatal(err)
		}
	}
	cs := h.snapshot()
	var opens, dms int
	for _, c := range cs {
		switch {
		case c.Method == "conversations.open":
			opens++
		case c.Method == "chat.postMessage" && c.Channel == "DUALICE" && c.Text == hole.Text:
			dms++
		default:
			t.Errorf("unexpected call %+v: hole cards may only go to the player's DM", c)
		}
	}
	if opens != 1 || dms != 2 {
		t.Errorf("%d conversations.open and %d DMs, want 1 (remembered) and 2:\n%s", opens, dms, dump(cs))
	}
}

func TestDMBlockedFallsBackToEphemeral(t *testing.T) {
	h := newHarness(t, socketConfig())
	h.refuseDM("UCAROL", "cannot_dm_user")
	ctx := context.Background()
	hole := bot.Message{Workspace: "T1", Channel: "CGAME", User: "UCAROL",
		Message: render.Message{Text: "Hand #3 — your cards: Q♦ Q♣", Private: true}}

	err := h.a.Send(ctx, hole)
	if !errors.Is(err, bot.ErrDMBlocked) {
		t.Fatalf("Send to a user who cannot be DMed: %v, want bot.ErrDMBlocked", err)
	}
	if strings.Contains(err.Error(), "Q♦") || strings.Contains(h.logs.String(), "Q♦") {
		t.Errorf("hole cards leaked into the error or the log: %v\n%s", err, h.logs.String())
	}
	for _, c := range h.snapshot() {
		if c.Method == "chat.postMessage" {
			t.Errorf("a refused DM still posted %+v", c)
		}
	}

	// The bot's fallback: an ephemeral message in the table's channel, seen only by Carol.
	if err := h.a.SendEphemeral(ctx, hole); err != nil {
		t.Fatal(err)
	}
	got := h.waitCall(0, "chat.postEphemeral", nil)
	if got.Channel != "CGAME" || got.User != "UCAROL" || got.Text != hole.Text {
		t.Errorf("fallback %+v, want Carol's cards ephemerally in CGAME", got)
	}
}

func TestReplyExtrasShownEphemerally(t *testing.T) {
	h := newHarness(t, socketConfig())
	h.a.SetDealer(&fakeDealer{reply: func(bot.Command) bot.Reply {
		return bot.Reply{Text: "You are in.", Extra: []render.Message{{Text: "Hand #2 — your cards: 9♠ 9♥", Private: true}}}
	}})
	h.runSocket(t)
	h.slash("CGAME", "UCAROL", "cards")
	cs := h.waitFor("two ephemeral messages", func(cs []call) bool {
		n := 0
		for _, c := range cs {
			if c.Method == "chat.postEphemeral" && c.User == "UCAROL" {
				n++
			}
		}
		return n == 2
	})
	if !strings.Contains(cs[len(cs)-1].Text+cs[len(cs)-2].Text, "9♠ 9♥") {
		t.Errorf("the undelivered hole cards were not shown:\n%s", dump(cs))
	}
}

func TestRateLimitedPostIsRetried(t *testing.T) {
	h := newHarness(t, socketConfig())
	h.a.wait = func(ctx context.Context, d time.Duration) error { // the knob's 429s need no real wait
		*h.waits = append(*h.waits, d)
		return ctx.Err()
	}
	h.limit("chat.postMessage", 2)
	msg := bot.Message{Channel: "CGAME", Message: render.Message{Text: "Flop: 7♣ 8♦ 2♠"}}
	if err := h.a.Send(context.Background(), msg); err != nil {
		t.Fatalf("Send after two 429s: %v", err)
	}
	var posted int
	for _, c := range h.snapshot() {
		if c.Method == "chat.postMessage" {
			posted++
		}
	}
	if posted != 1 {
		t.Errorf("posted %d times, want exactly once", posted)
	}
	if got := *h.waits; len(got) != 2 || got[0] != 2*time.Second || got[1] != 2*time.Second {
		t.Errorf("waited %v, want Slack's Retry-After (2s) twice", got)
	}

	// Slack keeps refusing: the adapter gives up after maxRetries and posts nothing.
	h.limit("chat.postMessage", maxRetries+1)
	err := h.a.Send(context.Background(), msg)
	var rl *slackapi.RateLimitedError
	if !errors.As(err, &rl) {
		t.Errorf("Send under a lasting rate limit: %v, want a RateLimitedError", err)
	}
	if n := len(*h.waits); n != 2+maxRetries {
		t.Errorf("waited %d times in all, want %d (bounded)", n, 2+maxRetries)
	}
}

func TestReplyWhenTheBotIsNotInTheChannel(t *testing.T) {
	h := newHarness(t, socketConfig())
	h.a.SetDealer(&fakeDealer{reply: func(bot.Command) bot.Reply {
		return bot.Reply{Text: "There is no game in this channel yet: type `start` to open a table.", IsError: true}
	}})
	h.refuseEphemeral("CPRIVATE", "not_in_channel")
	h.runSocket(t)
	h.slash("CPRIVATE", "UBOB", "join")
	got := h.waitCall(0, "response_url", nil)
	if got.User != "ephemeral" || !strings.Contains(got.Text, "/invite @dealerbot") || !strings.Contains(got.Text, "no game in this channel") {
		t.Errorf("response_url got %+v, want the reply, ephemeral, with a hint to invite the bot", got)
	}
}

func TestResponseURLsOutsideSlackAreNotFollowed(t *testing.T) {
	for _, tt := range []struct {
		url  string
		want bool
	}{
		{"https://hooks.slack.com/commands/T1/1/abc", true},
		{"http://hooks.slack.com/commands/T1/1/abc", false},
		{"https://hooks.slack.com.evil.example/x", false},
		{"https://evilslack.com/x", false},
		{"https://127.0.0.1/x", false},
		{"::", false},
	} {
		if got := slackHook(tt.url); got != tt.want {
			t.Errorf("slackHook(%q) = %v, want %v", tt.url, got, tt.want)
		}
	}
}

func TestDisplayNameFromProfile(t *testing.T) {
	h := newHarness(t, socketConfig())
	d := &fakeDealer{}
	h.a.SetDealer(d)
	h.mu.Lock()
	h.display["UALICE"] = "Alice Liddell"
	h.mu.Unlock()
	h.runSocket(t)
	h.slash("CGAME", "UALICE", "join")
	h.slash("CGAME", "UBOB", "join")
	h.waitFor("two commands", func([]call) bool { return len(d.commands()) == 2 })
	names := map[string]string{}
	for _, c := range d.commands() {
		names[c.User] = c.UserName
	}
	if names["UALICE"] != "Alice Liddell" || names["UBOB"] != "bob" {
		t.Errorf("names %v: want the profile's display name, else the account name", names)
	}
}

func TestSlowDealerStillAckedAndAwaitedOnClose(t *testing.T) {
	h := newHarness(t, socketConfig())
	release := make(chan struct{})
	started := make(chan struct{}, 1)
	h.a.SetDealer(&fakeDealer{reply: func(bot.Command) bot.Reply {
		started <- struct{}{}
		<-release
		return bot.Reply{Text: "Dealt hand #1."}
	}})
	h.runSocket(t)
	h.slash("CGAME", "UALICE", "deal") // fails the test unless acked within 3s although the dealer is busy
	<-started

	// What the channel shows is taken the moment Close returns: the dealer answers only once released,
	// so a Close that did not wait for the command returns before the reply exists.
	type closing struct {
		err     error
		replied bool
	}
	closed := make(chan closing, 1)
	calling := make(chan struct{})
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		close(calling)
		err := h.a.Close(ctx)
		closed <- closing{err, slices.ContainsFunc(h.snapshot(), func(c call) bool {
			return c.Method == "chat.postEphemeral" && c.Text == "Dealt hand #1."
		})}
	}()
	<-calling
	close(release)
	c := <-closed
	if c.err != nil {
		t.Fatalf("Close: %v", c.err)
	}
	if !c.replied {
		t.Errorf("Close returned before the command's reply was shown:\n%s", dump(h.snapshot()))
	}
}

func TestPanicInHandlingDoesNotStopTheAdapter(t *testing.T) {
	h := newHarness(t, socketConfig())
	h.a.SetDealer(&fakeDealer{reply: func(c bot.Command) bot.Reply {
		if c.Text == "boom" {
			panic("dealer bug")
		}
		return bot.Reply{Text: "still here"}
	}})
	h.runSocket(t)
	h.slash("CGAME", "UALICE", "boom")
	h.slash("CGAME", "UALICE", "table")
	if got := h.waitCall(0, "chat.postEphemeral", nil); got.Text != "still here" {
		t.Errorf("after a panic the next command got %q", got.Text)
	}
	if !strings.Contains(h.logs.String(), "panic") {
		t.Error("the panic was not logged")
	}
}

func TestSocketModeRefusedTokenStopsRunWithAnExplanation(t *testing.T) {
	h := newHarness(t, socketConfig())
	h.mu.Lock()
	h.authFails = true
	h.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	err := h.a.Run(ctx)
	if err == nil || !strings.Contains(err.Error(), "SLACK_APP_TOKEN") {
		t.Errorf("Run with a refused app token: %v, want an error naming SLACK_APP_TOKEN", err)
	}
}

// TestPictureAltTextWithinSlackLimits: a picture's description is cut to Slack's limits, 1,000
// characters for the upload's alt_txt and 2,000 for the image block's alt_text, so a long showdown
// (ten hands described card by card) is never refused for it.
func TestPictureAltTextWithinSlackLimits(t *testing.T) {
	h := newHarness(t, Config{BotToken: "xoxb-test", AppToken: "xapp-test"})
	long := strings.Repeat("Ace of spades, ", 300) // 4,500 characters
	blocks := []slackapi.Block{slackapi.NewSectionBlock(slackapi.NewTextBlockObject("mrkdwn", "table", false, false), nil, nil)}
	var sent []slackapi.Block
	err := h.a.withPicture(context.Background(), "T1", blocks, &render.Picture{Name: "showdown.png", PNG: []byte("\x89PNG"), Alt: long},
		func(b []slackapi.Block) error { sent = b; return nil })
	if err != nil || len(sent) != 2 {
		t.Fatalf("sent %d blocks, err %v; want the table and its picture", len(sent), err)
	}
	img, ok := sent[1].(*slackapi.ImageBlock)
	if !ok || utf8.RuneCountInString(img.AltText) != 2000 || !strings.HasSuffix(img.AltText, "…") {
		t.Fatalf("image block alt text of %d characters", utf8.RuneCountInString(img.AltText))
	}
	for _, c := range h.snapshot() {
		if strings.HasPrefix(c.Method, "files.getUploadURLExternal (") {
			t.Fatalf("the upload was refused: %+v", c)
		}
	}
}
