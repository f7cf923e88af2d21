package engine

import (
	"fmt"
	"slices"
)

// Setup is everything a hand starts from. With the same Setup and the same actions a hand replays
// identically.
type Setup struct {
	Rules Rules
	// Stacks are the chips of the players dealt in, clockwise. Players are known by their index here.
	Stacks []int64
	// Button is the index of the player on the button. Heads-up the button posts the small blind.
	Button int
	// Deck is the order cards are dealt in: hole cards one at a time from the player left of the button,
	// two rounds (four or five in Omaha), then burn and flop, burn and turn, burn and river.
	Deck Deck
	// Straddle has the player under the gun (left of the big blind) post a live straddle of twice the
	// big blind after the blinds (RULES.md section 10): pre-flop the amount to call is the straddle,
	// the smallest raise is to twice it, action starts left of the straddler, and the straddler acts
	// last with the option. Not heads-up, not in fixed-limit, and only with more than the straddle.
	Straddle bool
	// BombPot, above 0, makes the hand a bomb pot: every player puts BombPot in as a dead ante, no
	// blinds are posted, there is no pre-flop betting and the flop is dealt at once; betting starts
	// on the flop left of the button with the big blind as the smallest bet.
	BombPot int64
	// RunItTwice offers to run the board twice when betting closes with players all-in and cards to
	// come (RULES.md section 10): every player still in is asked in turn (RunTwice or RunOnce); if all
	// agree, the rest of the board is dealt twice, the second run continuing from the deck, and every
	// pot is split in halves, each awarded on its own board.
	RunItTwice bool
	// Posts, when set, hold one Post per player (by index): what a player who missed the blinds, or
	// is new at the table, posts to be dealt in at once (RULES.md section 13), after the blinds and
	// the straddle. Not in a bomb pot.
	Posts []Post
}

// Post is what one player posts besides the blinds (RULES.md section 13). Live is the bet the player
// has in front after posting it (at most the big blind; a blind already in front counts toward it):
// it counts toward their call, so with no raise they may check. Dead goes into the pot at once, as
// an ante does, and counts toward nobody's call.
type Post struct {
	Live, Dead int64
}

// CheckPosts says whether the setup's posts can be posted: an error when not.
func (s Setup) CheckPosts() error {
	if len(s.Posts) == 0 {
		return nil
	}
	switch {
	case len(s.Posts) != len(s.Stacks):
		return fmt.Errorf("posts must list one entry per player: %d for %d players", len(s.Posts), len(s.Stacks))
	case s.BombPot > 0:
		return fmt.Errorf("there are no posts in a bomb pot: it has no blinds")
	}
	for p, po := range s.Posts {
		if po.Live < 0 || po.Live > s.Rules.BigBlind || po.Dead < 0 || po.Dead > s.Rules.BigBlind {
			return fmt.Errorf("player %d posts %d live and %d dead: each must be from 0 to the big blind (%d)", p, po.Live, po.Dead, s.Rules.BigBlind)
		}
	}
	return nil
}

// StraddleAmount is the straddle a hand with these rules posts: twice the big blind.
func (r Rules) StraddleAmount() int64 { return 2 * r.BigBlind }

// UnderTheGun is the player who acts first pre-flop without a straddle (left of the big blind), the
// one who may straddle, among n players with the button at button.
func UnderTheGun(n, button int) int {
	if n == 2 {
		return button
	}
	return (button + 3) % n
}

// BigBlindPlayer is the player who posts the big blind among n players with the button at button:
// left of the small blind, who is left of the button (heads-up, the button posts the small blind).
func BigBlindPlayer(n, button int) int {
	if n == 2 {
		return (button + 1) % n
	}
	return (button + 2) % n
}

// CheckStraddle says whether the player under the gun may straddle: an error, in words for players,
// when not.
func (s Setup) CheckStraddle() error {
	n := len(s.Stacks)
	switch {
	case n <= 2:
		return errorf(ErrBadAmount, "There is no straddle heads-up.")
	case s.Rules.Variant == FixedLimit:
		return errorf(ErrBadAmount, "There is no straddle in fixed-limit.")
	case s.BombPot > 0:
		return errorf(ErrBadAmount, "There is no straddle in a bomb pot: it has no blinds.")
	case s.Stacks[UnderTheGun(n, s.Button)] <= s.Rules.StraddleAmount():
		return errorf(ErrBadAmount, "A straddle of %d needs more than %d chips.", s.Rules.StraddleAmount(), s.Rules.StraddleAmount())
	}
	return nil
}

