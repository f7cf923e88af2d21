package bot_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dealerbot/dealerbot/bot"
	"github.com/dealerbot/dealerbot/bot/table"
	"github.com/dealerbot/dealerbot/engine"
)

// surfaceChat is a chat that edits messages in place: every post and edit is recorded.
type surfaceChat struct {
	rigChat
	smu    sync.Mutex
	posts  int
	edits  int
	nextID int
	text   map[string]string // message ID -> current text
	log    []string
	frozen map[string]bool // messages Edit refuses with bot.ErrRepost (Discord's 30046)
	denied bool            // the channel refuses the bot: Post and Edit fail with bot.ErrCannotPost
	// flush waits for the dealer the chat is given to (liveRigOver sets it).
	flush func(context.Context) error
}

func (c *surfaceChat) Post(_ context.Context, m bot.Message) (string, error) {
	c.smu.Lock()
	defer c.smu.Unlock()
	if c.denied {
		return "", fmt.Errorf("post: Missing Permissions: %w", bot.ErrCannotPost)
	}
	c.posts++
	c.nextID++
	id := fmt.Sprintf("m%d", c.nextID)
	c.text[id] = m.Text
	c.log = append(c.log, "post "+id)
	return id, nil
}

func (c *surfaceChat) Edit(_ context.Context, m bot.Message, id string) error {
	c.smu.Lock()
	defer c.smu.Unlock()
	if _, ok := c.text[id]; !ok {
		return fmt.Errorf("unknown message %s", id)
	}
	if c.frozen[id] {
		return fmt.Errorf("edit %s: too many edits of an old message: %w", id, bot.ErrRepost)
	}
	c.edits++
	c.text[id] = m.Text
	c.log = append(c.log, "edit "+id)
	return nil
}

func (c *surfaceChat) Delete(_ context.Context, _ bot.Message, id string) error {
	c.smu.Lock()
	defer c.smu.Unlock()
	if _, ok := c.text[id]; !ok {
		return fmt.Errorf("unknown message %s", id)
	}
	delete(c.text, id)
	c.log = append(c.log, "delete "+id)
	return nil
}

// pings returns the turn pings on screen now.
func (c *surfaceChat) pings() []string {
	c.smu.Lock()
	defer c.smu.Unlock()
	var out []string
	for _, text := range c.text {
		if strings.HasPrefix(text, "🔔") {
			out = append(out, text)
		}
	}
	return out
}

func (c *surfaceChat) counts() (posts, edits int) {
	c.smu.Lock()
	defer c.smu.Unlock()
	return c.posts, c.edits
}

// settle waits until the dealer has run everything queued and written every channel message it
// caused (Dealer.Flush), and fails the test if that does not happen within 10 s.
func (c *surfaceChat) settle(t *testing.T) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := c.flush(ctx); err != nil {
		t.Fatalf("the dealer did not finish its work: %v", err)
	}
}

func (c *surfaceChat) flushWith(f func(context.Context) error) { c.flush = f }

