package table

import (
	"context"
	"slices"
	"time"

	"github.com/dealerbot/dealerbot/bot/money"
	"github.com/dealerbot/dealerbot/engine"
)

// Change is everything one step of the dealer writes, committed in one transaction.
type Change struct {
	Table *TableRecord // put this table state
	// Actions is the action log of a table's running hand. A player's action writes only this small
	// record, not the whole table; Tables puts the newest log back into the table's hand.
	Actions     *ActionLog
	DeleteTable string // remove this table (after its session ended)
	Ledger      []LedgerEntry
	Hand        *HandRecord    // a finished hand
	Session     *SessionRecord // a finished session
	// Fence, when set, is the lease the change is written under: a store shared by several
	// processes applies it only while Fence.Owner still holds Fence.Community at Fence.Epoch, checked
	// in the same transaction as the writes. The shell sets it; the core never does.
	Fence *Fence `json:",omitempty"`
	// Once, when set, is the platform's ID of the delivery that caused the change (an interaction
	// or event ID): the store records it in the same transaction and refuses a second change with
	// the same ID (ErrApplied), so a delivery that arrives twice, at one process or at two, is
	// applied once. The shell sets it.
	Once string `json:",omitempty"`
	// Money are events for the money book of the table's community (a session's results and its
	// settle-up's debts), appended in the same transaction when the book's newest event is still
	// MoneyAfter (bot.ErrMoneyMoved otherwise, and nothing is written), so the debts' numbers the
	// settle-up shows are theirs.
	Money      []money.Event `json:",omitempty"`
	MoneyAfter uint64        `json:",omitempty"`
	// Step, when set, names this change (a key unique to it, set by the shell) and makes it
	// conditional: the store applies it only while the table it writes (TableID) is still at
	// version Base, in the same transaction as the writes (ErrStale otherwise, and nothing is
	// written), and keeps Step with the table's new version Base+1, so that a writer who never heard
	// the outcome can read back whether its change landed (TableRecord.Step). Every write of a
	// table's records moves its version on, stepped or not.
	Step string `json:",omitempty"`
	Base int64  `json:",omitempty"`
	// Answer, when set, is the reply to a command another process forwarded through a shared store's
	// inbox (its number and the reply as JSON): the store writes it in the same transaction as the
	// rest, so a command's answer and its effect land together. The shell sets it.
	Answer *InboxAnswer `json:",omitempty"`
}

// InboxAnswer is the reply to a forwarded command that a Change carries (Change.Answer).
type InboxAnswer struct {
	Seq   int64
	Reply []byte
}

// TableID is the table whose records the change writes, "" when it writes none.
func (c Change) TableID() string {
	switch {
	case c.Table != nil:
		return c.Table.ID
	case c.Actions != nil:
		return c.Actions.Table
	}
	return c.DeleteTable
}

// Fence names a community's lease at one epoch (a fencing token).
type Fence struct {
	Community string // "discord/GUILD", "slack/TEAM", "console/console": Community(platform, workspace)
	Owner     string // the process holding the lease
	Epoch     int64  // bumped by every takeover, so a lease lost and taken back is not the same lease
}

// Community is the name of the community (a Discord guild, a Slack team, the console) a table or a
// schedule of that platform and workspace belongs to. One process at a time owns a community.
func Community(platform, workspace string) string { return platform + "/" + workspace }

// Empty reports whether the change writes nothing.
func (c Change) Empty() bool {
	return c.Table == nil && c.Actions == nil && c.DeleteTable == "" && len(c.Ledger) == 0 && c.Hand == nil && c.Session == nil && len(c.Money) == 0
}

// Ledger entry kinds.
const (
	KindGrant   = "grant"    // a new player's starting bankroll; skipped when the player already exists
	KindAdjust  = "adjust"   // an admin adjustment
	KindBuyIn   = "buy-in"   // bankroll -> table
	KindRebuy   = "rebuy"    // bankroll -> table
	KindResult  = "result"   // a hand's net result for one player (chips move between players on a table)
	KindCashOut = "cash-out" // table -> bankroll
	// KindPrize ends a tournament entry: the entry's buy-ins leave the prize pool (OnTable) and its
	// prize goes to the bankroll. Over a tournament's entries the prizes add up to the pool.
	KindPrize = "prize"
)