// MaxPlayers is the most players a hand (and a table) can seat.
const MaxPlayers = 10

// Hand is one hand of Texas Hold'em or Omaha from the blinds to the award of the last pot. It is a
// state machine advanced by Apply; it does no I/O and keeps no clock. A Hand is not safe for
// concurrent use.
type Hand struct {
	setup Setup
	n     int

	next  int // next card in the deck
	board []Card
	// cards holds every player's hole cards (maxHole places each, the first k used), then the board and
	// the second board: the backing store of the card slices in events.
	cards [boardBase + 10]Card

	// Per-player state lives in fixed arrays so a hand is one allocation, not a dozen.
	stack   [MaxPlayers]int64 // behind
	bet     [MaxPlayers]int64 // in front this street
	contrib [MaxPlayers]int64 // put in this hand, antes excluded
	ante    [MaxPlayers]int64 // antes posted: dead money
	folded  [MaxPlayers]bool
	allIn   [MaxPlayers]bool
	needs   [MaxPlayers]bool // must act again this street
	street  Street           // the betting round (beside the flags above: a hand stays in one size class)
	noCap   bool             // fixed-limit: the street began heads-up

	// Betting-round state.
	toAct      int
	currentBet int64             // the amount to match this street (the full big blind pre-flop, even when short)
	minRaise   int64             // the smallest legal raise increment; before a bet this street, the smallest bet
	fullRaises int               // full bets and raises made this street
	betCount   int               // fixed-limit: bets and raises this street, for the cap
	lastFaced  [MaxPlayers]int64 // currentBet after the player's last action this street; -1 before acting
	lastFull   [MaxPlayers]int   // fullRaises when the player last acted
	aggressor  int               // last to bet or raise this street, -1 when none
	turn       turn              // what the player to act faces, while one is
	collected  int64             // chips in the middle from finished streets, antes included
	revealed   bool              // betting closed with players all-in: every live hand is turned up
	done       bool              // the hand is over and every pot awarded

	// Run it twice: asking is set while the players are asked; answered marks who said yes.
	asking   bool
	answered [MaxPlayers]bool
	run      uint8  // 1 while the first of two runs is dealt, 2 for the second; 0 otherwise
	k        uint8  // hole cards per player
	board2   []Card // the second run's board

	events  []Event
	actions []Action
}

// boardBase is where the boards start in a hand's card store, after every player's hole cards.
const boardBase = maxHole * MaxPlayers

// NewHand posts antes and blinds and deals the hole cards. The first player to act is ToAct.
func NewHand(s Setup) (*Hand, error) {
	if err := s.Rules.Validate(); err != nil {
		return nil, err
	}
	n := len(s.Stacks)
	if n < 2 || n > MaxPlayers {
		return nil, fmt.Errorf("a hand needs 2 to %d players, not %d", MaxPlayers, n)
	}
	if g := s.Rules.Game; n > g.MaxPlayers() {
		return nil, fmt.Errorf("a hand of %s deals to at most %d players, not %d: one deck holds no more hole cards", g, g.MaxPlayers(), n)
	}
	if s.Button < 0 || s.Button >= n {
		return nil, fmt.Errorf("button %d is not one of the %d players", s.Button, n)
	}
	for i, st := range s.Stacks {
		if st <= 0 {
			return nil, fmt.Errorf("player %d has no chips to play with", i)
		}
		if st > MaxChips {
			return nil, fmt.Errorf("player %d has more than %d chips, the most a stack may hold", i, MaxChips)
		}
	}
	if !s.Deck.Valid() {
		return nil, fmt.Errorf("the deck does not hold 52 distinct cards")
	}
	if s.BombPot < 0 || s.BombPot > MaxChips {
		return nil, fmt.Errorf("a bomb pot ante must be from 1 to %d chips, not %d", MaxChips, s.BombPot)
	}
	if s.Straddle {
		if err := s.CheckStraddle(); err != nil {
			return nil, err
		}
	}
	if err := s.CheckPosts(); err != nil {
		return nil, err
	}
	s.Stacks = append([]int64(nil), s.Stacks...)
	s.Posts = slices.Clone(s.Posts)
	h := &Hand{
		setup:     s,
		n:         n,
		k:         uint8(s.Rules.Game.HoleCards()),
		aggressor: -1,
		toAct:     -1,
		events:    make([]Event, 0, 24+8*n), // room for a whole hand: no regrowth
		actions:   make([]Action, 0, 4*n),
	}
	copy(h.stack[:], s.Stacks)
	h.board = h.cards[boardBase : boardBase : boardBase+5]
	h.postAndDeal()
	return h, nil
}

