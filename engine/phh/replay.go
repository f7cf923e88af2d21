package phh

import (
	"fmt"
	"math"
	"strings"

	"github.com/dealerbot/dealerbot/engine"
)

// chipKey is the key FromHand writes when the table's smallest chip is not 1, so that a replay splits
// pots the same way. It is not part of the PHH standard; other readers ignore it.
const chipKey = "dealerbot_chip"

// runsKey is the key FromHand writes for a hand whose board was run twice (value 2): the second run's
// cards follow the first's as further "d db" lines, and a replay answers yes to running it twice.
const runsKey = "dealerbot_runs"

// bombKey is the key FromHand writes for a bomb pot: the dead ante everyone posted. Files without it
// replay as usual.
const bombKey = "dealerbot_bomb_pot"

// postsKey is the key FromHand writes for a hand in which players posted missed blinds (RULES.md
// section 13): a live and a dead amount per player, in PHH order (p1's live, p1's dead, p2's...).
// Readers that do not know it replay the hand without the posts.
const postsKey = "dealerbot_posts"

// UnsupportedError is returned by Replay for a history of a game the engine does not play.
type UnsupportedError struct {
	Variant string
}

func (e *UnsupportedError) Error() string {
	return fmt.Sprintf("variant %q is not a game dealerbot deals, so it cannot be replayed: only hold'em (NT, FT, PT) and Omaha (PO, FO/8, PO5, PO/8) replay", e.Variant)
}

// Replayable reports whether Replay plays histories of this variant.
func Replayable(variant string) bool {
	_, _, ok := Game(variant)
	return ok
}

// Setup builds the engine setup the history starts from: p1 is engine player 0 and the last player is
// the button. Unknown cards (and the burns) are filled with the cards the file does not mention, in
// encoding order.
func Setup(h *History) (engine.Setup, error) {
	var s engine.Setup
	if !Replayable(h.Variant) {
		return s, &UnsupportedError{Variant: h.Variant}
	}
	n := len(h.StartingStacks)
	if n < 2 || n > engine.MaxPlayers {
		return s, fmt.Errorf("the hand has %d players; the engine deals to 2 to %d", n, engine.MaxPlayers)
	}
	var err error
	whole := func(what string, x float64) int64 {
		if err == nil && (x != math.Trunc(x) || x < 0 || x > 1<<53) {
			err = fmt.Errorf("%s is %s: the engine plays whole chips only", what, formatAmount(x))
		}
		return int64(x)
	}
	s.Stacks = make([]int64, n)
	for i, x := range h.StartingStacks {
		s.Stacks[i] = whole(fmt.Sprintf("p%d's starting stack", i+1), x)
	}
	s.Button = n - 1
	r := &s.Rules
	r.Variant, r.Game, _ = Game(h.Variant)
	if n > r.Game.MaxPlayers() {
		return s, fmt.Errorf("the hand has %d players; the engine deals %s to at most %d", n, r.Game, r.Game.MaxPlayers())
	}
	// Blinds: entry 0 is the small blind, entry 1 the big blind. Heads-up the standard applies the
	// arrays in reverse (the button, p2, posts entry 0), which is the same two amounts.
	if len(h.BlindsOrStraddles) != n {
		return s, fmt.Errorf("blinds_or_straddles must list one amount per player, small blind first")
	}
	for i, x := range h.BlindsOrStraddles[2:] {
		// A live straddle of twice the big blind by p3, under the gun, is the engine's straddle.
		if x != 0 && (i != 0 || n < 3 || x != 2*h.BlindsOrStraddles[1]) {
			return s, fmt.Errorf("p%d posts a straddle of %s: the engine plays a straddle of twice the big blind under the gun only", i+3, formatAmount(x))
		}
		s.Straddle = s.Straddle || x != 0
	}
	r.SmallBlind = whole("the small blind", h.BlindsOrStraddles[0])
	r.BigBlind = whole("the big blind", h.BlindsOrStraddles[1])
	if r.BigBlind == 0 && r.SmallBlind > 0 && n > 2 && !s.Straddle {
		// Only p1 posts a blind: a big blind left of the button, the small blind missing (a tournament
		// hand after a bust). The engine deals it with its button one seat to the right and no small
		// blind, so p1 posts the big blind and p2 acts first, as in the file. After the flop the engine
		// would then start with pN, the real button: Replay accepts such a file only when pN folds
		// before the flop (oneBlind).
		r.BigBlind, r.SmallBlind = r.SmallBlind, 0
		s.Button = n - 2
	}
	if bomb, ok := h.Extra[bombKey].(int64); ok && bomb > 0 {
		// A bomb pot: dead antes from everyone, no blinds; min_bet is the table's big blind.
		s.BombPot = bomb
		bet := h.MinBet
		if r.Variant == engine.FixedLimit {
			bet = h.SmallBet // fixed-limit writes no min_bet: the small bet is the opening bet
		}
		r.SmallBlind, r.BigBlind = 0, whole("the opening bet", bet)
	} else if err := anteRule(h.Antes, r, whole); err != nil {
		return s, err
	}
	switch r.Variant {
	case engine.FixedLimit:
		r.SmallBet = whole("small_bet", h.SmallBet)
		r.BigBet = whole("big_bet", h.BigBet)
	default:
		r.MinBet = whole("min_bet", h.MinBet)
	}
	if c, ok := h.Extra[chipKey].(int64); ok && c > 0 {
		r.Chip = c
	}
	if runs, _ := h.Extra[runsKey].(int64); runs == 2 {
		s.RunItTwice = true
	}
	if posts, ok := h.Extra[postsKey].([]any); ok {
		if len(posts) != 2*n {
			return s, fmt.Errorf("%s must list a live and a dead amount for each of the %d players", postsKey, n)
		}
		s.Posts = make([]engine.Post, n)
		for i, x := range posts {
			v, ok := x.(int64)
			if !ok {
				return s, fmt.Errorf("%s must list whole numbers of chips", postsKey)
			}
			if i%2 == 0 {
				s.Posts[i/2].Live = v
			} else {
				s.Posts[i/2].Dead = v
			}
		}
		if err := s.CheckPosts(); err != nil {
			return s, err
		}
	}
	if err != nil {
		return s, err
	}
	if err := r.Validate(); err != nil {
		return s, err
	}
	s.Deck, err = deck(h, n, r.Game)
	return s, err
}

