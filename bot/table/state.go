// Package table is the table core: a table's state and one method per verb. A verb reads the state,
// the time and what the shell read for it (Inputs), and returns a Step: what to write, what to say and
// which timers to arm. It does no I/O, starts no goroutine and reads no clock, and a refused verb
// returns an error and changes nothing, as the engine's actions do. The shell in package bot commits
// a Step's Change, then takes its table as the new state and delivers what it says.
package table

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/dealerbot/dealerbot/bot/errs"
	"github.com/dealerbot/dealerbot/engine"
	"github.com/dealerbot/dealerbot/render"
)

// State is a table between two steps: whether a session is open, its record as last committed, and
// the running hand replayed from that record (nil between hands).
type State struct {
	Open bool
	Rec  TableRecord
	Hand *engine.Hand
	Last *LastHand // the hand that ended most recently, for `show`
	// Quarantined is set after a fault at the table (a panic, a record that cannot be restored): its
	// hand was cancelled and it is not dealt automatically, else a deterministic fault would repeat
	// every few seconds. A player's `deal` lifts it. It is not stored: a restart tries afresh.
	Quarantined bool
	// FoldAsked is the turn (Token) in which the player to act typed `fold` when checking was free and
	// was reminded of it: a second `fold` in that turn folds (RULES.md section 11). It is not stored:
	// after a restart the reminder comes again.
	FoldAsked string
	// DealDelay is the shell's pause before it deals the next hand by itself (0: none), which the core
	// tells a player out of chips as the time they have to rebuy. It is the shell's setting, not
	// stored.
	DealDelay time.Duration
}

// Caller is who runs a verb.
type Caller struct {
	User  string
	Name  string
	Admin bool
	// Schedule is set for a schedule's own command: it has that schedule's authority, over the table
	// the schedule opened and no other.
	Schedule string
}

// Inputs are what a verb reads besides the state, read by the shell before the verb runs.
type Inputs struct {
	// Player is the caller's account in the workspace; Known is false for a player never seen, who
	// gets StartingBankroll.
	Player           PlayerRecord
	Known            bool
	StartingBankroll int64
	// CardPictures: the platform draws cards as pictures.
	CardPictures bool
	// LastHand is the number of the channel's newest kept hand; a new session numbers on from it.
	LastHand int64
	// Where is the table a `start` opens: its ID, platform, workspace and channel.
	Where TableRecord
	// Style is how the table draws cards; Rand shuffles a deal's decks.
	Style render.CardStyle
	Rand  Random
}

// Step is what a verb does: the records to write in one transaction, the table after them, the
// private reply, what the hand's table message must show, the messages for the channel and for single
// players, and the timers to arm. The shell carries out nothing of it unless the Change is on disk.
type Step struct {
	Change  Change
	Next    *State // the table after the step; nil when the step changes no state
	Reply   string
	View    *View // what the step did to the running hand; nil when nothing
	Posts   []render.Message
	Private []Private
	Timers  Timers
	// Ends: the session ends after this step (the shell runs EndSession).
	Ends bool
	// Short is the refusal to give instead when the store finds a bankroll short at commit time
	// (a concurrent spend at another table): nothing is written then.
	Short string
}

// Timers says which of the table's clocks a step concerns.
type Timers struct {
	// Deal arms the pause before the next hand, when the table can deal.
	Deal bool
	// DealWhenShown: the pause starts only when the hand's last version, which offers players out of
	// chips a rebuy within the pause, is on screen (as a turn's clock starts when the turn is), so
	// they have all of it to answer; until then no other step arms it.
	DealWhenShown bool
	// Turn asks the player to act again: for a player who is leaving or away the dealer acts at once
	// (a check when free, else a fold).
	Turn bool
}

// post adds a line for the channel.
func (st *Step) post(format string, args ...any) {
	st.Posts = append(st.Posts, render.Message{Text: fmt.Sprintf(format, args...)})
}

// reply makes a step that writes the table n (with c) and answers privately; the running hand and
// the last hand stay as they are.
func (s State) reply(n TableRecord, c Change, format string, args ...any) Step {
	c.Table = &n
	next := s
	next.Open, next.Rec = true, n
	return Step{Change: c, Next: &next, Reply: fmt.Sprintf(format, args...)}
}

// SeatOf is the seat of user, or -1.
func (s State) SeatOf(user string) int {
	for i, st := range s.Rec.Seats {
		if st.User == user {
			return i
		}
	}
	return -1
}

// seated is the caller's seat, for the verbs that need one (leave, sitout, sitin, rebuy, straddle).
// The shell's gate refuses a caller who is not seated, in the verb's own words, before the verb runs
// (bot's needSeat); this guard only keeps a direct call from using seat -1.
func (s State) seated(by Caller) (int, error) {
	if seat := s.SeatOf(by.User); seat >= 0 {
		return seat, nil
	}
	return -1, errNotSeated
}

var errNotSeated = errs.Errorf(errs.Forbidden, "You are not seated at this table.")

// PlayerOf is the hand index of a seat, or -1 when the seat is not in the running hand.
func (s State) PlayerOf(seat int) int {
	if s.Rec.Hand == nil {
		return -1
	}
	return slices.Index(s.Rec.Hand.Seats, seat)
}

// InHand reports whether a seat is dealt into the running hand.
func (s State) InHand(seat int) bool { return s.Hand != nil && s.PlayerOf(seat) >= 0 }

