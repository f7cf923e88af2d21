package bot

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/dealerbot/dealerbot/bot/table"
	"github.com/dealerbot/dealerbot/engine"
	"github.com/dealerbot/dealerbot/render"
	"github.com/dealerbot/dealerbot/render/picture"
)

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
	no         int64
	log        []string // the hand's action lines, oldest first
	result     []string // from the reveal or showdown on
	commitment string
	notes      []string // what the deal said: the button draw, a level change, a bomb pot...
	showdown   bool
	version    uint64
	deadline   time.Time // the turn's deadline shown, zero without a timer
	// turnShown is the version that first showed the current turn; the turn's timer starts when
	// that version is on screen.
	turnShown uint64
	timerDue  bool // the current turn's timer waits for its version to be shown
	wait      time.Duration
	pinged    string // the token of the turn its player was pinged for
	// What the showdown picture shows: the hands turned up, in the order shown, with what each makes
	// and won at the showdown (Shown.Name is filled in when the picture is made), and the awards.
	shown  []shownHand
	awards []string
}

// shownHand is a hand turned up: by hand index, as the picture shows it.
type shownHand struct {
	player int
	picture.Shown
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
	quiet    *sync.Cond // broadcast when the writer stops (busy turns false); on mu
	shown    Screen     // the message on screen
	done     uint64     // the newest version on screen (of shown.Hand)
	// report is told, on the writer's goroutine, of every version put on screen and the message ID;
	// pinged of the turn ping's ID whenever it changes ("" when it is gone).
	report func(hand int64, version uint64, shown Screen)
	denied func() // told, on the writer's goroutine, that the platform refused the bot the channel
	now    func() time.Time
	pinged func(id string)
}

type liveVersion struct {
	hand    int64
	version uint64
	msg     Message
	pic     *picture.Showdown // drawn by the writer and shown with msg, where the platform can
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
		o.shown, o.done = Screen{Hand: hand, Message: id, Posted: posted}, version
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
			if errors.Is(err, ErrCannotPost) && o.denied != nil {
				o.denied()
			}
			continue // a newer version, if any, tries again; the table goes on either way
		}
		o.mu.Lock()
		var shown Screen
		if o.shown.Hand != v.hand || v.version > o.done {
			o.shown, o.done = Screen{Hand: v.hand, Message: id, Posted: posted}, v.version
		}
		shown = o.shown
		o.mu.Unlock()
		if o.report != nil {
			o.report(v.hand, v.version, shown)
		}
	}
}

// draw makes the showdown picture of a hand; a picture that cannot be drawn is left out (logged), and
// the table message goes out without it.
func (o *outbox) draw(hand int64, v *picture.Showdown) *render.Picture {
	png, err := v.PNG()
	if err != nil {
		o.log.Warn("draw the showdown picture", "hand", hand, "err", err)
		return nil
	}
	return &render.Picture{Name: fmt.Sprintf("hand-%d.png", hand), Alt: v.AltText(), PNG: png}
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
	if (next != nil || drop && old != "") && o.pinged != nil {
		o.pinged(id)
	}
}

// --- the table's side -------------------------------------------------------------------------------

