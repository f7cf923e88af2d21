package engine

import "fmt"

// Variant is the betting structure.
type Variant uint8

// The betting structures.
const (
	NoLimit Variant = iota
	PotLimit
	FixedLimit
)

// String names the betting structure: "no-limit", "pot-limit" or "fixed-limit".
func (v Variant) String() string {
	switch v {
	case NoLimit:
		return "no-limit"
	case PotLimit:
		return "pot-limit"
	case FixedLimit:
		return "fixed-limit"
	}
	return "unknown"
}

// ParseVariant reads "no-limit", "pot-limit" or "fixed-limit" (also "nl", "pl", "fl", "limit").
func ParseVariant(s string) (Variant, error) {
	switch s {
	case "no-limit", "nolimit", "nl", "NL":
		return NoLimit, nil
	case "pot-limit", "potlimit", "pl", "PL":
		return PotLimit, nil
	case "fixed-limit", "fixedlimit", "limit", "fl", "FL":
		return FixedLimit, nil
	}
	return 0, fmt.Errorf("%q is not a variant: choose no-limit, pot-limit or fixed-limit", s)
}

// ToAct returns the player to act, or -1 when nobody is (the hand is over).
func (h *Hand) ToAct() int { return h.toAct }

// Done reports whether the hand is over and every pot awarded.
func (h *Hand) Done() bool { return h.done }

// turn is what the player to act faces, worked out once when their turn begins (advance, ask) and kept
// until they act: what Options tells them, and what checking an action needs besides.
type turn struct {
	Options
	// answerable is set when some other player still in the hand could answer a bet or raise with more
	// chips than the bet to match now (RULES.md section 4, R-20).
	answerable bool
	// others is set when another player can still act.
	others bool
	// noRaise says why the player may not bet or raise at all, whatever the amount (the Message of an
	// ErrCannotRaise); empty when they may.
	noRaise string
}

// beginTurn works out the turn of p, who is next to act in the betting, into h.turn.
func (h *Hand) beginTurn(p int) {
	t := &h.turn
	*t = turn{Options: Options{Player: p, Bet: h.bet[p], Stack: h.stack[p]}}
	for q := 0; q < h.n && !t.answerable; q++ {
		if q != p && h.canAct(q) {
			t.others = true
			t.answerable = h.bet[q]+h.stack[q] > h.currentBet
		}
	}
	// Calling matches the bet, the full big blind included, while another player can still act;
	// when everyone else still in the hand is all-in, only what the largest of them put in.
	call := h.currentBet
	if !t.others {
		var most int64 // the largest bet of another player still in the hand
		for q := 0; q < h.n; q++ {
			if q != p && !h.folded[q] {
				most = max(most, h.bet[q])
			}
		}
		call = min(h.currentBet, most)
	}
	if owe := call - h.bet[p]; owe > 0 {
		t.CanCall, t.ToCall = true, min(owe, h.stack[p])
	} else {
		t.CanCheck = true
	}
	switch {
	case h.bet[p]+h.stack[p] <= h.currentBet:
		t.noRaise = "You do not have enough chips to raise: call all-in or fold."
	case !t.answerable && t.others:
		t.noRaise = "Nobody left in the hand has more chips than the bet, so nobody could answer a raise: call or fold."
	case !t.answerable:
		t.noRaise = "Everyone else is all-in, so there is nobody to raise: call or fold."
	case h.lastFaced[p] >= 0 && h.fullRaises == h.lastFull[p] && h.currentBet-h.lastFaced[p] < h.minRaise:
		t.noRaise = "The all-in since your last action was not a full raise, so the betting is not reopened for you: call or fold."
	case h.setup.Rules.Variant == FixedLimit && !h.noCap && h.betCount >= 4:
		t.noRaise = "The betting is capped at four bets this street: call or fold."
	default:
		t.CanBet, t.CanRaise = h.currentBet == 0, h.currentBet > 0
		t.MinTo, t.MaxTo = h.raiseBounds(p)
	}
}

