// Package slack connects dealerbot to Slack through slack-go. It only translates: a /poker slash
// command, a button click or an amount modal becomes a bot.Command, and a bot.Message becomes a
// Block Kit post, a DM or an ephemeral message. Socket Mode is the default (no public URL); HTTP mode
// verifies Slack's request signatures. For many workspaces (OAuth mode) each workspace installs the
// app through /slack/install and is answered with its own bot token, kept sealed in the database
// (oauth.go, teams.go).
//
// Wiring, as cmd/dealerbot does it:
//
//	cfg, err := slack.ConfigFromEnv(env.Get)
//	a, err := slack.New(cfg, slack.WithLogger(logger))
//	d, err := bot.New(store, a, botConfig) // the adapter is the dealer's Chat
//	a.SetDealer(d)
//	err = a.Run(ctx)                        // blocks until ctx is cancelled
//	a.Close(shutdownCtx)                    // waits for commands still being handled
package slack

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	slackapi "github.com/slack-go/slack"

	"github.com/dealerbot/dealerbot/bot"
	"github.com/dealerbot/dealerbot/render"
)

// Option changes how New builds the adapter.
type Option func(*Adapter)

// WithLogger sets the logger (default slog.Default()). Message text is never logged.
func WithLogger(l *slog.Logger) Option { return func(a *Adapter) { a.log = l } }

// WithInstallations gives the adapter the store of workspace installations, which OAuth mode needs
// (storage.DB and the PostgreSQL store implement it).
func WithInstallations(s bot.Installations) Option { return func(a *Adapter) { a.installs = s } }

// The adapter's bounds.
const (
	maxRetries   = 3               // retries of one Slack call after a rate limit
	maxRetryWait = 2 * time.Minute // longest Retry-After the adapter waits out
	// probeWait bounds how long an amount button waits for the dealer to say whether the clicker may
	// act before the form opens anyway: the click's trigger_id lives 3 seconds, and the submission is
	// checked by the dealer all the same.
	probeWait = 1500 * time.Millisecond
	// pictureWait is how long a table message waits, once, for Slack to process the showdown picture
	// it was refused for (uploads are processed asynchronously; an image block naming a file not yet
	// processed is invalid_blocks for about a second) before it is sent without the picture.
	pictureWait = 1200 * time.Millisecond
)

// Adapter is the Slack side of dealerbot. It implements bot.Chat and bot.Ephemeral.
type Adapter struct {
	cfg Config
	api *slackapi.Client // the one workspace's client (SLACK_BOT_TOKEN); nil in OAuth mode
	log *slog.Logger

	// OAuth mode: the installations, the key that seals their tokens, and the client of each workspace
	// served so far (teams.go).
	installs bot.Installations
	sealer   *sealer
	stateKey []byte       // signs the install links' state (oauth.go)
	oauthWeb *http.Client // reaches oauth.v2.access

	// wait sleeps for a rate limit's Retry-After; tests replace it to record the wait.
	wait func(ctx context.Context, d time.Duration) error
	now  func() time.Time
	// trusted says whether a response_url may be posted to; tests admit their fake server.
	trusted func(rawURL string) bool
	// probeWait is the constant probeWait; tests may shorten it.
	probeWait time.Duration
	// pictureWait is the constant pictureWait; tests may shorten it.
	pictureWait time.Duration
	// readTimeout is the constant readTimeout (HTTP mode); tests may shorten it.
	readTimeout time.Duration

	ctx    context.Context // work that outlives an ack (handling a command) runs under it
	cancel context.CancelFunc
	work   sync.WaitGroup
	busy   atomic.Int64 // work's count, which Close reports and tests wait to see reach 0

	mu     sync.Mutex
	dealer bot.Handler
	dms    map[string]string    // workspace/user -> DM channel
	users  map[string]userEntry // workspace/user -> admin flag and display name (inbound.go)
	seen   map[string]time.Time // HTTP mode: requests already served (replays), until they expire
	envs   map[string]time.Time // Socket Mode: envelope IDs already handled, until they expire
	events map[string]time.Time // Events API: event IDs already handled, until they expire
	states map[string]time.Time // OAuth: install states already used, until they expire
	teams  map[string]*teamClient
	gone   map[string]bool // OAuth: workspaces being uninstalled (no client is made for them meanwhile)
	gen    uint64          // counts changes of teams, so a client loaded during one is not kept

	noFiles atomic.Bool // the workspace has not granted files:write: no showdown pictures (said once)
	// refreshing holds the workspace/user keys whose users.info is being asked again (identify).
	refreshing sync.Map
}

