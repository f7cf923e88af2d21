package slack

import (
	"context"
	"encoding/json"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	slackapi "github.com/slack-go/slack"

	"github.com/dealerbot/dealerbot/bot"
	"github.com/dealerbot/dealerbot/bot/features"
	"github.com/dealerbot/dealerbot/render"
	"github.com/dealerbot/dealerbot/storage"
)

// The hand's table message, as the fake Slack shows it.

var (
	tableHeader = regexp.MustCompile(`Hand #(\d+) ·`)
	turnLine    = regexp.MustCompile(`(?m)^▶ (\S+) to act`)
)

// flush waits until the dealer has written what it queued for the channel.
func (tb *desk) flush() {
	tb.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := tb.d.Flush(ctx); err != nil {
		tb.t.Fatalf("the dealer's channel messages were not written: %v", err)
	}
}

// tableMessage is the newest hand's table message in CGAME: its ts and what it shows now.
func (tb *desk) tableMessage() (string, slackShown) {
	tb.t.Helper()
	cs := tb.snapshot()
	for i := len(cs) - 1; i >= 0; i-- {
		if c := cs[i]; c.Method == "chat.postMessage" && c.Channel == "CGAME" && tableHeader.MatchString(c.Text) {
			return c.TS, tb.onScreen(c.TS)
		}
	}
	tb.t.Fatalf("no table message in the channel:\n%s", dump(cs))
	return "", slackShown{}
}

// actor is the user the table message says is to act.
func (tb *desk) actor(s slackShown) (string, bool) {
	m := turnLine.FindStringSubmatch(s.Text)
	if m == nil {
		return "", false
	}
	for id, name := range tb.names {
		if name == m[1] {
			return id, true
		}
	}
	tb.t.Fatalf("the table names an unknown player to act: %q", s.Text)
	return "", false
}

func shownButton(s slackShown, label string) (slackapi.ButtonBlockElement, bool) {
	return button(call{Buttons: s.Buttons}, label)
}

// mustShown is the button of s whose label starts with label.
func (tb *desk) mustShown(s slackShown, label string) slackapi.ButtonBlockElement {
	tb.t.Helper()
	b, ok := shownButton(s, label)
	if !ok {
		tb.t.Fatalf("no %q button on the table:\n%s", label, s.Text)
	}
	return b
}

// dealt opens the table with alice's start command, seats alice, bob and carol with 1,000 each,
// deals hand #1 and returns its table message once it is on screen.
func (tb *desk) dealt(start string) (string, slackShown) {
	tb.t.Helper()
	tb.slashDo("UALICE", start)
	for _, p := range []string{"UALICE", "UBOB", "UCAROL"} {
		tb.slashDo(p, "join 1000")
	}
	tb.slashDo("UALICE", "deal")
	tb.flush()
	return tb.tableMessage()
}

// pressed is what a click on the table message led to.
type pressed struct {
	update  *call  // the table replaced through the click's response_url
	private []call // ephemeral answers to the clicker
	latency time.Duration
}

// press clicks button b of table message ts as user (typed: what to type into the amount form the
// button opens) and waits for the answer: the table's update through the click, or a private reply.
func (tb *desk) press(user, ts string, b slackapi.ButtonBlockElement, typed string) pressed {
	tb.t.Helper()
	n := len(tb.snapshot())
	sent := time.Now()
	hook := tb.clickOn("CGAME", user, ts, b)
	if strings.HasPrefix(b.ActionID, amountPrefix) {
		cs := tb.waitFor("the amount form or a refusal", func(cs []call) bool {
			for _, c := range cs[n:] {
				if c.Method == "views.open" || c.Method == "chat.postEphemeral" && c.User == user {
					return true
				}
			}
			return false
		})
		for _, c := range cs[n:] {
			if c.Method == "views.open" {
				sent = time.Now()
				tb.submit(user, c.View, typed)
				break
			}
		}
	}
	var p pressed
	cs := tb.waitFor("the answer to the click", func(cs []call) bool {
		for _, c := range cs[n:] {
			if c.Method == "response_url" && c.Hook == hook && c.Replace || c.Method == "chat.postEphemeral" && c.User == user {
				return true
			}
		}
		return false
	})
	tb.settle() // an ephemeral reply after the update is made before the click's handling ends
	tb.flush()
	for _, c := range tb.snapshot()[n:] {
		switch {
		case c.Method == "response_url" && c.Hook == hook && c.Replace:
			p.update = &c
			p.latency = c.At.Sub(sent)
		case c.Method == "chat.postEphemeral" && c.User == user:
			p.private = append(p.private, c)
			if p.latency == 0 {
				p.latency = c.At.Sub(sent)
			}
		}
	}
	_ = cs
	return p
}

