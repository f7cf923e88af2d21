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

// The hand verbs: deal, the betting actions (fold, check, call, bet, raise, allin, runtwice), the
// clock's timeout and the check or fold for a player who is leaving or away; cards and show.

// Random is where a deal's randomness comes from: the shell's shuffler.
type Random interface {
	Deck() (engine.Deck, error)
	Salt() (string, error) // the secret behind the deck commitment, in hex
}

// LastHand is the hand that ended most recently, for `show`.
type LastHand struct {
	No    int64
	Hand  *engine.Hand
	Seats []SeatRecord // the seat records of the hand's players, by hand index
	Shown []bool       // by hand index: the player's cards are face up
}

// View is what a step did to the running hand, for its table message.
type View struct {
	Deal   *HandState // a hand was dealt: its table message begins
	Notes  []string   // what the deal said: the button draw, a level change, a bomb pot...
	Events []engine.Event
	RanOut string   // the player whose time ran out took the step
	Bank   string   // the line that says a player's time bank runs (startBank)
	Result []string // what the hand's end means for the table: who sits out, leaves, is out of chips
	// The hand the events belong to as the table message draws it (a finished hand: the one that just
	// ended), its record and its players' names.
	Hand  *engine.Hand
	State *HandState
	Names render.Names
}

// Private is a message for one player only (hole cards).
type Private struct {
	User    string
	Message render.Message
}

// Deadline is when a turn starting at now runs out; zero without a turn timer.
func (s State) Deadline(now time.Time) time.Time {
	if s.Rec.Settings.Timer <= 0 {
		return time.Time{}
	}
	return now.Add(time.Duration(s.Rec.Settings.Timer) * time.Second)
}

// Deal is a player's (or the host's) `deal`: the next hand now. It also lifts a quarantine: automatic
// deals resume (a new fault quarantines the table again). The caller is seated or the host (the
// gate's need); nothing here depends on who it is.
func (s State) Deal(now time.Time, _ Caller, _ []string, in Inputs) (Step, error) {
	if s.Hand != nil {
		return Step{}, errs.Errorf(errs.Conflict, "Hand #%d is still being played: wait for it to end.", s.Rec.Hand.No)
	}
	if names, left := s.rebuyWait(now); len(names) > 0 && !s.Quarantined {
		// Their offer said how long they have (RebuyWindow, a countdown on the table). Nobody cuts
		// it short, the host neither; each of them does by answering. (At a quarantined table a
		// `deal` is the only way on, and it places them.)
		return Step{}, errs.Errorf(errs.Conflict, "%s may still rebuy, %s left: the next hand is dealt as soon as each has answered (`rebuy` or `rebuy no`), or when the time is up.", strings.Join(names, " and "), Seconds(left))
	}
	if o := s.Rec.Orbit; o.Chooser != "" && now.Before(o.By) && !s.Quarantined {
		return Step{}, errs.Errorf(errs.Conflict, "%s is choosing the game for this orbit, %s left: the hand is dealt as soon as they choose (`choose GAME`), or when the time is up.", o.ChooserName, Seconds(o.By.Sub(now)))
	}
	s.Quarantined = false
	st, err := s.NextHand(now, in)
	switch {
	case err != nil:
		return Step{}, err
	case st.Ends || st.Next != nil && !st.Next.Open:
		st.Reply = "The session is over."
	case st.Next.Hand == nil && st.Next.Rec.Orbit.Chooser != "":
		st.Reply = fmt.Sprintf("%s chooses the game first.", st.Next.Rec.Orbit.ChooserName)
	default:
		st.Reply = fmt.Sprintf("Dealt hand #%d.", st.Next.Rec.HandNo)
	}
	return st, nil
}

