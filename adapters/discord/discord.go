// Package discord connects dealerbot to Discord: it registers one /poker slash command, turns
// interactions (commands, button clicks, amount forms) into bot.Commands, and delivers the dealer's
// messages as channel posts, ephemeral replies and DMs. It only translates; the game is in package bot.
// Interactions arrive over the gateway or, with DISCORD_PUBLIC_KEY, as signed HTTP requests at the
// Interactions Endpoint (http.go); both go through the same handling, only the first response
// travels differently. Every REST request passes through the adapter's transport (transport.go): to
// a shared rate-limit proxy (DISCORD_REST_PROXY), within this process's share of the bot token's
// global limit (DISCORD_GLOBAL_SHARE). Hole cards may follow the player's own interaction instead of
// a DM (DISCORD_HOLE_CARDS=ephemeral, ephemeral.go).
//
// Use:
//
//	a, err := discord.New(cfg, logger,
//		discord.WithMetrics(m),      // rate-limit waits and 429s
//		discord.WithStore(store))    // DM channels kept across restarts
//	d, err := bot.New(store, a, botConfig) // the adapter is the dealer's Chat
//	a.SetDealer(d)
//	a.Routes(mux)                          // POST /discord/interactions, when DISCORD_PUBLIC_KEY is set
//	err = a.Open(ctx)                      // connect (unless DISCORD_GATEWAY=off), register /poker, log the invite URL
//	...
//	a.Close(ctx)                           // finish interactions in flight, disconnect
package discord

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/dealerbot/dealerbot/bot"
	"github.com/dealerbot/dealerbot/bot/errs"
	"github.com/dealerbot/dealerbot/render"
)

// How long a user whose DMs are closed gets no DM attempts; after that, one more try (they may have
// opened their DMs in the meantime).
const dmRetryAfter = 30 * time.Minute

// An interaction token lives 15 minutes; a command still running after this long gives up.
const interactionTimeout = 14 * time.Minute

// probeTimeout is how long a click on an amount button (Raise…) waits for the dealer to say whether
// the user may act before the form opens anyway. The form must be the first response (it cannot
// follow a deferral) and Discord wants that within 3 s of the click; a second of probing leaves the
// rest for a slow network. The submitted form is checked by the dealer in any case.
const probeTimeout = time.Second

// Adapter is a connection to Discord. It implements bot.Chat.
type Adapter struct {
	cfg     Config
	log     *slog.Logger
	session *discordgo.Session
	now     func() time.Time

	mu        sync.Mutex
	handler   bot.Handler
	probeWait time.Duration // probeTimeout; shorter in tests
	// deferAfter is how long an interaction that came to the Interactions Endpoint waits for the
	// dealer before its HTTP response is a deferral (httpDeferAfter; shorter in tests).
	deferAfter time.Duration
	key        ed25519.PublicKey    // DISCORD_PUBLIC_KEY; nil when the endpoint is not served
	seen       *replayCache         // signatures of the endpoint's recent requests
	dmChannel  map[string]string    // user ID -> DM channel ID
	dmBlocked  map[string]time.Time // user ID -> when a DM last failed with 50007
	prompts    map[string][]prompt  // channel ID -> recent posts with live buttons the dealer named (Prompt), oldest first
	closing    bool
	inflight   sync.WaitGroup // interactions being handled (begin, end)
	busy       atomic.Int64   // inflight's count, which Close reports and tests wait to see reach 0
	cleanups   sync.WaitGroup // superseded buttons being removed
	syncing    sync.WaitGroup // the card emoji sync; stopped by cancel
	base       context.Context
	cancel     context.CancelFunc
	remove     func()
	emojis     cardEmojis
	noPics     map[string]time.Time // channel ID -> until when pictures are not tried there (403: no Attach Files)

	rest    *restTransport // Session.Client's transport: the proxy and this process's share of the global limit
	metrics *bot.Metrics   // rate-limit waits and 429s; nil records nothing
	dms     bot.DMChannels // DM channels kept across restarts; nil: kept in memory only
	tokens  map[seat]*live // the newest answered interaction of each player in each channel
	swept   time.Time      // when tokens was last cleared of expired ones
}