func anteRule(antes []float64, r *engine.Rules, whole func(string, float64) int64) error {
	if antes == nil {
		return nil
	}
	all, bbOnly := true, true
	for i, x := range antes {
		if x != antes[0] {
			all = false
		}
		if i != 1 && x != 0 {
			bbOnly = false
		}
	}
	switch {
	case all:
		r.Ante = whole("the ante", antes[0])
	case bbOnly:
		r.Ante = whole("the big blind's ante", antes[1])
		r.BigBlindAnte = true
	default:
		return fmt.Errorf("antes %v are neither equal for everyone nor posted by the big blind alone; the engine plays only those two kinds", antes)
	}
	return nil
}

// Slots in the deck the engine deals from, for n players of hole cards each: hole cards round by
// round from p1, then a burn before each street.
func holeSlot(n, p, k int) int { return k*n + p }

func boardSlot(n, hole, b int) int {
	switch {
	case b < 3:
		return hole*n + 1 + b
	case b == 3:
		return hole*n + 5
	}
	return hole*n + 7
}

// boardSlots are the deck positions of the board cards in the order the file deals them: five, then,
// for a hand run twice, the second run's cards, which continue the deck street by street with a burn
// before each street.
func boardSlots(h *History, n, hole int) []int {
	slots := []int{boardSlot(n, hole, 0), boardSlot(n, hole, 1), boardSlot(n, hole, 2), boardSlot(n, hole, 3), boardSlot(n, hole, 4)}
	if runs, _ := h.Extra[runsKey].(int64); runs != 2 {
		return slots
	}
	total := 0
	for _, a := range h.Actions {
		if a.Op == "db" {
			total += len(a.Cards) / 2
		}
	}
	pre := 10 - total // board cards dealt before the run-out, shared by both runs
	pos := hole*n + 8
	for b := max(pre, 0); b < 5; b++ {
		if b == 0 || b == 3 || b == 4 {
			pos++ // the burn before the flop, the turn and the river
		}
		slots = append(slots, pos)
		pos++
	}
	return slots
}

