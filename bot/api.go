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
	"github.com/dealerbot/dealerbot/render"
)

// Command is one request from a user on any platform. Adapters fill it from slash commands, typed text
// and button clicks; the bot never sees platform types.
type Command struct {
	Platform  string // "console", "discord", "slack"
	Workspace string // Discord guild or Slack team; bankrolls are kept per workspace
	Channel   string // the table's channel
	User      string // platform user ID
	UserName  string // display name, for messages
	Admin     bool   // the user administers the server or workspace
	// Text is the command line without any prefix: "raise 60", "join 1000", "start variant=pot-limit".
	Text string
	// Token is the button token when the command came from a click; the bot refuses stale tokens.
	Token string
	// Schedule is set when the scheduler sends the command for one of its schedules: it then acts
	// with that schedule's authority, which opens a table (start) and ends or manages only the table
	// that schedule opened, not that of the schedule's host or an admin.
	Schedule string
	// Probe asks only whether the user may take this action now, before an adapter opens a form for
	// its amount: the reply is an error (not your turn, a stale button, not seated...) or empty, and
	// nothing changes either way.
	Probe bool
	// Message is the ID of the channel message whose button was clicked, when the platform can update
	// that message through the click's own response: the dealer then answers with Reply.Update.
	Message string
	// ID is the platform's ID of this delivery (a Discord interaction, a Slack trigger or event):
	// the same delivery arriving twice (a retry, a resend, at two processes) changes the table once.
	// Empty: no such ID.
	ID string `json:",omitempty"`
	// Followup is the platform's handle on this delivery for private messages that follow it (Discord:
	// the interaction's application ID, ID and token, which take ephemeral follow-ups for 15 minutes),
	// set by the adapter that received the command. The dealer does not read it: a command forwarded
	// to the process that owns its table carries it through the inbox, and that process hands it to
	// its own adapter (Followups), which has not seen the interaction. It is a short-lived credential:
	// never log it.
	Followup string `json:",omitempty"`
	// EndCommunity, set only by the dealer itself (never by an adapter), asks the process that owns
	// the command's community to end every table there (Dealer.EndCommunity), for the reason given:
	// it travels through the inbox like a player's command when another process owns the community.
	EndCommunity string `json:",omitempty"`
	// Forwarded, set only by the dealer itself, marks a command this process applies for another
	// that received it (from the store's inbox): it was rate-limited and counted there, and is not
	// forwarded again.
	Forwarded bool `json:"-"`
	// Inbox, set only by the dealer itself, is the inbox number of a forwarded command being applied:
	// the step it causes stores its reply in the same transaction (table.Change.Answer), so the
	// sender learns the truth even when the owner dies before it answers.
	Inbox int64 `json:"-"`
}

// Reply is the private answer to the user who sent a command: an error or a confirmation. Adapters show
// it ephemerally. Extra holds private messages that could not be delivered by DM earlier (hole cards),
// for platforms that can only deliver them as ephemeral replies.
type Reply struct {
	Text    string
	IsError bool
	Buttons []render.Button
	Extra   []render.Message
	// Files are documents for the user alone (an export of their hands): adapters attach them to a
	// private message (Discord: an ephemeral follow-up; Slack: a file in the user's DM).
	Files []render.File
	// Update is the new version of the message the click came from (Command.Message), to be shown
	// through the click's response (Discord: an update of the message; Slack: the response_url with
	// replace_original). It costs no channel rate limit.
	Update *render.Message
}

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
