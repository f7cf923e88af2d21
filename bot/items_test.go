package bot_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dealerbot/dealerbot/bot"
)

// heldChat is a rig's chat whose edits fail while held, as a platform that is slow to show a message
// would leave it off screen; it keeps the last text it was asked to show.
type heldChat struct {
	*rigChat
	held atomic.Bool
	mu   sync.Mutex
	last string
}

func (c *heldChat) Edit(ctx context.Context, m bot.Message, id string) error {
	c.mu.Lock()
	c.last = m.Text
	c.mu.Unlock()
	if c.held.Load() {
		return errors.New("held")
	}
	return c.rigChat.Edit(ctx, m, id)
}

func (c *heldChat) lastText() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.last
}

// TestItem8DealWaitsForTheRebuyOffer: when a hand leaves players out of chips, the offer tells them
// how long they have to rebuy, the pause before the next deal starts only when the offer is on screen
// (or after a backstop of 10 s when the platform does not show it), and a player who rebuys in the
// pause is dealt into the next hand.
func TestItem8DealWaitsForTheRebuyOffer(t *testing.T) {
	r := newRig(t, bot.Config{DealDelay: 5 * time.Second})
	hc := &heldChat{rigChat: r.chat}
	r.close()
	r.openWith(hc)
	users := []string{"ann", "ben", "cid", "dee"}
	r.must("c1", "ann", "start timer=off")
	for _, u := range users {
		r.must("c1", u, "join 1000")
	}
	r.must("c1", "ann", "deal")
	tr := r.table("c1")
	folder := tr.Seats[tr.Hand.Seats[firstToAct(t, tr)]].User
	r.must("c1", folder, "fold")
	// The others move in; the hand's last versions are not shown.
	hc.held.Store(true)
	for i := 0; i < 10; i++ {
		if _, inHand := r.seatStacks("c1"); !inHand {
			break
		}
		for _, u := range users {
			r.cmd("c1", u, "allin")
			r.cmd("c1", u, "call")
		}
	}
	tr = r.table("c1")
	busted := ""
	for _, st := range tr.Seats {
		if st.User != "" && st.Stack == 0 {
			busted = st.User
		}
	}
	if busted == "" || tr.Hand != nil {
		t.Fatalf("nobody is out of chips after the all-ins: %+v", tr.Seats)
	}
	if want := busted + " is out of chips: `rebuy` within 5 s to be dealt in next hand, or `leave`."; !strings.Contains(hc.lastText(), want) {
		t.Fatalf("the hand's end does not offer %q:\n%s", want, hc.lastText())
	}
	no := tr.HandNo
	r.advance(9 * time.Second)
	if got := r.table("c1").HandNo; got != no {
		t.Fatalf("hand #%d was dealt before the offer was on screen or its backstop passed", got)
	}
	// The backstop (10 s) starts the pause of 5 s; the busted player rebuys in it.
	hc.held.Store(false)
	r.advance(2 * time.Second)
	r.must("c1", busted, "rebuy")
	if got := r.table("c1").HandNo; got != no {
		t.Fatalf("hand #%d was dealt before the pause was over", got)
	}
	r.advance(4 * time.Second)
	tr = r.table("c1")
	if tr.HandNo != no+1 || tr.Hand == nil {
		t.Fatalf("no hand dealt after the pause: hand #%d", tr.HandNo)
	}
	in := false
	for _, s := range tr.Hand.Seats {
		in = in || tr.Seats[s].User == busted
	}
	if !in {
		t.Errorf("%s rebought in the pause and is not dealt into hand #%d", busted, tr.HandNo)
	}
	r.balance()
}

// TestItem9HelpOneVerb: `help raise` explains raise alone; `help` lists every command; a word that
// is no command is refused with a sentence.
func TestItem9HelpOneVerb(t *testing.T) {
	r := newRig(t, bot.Config{})
	tests := []struct{ text, want string }{
		{"help raise", "raise N (or raise to N) — raise to N in all"},
		{"help call", "fold, check, call — act on your turn"},
		{"help all-in", "allin — put in every chip"},
		{"help sitin", "sitout / sitin — skip hands without leaving / play again\nsitin post — post the blinds you missed and play the next hand (missed=post)"},
		{"help kick", "kick @user — remove a player (host or admin)"},
	}
	for _, tt := range tests {
		if rep := r.must("c1", "ann", tt.text); rep.Text != tt.want {
			t.Errorf("%s: %q, want %q", tt.text, rep.Text, tt.want)
		}
	}
	if rep := r.must("c1", "ann", "help"); !strings.HasPrefix(rep.Text, "Commands (`help COMMAND` for the details of one):\n") || !strings.Contains(rep.Text, "\nkick @user") {
		t.Errorf("help: %q, want every command", rep.Text)
	}
	if rep := r.must("c1", "ann", "help tournament"); !strings.HasPrefix(rep.Text, "start tournament buyin=") {
		t.Errorf("help tournament: %q, want the lines about tournaments", rep.Text)
	}
	r.refused("c1", "ann", "help juggle", "There is no command \"juggle\": `help` lists every command.")
}