// deck places every card the file names (hole cards dealt or shown, board cards) in its slot and fills
// the rest with the unused cards.
func deck(h *History, n int, g engine.Game) (engine.Deck, error) {
	hole := g.HoleCards()
	var d engine.Deck
	var slot [52]int // card+1 in each slot, 0 when not known
	var used [52]bool
	place := func(at int, c engine.Card) error {
		if slot[at] == int(c)+1 {
			return nil
		}
		if slot[at] != 0 {
			return fmt.Errorf("the file gives %s and %s for the same card", engine.Card(slot[at]-1), c)
		}
		if used[c] {
			return fmt.Errorf("%s is dealt twice", c)
		}
		slot[at] = int(c) + 1
		used[c] = true
		return nil
	}
	board := 0
	slots := boardSlots(h, n, hole)
	for _, a := range h.Actions {
		if a.Cards == "" || (a.Op != "dh" && a.Op != "db" && a.Op != "sm") {
			continue
		}
		cards := len(a.Cards) / 2
		if a.Op != "db" && cards != hole {
			return d, fmt.Errorf("action %q: a %s player has %d hole cards, not %d", a, g, hole, cards)
		}
		for k := 0; k < cards; k++ {
			var at int
			if a.Op == "db" {
				if board == len(slots) {
					if len(slots) == 5 {
						return d, fmt.Errorf("action %q: the board has only five cards", a)
					}
					return d, fmt.Errorf("action %q: two runs have only %d board cards", a, len(slots))
				}
				at = slots[board]
				board++
			} else {
				at = holeSlot(n, a.Player-1, k)
			}
			text := a.Cards[2*k : 2*k+2]
			if strings.Contains(text, "?") {
				continue
			}
			c, err := engine.ParseCard(text)
			if err != nil {
				return d, fmt.Errorf("action %q: %w", a, err)
			}
			if err := place(at, c); err != nil {
				return d, fmt.Errorf("action %q: %w", a, err)
			}
		}
	}
	if hole == 2 {
		fillMuckers(h, n, &slot, &used)
	} else {
		fillOmahaMuckers(h, n, hole, g.HiLo(), &slot, &used)
	}
	next := engine.Card(0)
	for i := range d {
		if slot[i] != 0 {
			d[i] = engine.Card(slot[i] - 1)
			continue
		}
		for used[next] {
			next++
		}
		d[i] = next
		used[next] = true
	}
	return d, nil
}

// fillMuckers gives each player who mucked at showdown with unknown hole cards (a redacted history,
// "pN sm" without cards) the two unused cards that make the weakest hand with the board. The player's
// real cards are among the unused ones and lost, so the weakest choice loses too and the replay pays
// the pots as they were paid; any other choice could win a pot the player did not.
func fillMuckers(h *History, n int, slot *[52]int, used *[52]bool) {
	var board []engine.Card
	for b := 0; b < 5; b++ {
		if slot[boardSlot(n, 2, b)] == 0 {
			return // not a full known board: nothing to compare with
		}
		board = append(board, engine.Card(slot[boardSlot(n, 2, b)]-1))
	}
	for _, a := range h.Actions {
		if a.Op != "sm" || a.Cards != "" || a.Player < 1 || a.Player > n {
			continue
		}
		s0, s1 := holeSlot(n, a.Player-1, 0), holeSlot(n, a.Player-1, 1)
		if slot[s0] != 0 || slot[s1] != 0 {
			continue
		}
		best, bc0, bc1 := engine.HandRank(^uint32(0)), -1, -1
		for c0 := 0; c0 < 52; c0++ {
			for c1 := c0 + 1; c1 < 52 && !used[c0]; c1++ {
				if used[c1] {
					continue
				}
				if r := engine.Evaluate(append([]engine.Card{engine.Card(c0), engine.Card(c1)}, board...)...); r < best {
					best, bc0, bc1 = r, c0, c1
				}
			}
		}
		if bc0 < 0 {
			return
		}
		slot[s0], slot[s1] = bc0+1, bc1+1
		used[bc0], used[bc1] = true, true
	}
}

// fileBoard returns the board cards the file deals, "??" for unknown ones.
func fileBoard(h *History) []string {
	var b []string
	for _, a := range h.Actions {
		if a.Op == "db" {
			for k := 0; k+2 <= len(a.Cards); k += 2 {
				b = append(b, a.Cards[k:k+2])
			}
		}
	}
	return b
}