// NextHand starts the next hand: hole cards to each player, the deal's notes on its table message. A
// session past its set end ends instead (Step.Ends). in.LastHand is the channel's newest kept hand,
// in.Rand the shuffler and in.Style how cards are drawn.
func (s State) NextHand(now time.Time, in Inputs) (Step, error) {
	if !s.Open || s.Hand != nil {
		return Step{}, errs.Errorf(errs.Conflict, "A hand is being played: wait for it to end.")
	}
	if s.Rec.timeUp(now) {
		return Step{Posts: []render.Message{{Text: "Time is up: the session is over."}}, Ends: true}, nil
	}
	var notes []string
	if len(s.Rec.Tournament.Busted()) > 0 {
		// The players out of chips who did not rebuy in the pause are placed now, before the deal;
		// when one player is left the tournament is over instead, in the same commit.
		n := s.Rec.Clone()
		notes = append(placeBusted(&n), n.Tournament.leftLine()...)
		if n.Tournament.Left() < 2 {
			return s.EndSession(now), nil
		}
		s.Rec = n
	}
	if tr := s.Rec.Tournament; tr != nil && !tr.RebuyBy.IsZero() {
		n := s.Rec.Clone()
		n.Tournament.RebuyBy = time.Time{} // the time to rebuy ends with this deal
		s.Rec = n
	}
	seats := s.Playing()
	if len(seats) < 2 {
		if s.Rec.Tournament != nil {
			return Step{}, errs.Errorf(errs.Invalid, "A tournament needs two players to begin: wait for another to `join`.")
		}
		return Step{}, errs.Errorf(errs.Invalid, "A hand needs two players with chips who are not sitting out: wait for someone to `join` or `sitin`.")
	}
	n := s.Rec.Clone()
	levelFrom := n.Started
	if tr := n.Tournament; tr != nil {
		if tr.Began.IsZero() {
			tr.Began = now
			var ps []string
			for i, p := range tr.PrizeList() {
				ps = append(ps, fmt.Sprintf("%s %s", render.Ordinal(i+1), render.Chips(p)))
			}
			line := fmt.Sprintf("The tournament begins: %d entrants, prize pool %s; prizes %s", len(tr.Entries), render.Chips(tr.Pool()), strings.Join(ps, ", "))
			if n.Settings.Rebuys != 0 {
				line += " (before rebuys)"
			}
			notes = append(notes, line+".")
		}
		levelFrom = tr.Began
	}
	if level := n.Settings.Level(now.Sub(levelFrom), n.HandNo-n.HandBase); level > n.Level {
		n.Level, n.LevelAt, n.LevelHand = level, now, n.HandNo
		r := n.Settings.Rules(level)
		line := fmt.Sprintf("Blinds go up: level %d, %s/%s", level+1, render.Chips(r.SmallBlind), render.Chips(r.BigBlind))
		if r.Ante > 0 {
			line += ", ante " + render.Chips(r.Ante)
		}
		if tv := TournamentView(n, now); tv != nil && tv.NextIn != "" {
			line += fmt.Sprintf("; next %s/%s %s", render.Chips(tv.NextSmall), render.Chips(tv.NextBig), tv.NextIn)
		}
		notes = append(notes, line+".")
	}
	if n.Button < 0 {
		d, err := in.Rand.Deck()
		if err != nil {
			return Step{}, err
		}
		tb, err := engine.NewTable(len(n.Seats), n.Settings.Rules(0))
		if err != nil {
			return Step{}, err
		}
		for i, st := range n.Seats {
			tb.Seats[i] = engine.Seat{Player: st.User, Stack: st.Stack, SittingOut: !slices.Contains(seats, i)}
		}
		var b strings.Builder
		b.WriteString("Draw for the button:")
		for _, dr := range tb.DrawForButton(d) {
			fmt.Fprintf(&b, " %s %s", n.Seats[dr.Seat].Name, render.Card(dr.Card, in.Style))
			if dr.Round > 1 {
				fmt.Fprintf(&b, " (round %d)", dr.Round)
			}
			b.WriteString(",")
		}
		n.Button = tb.Button
		notes = append(notes, strings.TrimSuffix(b.String(), ",")+". "+n.Seats[n.Button].Name+" has the button.")
	} else if !n.Orbit.Placed { // a button placed when its player was asked to choose the game stays
		n.Button = s.nextButton(seats)
	}
	if st, asks := s.orbitGame(now, &n, seats, &notes); asks {
		return st, nil
	}
	deck, err := in.Rand.Deck()
	if err != nil {
		return Step{}, err
	}
	salt, err := in.Rand.Salt()
	if err != nil {
		return Step{}, err
	}
	if floor := in.LastHand; n.HandNo < floor {
		// The channel kept hands numbered past this session's (a database from before numbers went on
		// across sessions): skip past them rather than reuse a number.
		n.HandBase += floor - n.HandNo
		n.HandNo = floor
	}
	hs := &HandState{No: n.HandNo + 1, Rules: n.Settings.Rules(n.Level), Seats: seats, Deck: deck,
		Salt: salt, Proof: render.ProofVersion, Deadline: s.Deadline(now), RunTwice: n.Settings.RunTwice}
	for i, st := range seats {
		hs.Stacks = append(hs.Stacks, n.Seats[st].Stack)
		if st == n.Button {
			hs.Button = i
		}
	}
	// The seat in the big blind, which the next hand's big blind moves on from; in a bomb pot the one
	// who would have posted it, so the blinds move on as usual.
	n.BigBlind = seats[engine.BigBlindPlayer(len(seats), hs.Button)] + 1
	var away Change // players stood up for sitting out too long
	if s.missedBlinds() {
		notes = append(notes, s.awayAtDeal(now, &n, hs, &away)...)
	}
	switch {
	case n.BombPot > 0:
		// The hand's table message says it is a bomb pot (HandNotes), from the deal to the end.
		hs.BombPot, n.BombPot = min(n.BombPot, engine.MaxChips), 0
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
		return Step{}, err
	}
	n.HandNo = hs.No
	n.Hand = hs
	next := s
	next.Rec, next.Hand = n, h
	names := next.Names()
	view := &View{Deal: hs, Notes: notes, Events: h.Events(), Hand: h, State: hs, Names: names}
	var private []Private
	for p, st := range seats {
		private = append(private, Private{User: n.Seats[st].User, Message: render.HoleCards(h.HoleCards(p), hs.No, in.Style)})
	}
	if h.Done() {
		// Antes or blinds put everyone all-in: the board was run out inside NewHand.
		st := next.finish(now, n.Clone(), h, view)
		st.Private = private
		st.Change.Ledger = append(away.Ledger, st.Change.Ledger...)
		return st, nil
	}
	c := Change{Table: &n, Ledger: away.Ledger}
	return Step{Change: c, Next: &next, View: view, Private: private, Timers: Timers{Turn: true}}, nil
}

