package console_test

import (
	"context"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dealerbot/dealerbot/adapters/console"
	"github.com/dealerbot/dealerbot/bot"
)

// A player who refuses DMs gets their cards with their next reply, with a "Show my cards" button,
// and is told once how to allow DMs.
func TestBlockedDMsComeWithTheNextReply(t *testing.T) {
	g := newGame(t)
	g.chat.BlockDMs("bob")
	g.rnd.drawDeck(t, "As Kd")
	g.rnd.hand(t, 0, []string{"Kc Kh", "Ac Ad"}, "2c 7d 9h 4s Jc")
	g.must("alice: start", "alice: join", "bob: join", "alice: deal")
	r := g.say("bob: table")
	var extra []string
	for _, m := range r.Extra {
		extra = append(extra, m.Text)
	}
	all := strings.Join(extra, "\n")
	if !strings.Contains(all, "A♣ A♦") || !strings.Contains(all, "Allow direct messages") {
		t.Fatalf("bob's reply carries %q; want his cards and how to allow DMs", all)
	}
	found := false
	for _, b := range r.Buttons {
		found = found || b.Command == "cards"
	}
	if !found {
		t.Fatalf("no Show my cards button: %+v", r.Buttons)
	}
	if r := g.say("bob: table"); len(r.Extra) != 0 {
		t.Fatalf("the cards came twice: %+v", r.Extra)
	}
	if r := g.say("bob: cards"); r.IsError || !strings.Contains(r.Text, "A♣ A♦") {
		t.Fatalf("cards: %q", r.Text)
	}
	// Next hand: the cards come again, the DM advice does not.
	g.must("alice: fold")
	g.clock.Advance(3 * time.Second)
	r = g.say("bob: table")
	all = ""
	for _, m := range r.Extra {
		all += m.Text
	}
	if !strings.Contains(all, "Hand #2") || strings.Contains(all, "Allow direct messages") {
		t.Fatalf("hand 2 extra: %q", all)
	}
}

// TestUndeliveredCardsGoWithTheirHand: cards kept for a player whose DMs are closed belong to their
// hand: when the hand ends before the player says anything, they are dropped, and the next hand's
// first reply carries only that hand's cards (and the advice on DMs, once).
func TestUndeliveredCardsGoWithTheirHand(t *testing.T) {
	g := newGame(t)
	g.chat.BlockDMs("bob")
	g.rnd.drawDeck(t, "As Kd")
	g.must("alice: start", "alice: join", "bob: join", "alice: deal", "alice: fold")
	g.clock.Advance(3 * time.Second) // hand #2 is dealt
	r := g.say("bob: table")
	var all []string
	for _, m := range r.Extra {
		all = append(all, m.Text)
	}
	text := strings.Join(all, "\n")
	if strings.Contains(text, "Hand #1") || !strings.Contains(text, "Hand #2") || !strings.Contains(text, "Allow direct messages") {
		t.Fatalf("bob's first reply in hand 2 carries %q; want hand 2's cards and the DM advice, not hand 1's cards", text)
	}
}

// ephemeralChat is a platform with in-channel private messages (Slack).
type ephemeralChat struct {
	*console.Chat
	mu   sync.Mutex
	sent []bot.Message
}

func (e *ephemeralChat) SendEphemeral(ctx context.Context, m bot.Message) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.sent = append(e.sent, m)
	return nil
}

func TestBlockedDMsUseEphemeral(t *testing.T) {
	var ec *ephemeralChat
	g := newGame(t, func(g *game) {
		g.wrap = func(c *console.Chat) bot.Chat { ec = &ephemeralChat{Chat: c}; return ec }
	})
	g.chat.BlockDMs("bob")
	g.must("alice: start", "alice: join", "bob: join", "alice: deal")
	if r := g.say("bob: table"); len(r.Extra) != 0 {
		t.Fatalf("with ephemeral messages the cards should not wait for a reply: %+v", r.Extra)
	}
	ec.mu.Lock()
	defer ec.mu.Unlock()
	if len(ec.sent) != 1 || ec.sent[0].User != "bob" || !strings.Contains(ec.sent[0].Text, "your cards") {
		t.Fatalf("ephemeral messages: %+v", ec.sent)
	}
}

// A session with a set end finishes at the first deal after the time, with standings.
func TestSessionEndsAtSetTime(t *testing.T) {
	g := newGame(t)
	g.must("alice: start end=30m", "alice: join", "bob: join", "alice: deal", "alice: fold")
	g.clock.Advance(31 * time.Minute) // the automatic deal comes after the end time
	if g.table().ID != "" || !g.sawPublic("Time is up") || !g.sawPublic("standings") {
		t.Fatalf("the session did not end at its time:\n%s", g.out)
	}
	if tot := g.balance(); tot.OnTables != 0 {
		t.Fatalf("chips left on tables: %+v", tot)
	}
}

