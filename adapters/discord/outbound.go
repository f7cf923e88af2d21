package discord

// The bot.Chat side: the dealer's messages going out. Public ones are posted to their channel (Send,
// and Post, Edit and Delete for the hand's table message, with its picture when the channel allows
// it); private ones go by DM, or as ephemeral follow-ups (ephemeral.go). A post whose buttons the
// dealer named takes them off the older post that offered the same thing (supersede).

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/dealerbot/dealerbot/bot"
)

var _ bot.Chat = (*Adapter)(nil)

// Send delivers a dealer message: a public one is posted to its channel, a private one is sent by DM
// to m.User. It returns bot.ErrDMBlocked when the user does not accept DMs from the bot.
func (a *Adapter) Send(ctx context.Context, m bot.Message) error {
	msgs, err := ChannelMessages(m.Message)
	if err != nil {
		a.log.Warn("message sent without some buttons", "err", err)
	}
	if m.Private {
		if a.cfg.EphemeralCards && m.Channel != "" {
			msgs = msgs[a.sendEphemeral(ctx, m, msgs):]
			if len(msgs) == 0 {
				return nil
			}
		}
		return a.sendDM(ctx, m.User, msgs)
	}
	if m.Channel == "" {
		return errors.New("discord: a public message needs a channel")
	}
	var last *discordgo.Message
	for i, p := range msgs {
		var err error
		if m.Key != "" && len(p.Files) == 0 && p.File == nil {
			last, err = a.postOnce(ctx, m.Channel, p, nonce(m.Key, i))
		} else {
			last, err = a.session.ChannelMessageSendComplex(m.Channel, p, discordgo.WithContext(ctx))
		}
		if err != nil {
			return fmt.Errorf("discord: post to channel %s: %w", m.Channel, err)
		}
	}
	if last != nil && m.Prompt != "" && len(m.Buttons) > 0 {
		a.supersede(m.Channel, prompt{id: last.ID, name: m.Prompt})
	}
	return nil
}

// onceSend is a message create that Discord makes once per nonce: with enforce_nonce, a create with
// a nonce the bot used in the channel in the past few minutes returns that message and creates none
// (discordgo's MessageSend has no field for either).
type onceSend struct {
	*discordgo.MessageSend
	Nonce        string `json:"nonce"`
	EnforceNonce bool   `json:"enforce_nonce"`
}

// postOnce creates p in channel once per nonce (a post sent again after a crash shows once).
func (a *Adapter) postOnce(ctx context.Context, channel string, p *discordgo.MessageSend, nonce string) (*discordgo.Message, error) {
	endpoint := discordgo.EndpointChannelMessages(channel)
	body, err := a.session.RequestWithBucketID("POST", endpoint, onceSend{MessageSend: p, Nonce: nonce, EnforceNonce: true}, endpoint, discordgo.WithContext(ctx))
	if err != nil {
		return nil, err
	}
	var msg discordgo.Message
	if err := json.Unmarshal(body, &msg); err != nil {
		return nil, fmt.Errorf("discord: the answer to a post: %w", err)
	}
	return &msg, nil
}

// nonce is the nonce of part i of the post keyed key: Discord takes up to 25 characters, so a longer
// one is a hash of it.
func nonce(key string, i int) string {
	n := key
	if i > 0 {
		n += "." + strconv.Itoa(i)
	}
	if len(n) > 25 {
		sum := sha256.Sum256([]byte(n))
		n = hex.EncodeToString(sum[:])[:25]
	}
	return n
}

// Post creates the channel message m (the hand's table) and returns its ID. It blocks while the
// channel's rate limit lasts; the dealer calls it from a writer of its own.
func (a *Adapter) Post(ctx context.Context, m bot.Message) (string, error) {
	send, err := TableMessage(m.Message)
	if err != nil {
		a.log.Warn("table message sent without some buttons", "err", err)
	}
	var picErr error
	if m.Picture != nil && a.picturesAllowed(m.Channel) {
		id, err := a.withPicture(ctx, "POST", m.Channel, "", send, m.Picture)
		if err == nil {
			return id, nil
		}
		picErr = err
	}
	msg, err := a.session.ChannelMessageSendComplex(m.Channel, send, discordgo.WithContext(ctx))
	if err != nil {
		return "", fmt.Errorf("discord: post to channel %s: %w", m.Channel, denied(err))
	}
	if picErr != nil {
		a.pictureFailed(m.Channel, picErr)
	}
	return msg.ID, nil
}