// Option configures an Adapter in New.
type Option func(*Adapter)

// WithMetrics counts the REST requests that waited for this process's share of the global limit and
// the 429s Discord answered (discordgo then waits and retries), in the dealer's metrics.
func WithMetrics(m *bot.Metrics) Option { return func(a *Adapter) { a.metrics = m } }

// WithStore keeps the users' DM channels in s when it offers bot.DMChannels, so that a restart does
// not open them again; any other store changes nothing.
func WithStore(s bot.Store) Option {
	return func(a *Adapter) {
		if d, ok := s.(bot.DMChannels); ok {
			a.dms = d
		}
	}
}

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

var _ bot.Chat = (*Adapter)(nil)

// New makes an adapter for cfg; it does not connect yet. A nil logger logs through slog.Default.
func New(cfg Config, logger *slog.Logger, opts ...Option) (*Adapter, error) {
	if !cfg.Enabled() {
		return nil, errors.New("discord: DISCORD_TOKEN is not set")
	}
	if logger == nil {
		logger = slog.Default()
	}
	s, err := discordgo.New("Bot " + cfg.Token)
	if err != nil {
		return nil, fmt.Errorf("discord: %w", err)
	}
	// Interactions arrive whatever the intents; ask for as little as possible.
	s.Identify.Intents = discordgo.IntentsGuilds
	if cfg.ShardCount > 1 {
		s.ShardID, s.ShardCount = cfg.ShardID, cfg.ShardCount
	}
	s.StateEnabled = false
	base, cancel := context.WithCancel(context.Background())
	a := &Adapter{
		cfg:        cfg,
		log:        logger.With("adapter", "discord"),
		session:    s,
		now:        time.Now,
		dmChannel:  map[string]string{},
		dmBlocked:  map[string]time.Time{},
		prompts:    map[string][]prompt{},
		probeWait:  probeTimeout,
		deferAfter: httpDeferAfter,
		base:       base,
		cancel:     cancel,
		emojis:     cardEmojis{done: make(chan struct{})},
		tokens:     map[seat]*live{},
	}
	for _, o := range opts {
		o(a)
	}
	a.rest = &restTransport{next: http.DefaultTransport}
	if cfg.RESTProxy != "" {
		if a.rest.proxy, err = url.Parse(cfg.RESTProxy); err != nil {
			return nil, fmt.Errorf("discord: DISCORD_REST_PROXY: %w", err)
		}
	}
	if n := cfg.globalPerSecond(); n > 0 {
		a.rest.share = newShare(n, func() { a.metrics.RateLimited("discord", false) })
	}
	s.Client = &http.Client{Timeout: restTimeout, Transport: a.rest}
	if cfg.Endpoint() {
		if a.key = cfg.publicKey(); a.key == nil {
			return nil, errors.New("discord: DISCORD_PUBLIC_KEY is not a hex Ed25519 public key")
		}
		a.seen = newReplayCache(signatureWindow, maxSeenSignatures)
	}
	removeInteractions := s.AddHandler(a.onInteraction)
	// discordgo emits a RateLimit event when Discord answered 429 and it is about to wait and retry.
	removeLimits := s.AddHandler(func(_ *discordgo.Session, _ *discordgo.RateLimit) { a.metrics.RateLimited("discord", true) })
	a.remove = func() { removeInteractions(); removeLimits() }
	return a, nil
}

// restTimeout bounds one REST request, a wait for this process's share of the global limit
// included (discordgo's own default is 20 s).
const restTimeout = 20 * time.Second

// SetDealer tells the adapter where to send commands. Until it is called, interactions are answered
// with "not ready".
func (a *Adapter) SetDealer(h bot.Handler) {
	a.mu.Lock()
	a.handler = h
	a.mu.Unlock()
}