// Without rebuys, the session ends when one player holds every chip.
func TestSessionEndsWhenOnePlayerHasAllChips(t *testing.T) {
	g := newGame(t)
	g.rnd.drawDeck(t, "As Kd")
	g.rnd.hand(t, 0, []string{"Kc Kh", "Ac Ad"}, "2c 7d 9h 4s Jc")
	g.must("alice: start rebuy=no", "alice: join 1000", "bob: join 1000", "alice: deal", "alice: allin", "bob: call")
	if g.table().ID != "" || !g.sawPublic("One player holds every chip") {
		t.Fatalf("the session did not end:\n%s", g.out)
	}
	if got := g.bankroll("bob"); got != 10000+1000 {
		t.Fatalf("bob's bankroll %d, want 11000", got)
	}
}

// Blinds rise on time, announced, from the next hand.
func TestBlindsRiseOnTime(t *testing.T) {
	g := newGame(t)
	g.must("alice: start blinds=5/10 levels=10m", "alice: join", "bob: join", "alice: deal", "alice: fold")
	g.clock.Advance(11 * time.Minute)
	tr := g.table()
	if tr.Hand == nil || tr.Hand.Rules.BigBlind != 20 || !g.sawPublic("Blinds go up: level 2, 10/20") {
		t.Fatalf("after 11 minutes: %+v\n%s", tr.Hand, g.out)
	}
}

// The host or an admin may remove a player; the stack goes back to the bankroll.
func TestKick(t *testing.T) {
	g := newGame(t)
	g.must("alice: start", "alice: join", "bob: join 600", "carol: join")
	g.refuse("carol: kick bob", "Only the host")
	g.must("admin: kick @bob")
	if _, seated := g.stacks()["bob"]; seated || g.bankroll("bob") != 10000 {
		t.Fatalf("bob still seated or not paid: %v %d", g.stacks(), g.bankroll("bob"))
	}
	g.checkChips("after the kick")
}

// A click carries the token of its turn: the current one acts, the same click again is refused.
func TestButtonClick(t *testing.T) {
	g := newGame(t)
	g.rnd.drawDeck(t, "As Kd Qh")
	g.must("alice: start", "alice: join", "bob: join", "carol: join", "alice: deal")
	g.must("alice: call #1.0")
	g.refuse("alice: call #1.0", "That button is from an earlier turn")
	g.must("bob: call #1.1")
}