// Replay rebuilds a hand from its setup and action log.
func Replay(s Setup, actions []Action) (*Hand, error) {
	h, err := NewHand(s)
	if err != nil {
		return nil, err
	}
	for i, a := range actions {
		if _, err := h.Apply(a); err != nil {
			return nil, fmt.Errorf("action %d (%s): %w", i+1, a, err)
		}
	}
	return h, nil
}

// holeSlice returns p's hole cards as a slice of the hand's card store.
func (h *Hand) holeSlice(p int) []Card {
	k := int(h.k)
	return h.cards[maxHole*p : maxHole*p+k : maxHole*p+k]
}

func (h *Hand) emit(e Event) {
	h.events = append(h.events, e)
}

// left returns the player i seats clockwise of p.
func (h *Hand) left(p, i int) int { return (p + i) % h.n }

func (h *Hand) smallBlindPos() int {
	if h.n == 2 {
		return h.setup.Button
	}
	return h.left(h.setup.Button, 1)
}

func (h *Hand) bigBlindPos() int { return BigBlindPlayer(h.n, h.setup.Button) }

// put moves up to amount from p's stack in front of p (or into the antes) and reports what moved.
func (h *Hand) put(p int, amount int64) int64 {
	if amount > h.stack[p] {
		amount = h.stack[p]
	}
	h.stack[p] -= amount
	if h.stack[p] == 0 {
		h.allIn[p] = true
	}
	return amount
}

func (h *Hand) postAndDeal() {
	r := h.setup.Rules
	bb := h.bigBlindPos()
	if bomb := h.setup.BombPot; bomb > 0 {
		for i := 0; i < h.n; i++ {
			p := h.left(h.setup.Button, i+1)
			a := h.put(p, bomb)
			h.ante[p] += a
			h.collected += a
			h.emit(Event{Kind: EvAnte, Player: p, Amount: a, AllIn: h.allIn[p]})
		}
		h.dealHoleCards()
		// No blinds and no pre-flop betting: the flop comes at once.
		h.street = Preflop
		h.endStreet()
		return
	}
	if r.Ante > 0 {
		for i := 0; i < h.n; i++ {
			p := h.left(h.setup.Button, i+1)
			if r.BigBlindAnte && p != bb {
				continue
			}
			a := h.put(p, r.Ante)
			h.ante[p] += a
			h.collected += a
			h.emit(Event{Kind: EvAnte, Player: p, Amount: a, AllIn: h.allIn[p]})
		}
	}
	post := func(p int, amount int64, kind EventKind) {
		a := h.put(p, amount)
		h.bet[p] += a
		h.contrib[p] += a
		h.emit(Event{Kind: kind, Player: p, Amount: a, To: h.bet[p], AllIn: h.allIn[p]})
	}
	if sb := h.smallBlindPos(); r.SmallBlind > 0 && !h.allIn[sb] {
		post(sb, r.SmallBlind, EvSmallBlind)
	}
	if !h.allIn[bb] {
		post(bb, r.BigBlind, EvBigBlind)
	}
	first := bb // pre-flop action starts left of the big blind, or of the straddler
	h.currentBet = r.BigBlind
	if h.setup.Straddle {
		s := h.left(bb, 1)
		post(s, r.StraddleAmount(), EvStraddle)
		h.currentBet, first = r.StraddleAmount(), s
	}
	h.postMissed(post)
	h.dealHoleCards()
	h.street = Preflop
	h.beginStreet()
	if h.setup.Straddle {
		h.minRaise = r.StraddleAmount() // the smallest raise is to twice the straddle
	}
	h.advance(first)
}

// postMissed posts the setup's posts (RULES.md section 13), from the player left of the button: the
// live part up to the bet in front named, then the dead part into the middle, as an ante.
func (h *Hand) postMissed(post func(p int, amount int64, kind EventKind)) {
	if len(h.setup.Posts) == 0 {
		return
	}
	for i := 0; i < h.n; i++ {
		p := h.left(h.setup.Button, i+1)
		po := h.setup.Posts[p]
		if live := po.Live - h.bet[p]; live > 0 && !h.allIn[p] {
			post(p, live, EvPost)
		}
		if po.Dead > 0 && !h.allIn[p] {
			a := h.put(p, po.Dead)
			h.ante[p] += a
			h.collected += a
			h.emit(Event{Kind: EvDead, Player: p, Amount: a, AllIn: h.allIn[p]})
		}
	}
}