// ToAct reports whether a seat is the running hand's player to act.
func (s State) ToAct(seat int) bool {
	p := s.PlayerOf(seat)
	return p >= 0 && s.Hand != nil && !s.Hand.Done() && s.Hand.ToAct() == p
}

// Names are the display names of the running hand's players.
func (s State) Names() render.Names {
	if s.Rec.Hand == nil {
		return nil
	}
	ns := make(render.Names, len(s.Rec.Hand.Seats))
	for p, st := range s.Rec.Hand.Seats {
		ns[p] = s.Rec.Seats[st].Name
	}
	return ns
}

// Playing are the seats dealt into the next hand. In a tournament a player who is away is dealt in
// too: their blinds are posted and the dealer checks or folds for them.
func (s State) Playing() []int {
	var out []int
	tourney := s.Rec.Tournament != nil
	for i, st := range s.Rec.Seats {
		if st.User != "" && (tourney || !st.SittingOut && !st.Leaving) && st.Stack > 0 {
			out = append(out, i)
		}
	}
	if s.missedBlinds() {
		return s.dealtIn(out) // who owes blinds waits for the big blind (away.go)
	}
	return out
}

// IsHost reports whether the caller may use the host's powers here. A schedule's command has exactly
// the authority of that schedule: over the table it opened, and no other.
func (s State) IsHost(by Caller) bool {
	if by.Schedule != "" {
		return by.Schedule == s.Rec.Schedule
	}
	return by.Admin || by.User == s.Rec.Host
}

// emptySeat is the first free seat, or -1 when the table is full.
func (s State) emptySeat() int {
	for i, st := range s.Rec.Seats {
		if st.User == "" {
			return i
		}
	}
	return -1
}

// roomFor refuses chips that would take the table past engine.MaxChips in all. Every stack is then
// within the engine's ceiling, and so is every pot, however the chips move between players.
func (s State) roomFor(amount int64) error {
	var on int64
	for _, st := range s.Rec.Seats {
		on += st.Stack // at most MaxChips in all, by this check
	}
	if amount > engine.MaxChips-on {
		return errs.Errorf(errs.Invalid, "A table may hold at most %s chips in all and this one holds %s: bring at most %s.",
			render.Chips(engine.MaxChips), render.Chips(on), render.Chips(max(0, engine.MaxChips-on)))
	}
	return nil
}

// Level is the blind level at now: the one the last hand was dealt at, or a later one the clock has
// reached since.
func (s State) Level(now time.Time) int {
	from := s.Rec.Started
	if tr := s.Rec.Tournament; tr != nil {
		if tr.Began.IsZero() {
			return 0
		}
		from = tr.Began
	}
	return max(s.Rec.Level, s.Rec.Settings.Level(now.Sub(from), s.Rec.HandNo-s.Rec.HandBase))
}

// NextButton is the seat of the next hand's button, given the last hand's button and big blind
// (seats; bigBlind -1 when not known), the table's size and the seats dealt in, in seat order. The big
// blind moves forward one player (RULES.md section 11, R-22): the next big blind is the first seat
// dealt in after the last one; with three or more players dealt in the small blind is the player
// dealt in just before the big blind and the button the one before that; heads-up the other player
// has the button. So nobody posts the big blind twice in a row, though a player may miss the small
// blind or keep the button twice when others leave. When nobody joins or leaves, the button moves
// one seat; without a known big blind it does just that.
func NextButton(button, bigBlind, size int, dealt []int) int {
	after := func(seat int) int { // the index in dealt of the first seat dealt in after seat
		for i := 1; i <= size; i++ {
			if j := slices.Index(dealt, (seat+i)%size); j >= 0 {
				return j
			}
		}
		return -1
	}
	if bigBlind < 0 {
		if j := after(button); j >= 0 {
			return dealt[j]
		}
		return -1
	}
	bb, n := after(bigBlind), len(dealt)
	switch {
	case bb < 0:
		return -1
	case n == 2:
		return dealt[1-bb]
	}
	return dealt[(bb-2+n)%n]
}

// nextButton is the seat of the next hand's button at this table, with these seats dealt in.
func (s State) nextButton(dealt []int) int {
	return NextButton(s.Rec.Button, s.Rec.BigBlind-1, len(s.Rec.Seats), dealt)
}

// CashOut moves a seat's stack back to the bankroll and empties the seat.
func CashOut(n *TableRecord, c *Change, seat int, now time.Time) {
	s := n.Seats[seat]
	c.Ledger = append(c.Ledger, LedgerEntry{Time: now, Kind: KindCashOut, Workspace: n.Workspace, User: s.User,
		Name: s.Name, Table: n.ID, Bankroll: s.Stack, OnTable: -s.Stack})
	if i := StandingIndex(n.Standings, s.User); i >= 0 {
		n.Standings[i].CashedOut += s.Stack
	}
	n.Seats[seat] = SeatRecord{}
}

// findSeat is the seat a host names (a user ID, a mention or a display name), or -1.
func (s State) findSeat(who string) int {
	who = strings.Trim(who, "@<>!")
	if seat := s.SeatOf(who); seat >= 0 {
		return seat
	}
	seat := -1
	for i, st := range s.Rec.Seats {
		if st.User != "" && strings.EqualFold(st.Name, who) {
			seat = i
		}
	}
	return seat
}