// initOutbox makes the table's outbox, starting from what the record says is on screen.
func (t *actor) initOutbox() {
	if t.out != nil {
		return
	}
	t.out = &outbox{chat: t.d.chat, log: t.d.log.With("table", t.id), shown: t.st.Rec.Screen}
	t.out.quiet = sync.NewCond(&t.out.mu)
	t.out.where = Message{Platform: t.st.Rec.Platform, Workspace: t.st.Rec.Workspace, Channel: t.st.Rec.Channel}
	if t.st.Rec.Screen.Ping != "" {
		t.out.pingID, t.out.pingDrop = t.st.Rec.Screen.Ping, true // from before a restart: the turn is pinged anew
	}
	t.out.pinged = func(id string) {
		_, _ = t.d.sendTo(context.Background(), t, job{fire: func(ctx context.Context, t *actor) { t.storePing(ctx, id) }})
	}
	t.out.report = func(hand int64, version uint64, shown Screen) {
		_, _ = t.d.sendTo(context.Background(), t, job{fire: func(ctx context.Context, t *actor) { t.shown(ctx, hand, version, shown) }})
	}
	t.out.now = t.d.cfg.Now
	t.out.denied = func() {
		_, _ = t.d.sendTo(context.Background(), t, job{fire: func(ctx context.Context, t *actor) { t.cannotPost(ctx) }})
	}
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
func (t *actor) shown(ctx context.Context, hand int64, version uint64, s Screen) {
	if t.st.Open && (t.st.Rec.Screen.Hand != s.Hand || t.st.Rec.Screen.Message != s.Message) && (t.st.Rec.Hand == nil || t.st.Rec.Hand.No == hand) {
		sc := Screen{Hand: s.Hand, Message: s.Message, Ping: t.st.Rec.Screen.Ping, Posted: s.Posted}
		if err := t.apply(ctx, t.st.OnScreen(sc), nil); err != nil {
			t.d.log.Error("store the table message", "table", t.id, "err", err)
		}
	}
	if l := t.live; l != nil && l.no == hand && l.timerDue && version >= l.turnShown {
		t.startTurnTimer(l.wait)
	}
}

// record adds a run of events to the hand's lines; with equity, an all-in's chances come after the
// hands are turned up.
func (t *actor) record(names render.Names, evs []engine.Event) {
	l := t.live
	if l == nil {
		return
	}
	if t.narr == nil {
		t.narr = &render.Narrator{Names: names, Style: t.style()}
	}
	for _, ev := range evs {
		if ev.Kind == engine.EvReveal || ev.Kind == engine.EvShow || ev.Kind == engine.EvMuck || ev.Kind == engine.EvAward && ev.Street == engine.Showdown {
			l.showdown = true
		}
		m, ok := t.narr.Event(ev)
		l.collect(ev, m.Text)
		if !ok {
			continue
		}
		if !l.showdown && (ev.Kind == engine.EvPots || ev.Kind == engine.EvBoard || ev.Kind == engine.EvEnd) {
			continue // the table message shows the board and pots itself
		}
		for _, line := range strings.Split(m.Text, "\n") {
			if l.showdown || ev.Kind == engine.EvAward {
				l.result = append(l.result, line)
			} else {
				l.log = append(l.log, line)
			}
		}
		if ev.Kind == engine.EvReveal {
			if eq, ok := equityMessage(ev, names, t.style()); ok {
				l.result = append(l.result, eq.Text)
			}
		}
	}
}

// collect keeps what the showdown picture shows: hands turned up (never a folded or mucked one),
// what they make, what they win and the awards as narrated (line).
func (l *liveHand) collect(ev engine.Event, line string) {
	hand := func(p int) *shownHand {
		for i := range l.shown {
			if l.shown[i].player == p {
				return &l.shown[i]
			}
		}
		l.shown = append(l.shown, shownHand{player: p})
		return &l.shown[len(l.shown)-1]
	}
	switch ev.Kind {
	case engine.EvReveal:
		for _, h := range ev.Hands {
			hand(h.Player).Cards = append([]engine.Card(nil), h.Cards[:]...)
		}
	case engine.EvShow:
		h := hand(ev.Player)
		h.Cards = append([]engine.Card(nil), ev.Cards...)
		if ev.Value != nil && h.Label == "" {
			h.Label = ev.Value.Description
		}
	case engine.EvAward:
		if ev.Street != engine.Showdown || len(l.shown) == 0 {
			return
		}
		switch pot := ev.Pots; {
		case len(pot) > 0 && len(pot[0].Shares) == len(pot[0].Winners) && len(pot[0].Winners) > 0:
			for i, w := range pot[0].Winners {
				hand(w).Won += pot[0].Shares[i]
			}
		case ev.Player >= 0:
			hand(ev.Player).Won += ev.Amount
		}
		if line != "" {
			l.awards = append(l.awards, line)
		}
	}
}

// picture is the showdown picture of a finished hand, or nil when no hand was turned up, the table
// has pictures=off or the platform shows none.
func (t *actor) picture(h *engine.Hand, names render.Names) *picture.Showdown {
	l := t.live
	if l == nil || !h.Done() || len(l.shown) == 0 || t.st.Rec.Settings.NoPictures {
		return nil
	}
	if p, ok := t.pictures(); !ok || !p.ShowsPictures(t.st.Rec.Platform) {
		return nil
	}
	v := &picture.Showdown{Title: fmt.Sprintf("Hand #%d", l.no), Board: h.Board(), Board2: h.Board2(), Pots: l.awards}
	if k := t.st.Rec.Settings.Cards; k == render.CardImages4 || k == render.CardEmoji {
		v.Colours = picture.FourColour // the table plays with a four-colour deck
	}
	for _, s := range l.shown {
		if len(s.Cards) == 0 {
			continue // a winner whose cards were not turned up is not drawn
		}
		s.Name = names.Name(s.player)
		v.Hands = append(v.Hands, s.Shown)
	}
	return v
}

// liveView is the hand's table message for engine hand h (dealt from hs to the players names).
func (t *actor) liveView(h *engine.Hand, hs *HandState, names render.Names) render.HandView {
	r := hs.Rules
	l := t.live
	v := render.HandView{TableView: render.TableView{Title: "Table", Variant: r.Variant, SmallBlind: r.SmallBlind, BigBlind: r.BigBlind,
		Ante: r.Ante, HandNo: hs.No, Board: h.Board(), Board2: h.Board2(), PotNames: names, Notes: append(t.st.Notes(), l.notes...),
		Tournament: table.TournamentView(t.st.Rec, t.d.cfg.Now())}, Log: l.log, Result: l.result, Commitment: l.commitment, Over: h.Done(),
		Showdown: l.showdown}
	if t.st.Rec.Tournament != nil {
		v.Title = "Tournament"
	}
	if !h.Done() {
		v.Pots = h.Pots()
	}
	bets, stacks := h.Bets(), h.Stacks()
	for p, s := range hs.Seats {
		v.Seats = append(v.Seats, render.SeatView{Seat: s, Name: names.Name(p), Stack: stacks[p], Bet: bets[p],
			Folded: h.Folded(p), AllIn: h.IsAllIn(p) && !h.Done(), Button: p == h.Button(), ToAct: !h.Done() && h.ToAct() == p})
	}
	if o, ok := h.Options(); ok && !h.Done() {
		secs := 0
		if !l.deadline.IsZero() {
			secs = int((l.deadline.Sub(t.d.cfg.Now()) + time.Second - 1) / time.Second)
		}
		v.Turn = &render.TurnView{Name: names.Name(o.Player), Options: o, SecondsLeft: max(secs, 0), Token: t.token(), Street: h.Street()}
	}
	return v
}

// showLive renders the hand's table message and delivers it: through the click being answered when the
// click was on this very message (Reply.Update, no channel budget spent), else by the outbox.
func (t *actor) showLive(h *engine.Hand, hs *HandState, names render.Names, ans *answer) {
	if t.live == nil {
		return // no hand on screen
	}
	t.initOutbox()
	l := t.live
	if l.pinged != "" && (h.Done() || t.token() != l.pinged) {
		t.out.unping() // the turn passed
		l.pinged = ""
	}
	l.version++
	m := render.HandTable(t.liveView(h, hs, names), t.style())
	msg := Message{Platform: t.st.Rec.Platform, Workspace: t.st.Rec.Workspace, Channel: t.st.Rec.Channel, Message: m}
	pic := t.picture(h, names)
	if ans != nil && ans.click != "" && t.out.editable(l.no, ans.click) {
		ans.update = &m
		t.out.deliveredBy(l.no, l.version, ans.click)
		if pic == nil {
			return
		}
		// The result is on screen at once through the click; the picture follows in an edit of its own.
		l.version++
	}
	t.out.put(liveVersion{hand: l.no, version: l.version, msg: msg, pic: pic})
}

// startTurnTimer starts the turn's clock: wait from now.
func (t *actor) startTurnTimer(wait time.Duration) {
	t.stopTurn()
	if t.live != nil {
		t.live.timerDue = false
		t.schedulePing()
	}
	if wait <= 0 || t.st.Hand == nil {
		return
	}
	tok := t.token()
	t.turnTimer = t.d.after(t, wait, func(ctx context.Context, t *actor) {
		if t.st.Hand == nil || t.token() != tok {
			return // acted in time
		}
		t.turnTimer = nil
		t.play(ctx, "timeout", table.State.Timeout, nil)
	})
}

// schedulePing pings the player to act if they have not acted PingAfter after their turn was shown.
func (t *actor) schedulePing() {
	l := t.live
	if t.d.cfg.PingAfter <= 0 || t.st.Hand == nil || t.st.Hand.Done() || t.out == nil || l.pinged == t.token() {
		return
	}
	tok := t.token()
	t.pingTimer = t.d.after(t, t.d.cfg.PingAfter, func(_ context.Context, t *actor) {
		t.pingTimer = nil
		if t.st.Hand == nil || t.live != l || t.token() != tok {
			return // acted in time, or the hand is over
		}
		o, ok := t.st.Hand.Options()
		if !ok {
			return
		}
		seat := t.st.Rec.Seats[t.st.Rec.Hand.Seats[o.Player]]
		text := fmt.Sprintf("🔔 %s, it is your turn in hand #%d", mention(t.st.Rec.Platform, seat.User, seat.Name), l.no)
		if o.ToCall > 0 {
			text += fmt.Sprintf(": %s to call", render.Chips(o.ToCall))
		}
		if !l.deadline.IsZero() {
			text += fmt.Sprintf(", %d s left", max(int(l.deadline.Sub(t.d.cfg.Now())/time.Second), 0))
		}
		m := t.out.where
		m.Message = render.Message{Text: text + "."}
		t.out.ping(m)
		l.pinged = tok
	})
}

// mention writes a user mention that notifies them: <@ID> on Discord and Slack, @name elsewhere.
func mention(platform, user, name string) string {
	switch platform {
	case "discord", "slack":
		return "<@" + user + ">"
	}
	return "@" + name
}

// newLive starts the table message of hand hs.
func (t *actor) newLive(hs *HandState) {
	t.live = &liveHand{no: hs.No, commitment: render.DeckCommitment(hs.Deck, hs.Salt)}
}