// dealHoleCards deals two rounds (four or five in Omaha) from the player left of the button.
func (h *Hand) dealHoleCards() {
	for round := 0; round < int(h.k); round++ {
		for i := 0; i < h.n; i++ {
			p := h.left(h.setup.Button, i+1)
			h.cards[maxHole*p+round] = h.setup.Deck[h.next]
			h.next++
		}
	}
	for i := 0; i < h.n; i++ {
		p := h.left(h.setup.Button, i+1)
		h.emit(Event{Kind: EvHoleCards, Player: p, Cards: h.holeSlice(p)})
	}
}

// beginStreet resets the betting-round state.
func (h *Hand) beginStreet() {
	if h.street != Preflop {
		h.currentBet = 0
	}
	// The smallest bet, and the smallest raise until someone bets: in fixed-limit the street's bet
	// size; else the rules' minimum bet, or the big blind.
	switch {
	case h.setup.Rules.Variant == FixedLimit:
		h.minRaise = h.setup.Rules.limitBet(h.street)
	case h.setup.Rules.MinBet > 0:
		h.minRaise = h.setup.Rules.MinBet
	default:
		h.minRaise = h.setup.Rules.BigBlind
	}
	h.fullRaises = 0
	h.betCount = 0
	if h.street == Preflop {
		h.betCount = 1 // the big blind is the bet
	}
	h.aggressor = -1
	canBet := 0
	for p := 0; p < h.n; p++ {
		h.needs[p] = h.canAct(p)
		h.lastFaced[p] = -1
		h.lastFull[p] = 0
		if h.canAct(p) {
			canBet++
		}
	}
	h.noCap = canBet == 2
}

func (h *Hand) canAct(p int) bool { return !h.folded[p] && !h.allIn[p] }

// advance finds the next player to act after `after`, or closes the betting round.
func (h *Hand) advance(after int) {
	live := 0
	for p := 0; p < h.n; p++ {
		if !h.folded[p] {
			live++
		}
	}
	if live == 1 {
		h.endByFolds()
		return
	}
	for i := 1; i <= h.n; i++ {
		p := h.left(after, i)
		if h.canAct(p) && h.needs[p] {
			h.beginTurn(p)
			// A lone player who has matched every all-in has nobody to bet against.
			if !h.turn.others && h.turn.CanCheck {
				break
			}
			h.toAct = p
			h.emit(Event{Kind: EvTurn, Player: p, Street: h.street})
			return
		}
	}
	h.endStreet()
}

// closeBets ends a street's betting: the part of the largest bet that nobody matched goes back, and
// the bets go to the middle.
func (h *Hand) closeBets() {
	h.toAct = -1
	top, second := -1, int64(0)
	for p := 0; p < h.n; p++ {
		if top < 0 || h.bet[p] > h.bet[top] {
			if top >= 0 && h.bet[top] > second {
				second = h.bet[top]
			}
			top = p
		} else if h.bet[p] > second {
			second = h.bet[p]
		}
	}
	if back := h.bet[top] - second; back > 0 {
		h.bet[top] -= back
		h.contrib[top] -= back
		h.stack[top] += back
		h.allIn[top] = false
		if h.currentBet > h.bet[top] {
			h.currentBet = h.bet[top]
		}
		h.emit(Event{Kind: EvReturn, Player: top, Amount: back, Street: h.street})
	}
	for p := 0; p < h.n; p++ {
		h.collected += h.bet[p]
		h.bet[p] = 0
	}
}

