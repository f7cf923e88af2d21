package discord

// Hole cards as ephemeral follow-ups (DISCORD_HOLE_CARDS=ephemeral). A DM costs a request of the bot
// token's global limit (50 a second for every process using the token), six per six-player hand;
// a follow-up on an interaction costs none. So the adapter remembers, for each player and channel,
// the player's newest interaction there that has been answered (its token lives 15 minutes), and
// shows the player's private messages from that table as ephemeral follow-ups on it: only that
// player sees them, in the table's channel. A player without one (the token expired, or they have
// not touched the table yet in this process) gets a DM as before.

import (
	"context"
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
}

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
	now := a.now()
	k := seat{user: user, channel: i.ChannelID}
	a.mu.Lock()
	defer a.mu.Unlock()
	if old, ok := a.tokens[k]; !ok || !old.at.After(r.at) {
		a.tokens[k] = live{i: &discordgo.Interaction{AppID: i.AppID, ID: i.ID, Token: i.Token}, at: r.at}
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
	l, ok := a.tokens[seat{user: user, channel: channel}]
	if !ok || a.now().Sub(l.at) >= tokenUsable {
		return nil, false
	}
	return l.i, true
}

// forget drops a token Discord refused, unless a newer one has replaced it.
func (a *Adapter) forget(user, channel string, i *discordgo.Interaction) {
	a.mu.Lock()
	defer a.mu.Unlock()
	k := seat{user: user, channel: channel}
	if l, ok := a.tokens[k]; ok && l.i.Token == i.Token {
		delete(a.tokens, k)
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
