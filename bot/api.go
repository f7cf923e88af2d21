// Package bot is the dealer: it turns commands from any chat platform into engine actions, keeps one
// table per channel, persists everything through a Store before telling the channel, and sends
// messages back through a Chat.
package bot

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"time"

	"github.com/dealerbot/dealerbot/bot/errs"
	"github.com/dealerbot/dealerbot/bot/vocab"
	"github.com/dealerbot/dealerbot/render"
)

// Command is one request from a user on any platform (vocab.Command).
type Command = vocab.Command

// Reply is the private answer to the user who sent a command (vocab.Reply).
type Reply = vocab.Reply

// Message is a message for a channel or, when Private, for one user.
type Message struct {
	Platform  string // the table's platform, so one process can serve Discord and Slack at once
	Workspace string
	Channel   string
	User      string // the recipient of a private message
	// Prompt, on a channel post with buttons, names what its buttons answer (a schedule's RSVP): a
	// newer post in the channel with the same Prompt offers them again, so the older post's are
	// redundant, and an adapter that can edit its posts takes them off. What replaces what is the
	// dealer's to say; the adapter only knows the posts' IDs. Empty: the buttons stand alone.
	Prompt string `json:",omitempty"`
	// Key, on a channel post, names it: a post sent again under the same key is the same post sent
	// again (a schedule's announcement after a crash between sending it and saving that it went
	// out). An adapter that can tell shows it once: Discord by the message's nonce (within the few
	// minutes Discord keeps one), the console by the keys it printed since it started. Slack has no
	// such key and posts it again. Empty: every send posts.
	Key string `json:",omitempty"`
	render.Message
}

// Chat delivers messages. Send posts a channel message or a private one; it returns ErrDMBlocked when
// a private message cannot be delivered to the user directly, and the bot then falls back to the
// platform's private-in-channel message.
//
// Each hand is one table message, created with Post and kept up to date with Edit as the hand goes
// on, rather than a post per action; a turn ping (a short mention post) for a player who has not acted
// a while after their turn was shown is taken down with Delete when the turn passes. Send, Post and
// Edit may block while the platform's rate limit lasts: the dealer calls them from a writer of its
// own, never from a table's goroutine (private messages excepted).
type Chat interface {
	Send(ctx context.Context, m Message) error
	// Post creates a channel message and returns its ID.
	Post(ctx context.Context, m Message) (id string, err error)
	// Edit replaces channel message id with m.
	Edit(ctx context.Context, m Message, id string) error
	// Delete removes channel message id (m names the channel).
	Delete(ctx context.Context, m Message, id string) error
}

// Finding is one line of an adapter's health check (`dealerbot check`): what was checked, and when
// something is missing, what to click to fix it.
type Finding struct {
	OK   bool
	Text string
}

// Ephemeral is an optional Chat capability: a private message shown inside the channel (Slack's
// chat.postEphemeral). Platforms without it get undeliverable private messages on the user's next reply.
type Ephemeral interface {
	SendEphemeral(ctx context.Context, m Message) error
}

// Followups is an optional Chat: one that can send a user's private messages after a command of
// theirs that another process received (Command.Followup), the way it does after one it received
// itself. The dealer calls Forwarded with each forwarded command it has answered.
type Followups interface {
	Forwarded(cmd Command)
}

// ErrDMBlocked is returned by Chat.Send when the user does not accept direct messages.
var ErrDMBlocked = errors.New("the user does not accept direct messages")

// Handler runs a command and returns the private reply; *Dealer is one. Adapters hold a Handler
// rather than a *Dealer, so that their tests may script the dealer.
type Handler interface {
	Handle(ctx context.Context, cmd Command) Reply
}

var _ Handler = (*Dealer)(nil)

// Form is what to do with a click on a button that asks for an amount (render.Button.Amount): open
// the form for the amount, or show the user why not (ProbeForm).
type Form struct {
	// Open: show the form. Otherwise Refusal, when it has text, is the reply to show the user
	// privately instead (not their turn, a button from an earlier turn, not seated...); nothing changed.
	Open    bool
	Refusal Reply
	// Late: the dealer had not answered within the wait; the form opens all the same (Open is set).
	Late bool
	// Panic: the dealer panicked while answering, with the stack, for the adapter's log; Refusal is
	// then the apology.
	Panic error
}

// ProbeForm settles a click on an amount button before its form opens: it asks h, with cmd as a
// probe (Command.Probe: nothing changes), whether cmd's user may take cmd's action now, so that anyone
// but the player to act, or a click on an old button, is told why instead of being shown a form. A
// platform wants the form as the click's first response within seconds (Discord 3, Slack's trigger
// 3), so the dealer gets at most wait to answer: a dealer still busy then does not hold the form up
// (Late), and the submitted amount is judged like any command. When ctx ends first, the form does
// not open and there is nothing to show.
//
// This is the one place the race is written; Discord and Slack both call it.
func ProbeForm(ctx context.Context, h Handler, cmd Command, wait time.Duration) Form {
	cmd.Probe = true
	pctx, cancel := context.WithCancel(ctx)
	// A dealer still busy with the probe when the wait is over drops it; its late answer goes into
	// done, which nobody reads then, and is dropped.
	defer cancel()
	done := make(chan Form, 1)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				done <- Form{Refusal: Reply{Text: errs.Apology, IsError: true}, Panic: fmt.Errorf("panic while probing %q: %v\n%s", cmd.Text, p, debug.Stack())}
			}
		}()
		r := h.Handle(pctx, cmd)
		if r.IsError {
			done <- Form{Refusal: Reply{Text: r.Text, IsError: true}}
			return
		}
		done <- Form{Open: true}
	}()
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case f := <-done:
		return f
	case <-t.C:
		return Form{Open: true, Late: true}
	case <-ctx.Done():
		return Form{}
	}
}