// slackStats is what one hand cost.
type slackStats struct {
	actions  int
	api      int // Web API calls (every method; response_url posts are not counted here)
	hooks    int // response_url posts
	writes   int // chat.postMessage and chat.update in the table's channel
	messages int // channel messages created
	waits    []time.Duration
	before   []call // every call up to the one that closed the betting
}

// playHand deals (as alice) and plays the hand by clicks on its table message: the first player to
// act raises the minimum through the amount form; after that everyone goes all in (calls: everyone
// calls or checks).
func (tb *desk) playHand(calls bool) slackStats {
	tb.t.Helper()
	n := len(tb.snapshot())
	tb.slashDo("UALICE", "deal")
	tb.flush()
	ts, _ := tb.tableMessage()
	st := tb.playFrom(ts, calls)
	tb.flush()
	st.count(tb.snapshot()[n:])
	return st
}

// count fills the call counts from the hand's calls.
func (st *slackStats) count(cs []call) {
	for _, c := range cs {
		switch {
		case c.Method == "response_url":
			st.hooks++
		case strings.Contains(c.Method, "("): // refused (429, expired): the call was made all the same
			st.api++
		default:
			st.api++
		}
		if (c.Method == "chat.postMessage" || c.Method == "chat.update") && c.Channel == "CGAME" {
			st.writes++
			if c.Method == "chat.postMessage" {
				st.messages++
			}
		}
	}
}

// playFrom plays the hand of table message ts to its end by clicks.
func (tb *desk) playFrom(ts string, calls bool) slackStats {
	tb.t.Helper()
	var st slackStats
	raised := false
	for step := 0; ; step++ {
		s := tb.onScreen(ts)
		who, ok := tb.actor(s)
		if !ok {
			return st
		}
		if step > 14 {
			tb.t.Fatalf("the hand did not end:\n%s", s.Text)
		}
		want := []string{"All-in", "Call", "Check"}
		if calls {
			want = []string{"Call", "Check"}
		}
		if !raised {
			want = []string{"Raise", "Bet"}
		}
		var b slackapi.ButtonBlockElement
		for _, w := range want {
			if b, ok = shownButton(s, w); ok {
				break
			}
		}
		if !ok {
			tb.t.Fatalf("%s has none of %v on the table:\n%s", who, want, s.Text)
		}
		typed := ""
		if !raised {
			v, err := decodeValue(b.Value)
			if err != nil {
				tb.t.Fatal(err)
			}
			typed = itoa(v.Min)
		}
		st.before = tb.snapshot()
		p := tb.press(who, ts, b, typed)
		if p.update == nil || len(p.private) != 0 {
			tb.t.Fatalf("%s's %q: update %v, private %+v; want the table updated through the click alone", who, b.Text.Text, p.update, p.private)
		}
		raised = true
		st.actions++
		st.waits = append(st.waits, p.latency)
	}
}