// TestLiveTableMessage: with a chat that edits in place, a hand is one table message: posted once,
// then brought up to date through each click's own response (no channel write), and edited for a
// typed command. No "Done" reply for an action; hole cards never in the channel; a restart mid-hand
// edits the same message with live buttons for the player to act.
func TestLiveTableMessage(t *testing.T) {
	r, sc := liveRig(t, "timer=30")
	users := []string{"ann", "ben", "cid"}
	if p, _ := sc.counts(); p != 1 {
		t.Fatalf("%d posts after the deal, want the one table message", p)
	}
	id := "m1"
	tr := r.table("c1")
	if tr.Screen.Hand != 1 || tr.Screen.Message != id || !tr.Screen.Posted.Equal(r.clock()) {
		t.Fatalf("the table message is not stored with the table: %+v", tr.Screen)
	}
	// Clicks on the table message: the reply carries the new version, and nothing is written.
	clicks := 0
	for i := 0; i < 20 && r.table("c1").Hand != nil; i++ {
		for _, u := range users {
			tok := fmt.Sprintf("1.%d", len(r.table("c1").Hand.Actions))
			rep := r.d.Handle(context.Background(), bot.Command{Platform: "test", Workspace: "w", Channel: "c1", User: u, UserName: u,
				Text: "call", Token: tok, Message: id})
			if rep.IsError {
				rep = r.d.Handle(context.Background(), bot.Command{Platform: "test", Workspace: "w", Channel: "c1", User: u, UserName: u,
					Text: "check", Token: tok, Message: id})
			}
			if rep.IsError {
				continue
			}
			clicks++
			if rep.Update == nil || rep.Text != "" {
				t.Fatalf("a click was answered with %q and update %v, want the table message alone", rep.Text, rep.Update != nil)
			}
			if !strings.Contains(rep.Update.Text, "Hand #1") {
				t.Fatalf("the update is not the table message:\n%s", rep.Update.Text)
			}
			if r.table("c1").Hand == nil {
				break
			}
		}
	}
	sc.settle(t)
	if p, e := sc.counts(); p != 1 || e != 0 || clicks < 3 {
		t.Fatalf("after %d clicks: %d posts and %d edits, want 1 and 0", clicks, p, e)
	}
	// Hand 2 by typed commands: one post, then edits.
	r.must("c1", "ann", "deal")
	sc.settle(t)
	tr = r.table("c1")
	if tr.Screen.Hand != 2 {
		t.Fatalf("hand 2's table message not stored: %+v", tr.Screen)
	}
	p0, _ := sc.counts()
	h := tr.Hand
	who := tr.Seats[h.Seats[firstToAct(t, tr)]].User
	rep := r.cmd("c1", who, "call")
	if rep.IsError || rep.Text != "" {
		t.Fatalf("a typed action got %q", rep.Text)
	}
	sc.settle(t)
	if p, e := sc.counts(); p != p0 || e < 1 {
		t.Fatalf("a typed action: %d posts (was %d) and %d edits", p, p0, e)
	}
	// A restart mid-hand edits the same message; the player to act has live buttons on it.
	screen := r.table("c1").Screen
	p1, e1 := sc.counts()
	r.close()
	r.openWith(sc)
	sc.settle(t)
	if p, e := sc.counts(); p != p1 || e <= e1 {
		t.Fatalf("after the restart: %d posts (was %d), %d edits (was %d): want an edit of the same message", p, p1, e, e1)
	}
	sc.smu.Lock()
	text := sc.text[screen.Message]
	sc.smu.Unlock()
	if !strings.Contains(text, "to act") {
		t.Fatalf("the table message after the restart shows no turn:\n%s", text)
	}
	for _, m := range r.chat.all() {
		if !m.Private && strings.Contains(m.Text, "your cards") {
			t.Fatalf("hole cards in the channel: %q", m.Text)
		}
	}
}

// liveRig opens a rig over a surfaceChat, with a table in c1 (start options opts) where ann, ben and
// cid sit down with 1,000 each and hand #1 is dealt and on screen.
func liveRig(t *testing.T, opts string) (*rig, *surfaceChat) {
	t.Helper()
	sc := &surfaceChat{text: map[string]string{}}
	return liveRigOver(t, sc, &sc.rigChat, opts), sc
}

// liveRigOver is liveRig over chat, whose rigChat is rc.
func liveRigOver(t *testing.T, chat interface {
	bot.Chat
	settle(*testing.T)
	flushWith(func(context.Context) error)
}, rc *rigChat, opts string) *rig {
	t.Helper()
	r := newRig(t, bot.Config{})
	chat.flushWith(func(ctx context.Context) error { return r.d.Flush(ctx) }) // r.d as it is then (a restart replaces it)
	r.chat = rc
	r.close()
	r.openWith(chat)
	r.must("c1", "ann", "start "+opts)
	for _, u := range []string{"ann", "ben", "cid"} {
		r.must("c1", u, "join 1000")
	}
	r.must("c1", "ann", "deal")
	chat.settle(t)
	return r
}

// firstToAct is the hand index of the player to act in a stored table's hand.
func firstToAct(t *testing.T, tr table.TableRecord) int {
	t.Helper()
	h, err := engine.Replay(tr.Hand.Setup(), tr.Hand.Actions)
	if err != nil {
		t.Fatal(err)
	}
	return h.ToAct()
}

// surfaceRig is a rig whose dealer's chat is sc.
func surfaceRig(t *testing.T, sc *surfaceChat) *rig {
	t.Helper()
	r := newRig(t, bot.Config{})
	r.chat = &sc.rigChat
	r.close()
	r.openWith(sc)
	return r
}

// openWith opens the rig with chat as the dealer's Chat.
func (r *rig) openWith(chat bot.Chat) {
	r.tb.Helper()
	r.override = chat
	r.open()
}

// table is channel ch's stored table record.
func (r *rig) table(ch string) table.TableRecord {
	r.tb.Helper()
	recs, err := r.db.Tables(context.Background())
	if err != nil {
		r.tb.Fatal(err)
	}
	for _, tr := range recs {
		if tr.Channel == ch {
			return tr
		}
	}
	return table.TableRecord{}
}