// raiseBounds returns the smallest and largest total p may bet or raise to, both capped at p's all-in.
// The smallest is a full raise: minRaise over the bet to match, which before anyone bets this street is
// the smallest opening bet (beginStreet), and in fixed-limit always the street's bet size.
func (h *Hand) raiseBounds(p int) (lo, hi int64) {
	all := h.bet[p] + h.stack[p]
	lo = h.currentBet + h.minRaise
	switch h.setup.Rules.Variant {
	case FixedLimit:
		hi = lo
	case PotLimit:
		var onTable int64
		for q := 0; q < h.n; q++ {
			onTable += h.bet[q]
		}
		call := h.currentBet - h.bet[p]
		hi = h.currentBet + h.collected + onTable + call
	default:
		hi = all
	}
	if lo > all {
		lo = all
	}
	if hi > all {
		hi = all
	}
	if hi < lo {
		hi = lo
	}
	return lo, hi
}

// Options describes what the player to act may do. ok is false when nobody is to act.
func (h *Hand) Options() (o Options, ok bool) {
	if h.toAct < 0 {
		return Options{Player: -1}, false
	}
	return h.turn.Options, true
}

// Validate reports whether a would be accepted now, without changing anything.
func (h *Hand) Validate(a Action) error {
	_, err := h.check(a)
	if err != nil {
		return err
	}
	return nil
}

// check validates a and returns the total the player's bet becomes (for bets, raises and calls).
func (h *Hand) check(a Action) (int64, *Error) {
	if h.done {
		return 0, errorf(ErrHandOver, "The hand is over; wait for the next one.")
	}
	if a.Player < 0 || a.Player >= h.n {
		return 0, errorf(ErrBadPlayer, "There is no player %d in this hand.", a.Player)
	}
	p := a.Player
	if p != h.toAct {
		return 0, errorf(ErrNotYourTurn, "It is not your turn: wait for player %d to act.", h.toAct)
	}
	switch {
	case h.asking && a.Kind != RunTwice && a.Kind != RunOnce:
		return 0, errorf(ErrRunTwice, "Betting is over: answer whether to run the board twice (yes or no).")
	case !h.asking && (a.Kind == RunTwice || a.Kind == RunOnce):
		return 0, errorf(ErrRunTwice, "Nobody is asking to run the board twice now.")
	case h.asking:
		return 0, nil
	}
	t := &h.turn
	call := h.bet[p] + t.ToCall // what the player's bet becomes by calling, capped at their stack
	all := h.bet[p] + h.stack[p]
	switch a.Kind {
	case Fold:
		return h.bet[p], nil
	case Check:
		if t.CanCall {
			if t.noRaise != "" {
				return 0, errorf(ErrCannotCheck, "You cannot check: it is %d to call. Call or fold.", t.ToCall)
			}
			return 0, errorf(ErrCannotCheck, "You cannot check: it is %d to call. Call, raise or fold.", t.ToCall)
		}
		return h.bet[p], nil
	case Call:
		if !t.CanCall {
			return 0, errorf(ErrNothingToCall, "There is nothing to call: check instead.")
		}
		return call, nil
	case AllIn:
		if call == all {
			return all, nil // a call for all the player has
		}
		if !t.answerable {
			if !t.CanCall {
				return 0, errorf(ErrCannotRaise, "Nobody left in the hand could answer a bet: check instead.")
			}
			return call, nil // nobody could answer more, so all-in is a call of what can be matched
		}
		if t.noRaise != "" {
			return 0, &Error{Code: ErrCannotRaise, Message: t.noRaise}
		}
		if all > t.MaxTo {
			return 0, h.tooLarge(t.MaxTo)
		}
		return all, nil
	case Bet, Raise:
		word := "raise"
		if h.currentBet == 0 {
			word = "bet"
		}
		if a.Amount <= 0 {
			return 0, errorf(ErrBadAmount, "Say how much to %s to, a whole number of chips above 0.", word)
		}
		if t.noRaise != "" {
			return 0, &Error{Code: ErrCannotRaise, Message: t.noRaise}
		}
		to, lo, hi := a.Amount, t.MinTo, t.MaxTo
		if to > all {
			return 0, errorf(ErrTooLarge, "You have only %d in all; the most you can %s to is %d (all-in).", all, word, hi)
		}
		if to <= h.currentBet {
			return 0, errorf(ErrTooSmall, "A %s must be to more than %d; to match it, call.", word, h.currentBet)
		}
		if to < lo {
			return 0, errorf(ErrTooSmall, "The smallest %s is to %d.", word, lo)
		}
		if to > hi {
			return 0, h.tooLarge(hi)
		}
		return to, nil
	}
	return 0, errorf(ErrBadAmount, "Unknown action.")
}