// TestWholeHandOverSocketMode plays a 3-player hand over Socket Mode against a fake Slack that
// enforces its limits: one table message, posted once, brought up to date through each click's
// response_url; a raise through the amount form; all-ins into a side pot, an all-in run-out and a
// showdown; "My cards" privately, also for a player whose DMs are closed.
func TestWholeHandOverSocketMode(t *testing.T) {
	t.Parallel()
	tb := newTable(t, 7)
	players := []string{"UALICE", "UBOB", "UCAROL"}
	tb.refuseDM("UCAROL", "cannot_dm_user")
	if got := tb.slashDo("UALICE", "start blinds=5/10 buyin=1000 timer=0"); !strings.Contains(got, "host") {
		t.Fatalf("start reply %q", got)
	}
	for _, j := range []struct{ p, amount string }{{"UALICE", "1000"}, {"UBOB", "1000"}, {"UCAROL", "500"}} {
		if got := tb.slashDo(j.p, "join "+j.amount); !strings.Contains(got, "seat") {
			t.Fatalf("join reply for %s: %q", j.p, got)
		}
	}
	tb.flush()
	dealt := len(tb.snapshot())
	tb.slashDo("UALICE", "deal")
	tb.flush()
	ts, s := tb.tableMessage()
	for _, want := range []string{"Hand #1", "No-limit 5/10", "deck ", "posts the small blind 5", " to act"} {
		if !strings.Contains(s.Text, want) {
			t.Errorf("the table message lacks %q:\n%s", want, s.Text)
		}
	}
	// Hole cards: alice and bob by DM; carol's DMs are closed, so hers come ephemerally.
	holes := map[string]string{}
	for _, c := range tb.snapshot()[dealt:] {
		if m := holeRe.FindStringSubmatch(c.Text); m != nil {
			switch {
			case c.Method == "chat.postMessage" && strings.HasPrefix(c.Channel, "D"):
				holes[strings.TrimPrefix(c.Channel, "D")] = m[1]
			case c.Method == "chat.postEphemeral" && c.User == "UCAROL":
				holes["UCAROL"] = m[1]
			default:
				t.Errorf("hole cards where others may see them: %+v", c)
			}
		}
	}
	if len(holes) != 3 {
		t.Fatalf("hole cards for %d players, want 3:\n%s", len(holes), dump(tb.snapshot()))
	}

	// My cards: privately, for each player.
	mine := tb.mustShown(s, "My cards")
	for _, p := range players {
		got := tb.press(p, ts, mine, "")
		if got.update != nil || len(got.private) != 1 || !strings.Contains(got.private[0].Text, holes[p]) {
			t.Errorf("%s's My cards: update %v, private %+v; want their cards %s privately", p, got.update, got.private, holes[p])
		}
	}

	// A player who is not to act clicks: told privately, nothing changes.
	first, _ := tb.actor(s)
	other := players[0]
	if other == first {
		other = players[1]
	}
	before := tb.record()
	fold, _ := shownButton(s, "Fold")
	got := tb.press(other, ts, fold, "")
	if got.update != nil || len(got.private) != 1 || !strings.Contains(got.private[0].Text, "turn, not yours") {
		t.Errorf("wrong player's click: update %v, private %+v", got.update, got.private)
	}
	if !sameState(before, tb.record()) || tb.onScreen(ts).Text != s.Text {
		t.Error("a wrong player's click changed the table")
	}

	// The hand by clicks: a raise through the form, then all-ins.
	played := len(tb.snapshot())
	st := tb.playFrom(ts, false)
	tb.flush()
	end := tb.onScreen(ts)
	for _, want := range []string{" shows ", "side pot", "Chances to win"} {
		if !strings.Contains(end.Text, want) {
			t.Errorf("the final table lacks %q:\n%s", want, end.Text)
		}
	}
	if !strings.Contains(end.Text, " wins ") && !strings.Contains(end.Text, " split") {
		t.Errorf("no award on the final table:\n%s", end.Text)
	}
	// Clicks are shown through their response_url; the one chat.update is the showdown picture, which
	// follows the result (uploaded with the files upload flow, shown in an image block).
	updates := 0
	for _, c := range tb.snapshot()[played:] {
		if c.Method == "chat.update" && c.TS == ts {
			updates++
		}
	}
	if updates != 1 || len(end.Images) != 1 {
		t.Errorf("%d chat.updates of the table after the clicks and %d pictures on it; want the showdown picture's 1 and 1", updates, len(end.Images))
	} else if img := end.Images[0]; !strings.HasPrefix(img.Data, "\x89PNG") || !strings.Contains(img.Alt, "Board: ") || !strings.HasPrefix(img.Name, "hand-") {
		t.Errorf("the picture %q is not the showdown's PNG with alt text: %q", img.Name, img.Alt)
	}
	all := slackStats{actions: st.actions}
	all.count(tb.snapshot()[dealt:])
	if float64(all.writes) > float64(all.actions) {
		t.Errorf("%d channel posts and updates for %d actions, want at most 1 per action:\n%s", all.writes, all.actions, dump(tb.snapshot()[dealt:]))
	}
	if all.messages > 4 {
		t.Errorf("%d channel messages in the hand, want at most 4", all.messages)
	}
	t.Logf("hand: %d actions, %d API calls, %d response_url posts, %d channel writes, %d messages, %d 429s",
		all.actions, all.api, all.hooks, all.writes, all.messages, tb.limited429)

	// Hole cards never reached the channel before the betting closed, nor the log.
	for _, c := range st.before {
		if c.Channel != "CGAME" || c.Method == "chat.postEphemeral" && strings.Contains(c.Text, "your cards") {
			continue // a DM, or cards shown to their owner alone (carol's at the deal, My cards)
		}
		for user, cards := range holes {
			if strings.Contains(c.Text, cards) {
				t.Errorf("%s's hole cards %s in %s before the showdown: %q", user, cards, c.Method, c.Text)
			}
		}
	}
	for user, cards := range holes {
		if strings.Contains(tb.logs.String(), cards) {
			t.Errorf("%s's hole cards %s in the log", user, cards)
		}
	}
	if got := chipsOnTable(tb.record()); got != 2500 {
		t.Errorf("chips on the table after the hand: %d, want 2500", got)
	}
}