var (
	_ bot.Chat      = (*Adapter)(nil)
	_ bot.Ephemeral = (*Adapter)(nil)
	_ bot.Chat      = (*Adapter)(nil)
	_ bot.Pictures  = (*Adapter)(nil)
)

// New builds an adapter from cfg. It does not connect: call SetDealer, then Run.
func New(cfg Config, opts ...Option) (*Adapter, error) {
	if cfg.Mode() == Off {
		return nil, errors.New("no Slack settings: set SLACK_BOT_TOKEN and SLACK_APP_TOKEN (Socket Mode) or SLACK_BOT_TOKEN, SLACK_SIGNING_SECRET and SLACK_LISTEN_ADDR (HTTP mode)")
	}
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	a := &Adapter{
		cfg:         cfg,
		log:         slog.Default(),
		wait:        sleep,
		now:         time.Now,
		trusted:     slackHook,
		probeWait:   probeWait,
		pictureWait: pictureWait,
		readTimeout: readTimeout,
		dms:         map[string]string{},
		users:       map[string]userEntry{},
		seen:        map[string]time.Time{},
		envs:        map[string]time.Time{},
		events:      map[string]time.Time{},
		states:      map[string]time.Time{},
		teams:       map[string]*teamClient{},
		gone:        map[string]bool{},
		oauthWeb:    &http.Client{Timeout: 10 * time.Second},
	}
	for _, o := range opts {
		o(a)
	}
	if cfg.Mode() == OAuthMode {
		if a.installs == nil {
			return nil, errors.New("slack: SLACK_CLIENT_ID is set, but the database cannot keep the workspaces' installations")
		}
		var err error
		if a.sealer, err = newSealer(cfg.SecretKey); err != nil {
			return nil, err
		}
		a.stateKey = stateKey(cfg.SecretKey)
	}
	a.ctx, a.cancel = context.WithCancel(context.Background())
	if cfg.Mode() != OAuthMode {
		apiOpts := []slackapi.Option{}
		if cfg.AppToken != "" {
			apiOpts = append(apiOpts, slackapi.OptionAppLevelToken(cfg.AppToken))
		}
		a.api = a.newClient(cfg.BotToken, apiOpts...)
	}
	return a, nil
}

// newClient is a Slack client with token, at the configured API URL.
func (a *Adapter) newClient(token string, opts ...slackapi.Option) *slackapi.Client {
	if a.cfg.APIURL != "" {
		opts = append(opts, slackapi.OptionAPIURL(a.cfg.APIURL))
	}
	return slackapi.New(token, opts...)
}

// SetDealer gives the adapter the dealer that handles its commands. Call it before Run: the dealer
// is built with the adapter as its Chat, so the two cannot be built in one step.
func (a *Adapter) SetDealer(d bot.Handler) {
	a.mu.Lock()
	a.dealer = d
	a.mu.Unlock()
}

// Run connects in the configured mode and handles Slack's requests until ctx is cancelled, then
// returns nil. It returns an error when Slack refuses the tokens or the address cannot be listened on.
func (a *Adapter) Run(ctx context.Context) error {
	if m := a.cfg.Mode(); m == HTTPMode || m == OAuthMode {
		return a.runHTTP(ctx)
	}
	return a.runSocket(ctx)
}

// Close waits until commands already acknowledged have been handled (or ctx ends), then stops the
// adapter's background work. Call it after Run has returned and before closing the dealer.
func (a *Adapter) Close(ctx context.Context) error {
	done := make(chan struct{})
	go func() { a.work.Wait(); close(done) }()
	var err error
	select {
	case <-done:
	case <-ctx.Done():
		err = fmt.Errorf("slack: %d commands still running at shutdown: %w", a.busy.Load(), ctx.Err())
	}
	a.cancel()
	return err
}

