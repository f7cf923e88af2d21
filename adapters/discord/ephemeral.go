package discord

// Hole cards as ephemeral follow-ups (DISCORD_HOLE_CARDS=ephemeral). A DM costs a request of the bot
// token's global limit (50 a second for every process using the token), six per six-player hand;
// a follow-up on an interaction costs none. So the adapter remembers, for each player and channel,
// the player's newest interaction there that has been answered (its token lives 15 minutes), and
// shows the player's private messages from that table as ephemeral follow-ups on it: only that
// player sees them, in the table's channel. When processes share the tables, the process that owns
// a table learns the interactions of the commands other processes forwarded to it (Forwarded), so
// their players' cards follow those too. A player without one (the token expired, or they have not
// touched the table since this process serves it) gets a DM as before.

import (
	"context"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/dealerbot/dealerbot/bot"
)

// tokenUsable is how long after its interaction arrived a token is used for follow-ups: Discord
// keeps it 15 minutes; the last minute is left out, for the clocks and a slow delivery.
const tokenUsable = 14 * time.Minute

// seat is a player in a channel.
type seat struct{ user, channel string }

// live is an answered interaction whose token takes follow-ups, and when it arrived.
type live struct {
	i  *discordgo.Interaction // only AppID, ID and Token are kept
	at time.Time
	// from is when the token may first be used: at once for an interaction this process answered;
	// forwardSettle after a forwarded one was answered here, by when the process that received it
	// has answered Discord. Until then prev, the one before, serves.
	from time.Time
	prev *live
}

// forwardSettle is how long after answering a forwarded command the process that received it has to
// pass the answer on to Discord (it reads the reply from the inbox within milliseconds): a follow-up
// sent before would be refused (10015), or, on a slash command answered with a deferral, would
// replace the "thinking…" message instead of following it.
const forwardSettle = 500 * time.Millisecond

// remember keeps i as its user's newest interaction in its channel, once its first response is
// final (r.kind): a follow-up sent while the response is still a deferred "thinking…" message would
// replace that message instead (Discord keeps this for backwards compatibility), and one on an
// interaction answered with a form has no message to follow.
func (a *Adapter) remember(r *responder) {
	i := r.i
	switch {
	case !r.answered, r.kind == discordgo.InteractionResponseModal, i.Token == "", i.AppID == "", i.ChannelID == "":
		return
	}
	user := ""
	switch {
	case i.Member != nil && i.Member.User != nil:
		user = i.Member.User.ID
	case i.User != nil:
		user = i.User.ID
	}
	if user == "" {
		return
	}
	a.keep(seat{user: user, channel: i.ChannelID}, i, r.at, r.at)
}

var _ bot.Followups = (*Adapter)(nil)

// Forwarded keeps the interaction of a command that another process received and forwarded to this
// one, which owns its table, as the user's newest in the channel (usable forwardSettle from now):
// the user's private messages from the table (hole cards) then follow it ephemerally, as they would
// on the process that received it, instead of going by DM. A form's probe carries none.
func (a *Adapter) Forwarded(cmd bot.Command) {
	app, id, token, ok := parseFollowup(cmd.Followup)
	if !ok || app != a.cfg.AppID || cmd.Platform != "discord" || cmd.User == "" || cmd.Channel == "" {
		return
	}
	now := a.now()
	a.keep(seat{user: cmd.User, channel: cmd.Channel}, &discordgo.Interaction{AppID: app, ID: id, Token: token}, now, now.Add(forwardSettle))
}

// followup is the Command.Followup of interaction i: its application ID, ID and token. A probe has
// none: its interaction is answered with a form, which takes no follow-ups.
func followup(cmd bot.Command, i *discordgo.Interaction) string {
	if cmd.Probe || i.AppID == "" || i.ID == "" || i.Token == "" {
		return ""
	}
	return i.AppID + "/" + i.ID + "/" + i.Token
}

// parseFollowup reads a Command.Followup made by followup.
func parseFollowup(s string) (app, id, token string, ok bool) {
	parts := strings.SplitN(s, "/", 3)
	if len(parts) != 3 || !isSnowflake(parts[0]) || !isSnowflake(parts[1]) || parts[2] == "" {
		return "", "", "", false
	}
	return parts[0], parts[1], parts[2], true
}

// keep makes i, which arrived at and may be used from from, the newest interaction of k unless a
// newer one is kept; the one it replaces serves until from. Expired tokens are swept once a minute.
func (a *Adapter) keep(k seat, i *discordgo.Interaction, at, from time.Time) {
	now := a.now()
	a.mu.Lock()
	defer a.mu.Unlock()
	old := a.tokens[k]
	if old == nil || !old.at.After(at) {
		l := &live{i: &discordgo.Interaction{AppID: i.AppID, ID: i.ID, Token: i.Token}, at: at, from: from}
		if old != nil {
			if now.Before(old.from) {
				old = old.prev // not usable yet itself: what serves until then still does
			}
			if old != nil {
				l.prev = &live{i: old.i, at: old.at, from: old.from} // a chain of two at most
			}
		}
		a.tokens[k] = l
	}
	if now.Sub(a.swept) > time.Minute {
		a.swept = now
		for k, l := range a.tokens {
			if now.Sub(l.at) >= tokenUsable {
				delete(a.tokens, k)
			}
		}
	}
}

// liveToken returns user's newest usable interaction in channel, if any.
func (a *Adapter) liveToken(user, channel string) (*discordgo.Interaction, bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	now := a.now()
	l := a.tokens[seat{user: user, channel: channel}]
	if l != nil && now.Before(l.from) {
		l = l.prev
	}
	if l == nil || now.Before(l.from) || now.Sub(l.at) >= tokenUsable {
		return nil, false
	}
	return l.i, true
}

// forget drops a token Discord refused, unless a newer one has replaced it.
func (a *Adapter) forget(user, channel string, i *discordgo.Interaction) {
	a.mu.Lock()
	defer a.mu.Unlock()
	k := seat{user: user, channel: channel}
	l := a.tokens[k]
	switch {
	case l == nil:
	case l.i.Token == i.Token && l.prev != nil:
		a.tokens[k] = l.prev // the one before may still be good
	case l.i.Token == i.Token:
		delete(a.tokens, k)
	case l.prev != nil && l.prev.i.Token == i.Token:
		l.prev = nil
	}
}

// sendEphemeral shows a private message of m.Channel's table to m.User as ephemeral follow-ups on
// their live interaction there. It returns how many of msgs went out: 0 when the user has no live
// interaction or Discord refused the first (the token is then forgotten), and the caller sends the
// rest by DM. What failed is logged without the text, which may hold cards.
func (a *Adapter) sendEphemeral(ctx context.Context, m bot.Message, msgs []*discordgo.MessageSend) int {
	i, ok := a.liveToken(m.User, m.Channel)
	if !ok {
		return 0
	}
	for n, p := range msgs {
		params := &discordgo.WebhookParams{Content: p.Content, Components: p.Components, AllowedMentions: usersOnly,
			Flags: discordgo.MessageFlagsEphemeral}
		if _, err := a.session.FollowupMessageCreate(i, true, params, discordgo.WithContext(ctx)); err != nil {
			a.forget(m.User, m.Channel, i)
			a.log.Warn("a private message could not follow the player's interaction; it goes by DM", "user", m.User,
				"channel", m.Channel, "interaction", i.ID, "err", err)
			return n
		}
	}
	return len(msgs)
}