// TestSlackBudget: over a hand of 12 actions (a raise through the form, then calls and checks to the
// river) the adapter stays within the budget: at most 1.5 Web API calls per action (hole
// cards by DM included) and at most 1 channel post or update per action.
func TestSlackBudget(t *testing.T) {
	t.Parallel()
	tb := newTable(t, 3)
	tb.slashDo("UALICE", "start blinds=5/10 buyin=1000 timer=0")
	for _, p := range []string{"UALICE", "UBOB", "UCAROL"} {
		tb.slashDo(p, "join 1000")
	}
	tb.playHand(true) // the first hand opens the DM channels
	st := tb.playHand(true)
	per := float64(st.api) / float64(st.actions)
	t.Logf("hand 2: %d actions, %d API calls (%.2f per action), %d response_url posts, %d channel writes, %d messages",
		st.actions, st.api, per, st.hooks, st.writes, st.messages)
	if st.actions < 9 || per > 1.5 || st.writes > st.actions || st.messages > 4 {
		t.Errorf("over budget:\n%s", dump(tb.snapshot()))
	}
}

// TestRaiseFormOnlyForThePlayerToAct: the Raise… form opens only for the player to act: anyone else,
// and anyone clicking an old Raise… button, gets the dealer's refusal privately and no form.
func TestRaiseFormOnlyForThePlayerToAct(t *testing.T) {
	t.Parallel()
	tb := newTable(t, 5)
	players := []string{"UALICE", "UBOB", "UCAROL"}
	ts, s := tb.dealt("start blinds=10/20")
	first, _ := tb.actor(s)
	raise := tb.mustShown(s, "Raise")
	refused := func(user, want string) {
		t.Helper()
		before := tb.record()
		n := len(tb.snapshot())
		got := tb.press(user, ts, raise, "")
		if got.update != nil || len(got.private) != 1 || !strings.Contains(got.private[0].Text, want) {
			t.Errorf("%s's Raise… click: update %v, private %+v; want %q privately", user, got.update, got.private, want)
		}
		if k := countCalls(tb.snapshot()[n:], "views.open"); k != 0 {
			t.Errorf("%s's refused Raise… click opened the form", user)
		}
		if !sameState(before, tb.record()) {
			t.Errorf("%s's refused Raise… click acted", user)
		}
	}
	for _, p := range players {
		if p != first {
			refused(p, "It is "+tb.names[first]+"'s turn, not yours")
		}
	}
	// The player to act gets the form. An amount outside the range it shows, the one the dealer gave
	// when it opened, is refused inside the form (response_action errors, issue 37 item 8): the form
	// stays open, nothing is sent besides, and nothing changes.
	v, _ := decodeValue(raise.Value)
	before := tb.record()
	n := len(tb.snapshot())
	tb.clickOn("CGAME", first, ts, raise)
	cs := tb.waitFor("the amount form", func(cs []call) bool { return countCalls(cs[n:], "views.open") > 0 })
	var form *slackapi.ModalViewRequest
	for _, c := range cs[n:] {
		if c.Method == "views.open" {
			form = c.View
		}
	}
	for _, typed := range []string{itoa(v.Max + 1), itoa(v.Min - 1)} {
		var resp slackapi.ViewSubmissionResponse
		ack := tb.submit(first, form, typed)
		if err := json.Unmarshal(ack, &resp); err != nil || resp.ResponseAction != slackapi.RAErrors ||
			resp.Errors[amountBlockID] != typed+" is not in the range: enter a whole number of chips from "+strconv.FormatInt(v.Min, 10)+" to "+strconv.FormatInt(v.Max, 10)+"." {
			t.Errorf("a raise of %s outside the form's range: ack %s, want the range error inside the form", typed, ack)
		}
	}
	tb.settle()
	if k := countCalls(tb.snapshot()[n:], "chat.postEphemeral"); k != 0 {
		t.Errorf("a raise outside the form's range was answered by %d private messages besides the form", k)
	}
	if !sameState(before, tb.record()) {
		t.Errorf("a raise outside the form's range acted")
	}
	// Its submission within the range raises: shown through the click.
	got := tb.press(first, ts, raise, itoa(v.Min))
	if got.update == nil || !strings.Contains(got.update.Text, "raises to "+itoa(v.Min)) {
		t.Fatalf("the raise was not shown through the click: %+v", got)
	}
	if r := tb.record(); r.Hand == nil || len(r.Hand.Actions) != 1 {
		t.Fatalf("after the form's raise the hand has %v", r.Hand)
	}
	// The first Raise… is stale now, even for the player whose turn it is.
	second, _ := tb.actor(tb.onScreen(ts))
	refused(second, "earlier turn")
	if k := countCalls(tb.snapshot(), "views.open"); k != 2 {
		t.Errorf("the form opened %d times, want twice (for the player to act)", k)
	}
	if !slices.ContainsFunc(tb.snapshot(), func(c call) bool { return c.Method == "response_url" && c.Replace }) {
		t.Error("no click updated the table")
	}
}