// Open connects to the gateway (unless DISCORD_GATEWAY=off), registers /poker (on DISCORD_GUILD_ID
// if set, else globally; only shard 0 registers), logs the invite URL and starts the card emoji sync.
// The Interactions Endpoint is served apart from it (Routes).
func (a *Adapter) Open(ctx context.Context) error {
	if !a.cfg.GatewayOff {
		if err := a.session.Open(); err != nil {
			return fmt.Errorf("discord: connect to the gateway: %w", err)
		}
	}
	// First the link: a bot not yet in DISCORD_GUILD_ID's server cannot register its command there.
	a.log.Info("invite the bot to a server with this link", "url", a.cfg.InviteURL())
	if a.cfg.ShardID == 0 {
		if _, err := a.session.ApplicationCommandBulkOverwrite(a.cfg.AppID, a.cfg.GuildID, Commands(), discordgo.WithContext(ctx)); err != nil {
			a.session.Close()
			var re *discordgo.RESTError
			if a.cfg.GuildID != "" && errors.As(err, &re) && re.Message != nil && re.Message.Code == discordgo.ErrCodeMissingAccess {
				return fmt.Errorf("discord: /%s could not be registered on server %s because the bot is not in it yet: "+
					"open the invite link logged above, add the bot to that server and start dealerbot again "+
					"(or check DISCORD_GUILD_ID, or leave it empty to register the command globally)", CommandName, a.cfg.GuildID)
			}
			return fmt.Errorf("discord: register /%s: %w", CommandName, err)
		}
	}
	where := "globally (new commands can take up to an hour to appear)"
	if a.cfg.GuildID != "" {
		where = "on server " + a.cfg.GuildID
	}
	switch {
	case a.cfg.GatewayOff:
		a.log.Info("connected to Discord without the gateway: interactions arrive at the Interactions Endpoint",
			"commands", "/"+CommandName+" registered "+where, "endpoint", "POST "+InteractionsPath)
	default:
		a.log.Info("connected to Discord", "commands", "/"+CommandName+" registered "+where,
			"shard", a.cfg.ShardID, "shards", a.cfg.ShardCount, "endpoint", a.cfg.Endpoint())
	}
	if a.cfg.CardEmojis {
		a.syncing.Add(1)
		go func() {
			defer a.syncing.Done()
			a.syncEmojis(a.base)
		}()
	} else {
		close(a.emojis.done)
	}
	return nil
}

// Close stops taking interactions, waits for those in flight (until ctx ends) and disconnects.
func (a *Adapter) Close(ctx context.Context) error {
	a.mu.Lock()
	a.closing = true
	a.mu.Unlock()
	done := make(chan struct{})
	go func() { a.inflight.Wait(); a.cleanups.Wait(); close(done) }()
	select {
	case <-done:
	case <-ctx.Done():
		a.log.Warn("closing with interactions still running", "interactions", a.busy.Load(), "err", ctx.Err())
	}
	a.cancel()
	a.syncing.Wait()
	a.remove()
	if err := a.session.Close(); err != nil {
		return fmt.Errorf("discord: close: %w", err)
	}
	return nil
}

// Run opens the adapter, waits for ctx to end, then closes it (allowing 10 s for work in flight).
func (a *Adapter) Run(ctx context.Context) error {
	if err := a.Open(ctx); err != nil {
		return err
	}
	<-ctx.Done()
	cctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	return a.Close(cctx)
}

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
	for _, p := range msgs {
		var err error
		if last, err = a.session.ChannelMessageSendComplex(m.Channel, p, discordgo.WithContext(ctx)); err != nil {
			return fmt.Errorf("discord: post to channel %s: %w", m.Channel, err)
		}
	}
	if last != nil && m.Prompt != "" && len(m.Buttons) > 0 {
		a.supersede(m.Channel, prompt{id: last.ID, name: m.Prompt})
	}
	return nil
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