// MayAct refuses a betting action by a caller who cannot take one now, and returns their player.
func (s State) MayAct(by Caller) (int, error) {
	seat := s.SeatOf(by.User)
	if seat < 0 {
		return -1, errs.Errorf(errs.Invalid, "You are not seated at this table: type `join` to play.")
	}
	if s.Hand == nil || s.Rec.Hand == nil {
		return -1, errs.Errorf(errs.Invalid, "No hand is being played: type `deal` to start one.")
	}
	p := slices.Index(s.Rec.Hand.Seats, seat) // the seat's hand index
	if p < 0 {
		return -1, errs.Errorf(errs.Invalid, "You are not in this hand: wait for the next one.")
	}
	if to := s.Hand.ToAct(); to != p {
		if s.Hand.Folded(p) {
			return -1, errs.Errorf(errs.Invalid, "You have folded this hand: wait for the next one.")
		}
		return -1, errs.Errorf(errs.Invalid, "It is %s's turn, not yours.", s.Names().Name(to))
	}
	return p, nil
}

// Betting is a betting verb of the player to act, named by the action it takes: fold, check, call,
// bet, raise, allin (AllIn) and runtwice (RunTwice, answered yes or no). Its Act is the verb's core,
// listed in Verbs (verbs.go) once per verb.
type Betting engine.ActionKind