func (h *Hand) endStreet() {
	h.closeBets()
	// With the bets collected, the pots are the ones the street left.
	h.emit(Event{Kind: EvPots, Player: -1, Street: h.street, Pots: h.CollectedPots()})
	if h.street == River {
		h.showdown()
		return
	}
	actors := 0
	for p := 0; p < h.n; p++ {
		if h.canAct(p) {
			actors++
		}
	}
	if actors <= 1 {
		// Betting is closed with players all-in: turn every live hand up and run the board out.
		h.revealed = true
		var hands []Revealed
		for i := 0; i < h.n; i++ {
			p := h.left(h.setup.Button, i+1)
			if !h.folded[p] {
				hands = append(hands, Revealed{Player: p, Cards: h.Hole(p), Hole: h.holeSlice(p)})
			}
		}
		h.emit(Event{Kind: EvReveal, Player: -1, Street: h.street, Hands: hands, Board: h.Board()})
		if h.setup.RunItTwice && !h.secondBoardFits() {
			// Omaha's hole cards can leave the deck short of a second board's cards with its burns.
			h.emit(Event{Kind: EvRuns, Player: -1, Street: h.street, Amount: 1, To: int64(len(h.setup.Deck) - h.next)})
			h.runOut()
			return
		}
		if h.setup.RunItTwice {
			h.asking = true
			h.ask(h.setup.Button)
			return
		}
		h.runOut()
		return
	}
	h.dealStreet()
	h.beginStreet()
	h.advance(h.setup.Button)
}

// secondBoardFits reports whether the deck holds the cards, burns included, to deal the rest of the
// board twice from the current street.
func (h *Hand) secondBoardFits() bool {
	need := 0 // cards, burns included, to complete one board from here
	for st := h.street + 1; st <= River; st++ {
		need += 2
		if st == Flop {
			need += 2
		}
	}
	return h.next+2*need <= len(h.setup.Deck)
}

// runOut deals the rest of the board once and shows down.
func (h *Hand) runOut() {
	for h.street < River {
		h.dealStreet()
	}
	h.showdown()
}

// ask turns to the next live player after `after` who has not agreed to run it twice; when everyone
// has, the board runs twice.
func (h *Hand) ask(after int) {
	for i := 1; i <= h.n; i++ {
		p := h.left(after, i)
		if !h.folded[p] && !h.answered[p] {
			h.toAct = p
			h.turn = turn{Options: Options{Player: p, Bet: h.bet[p], Stack: h.stack[p], RunItTwice: true}}
			h.emit(Event{Kind: EvTurn, Player: p, Street: h.street})
			return
		}
	}
	h.answer(2)
}

// answer ends the question: the board runs once or twice.
func (h *Hand) answer(runs int) {
	h.asking = false
	h.toAct = -1
	h.emit(Event{Kind: EvRuns, Player: -1, Street: h.street, Amount: int64(runs)})
	if runs == 1 {
		h.runOut()
		return
	}
	// The first run deals the next cards as usual; the second continues from the deck where the
	// first stopped, street by street with the same burns.
	pre := len(h.board)
	from := h.street
	h.run = 1
	for h.street < River {
		h.dealStreet()
	}
	h.run = 2
	base := boardBase + 5
	copy(h.cards[base:], h.board[:pre])
	h.board2 = h.cards[base : base+pre : base+5]
	for st := from + 1; st <= River; st++ {
		h.next++ // burn
		k := 1
		if st == Flop {
			k = 3
		}
		start := len(h.board2)
		for i := 0; i < k; i++ {
			h.board2 = append(h.board2, h.setup.Deck[h.next])
			h.next++
		}
		h.emit(Event{Kind: EvBoard, Player: -1, Street: st, Cards: h.board2[start:len(h.board2):len(h.board2)],
			Board: h.board2[:len(h.board2):len(h.board2)], Run: 2})
	}
	h.showdownTwice()
}

// pay finds a pot's winners among its eligible players (the best rank: a high HandRank or a LowRank),
// in seat order from the first seat left of the button so odd chips go to them first, and pays their
// shares into their stacks. The caller makes sure some eligible player has a rank above 0.
func pay[R HandRank | LowRank](h *Hand, pot *Pot, ranks *[MaxPlayers]R, chip int64) {
	var top R
	for _, p := range pot.Eligible {
		top = max(top, ranks[p])
	}
	for i := 0; i < h.n; i++ {
		p := h.left(h.setup.Button, i+1)
		if contains(pot.Eligible, p) && ranks[p] == top {
			pot.Winners = append(pot.Winners, p)
		}
	}
	pot.Shares = splitPot(pot.Amount, len(pot.Winners), chip)
	for i, w := range pot.Winners {
		h.stack[w] += pot.Shares[i]
	}
}