// Send delivers a bot message: a public one is posted in its channel, a private one is sent by DM
// (conversations.open, then chat.postMessage). When Slack will not deliver the DM, Send returns an
// error wrapping bot.ErrDMBlocked so the bot falls back to SendEphemeral.
func (a *Adapter) Send(ctx context.Context, m bot.Message) error {
	if !m.Private {
		if _, err := a.postAll(ctx, m.Workspace, m.Channel, m.Message, m.Channel); err != nil {
			return fmt.Errorf("slack: post to channel %s: %w", m.Channel, err)
		}
		return nil
	}
	if m.User == "" {
		return errors.New("slack: private message without a recipient")
	}
	dm, err := a.dmChannel(ctx, m.Workspace, m.User)
	if err == nil {
		_, err = a.postAll(ctx, m.Workspace, dm, m.Message, m.Channel)
		if err != nil && refused(err) {
			a.forgetDM(m.Workspace, m.User) // the DM may have been closed; open it afresh next time
		}
	}
	if err != nil {
		if refused(err) && !errors.Is(err, errTokenRefused) {
			// Only Slack's error code goes into the error: the message may hold hole cards.
			return fmt.Errorf("slack: DM to %s: %w (%v)", m.User, bot.ErrDMBlocked, err)
		}
		return fmt.Errorf("slack: DM to %s: %w", m.User, err)
	}
	return nil
}

// SendEphemeral shows a private message to m.User inside m.Channel (chat.postEphemeral).
func (a *Adapter) SendEphemeral(ctx context.Context, m bot.Message) error {
	for _, p := range posts(m.Message, m.Channel) {
		err := a.call(ctx, m.Workspace, "chat.postEphemeral", func(api *slackapi.Client) error {
			_, err := api.PostEphemeralContext(ctx, m.Channel, m.User,
				slackapi.MsgOptionText(p.Text, false), slackapi.MsgOptionBlocks(p.Blocks...))
			return err
		})
		if err != nil {
			return fmt.Errorf("slack: ephemeral message to %s in %s: %w", m.User, m.Channel, err)
		}
	}
	return nil
}

// postAll posts a message (several posts when it is long) in channel of workspace; table is the channel
// its buttons act on. It returns the timestamp of the last post, the one with the buttons.
func (a *Adapter) postAll(ctx context.Context, workspace, channel string, m render.Message, table string) (ts string, err error) {
	for _, p := range posts(m, table) {
		err := a.call(ctx, workspace, "chat.postMessage", func(api *slackapi.Client) (err error) {
			_, ts, err = api.PostMessageContext(ctx, channel,
				slackapi.MsgOptionText(p.Text, false), slackapi.MsgOptionBlocks(p.Blocks...))
			return err
		})
		if err != nil {
			return "", err
		}
	}
	return ts, nil
}

// Post creates the hand's table message in its channel (chat.postMessage) and returns its timestamp,
// Slack's ID for it. It waits out Slack's rate limit; the dealer calls it from a writer of its own.
func (a *Adapter) Post(ctx context.Context, m bot.Message) (string, error) {
	p := tablePost(m.Message, m.Channel)
	var ts string
	err := a.withPicture(ctx, m.Workspace, p.Blocks, m.Picture, func(blocks []slackapi.Block) error {
		return a.call(ctx, m.Workspace, "chat.postMessage", func(api *slackapi.Client) (err error) {
			_, ts, err = api.PostMessageContext(ctx, m.Channel, slackapi.MsgOptionText(p.Text, false), slackapi.MsgOptionBlocks(blocks...))
			return err
		})
	})
	if err != nil {
		if notInChannel(err) {
			err = fmt.Errorf("%w (%v)", bot.ErrCannotPost, err)
		}
		return "", fmt.Errorf("slack: post to channel %s: %w", m.Channel, err)
	}
	return ts, nil
}

// Edit replaces the table message ts with m (chat.update): for changes no click brought, such as a
// timer or a typed command.
func (a *Adapter) Edit(ctx context.Context, m bot.Message, ts string) error {
	p := tablePost(m.Message, m.Channel)
	err := a.withPicture(ctx, m.Workspace, p.Blocks, m.Picture, func(blocks []slackapi.Block) error {
		return a.call(ctx, m.Workspace, "chat.update", func(api *slackapi.Client) error {
			_, _, _, err := api.UpdateMessageContext(ctx, m.Channel, ts, slackapi.MsgOptionText(p.Text, false), slackapi.MsgOptionBlocks(blocks...))
			return err
		})
	})
	if err != nil {
		if notInChannel(err) {
			err = fmt.Errorf("%w (%v)", bot.ErrCannotPost, err)
		}
		return fmt.Errorf("slack: update message %s in %s: %w", ts, m.Channel, err)
	}
	return nil
}