// onInteraction is discordgo's handler for interactions that arrive over the gateway. Their first
// response is a REST call of its own (callback), made after the event may have waited in the
// websocket, so the answer is deferred at once (deferAfter 0) and the reply follows over REST.
func (a *Adapter) onInteraction(_ *discordgo.Session, ev *discordgo.InteractionCreate) {
	if ev == nil || ev.Interaction == nil {
		return
	}
	a.interact(ev.Interaction, a.callback, 0)
}

// firstResponse makes an interaction's first response: a REST callback for one that came over the
// gateway, the HTTP response's body for one that came to the Interactions Endpoint.
type firstResponse func(ctx context.Context, i *discordgo.Interaction, resp *discordgo.InteractionResponse) error

// interact handles one interaction, whichever way it arrived: the same translation and the same
// dealer call compute its responses, and first delivers the first of them. deferAfter is how long the
// dealer may take before that first response is a deferral (0: at once). It returns false, having
// done nothing, when the adapter is closing.
//
// discordgo runs each handler in its own goroutine without recover, so a panic here would end the
// process: it is recovered, logged, and the user gets an apology.
func (a *Adapter) interact(i *discordgo.Interaction, first firstResponse, deferAfter time.Duration) bool {
	a.mu.Lock()
	if a.closing {
		a.mu.Unlock()
		return false
	}
	a.begin()
	a.mu.Unlock()
	defer a.end()

	ctx, cancel := context.WithTimeout(a.base, interactionTimeout)
	defer cancel()
	r := &responder{a: a, ctx: ctx, i: i, first: first, deferAfter: deferAfter, at: a.now()}
	defer func() {
		if p := recover(); p != nil {
			a.logPanic(i, p)
			r.apologise()
		}
	}()
	a.dispatch(r)
	a.remember(r)
	return true
}

// begin counts an interaction, or work for one, that Close waits for; end ends it.
func (a *Adapter) begin() { a.busy.Add(1); a.inflight.Add(1) }
func (a *Adapter) end()   { a.busy.Add(-1); a.inflight.Done() }

// logPanic logs a recovered panic with the stack of the goroutine that recovered it.
func (a *Adapter) logPanic(i *discordgo.Interaction, p any) {
	a.log.Error("panic while handling an interaction", "interaction", i.ID, "type", i.Type.String(),
		"panic", fmt.Sprint(p), "stack", string(debug.Stack()))
}

func (a *Adapter) dispatch(r *responder) {
	i := r.i
	switch i.Type {
	case discordgo.InteractionApplicationCommand:
		cmd, err := SlashCommand(i)
		if err != nil {
			r.fail(a.userText(err))
			return
		}
		a.run(r, delivery(cmd, i))
	case discordgo.InteractionMessageComponent:
		cmd, modal, err := ComponentClick(i)
		switch {
		case err != nil:
			r.fail(a.userText(err))
		case modal != nil:
			a.openForm(r, delivery(cmd, i), modal)
		default:
			a.runClick(r, delivery(cmd, i))
		}
	case discordgo.InteractionModalSubmit:
		cmd, err := ModalSubmit(i)
		if err != nil {
			r.fail(a.userText(err))
			return
		}
		a.runClick(r, delivery(cmd, i))
	default:
		a.log.Debug("ignored interaction", "type", i.Type.String())
	}
}

// delivery gives cmd the interaction's ID as its delivery ID: the same interaction arriving twice
// (a load balancer's retry, at this process or another) is applied once, the second answered with
// "already done". It also carries the interaction's token (Command.Followup), for the process that
// owns the table when this one forwards the command there.
func delivery(cmd bot.Command, i *discordgo.Interaction) bot.Command {
	if i.ID != "" {
		cmd.ID = "discord/" + i.ID
	}
	cmd.Followup = followup(cmd, i)
	return cmd
}

// userText is the sentence a user sees for err: inputErrors are written for them, anything else is
// logged and replaced by an apology.
func (a *Adapter) userText(err error) string {
	text, internal := errs.Reply(err)
	if internal {
		a.log.Error("interaction failed", "err", err)
	}
	return text
}