// Replay plays the history through the engine and returns the finished hand. Player pN of the file is
// engine player N-1. Dealing and showdown lines need no engine action: the engine deals from the deck
// Setup builds and shows down itself; Replay then checks the dealt board against the file's.
// An action the engine refuses is an error quoting the action and the engine's reason.
func Replay(h *History) (*engine.Hand, error) {
	s, err := Setup(h)
	if err != nil {
		return nil, err
	}
	hand, err := engine.NewHand(s)
	if err != nil {
		return nil, err
	}
	boardDealt := false
	for i, a := range h.Actions {
		var kind engine.ActionKind
		if a.Op == "db" {
			boardDealt = true
		}
		if s.BombPot > 0 && !boardDealt && a.Op == "cc" {
			continue // the checks that stand for a bomb pot's absent pre-flop betting
		}
		switch a.Op {
		case "dh", "db", "sm":
			continue
		case "f":
			kind = engine.Fold
		case "cc":
			kind = engine.Call
			if o, ok := hand.Options(); ok && o.CanCheck {
				kind = engine.Check
			}
		case "cbr":
			kind = engine.Raise
			if o, ok := hand.Options(); ok && o.CanBet {
				kind = engine.Bet
			}
			if a.Amount != math.Trunc(a.Amount) {
				return nil, fmt.Errorf("action %d %q: the engine plays whole chips only", i+1, a)
			}
		default:
			return nil, fmt.Errorf("action %d %q: %q is not an action of hold'em or Omaha", i+1, a, a.Op)
		}
		answerRuns(hand)
		if a.Op == "cc" && noOpCheck(hand, a.Player-1) {
			continue
		}
		if hand.Done() {
			return nil, fmt.Errorf("action %d %q comes after the hand is over", i+1, a)
		}
		ea := engine.Action{Player: a.Player - 1, Kind: kind, Amount: int64(a.Amount)}
		if _, err := hand.Apply(ea); err != nil {
			return nil, fmt.Errorf("action %d %q (engine player %d: %s) refused: %w", i+1, a, ea.Player, describe(ea), err)
		}
	}
	answerRuns(hand)
	if !hand.Done() {
		return nil, fmt.Errorf("the actions end before the hand is over: p%d is still to act", hand.ToAct()+1)
	}
	if n := hand.NumPlayers(); s.Button != n-1 && !foldedPreflop(hand, n-1) {
		return nil, fmt.Errorf("only p1 posts a blind: the engine replays such a hand only when p%d, the button, folds before the flop", n)
	}
	want := fileBoard(h)
	var got []engine.Card // every board card dealt, the second run's after the first's
	for _, ev := range hand.Events() {
		if ev.Kind == engine.EvBoard {
			got = append(got, ev.Cards...)
		}
	}
	if len(want) != len(got) {
		return nil, fmt.Errorf("the file deals %d board cards but the engine dealt %d (%s)", len(want), len(got), engine.FormatCards(got))
	}
	for i, c := range got {
		if !strings.Contains(want[i], "?") && want[i] != c.String() {
			return nil, fmt.Errorf("board card %d is %s in the file but the engine dealt %s", i+1, want[i], c)
		}
	}
	return hand, nil
}

// foldedPreflop reports whether engine player p was out of the hand before the flop was dealt: folded,
// or the hand ended before the flop.
func foldedPreflop(hand *engine.Hand, p int) bool {
	for _, ev := range hand.Events() {
		switch {
		case ev.Kind == engine.EvFold && ev.Player == p:
			return true
		case ev.Kind == engine.EvBoard:
			return false
		}
	}
	return true
}

// noOpCheck reports whether a check or call by engine player p is one the engine never asks for: the
// betting has closed with every other player still in the hand all-in and p matching them (RULES.md
// R-20), so the board is run out. pokerkit sometimes records such a player's check anyway.
func noOpCheck(hand *engine.Hand, p int) bool {
	if p < 0 || p >= hand.NumPlayers() || hand.ToAct() == p || hand.Folded(p) || hand.IsAllIn(p) {
		return false
	}
	for _, ev := range hand.Events() {
		if ev.Kind == engine.EvReveal {
			return true
		}
	}
	return false
}

// answerRuns agrees to run it twice for every player asked: a file records a hand run twice by its
// second board (runsKey), not by each answer.
func answerRuns(hand *engine.Hand) {
	for {
		o, ok := hand.Options()
		if !ok || !o.RunItTwice {
			return
		}
		if _, err := hand.Apply(engine.Action{Player: o.Player, Kind: engine.RunTwice}); err != nil {
			return
		}
	}
}

// describe words an engine action without the engine's player number, which counts from 0.
func describe(a engine.Action) string {
	if a.Kind == engine.Bet || a.Kind == engine.Raise {
		return fmt.Sprintf("%s to %d", a.Kind, a.Amount)
	}
	return a.Kind.String()
}