// CardFaces reports that Slack has no card pictures: a bot cannot add a workspace's emoji, so cards
// are drawn as text or emoji.
func (a *Adapter) CardFaces(string, bool) (*render.Faces, bool) { return nil, false }

// ShowsPictures reports whether a table message's picture is shown: unless the workspace has not
// granted the files:write scope.
func (a *Adapter) ShowsPictures(string) bool { return !a.noFiles.Load() }

// Slack's limits on a picture's description: an image block's alt_text, and the alt_txt of an upload
// (files.getUploadURLExternal).
const (
	maxAltText     = 2000
	maxFileAltText = 1000
)

// withPicture sends a table message by send, with pic shown in it when there is one: uploaded (the
// files upload flow, shared in no channel) and shown in an image block after the text and before the
// buttons. Slack processes uploads asynchronously, so a message refused with the picture is sent
// again once after pictureWait, and then, if still refused, without the picture: the table is always
// brought up to date. Without files:write (said once in the log) or when the upload fails, the message
// goes without the picture.
func (a *Adapter) withPicture(ctx context.Context, workspace string, blocks []slackapi.Block, pic *render.Picture, send func([]slackapi.Block) error) error {
	with := a.pictureBlocks(ctx, workspace, blocks, pic)
	if len(with) == len(blocks) {
		return send(blocks)
	}
	err := send(with)
	if err == nil || ctx.Err() != nil {
		return err
	}
	var se slackapi.SlackErrorResponse
	if errors.As(err, &se) && strings.HasPrefix(se.Err, "invalid_blocks") {
		if werr := a.wait(ctx, a.pictureWait); werr != nil {
			return werr
		}
		if err = send(with); err == nil {
			return nil
		}
	}
	a.log.Warn("slack: the table message was refused with the showdown picture; it is shown without it", "err", err)
	return send(blocks)
}

// pictureBlocks uploads pic and returns blocks with its image block, or blocks as they were when there
// is no picture to show.
func (a *Adapter) pictureBlocks(ctx context.Context, workspace string, blocks []slackapi.Block, pic *render.Picture) []slackapi.Block {
	if pic == nil || a.noFiles.Load() || len(blocks) >= maxBlocks {
		return blocks
	}
	var f *slackapi.FileSummary
	err := a.callOnce(ctx, workspace, func(api *slackapi.Client) (err error) {
		f, err = api.UploadFileContext(ctx, slackapi.UploadFileParameters{Filename: pic.Name, Title: pic.Name,
			Reader: bytes.NewReader(pic.PNG), FileSize: len(pic.PNG), AltTxt: clipRunes(pic.Alt, maxFileAltText)})
		return err
	})
	if err != nil {
		var se slackapi.SlackErrorResponse
		if errors.As(err, &se) && (se.Err == "missing_scope" || se.Err == "not_allowed_token_type") {
			if a.noFiles.CompareAndSwap(false, true) {
				a.log.Warn("slack: showdown pictures are skipped: add the files:write scope to the app and reinstall it to show them", "err", err)
			}
			return blocks
		}
		a.log.Warn("slack: the showdown picture could not be uploaded; the table is shown without it", "err", err)
		return blocks
	}
	img := slackapi.NewImageBlockSlackFile(&slackapi.SlackFileObject{ID: f.ID}, clipRunes(pic.Alt, maxAltText), "", nil)
	out := make([]slackapi.Block, 0, len(blocks)+1)
	at := len(blocks)
	for at > 0 && blocks[at-1].BlockType() == slackapi.MBTAction {
		at--
	}
	out = append(append(append(out, blocks[:at]...), img), blocks[at:]...)
	return out
}

// Delete removes channel message ts (a turn ping whose turn has passed; chat.delete).
func (a *Adapter) Delete(ctx context.Context, m bot.Message, ts string) error {
	err := a.call(ctx, m.Workspace, "chat.delete", func(api *slackapi.Client) error {
		_, _, err := api.DeleteMessageContext(ctx, m.Channel, ts)
		return err
	})
	if err != nil {
		return fmt.Errorf("slack: delete message %s in %s: %w", ts, m.Channel, err)
	}
	return nil
}