// denied marks a refusal of the channel itself (403: Missing Access, Missing Permissions) with
// bot.ErrCannotPost, so the dealer tells the table's host what to give the bot.
func denied(err error) error {
	if status(err) == http.StatusForbidden {
		return fmt.Errorf("%w (%v)", bot.ErrCannotPost, err)
	}
	return err
}

// Delete removes channel message id (a turn ping whose turn has passed).
func (a *Adapter) Delete(ctx context.Context, m bot.Message, id string) error {
	if err := a.session.ChannelMessageDelete(m.Channel, id, discordgo.WithContext(ctx)); err != nil {
		return fmt.Errorf("discord: delete message %s in channel %s: %w", id, m.Channel, err)
	}
	return nil
}

// Edit replaces channel message id with m (a timer or a typed command changed the table).
func (a *Adapter) Edit(ctx context.Context, m bot.Message, id string) error {
	send, err := TableMessage(m.Message)
	if err != nil {
		a.log.Warn("table message sent without some buttons", "err", err)
	}
	var picErr error
	if m.Picture != nil && a.picturesAllowed(m.Channel) {
		_, err := a.withPicture(ctx, "PATCH", m.Channel, id, send, m.Picture)
		if err == nil {
			return nil
		}
		picErr = err
	}
	_, err = a.session.ChannelMessageEditComplex(&discordgo.MessageEdit{ID: id, Channel: m.Channel, Content: &send.Content,
		Components: &send.Components, AllowedMentions: send.AllowedMentions}, discordgo.WithContext(ctx))
	if err != nil {
		var re *discordgo.RESTError
		if errors.As(err, &re) && re.Message != nil && re.Message.Code == errCodeOldMessageEdits {
			// Waiting would not help for long: the dealer posts the table anew instead.
			return fmt.Errorf("discord: edit message %s in channel %s: %w (%v)", id, m.Channel, bot.ErrRepost, err)
		}
		return fmt.Errorf("discord: edit message %s in channel %s: %w", id, m.Channel, denied(err))
	}
	if picErr != nil {
		a.pictureFailed(m.Channel, picErr)
	}
	return nil
}

// errCodeOldMessageEdits is Discord's error for too many edits of a message older than an hour.
const errCodeOldMessageEdits = 30046

// pictureBackoff is how long a channel that refused a picture for lack of permission (403, Missing
// Permissions) gets none: every 403 counts toward Discord's invalid-request limit (10,000 in ten
// minutes bans the bot's IP for an hour), so the bot does not ask again at every showdown.
const pictureBackoff = 30 * time.Minute

// picturesAllowed reports whether a picture may be tried in channel now.
func (a *Adapter) picturesAllowed(channel string) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.now().After(a.noPics[channel])
}

// pictureFailed notes why a picture could not be sent with a table message in channel, once the
// message itself went through without it: a missing permission (Attach Files, then) stops pictures
// there for pictureBackoff, said in the log with what to do.
func (a *Adapter) pictureFailed(channel string, err error) {
	if status(err) == http.StatusForbidden {
		a.mu.Lock()
		if a.noPics == nil {
			a.noPics = map[string]time.Time{}
		}
		a.noPics[channel] = a.now().Add(pictureBackoff)
		a.mu.Unlock()
		a.log.Warn("showdown pictures are off in this channel for 30 minutes: the bot lacks the Attach Files permission there; "+
			"give it Attach Files (Server Settings > Roles, or the channel's Permissions) or invite it again with the logged link",
			"channel", channel, "err", err)
		return
	}
	a.log.Warn("table message sent without its picture", "channel", channel, "err", err)
}

// prompt is a channel post whose buttons the dealer named (bot.Message.Prompt).
type prompt struct {
	id   string
	name string
}

// maxPrompts is how many posts with live buttons are remembered per channel.
const maxPrompts = 8

// supersede remembers a new post with named buttons and takes the buttons off the older post in the
// channel that had the same name: the dealer says which posts offer the same thing again (a
// schedule's reminder, its announcement's RSVP buttons); only the adapter knows the posts' IDs. (Turn
// buttons live on the hand's table message, which is edited in place and never goes through here.)
// The dealer refuses stale clicks anyway; this only keeps the channel from showing redundant
// buttons. It runs in the background: it is cosmetic and must not slow the dealer down.
func (a *Adapter) supersede(channel string, p prompt) {
	a.mu.Lock()
	defer a.mu.Unlock()
	var keep []prompt
	var stale []string
	for _, old := range a.prompts[channel] {
		if old.name == p.name {
			stale = append(stale, old.id)
		} else {
			keep = append(keep, old)
		}
	}
	keep = append(keep, p)
	if len(keep) > maxPrompts {
		keep = keep[len(keep)-maxPrompts:]
	}
	a.prompts[channel] = keep
	if a.closing {
		return
	}
	for _, id := range stale {
		a.cleanups.Add(1)
		go func() {
			defer a.cleanups.Done()
			none := []discordgo.MessageComponent{}
			_, err := a.session.ChannelMessageEditComplex(&discordgo.MessageEdit{ID: id, Channel: channel, Components: &none},
				discordgo.WithContext(a.base))
			if err != nil {
				a.log.Warn("remove stale buttons", "channel", channel, "message", id, "err", err)
			}
		}()
	}
}

