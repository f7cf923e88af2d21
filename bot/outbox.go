package bot

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"slices"
	"sync"
	"time"

	"github.com/dealerbot/dealerbot/bot/table"
	"github.com/dealerbot/dealerbot/render"
	"github.com/dealerbot/dealerbot/render/picture"
)

// The outbox: delivery's own state beside the action path (action.go). It holds each table's
// message versions, what is on screen and the turn's ping, writes them to the chat in the background
// as the platform's rate limit allows, and reports what it showed back to the table's goroutine as a
// job of its own. Flush waits for it.

// Pictures is an optional Chat capability: cards drawn as pictures in text (Discord's application
// emojis) and pictures shown with a table message (a hand's showdown).
type Pictures interface {
	// CardFaces returns the platform's card pictures, in four colours when four is set. ok is false
	// when the platform has no card pictures at all; faces is nil while it has none to use (still
	// being uploaded, or refused), and cards are then drawn as emoji.
	CardFaces(platform string, four bool) (faces *render.Faces, ok bool)
	// ShowsPictures reports whether the platform shows a Message's Picture.
	ShowsPictures(platform string) bool
}

// maxEditAge is the age from which a table message is posted anew rather than edited: Discord
// limits edits of messages older than an hour (error 30046), so a hand that outlives it continues in
// a new message, before the limit.
const maxEditAge = 50 * time.Minute

// ErrCannotPost is returned (wrapped) by Chat.Post and Chat.Edit when the platform refuses the bot
// the channel (Discord: Missing Access or Missing Permissions; Slack: not in the channel). The table's
// host is then told privately what to give the bot.
var ErrCannotPost = errors.New("the bot may not post in this channel")

// ErrRepost is returned (wrapped) by Chat.Edit when the message can no longer be edited (Discord's
// 30046: too many edits of a message older than an hour): the table is posted anew instead.
var ErrRepost = errors.New("the message can no longer be edited: post it anew")

// liveHand is the running hand's table message: its public lines and the newest version rendered.
type liveHand struct {
	no       int64
	lines    *table.Lines // what the message says besides the table
	version  uint64
	deadline time.Time // the turn's deadline shown, zero without a timer
	// turnShown is the version that first showed the current turn; the turn's timer starts when
	// that version is on screen.
	turnShown uint64
	timerDue  bool // the current turn's timer waits for its version to be shown
	wait      time.Duration
	ping      time.Duration // when the player to act is pinged, from the core's Chores (0: the shell's delay, -1 never)
	pinged    string        // the token of the turn its player was pinged for
	// stalled is the token of a turn shown because the automatic step for it was refused (forfeit):
	// its retries do not show it again.
	stalled string
	// dealDue: the pause before the next deal waits for version dealShown, the finished hand with its
	// rebuy offer, to be on screen (dealWhenShown).
	dealDue   bool
	dealShown uint64
	// last is the message as last rendered (showLive), which a refused click on it shows again.
	last *render.Message
}

// outbox delivers one table's message: it keeps only the newest version waiting and writes it when
// the platform allows, so a slow platform never holds the table up and never gets a backlog. A
// version the table delivered itself through a click's response is dropped here.
type outbox struct {
	chat  Chat
	where Message // the table's platform, workspace and channel
	log   *slog.Logger
	mu    sync.Mutex
	next  *liveVersion // the newest version waiting
	notes []Message    // channel posts waiting (joins, level changes...), oldest first
	// The turn ping: the one to post, whether the one on screen is to go, and its ID.
	pingNext *Message
	pingDrop bool
	pingID   string
	busy     bool
	quiet    *sync.Cond   // broadcast when the writer stops (busy turns false); on mu
	shown    table.Screen // the message on screen
	done     uint64       // the newest version on screen (of shown.Hand)
	now      func() time.Time
	// table is told, by a job on its goroutine, of every version put on screen and the message ID
	// (shown), of the turn ping's ID whenever it changes ("" when it is gone; storePing), and that
	// the platform refused the bot the channel (cannotPost).
	table *actor
}

type liveVersion struct {
	hand    int64
	version uint64
	msg     Message
	pic     *render.Showdown // drawn by the writer and shown with msg, where the platform can
}

// put queues v in place of any version still waiting, and starts the writer if it is idle.
func (o *outbox) put(v liveVersion) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if v.hand == o.shown.Hand && v.version <= o.done {
		return
	}
	o.next = &v
	o.wake()
}

// say queues a channel post; posts still waiting when the writer gets to them go out as one.
func (o *outbox) say(m Message) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.notes = append(o.notes, m)
	o.wake()
}

// ping queues a turn ping, in place of any ping on screen.
func (o *outbox) ping(m Message) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.pingNext, o.pingDrop = &m, true
	o.wake()
}

// unping takes the turn ping down (the turn passed), and drops one still waiting.
func (o *outbox) unping() {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.pingNext, o.pingDrop = nil, true
	o.wake()
}

// wake starts the writer if it is idle; o.mu is held.
func (o *outbox) wake() {
	if !o.busy {
		o.busy = true
		go o.run()
	}
}

