package engine

import "fmt"

// Rules are a hand's game, stakes and betting structure.
type Rules struct {
	Variant Variant
	// Game is what is dealt: Hold'em (the zero value), Omaha, five-card Omaha or Omaha hi-lo.
	Game       Game
	SmallBlind int64
	BigBlind   int64
	// Ante is posted by every player, or by the big blind alone for everyone when BigBlindAnte is set.
	Ante         int64
	BigBlindAnte bool
	// MinBet is the smallest opening bet in no-limit and pot-limit; 0 means the big blind.
	MinBet int64
	// SmallBet and BigBet are the fixed-limit bet sizes; 0 means the big blind and twice the big blind.
	SmallBet, BigBet int64
	// Chip is the smallest chip, the unit odd chips are paid in; 0 means 1.
	Chip int64
}

// MaxChips is the largest number of chips a stack, a blind, an ante or a bet size may hold. It keeps
// every sum the engine and the dealer make (ten stacks, every pot, a workspace's bankrolls) far from
// int64's limit: 10 players x 10^12 is 10^13, and int64 holds 9.2 x 10^18.
const MaxChips int64 = 1_000_000_000_000

// Validate checks that the rules make a playable game.
func (r Rules) Validate() error {
	switch {
	case r.Variant > FixedLimit:
		return fmt.Errorf("unknown variant %d", r.Variant)
	case r.Game > OmahaHiLo:
		return fmt.Errorf("unknown game %d", r.Game)
	case r.BigBlind <= 0:
		return fmt.Errorf("the big blind must be at least 1, not %d", r.BigBlind)
	case r.SmallBlind < 0 || r.SmallBlind > r.BigBlind:
		return fmt.Errorf("the small blind must be between 0 and the big blind (%d), not %d", r.BigBlind, r.SmallBlind)
	case r.Ante < 0:
		return fmt.Errorf("the ante cannot be negative")
	case r.MinBet < 0 || r.SmallBet < 0 || r.BigBet < 0 || r.Chip < 0:
		return fmt.Errorf("bet sizes and the chip cannot be negative")
	case max(r.BigBlind, r.Ante, r.MinBet, r.SmallBet, r.BigBet, r.Chip) > MaxChips:
		return fmt.Errorf("blinds, antes, bet sizes and the chip may be at most %d chips", MaxChips)
	}
	return nil
}

// ActionKind is what a player does.
type ActionKind uint8

// The player actions.
const (
	Fold ActionKind = iota
	Check
	Call
	Bet
	Raise
	AllIn
	// RunTwice and RunOnce answer whether to run the rest of the board twice (Options.RunItTwice).
	RunTwice
	RunOnce
)

func (k ActionKind) String() string {
	if int(k) >= len(actionNames) {
		return "unknown"
	}
	return actionNames[k]
}

var actionNames = [...]string{"fold", "check", "call", "bet", "raise", "all-in", "run twice", "run once"}

// Action is one player decision. Amount is the total the player's bet this street becomes for Bet and
// Raise ("raise 60" means make it 60); it is ignored for the others.
type Action struct {
	Player int
	Kind   ActionKind
	Amount int64
}

func (a Action) String() string {
	if a.Kind == Bet || a.Kind == Raise {
		return fmt.Sprintf("p%d %s %d", a.Player, a.Kind, a.Amount)
	}
	return fmt.Sprintf("p%d %s", a.Player, a.Kind)
}

// Options is everything a user interface needs about the player to act.
type Options struct {
	Player int
	// ToCall is the chips the player must add to call (already capped at the stack); 0 when CanCheck.
	ToCall   int64
	CanCheck bool
	CanCall  bool
	// CanBet is set when nobody has bet this street, CanRaise when someone has and raising is allowed.
	CanBet, CanRaise bool
	// MinTo and MaxTo bound the total a bet or raise may make the player's bet this street.
	// When the stack is short of a full raise, MinTo = MaxTo = the all-in total.
	MinTo, MaxTo int64
	// Bet is what the player already has in front this street, Stack what is behind.
	Bet, Stack int64
	// RunItTwice is set when betting is over with players all-in and the player is asked whether to
	// run the rest of the board twice: the only answers are RunTwice and RunOnce.
	RunItTwice bool
}

// Error is a refused action: a Code for programs and a Message written for players.
type Error struct {
	Code    string
	Message string
}

func (e *Error) Error() string { return e.Message }

// Error codes.
const (
	ErrNotYourTurn   = "not_your_turn"
	ErrHandOver      = "hand_over"
	ErrCannotCheck   = "cannot_check"
	ErrNothingToCall = "nothing_to_call"
	ErrCannotBet     = "cannot_bet"
	ErrCannotRaise   = "cannot_raise"
	ErrTooSmall      = "too_small"
	ErrTooLarge      = "too_large"
	ErrBadAmount     = "bad_amount"
	ErrBadPlayer     = "bad_player"
	ErrRunTwice      = "run_twice" // an answer about running it twice when none is asked, or a bet when one is
)

func errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// EventKind says what happened.
type EventKind uint8

// The events a hand emits, in the order they can occur.
const (
	EvAnte       EventKind = iota // Player posted Amount as ante
	EvSmallBlind                  // Player posted Amount as small blind (AllIn when short)
	EvBigBlind                    // Player posted Amount as big blind
	EvHoleCards                   // Player was dealt Cards (private until shown)
	EvTurn                        // Player is to act (Street); see Hand.Options
	EvFold
	EvCheck
	EvCall     // Player added Amount, now has To in front
	EvBet      // Player added Amount, bet To
	EvRaise    // Player added Amount, raised to To
	EvReturn   // Amount, an uncalled bet, went back to Player
	EvPots     // betting round over; Pots holds the pots so far (Street is the round that ended)
	EvReveal   // betting is closed with players all-in: every live hand turned up (Hands), Board so far
	EvBoard    // Street dealt: Cards are the new cards, Board the whole board
	EvShow     // Player showed Cards at showdown; Value is the hand, Low the low in hi-lo games
	EvMuck     // Player mucked without showing
	EvAward    // Amount chips of a pot awarded: Pots[0] with Winners and Shares; Half says which half
	EvEnd      // hand over; Stacks are the final stacks
	EvStraddle // Player posted Amount as a live straddle (To in front)
	EvRuns     // the rest of the board is run Amount times (1 or 2); Reason says why once when it cannot run twice
	EvPost     // Player posted Amount live to be dealt in (missed blinds; To in front)
	EvDead     // Player posted Amount dead (missed blinds): in the pot, toward nobody's call
)

var eventNames = [...]string{"ante", "small blind", "big blind", "hole cards", "turn", "fold", "check", "call",
	"bet", "raise", "return", "pots", "reveal", "board", "show", "muck", "award", "end", "straddle", "runs",
	"post", "dead"}

func (k EventKind) String() string {
	if int(k) < len(eventNames) {
		return eventNames[k]
	}
	return "unknown"
}

// Event is one immutable thing that happened in a hand. Fields not named by the kind are zero.
type Event struct {
	Kind   EventKind
	Street Street
	AllIn  bool
	// Half says which part of a pot an EvAward pays in a hi-lo game: the whole pot (Hold'em, Omaha,
	// and a hi-lo pot nobody eligible makes a low for), its high half or its low half.
	Half Half
	// Low is the qualifying low of an EvShow in a hi-lo game (0 when the hand makes none), and the low
	// every winner of an EvAward of a low half holds (whose Value is then nil). Low.String() reads it
	// ("7-5-4-2-A"); BestLow gives its cards. (A rank, not a pointer: a hand's events stay as small as
	// before Omaha.)
	Low    LowRank
	Player int // -1 when the event is not about one player
	Amount int64
	To     int64
	Cards  []Card
	Board  []Card
	Value  *HandValue
	Hands  []Revealed
	Pots   []Pot
	Stacks []int64
	// Run is 1 or 2 for the boards, shows and awards of a hand run twice, 0 otherwise.
	Run uint8
}

// Reason is a sentence for players on an EvRuns that runs the board once without asking, although
// the hand runs it twice when all agree: the deck does not hold a second board (To is the cards left
// in it). It is empty for every other event.
func (e Event) Reason() string {
	if e.Kind != EvRuns || e.Amount != 1 || e.To <= 0 {
		return ""
	}
	return fmt.Sprintf("The deck has %d cards left, too few for a second board, so the board is run once.", e.To)
}

// Half is the part of a pot an award pays.
type Half uint8

// The parts of a pot.
const (
	HalfWhole Half = iota // the whole pot, to the best hand
	HalfHigh              // the high half of a hi-lo pot (with the odd chip)
	HalfLow               // the low half of a hi-lo pot
)

// String names the part: "whole", "high" or "low".
func (h Half) String() string {
	switch h {
	case HalfHigh:
		return "high"
	case HalfLow:
		return "low"
	}
	return "whole"
}

// Revealed is a live player's hole cards turned up when betting closes with players all-in.
type Revealed struct {
	Player int
	// Cards are the first two hole cards: all of them in Hold'em.
	Cards [2]Card
	// Hole is every hole card: two, four or five.
	Hole []Card
}

// Pot is a main or side pot.
type Pot struct {
	Amount   int64
	Eligible []int // players who can win it
	Winners  []int // set when awarded
	Shares   []int64
}
