package bot

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"github.com/dealerbot/dealerbot/bot/errs"
	"github.com/dealerbot/dealerbot/bot/table"
	"github.com/dealerbot/dealerbot/engine"
	"github.com/dealerbot/dealerbot/render"
)

// actor is one channel's table. Only its goroutine (loop) touches it after creation.
type actor struct {
	d    *Dealer
	id   string
	jobs chan job

	sendMu sync.RWMutex // senders hold it for reading; Close for writing, to close jobs
	closed bool         // jobs is closed; guarded by sendMu
	refs   int          // senders between look-up and queue; guarded by d.mu

	open bool        // a session is running
	rec  TableRecord // the state as last committed
	hand *engine.Hand
	narr *render.Narrator

	turnTimer Timer
	dealTimer Timer
	pingTimer Timer // the turn ping's grace period (live tables)

	pending map[string][]pendingMessage // private messages that could not be delivered, by user

	last *lastHand // the hand that ended most recently, for `show`

	// The running hand's table message, its outbox, and for the command being run the message its
	// click came from and the version to answer it with.
	live   *liveHand
	out    *outbox
	click  string
	update *render.Message

	// quarantined is set after a panic at this table: its hand was cancelled and it is no longer
	// dealt automatically (a deterministic fault would otherwise repeat every few seconds). `deal`
	// by a player clears it.
	quarantined bool

	// handFloor is the number of the channel's newest kept hand when the table was restored: the next
	// hand is numbered above it (a table opened now starts its count there itself).
	handFloor int64

	toldDenied bool // the host was told the platform refuses the bot this channel (cannotPost)
}

// lastHand remembers a finished hand for `show`.
type lastHand struct {
	no    int64
	hand  *engine.Hand
	seats []SeatRecord // the seat records of the hand's players, by hand index
	shown map[int]bool
}

func (t *actor) loop() {
	defer t.d.wg.Done()
	for j := range t.jobs {
		j.done <- t.runJob(j)
		if !t.open && t.d.retire(t) {
			break // no session: the goroutine ends, and `start` makes a new one
		}
	}
	t.stopTimers()
}