// LedgerEntry is one chip movement. Bankroll and OnTable are the changes to the player's bankroll and
// to the chips the player has on tables. Grants and adjustments bring chips in; every other kind only
// moves them, so the sum of bankrolls and chips on tables always equals the chips brought in.
type LedgerEntry struct {
	Seq       uint64 // set by the store
	Time      time.Time
	Kind      string
	Workspace string
	User      string
	Name      string
	Table     string
	HandNo    int64
	Bankroll  int64
	OnTable   int64
}

// PlayerRecord is a player's account in one workspace.
type PlayerRecord struct {
	Workspace string
	User      string
	Name      string
	Bankroll  int64 // chips off the tables
	OnTable   int64 // chips on tables
	Granted   int64 // chips brought in: grants and adjustments
	Hands     int   // hands played
}

// SeatRecord is one seat of a table.
type SeatRecord struct {
	User       string
	Name       string
	Stack      int64
	SittingOut bool
	Leaving    bool // leaves (cashes out) when the running hand ends
	TimedOut   int  // hands in a row in which the player's time ran out
	Rebuys     int
	Straddle   bool // straddles in the next hand in which the player is under the gun
	// Away from the table (RULES.md section 13; away.go). Owes is what the player must post to be
	// dealt in before the big blind reaches them: OwesMissed (the big blind passed them while they sat
	// out) or OwesNew (they joined a table already playing); 0 nothing. Posts: they post it in the next
	// hand (`sitin post`). SitOutBB: they sit out when the big blind would reach them (`sitout bb`).
	// Orbits counts the times the big blind passed them while they sat out (away=N).
	Owes     int  `json:",omitempty"`
	Posts    bool `json:",omitempty"`
	SitOutBB bool `json:",omitempty"`
	Orbits   int  `json:",omitempty"`
}

// HandState is the hand in progress: enough to replay it exactly (deck + actions) and to cancel it
// (the stacks before the hand).
type HandState struct {
	No       int64
	Rules    engine.Rules
	Stacks   []int64 // of the players dealt in, before the hand
	Button   int     // index into Stacks
	Seats    []int   // table seat of each player
	Deck     engine.Deck
	Salt     string // the secret behind the deck commitment
	Proof    int    // the commitment's version (render.ProofVersion); 0 for a whole-deck commitment
	Straddle bool   // the player under the gun straddled
	BombPot  int64  // a bomb pot: everyone's dead ante
	RunTwice bool   // all-in players are asked to run it twice
	// Posts are the missed blinds and newcomers' posts, by hand index (nil when nobody posts).
	Posts    []engine.Post `json:",omitempty"`
	Actions  []engine.Action
	TimedOut []int     // players whose time ran out this hand
	Deadline time.Time // when the player to act runs out of time; zero without a turn timer
	// BankFrom is when the player to act began using their time bank (zero when it is not running);
	// Deadline is then when the bank runs out (away.go).
	BankFrom time.Time `json:",omitzero"`
}

// Setup is the engine setup the hand started from.
func (h *HandState) Setup() engine.Setup {
	return engine.Setup{Rules: h.Rules, Stacks: append([]int64(nil), h.Stacks...), Button: h.Button, Deck: h.Deck,
		Straddle: h.Straddle, BombPot: h.BombPot, RunItTwice: h.RunTwice, Posts: h.Posts}
}

// ActionLog is the action list of the hand in progress at a table.
type ActionLog struct {
	Table    string
	HandNo   int64
	Actions  []engine.Action
	TimedOut []int
	Deadline time.Time
}

// Standing is a player's result in a session so far.
type Standing struct {
	User      string
	Name      string
	BoughtIn  int64
	CashedOut int64
	// BankUsed is how much of the time bank the player has used this session (timebank=; away.go).
	BankUsed time.Duration `json:",omitempty"`
}