// award pays one pot (or one run's half of one) and emits its awards. In a hi-lo game a pot for which
// some eligible player makes a low is split in two, the odd chip (in the table's chip) in the high
// half, and each half is paid as a pot of its own (RULES.md section 12); otherwise the best high
// hand takes it all.
func (h *Hand) award(pot Pot, ranks *[MaxPlayers]HandRank, lows *[MaxPlayers]LowRank, value func(int) *HandValue, run uint8) {
	chip := h.setup.Rules.chip()
	if h.setup.Rules.Game.HiLo() {
		low := false
		for _, p := range pot.Eligible {
			low = low || lows[p] > 0
		}
		if low {
			lowAmount := pot.Amount / chip / 2 * chip
			hi := Pot{Amount: pot.Amount - lowAmount, Eligible: pot.Eligible}
			pay(h, &hi, ranks, chip)
			h.emit(Event{Kind: EvAward, Player: -1, Amount: hi.Amount, Street: Showdown, Value: value(hi.Winners[0]),
				Pots: []Pot{clonePot(hi)}, Run: run, Half: HalfHigh})
			if lowAmount > 0 {
				lo := Pot{Amount: lowAmount, Eligible: pot.Eligible}
				pay(h, &lo, lows, chip)
				h.emit(Event{Kind: EvAward, Player: -1, Amount: lo.Amount, Street: Showdown, Low: lows[lo.Winners[0]],
					Pots: []Pot{clonePot(lo)}, Run: run, Half: HalfLow})
			}
			return
		}
	}
	pay(h, &pot, ranks, chip)
	h.emit(Event{Kind: EvAward, Player: -1, Amount: pot.Amount, Street: Showdown, Value: value(pot.Winners[0]),
		Pots: []Pot{clonePot(pot)}, Run: run})
}

// rankHands ranks every live hand on board with the fast evaluators: the high hand, and in hi-lo games
// the low (0 when none).
func (h *Hand) rankHands(board []Card, ranks *[MaxPlayers]HandRank, lows *[MaxPlayers]LowRank) {
	if h.setup.Rules.Game == Holdem {
		var seven [7]Card
		copy(seven[2:], board)
		for p := 0; p < h.n; p++ {
			if !h.folded[p] {
				seven[0], seven[1] = h.cards[maxHole*p], h.cards[maxHole*p+1]
				ranks[p] = Evaluate(seven[:2+len(board)]...)
			}
		}
		return
	}
	loadTables()
	var b omahaBoard
	b.set(board)
	hilo := h.setup.Rules.Game.HiLo()
	for p := 0; p < h.n; p++ {
		if !h.folded[p] {
			ranks[p] = b.high(h.holeSlice(p))
			if hilo {
				lows[p] = b.lowOf(h.holeSlice(p))
			}
		}
	}
}

// handValue describes p's best high hand on board.
func (h *Hand) handValue(p int, board []Card) HandValue {
	if h.setup.Rules.Game == Holdem {
		var seven [7]Card
		seven[0], seven[1] = h.cards[maxHole*p], h.cards[maxHole*p+1]
		copy(seven[2:], board)
		return Best(seven[:2+len(board)])
	}
	return BestOmaha(h.holeSlice(p), board)
}

// halves splits a pot for two runs: the odd chip (in the table's chip unit) goes to the first half.
func halves(amount, chip int64) (first, second int64) {
	units, rest := amount/chip, amount%chip
	first = (units-units/2)*chip + rest
	return first, amount - first
}

// showdownTwice shows every live hand on each board and awards each pot's halves on its board.
func (h *Hand) showdownTwice() {
	pots := h.Pots()
	h.street = Showdown
	chip := h.setup.Rules.chip()
	for run, board := range [2][]Card{h.board, h.board2} {
		var ranks [MaxPlayers]HandRank
		var lows [MaxPlayers]LowRank
		var vals [MaxPlayers]HandValue
		h.rankHands(board, &ranks, &lows)
		for i := 0; i < h.n; i++ {
			p := h.left(h.setup.Button, i+1)
			if h.folded[p] {
				continue
			}
			vals[p] = h.handValue(p, board)
			v := vals[p]
			h.emit(Event{Kind: EvShow, Player: p, Street: Showdown, Cards: h.holeSlice(p), Value: &v, Low: lows[p],
				Run: uint8(run + 1)})
		}
		value := func(p int) *HandValue { v := vals[p]; return &v }
		for _, pot := range pots {
			first, second := halves(pot.Amount, chip)
			half := Pot{Amount: first, Eligible: pot.Eligible}
			if run == 1 {
				half.Amount = second
			}
			h.award(half, &ranks, &lows, value, uint8(run+1))
		}
	}
	h.collected = 0
	h.finish()
}