func (h *Hand) tooLarge(hi int64) *Error {
	switch h.setup.Rules.Variant {
	case PotLimit:
		return errorf(ErrTooLarge, "In pot-limit the largest raise is to %d.", hi)
	case FixedLimit:
		return errorf(ErrTooLarge, "In fixed-limit the raise is to exactly %d.", hi)
	}
	return errorf(ErrTooLarge, "The largest raise is to %d.", hi)
}

// Apply performs a, returning the events it caused (including dealing, showdown and awards when the
// action ends a betting round). On error nothing changes.
func (h *Hand) Apply(a Action) ([]Event, error) {
	to, err := h.check(a)
	if err != nil {
		return nil, err
	}
	mark := len(h.events)
	p := a.Player
	h.actions = append(h.actions, a)
	if h.asking {
		h.answered[p] = true
		if a.Kind == RunOnce {
			h.answer(1) // one "no" is enough
		} else {
			h.ask(p)
		}
		return h.events[mark:len(h.events):len(h.events)], nil
	}
	switch a.Kind {
	case Fold:
		h.folded[p] = true
		h.emit(Event{Kind: EvFold, Player: p, Street: h.street})
	case Check:
		h.emit(Event{Kind: EvCheck, Player: p, Street: h.street})
	default:
		h.raiseTo(p, to)
	}
	h.needs[p] = false
	h.lastFaced[p] = h.currentBet
	h.lastFull[p] = h.fullRaises
	h.toAct = -1
	h.advance(p)
	// The caller gets a view of the log with no room to grow, so appending to it cannot touch the log.
	return h.events[mark:len(h.events):len(h.events)], nil
}

// raiseTo moves p's bet up to `to`: a call when it does not exceed the bet to match, else a bet or raise.
func (h *Hand) raiseTo(p int, to int64) {
	add := to - h.bet[p]
	h.put(p, add)
	h.bet[p] = to
	h.contrib[p] += add
	if to <= h.currentBet {
		h.emit(Event{Kind: EvCall, Player: p, Street: h.street, Amount: add, To: to, AllIn: h.allIn[p]})
		return
	}
	kind := EvRaise
	if h.currentBet == 0 {
		kind = EvBet
	}
	inc := to - h.currentBet
	full := inc >= h.minRaise // before a bet this street, minRaise is the smallest opening bet
	if h.setup.Rules.Variant == FixedLimit {
		size := h.setup.Rules.limitBet(h.street)
		full = 2*inc >= size // an all-in of at least half a bet counts as a full raise
	}
	if full {
		h.fullRaises++
		h.betCount++
		if h.setup.Rules.Variant != FixedLimit && inc > h.minRaise {
			h.minRaise = inc
		}
	}
	h.currentBet = to
	h.aggressor = p
	for q := 0; q < h.n; q++ {
		if q != p && h.canAct(q) && h.bet[q] < h.currentBet {
			h.needs[q] = true
		}
	}
	h.emit(Event{Kind: kind, Player: p, Street: h.street, Amount: add, To: to, AllIn: h.allIn[p]})
}

// Timeout acts for the player to act when their time runs out, or when they are away but still
// dealt in (leaving, or sat out of a tournament): check if free, else fold; asked to run it twice, no.
func (h *Hand) Timeout() ([]Event, error) {
	p := h.toAct
	if p < 0 {
		return nil, errorf(ErrHandOver, "Nobody is to act.")
	}
	if h.asking {
		return h.Apply(Action{Player: p, Kind: RunOnce}) // silence is no
	}
	if h.turn.CanCheck {
		return h.Apply(Action{Player: p, Kind: Check})
	}
	return h.Apply(Action{Player: p, Kind: Fold})
}

// Events returns every event of the hand so far. Like Apply's events, the slice is the hand's own
// log (capped, so appending to it copies): read it, do not change it.
func (h *Hand) Events() []Event { return h.events[:len(h.events):len(h.events)] }

