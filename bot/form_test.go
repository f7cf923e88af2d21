package bot_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dealerbot/dealerbot/bot"
	"github.com/dealerbot/dealerbot/bot/errs"
)

// TestProbeForm: a click on an amount button opens the form only for the player to act; anyone else,
// and a click on an old button, gets the dealer's sentence instead, and nothing changes either way.
// A dealer busy past the wait does not hold the form up; a panic is an apology; a cancelled click
// opens nothing.
func TestProbeForm(t *testing.T) {
	r := newRig(t, bot.Config{})
	r.must("c1", "host", "start timer=off")
	r.must("c1", "alice", "join 1000")
	r.must("c1", "bob", "join 1000")
	r.must("c1", "alice", "deal")
	shown, ok := r.chat.shown("c1")
	if !ok || len(shown.buttons) == 0 || shown.buttons[0].Token == "" {
		t.Fatalf("no turn buttons on the table message: %+v", shown)
	}
	token := shown.buttons[0].Token
	click := func(user, text, token string) bot.Command {
		return bot.Command{Platform: "test", Workspace: "w", Channel: "c1", User: user, UserName: user, Text: text, Token: token}
	}
	// probe asks as user and checks that nothing changed: chips, tables, players and the channel.
	probe := func(h bot.Handler, cmd bot.Command, wait time.Duration) bot.Form {
		t.Helper()
		before, msgs := r.state(), len(r.chat.all())
		f := bot.ProbeForm(context.Background(), h, cmd, wait)
		if err := r.d.Flush(context.Background()); err != nil {
			t.Fatal(err)
		}
		if after := r.state(); after != before {
			t.Fatalf("probing %q by %s changed the state:\nbefore %s\nafter  %s", cmd.Text, cmd.User, before, after)
		}
		if n := len(r.chat.all()); n != msgs {
			t.Fatalf("probing %q by %s sent %d messages", cmd.Text, cmd.User, n-msgs)
		}
		return f
	}
	const generous = 10 * time.Second // the dealer answers at once; this is no timing assertion

	// Exactly one of the two may act; the other is told whose turn it is.
	fa := probe(r.d, click("alice", "raise", token), generous)
	fb := probe(r.d, click("bob", "raise", token), generous)
	toAct, waiting, refused := "alice", "bob", fb
	if !fa.Open {
		toAct, waiting, refused = "bob", "alice", fa
		if !fb.Open {
			t.Fatalf("neither player may raise: alice %+v, bob %+v", fa, fb)
		}
	} else if fb.Open {
		t.Fatalf("both players may raise: alice %+v, bob %+v", fa, fb)
	}
	if want := "It is " + toAct + "'s turn, not yours."; !refused.Refusal.IsError || refused.Refusal.Text != want || refused.Late {
		t.Errorf("%s's probe = %+v, want the refusal %q", waiting, refused, want)
	}

	for _, tc := range []struct {
		name string
		cmd  bot.Command
		want string // the refusal; empty: the form opens
	}{
		{"the player to act", click(toAct, "raise", token), ""},
		{"the player to act, typed without a button", click(toAct, "bet", ""), ""},
		{"an old button", click(toAct, "raise", token+"x"), "That button is from an earlier turn: use the newest message."},
		{"a spectator", click("carol", "raise", token), "You are not seated at this table: type `join` to play."},
		{"a channel without a game", bot.Command{Platform: "test", Workspace: "w", Channel: "c2", User: toAct, Text: "raise"}, "There is no game in this channel yet"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := probe(r.d, tc.cmd, generous)
			switch {
			case f.Late || f.Panic != nil:
				t.Errorf("probe = %+v, want a plain answer", f)
			case tc.want == "" && (!f.Open || f.Refusal.Text != "" || f.Refusal.IsError):
				t.Errorf("probe = %+v, want the form to open", f)
			case tc.want != "" && (f.Open || !f.Refusal.IsError || !strings.HasPrefix(f.Refusal.Text, tc.want)):
				t.Errorf("probe = %+v, want the refusal %q", f, tc.want)
			}
		})
	}

	t.Run("a dealer busy past the wait does not hold the form up", func(t *testing.T) {
		release := make(chan struct{})
		busy := newBlocking(release, r.d)
		f := probe(busy, click(toAct, "raise", token), 20*time.Millisecond)
		if !f.Open || !f.Late || f.Refusal.Text != "" {
			t.Errorf("probe = %+v, want the form opened late", f)
		}
		close(release)
		busy.wait() // the late answer came and was dropped
		if p := busy.probes(); len(p) != 1 || !p[0].Probe {
			t.Errorf("the dealer got %+v, want one probe", p)
		}
		r.must("c1", toAct, "call") // the table plays on
	})

	t.Run("a panic is an apology for the log", func(t *testing.T) {
		f := bot.ProbeForm(context.Background(), panicking{}, click("alice", "raise", ""), generous)
		if f.Open || f.Refusal.Text != errs.Apology || !f.Refusal.IsError || f.Panic == nil || !strings.Contains(f.Panic.Error(), "boom") {
			t.Errorf("probe = %+v, want the apology and the panic", f)
		}
	})

	t.Run("a click whose context ended opens nothing", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		busy := newBlocking(make(chan struct{}), r.d)
		defer close(busy.release)
		if f := bot.ProbeForm(ctx, busy, click(toAct, "raise", ""), generous); f.Open || f.Refusal.Text != "" {
			t.Errorf("probe = %+v, want nothing", f)
		}
	})
}

// blocking holds every command until release is closed, then passes it on to next, recording it.
type blocking struct {
	release  chan struct{}
	next     bot.Handler
	answered chan struct{} // one value per command next answered
	mu       sync.Mutex
	got      []bot.Command
}

func newBlocking(release chan struct{}, next bot.Handler) *blocking {
	return &blocking{release: release, next: next, answered: make(chan struct{}, 16)}
}

func (b *blocking) Handle(ctx context.Context, cmd bot.Command) bot.Reply {
	<-b.release
	b.mu.Lock()
	b.got = append(b.got, cmd)
	b.mu.Unlock()
	defer func() { b.answered <- struct{}{} }()
	return b.next.Handle(ctx, cmd)
}

// wait waits until next has answered one more command.
func (b *blocking) wait() { <-b.answered }

func (b *blocking) probes() []bot.Command {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]bot.Command(nil), b.got...)
}

type panicking struct{}

func (panicking) Handle(context.Context, bot.Command) bot.Reply { panic("boom") }