// Board2 returns the second run's board of a hand run twice, nil otherwise.
func (h *Hand) Board2() []Card { return append([]Card(nil), h.board2...) }

func (h *Hand) dealStreet() {
	h.street++
	h.next++ // burn
	k := 1
	if h.street == Flop {
		k = 3
	}
	start := len(h.board)
	for i := 0; i < k; i++ {
		h.board = append(h.board, h.setup.Deck[h.next])
		h.next++
	}
	// Events share the hand's card store: the cards never change once dealt.
	h.emit(Event{Kind: EvBoard, Player: -1, Street: h.street, Cards: h.board[start:len(h.board):len(h.board)],
		Board: h.board[:len(h.board):len(h.board)], Run: h.run})
}

func (h *Hand) endByFolds() {
	h.closeBets()
	w := -1
	for p := 0; p < h.n; p++ {
		if !h.folded[p] {
			w = p
		}
	}
	total := h.collected
	h.collected = 0
	h.stack[w] += total
	h.emit(Event{Kind: EvAward, Player: w, Amount: total, Street: h.street,
		Pots: []Pot{{Amount: total, Eligible: []int{w}, Winners: []int{w}, Shares: []int64{total}}}})
	h.finish()
}

func (h *Hand) finish() {
	h.done = true
	h.street = Showdown
	h.emit(Event{Kind: EvEnd, Player: -1, Street: Showdown, Stacks: h.Stacks()})
}

// Pots returns the main pot and the side pots as they stand, main first, built by contribution level,
// the bets in front of the players included. While a street is in play these are not yet the pots:
// a player who has not matched the bet is missing from them. CollectedPots are.
func (h *Hand) Pots() []Pot {
	return h.potsOf(&h.contrib, &h.allIn)
}

// CollectedPots returns the pots as the last street that closed left them, main first: the chips
// collected in the middle, without the bets in front of the players on the street in play (Bets).
// Side pots appear when a street closes; until then an all-in of this street is one of the bets.
// Between streets, and once the board is being run out, they are the Pots.
func (h *Hand) CollectedPots() []Pot {
	var contrib [MaxPlayers]int64
	var allIn [MaxPlayers]bool
	for p := 0; p < h.n; p++ {
		contrib[p] = h.contrib[p] - h.bet[p]
		allIn[p] = h.allIn[p] && h.bet[p] == 0 // all-in on an earlier street: a level of its own
	}
	return h.potsOf(&contrib, &allIn)
}

// potsOf builds the pots from each player's contribution (antes apart) and who is all-in.
func (h *Hand) potsOf(contrib *[MaxPlayers]int64, allIn *[MaxPlayers]bool) []Pot {
	// Levels: each live all-in player's contribution closes one; the largest contribution tops them.
	var lv [MaxPlayers + 1]int64
	levels := lv[:0]
	var top int64
	for p := 0; p < h.n; p++ {
		if !h.folded[p] && allIn[p] {
			levels = append(levels, contrib[p])
		}
		top = max(top, contrib[p])
	}
	levels = append(levels, top)
	slices.Sort(levels)
	// One backing array serves every pot's eligible list.
	elig := make([]int, 0, h.n*len(levels))
	pots := make([]Pot, 0, len(levels))
	prev := int64(-1)
	for i, l := range levels {
		if l == prev {
			continue
		}
		lo := max(prev, 0)
		var amount int64
		for p := 0; p < h.n; p++ {
			amount += min(contrib[p], l) - min(contrib[p], lo)
		}
		from := len(elig)
		for p := 0; p < h.n; p++ {
			if !h.folded[p] && contrib[p] >= l {
				elig = append(elig, p)
			}
		}
		e := elig[from:len(elig):len(elig)]
		prev = l
		switch {
		case len(e) == 0:
			// Only folded players' chips reach this high: they stay with the pot below.
			if len(pots) > 0 {
				pots[len(pots)-1].Amount += amount
			}
		case len(pots) > 0 && slices.Equal(pots[len(pots)-1].Eligible, e):
			pots[len(pots)-1].Amount += amount
		case amount == 0 && i > 0 && len(pots) > 0:
		default:
			pots = append(pots, Pot{Amount: amount, Eligible: e})
		}
	}
	var antes int64
	for _, a := range h.ante {
		antes += a
	}
	if len(pots) > 0 {
		pots[0].Amount += antes
	}
	return pots
}