// restart stops the dealer and closes the store, as a crash or a deploy would, then opens both again
// on the same file behind the same connection. (The adapter keeps no table state: what is on screen
// is stored with the table.)
func (tb *desk) restart() {
	tb.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := tb.d.Close(ctx); err != nil {
		tb.t.Fatalf("dealer Close: %v", err)
	}
	if err := tb.db.Close(); err != nil {
		tb.t.Fatalf("db Close: %v", err)
	}
	db, err := storage.Open(tb.path)
	if err != nil {
		tb.t.Fatal(err)
	}
	tb.t.Cleanup(func() { db.Close() })
	d, err := bot.New(db, tb.a, features.With(db, tb.cfg))
	if err != nil {
		tb.t.Fatal(err)
	}
	tb.t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = d.Close(ctx)
	})
	tb.db, tb.d = db, d
	tb.a.SetDealer(d)
}

// TestRestartMidHandOverSocketMode: after a restart in the middle of a hand the same table message
// is brought up to date by chat.update (nothing new is posted), with the buttons of the player to
// act; a button from before the last action is refused; the hand plays on by clicks on it.
func TestRestartMidHandOverSocketMode(t *testing.T) {
	t.Parallel()
	tb := newTable(t, 9)
	ts, s := tb.dealt("start blinds=5/10 buyin=1000 timer=30")
	first, _ := tb.actor(s)
	callB := tb.mustShown(s, "Call")
	if p := tb.press(first, ts, callB, ""); p.update == nil {
		t.Fatalf("the call was not shown through the click: %+v", p.private)
	}
	before := tb.onScreen(ts)
	next, _ := tb.actor(before)

	n := len(tb.snapshot())
	tb.restart()
	tb.waitCall(n, "chat.update", func(c call) bool { return c.TS == ts && c.Channel == "CGAME" })
	tb.flush()
	for _, c := range tb.snapshot()[n:] {
		if c.Method == "chat.postMessage" && tableHeader.MatchString(c.Text) {
			t.Errorf("a new table message after the restart: %q", c.Text)
		}
	}
	after := tb.onScreen(ts)
	if who, ok := tb.actor(after); !ok || who != next {
		t.Fatalf("after the restart the table shows %q to act, want %s:\n%s", who, next, after.Text)
	}
	var was, now []string
	for _, b := range before.Buttons {
		was = append(was, b.Value)
	}
	for _, b := range after.Buttons {
		now = append(now, b.Value)
	}
	if !slices.Equal(was, now) {
		t.Errorf("the buttons after the restart %v differ from before %v", now, was)
	}
	// A stale click on the table message: refused privately, and the message it came from is brought
	// up to date (the clicker's copy may be the one behind).
	if p := tb.press(first, ts, callB, ""); p.update == nil || p.update.Text != tb.onScreen(ts).Text || len(p.private) != 1 || !strings.Contains(p.private[0].Text, "earlier turn") {
		t.Errorf("a pre-restart stale click: update %v, private %+v", p.update, p.private)
	}
	tb.playFrom(ts, true)
	if end := tb.onScreen(ts).Text; !strings.Contains(end, " wins ") && !strings.Contains(end, " split") {
		t.Errorf("the hand's end is not on the table:\n%s", end)
	}
	if got := chipsOnTable(tb.record()); got != 3000 {
		t.Errorf("chips on the table after the hand: %d, want 3000", got)
	}
}