// merge joins runs of button-less posts into as few posts as fit a message.
func merge(ms []Message) []Message {
	var out []Message
	for _, m := range ms {
		if n := len(out); n > 0 && len(m.Buttons) == 0 && len(out[n-1].Buttons) == 0 &&
			render.Length(out[n-1].Text)+1+render.Length(m.Text) <= render.MaxText {
			out[n-1].Text += "\n" + m.Text
			continue
		}
		out = append(out, m)
	}
	return out
}

// deliveredBy records that version of hand is on screen already (through a click's response).
func (o *outbox) deliveredBy(hand int64, version uint64, id string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if hand != o.shown.Hand || version > o.done {
		posted := o.shown.Posted
		if o.shown.Message != id {
			posted = time.Time{}
		}
		o.shown, o.done = table.Screen{Hand: hand, Message: id, Posted: posted}, version
	}
	if o.next != nil && o.next.hand == hand && o.next.version <= version {
		o.next = nil
	}
}

// tooOld reports whether the message on screen is too old to be edited (maxEditAge). o.mu is held.
func (o *outbox) tooOld() bool {
	return !o.shown.Posted.IsZero() && o.now().Sub(o.shown.Posted) >= maxEditAge
}

// editable reports whether the message on screen for hand may still be brought up to date in place:
// it is hand's, and not too old.
func (o *outbox) editable(hand int64, id string) bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.shown.Hand == hand && o.shown.Message == id && !o.tooOld()
}

// idle reports whether the writer has nothing left to write.
func (o *outbox) idle() bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	return !o.busy
}

// wait blocks until the writer has written everything queued and stopped.
func (o *outbox) wait() {
	o.mu.Lock()
	defer o.mu.Unlock()
	for o.busy {
		o.quiet.Wait()
	}
}

func (o *outbox) run() {
	for {
		o.mu.Lock()
		if notes := o.notes; len(notes) > 0 {
			o.notes = nil
			o.mu.Unlock()
			for _, m := range merge(notes) {
				ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
				if err := o.chat.Send(ctx, m); err != nil {
					o.log.Error("send to channel", "channel", m.Channel, "err", err) // the table goes on
				}
				cancel()
			}
			continue
		}
		v := o.next
		o.next = nil
		if v == nil && (o.pingDrop || o.pingNext != nil) {
			o.pings()
			continue
		}
		if v == nil {
			o.busy = false
			o.quiet.Broadcast()
			o.mu.Unlock()
			return
		}
		id, posted := "", o.shown.Posted
		if o.shown.Hand == v.hand && !o.tooOld() {
			id = o.shown.Message
		}
		o.mu.Unlock()
		if v.pic != nil {
			v.msg.Picture = o.draw(v.hand, v.pic)
		}
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		var err error
		if id != "" {
			if err = o.chat.Edit(ctx, v.msg, id); errors.Is(err, ErrRepost) {
				o.log.Info("the table message can no longer be edited: it is posted anew", "hand", v.hand, "err", err)
				id = ""
			}
		}
		if id == "" {
			id, err = o.chat.Post(ctx, v.msg)
			posted = o.now()
		}
		cancel()
		if err != nil {
			if errors.Is(err, ErrCannotPost) {
				o.table.tell(func(ctx context.Context, t *actor) { t.cannotPost(ctx) })
			}
			continue // a newer version, if any, tries again; the table goes on either way
		}
		o.mu.Lock()
		var shown table.Screen
		if o.shown.Hand != v.hand || v.version > o.done {
			o.shown, o.done = table.Screen{Hand: v.hand, Message: id, Posted: posted}, v.version
		}
		shown = o.shown
		o.mu.Unlock()
		o.table.tell(func(ctx context.Context, t *actor) { t.shown(ctx, v.hand, v.version, shown) })
	}
}

// draw makes the showdown picture of a hand; a picture that cannot be drawn is left out (logged), and
// the table message goes out without it.
func (o *outbox) draw(hand int64, v *render.Showdown) *render.Picture {
	png, err := picture.Showdown(*v)
	if err != nil {
		o.log.Warn("draw the showdown picture", "hand", hand, "err", err)
		return nil
	}
	return &render.Picture{Name: fmt.Sprintf("hand-%d.png", hand), Alt: picture.AltText(*v), PNG: png}
}

// pings carries out the waiting ping changes: the ping on screen goes, a new one is posted. o.mu is
// held on entry and released.
func (o *outbox) pings() {
	drop, old, next := o.pingDrop, o.pingID, o.pingNext
	o.pingDrop, o.pingNext = false, nil
	if drop {
		o.pingID = ""
	}
	o.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if drop && old != "" {
		if err := o.chat.Delete(ctx, o.where, old); err != nil {
			o.log.Warn("delete a turn ping", "err", err)
		}
	}
	id := ""
	if next != nil {
		var err error
		if id, err = o.chat.Post(ctx, *next); err != nil {
			o.log.Warn("post a turn ping", "err", err)
		}
		o.mu.Lock()
		o.pingID = id
		o.mu.Unlock()
	}
	if next != nil || drop && old != "" {
		o.table.tell(func(ctx context.Context, t *actor) { t.storePing(ctx, id) })
	}
}