// TableRecord is a table's whole state between two commands.
type TableRecord struct {
	ID        string
	Platform  string
	Workspace string
	Channel   string
	Host      string
	HostName  string
	Settings  Settings
	Seats     []SeatRecord
	Button    int // seat of the button; -1 before the draw
	// BigBlind is the seat, counted from 1, of the player in the big blind last hand: the next hand's
	// big blind is the first player dealt in after it (NextButton). 0 before the first hand, and in
	// records from before it was kept.
	BigBlind int   `json:",omitempty"`
	HandNo   int64 // number of the last hand dealt
	// HandBase is the number of the channel's last hand before this session: hand numbers go on from
	// one session to the next, so a hand's number (and the key it is kept under) never repeats in a
	// channel. HandNo-HandBase hands were dealt this session.
	HandBase  int64 `json:",omitempty"`
	Started   time.Time
	Level     int       // blind level, from 0
	LevelAt   time.Time // when the level began
	LevelHand int64     // hand number at which the level began
	Hand      *HandState
	Ending    bool // the host ended the session; it ends with the running hand
	Standings []Standing
	Schedule  string // the schedule that opened the table, if one did
	BombPot   int64  // the next hand is a bomb pot with this dead ante (0: a normal hand)
	// Tournament is set at a tournament table: its seats hold tournament chips, and the chips the
	// players have on the table (the ledger's OnTable) are their buy-ins in the prize pool.
	Tournament *Tournament `json:",omitempty"`
	// Screen is the hand's table message, edited in place as the hand goes on.
	Screen Screen `json:",omitempty"`
	// Orbit is where a mixed table (Settings.Games) is in its orbit, and a choice of game waited for.
	Orbit Orbit `json:",omitzero"`
	// Version counts the table's committed changes and Step names the last one (Change.Step):
	// the store keeps both beside the record and fills them in when it reads the table.
	Version int64  `json:"-"`
	Step    string `json:"-"`
}

// Tournament is a tournament's registration, prize pool and finishing places.
type Tournament struct {
	BuyIn   int64     // what each entry (and each rebuy) pays into the prize pool
	Stack   int64     // the tournament chips an entry (and a rebuy) gets
	Payouts []int     // percentages by place; none: DefaultPayouts by the number of entrants
	Began   time.Time // when the first hand was dealt (registration closed); zero before
	Entries []Entry   // everyone who registered, in order
	// RebuyBy is the end of the time to rebuy of the players out of chips in the last hand who wait
	// to be placed (Entry.Busted): the next hand is dealt then, or as soon as each of them has
	// answered (`rebuy`, or `rebuy no`: Entry.Declined). Zero when nobody waits.
	RebuyBy time.Time `json:",omitzero"`
}

// Entry is one player's tournament: what they paid in and, once out, where they finished.
type Entry struct {
	User   string
	Name   string
	Paid   int64 // the buy-in and rebuys, in the prize pool until the end
	Rebuys int
	// Place is the finishing place once the player is out (0 while playing). Players out in the
	// same hand share OutHand; their Start (stack when that hand began) and Order (position from the
	// first seat left of the button) decide the places (PlaceEliminated).
	Place   int
	OutHand int64
	Start   int64
	Order   int
	// Busted is set while the player, out of chips in hand OutHand (Start and Order already that
	// hand's), waits for the next deal to be placed because a player out in that hand may still
	// rebuy (holdBusts): the seat stays with no chips, Place is still 0, and a rebuy clears it.
	Busted bool `json:",omitempty"`
	// Declined: out of chips and waiting like Busted, the player said `rebuy no` (or `leave`): they
	// are placed at the next deal, which no longer waits for them.
	Declined bool `json:",omitempty"`
}

// Pool is the prize pool: every entry's buy-ins and rebuys.
func (t *Tournament) Pool() int64 {
	var sum int64
	for _, e := range t.Entries {
		sum += e.Paid // registration and rebuys keep the pool within maxPool: no wrap
	}
	return sum
}

// Entry returns the index of user's entry, or -1.
func (t *Tournament) Entry(user string) int {
	for i, e := range t.Entries {
		if e.User == user {
			return i
		}
	}
	return -1
}

// HandRecord is a finished hand, kept for `history` and for checking.
type HandRecord struct {
	Table  string
	No     int64
	Time   time.Time
	Names  []string
	Users  []string // the players' user IDs, by hand index
	Seats  []int    // the players' seat numbers from 1, by hand index (nil in hands stored before them)
	Size   int      // the table's number of seats
	Rules  engine.Rules
	Stacks []int64
	Button int
	Deck   engine.Deck
	Salt   string // the secret behind the deck commitment: never shown whole
	Proof  int    // the commitment's version; see HandState.Proof
	// The hand's home-game options (see HandState).
	Straddle bool
	BombPot  int64
	RunTwice bool
	Posts    []engine.Post `json:",omitempty"` // missed blinds posted, by hand index (HandState.Posts)
	Actions  []engine.Action
	Final    []int64
	// Tournament is set for a tournament hand: what its hand history says of the tournament (nil in
	// cash games, and in tournament hands stored before it was kept).
	Tournament *TournamentHand `json:",omitempty"`
}