// TestTurnPing: a player who has not acted when a third of the timer is left (40 s into a 60 s
// timer) is pinged by a short mention post saying the time left, which goes when the turn passes; a
// player who acts sooner is never pinged; a restart takes down the ping from before it, and a turn
// resumed with less than a third of its timer left is not pinged again.
func TestTurnPing(t *testing.T) {
	r, sc := liveRig(t, "timer=60")
	who := func() string {
		tr := r.table("c1")
		return tr.Seats[tr.Hand.Seats[firstToAct(t, tr)]].User
	}
	first := who()
	r.advance(39 * time.Second)
	sc.settle(t)
	if p := sc.pings(); len(p) != 0 {
		t.Fatalf("pinged before 40 s: %v", p)
	}
	r.advance(2 * time.Second)
	sc.settle(t)
	p := sc.pings()
	if len(p) != 1 || !strings.Contains(p[0], "@"+first+", it is your turn in hand #1") || !strings.Contains(p[0], "20 s left") {
		t.Fatalf("after 41 s the pings are %v, want one for %s with 20 s left", p, first)
	}
	if tr := r.table("c1"); tr.Screen.Ping == "" {
		t.Errorf("the ping is not stored with the table: %+v", tr.Screen)
	}
	// The player acts: the ping goes. The next player acts within 40 s: no ping for them.
	r.must("c1", first, "call")
	sc.settle(t)
	if p := sc.pings(); len(p) != 0 {
		t.Fatalf("the ping stayed after the turn passed: %v", p)
	}
	second := who()
	r.advance(30 * time.Second)
	r.must("c1", second, "call")
	sc.settle(t) // the third player's turn is on screen: their timer starts
	r.advance(36 * time.Second)
	sc.settle(t)
	third := who()
	if p := sc.pings(); len(p) != 0 {
		t.Fatalf("pinged %v; the second player acted in 30 s and the third's turn is 36 s old", p)
	}
	r.advance(5 * time.Second)
	sc.settle(t)
	if p := sc.pings(); len(p) != 1 || !strings.Contains(p[0], "@"+third) {
		t.Fatalf("pings %v, want one for %s", p, third)
	}
	// A restart: the old ping goes; the turn resumes with 19 s left, under a third: no new ping.
	r.close()
	r.openWith(sc)
	sc.settle(t)
	if p := sc.pings(); len(p) != 0 {
		t.Fatalf("the ping from before the restart is still up: %v", p)
	}
	r.advance(5 * time.Second)
	sc.settle(t)
	if p := sc.pings(); len(p) != 0 {
		t.Fatalf("after the restart the pings are %v, want none (less than a third of the timer left)", p)
	}
	// The hand ends while a ping is up: it goes, and no ping comes for a hand that is over.
	for i := 0; i < 6 && r.table("c1").Hand != nil; i++ { // a fold when checking is free needs two
		r.must("c1", who(), "fold")
		sc.settle(t)
	}
	if p := sc.pings(); len(p) != 0 || r.table("c1").Screen.Ping != "" {
		t.Fatalf("pings after the hand ended: %v (stored %q)", p, r.table("c1").Screen.Ping)
	}
	// Time goes on: hand #2 is dealt and its player to act may be pinged, never for hand #1.
	r.advance(30 * time.Second)
	sc.settle(t)
	for _, p := range sc.pings() {
		if !strings.Contains(p, "hand #2") {
			t.Fatalf("a ping for a hand that is over: %q", p)
		}
	}
}

// TestLongHandGetsANewTableMessage: Discord limits edits of messages older than an hour (30046), so
// a hand whose table message is 50 minutes old continues in a new message, stored with the table,
// and a click on the old one is no longer answered by editing it; a message the platform refuses to
// edit (bot.ErrRepost) is posted anew at once. The hand plays on and the chips add up.
func TestLongHandGetsANewTableMessage(t *testing.T) {
	r, sc := liveRig(t, "timer=off")
	first := r.table("c1").Screen
	act := func(msg string) bot.Reply {
		tr := r.table("c1")
		u := tr.Seats[tr.Hand.Seats[firstToAct(t, tr)]].User
		rep := r.d.Handle(context.Background(), bot.Command{Platform: "test", Workspace: "w", Channel: "c1", User: u, UserName: u,
			Text: "call", Token: fmt.Sprintf("1.%d", len(tr.Hand.Actions)), Message: msg})
		if rep.IsError {
			t.Fatalf("%s: call: %s", u, rep.Text)
		}
		if err := r.d.Flush(context.Background()); err != nil {
			t.Fatal(err)
		}
		sc.settle(t)
		return rep
	}
	if rep := act(first.Message); rep.Update == nil {
		t.Fatal("a click on a fresh table message was not answered with its new version")
	}
	tables := func() int { // table messages on screen (turn pings aside)
		sc.smu.Lock()
		defer sc.smu.Unlock()
		n := 0
		for _, text := range sc.text {
			if strings.HasPrefix(text, "Hand #") {
				n++
			}
		}
		return n
	}
	r.advance(51 * time.Minute)
	if rep := act(first.Message); rep.Update != nil {
		t.Fatal("a click on a 51-minute-old table message was answered by editing it")
	}
	second := r.table("c1").Screen
	if n := tables(); n != 2 || second.Message == first.Message || second.Hand != 1 || !second.Posted.Equal(r.clock()) {
		t.Fatalf("after 51 minutes: %d table messages, screen %+v (was %+v): want the table posted anew and stored", n, second, first)
	}
	sc.smu.Lock()
	if !strings.Contains(sc.text[second.Message], "Hand #1") {
		t.Fatalf("the new message is not the table:\n%s", sc.text[second.Message])
	}
	sc.frozen = map[string]bool{second.Message: true}
	sc.smu.Unlock()
	// Typed, so the table is edited (not answered through a click): refused, it is posted anew.
	tr := r.table("c1")
	u := tr.Seats[tr.Hand.Seats[firstToAct(t, tr)]].User
	if rep := r.cmd("c1", u, "call"); rep.IsError {
		r.must("c1", u, "check")
	}
	sc.settle(t)
	if third := r.table("c1").Screen; third.Message == second.Message {
		t.Fatalf("an edit refused with ErrRepost did not post the table anew: %+v", third)
	}
	r.playOut("c1", "ann", "ben", "cid")
	r.balance()
}