// RedactedFor is Redacted, but keeps the hole cards of player pN (1-based; 0 keeps none): a history
// exported for one player shows that player's own cards.
func (h *History) RedactedFor(player int) *History {
	c := h.Redacted()
	for i, a := range c.Actions {
		if a.Op == "dh" && a.Player == player {
			c.Actions[i].Cards = h.Actions[i].Cards
		}
	}
	return c
}

// Redacted returns a copy of the history in which the hole cards of every player who did not show them
// are "????", fit to publish. A redacted history still replays to the same stacks when the players
// whose cards are hidden folded; a player who mucked at showdown needs the real cards to replay.
func (h *History) Redacted() *History {
	c := *h
	shown := map[int]bool{}
	for _, a := range h.Actions {
		if a.Op == "sm" && a.Cards != "" {
			shown[a.Player] = true
		}
	}
	c.Actions = make([]Action, len(h.Actions))
	for i, a := range h.Actions {
		if a.Op == "dh" && !shown[a.Player] {
			a.Cards = strings.Repeat("?", len(a.Cards))
		}
		c.Actions[i] = a
	}
	return &c
}

// FromHand writes an engine hand as a history. players names the engine's players by index (ignored
// unless it has one name per player). The history lists players from the first seat left of the
// button, as PHH does, so engine player e becomes p((e-Button-1) mod n + 1). Hole cards of every player
// are written: the history is a private record; publish h.Redacted() instead. FinishingStacks is set only
// when the hand is done.
func FromHand(hand *engine.Hand, players []string) *History {
	s := hand.Setup()
	n := len(s.Stacks)
	pos := func(e int) int { return ((e-s.Button-1)%n + n) % n } // 0-based PHH index
	engineOf := func(j int) int { return (s.Button + 1 + j) % n }
	r := s.Rules
	h := &History{}
	f := false
	h.AnteTrimmingStatus = &f
	h.Variant = Variant(r.Variant, r.Game)
	switch r.Variant {
	case engine.FixedLimit:
		h.SmallBet, h.BigBet = float64(r.BigBlind), float64(2*r.BigBlind)
		if r.SmallBet > 0 {
			h.SmallBet = float64(r.SmallBet)
		}
		if r.BigBet > 0 {
			h.BigBet = float64(r.BigBet)
		}
	}
	if r.Variant != engine.FixedLimit {
		h.MinBet = float64(r.BigBlind)
		if r.MinBet > 0 {
			h.MinBet = float64(r.MinBet)
		}
	}
	h.Antes = make([]float64, n)
	h.BlindsOrStraddles = make([]float64, n)
	switch {
	case s.BombPot > 0:
		// A bomb pot: dead antes, no blinds. Readers that know no bomb pots replay it as a hand with
		// zero blinds in which everyone checks pre-flop (the checks are written below).
		for j := range h.Antes {
			h.Antes[j] = float64(s.BombPot)
		}
		if h.Extra == nil {
			h.Extra = map[string]any{}
		}
		h.Extra[bombKey] = s.BombPot
	default:
		if r.Ante > 0 {
			for j := range h.Antes {
				if !r.BigBlindAnte || j == 1 {
					h.Antes[j] = float64(r.Ante)
				}
			}
		}
		h.BlindsOrStraddles[0] = float64(r.SmallBlind)
		h.BlindsOrStraddles[1] = float64(r.BigBlind)
		if s.Straddle {
			h.BlindsOrStraddles[2] = float64(r.StraddleAmount())
		}
	}
	if len(s.Posts) == n {
		posts := make([]int64, 0, 2*n)
		for j := 0; j < n; j++ {
			po := s.Posts[engineOf(j)]
			posts = append(posts, po.Live, po.Dead)
		}
		if h.Extra == nil {
			h.Extra = map[string]any{}
		}
		h.Extra[postsKey] = posts
	}
	h.StartingStacks = make([]float64, n)
	for j := range h.StartingStacks {
		h.StartingStacks[j] = float64(s.Stacks[engineOf(j)])
	}
	if len(players) == n {
		h.Players = make([]string, n)
		for j := range h.Players {
			h.Players[j] = players[engineOf(j)]
		}
	}
	if r.Chip > 1 {
		if h.Extra == nil {
			h.Extra = map[string]any{}
		}
		h.Extra[chipKey] = r.Chip
	}
	shown := make([]bool, n)
	add := func(a Action) { h.Actions = append(h.Actions, a) }
	for _, e := range hand.Events() {
		p := pos(e.Player) + 1
		switch e.Kind {
		case engine.EvHoleCards:
			add(Action{Player: p, Op: "dh", Cards: engine.FormatCards(e.Cards)})
		case engine.EvFold:
			add(Action{Player: p, Op: "f"})
		case engine.EvCheck, engine.EvCall:
			add(Action{Player: p, Op: "cc"})
		case engine.EvBet, engine.EvRaise:
			add(Action{Player: p, Op: "cbr", Amount: float64(e.To)})
		case engine.EvBoard:
			if s.BombPot > 0 && e.Street == engine.Flop && e.Run < 2 { // once, before the (first) flop
				// Zero blinds: every player with chips checks pre-flop, from p3 (p1 heads-up) round.
				first := 2
				if n == 2 {
					first = 0
				}
				for k := 0; k < n; k++ {
					j := (first + k) % n
					if st0 := s.Stacks[engineOf(j)]; st0 > s.BombPot {
						add(Action{Player: j + 1, Op: "cc"})
					}
				}
			}
			add(Action{Op: "db", Cards: engine.FormatCards(e.Cards)})
		case engine.EvReveal:
			for _, rv := range e.Hands {
				shown[rv.Player] = true
				add(Action{Player: pos(rv.Player) + 1, Op: "sm", Cards: engine.FormatCards(rv.Hole)})
			}
		case engine.EvShow:
			if !shown[e.Player] {
				shown[e.Player] = true
				add(Action{Player: p, Op: "sm", Cards: engine.FormatCards(e.Cards)})
			}
		case engine.EvMuck:
			add(Action{Player: p, Op: "sm"})
		case engine.EvRuns:
			if e.Amount == 2 {
				if h.Extra == nil {
					h.Extra = map[string]any{}
				}
				h.Extra[runsKey] = int64(2)
			}
		}
	}
	if hand.Done() {
		st := hand.Stacks()
		h.FinishingStacks = make([]float64, n)
		for j := range h.FinishingStacks {
			h.FinishingStacks[j] = float64(st[engineOf(j)])
		}
	}
	return h
}