// --- the table's side -------------------------------------------------------------------------------

// initOutbox makes the table's outbox, starting from what the record says is on screen, the first
// time the table has something for its channel.
func (t *actor) initOutbox() {
	t.out = &outbox{chat: t.d.chat, log: t.d.log.With("table", t.id), shown: t.st.Rec.Screen}
	t.out.quiet = sync.NewCond(&t.out.mu)
	t.out.where = Message{Platform: t.st.Rec.Platform, Workspace: t.st.Rec.Workspace, Channel: t.st.Rec.Channel}
	if t.st.Rec.Screen.Ping != "" {
		t.out.pingID, t.out.pingDrop = t.st.Rec.Screen.Ping, true // from before a restart: the turn is pinged anew
	}
	t.out.now, t.out.table = t.d.cfg.Now, t
}

// cannotPost tells the host privately, once a session, that the platform refuses the bot the table's
// channel, and what to give it.
func (t *actor) cannotPost(ctx context.Context) {
	if !t.st.Open || t.toldDenied {
		return
	}
	t.toldDenied = true
	fix := "give the bot View Channel and Send Messages in this channel (Edit Channel > Permissions), or invite it again with the link in its log"
	if t.st.Rec.Platform == "slack" {
		fix = "type /invite @dealerbot in the channel"
	}
	t.d.log.Warn("the table's channel refuses the bot", "table", t.id)
	t.private(ctx, t.st.Rec.Host, render.Message{Text: "I cannot post the table in this channel, so nobody sees the game: " + fix + ". " +
		"Until then, `table` shows it to you privately."})
}

// storePing keeps the turn ping's ID with the table, so that a restart can take it down.
func (t *actor) storePing(ctx context.Context, id string) {
	if !t.st.Open || t.st.Rec.Screen.Ping == id {
		return
	}
	sc := t.st.Rec.Screen
	sc.Ping = id
	if err := t.apply(ctx, t.st.OnScreen(sc), nil); err != nil {
		t.d.log.Error("store the turn ping", "table", t.id, "err", err)
	}
}

// shown runs on the table goroutine when a version is on screen: a new message ID is stored with the
// table, and a turn whose version is now visible starts its timer.
func (t *actor) shown(ctx context.Context, hand int64, version uint64, s table.Screen) {
	if t.st.Open && (t.st.Rec.Screen.Hand != s.Hand || t.st.Rec.Screen.Message != s.Message) && (t.st.Rec.Hand == nil || t.st.Rec.Hand.No == hand) {
		sc := table.Screen{Hand: s.Hand, Message: s.Message, Ping: t.st.Rec.Screen.Ping, Posted: s.Posted}
		if err := t.apply(ctx, t.st.OnScreen(sc), nil); err != nil {
			t.d.log.Error("store the table message", "table", t.id, "err", err)
		}
	}
	if l := t.live; l != nil && l.no == hand && l.timerDue && version >= l.turnShown {
		t.startTurnTimer(l.wait)
	}
	if l := t.live; l != nil && l.no == hand && l.dealDue && version >= l.dealShown {
		l.dealDue = false
		t.scheduleDeal()
	}
}

// --- flushing: waiting until what the tables said is delivered ---------------------------------------

// Flush waits until every table has finished the commands queued before it and written the channel
// messages they caused (they go out in the background), also those of tables whose session ended, or
// until ctx ends. Given commands, it waits only for the tables of their channels (platform,
// workspace and channel) and the ended ones: a caller that waits for its own table's messages does
// not wait for every other table's.
func (d *Dealer) Flush(ctx context.Context, channels ...Command) error {
	d.mu.Lock()
	var tables []*actor
	if len(channels) == 0 {
		tables = slices.Collect(maps.Values(d.tables))
	}
	for _, cmd := range channels {
		if t := d.tables[tableID(cmd)]; t != nil {
			tables = append(tables, t)
		}
	}
	d.mu.Unlock()
	done := make(chan struct{})
	go func() {
		defer close(done)
		for _, t := range tables {
			var out *outbox
			t.tell(func(_ context.Context, t *actor) { out = t.out })
			if out != nil {
				out.wait()
			}
		}
		for _, o := range d.ended.busy() {
			o.wait()
		}
	}()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// endedOutboxes are the outboxes of tables whose session ended (their goroutine is gone) that may
// still be writing the last posts, the standings among them: Flush and Close wait for them too.
type endedOutboxes struct {
	mu    sync.Mutex
	boxes []*outbox
}

func (e *endedOutboxes) add(o *outbox) {
	e.mu.Lock()
	e.boxes = append(e.boxes, o)
	e.mu.Unlock()
}

// busy returns the outboxes that still have something to write, forgetting the others.
func (e *endedOutboxes) busy() []*outbox {
	e.mu.Lock()
	defer e.mu.Unlock()
	keep := e.boxes[:0]
	for _, o := range e.boxes {
		if !o.idle() {
			keep = append(keep, o)
		}
	}
	clear(e.boxes[len(keep):])
	e.boxes = keep
	return append([]*outbox(nil), keep...)
}