// TestHostToldWhenTheChannelRefusesTheBot: when the platform refuses the bot the table's channel (no
// Send Messages on Discord, not invited on Slack), nobody sees the table: the host is told privately,
// once, what to give the bot; the game itself goes on and chips add up.
func TestHostToldWhenTheChannelRefusesTheBot(t *testing.T) {
	sc := &surfaceChat{text: map[string]string{}, denied: true}
	r := surfaceRig(t, sc)
	r.must("c1", "ann", "start timer=off")
	r.must("c1", "ann", "join 1000")
	r.must("c1", "ben", "join 1000")
	r.must("c1", "ann", "deal")
	r.playOut("c1", "ann", "ben")
	r.must("c1", "ann", "deal")
	if err := r.d.Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	told := 0
	for _, m := range r.chat.all() {
		if m.Private && strings.Contains(m.Text, "I cannot post the table in this channel") {
			if m.User != "ann" || !strings.Contains(m.Text, "Send Messages") {
				t.Fatalf("told %s: %q", m.User, m.Text)
			}
			told++
		}
	}
	if told != 1 {
		t.Fatalf("the host was told %d times, want once", told)
	}
	r.balance()
}

// A click that arrives twice (a load balancer's retry, the same interaction at two processes) is
// applied once; the repeat is refused as from an earlier turn, and since the clicker's message may
// be the one behind, the refusal brings the table message up to date too, whichever of the two
// answers the platform shows. Refusals that say nothing of the message (not your turn) leave it be.
func TestRepeatedClickBringsTheTableUpToDate(t *testing.T) {
	r, sc := liveRig(t, "timer=30")
	id := r.table("c1").Screen.Message
	tr := r.table("c1")
	u := tr.Seats[tr.Hand.Seats[firstToAct(t, tr)]].User
	click := bot.Command{ID: "test/click-1", Platform: "test", Workspace: "w", Channel: "c1", User: u, UserName: u,
		Text: "call", Token: fmt.Sprintf("1.%d", len(tr.Hand.Actions)), Message: id}
	first := r.d.Handle(context.Background(), click)
	if first.IsError || first.Update == nil {
		t.Fatalf("the click: %q (update %v), want the table message", first.Text, first.Update != nil)
	}
	actions := len(r.table("c1").Hand.Actions)
	again := r.d.Handle(context.Background(), click)
	if !again.IsError || !strings.Contains(again.Text, "earlier turn") {
		t.Fatalf("the repeat was answered %q, want the earlier-turn refusal", again.Text)
	}
	if again.Update == nil || again.Update.Text != first.Update.Text {
		t.Fatalf("the repeat's refusal does not bring the table up to date: %v", again.Update)
	}
	if n := len(r.table("c1").Hand.Actions); n != actions {
		t.Fatalf("the repeat changed the hand: %d actions, want %d", n, actions)
	}
	// Someone not to act clicks the current message: refused, and the message is left as it is.
	tr = r.table("c1")
	toAct := tr.Seats[tr.Hand.Seats[firstToAct(t, tr)]].User
	var other string
	for _, s := range tr.Seats {
		if s.User != toAct {
			other = s.User
			break
		}
	}
	rep := r.d.Handle(context.Background(), bot.Command{Platform: "test", Workspace: "w", Channel: "c1", User: other, UserName: other,
		Text: "call", Token: fmt.Sprintf("1.%d", len(tr.Hand.Actions)), Message: id})
	if !rep.IsError || rep.Update != nil {
		t.Fatalf("a click out of turn: %q with update %v, want a refusal alone", rep.Text, rep.Update != nil)
	}
	sc.settle(t)
}