// omahaMuckCandidates is how many unused cards fillOmahaMuckers chooses a mucker's hand from: the
// lowest, so the search stays small (C(20,5) = 15,504 hands) and its weakest hand loses.
const omahaMuckCandidates = 20

// fillOmahaMuckers is fillMuckers for Omaha: each player who mucked at showdown with unknown hole
// cards gets the unused cards that make the weakest Omaha high hand with the board, chosen among the
// lowest unused cards; in hi-lo among the nines to kings, which make no low, so the player wins no
// half either.
func fillOmahaMuckers(h *History, n, hole int, hilo bool, slot *[52]int, used *[52]bool) {
	var board []engine.Card
	for b := 0; b < 5; b++ {
		if slot[boardSlot(n, hole, b)] == 0 {
			return // not a full known board: nothing to compare with
		}
		board = append(board, engine.Card(slot[boardSlot(n, hole, b)]-1))
	}
	for _, a := range h.Actions {
		if a.Op != "sm" || a.Cards != "" || a.Player < 1 || a.Player > n {
			continue
		}
		known := false
		for k := 0; k < hole; k++ {
			known = known || slot[holeSlot(n, a.Player-1, k)] != 0
		}
		if known {
			continue
		}
		var cands []engine.Card
		for r := engine.Two; r <= engine.Ace && len(cands) < omahaMuckCandidates; r++ {
			if hilo && (r < engine.Nine || r == engine.Ace) {
				continue
			}
			for c := engine.Card(0); c < 52; c++ {
				if !used[c] && c.Rank() == r && len(cands) < omahaMuckCandidates {
					cands = append(cands, c)
				}
			}
		}
		if len(cands) < hole {
			return
		}
		best, pick := engine.HandRank(^uint32(0)), []engine.Card(nil)
		cur := make([]engine.Card, 0, hole)
		var walk func(from int)
		walk = func(from int) {
			if len(cur) == hole {
				if r := engine.EvaluateOmaha(cur, board); r < best {
					best, pick = r, append(pick[:0], cur...)
				}
				return
			}
			for i := from; i <= len(cands)-(hole-len(cur)); i++ {
				cur = append(cur, cands[i])
				walk(i + 1)
				cur = cur[:len(cur)-1]
			}
		}
		walk(0)
		for k, c := range pick {
			slot[holeSlot(n, a.Player-1, k)] = int(c) + 1
			used[c] = true
		}
	}
}
