package vocab

import (
	"context"
	"log/slog"
	"time"

	"github.com/dealerbot/dealerbot/render"
)

// Need is what a verb requires of the user and the channel. The dealer's gate checks it before the
// verb runs, so each permission rule lives in one place and no verb checks it again.
type Need uint8

const (
	Unset       Need = iota // no need written: the dealer refuses to register the verb
	Anyone                  // workspace-wide: runs without a table goroutine
	Admin                   // workspace-wide, for a server or workspace admin
	ChannelHost             // workspace-wide, for an admin or the host of the table open in the channel
	Holder                  // workspace-wide, for an admin or whoever holds what the command names (Verb.Holder)
	Table                   // runs on the channel's table goroutine (start, which opens the table), like every need after it
	Open                    // an open table
	Seat                    // a seat at the open table
	SeatOrHost              // a seat at the open table, or its host or an admin (deal)
	Host                    // the table's host or an admin
)

// Verb is one entry of the registry: what it needs, the refusal for a user who lacks it, and what
// runs it.
type Verb struct {
	Need Need
	// Refusal completes the sentence for a user who lacks the need: "You are not seated at this
	// table: <refusal>", "Only the host (name) or an admin can <refusal>.", "Only Ann, who hosts
	// schedule 3, or an admin can <refusal>."
	Refusal string
	// Holder finds who holds what a Holder verb names (the host of the schedule its ID names), or
	// refuses with a sentence when it names nothing there.
	Holder func(ctx context.Context, cmd Command, args []string) (Holding, error)
	// HostToo marks a verb whose answer depends on whether the user is an admin or the host, though
	// anyone may run it (debts lists every debt for them), so that adapters ask who is an admin.
	HostToo bool
	// Served marks a workspace-wide verb that writes what its community's owner works on (a
	// schedule): when processes share the store it runs only where the community is served,
	// forwarded there like a table's command, its writes fenced by that process's lease.
	Served bool
	Runner
}

// Holding is who may run a Holder verb besides an admin: the user, their name, and what they hold,
// for the refusal ("schedule 3").
type Holding struct{ User, Name, Of string }

// Runner runs a verb: cmd is the command, args its words after the verb's name.
type Runner interface {
	Run(ctx context.Context, env Env, cmd Command, args []string) (Reply, error)
}

// Func adapts a function to a Runner, as http.HandlerFunc does.
type Func func(ctx context.Context, env Env, cmd Command, args []string) (Reply, error)

// Run calls f.
func (f Func) Run(ctx context.Context, env Env, cmd Command, args []string) (Reply, error) {
	return f(ctx, env, cmd, args)
}

// Text is a Runner that answers with a fixed text (a help page).
type Text string

// Run answers with t.
func (t Text) Run(context.Context, Env, Command, []string) (Reply, error) {
	return Reply{Text: string(t)}, nil
}

// Env is the little a verb needs from the dealer that runs it. A feature's verbs get their store when
// they are made; everything else of the dealer's comes through here.
type Env interface {
	// Now is the dealer's clock.
	Now() time.Time
	// Log receives what the verb logs.
	Log() *slog.Logger
	// Key names the request for the store's applied-once keys: the platform's delivery ID when
	// there is one, else a key of this process's own, never given twice.
	Key(cmd Command) string
	// Landed reads back whether the write applied under key landed when its answer was lost (cause
	// wraps the store's outcome-unknown error): nil when it did, an error saying nothing changed when
	// it did not, cause when the store cannot tell yet.
	Landed(key string, cause error) error
	// Style is how cards are drawn on platform with a table's card setting.
	Style(platform string, cards render.CardKind) render.CardStyle
	// Tell sends user a private message because of cmd (a DM, or the platform's private message in
	// the channel when DMs are closed).
	Tell(ctx context.Context, cmd Command, user string, m render.Message)
	// Zone is the local time zone of cmd's channel: its schedule's, else the schedules' default,
	// else UTC (dates in exports and stats periods are read in it).
	Zone(ctx context.Context, cmd Command) *time.Location
	// Serves reports whether this process answers for community (always, unless several processes
	// share the store and another one serves it).
	Serves(community string) bool
	// Post posts m in cmd's channel. prompt, when set, names what m's buttons answer (a schedule's
	// RSVP): a newer post with the same prompt takes the older one's buttons off. key, when set,
	// names the post: the same key again is the same post sent again (after a crash), which the
	// chat shows once where the platform can tell (bot.Message.Key).
	Post(ctx context.Context, cmd Command, prompt, key string, m render.Message) error
	// Fence returns the context a feature's writes for community are made with (carrying this
	// process's lease when processes share the store), and false when this process does not serve
	// the community (or not yet).
	Fence(ctx context.Context, community string) (context.Context, bool)
	// Do runs cmd as a part of the command being answered (counted once, as that one came in) and
	// returns its reply: `set` hands the table's settings to the table's own verb this way.
	Do(ctx context.Context, cmd Command) Reply
}

// Verbs are a feature's verbs by name. A name of two words ("schedule add") is looked up before its
// first word alone. The dealer registers every feature's (bot.Config.Verbs) beside the table's own.
type Verbs map[string]Verb