// run lets the dealer handle the command and shows the reply ephemerally: as the first response when
// the dealer answers within the responder's deferAfter, otherwise in place of a deferral ("thinking…").
func (a *Adapter) run(r *responder, cmd bot.Command) {
	h := a.dealer(r)
	if h == nil {
		return
	}
	a.log.Debug("command", "user", cmd.User, "channel", cmd.Channel, "text", cmd.Text)
	rep, ok := r.handle(h, cmd, &discordgo.InteractionResponse{
		Type: discordgo.InteractionResponseDeferredChannelMessageWithSource,
		Data: &discordgo.InteractionResponseData{Flags: discordgo.MessageFlagsEphemeral},
	})
	if !ok {
		return
	}
	r.reply(rep)
}

// dealer is the handler commands go to; until SetDealer, nil, and the user is told to try again.
func (a *Adapter) dealer(r *responder) bot.Handler {
	a.mu.Lock()
	h := a.handler
	a.mu.Unlock()
	if h == nil {
		r.fail("The dealer is still starting; try again in a moment.")
	}
	return h
}

// runClick runs a click on a button tied to a turn (it has a token) of a message in the channel, or
// the form such a button opened. When the dealer answers with the message's new version, that is the
// response: an update of the message (type 7) when the dealer answered within deferAfter, otherwise
// an edit through the interaction's own token after a deferred update (type 6). Neither costs any of
// the channel's rate limit. Anything else the dealer says (an error, cards) is shown privately. Other
// clicks run like commands.
func (a *Adapter) runClick(r *responder, cmd bot.Command) {
	m := r.i.Message
	if cmd.Token == "" || m == nil || m.ID == "" || m.Flags&discordgo.MessageFlagsEphemeral != 0 {
		a.run(r, cmd)
		return
	}
	h := a.dealer(r)
	if h == nil {
		return
	}
	cmd.Message = m.ID
	a.log.Debug("click", "user", cmd.User, "channel", cmd.Channel, "text", cmd.Text, "message", m.ID)
	rep, ok := r.handle(h, cmd, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredMessageUpdate})
	if !ok {
		return
	}
	// Once deferred as an update, the response is the clicked message itself: replies follow it privately.
	r.updating = r.answered
	if rep.Update != nil {
		send, err := TableMessage(*rep.Update)
		if err != nil {
			a.log.Warn("table message sent without some buttons", "err", err)
		}
		if r.answered {
			edit := &discordgo.WebhookEdit{Content: &send.Content, Components: &send.Components, AllowedMentions: send.AllowedMentions}
			if _, err := a.session.InteractionResponseEdit(r.i, edit, discordgo.WithContext(r.ctx)); err != nil {
				a.log.Error("update the table through the click", "interaction", r.i.ID, "err", err)
			}
		} else if !r.respond(&discordgo.InteractionResponse{Type: discordgo.InteractionResponseUpdateMessage,
			Data: &discordgo.InteractionResponseData{Content: send.Content, Components: send.Components, AllowedMentions: send.AllowedMentions}}) {
			return
		}
		r.updating = true
	}
	rep.Update = nil
	switch {
	case strings.TrimSpace(rep.Text) != "" || rep.IsError || len(rep.Extra) > 0 || len(rep.Files) > 0 || len(rep.Buttons) > 0:
		r.reply(rep)
	case !r.answered:
		// Nothing to show: the click is acknowledged and the message stays as it is.
		r.respond(&discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredMessageUpdate})
	}
}