// Act validates and applies the caller's betting action b; args are what they typed after the verb.
// A fold when checking is free is legal but never an accident: the first `fold` of the turn only
// reminds the player, the second folds.
func (b Betting) Act(s State, now time.Time, by Caller, args []string, _ Inputs) (Step, error) {
	p, err := s.MayAct(by)
	if err != nil {
		return Step{}, err
	}
	a := engine.Action{Player: p, Kind: engine.ActionKind(b)}
	switch a.Kind {
	case engine.Fold:
		if o, ok := s.Hand.Options(); ok && o.CanCheck && s.FoldAsked != s.Token() {
			next := s
			next.FoldAsked = s.Token()
			return Step{Next: &next, Reply: "Nothing to call: you can check. Type fold again to fold anyway."}, nil
		}
	case engine.RunTwice:
		switch strings.ToLower(strings.Join(args, " ")) {
		case "yes", "y", "twice":
		case "no", "n", "once":
			a.Kind = engine.RunOnce
		default:
			return Step{}, errs.Errorf(errs.Invalid, "Answer `runtwice yes` to run the board twice or `runtwice no` to run it once.")
		}
	case engine.Bet, engine.Raise:
		verb := a.Kind.String() // what they typed: bet or raise
		// `raise to 60` and `bet to 60` say what `raise 60` says: the total (Discord's option is `to`).
		if len(args) > 0 && strings.EqualFold(args[0], "to") {
			args = args[1:]
		}
		switch {
		case len(args) == 0:
			return Step{}, errs.Errorf(errs.Invalid, "Say how much: `%s 60` makes your bet 60 in all.", verb)
		case len(args) > 1:
			return Step{}, errs.Errorf(errs.Invalid, "Say one amount: `%s 60` makes your bet 60 in all.", verb)
		}
		if a.Amount, _, err = AmountArg(args, verb, verb+" 60"); err != nil {
			return Step{}, err
		}
	}
	// Apply checks the action first and changes nothing when it refuses it: no Validate beforehand.
	return s.play(now, func(h *engine.Hand) ([]engine.Event, error) { return h.Apply(a) }, false)
}

// Timeout is the clock acting for the player to act: a check when they may, else a fold.
func (s State) Timeout(now time.Time) (Step, error) {
	if st, ok := s.startBank(now); ok {
		return st, nil // the time bank runs instead (timebank=)
	}
	return s.play(now, (*engine.Hand).Timeout, true)
}

// Forfeit acts for the player to act, who is leaving or away, as the clock would (RULES.md section
// 11): a check when nothing is owed, else a fold. It is not counted as a timeout.
func (s State) Forfeit(now time.Time) (Step, error) {
	return s.play(now, (*engine.Hand).Timeout, false)
}

// play applies one step for the player to act (do: an action, a timeout, a forfeit) to a clone of
// the hand in play, so the state it was given is never changed and nothing is replayed: the step
// validates and applies one action. timeout marks a step the clock took.
func (s State) play(now time.Time, do func(*engine.Hand) ([]engine.Event, error), timeout bool) (Step, error) {
	if s.Hand == nil || s.Rec.Hand == nil {
		return Step{}, errs.Errorf(errs.Invalid, "No hand is being played: type `deal` to start one.")
	}
	h := s.Hand.Clone()
	evs, err := do(h)
	if err != nil {
		return Step{}, err
	}
	// Until the hand ends only the hand's log changes: the table keeps its seats (nobody changes a
	// state's records in place) and gets a hand state of its own. The end changes the seats too
	// (finish), on a deep copy.
	n := s.Rec
	hs := *s.Rec.Hand
	n.Hand = &hs
	hs.Actions = h.Actions()
	banked := !hs.BankFrom.IsZero()
	if banked {
		n = s.spendBank(now, n, &hs) // the time bank ran this turn: what was used is gone
	}
	names := s.Names()
	view := &View{Events: evs, Hand: h, State: &hs, Names: names}
	if timeout {
		last := hs.Actions[len(hs.Actions)-1].Player
		hs.TimedOut = append(slices.Clip(hs.TimedOut), last) // a new array: s's stays as it was
		view.RanOut = names.Name(last)
	}
	if h.Done() {
		return s.finish(now, n.Clone(), h, view), nil
	}
	hs.Deadline = s.Deadline(now)
	log := &ActionLog{Table: n.ID, HandNo: hs.No, Actions: hs.Actions, TimedOut: hs.TimedOut, Deadline: hs.Deadline}
	next := s
	next.Rec, next.Hand = n, h
	c := Change{Actions: log}
	if banked {
		c = Change{Table: &next.Rec} // the bank's use is in the standings, its end in the hand
	}
	return Step{Change: c, Next: &next, View: view,
		Timers: Timers{Turn: true}}, nil
}