// replace shows a click's result in the message the click was on, through the click's response_url
// (replace_original), which spends none of chat.update's budget; when that fails, by chat.update.
func (a *Adapter) replace(ctx context.Context, cmd bot.Command, m render.Message, responseURL string) {
	p := tablePost(m, cmd.Channel)
	if responseURL != "" && a.trusted(responseURL) {
		err := a.retry(ctx, "response_url", func() error {
			return slackapi.PostWebhookContext(ctx, responseURL, &slackapi.WebhookMessage{
				ReplaceOriginal: true, Text: p.Text, Blocks: &slackapi.Blocks{BlockSet: p.Blocks}})
		})
		if err == nil {
			return
		}
		a.log.Warn("slack: could not update the table through the click; updating it by chat.update", "channel", cmd.Channel, "err", err)
	}
	if err := a.Edit(ctx, bot.Message{Platform: platform, Workspace: cmd.Workspace, Channel: cmd.Channel, Message: m}, cmd.Message); err != nil {
		a.log.Error("slack: could not update the table", "channel", cmd.Channel, "err", err)
	}
}

// dmChannel opens (or remembers) the DM channel with a user of workspace.
func (a *Adapter) dmChannel(ctx context.Context, workspace, user string) (string, error) {
	key := workspace + "/" + user
	a.mu.Lock()
	ch, ok := a.dms[key]
	a.mu.Unlock()
	if ok {
		return ch, nil
	}
	err := a.call(ctx, workspace, "conversations.open", func(api *slackapi.Client) error {
		c, _, _, err := api.OpenConversationContext(ctx, &slackapi.OpenConversationParameters{Users: []string{user}})
		if err == nil {
			ch = c.ID
		}
		return err
	})
	if err != nil {
		return "", err
	}
	if ch == "" {
		return "", slackapi.SlackErrorResponse{Err: "no_dm_channel"}
	}
	a.mu.Lock()
	a.dms[key] = ch
	a.mu.Unlock()
	return ch, nil
}

func (a *Adapter) forgetDM(workspace, user string) {
	a.mu.Lock()
	delete(a.dms, workspace+"/"+user)
	a.mu.Unlock()
}

// refused reports whether Slack answered and said no (ok:false), as opposed to a network failure.
func refused(err error) bool {
	var se slackapi.SlackErrorResponse
	return errors.As(err, &se)
}

// retry runs call and, when Slack answers 429, waits the Retry-After it names and tries again, at most
// maxRetries times.
func (a *Adapter) retry(ctx context.Context, method string, call func() error) error {
	for attempt := 0; ; attempt++ {
		err := call()
		var rl *slackapi.RateLimitedError
		if !errors.As(err, &rl) || attempt == maxRetries {
			return err
		}
		d := min(max(rl.RetryAfter, time.Second), maxRetryWait)
		a.log.Warn("slack rate limit", "method", method, "retry_after", d, "attempt", attempt+1)
		if werr := a.wait(ctx, d); werr != nil {
			return err
		}
	}
}

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// spawn runs f in the background under the adapter's context, counted for Close, with panics
// recovered so one bad request cannot stop the bot.
func (a *Adapter) spawn(f func(ctx context.Context)) {
	a.busy.Add(1)
	a.work.Add(1)
	go func() {
		defer func() { a.busy.Add(-1); a.work.Done() }()
		defer func() {
			if p := recover(); p != nil {
				a.log.Error("slack: panic while handling a request", "panic", p)
			}
		}()
		f(a.ctx)
	}()
}