// openForm answers a click on an amount button: the dealer settles first whether the form opens
// (bot.ProbeForm), so that anyone but the player to act, or a click on an old button, gets the
// dealer's refusal ephemerally instead of a form. The form must be the first response, so nothing is
// deferred: a dealer that has not answered within probeWait does not hold it up. A panic in the
// probe is logged and apologised for, like any other.
func (a *Adapter) openForm(r *responder, probe bot.Command, modal *discordgo.InteractionResponseData) {
	a.mu.Lock()
	h, wait := a.handler, a.probeWait
	a.mu.Unlock()
	if h == nil {
		r.fail("The dealer is still starting; try again in a moment.")
		return
	}
	a.log.Debug("probe", "user", probe.User, "channel", probe.Channel, "text", probe.Text)
	f := bot.ProbeForm(r.ctx, h, probe, wait)
	switch {
	case f.Panic != nil:
		a.log.Error("panic while handling an interaction", "interaction", r.i.ID, "type", r.i.Type.String(), "panic", f.Panic.Error())
	case f.Late:
		a.log.Debug("the dealer did not answer the probe in time; opening the form", "user", probe.User,
			"channel", probe.Channel, "text", probe.Text, "waited", wait)
	}
	if !f.Open {
		if f.Refusal.Text != "" {
			r.reply(f.Refusal)
		}
		return
	}
	r.respond(&discordgo.InteractionResponse{Type: discordgo.InteractionResponseModal, Data: modal})
}

// responder answers one interaction, remembering whether the first response has been made.
type responder struct {
	a     *Adapter
	ctx   context.Context
	i     *discordgo.Interaction
	first firstResponse // how the first response travels
	// deferAfter is how long the dealer may take to answer before the first response is a deferral
	// and the answer follows over REST; 0 defers at once.
	deferAfter time.Duration
	answered   bool                              // an initial response (deferral, message, update or modal) was sent
	updating   bool                              // the response is an update of the clicked message: replies follow it privately
	kind       discordgo.InteractionResponseType // the initial response's type, once answered
	at         time.Time                         // when the interaction arrived (its token lives 15 minutes from then)
}

func (r *responder) respond(resp *discordgo.InteractionResponse) bool {
	if err := r.first(r.ctx, r.i, resp); err != nil {
		r.a.log.Error("answer interaction", "interaction", r.i.ID, "err", err)
		return false
	}
	if !r.answered {
		r.kind = resp.Type
	}
	r.answered = true
	return true
}

// handle asks the dealer to run cmd. With deferAfter 0 the interaction is answered with deferral
// first. Otherwise the dealer gets deferAfter to answer, so that its reply can be the first response
// itself; a slower answer is deferred, and the reply follows the deferral when it comes. ok is false
// when nothing more can be shown: the deferral was not taken (the user was told the interaction
// failed) or the dealer panicked (logged and apologised for).
func (r *responder) handle(h bot.Handler, cmd bot.Command, deferral *discordgo.InteractionResponse) (rep bot.Reply, ok bool) {
	if r.deferAfter <= 0 {
		if !r.respond(deferral) {
			// Discord did not take the acknowledgement: the user was told the interaction failed, so the
			// command is not run behind their back.
			return bot.Reply{}, false
		}
		return h.Handle(r.ctx, cmd), true
	}
	type answer struct {
		reply    bot.Reply
		panicked bool
	}
	done := make(chan answer, 1) // never blocks, even once nobody waits
	r.a.begin()                  // under this interaction's own count, so Close waits for it too
	go func() {
		defer r.a.end()
		defer func() {
			if p := recover(); p != nil {
				r.a.logPanic(r.i, p)
				done <- answer{panicked: true}
			}
		}()
		done <- answer{reply: h.Handle(r.ctx, cmd)}
	}()
	timer := time.NewTimer(r.deferAfter)
	defer timer.Stop()
	var ans answer
	select {
	case ans = <-done:
	case <-timer.C:
		if !r.respond(deferral) {
			// The dealer goes on with the command (it may be applied, as any other); only its answer
			// cannot be shown through this interaction.
			r.a.log.Warn("the dealer's answer came too late to be shown", "interaction", r.i.ID, "user", cmd.User, "text", cmd.Text)
			return bot.Reply{}, false
		}
		ans = <-done
	}
	if ans.panicked {
		r.apologise()
		return bot.Reply{}, false
	}
	return ans.reply, true
}