// finish is everything a finished hand changes, for one transaction: the stacks, each player's
// result in the ledger, the hand's record, players who leave or ran out of time, tournament places.
// n is the table with the hand's final actions; h the finished hand.
func (s State) finish(now time.Time, n TableRecord, h *engine.Hand, view *View) Step {
	hs := n.Hand
	final := h.Stacks()
	var c Change
	names := make([]string, len(hs.Seats))
	users := make([]string, len(hs.Seats))
	seatNos := make([]int, len(hs.Seats))
	players := make([]SeatRecord, len(hs.Seats))
	var notes []string
	for p, st := range hs.Seats {
		seat := &n.Seats[st]
		names[p], users[p], seatNos[p] = seat.Name, seat.User, st+1
		e := LedgerEntry{Time: now, Kind: KindResult, Workspace: n.Workspace, User: seat.User,
			Name: seat.Name, Table: n.ID, HandNo: hs.No, OnTable: final[p] - hs.Stacks[p]}
		if n.Tournament != nil {
			e.OnTable = 0 // tournament chips are not bankroll chips; the entry counts the hand played
		}
		c.Ledger = append(c.Ledger, e)
		seat.Stack = final[p]
		if slices.Contains(hs.TimedOut, p) {
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
		if seat := n.Seats[i]; seat.User != "" && seat.Leaving {
			notes = append(notes, fmt.Sprintf("%s leaves the table with %s chips.", seat.Name, render.Chips(seat.Stack)))
			CashOut(&n, &c, i, now)
		}
	}
	var th *TournamentHand
	var held []Eliminated // tournament players out of chips who are placed at the next deal
	if tr := n.Tournament; tr != nil {
		out := busts(n, hs, final)
		var finishes []Finish
		if slices.ContainsFunc(out, func(o Eliminated) bool { return mayRebuyNow(now, n, o.User) }) {
			// One of them may rebuy before the next deal: nobody out in this hand is placed yet (the
			// places of the others depend on who rebuys), and the hand's record names no finishes,
			// which would be wrong for a player who rebuys.
			holdBusts(&n, hs.No, out)
			n.Tournament.RebuyBy = now.Add(RebuyWindow(s.DealDelay))
			held = out
		} else {
			var lines []string
			lines, finishes = Eliminate(&n, hs, out)
			notes = append(notes, lines...)
		}
		th = &TournamentHand{Began: tr.Began, BuyIn: tr.BuyIn, Stack: tr.Stack, Level: n.Level + 1,
			LevelMinutes: n.Settings.LevelMinutes, Rebuys: n.Settings.Rebuys != 0, Finishes: finishes}
		if winner := winnerOf(n, hs, final); winner >= 0 {
			// The hand ends the tournament: its winner is paid the first place (PayTournament).
			th.Finishes = append(th.Finishes, Finish{Player: winner, Place: 1, Prize: tr.PrizeList()[0]})
		}
	}
	refillBank(&n, hs.No)
	c.Hand = &HandRecord{Table: n.ID, No: hs.No, Time: now, Names: names, Users: users, Seats: seatNos, Size: len(n.Seats), Rules: hs.Rules, Stacks: hs.Stacks,
		Button: hs.Button, Deck: hs.Deck, Salt: hs.Salt, Proof: hs.Proof, Straddle: hs.Straddle, BombPot: hs.BombPot, RunTwice: hs.RunTwice, Posts: hs.Posts,
		Actions: hs.Actions, Final: final, Tournament: th}
	n.Hand = nil
	c.Table = &n
	last := &LastHand{No: hs.No, Hand: h, Seats: players, Shown: make([]bool, len(hs.Seats))}
	for _, ev := range h.Events() {
		switch ev.Kind {
		case engine.EvShow:
			last.Shown[ev.Player] = true
		case engine.EvReveal:
			for _, r := range ev.Hands {
				last.Shown[r.Player] = true
			}
		}
	}
	next := s
	next.Rec, next.Hand, next.Last = n, nil, last
	// The deck is not revealed: it would show every folded hand. `verify N` opens the public cards.
	var broke []string
	for _, st := range n.Seats {
		if st.User != "" && st.Stack == 0 {
			broke = append(broke, st.Name)
		}
	}
	cash := n.Tournament == nil && !n.Ending
	over := cash && len(next.Playing()) < 2 && n.Settings.Rebuys == 0 && len(broke) > 0
	// A player out of chips who may rebuy is offered it. When the next hand comes by itself, the
	// offer says how long they have: the pause before the deal, which starts when the offer is on
	// screen (Timers.DealWhenShown), so a `rebuy` in it deals them in.
	timed := len(next.Playing()) >= 2 && s.DealDelay > 0
	offered := false
	switch {
	case over:
		notes = append(notes, "One player holds every chip: the session is over.")
	case cash:
		for _, st := range n.Seats {
			switch {
			case st.User == "" || st.Stack > 0:
			case !MayRebuy(n, st):
				notes = append(notes, fmt.Sprintf("%s is out of chips and cannot rebuy here: `leave` frees the seat.", st.Name))
			case timed:
				offered = true
				notes = append(notes, fmt.Sprintf("%s is out of chips: `rebuy` within %s to be dealt in next hand, or `leave`.", st.Name, Seconds(s.DealDelay)))
			default:
				notes = append(notes, fmt.Sprintf("%s is out of chips: `rebuy` to play on or `leave`.", st.Name))
			}
		}
	case len(held) > 0:
		// The next deal places the players out who did not rebuy: it comes by itself even when
		// one player alone has chips, so the tournament ends then.
		tr := n.Tournament
		cost := fmt.Sprintf("%s into the prize pool for %s chips", render.Chips(tr.BuyIn), render.Chips(tr.Stack))
		for _, o := range held {
			name := tr.Entries[tr.Entry(o.User)].Name
			switch {
			case !mayRebuyNow(now, n, o.User):
				notes = append(notes, fmt.Sprintf("%s is out of chips and cannot rebuy: %s is placed at the next deal, once it is known who of the others out rebuys.", name, name))
			case !s.Quarantined:
				// The deal waits for the answers, at most RebuyWindow (a countdown on the table):
				// not for the offer to be shown, since the time to rebuy is the record's (RebuyBy).
				notes = append(notes, fmt.Sprintf("%s is out of chips: `rebuy` within %s to be dealt in next hand (%s), or `rebuy no` to be out of the tournament now.", name, Seconds(RebuyWindow(s.DealDelay)), cost))
			default:
				notes = append(notes, fmt.Sprintf("%s is out of chips: `rebuy` before the next deal to be dealt in (%s), or %s is out of the tournament.", name, cost, name))
			}
		}
	}
	// The hand's last version: the showdown, the awards and what they mean for the table, in the
	// message already on screen rather than in posts of their own.
	view.Result = notes
	view.Names = names
	view.State = hs
	ends := n.Ending || over || n.Tournament != nil && len(next.Playing()) < 2 && len(held) == 0
	return Step{Change: c, Next: &next, View: view, Ends: ends, Timers: Timers{Deal: !ends, DealWhenShown: offered && !ends}}
}

// winnerOf is the hand index of the tournament's winner when hand hs leaves one player of the
// tournament holding every chip, else -1. n is the table after the hand (Eliminate emptied the seats
// of the players out).
func winnerOf(n TableRecord, hs *HandState, final []int64) int {
	if n.Tournament.Left() != 1 {
		return -1
	}
	for p := range hs.Seats {
		if final[p] > 0 {
			return p
		}
	}
	return -1
}

// rebuyWait are the names of the tournament players out of chips in the last hand whom the next deal
// still waits for (they may rebuy, bankroll aside, and have not answered), and the time they have
// left (Tournament.RebuyBy); none once that time is over.
func (s State) rebuyWait(now time.Time) ([]string, time.Duration) {
	tr := s.Rec.Tournament
	if tr == nil || tr.RebuyBy.IsZero() || !now.Before(tr.RebuyBy) {
		return nil, 0
	}
	var names []string
	for _, e := range tr.Entries {
		if !e.Busted || e.Declined {
			continue
		}
		if seat := s.SeatOf(e.User); seat >= 0 && s.tournamentRebuy(now, seat) == nil {
			names = append(names, s.Rec.Seats[seat].Name)
		}
	}
	if len(names) == 0 {
		return nil, 0
	}
	return names, tr.RebuyBy.Sub(now)
}

// thenDeal adds the next hand's deal to st, a player's answer to the offer to rebuy, when it was the
// last answer the deal waited for: the deal goes ahead at once instead of when the time to rebuy is
// over. Otherwise, or when the deal cannot go ahead by itself, st is returned as it is (the deal's
// timer deals when the time is up).
func (st Step) thenDeal(now time.Time, in Inputs) Step {
	if st.Next == nil || in.Rand == nil {
		return st
	}
	next := *st.Next
	if tr := next.Rec.Tournament; tr == nil || tr.RebuyBy.IsZero() || !now.Before(tr.RebuyBy) || !next.DealsItself() {
		return st
	}
	if names, _ := next.rebuyWait(now); len(names) > 0 {
		return st
	}
	d, err := next.NextHand(now, in)
	if err != nil {
		return st
	}
	if d.Next == nil {
		d.Next = st.Next
	}
	if d.Change.Table == nil {
		d.Change.Table = st.Change.Table
	}
	d.Change.Ledger = append(slices.Clone(st.Change.Ledger), d.Change.Ledger...)
	d.Posts = append(slices.Clone(st.Posts), d.Posts...)
	d.Short = st.Short
	switch {
	case d.Ends || d.Next != nil && !d.Next.Open:
		d.Reply = st.Reply + " The session is over."
	default:
		d.Reply = fmt.Sprintf("%s Nobody else has to answer: hand #%d is dealt.", st.Reply, d.Next.Rec.HandNo)
	}
	return d
}

// Dealable reports whether the next deal would do something: deal a hand to two players or more,
// or place the tournament players out of chips who did not rebuy in the pause before it (and end
// the tournament when one player is left). The shell arms the automatic deal only then.
func (s State) Dealable() bool {
	return len(s.Playing()) >= 2 || len(s.Rec.Tournament.Busted()) > 0
}

// mayRebuyNow reports whether the tournament player user, out of chips in the hand that just ended
// at table n, may rebuy before the next deal, their bankroll aside (the rebuy verb checks it): not
// when the session ends with the hand or its time is up.
func mayRebuyNow(now time.Time, n TableRecord, user string) bool {
	if n.Ending || n.timeUp(now) {
		return false
	}
	s := State{Open: true, Rec: n}
	return s.tournamentRebuy(now, s.SeatOf(user)) == nil
}

// timeUp reports whether the session's set time is over at now.
func (r TableRecord) timeUp(now time.Time) bool {
	return r.Settings.EndMinutes > 0 && now.Sub(r.Started) >= time.Duration(r.Settings.EndMinutes)*time.Minute
}

// MayRebuy reports whether a cash-game seat may rebuy at table n now, as far as the table's rebuy
// settings go (Rebuy checks the amounts).
func MayRebuy(n TableRecord, st SeatRecord) bool {
	set := n.Settings
	return set.Rebuys != 0 && (set.Rebuys < 0 || st.Rebuys < set.Rebuys) && (set.RebuyLevels == 0 || n.Level < set.RebuyLevels)
}

// Seconds writes a pause for players, in whole seconds rounded up: "3 s".
func Seconds(d time.Duration) string {
	return fmt.Sprintf("%d s", (d+time.Second-1)/time.Second)
}

// Cards shows the caller their hole cards again, privately (`cards`).
func (s State) Cards(now time.Time, by Caller, _ []string, in Inputs) (Step, error) {
	seat := s.SeatOf(by.User)
	if seat < 0 || !s.InHand(seat) {
		return Step{}, errs.Errorf(errs.Invalid, "You have no cards: you are not in a hand right now.")
	}
	return Step{Reply: render.HoleCards(s.Hand.HoleCards(s.PlayerOf(seat)), s.Rec.Hand.No, in.Style).Text}, nil
}

// Show turns the caller's cards from the last hand face up for the channel (`show`).
func (s State) Show(now time.Time, by Caller, _ []string, in Inputs) (Step, error) {
	if s.InHand(s.SeatOf(by.User)) {
		return Step{}, errs.Errorf(errs.Invalid, "You can show your cards when this hand is over.")
	}
	last := s.Last
	if last == nil {
		return Step{}, errs.Errorf(errs.Invalid, "There is no finished hand to show cards from.")
	}
	p := slices.IndexFunc(last.Seats, func(st SeatRecord) bool { return st.User == by.User })
	if p < 0 {
		return Step{}, errs.Errorf(errs.Invalid, "You were not in hand #%d, so you have no cards to show.", last.No)
	}
	if last.Shown[p] {
		return Step{}, errs.Errorf(errs.Invalid, "Your cards from hand #%d are already face up.", last.No)
	}
	shown := *last
	shown.Shown = slices.Clone(last.Shown)
	shown.Shown[p] = true
	next := s
	next.Last = &shown
	h := last.Hand.HoleCards(p)
	st := Step{Next: &next, Reply: "Shown."}
	st.post("%s shows %s from hand #%d.", last.Seats[p].Name, render.Cards(h, in.Style), last.No)
	return st, nil
}