func (h *Hand) showdown() {
	h.toAct = -1
	pots := h.Pots()
	// Rank every live hand with the fast evaluators; build descriptions only for hands that are shown.
	var ranks [MaxPlayers]HandRank
	var lows [MaxPlayers]LowRank
	h.rankHands(h.board, &ranks, &lows)
	// Values in one allocation, each built once: a player's shown hand and the award it wins share it.
	var vals *[MaxPlayers]HandValue
	value := func(p int) *HandValue {
		if vals == nil {
			vals = new([MaxPlayers]HandValue)
		}
		if vals[p].Rank == 0 {
			vals[p] = h.handValue(p, h.board)
		}
		return &vals[p]
	}
	// Showing order: the last river aggressor, else the first live player left of the button.
	start := h.left(h.setup.Button, 1)
	if h.street == River && h.aggressor >= 0 && !h.folded[h.aggressor] && !h.revealed {
		start = h.aggressor
	}
	h.street = Showdown
	var bestArr [MaxPlayers + 1]HandRank
	var bestLowArr [MaxPlayers + 1]LowRank
	var shownArr [MaxPlayers + 1]bool
	// The best high and low shown so far in each pot.
	best, bestLow, shown := bestArr[:len(pots)], bestLowArr[:len(pots)], shownArr[:len(pots)]
	for i := 0; i < h.n; i++ {
		p := h.left(start, i)
		if h.folded[p] {
			continue
		}
		show := h.revealed
		for k, pot := range pots {
			if contains(pot.Eligible, p) && (!shown[k] || ranks[p] >= best[k] || lows[p] > 0 && lows[p] >= bestLow[k]) {
				show = true
			}
		}
		if !show {
			h.emit(Event{Kind: EvMuck, Player: p, Street: Showdown})
			continue
		}
		for k, pot := range pots {
			if contains(pot.Eligible, p) {
				if !shown[k] || ranks[p] > best[k] {
					best[k] = ranks[p]
				}
				bestLow[k] = max(bestLow[k], lows[p])
				shown[k] = true
			}
		}
		h.emit(Event{Kind: EvShow, Player: p, Street: Showdown, Cards: h.holeSlice(p), Value: value(p), Low: lows[p]})
	}
	for k := range pots {
		h.award(pots[k], &ranks, &lows, value, 0)
	}
	h.collected = 0
	h.finish()
}

// splitPot divides amount among n winners in units of chip; odd chips go one each to the first winners,
// and any remainder smaller than a chip to the first.
func splitPot(amount int64, n int, chip int64) []int64 {
	shares := make([]int64, n)
	units := amount / chip
	rest := amount % chip
	for i := range shares {
		shares[i] = units / int64(n) * chip
		if int64(i) < units%int64(n) {
			shares[i] += chip
		}
	}
	shares[0] += rest
	return shares
}

func clonePot(p Pot) Pot {
	p.Eligible = append([]int(nil), p.Eligible...)
	p.Winners = append([]int(nil), p.Winners...)
	p.Shares = append([]int64(nil), p.Shares...)
	return p
}

func contains(s []int, x int) bool {
	for _, v := range s {
		if v == x {
			return true
		}
	}
	return false
}

// Clone returns an independent copy of the hand: acting on the copy leaves h as it was. It is how a
// caller tries an action without replaying the hand from its setup, and the cost of one allocation.
func (h *Hand) Clone() *Hand {
	c := *h
	c.setup.Stacks = slices.Clone(h.setup.Stacks)
	// The boards are windows on the hand's own card store: point the copy's at its own.
	c.board = c.cards[boardBase : boardBase+len(h.board) : boardBase+5]
	if h.board2 != nil {
		base := boardBase + 5
		c.board2 = c.cards[base : base+len(h.board2) : base+5]
	}
	// Events and actions only grow: clipped, an append by either hand copies instead of writing
	// into the other's array. Events already made are immutable and stay shared.
	c.events = slices.Clip(h.events)
	c.actions = slices.Clip(h.actions)
	return &c
}

// Street is a betting round.
type Street uint8

// The streets; Showdown follows the river.
const (
	Preflop Street = iota
	Flop
	Turn
	River
	Showdown
)

// String names the street in lower case: "pre-flop", "flop", "turn", "river", "showdown".
func (s Street) String() string {
	switch s {
	case Preflop:
		return "pre-flop"
	case Flop:
		return "flop"
	case Turn:
		return "turn"
	case River:
		return "river"
	}
	return "showdown"
}