// TournamentHand is what a tournament hand's record keeps of its tournament, for hand histories: the
// tournament (its start names it), the blind level and who finished the tournament in the hand.
type TournamentHand struct {
	Began        time.Time // when the tournament's first hand was dealt: with the table, it names the tournament
	BuyIn        int64     // each entry's buy-in, in bankroll chips
	Stack        int64     // the starting stack, in tournament chips
	Level        int       // the hand's blind level, from 1
	LevelMinutes int       // how long a level lasts; 0 when levels go by hands or blinds never rise
	Rebuys       bool      // the tournament allows rebuys
	// Finishes are the players who finished the tournament in this hand: those who lost their last
	// chip, and the winner when the hand ends the tournament.
	Finishes []Finish
}

// Finish is a player's finishing place, by hand index, and the prize it pays.
type Finish struct {
	Player int
	Place  int
	Prize  int64
}

// Setup is the engine setup the hand started from.
func (h *HandRecord) Setup() engine.Setup {
	return engine.Setup{Rules: h.Rules, Stacks: append([]int64(nil), h.Stacks...), Button: h.Button, Deck: h.Deck,
		Straddle: h.Straddle, BombPot: h.BombPot, RunItTwice: h.RunTwice, Posts: h.Posts}
}

// SessionRecord is a finished session and its standings.
type SessionRecord struct {
	Table     string
	Schedule  string // the schedule that opened the session's table, if one did
	Started   time.Time
	Ended     time.Time
	Standings []Standing
	// The session's hands are numbered HandBase+1 to HandNo (both 0 in sessions kept before hand
	// numbers went on across sessions).
	HandBase int64 `json:",omitempty"`
	HandNo   int64 `json:",omitempty"`
	// Tournament is a tournament's results, entry by entry (nil for a cash game, for a tournament
	// called off before its first hand, and in sessions kept before it was).
	Tournament []TournamentFinish `json:",omitempty"`
}

// TournamentFinish is one entry's result in a finished tournament: its place, the buy-ins and
// rebuys it paid and the prize it won, in bankroll chips.
type TournamentFinish struct {
	User, Name  string
	Place       int
	Paid, Prize int64
}

// Screen is what is on screen for a table: the hand's table message, so that a restart edits the
// same message (its old buttons replaced) instead of leaving a stale one.
type Screen struct {
	Hand    int64  // the hand the message shows
	Message string // its ID on the platform
	Ping    string // the turn ping on screen, if any: a restart deletes it (and pings anew)
	// Posted is when the message was posted (zero in records from before it was kept). A message
	// older than the shell's maxEditAge is not edited any more: the table is posted anew.
	Posted time.Time `json:",omitempty"`
}

// Clone deep-copies a record, so a step works on its own copy and a refused or failed step leaves
// the table as it was.
func (r TableRecord) Clone() TableRecord {
	r.Seats = slices.Clone(r.Seats)
	r.Standings = slices.Clone(r.Standings)
	r.Tournament = r.Tournament.Clone()
	if r.Hand != nil {
		h := *r.Hand
		h.Stacks = slices.Clone(h.Stacks)
		h.Seats = slices.Clone(h.Seats)
		h.Actions = slices.Clone(h.Actions)
		h.TimedOut = slices.Clone(h.TimedOut)
		r.Hand = &h
	}
	return r
}

// Clone deep-copies a tournament; nil stays nil.
func (t *Tournament) Clone() *Tournament {
	if t == nil {
		return nil
	}
	c := *t
	c.Payouts = slices.Clone(t.Payouts)
	c.Entries = slices.Clone(t.Entries)
	return &c
}

// StandingIndex is the index of user's standing, or -1.
func StandingIndex(st []Standing, user string) int {
	for i, s := range st {
		if s.User == user {
			return i
		}
	}
	return -1
}

type fenceKey struct{}

// WithFence returns a context whose store writes that carry no Change (a schedule's progress, say)
// are made under f: a store shared by several processes applies them only while f is the lease.
func WithFence(ctx context.Context, f *Fence) context.Context {
	return context.WithValue(ctx, fenceKey{}, f)
}

// FenceFrom returns the fence WithFence put in ctx, or nil.
func FenceFrom(ctx context.Context) *Fence {
	f, _ := ctx.Value(fenceKey{}).(*Fence)
	return f
}
