// Package discord connects dealerbot to Discord: it registers one /poker slash command (commands.go),
// turns interactions (commands, button clicks, amount forms) into bot.Commands (inbound.go), answers
// them (responder.go) and delivers the dealer's messages as channel posts, ephemeral replies and DMs
// (outbound.go). It only translates; the game is in package bot.
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
	"context"
	"crypto/ed25519"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"sync"
	"sync/atomic"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/dealerbot/dealerbot/bot"
)

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

// begin counts an interaction, or work for one, that Close waits for; end ends it.
func (a *Adapter) begin() { a.busy.Add(1); a.inflight.Add(1) }
func (a *Adapter) end()   { a.busy.Add(-1); a.inflight.Done() }