// TestTablePostEditDelete: the Surface calls: the table posted once and edited in place by
// chat.update; a turn ping posted and taken down by chat.delete.
func TestTablePostEditDelete(t *testing.T) {
	h := newHarness(t, socketConfig())
	ctx := context.Background()
	m := bot.Message{Channel: "CGAME", Message: render.Message{Text: "Hand #1 · alice to act",
		Buttons: []render.Button{{Label: "Fold", Command: "fold", Token: "1.0"}}}}
	ts, err := h.a.Post(ctx, m)
	if err != nil || ts == "" {
		t.Fatalf("Post = %q, %v", ts, err)
	}
	m.Text, m.Buttons = "Hand #1 · alice wins 15", nil
	if err := h.a.Edit(ctx, m, ts); err != nil {
		t.Fatal(err)
	}
	if s := h.onScreen(ts); s.Text != m.Text || len(s.Buttons) != 0 {
		t.Errorf("after the edit the message shows %+v", s)
	}
	ping, err := h.a.Post(ctx, bot.Message{Channel: "CGAME", Message: render.Message{Text: "🔔 <@UBOB>, it is your turn in hand #1."}})
	if err != nil {
		t.Fatal(err)
	}
	if err := h.a.Delete(ctx, bot.Message{Channel: "CGAME"}, ping); err != nil {
		t.Fatalf("Delete: %v", err)
	}
	if s := h.onScreen(ping); s.Text != "" {
		t.Errorf("the ping is still there: %+v", s)
	}
	if n := countCalls(h.snapshot(), "chat.update"); n != 1 {
		t.Errorf("%d chat.update calls, want 1", n)
	}
}