// How long a user whose DMs are closed gets no DM attempts; after that, one more try (they may have
// opened their DMs in the meantime).
const dmRetryAfter = 30 * time.Minute

func (a *Adapter) sendDM(ctx context.Context, user string, msgs []*discordgo.MessageSend) error {
	if user == "" {
		return errors.New("discord: a private message needs a user")
	}
	a.mu.Lock()
	blockedAt, blocked := a.dmBlocked[user]
	a.mu.Unlock()
	if blocked && a.now().Sub(blockedAt) < dmRetryAfter {
		return bot.ErrDMBlocked
	}
	ch, opened, err := a.dmChannelOf(ctx, user, false)
	if err != nil {
		return err
	}
	for n, p := range msgs {
		_, err := a.session.ChannelMessageSendComplex(ch, p, discordgo.WithContext(ctx))
		if err != nil && n == 0 && !opened && code(err) == discordgo.ErrCodeUnknownChannel {
			// The channel kept from before is gone: open it again, once.
			if ch, _, err = a.dmChannelOf(ctx, user, true); err != nil {
				return err
			}
			_, err = a.session.ChannelMessageSendComplex(ch, p, discordgo.WithContext(ctx))
		}
		if err != nil {
			return a.dmFailed(user, fmt.Errorf("discord: DM user %s: %w", user, err))
		}
	}
	if blocked {
		a.mu.Lock()
		delete(a.dmBlocked, user)
		a.mu.Unlock()
	}
	return nil
}

// dmChannelOf returns user's DM channel: the one known in memory or kept in the store, or else
// (or with fresh) a newly opened one, then kept in both; opened reports that it was just opened. A
// store that cannot be read or written costs only an extra request: it is logged and passed over.
func (a *Adapter) dmChannelOf(ctx context.Context, user string, fresh bool) (ch string, opened bool, err error) {
	if !fresh {
		a.mu.Lock()
		ch = a.dmChannel[user]
		a.mu.Unlock()
		if ch == "" && a.dms != nil {
			kept, ok, err := a.dms.DMChannel(ctx, "discord", user)
			if err != nil {
				a.log.Warn("the DM channels kept in the database could not be read", "user", user, "err", err)
			}
			if ok {
				ch = kept
			}
		}
		if ch != "" {
			a.mu.Lock()
			a.dmChannel[user] = ch
			a.mu.Unlock()
			return ch, false, nil
		}
	}
	c, err := a.session.UserChannelCreate(user, discordgo.WithContext(ctx))
	if err != nil {
		return "", false, a.dmFailed(user, fmt.Errorf("discord: open a DM with user %s: %w", user, err))
	}
	a.mu.Lock()
	a.dmChannel[user] = c.ID
	a.mu.Unlock()
	if a.dms != nil {
		if err := a.dms.PutDMChannel(ctx, "discord", user, c.ID); err != nil {
			a.log.Warn("a DM channel could not be kept in the database; a restart opens it again", "user", user, "err", err)
		}
	}
	return c.ID, true, nil
}

// code is Discord's JSON error code in err, 0 when there is none.
func code(err error) int {
	var re *discordgo.RESTError
	if errors.As(err, &re) && re.Message != nil {
		return re.Message.Code
	}
	return 0
}

// dmFailed turns Discord's "cannot send messages to this user" into bot.ErrDMBlocked and remembers
// the user, so the next private message does not try again right away.
func (a *Adapter) dmFailed(user string, err error) error {
	var rest *discordgo.RESTError
	if errors.As(err, &rest) && rest.Message != nil && rest.Message.Code == discordgo.ErrCodeCannotSendMessagesToThisUser {
		a.mu.Lock()
		a.dmBlocked[user] = a.now()
		a.mu.Unlock()
		a.log.Info("user does not accept DMs; private messages go with their next reply", "user", user)
		return bot.ErrDMBlocked
	}
	return err
}