// runJob runs one job. A panic is recovered here, so one table's fault never takes the process (and
// every other table) down: it is logged with its stack, the hand in progress is cancelled with every
// chip back where it was before the hand, and the channel is told in one sentence.
func (t *actor) runJob(j job) (r Reply) {
	defer func() {
		if p := recover(); p != nil {
			// The panic value is logged, not the command's text or any hand state: hole cards stay out of logs.
			t.d.log.Error("panic at table", "table", t.id, "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
			t.afterPanic(j.ctx)
			r = Reply{Text: apology, IsError: true}
		}
	}()
	if j.fire != nil {
		j.fire(j.ctx, t)
		return Reply{}
	}
	return t.handle(j.ctx, j.cmd)
}

// afterPanic puts the table back on its last committed state, which the panic cannot have touched
// (t.rec changes only after a commit), and cancels the hand in progress: the seats still hold the
// stacks from before it.
func (t *actor) afterPanic(ctx context.Context) {
	if !t.open {
		t.stopTimers()
		t.hand, t.narr, t.rec = nil, nil, TableRecord{}
		return
	}
	no, err := t.cancelAndQuarantine(ctx, t.rec)
	switch {
	case err != nil:
		t.d.log.Error("cancel hand after panic", "table", t.id, "err", err)
	case no == 0:
		t.publicf("Something went wrong on my side. No chips moved; type `deal` to play on or `end` to cash everyone out.")
	default:
		t.publicf("Something went wrong on my side, so hand #%d is cancelled and every chip is back where it was before it: type `deal` to play on or `end` to cash everyone out.", no)
	}
}

// cancelAndQuarantine makes rec the open table without a hand in progress (the seats still hold the
// stacks from before it, so every chip is back) and stops automatic deals. It returns the number of
// the cancelled hand, 0 when none was in progress.
func (t *actor) cancelAndQuarantine(ctx context.Context, rec TableRecord) (int64, error) {
	t.stopTimers()
	t.open, t.rec, t.hand, t.narr, t.quarantined = true, rec, nil, nil, true
	if rec.Hand == nil {
		return 0, nil
	}
	n := rec.Clone()
	n.Hand = nil
	return rec.Hand.No, t.commit(ctx, n, Change{})
}

func (t *actor) stopTimers() {
	t.stopTurn()
	stop(&t.dealTimer)
}

// stopTurn stops the current turn's clock and its ping.
func (t *actor) stopTurn() {
	stop(&t.turnTimer)
	stop(&t.pingTimer)
}

// stop stops a timer, if any, and forgets it.
func stop(tm *Timer) {
	if *tm != nil {
		(*tm).Stop()
		*tm = nil
	}
}

// pictures is the chat's Pictures capability, if it has one.
func (t *actor) pictures() (Pictures, bool) {
	p, ok := t.d.chat.(Pictures)
	return p, ok
}

// hasCardPictures reports whether the platform draws cards as pictures at all.
func (t *actor) hasCardPictures(platform string) bool {
	if p, ok := t.pictures(); ok {
		_, ok = p.CardFaces(platform, false)
		return ok
	}
	return false
}

// defaults are the settings of a bare `start` here: DefaultSettings, with card pictures on a platform
// that has them.
func (t *actor) defaults(platform string) Settings {
	s := DefaultSettings()
	if t.hasCardPictures(platform) {
		s.Cards = render.CardImages
	}
	return s
}

// checkCards refuses card pictures a player asks for on a platform that has none. A scheduled game
// started with them plays with emoji cards instead of not starting.
func (t *actor) checkCards(cmd Command, s Settings) error {
	if s.Cards < render.CardImages || cmd.Schedule != "" || t.hasCardPictures(cmd.Platform) {
		return nil
	}
	return userErrorf("Card pictures are drawn on Discord only: write cards=emoji or cards=text here.")
}

// style is how the table draws cards (cardStyle).
func (t *actor) style() render.CardStyle { return cardStyle(t.d.chat, t.rec) }

// cardStyle is how a table draws cards: its setting, with the platform's card pictures for a table
// that chose pictures (drawn as emoji while the platform has none).
func cardStyle(chat Chat, rec TableRecord) render.CardStyle {
	k := rec.Settings.Cards
	switch k {
	case render.CardText, render.CardEmoji:
		return render.CardStyle{Kind: k}
	}
	st := render.CardStyle{Kind: k}
	if p, ok := chat.(Pictures); ok {
		st.Faces, _ = p.CardFaces(rec.Platform, k == render.CardImages4)
	}
	if st.Faces == nil {
		st.Kind = render.CardEmoji
	}
	return st
}

// --- sending -----------------------------------------------------------------------------------

// public posts msgs to the table's channel through the table's outbox, written when the platform
// allows and never holding up the table.
func (t *actor) public(msgs ...render.Message) {
	t.initOutbox()
	for _, m := range msgs {
		m.Private = false
		t.out.say(Message{Platform: t.rec.Platform, Workspace: t.rec.Workspace, Channel: t.rec.Channel, Message: m})
	}
}

func (t *actor) publicf(format string, args ...any) {
	t.public(render.Message{Text: fmt.Sprintf(format, args...)})
}

// private sends m to one user: by DM, else ephemerally, else kept for the user's next reply.
func (t *actor) private(ctx context.Context, user string, m render.Message) {
	m.Private = true
	msg := Message{Platform: t.rec.Platform, Workspace: t.rec.Workspace, Channel: t.rec.Channel, User: user, Message: m}
	err := t.d.chat.Send(ctx, msg)
	if err == nil {
		return
	}
	blocked := errors.Is(err, ErrDMBlocked)
	if !blocked {
		// Not the user's settings: log it (never the text, which may hold cards) and still deliver.
		t.d.log.Error("send private message", "table", t.id, "user", user, "err", err)
	}
	if e, ok := t.d.chat.(Ephemeral); ok {
		if err := e.SendEphemeral(ctx, msg); err == nil {
			return
		}
	}
	if blocked && t.d.warnDM(t.rec.Workspace, user) {
		t.pending[user] = append(t.pending[user], pendingMessage{m: render.Message{Private: true,
			Text: "I could not send you a direct message. Allow direct messages from members of this server " +
				"(or workspace) to get your cards privately; until then type `cards` or use the button below."}})
	}
	var hand int64
	if t.hand != nil && t.rec.Hand != nil {
		hand = t.rec.Hand.No
	}
	t.pending[user] = append(t.pending[user], pendingMessage{hand: hand, m: m})
}

// pendingMessage is a private message kept for the user's next reply; hand is the hand it belongs
// to (0: none), after which it is of no use.
type pendingMessage struct {
	hand int64
	m    render.Message
}

// dropPending forgets the undelivered messages of hand no, which has ended: its cards must not turn
// up with the next hand's first click.
func (t *actor) dropPending(no int64) {
	for user, p := range t.pending {
		keep := p[:0]
		for _, pm := range p {
			if pm.hand != no {
				keep = append(keep, pm)
			}
		}
		if len(keep) == 0 {
			delete(t.pending, user)
		} else {
			t.pending[user] = keep
		}
	}
}

// withPending attaches the user's undelivered private messages to their reply.
func (t *actor) withPending(user string, r Reply) Reply {
	p := t.pending[user]
	if len(p) == 0 {
		return r
	}
	delete(t.pending, user)
	for _, pm := range p {
		r.Extra = append(r.Extra, pm.m)
	}
	r.Buttons = append(r.Buttons, render.Button{Label: "Show my cards", Command: "cards", Style: render.Secondary})
	return r
}

// --- persistence -------------------------------------------------------------------------------

// commit writes the table with extra changes. On failure the caller must restore its in-memory state.
func (t *actor) commit(ctx context.Context, rec TableRecord, c Change) error {
	c.Table = &rec
	if err := t.d.store.Commit(ctx, c); err != nil {
		return fmt.Errorf("commit table %s: %w", t.id, err)
	}
	t.rec = rec
	return nil
}

// lastHandNo returns the number of the newest hand kept for this channel, 0 when there is none.
func (t *actor) lastHandNo(ctx context.Context) (int64, error) {
	hands, err := t.d.store.Hands(ctx, t.id, 1)
	if err != nil || len(hands) == 0 {
		return 0, err
	}
	return hands[0].No, nil
}

// --- restore -----------------------------------------------------------------------------------

// restore loads a table on start-up. It runs before the table gets any job. A table whose restore
// panics, or whose stored settings are out of range, is quarantined instead of crashing the start:
// its hand is cancelled with every chip returned and it is not dealt automatically.
func (t *actor) restore(ctx context.Context, rec TableRecord) error {
	done := make(chan error, 1)
	t.jobs <- job{ctx: ctx, done: make(chan Reply, 1), fire: func(ctx context.Context, t *actor) {
		var err error
		defer func() {
			if p := recover(); p != nil {
				t.d.log.Error("panic restoring table: quarantined", "table", t.id, "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
				err = t.quarantine(ctx, rec, "hit an error while I restarted")
			}
			done <- err
		}()
		err = t.restoreNow(ctx, rec)
	}}
	return <-done
}

// quarantine opens a restored table without dealing: the hand in progress is cancelled, chips
// returned, and the channel told what the host can do.
func (t *actor) quarantine(ctx context.Context, rec TableRecord, why string) error {
	if _, err := t.cancelAndQuarantine(ctx, rec); err != nil {
		return err
	}
	t.publicf("This table %s: any hand in play is cancelled with every chip back, and I deal no more hands by myself. "+
		"The host can type `end` to cash everyone out, or `deal` to try again.", why)
	return nil
}

func (t *actor) restoreNow(ctx context.Context, rec TableRecord) error {
	if err := rec.Settings.Validate(); err != nil {
		t.d.log.Error("stored settings out of range: quarantined", "table", t.id, "err", err)
		return t.quarantine(ctx, rec, "has settings out of range")
	}
	t.open = true
	t.rec = rec
	floor, err := t.lastHandNo(ctx)
	if err != nil {
		return err
	}
	t.handFloor = floor
	if rec.Hand == nil {
		t.scheduleDeal()
		return nil
	}
	h, err := engine.Replay(rec.Hand.Setup(), rec.Hand.Actions)
	if err == nil && !h.Done() {
		t.hand = h
		t.narr = &render.Narrator{Names: t.names(), Style: t.style()}
		t.newLive(rec.Hand)
		t.record(t.names(), h.Events()) // the hand's lines so far, for the same table message
		t.d.log.Info("resumed hand", "table", t.id, "hand", rec.Hand.No, "actions", len(rec.Hand.Actions))
		t.afterStep(ctx)
		return nil
	}
	// The hand cannot go on: cancel it. The seats still hold the stacks from before the hand.
	no := rec.Hand.No
	n := rec.Clone()
	n.Hand = nil
	if cerr := t.commit(ctx, n, Change{}); cerr != nil {
		return cerr
	}
	t.d.log.Warn("cancelled hand after restart", "table", t.id, "hand", no, "err", err)
	t.publicf("Hand #%d could not be resumed after a restart and is cancelled: every chip is back where it was before the hand.", no)
	t.scheduleDeal()
	return nil
}

// --- helpers -----------------------------------------------------------------------------------

func (t *actor) seatOf(user string) int {
	for i, s := range t.rec.Seats {
		if s.User == user {
			return i
		}
	}
	return -1
}

// playerOf returns the hand index of a seat, or -1 when the seat is not in the running hand.
func (t *actor) playerOf(seat int) int {
	if t.rec.Hand == nil {
		return -1
	}
	for p, s := range t.rec.Hand.Seats {
		if s == seat {
			return p
		}
	}
	return -1
}

// names returns the display names of the running hand's players.
func (t *actor) names() render.Names {
	if t.rec.Hand == nil {
		return nil
	}
	ns := make(render.Names, len(t.rec.Hand.Seats))
	for p, s := range t.rec.Hand.Seats {
		ns[p] = t.rec.Seats[s].Name
	}
	return ns
}

func (t *actor) token() string {
	if t.hand == nil {
		return ""
	}
	return fmt.Sprintf("%d.%d", t.rec.Hand.No, len(t.rec.Hand.Actions))
}

// playing returns the seats that would be dealt into the next hand. In a tournament a player who is
// away is dealt in too: their blinds are posted and their hand folded.
func (t *actor) playing() []int {
	var out []int
	tourney := t.rec.Tournament != nil
	for i, s := range t.rec.Seats {
		if s.User != "" && (tourney || !s.SittingOut && !s.Leaving) && s.Stack > 0 {
			out = append(out, i)
		}
	}
	return out
}

// roomFor refuses chips that would take the table past engine.MaxChips in all. Every stack is then
// within the engine's ceiling, and so is every pot, however the chips move between players.
func (t *actor) roomFor(amount int64) error {
	var on int64
	for _, s := range t.rec.Seats {
		on += s.Stack // at most MaxChips in all, by this check
	}
	if amount > engine.MaxChips-on {
		return userErrorf("A table may hold at most %s chips in all and this one holds %s: bring at most %s.",
			render.Chips(engine.MaxChips), render.Chips(on), render.Chips(max(0, engine.MaxChips-on)))
	}
	return nil
}

// isHost reports whether cmd may use the host's powers here. A schedule's command has exactly the
// authority of that schedule: over the table it opened, and no other.
func (t *actor) isHost(cmd Command) bool {
	if cmd.Schedule != "" {
		return cmd.Schedule == t.rec.Schedule
	}
	return cmd.Admin || cmd.User == t.rec.Host
}

// --- hands -------------------------------------------------------------------------------------

func (t *actor) shuffle() (engine.Deck, error) {
	t.d.randMu.Lock()
	defer t.d.randMu.Unlock()
	return engine.ShuffledDeck(t.d.cfg.Rand)
}

// deal starts the next hand. It is a no-op when a hand is running or fewer than two can play.
func (t *actor) deal(ctx context.Context) error {
	stop(&t.dealTimer)
	if !t.open || t.hand != nil {
		return nil
	}
	now := t.d.cfg.Now()
	if t.rec.Settings.EndMinutes > 0 && now.Sub(t.rec.Started) >= time.Duration(t.rec.Settings.EndMinutes)*time.Minute {
		t.publicf("Time is up: the session is over.")
		return t.endSession(ctx)
	}
	seats := t.playing()
	if len(seats) < 2 {
		if t.rec.Tournament != nil {
			return userErrorf("A tournament needs two players to begin: wait for another to `join`.")
		}
		return userErrorf("A hand needs two players with chips who are not sitting out: wait for someone to `join` or `sitin`.")
	}
	n := t.rec.Clone()
	var notes []string
	levelFrom := n.Started
	if tr := n.Tournament; tr != nil {
		if tr.Began.IsZero() {
			tr.Began = now
			paid := tr.PrizeList()
			var ps []string
			for i, p := range paid {
				ps = append(ps, fmt.Sprintf("%s %s", table.Ordinal(i+1), render.Chips(p)))
			}
			line := fmt.Sprintf("The tournament begins: %d entrants, prize pool %s; prizes %s", len(tr.Entries), render.Chips(tr.Pool()), strings.Join(ps, ", "))
			if n.Settings.Rebuys != 0 {
				line += " (before rebuys)"
			}
			notes = append(notes, line+".")
		}
		levelFrom = tr.Began
	}
	level := n.Settings.Level(now.Sub(levelFrom), n.HandNo-n.HandBase)
	if level > n.Level {
		n.Level, n.LevelAt, n.LevelHand = level, now, n.HandNo
		r := n.Settings.Rules(level)
		line := fmt.Sprintf("Blinds go up: level %d, %s/%s", level+1, render.Chips(r.SmallBlind), render.Chips(r.BigBlind))
		if r.Ante > 0 {
			line += ", ante " + render.Chips(r.Ante)
		}
		if tv := table.TournamentView(n, now); tv != nil && tv.NextIn != "" {
			line += fmt.Sprintf("; next %s/%s %s", render.Chips(tv.NextSmall), render.Chips(tv.NextBig), tv.NextIn)
		}
		notes = append(notes, line+".")
	}
	if n.Button < 0 {
		d, err := t.shuffle()
		if err != nil {
			return err
		}
		tb, err := engine.NewTable(len(n.Seats), n.Settings.Rules(0))
		if err != nil {
			return err
		}
		for i, s := range n.Seats {
			tb.Seats[i] = engine.Seat{Player: s.User, Stack: s.Stack, SittingOut: !contains(seats, i)}
		}
		var b strings.Builder
		b.WriteString("Draw for the button:")
		for _, dr := range tb.DrawForButton(d) {
			fmt.Fprintf(&b, " %s %s", n.Seats[dr.Seat].Name, render.Card(dr.Card, t.style()))
			if dr.Round > 1 {
				fmt.Fprintf(&b, " (round %d)", dr.Round)
			}
			b.WriteString(",")
		}
		n.Button = tb.Button
		notes = append(notes, strings.TrimSuffix(b.String(), ",")+". "+n.Seats[n.Button].Name+" has the button.")
	} else {
		n.Button = nextButton(n.Button, len(n.Seats), seats)
	}
	deck, err := t.shuffle()
	if err != nil {
		return err
	}
	salt := make([]byte, 16)
	if err := t.d.readRand(salt); err != nil {
		return err
	}
	if floor := t.handFloor; n.HandNo < floor {
		// The channel kept hands numbered past this session's (a database from before numbers went on
		// across sessions): skip past them rather than reuse a number.
		n.HandBase += floor - n.HandNo
		n.HandNo = floor
	}
	hs := &HandState{No: n.HandNo + 1, Rules: n.Settings.Rules(n.Level), Seats: seats, Deck: deck,
		Salt: hex.EncodeToString(salt), Proof: render.ProofVersion, Deadline: t.deadline()}
	for i, s := range seats {
		hs.Stacks = append(hs.Stacks, n.Seats[s].Stack)
		if s == n.Button {
			hs.Button = i
		}
	}
	hs.RunTwice = n.Settings.RunTwice
	switch {
	case n.BombPot > 0:
		hs.BombPot, n.BombPot = min(n.BombPot, engine.MaxChips), 0
		notes = append(notes, fmt.Sprintf("Bomb pot: everyone puts in %s, no blinds, and the flop comes at once.", render.Chips(hs.BombPot)))
	case n.Settings.Straddle && len(seats) > 2:
		utg := seats[engine.UnderTheGun(len(seats), hs.Button)]
		if n.Seats[utg].Straddle {
			n.Seats[utg].Straddle = false // the opt-in is for one hand under the gun
			hs.Straddle = true
			if err := hs.Setup().CheckStraddle(); err != nil {
				hs.Straddle = false
				notes = append(notes, fmt.Sprintf("%s cannot straddle this hand: %s", n.Seats[utg].Name, err.Error()))
			}
		}
	}
	h, err := engine.NewHand(hs.Setup())
	if err != nil {
		return err
	}
	n.HandNo = hs.No
	n.Hand = hs
	if err := t.commit(ctx, n, Change{}); err != nil {
		return err
	}
	t.hand = h
	t.narr = &render.Narrator{Names: t.names(), Style: t.style()}
	t.newLive(hs)
	t.live.notes = notes // on the hand's table message, rather than in a post of their own
	for p, s := range seats {
		t.private(ctx, t.rec.Seats[s].User, render.HoleCards(h.Hole(p), hs.No, t.style()))
	}
	if h.Done() {
		// Antes or blinds put everyone all-in: the board was run out inside NewHand.
		return t.finish(ctx, t.rec.Clone(), h.Events(), false)
	}
	t.record(t.names(), h.Events())
	t.afterStep(ctx)
	return nil
}

// act applies one step for the player to act (do: an action, a timeout, a forfeit), commits it and
// tells the channel; timeout marks a step the clock took. On a failed commit the hand is rebuilt as
// it was and nothing is said.
func (t *actor) act(ctx context.Context, do func(*engine.Hand) ([]engine.Event, error), timeout bool) error {
	evs, err := do(t.hand)
	if err != nil {
		return err
	}
	n := t.rec.Clone()
	acts := t.hand.Actions()
	if timeout {
		n.Hand.TimedOut = append(n.Hand.TimedOut, acts[len(acts)-1].Player)
	}
	n.Hand.Actions = acts
	if t.hand.Done() {
		return t.finish(ctx, n, evs, timeout)
	}
	n.Hand.Deadline = t.deadline()
	log := &ActionLog{Table: n.ID, HandNo: n.Hand.No, Actions: n.Hand.Actions, TimedOut: n.Hand.TimedOut, Deadline: n.Hand.Deadline}
	if err := t.d.store.Commit(ctx, Change{Actions: log}); err != nil {
		t.hand = t.rebuild()
		return fmt.Errorf("commit action at %s: %w", t.id, err)
	}
	t.rec = n
	t.tell(t.names(), evs, timeout, acts)
	t.afterStep(ctx)
	return nil
}

// tell reports what a step did on the hand's table message. With timeout, the clock took the last
// of acts.
func (t *actor) tell(names render.Names, evs []engine.Event, timeout bool, acts []engine.Action) {
	if timeout {
		t.live.log = append(t.live.log, names.Name(acts[len(acts)-1].Player)+" ran out of time")
	}
	t.record(names, evs)
}

// rebuild replays the committed hand after a failed commit; Apply already changed the live one.
func (t *actor) rebuild() *engine.Hand {
	h, err := engine.Replay(t.rec.Hand.Setup(), t.rec.Hand.Actions)
	if err != nil {
		t.d.log.Error("rebuild hand", "table", t.id, "err", err)
		return nil
	}
	return h
}

// restartGrace is the least time a player gets to act after the dealer restarts.
const restartGrace = 15 * time.Second

// showBackstop is how long a turn waits to be shown before its clock starts anyway.
const showBackstop = 10 * time.Second

// deadline is when a turn starting now runs out; zero without a turn timer.
func (t *actor) deadline() time.Time {
	if t.rec.Settings.Timer <= 0 {
		return time.Time{}
	}
	return t.d.cfg.Now().Add(time.Duration(t.rec.Settings.Timer) * time.Second)
}

// afterStep prompts the player to act and starts their timer; a leaving player folds at once.
func (t *actor) afterStep(ctx context.Context) {
	t.stopTurn()
	if t.hand == nil || t.hand.Done() {
		return
	}
	p := t.hand.ToAct()
	seat := t.rec.Hand.Seats[p]
	if st := t.rec.Seats[seat]; st.Leaving || st.SittingOut && t.rec.Tournament != nil {
		if err := t.act(ctx, (*engine.Hand).Forfeit, false); err != nil {
			t.d.log.Error("act for leaving player", "table", t.id, "err", err)
		}
		return
	}
	wait := time.Duration(t.rec.Settings.Timer) * time.Second
	if dl := t.rec.Hand.Deadline; wait > 0 && !dl.IsZero() {
		// After a restart the player has the time that was left, but never less than a grace period.
		if left := dl.Sub(t.d.cfg.Now()); left < wait {
			wait = max(left, restartGrace)
		}
	}
	l := t.live
	l.deadline, l.wait = time.Time{}, wait
	if wait > 0 {
		l.deadline = t.d.cfg.Now().Add(wait)
	}
	t.showLive(t.hand, t.rec.Hand, t.names())
	if t.update != nil || wait <= 0 {
		t.startTurnTimer(wait) // on screen already: the click's response shows it
		return
	}
	// The clock starts when the turn is on screen (outbox report), or after a short backstop if the
	// platform does not show it, so a table never waits for ever.
	l.timerDue, l.turnShown = true, l.version
	tok := t.token()
	t.d.after(t, showBackstop, func(ctx context.Context, t *actor) {
		if t.live == l && l.timerDue && t.token() == tok {
			t.startTurnTimer(wait)
		}
	})
}

// emptySeat is the first free seat, or -1 when the table is full.
func (t *actor) emptySeat() int {
	for i, st := range t.rec.Seats {
		if st.User == "" {
			return i
		}
	}
	return -1
}

// bankrollFor is what the user can pay from: their bankroll, or the starting bankroll a new player
// gets (with the grant to record); the user must have at least amount, else refusal is the sentence.
func (t *actor) bankrollFor(ctx context.Context, cmd Command, amount int64, refusal string) (grant []LedgerEntry, err error) {
	p, known, err := t.d.store.Player(ctx, cmd.Workspace, cmd.User)
	if err != nil {
		return nil, err
	}
	bank := p.Bankroll
	if !known {
		bank = t.d.cfg.StartingBankroll
		grant = []LedgerEntry{{Time: t.d.cfg.Now(), Kind: KindGrant, Workspace: cmd.Workspace, User: cmd.User,
			Name: cmd.UserName, Table: t.id, Bankroll: t.d.cfg.StartingBankroll}}
	}
	if bank < amount {
		return nil, userErrorf(refusal, render.Chips(bank))
	}
	return grant, nil
}

// finish commits everything a finished hand changes in one transaction, then tells the channel.
func (t *actor) finish(ctx context.Context, n TableRecord, evs []engine.Event, timeout bool) error {
	h := t.hand
	hs := n.Hand
	final := h.Stacks()
	now := t.d.cfg.Now()
	var c Change
	names := make([]string, len(hs.Seats))
	users := make([]string, len(hs.Seats))
	seatNos := make([]int, len(hs.Seats))
	players := make([]SeatRecord, len(hs.Seats))
	var notes []string
	for p, s := range hs.Seats {
		seat := &n.Seats[s]
		names[p], users[p], seatNos[p] = seat.Name, seat.User, s+1
		e := LedgerEntry{Time: now, Kind: KindResult, Workspace: n.Workspace, User: seat.User,
			Name: seat.Name, Table: n.ID, HandNo: hs.No, OnTable: final[p] - hs.Stacks[p]}
		if n.Tournament != nil {
			e.OnTable = 0 // tournament chips are not bankroll chips; the entry counts the hand played
		}
		c.Ledger = append(c.Ledger, e)
		seat.Stack = final[p]
		if contains(hs.TimedOut, p) {
			seat.TimedOut++
			if seat.TimedOut >= 2 && !seat.SittingOut {
				seat.SittingOut = true
				notes = append(notes, fmt.Sprintf("%s ran out of time two hands in a row and is sitting out: type `sitin` to play again.", seat.Name))
			}
		} else {
			seat.TimedOut = 0
		}
		players[p] = *seat
	}
	for i := range n.Seats {
		seat := &n.Seats[i]
		if seat.User != "" && seat.Leaving {
			notes = append(notes, fmt.Sprintf("%s leaves the table with %s chips.", seat.Name, render.Chips(seat.Stack)))
			t.cashOut(&n, &c, i, now)
		}
	}
	if n.Tournament != nil {
		notes = append(notes, table.Eliminate(&n, hs, final)...)
	}
	c.Hand = &HandRecord{Table: n.ID, No: hs.No, Time: now, Names: names, Users: users, Seats: seatNos, Size: len(n.Seats), Rules: hs.Rules, Stacks: hs.Stacks,
		Button: hs.Button, Deck: hs.Deck, Salt: hs.Salt, Proof: hs.Proof, Straddle: hs.Straddle, BombPot: hs.BombPot, RunTwice: hs.RunTwice,
		Actions: hs.Actions, Final: final}
	n.Hand = nil
	if err := t.commit(ctx, n, c); err != nil {
		t.hand = t.rebuild()
		return err
	}
	t.hand = nil
	t.dropPending(hs.No)
	t.stopTurn()
	t.last = &lastHand{no: hs.No, hand: h, seats: players, shown: map[int]bool{}}
	for _, ev := range h.Events() {
		if ev.Kind == engine.EvShow {
			t.last.shown[ev.Player] = true
		}
		if ev.Kind == engine.EvReveal {
			for _, r := range ev.Hands {
				t.last.shown[r.Player] = true
			}
		}
	}
	t.tell(names, evs, timeout, hs.Actions) // t.names() needs the hand record, which is gone
	// The deck is not revealed: it would show every folded hand. `verify N` opens the public cards.
	var broke []string
	for _, s := range t.rec.Seats {
		if s.User != "" && s.Stack == 0 {
			broke = append(broke, s.Name)
		}
	}
	cash := t.rec.Tournament == nil && !t.rec.Ending
	over := cash && len(t.playing()) < 2 && t.rec.Settings.Rebuys == 0 && len(broke) > 0
	switch {
	case over:
		notes = append(notes, "One player holds every chip: the session is over.")
	case cash:
		for _, name := range broke {
			notes = append(notes, fmt.Sprintf("%s is out of chips: `rebuy` to play on or `leave`.", name))
		}
	}
	// The hand's last version: the showdown, the awards and what they mean for the table, in the
	// message already on screen rather than in posts of their own.
	t.live.result = append(t.live.result, notes...)
	t.showLive(h, hs, names)
	switch {
	case t.rec.Ending, over, t.rec.Tournament != nil && len(t.playing()) < 2:
		return t.endSession(ctx)
	}
	t.scheduleDeal()
	return nil
}

// cashOut moves a seat's stack back to the bankroll and empties the seat.
func (t *actor) cashOut(n *TableRecord, c *Change, seat int, now time.Time) {
	s := n.Seats[seat]
	c.Ledger = append(c.Ledger, LedgerEntry{Time: now, Kind: KindCashOut, Workspace: n.Workspace, User: s.User,
		Name: s.Name, Table: n.ID, Bankroll: s.Stack, OnTable: -s.Stack})
	if i := table.StandingIndex(n.Standings, s.User); i >= 0 {
		n.Standings[i].CashedOut += s.Stack
	}
	n.Seats[seat] = SeatRecord{}
}

// scheduleDeal starts the pause before the automatic next hand when two or more can play.
func (t *actor) scheduleDeal() {
	if t.quarantined || !t.open || t.hand != nil || t.dealTimer != nil || t.rec.HandNo == t.rec.HandBase || len(t.playing()) < 2 {
		return
	}
	t.dealTimer = t.d.after(t, t.d.cfg.DealDelay, func(ctx context.Context, t *actor) {
		t.dealTimer = nil
		if err := t.deal(ctx); err != nil {
			if errs.CodeOf(err) == errs.Internal {
				t.d.log.Error("automatic deal", "table", t.id, "err", err)
			}
		}
	})
}

// endSession cashes everyone out, records the standings and closes the table, in one commit.
func (t *actor) endSession(ctx context.Context) error {
	now := t.d.cfg.Now()
	n := t.rec.Clone()
	var c Change
	var result render.Message
	if n.Tournament != nil {
		result = table.PayTournament(&n, &c, now)
	}
	for i, s := range n.Seats {
		if s.User != "" {
			t.cashOut(&n, &c, i, now)
		}
	}
	c.Session = &SessionRecord{Table: n.ID, Schedule: n.Schedule, Started: n.Started, Ended: now, Standings: n.Standings,
		HandBase: n.HandBase, HandNo: n.HandNo}
	c.DeleteTable = n.ID
	if err := t.d.store.Commit(ctx, c); err != nil {
		return fmt.Errorf("end session at %s: %w", t.id, err)
	}
	t.stopTimers()
	rows := make([]render.Standing, len(n.Standings))
	for i, s := range n.Standings {
		rows[i] = render.Standing{Name: s.Name, BoughtIn: s.BoughtIn, CashedOut: s.CashedOut}
	}
	if n.Tournament != nil {
		t.public(result)
	} else {
		t.public(render.Standings("Session over — standings", rows))
	}
	t.open, t.rec, t.hand, t.narr, t.last, t.quarantined = false, TableRecord{}, nil, nil, nil, false
	return nil
}

// nextButton is the seat the button moves to: the next seat clockwise that is dealt in.
func nextButton(button, size int, dealt []int) int {
	for i := 1; i <= size; i++ {
		if s := (button + i) % size; contains(dealt, s) {
			return s
		}
	}
	return -1
}

func contains(s []int, x int) bool {
	for _, v := range s {
		if v == x {
			return true
		}
	}
	return false
}