// Without the files:write scope, the showdown picture is skipped: one upload is tried, refused with
// missing_scope and said once in the log; later hands try no upload; the table shows the result
// without a picture, and the hands go on.
func TestShowdownPictureWithoutFilesScope(t *testing.T) {
	t.Parallel()
	tb, ts, end := showdownOver(t, func(f *fakeSlack) { f.noFiles = true })
	if !strings.Contains(end.Text, " shows ") || len(end.Images) != 0 {
		t.Fatalf("the final table: %d images, text:\n%s", len(end.Images), end.Text)
	}
	if tb.a.ShowsPictures("slack") {
		t.Error("the adapter still says it shows pictures after missing_scope")
	}
	// Everyone re-buys to play a second hand with a showdown: no further upload is tried.
	for _, p := range []string{"UALICE", "UBOB", "UCAROL"} {
		tb.slashDo(p, "rebuy 1000")
	}
	tb.slashDo("UALICE", "deal")
	tb.flush()
	ts2, _ := tb.tableMessage()
	if ts2 != ts {
		tb.playFrom(ts2, false)
		tb.flush()
	}
	tried := 0
	for _, c := range tb.snapshot() {
		if strings.HasPrefix(c.Method, "files.getUploadURLExternal") {
			tried++
		}
	}
	if tried != 1 {
		t.Errorf("%d uploads tried without the scope, want 1", tried)
	}
	if n := strings.Count(tb.logs.String(), "showdown pictures are skipped"); n != 1 {
		t.Errorf("the missing scope is logged %d times, want once:\n%s", n, tb.logs.String())
	}
}

// TestShowdownPictureWhileSlackProcessesIt: Slack processes an upload after files.completeUploadExternal
// answers, and refuses an image block naming a file not processed yet (invalid_blocks). The final
// table is sent again once the file had time, and shows the picture.
func TestShowdownPictureWhileSlackProcessesIt(t *testing.T) {
	t.Parallel()
	tb, _, end := showdownOver(t, func(*fakeSlack) {})
	if !strings.Contains(end.Text, " shows ") || len(end.Images) != 1 || end.Images[0].Alt == "" {
		t.Fatalf("the final table: %d images, text:\n%s", len(end.Images), end.Text)
	}
	refused := 0
	for _, c := range tb.snapshot() {
		if c.Method == "chat.update (invalid_blocks)" {
			refused++
		}
	}
	if refused != 1 {
		t.Fatalf("%d updates refused for a file still being processed, want exactly 1 (then a wait)", refused)
	}
}

// TestShowdownPictureRefusedStillUpdates: when Slack will not show the picture at all (the image
// block is refused every time), the final table is still brought up to date, without it, and the log
// says so; no chip is lost.
func TestShowdownPictureRefusedStillUpdates(t *testing.T) {
	t.Parallel()
	tb, _, end := showdownOver(t, func(f *fakeSlack) { f.refuseImgs = true })
	if !strings.Contains(end.Text, " shows ") || !strings.Contains(end.Text, " wins ") || len(end.Images) != 0 {
		t.Fatalf("the final table was not brought up to date without the picture: %d images, text:\n%s", len(end.Images), end.Text)
	}
	if !strings.Contains(tb.logs.String(), "shown without it") {
		t.Errorf("the fallback is not logged:\n%s", tb.logs.String())
	}
}

// showdownOver plays a hand to its showdown at a table over the fake Slack set up by knobs, and
// returns the table, its message's ts and what the message shows at the end.
func showdownOver(t *testing.T, knobs func(*fakeSlack)) (*desk, string, slackShown) {
	t.Helper()
	tb := newTable(t, 7)
	tb.mu.Lock()
	knobs(tb.fakeSlack)
	tb.mu.Unlock()
	ts, _ := tb.dealt("start blinds=5/10 buyin=1000 timer=0")
	tb.playFrom(ts, false)
	tb.flush()
	return tb, ts, tb.onScreen(ts)
}