// Run reads a script and prints channel messages plainly, private ones as [to name].
func TestRunScript(t *testing.T) {
	g := newGame(t)
	script := "# a comment\nalice: start\n\nalice: join 1000\nbob: join 1000\nalice: deal\nnonsense\nalice: dance\n"
	if err := console.Run(context.Background(), g.d, g.chat, strings.NewReader(script), g.opts); err != nil {
		t.Fatal(err)
	}
	out := g.out.String()
	for _, want := range []string{
		"\nalice sits down in seat 1 with 1,000 chips.\n",
		"[to alice] You are in seat 1 with 1,000 chips.",
		"[to bob] Hand #1",
		"buttons: [Fold] fold",
		"write a line as `name: command`",
		`[to alice] ! I do not know "dance"`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

// A player who folded and leaves mid-hand is settled when the hand ends, with what is left behind.
func TestLeaveAfterFolding(t *testing.T) {
	g := newGame(t)
	g.rnd.drawDeck(t, "As Kd Qh")
	g.must("alice: start", "alice: join 1000", "bob: join 1000", "carol: join 1000", "alice: deal",
		"alice: call", "bob: fold", "bob: leave")
	if _, seated := g.stacks()["bob"]; !seated {
		t.Fatal("bob left before the hand he played in was settled")
	}
	g.must("carol: check", "carol: check", "alice: check", "carol: check", "alice: check", "carol: check", "alice: check")
	if _, seated := g.stacks()["bob"]; seated {
		t.Fatal("bob is still seated after the hand")
	}
	if got := g.bankroll("bob"); got != 10000-5 {
		t.Fatalf("bob's bankroll %d, want 9995 (he lost his small blind)", got)
	}
	g.checkChips("after bob left")
}

// An admin adjusts a bankroll; the ledger records it and still balances.
func TestAdjust(t *testing.T) {
	g := newGame(t)
	g.must("alice: start", "alice: join 1000")
	g.refuse("alice: adjust @alice 500", "Only a server or workspace admin")
	g.refuse("admin: adjust @alice lots", "is not a number of chips")
	g.refuse("admin: adjust @alice -20000", "holds only 9,000 chips")
	g.refuse("admin: adjust @zoe 100", "zoe has no bankroll here yet")
	g.must("admin: adjust @alice 500", "admin: adjust @alice -200")
	if got := g.bankroll("alice"); got != 10000-1000+500-200 {
		t.Fatalf("alice's bankroll %d, want 9300", got)
	}
	if tot := g.balance(); tot.BroughtIn != 10000+500-200 {
		t.Fatalf("brought in %d, want 10300", tot.BroughtIn)
	}
}

// After Close the dealer refuses commands with a sentence, and a timer firing late does nothing.
func TestClose(t *testing.T) {
	g := newGame(t)
	g.must("alice: start timer=30", "alice: join", "bob: join", "alice: deal")
	before := g.snapshot()
	if err := g.d.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	if r := g.d.Handle(context.Background(), bot.Command{Platform: console.Platform, Workspace: console.Workspace,
		Channel: console.Channel, User: "alice", Text: "fold"}); !r.IsError || !strings.Contains(r.Text, "shutting down") {
		t.Fatalf("after Close: %+v", r)
	}
	g.clock.Advance(time.Minute) // the turn timer fires into a closed dealer
	if after := g.snapshot(); after != before {
		t.Fatal("a timer changed the state after Close")
	}
}

// When the antes put every player all-in, the hand is dealt out and settled at once.
func TestHandOverAtTheDeal(t *testing.T) {
	g := newGame(t)
	g.must("alice: start blinds=5/10 ante=400 buyin=400 min=400 max=400 rebuy=yes", "alice: join", "bob: join", "alice: deal")
	if tr := g.table(); tr.Hand != nil || tr.HandNo != 1 {
		t.Fatalf("the all-in hand was not settled: %+v", tr.Hand)
	}
	st := g.stacks()
	if st["alice"]+st["bob"] != 800 {
		t.Fatalf("stacks %v do not add up to 800", st)
	}
	g.checkChips("after the hand")
}

// A restart keeps the turn timer running: the player has the time that was left, not a fresh minute,
// and at least the grace period.
func TestTimerSurvivesRestart(t *testing.T) {
	g := newGame(t)
	g.rnd.drawDeck(t, "As Kd Qh")
	g.must("alice: start timer=60", "alice: join", "bob: join", "carol: join", "alice: deal")
	g.clock.Advance(20 * time.Second)
	g.restart()
	g.clock.Advance(39 * time.Second)
	if n := len(g.table().Hand.Actions); n != 0 {
		t.Fatalf("alice timed out after 59 of her 60 seconds (%d actions)", n)
	}
	g.clock.Advance(2 * time.Second)
	if tr := g.table(); len(tr.Hand.Actions) != 1 || tr.Hand.TimedOut[0] != 0 {
		t.Fatalf("alice's time did not run out at 60 seconds: %+v", tr.Hand)
	}
	// bob's turn began at 60 s and it is now 61 s: a restart with one of his seconds left still
	// leaves him the grace period.
	g.clock.Advance(58 * time.Second)
	g.restart()
	g.clock.Advance(14 * time.Second)
	if n := len(g.table().Hand.Actions); n != 1 {
		t.Fatalf("bob timed out within the grace period (%d actions)", n)
	}
	g.clock.Advance(2 * time.Second) // bob folds, carol wins
	if g.table().Hand != nil || !g.sawPublic("bob ran out of time") {
		t.Fatalf("bob did not time out after the grace period:\n%s", g.out)
	}
}

// After the hand a player may show the cards they did not have to show, once.
func TestShow(t *testing.T) {
	g := newGame(t)
	g.rnd.drawDeck(t, "As Kd")
	g.rnd.hand(t, 0, []string{"Kc Kh", "Ac Ad"}, "2c 7d 9h 4s Jc")
	g.must("alice: start", "alice: join", "bob: join", "alice: deal", "alice: fold")
	if g.sawPublic("K♣") {
		t.Fatal("alice's folded cards were shown without her asking")
	}
	g.must("alice: show")
	if !g.sawPublic("alice shows K♣ K♥ from hand #1") {
		t.Fatalf("show did not post alice's cards:\n%s", g.out)
	}
	g.refuse("alice: show", "already face up")
	g.refuse("carol: show", "You were not in hand #1")
}

// help names every command, each with an explanation; verify explains the hash check.
func TestHelpAndVerify(t *testing.T) {
	g := newGame(t)
	help := g.say("zoe: help").Text
	for _, c := range []string{"start", "join", "leave", "sitout", "sitin", "rebuy", "deal", "fold", "check", "call",
		"bet N", "raise N", "allin", "cards", "table", "show", "chips", "leaderboard", "history", "verify", "end", "kick", "help"} {
		if !strings.Contains(help, "\n"+c) && !strings.HasPrefix(help, c) && !strings.Contains(help, ", "+c) && !strings.Contains(help, "/ "+c) && !strings.Contains(help, "; "+c) {
			t.Errorf("help does not list %q", c)
		}
	}
	if v := g.say("zoe: verify").Text; !strings.Contains(v, "SHA-256") || !strings.Contains(v, "salt") {
		t.Errorf("verify: %q", v)
	}
}

// A probe (an adapter asking before it opens the amount form of a Raise… button) is refused for
// everyone but the player to act and for an old button, and changes nothing even when allowed.
func TestProbe(t *testing.T) {
	g := newGame(t)
	g.rnd.drawDeck(t, "As Kd Qh")
	g.must("alice: start", "alice: join", "bob: join", "carol: join", "alice: deal")
	probe := func(line string) bot.Reply {
		t.Helper()
		cmd, _, err := console.ParseLine(line, g.opts)
		if err != nil {
			t.Fatal(err)
		}
		cmd.Probe = true
		return g.d.Handle(context.Background(), cmd)
	}
	before, msgs := g.stacks(), len(g.chat.Messages())
	// Three-handed, alice has the button and acts first pre-flop.
	if r := probe("bob: raise #1.0"); !r.IsError || !strings.Contains(r.Text, "It is alice's turn, not yours") {
		t.Errorf("bob's probe: %+v", r)
	}
	if r := probe("dave: raise #1.0"); !r.IsError || !strings.Contains(r.Text, "You are not seated") {
		t.Errorf("dave's probe: %+v", r)
	}
	if r := probe("alice: raise #0.9"); !r.IsError || !strings.Contains(r.Text, "That button is from an earlier turn") {
		t.Errorf("stale probe: %+v", r)
	}
	if r := probe("alice: raise #1.0"); r.IsError || r.Text != "" {
		t.Errorf("alice's probe: %+v, want an empty answer", r)
	}
	if r := probe("alice: fold #1.0"); r.IsError {
		t.Errorf("alice's fold probe: %+v", r)
	}
	if after := g.stacks(); len(g.chat.Messages()) != msgs || after["alice"] != before["alice"] || g.table().Hand == nil || len(g.table().Hand.Actions) != 0 {
		t.Fatalf("probes changed something: stacks %v -> %v, %d new messages, hand %+v", before, after, len(g.chat.Messages())-msgs, g.table().Hand)
	}
	g.must("alice: raise 40 #1.0")
}

// TestR23FoldWhenFreeAtTheConsole: the big blind, with nothing to call after a limp, is shown no Fold
// button; a typed `fold` is answered with a reminder and changes nothing, a second `fold` folds.
func TestR23FoldWhenFreeAtTheConsole(t *testing.T) {
	g := newGame(t)
	g.rnd.drawDeck(t, "As Kd") // alice has the button and the small blind heads-up
	g.must("alice: start", "alice: join 1000", "bob: join 1000", "alice: deal", "alice: call")
	box := g.out.String()
	last := box[strings.LastIndex(box, "▶ bob to act"):]
	if !strings.Contains(last, "nothing to call") || strings.Contains(last, "[Fold]") || !strings.Contains(last, "[Check] check") {
		t.Fatalf("bob's turn with nothing to call shows a Fold button or no Check:\n%s", last)
	}
	before := g.table()
	r := g.say("bob: fold")
	if r.IsError || r.Text != "Nothing to call: you can check. Type fold again to fold anyway." {
		t.Fatalf("bob's first fold: %q (error %v)", r.Text, r.IsError)
	}
	if after := g.table(); !reflect.DeepEqual(before.Hand, after.Hand) {
		t.Fatal("the reminder changed the hand")
	}
	g.must("bob: fold")
	if g.table().Hand != nil {
		t.Fatal("bob's second fold did not end the hand")
	}
	if st := g.stacks(); st["alice"] != 1010 || st["bob"] != 990 {
		t.Fatalf("stacks after bob's fold: %v, want alice 1,010 and bob 990", st)
	}
}