// Actions returns the action log.
func (h *Hand) Actions() []Action { return append([]Action(nil), h.actions...) }

// Setup returns what the hand started from.
func (h *Hand) Setup() Setup {
	s := h.setup
	s.Stacks = append([]int64(nil), s.Stacks...)
	return s
}

// NumPlayers returns the number of players dealt in.
func (h *Hand) NumPlayers() int { return h.n }

// Button returns the index of the player on the button.
func (h *Hand) Button() int { return h.setup.Button }

// Street returns the current betting round, or Showdown when the hand is over.
func (h *Hand) Street() Street { return h.street }

// Stacks returns each player's chips behind; when the hand is Done these are the final stacks.
func (h *Hand) Stacks() []int64 { return append([]int64(nil), h.stack[:h.n]...) }

// Bets returns what each player has in front this street.
func (h *Hand) Bets() []int64 { return append([]int64(nil), h.bet[:h.n]...) }

// Contributions returns the chips each player has put in this hand, antes included.
func (h *Hand) Contributions() []int64 {
	c := make([]int64, h.n)
	for p := range c {
		c[p] = h.contrib[p] + h.ante[p]
	}
	return c
}

// Board returns the community cards dealt so far.
func (h *Hand) Board() []Card { return append([]Card(nil), h.board...) }

// Hole returns p's first two hole cards: all of them in Hold'em (HoleCards has every one). They are
// private until shown: callers must not publish them.
func (h *Hand) Hole(p int) [2]Card { return [2]Card{h.cards[maxHole*p], h.cards[maxHole*p+1]} }

// HoleCards returns every hole card of p: two, four or five. They are private until shown.
func (h *Hand) HoleCards(p int) []Card { return append([]Card(nil), h.holeSlice(p)...) }

// Game returns the game the hand deals.
func (h *Hand) Game() Game { return h.setup.Rules.Game }

// Folded reports whether p has folded.
func (h *Hand) Folded(p int) bool { return h.folded[p] }

// IsAllIn reports whether p has no chips behind.
func (h *Hand) IsAllIn(p int) bool { return h.allIn[p] }

// Public is what everyone at the table sees of a hand at one moment: all but the hole cards and the
// deck. Its slices are the caller's own.
type Public struct {
	Button int
	Street Street // Showdown once the hand is over
	ToAct  int    // -1 when nobody is to act
	Done   bool
	Turn   *Options // what the player to act may do (Options); nil when nobody is to act
	Stacks []int64  // chips behind (Stacks)
	Bets   []int64  // chips in front this street (Bets)
	Folded []bool
	AllIn  []bool
	Board  []Card
	Board2 []Card // the second run's board of a hand run twice (Board2)
	Pots   []Pot  // the pots as the last street that closed left them (CollectedPots)
}

// Public reads at once what the accessors tell one by one: what everyone at the table sees of the hand.
func (h *Hand) Public() Public {
	v := Public{Button: h.setup.Button, Street: h.street, ToAct: h.toAct, Done: h.done,
		Stacks: append([]int64(nil), h.stack[:h.n]...), Bets: append([]int64(nil), h.bet[:h.n]...),
		Folded: append([]bool(nil), h.folded[:h.n]...), AllIn: append([]bool(nil), h.allIn[:h.n]...),
		Board: append([]Card(nil), h.board...), Board2: append([]Card(nil), h.board2...), Pots: h.CollectedPots()}
	if h.toAct >= 0 {
		o := h.turn.Options
		v.Turn = &o
	}
	return v
}

// Pot returns every chip in the middle, bets in front of players included.
func (h *Hand) Pot() int64 {
	t := h.collected
	for _, b := range h.bet[:h.n] {
		t += b
	}
	return t
}

// chip is the smallest chip, the unit odd chips of a split pot are counted in.
func (r Rules) chip() int64 {
	if r.Chip > 0 {
		return r.Chip
	}
	return 1
}

// limitBet is the fixed-limit bet size of street s: the small bet before the turn, the big bet from it.
func (r Rules) limitBet(s Street) int64 {
	if s >= Turn {
		if r.BigBet > 0 {
			return r.BigBet
		}
		return 2 * r.BigBlind
	}
	if r.SmallBet > 0 {
		return r.SmallBet
	}
	return r.BigBlind
}