// reply shows the bot's answer to the sender: the reply itself, then any private messages that could
// not be sent by DM earlier, all ephemerally in the command's channel. When Slack refuses the ephemeral
// message (typically because the bot was never invited to the channel) and the request came with a
// response_url, the answer goes there instead, with a hint to invite the bot.
func (a *Adapter) reply(ctx context.Context, cmd bot.Command, r bot.Reply, responseURL string) {
	msgs := []render.Message{{Text: r.Text, Buttons: r.Buttons, Private: true}}
	msgs = append(msgs, r.Extra...)
	hinted := false
	for _, m := range msgs {
		if m.Text == "" && len(m.Buttons) == 0 {
			continue
		}
		err := a.SendEphemeral(ctx, bot.Message{Workspace: cmd.Workspace, Channel: cmd.Channel, User: cmd.User, Message: m})
		if err == nil {
			continue
		}
		if refused(err) && responseURL != "" && a.trusted(responseURL) {
			if !hinted && notInChannel(err) {
				hinted = true
				m.Text = "dealerbot is not a member of this channel, so nobody else can see the table: type /invite @dealerbot here.\n\n" + m.Text
			}
			if werr := a.respond(ctx, responseURL, m, cmd.Channel); werr == nil {
				continue
			}
		}
		a.log.Error("slack: could not show a reply", "channel", cmd.Channel, "user", cmd.User, "err", err)
	}
	for _, f := range r.Files {
		if err := a.sendFile(ctx, cmd, f); err != nil {
			a.log.Error("slack: could not send a file", "user", cmd.User, "file", f.Name, "err", err)
			_ = a.SendEphemeral(ctx, bot.Message{Workspace: cmd.Workspace, Channel: cmd.Channel, User: cmd.User,
				Message: render.Message{Private: true, Text: "I could not send you the file: allow direct messages from dealerbot, and ask the workspace admin to grant it files:write."}})
		}
	}
}

// sendFile uploads a private document (an export of the user's hands) into the user's direct
// messages with the bot: Slack has no private file inside a channel.
func (a *Adapter) sendFile(ctx context.Context, cmd bot.Command, f render.File) error {
	dm, err := a.dmChannel(ctx, cmd.Workspace, cmd.User)
	if err != nil {
		return err
	}
	return a.call(ctx, cmd.Workspace, "files.upload", func(api *slackapi.Client) error {
		_, err := api.UploadFileContext(ctx, slackapi.UploadFileParameters{Channel: dm, Filename: f.Name, Title: f.Name,
			Reader: bytes.NewReader(f.Data), FileSize: len(f.Data), InitialComment: "Your hands from <#" + cmd.Channel + ">, for your tracker."})
		return err
	})
}

// respond posts an ephemeral message to a response_url.
func (a *Adapter) respond(ctx context.Context, responseURL string, m render.Message, table string) error {
	for _, p := range posts(m, table) {
		err := a.retry(ctx, "response_url", func() error {
			return slackapi.PostWebhookContext(ctx, responseURL, &slackapi.WebhookMessage{
				ResponseType: slackapi.ResponseTypeEphemeral, Text: p.Text, Blocks: &slackapi.Blocks{BlockSet: p.Blocks},
			})
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// notInChannel reports whether Slack refused because the bot cannot see the channel.
func notInChannel(err error) bool {
	var se slackapi.SlackErrorResponse
	return errors.As(err, &se) && (se.Err == "not_in_channel" || se.Err == "channel_not_found")
}

// slackHook admits only Slack's own response URLs, so a payload cannot make the bot post elsewhere.
func slackHook(rawURL string) bool {
	u, err := url.Parse(rawURL)
	return err == nil && u.Scheme == "https" && (u.Host == "hooks.slack.com" || strings.HasSuffix(u.Host, ".slack.com"))
}

// openAmount opens the amount modal for a click. Trigger IDs live 3 seconds, so this runs right after
// the ack and the (bounded) probe, once; when it fails the player is told how to type the command
// instead.
func (a *Adapter) openAmount(ctx context.Context, trigger string, c click) {
	// One try: after a rate limit's Retry-After (a second or more) the trigger would be spent.
	err := a.callOnce(ctx, c.Cmd.Workspace, func(api *slackapi.Client) error {
		_, err := api.OpenViewContext(ctx, trigger, amountModal(c.Value))
		return err
	})
	if err == nil {
		return
	}
	a.log.Warn("slack: could not open the amount window", "user", c.Cmd.User, "err", err)
	a.reply(ctx, c.Cmd, bot.Reply{
		Text:    fmt.Sprintf("The amount window did not open. Type /poker %s N with N from %d to %d instead.", c.Value.Command, c.Value.Min, c.Value.Max),
		IsError: true,
	}, c.ResponseURL)
}
