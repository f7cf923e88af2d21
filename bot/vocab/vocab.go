// Package vocab is the dealer's vocabulary: a Command as the adapters fill it, the Reply it gets, and
// the shape every verb has (its permission, its refusal and Run), so that a feature's package can
// write its verbs without the dealer, and the dealer can run them without knowing the feature.
package vocab

import "github.com/dealerbot/dealerbot/render"

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

// TableID names the table of the command's channel: platform/workspace/channel.
func (c Command) TableID() string { return c.Platform + "/" + c.Workspace + "/" + c.Channel }

// Community names the command's community (a Discord server, a Slack workspace): platform/workspace.
// Money books, payment handles, schedules and leases are kept per community.
func (c Command) Community() string { return c.Platform + "/" + c.Workspace }