// callback makes an interaction's first response. Discord wants it within 3 s and does not count it
// toward the bot's global rate limit, so a response without files is sent straight, not through
// discordgo's rate limiter, which would hold it while another route waits out a global 429.
func (a *Adapter) callback(ctx context.Context, i *discordgo.Interaction, resp *discordgo.InteractionResponse) error {
	if resp.Data != nil && len(resp.Data.Files) > 0 {
		return a.session.InteractionRespond(i, resp, discordgo.WithContext(ctx))
	}
	body, err := json.Marshal(resp)
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, discordgo.EndpointInteractionResponse(i.ID, i.Token), bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", a.session.UserAgent)
	req.Header.Set("Authorization", a.session.Token) // not needed (the token is in the URL); discordgo sends it too
	res, err := a.session.Client.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	msg, _ := io.ReadAll(io.LimitReader(res.Body, 4096))
	if res.StatusCode/100 != 2 {
		re := &discordgo.RESTError{Request: req, Response: res, ResponseBody: msg}
		var m discordgo.APIErrorMessage
		if json.Unmarshal(msg, &m) == nil && m.Code != 0 {
			re.Message = &m
		}
		return re
	}
	return nil
}

// apologise tells the user something broke on our side; it is used after a panic, so a second panic
// while apologising is swallowed.
func (r *responder) apologise() {
	defer func() { _ = recover() }()
	r.fail(errs.Apology)
}

// fail shows text to the user ephemerally, whatever state the interaction is in.
func (r *responder) fail(text string) {
	r.reply(bot.Reply{Text: text, IsError: true})
}

// followup shows the dealer's reply as ephemeral follow-ups, after the interaction was answered as an
// update of its message.
func (r *responder) followup(rep bot.Reply) {
	msgs, err := ReplyMessages(rep)
	if err != nil {
		r.a.log.Warn("reply sent without some buttons", "err", err)
	}
	for _, m := range msgs {
		if _, err := r.a.session.FollowupMessageCreate(r.i, true, m, discordgo.WithContext(r.ctx)); err != nil {
			r.a.log.Error("reply to interaction", "interaction", r.i.ID, "err", err)
			return
		}
	}
	r.files(rep.Files)
}

// reply shows the dealer's reply: as the first response, or in place of the deferral, with any
// further pieces as ephemeral follow-ups.
func (r *responder) reply(rep bot.Reply) {
	if r.updating { // the original response is the table message itself: never overwrite it
		r.followup(rep)
		return
	}
	msgs, err := ReplyMessages(rep)
	if err != nil {
		r.a.log.Warn("reply sent without some buttons", "err", err)
	}
	s := r.a.session
	for n, m := range msgs {
		var err error
		switch {
		case n == 0 && !r.answered:
			ok := r.respond(&discordgo.InteractionResponse{
				Type: discordgo.InteractionResponseChannelMessageWithSource,
				Data: &discordgo.InteractionResponseData{Content: m.Content, Components: m.Components, Flags: m.Flags, AllowedMentions: m.AllowedMentions},
			})
			if !ok {
				return
			}
		case n == 0:
			_, err = s.InteractionResponseEdit(r.i, editFromParams(m), discordgo.WithContext(r.ctx))
		default:
			_, err = s.FollowupMessageCreate(r.i, true, m, discordgo.WithContext(r.ctx))
		}
		if err != nil {
			r.a.log.Error("reply to interaction", "interaction", r.i.ID, "err", err)
			return
		}
	}
	r.files(rep.Files)
}

// files sends private documents (an export of the user's hands) as ephemeral follow-ups.
func (r *responder) files(files []render.File) {
	s := r.a.session
	for _, f := range files {
		// A private document (an export of the user's hands) comes as an ephemeral follow-up.
		p := &discordgo.WebhookParams{Flags: discordgo.MessageFlagsEphemeral, AllowedMentions: usersOnly,
			Files: []*discordgo.File{{Name: f.Name, ContentType: f.ContentType, Reader: bytes.NewReader(f.Data)}}}
		if _, err := s.FollowupMessageCreate(r.i, true, p, discordgo.WithContext(r.ctx)); err != nil {
			r.a.log.Error("send a file to the user", "interaction", r.i.ID, "file", f.Name, "err", err)
		}
	}
}
