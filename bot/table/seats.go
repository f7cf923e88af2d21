package table

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/dealerbot/dealerbot/bot/errs"
	"github.com/dealerbot/dealerbot/engine"
	"github.com/dealerbot/dealerbot/render"
)

// The seat verbs: join, leave, kick, sitout, sitin, rebuy, straddle. At a tournament join registers,
// leave unregisters (or sits the player away) and rebuy buys another starting stack.

// AmountArg reads an optional chip amount, bounded where it is parsed: more than 0 and at most
// engine.MaxChips. given is false when there is no argument.
func AmountArg(args []string, verb, example string) (amount int64, given bool, err error) {
	if len(args) == 0 {
		return 0, false, nil
	}
	v, err := strconv.ParseInt(strings.ReplaceAll(args[0], ",", ""), 10, 64)
	switch {
	case err != nil && !errors.Is(err, strconv.ErrRange):
		return 0, false, errs.Errorf(errs.Invalid, "%s is not a number of chips: write it in digits, like `%s`.", errs.Quote(args[0]), example)
	case err == nil && v <= 0 || err != nil && strings.HasPrefix(args[0], "-"):
		return 0, false, errs.Errorf(errs.Invalid, "The amount to %s must be more than 0: for example `%s`.", verb, example)
	case err != nil || v > engine.MaxChips:
		return 0, false, errs.Errorf(errs.Invalid, "The amount to %s can be at most %s chips, the most any stack may hold: for example `%s`.", verb, render.Chips(engine.MaxChips), example)
	}
	return v, true, nil
}

// pay is what the caller pays amount from: their bankroll, or the starting bankroll a player never
// seen gets (with the grant to record). refusal is the sentence when it holds less, with a %s for
// what it holds.
func (s State) pay(now time.Time, by Caller, in Inputs, amount int64, refusal string) (grant []LedgerEntry, err error) {
	bank := in.Player.Bankroll
	if !in.Known {
		bank = in.StartingBankroll
		grant = []LedgerEntry{{Time: now, Kind: KindGrant, Workspace: s.Rec.Workspace, User: by.User,
			Name: by.Name, Table: s.Rec.ID, Bankroll: in.StartingBankroll}}
	}
	if bank < amount {
		return nil, errs.Errorf(errs.Invalid, refusal, render.Chips(bank))
	}
	return grant, nil
}

// Join sits the caller down with a buy-in from their bankroll (`join [amount]`).
func (s State) Join(now time.Time, by Caller, args []string, in Inputs) (Step, error) {
	if s.Rec.Tournament != nil {
		return s.register(now, by, args, in)
	}
	set := s.Rec.Settings
	if s.SeatOf(by.User) >= 0 {
		return Step{}, errs.Errorf(errs.Invalid, "You are already seated at this table: `rebuy` adds chips, `leave` stands you up.")
	}
	amount, given, err := AmountArg(args, "buy in for", fmt.Sprintf("join %d", set.BuyIn))
	if err != nil {
		return Step{}, err
	}
	if !given {
		amount = set.BuyIn
	}
	if amount < set.MinBuyIn || amount > set.MaxBuyIn {
		return Step{}, errs.Errorf(errs.Invalid, "The buy-in here is between %s and %s chips: try `join %d`.", render.Chips(set.MinBuyIn), render.Chips(set.MaxBuyIn), set.BuyIn)
	}
	seat := s.emptySeat()
	if seat < 0 {
		return Step{}, errs.Errorf(errs.Invalid, "The table is full (%d seats): wait for a seat to open.", len(s.Rec.Seats))
	}
	if err := s.gameRoom(); err != nil {
		return Step{}, err
	}
	if err := s.roomFor(amount); err != nil {
		return Step{}, err
	}
	grant, err := s.pay(now, by, in, amount, "Your bankroll holds only %s chips: join with less (at least "+render.Chips(set.MinBuyIn)+").")
	if err != nil {
		return Step{}, err
	}
	c := Change{Ledger: grant}
	c.Ledger = append(c.Ledger, LedgerEntry{Time: now, Kind: KindBuyIn, Workspace: s.Rec.Workspace, User: by.User,
		Name: by.Name, Table: s.Rec.ID, Bankroll: -amount, OnTable: amount})
	welcome := ""
	n := s.Rec.Clone()
	n.Seats[seat] = SeatRecord{User: by.User, Name: by.Name, Stack: amount}
	if s.missedBlinds() {
		n.Seats[seat].Owes = OwesNew // new at a table already playing: waits for the big blind, or posts one
		welcome += " " + State{Rec: n}.waitLine(seat)
	}
	if i := StandingIndex(n.Standings, by.User); i >= 0 {
		n.Standings[i].BoughtIn += amount
	} else {
		n.Standings = append(n.Standings, Standing{User: by.User, Name: by.Name, BoughtIn: amount})
	}
	if !in.Known {
		welcome = fmt.Sprintf(" Welcome: your bankroll started at %s chips.", render.Chips(in.StartingBankroll)) + welcome
	}
	st := s.reply(n, c, "You are in seat %d with %s chips.%s", seat+1, render.Chips(amount), welcome)
	st.post("%s sits down in seat %d with %s chips.", by.Name, seat+1, render.Chips(amount))
	st.Short = fmt.Sprintf("Your bankroll does not hold %s chips: join with less.", render.Chips(amount))
	st.Timers.Deal = true
	return st, nil
}

// register is `join` at a tournament: the buy-in goes from the bankroll into the prize pool and the
// player sits down with the starting stack in tournament chips.
func (s State) register(now time.Time, by Caller, args []string, in Inputs) (Step, error) {
	tr := s.Rec.Tournament
	if i := tr.Entry(by.User); i >= 0 && tr.Entries[i].Place > 0 {
		return Step{}, errs.Errorf(errs.Conflict, "You are out of this tournament (%s place): watch with `table`.", render.Ordinal(tr.Entries[i].Place))
	}
	if i := tr.Entry(by.User); i >= 0 && tr.Entries[i].Busted {
		return Step{}, errs.Errorf(errs.Conflict, "You are out of chips: `rebuy` before the next hand to play on, or `rebuy no` to be placed now.")
	}
	if s.SeatOf(by.User) >= 0 {
		return Step{}, errs.Errorf(errs.Conflict, "You are already registered in this tournament: wait for `deal`, or `leave` to get your buy-in back before it begins.")
	}
	if len(args) > 0 {
		return Step{}, errs.Errorf(errs.Invalid, "In a tournament `join` takes no amount: it costs the buy-in of %s and gives you %s tournament chips.", render.Chips(tr.BuyIn), render.Chips(tr.Stack))
	}
	if !tr.Began.IsZero() {
		return Step{}, errs.Errorf(errs.Conflict, "The tournament has begun, so registration is closed: watch with `table`.")
	}
	seat := s.emptySeat()
	if seat < 0 {
		return Step{}, errs.Errorf(errs.Invalid, "The tournament is full (%d seats).", len(s.Rec.Seats))
	}
	if err := s.gameRoom(); err != nil {
		return Step{}, err
	}
	if err := s.roomFor(tr.Stack); err != nil {
		return Step{}, err
	}
	if err := tr.RoomForBuyIn(); err != nil {
		return Step{}, err
	}
	grant, err := s.pay(now, by, in, tr.BuyIn, "The buy-in is "+render.Chips(tr.BuyIn)+" chips and your bankroll holds %s: ask an admin for chips, or play a cash game.")
	if err != nil {
		return Step{}, err
	}
	c := Change{Ledger: grant}
	c.Ledger = append(c.Ledger, LedgerEntry{Time: now, Kind: KindBuyIn, Workspace: s.Rec.Workspace, User: by.User,
		Name: by.Name, Table: s.Rec.ID, Bankroll: -tr.BuyIn, OnTable: tr.BuyIn})
	n := s.Rec.Clone()
	n.Seats[seat] = SeatRecord{User: by.User, Name: by.Name, Stack: tr.Stack}
	n.Tournament.Entries = append(n.Tournament.Entries, Entry{User: by.User, Name: by.Name, Paid: tr.BuyIn})
	if i := StandingIndex(n.Standings, by.User); i >= 0 {
		n.Standings[i].BoughtIn += tr.BuyIn
	} else {
		n.Standings = append(n.Standings, Standing{User: by.User, Name: by.Name, BoughtIn: tr.BuyIn})
	}
	nt := n.Tournament
	st := s.reply(n, c, "You are registered in seat %d with %s tournament chips; %s went from your bankroll to the prize pool.",
		seat+1, render.Chips(tr.Stack), render.Chips(tr.BuyIn))
	st.post("%s registers in seat %d: %d %s, prize pool %s.", by.Name, seat+1, len(nt.Entries),
		Plural(len(nt.Entries), "entrant", "entrants"), render.Chips(nt.Pool()))
	st.Short = fmt.Sprintf("Your bankroll does not hold the buy-in of %s chips.", render.Chips(tr.BuyIn))
	return st, nil
}

// Leave stands the caller up (`leave`). The caller is seated (the gate's need).
func (s State) Leave(now time.Time, by Caller, _ []string, in Inputs) (Step, error) {
	seat, err := s.seated(by)
	if err != nil {
		return Step{}, err
	}
	if tr := s.Rec.Tournament; tr != nil {
		if i := tr.Entry(by.User); i >= 0 && tr.Entries[i].Busted && !tr.Entries[i].Declined {
			// Out of chips, offered a rebuy: leaving is declining it.
			return s.declineRebuy(now, by, in)
		}
	}
	return s.leave(now, by, seat, false)
}

// Kick stands up the player a host names (`kick @name`).
func (s State) Kick(now time.Time, by Caller, args []string, _ Inputs) (Step, error) {
	if len(args) == 0 {
		return Step{}, errs.Errorf(errs.Invalid, "Say who to remove: `kick @name`.")
	}
	seat := s.findSeat(args[0])
	if seat < 0 {
		return Step{}, errs.Errorf(errs.Invalid, "%s is not seated here: check the name with `table`.", errs.ClipText(strings.Trim(args[0], "@<>!"), errs.MaxQuote))
	}
	return s.leave(now, by, seat, true)
}

// leave stands the player in seat up: now between hands, or when the running hand ends if they are in it.
func (s State) leave(now time.Time, by Caller, seat int, kicked bool) (Step, error) {
	if s.Rec.Tournament != nil {
		return s.leaveTournament(now, by, seat, kicked)
	}
	st := s.Rec.Seats[seat]
	n := s.Rec.Clone()
	// A player dealt into the running hand (even folded) leaves when it ends: the hand's result
	// still has to be settled against the seat.
	if s.InHand(seat) {
		n.Seats[seat].Leaving = true
		reply := "You leave when this hand ends; your stack goes back to your bankroll."
		if kicked {
			reply = st.Name + " leaves when this hand ends; the stack goes back to the bankroll."
		}
		step := s.reply(n, Change{}, "%s", reply)
		if kicked {
			step.post("%s removed %s, who leaves when this hand ends.", by.Name, st.Name)
		} else {
			step.post("%s will leave when this hand ends.", st.Name)
		}
		step.Timers.Turn = s.ToAct(seat) // acts for the leaving player: a check when free, else a fold
		return step, nil
	}
	var c Change
	CashOut(&n, &c, seat, now)
	// The reply goes to the caller: the player who left, or the host who removed them.
	whose := "your"
	if kicked {
		whose = st.Name + "'s"
	}
	step := s.reply(n, c, "%s chips went back to %s bankroll.", render.Chips(st.Stack), whose)
	if kicked {
		step.post("%s removed %s from the table (%s chips back to the bankroll).", by.Name, st.Name, render.Chips(st.Stack))
	} else {
		step.post("%s leaves the table with %s chips.", st.Name, render.Chips(st.Stack))
	}
	return step, nil
}

// leaveTournament: before the first hand the buy-in comes back; after it the player is sat out and
// keeps being dealt in, posting blinds and antes, checked when checking is free and folded otherwise,
// until the stack is gone or they `sitin`.
func (s State) leaveTournament(now time.Time, by Caller, seat int, kicked bool) (Step, error) {
	n := s.Rec.Clone()
	st := n.Seats[seat]
	tr := n.Tournament
	// The reply goes to the caller: the player who leaves, or the host who removed them.
	because, whose, bank, back := "", "Your", "your", "you"
	if kicked {
		because, whose, bank, back = " (removed by "+by.Name+")", st.Name+"'s", "the", st.Name
	}
	if tr.Began.IsZero() {
		i := tr.Entry(st.User)
		paid := tr.Entries[i].Paid
		c := Change{Ledger: []LedgerEntry{{Time: now, Kind: KindCashOut, Workspace: n.Workspace, User: st.User,
			Name: st.Name, Table: n.ID, Bankroll: paid, OnTable: -paid}}}
		tr.Entries = slices.Delete(tr.Entries, i, i+1)
		if j := StandingIndex(n.Standings, st.User); j >= 0 {
			n.Standings = slices.Delete(n.Standings, j, j+1)
		}
		n.Seats[seat] = SeatRecord{}
		step := s.reply(n, c, "%s buy-in of %s went back to %s bankroll.", whose, render.Chips(paid), bank)
		step.post("%s unregisters%s: prize pool %s.", st.Name, because, render.Chips(tr.Pool()))
		return step, nil
	}
	if i := tr.Entry(st.User); tr.Entries[i].Busted {
		// Out of chips, waiting for the next deal to be placed: there is no stack to leave in play.
		if kicked {
			return Step{}, errs.Errorf(errs.Conflict, "%s is out of chips and is placed when the next hand is dealt, unless %s rebuys first.", st.Name, st.Name)
		}
		return Step{}, errs.Errorf(errs.Conflict, "You are out of chips: `rebuy` before the next hand to play on, or you are placed when it is dealt.")
	}
	if st.SittingOut {
		return Step{}, errs.Errorf(errs.Conflict, "%s is already away: the dealer checks or folds for them until they type `sitin`.", st.Name)
	}
	n.Seats[seat].SittingOut = true
	step := s.reply(n, Change{}, "%s chips stay in the tournament: the dealer checks when checking is free and folds otherwise; `sitin` brings %s back.", whose, back)
	step.post("%s is away%s: a tournament stack stays in play, posting blinds, checking when it is free and folding otherwise, until it is gone or %s types `sitin`.", st.Name, because, st.Name)
	step.Timers.Turn = s.ToAct(seat) // acts for the absent player
	return step, nil
}

// SitOut skips the caller's hands from the next one (`sitout`); at a tournament the dealer acts for
// them from their next turn (a check when free, else a fold). The caller is seated (the gate's need).
func (s State) SitOut(now time.Time, by Caller, args []string, _ Inputs) (Step, error) {
	switch w, err := awayArgs(args, "sitout", "bb"); {
	case err != nil:
		return Step{}, err
	case w == "bb":
		return s.sitOutBB(by) // sit out when the big blind would reach you (away.go)
	}
	return s.sit(by, true)
}

// SitIn deals the caller in again (`sitin`). The caller is seated (the gate's need).
func (s State) SitIn(now time.Time, by Caller, args []string, _ Inputs) (Step, error) {
	switch w, err := awayArgs(args, "sitin", "post", "wait"); {
	case err != nil:
		return Step{}, err
	case w != "":
		return s.sitInPost(by, w == "wait") // post the missed blinds, or wait for the big blind (away.go)
	}
	return s.sit(by, false)
}

func (s State) sit(by Caller, out bool) (Step, error) {
	seat, err := s.seated(by)
	if err != nil {
		return Step{}, err
	}
	if !out && s.Rec.Seats[seat].SitOutBB {
		n := s.Rec.Clone()
		n.Seats[seat].SitOutBB = false
		return s.reply(n, Change{}, "You play on: you post the big blind when it reaches you."), nil
	}
	if !out && !s.Rec.Seats[seat].SittingOut && s.Rec.Seats[seat].Owes != 0 && s.missedBlinds() {
		return Step{}, errs.Errorf(errs.Invalid, "%s", s.waitLine(seat))
	}
	if s.Rec.Seats[seat].SittingOut == out {
		if out {
			return Step{}, errs.Errorf(errs.Invalid, "You are already sitting out: type `sitin` to play again.")
		}
		return Step{}, errs.Errorf(errs.Invalid, "You are already playing: `sitout` skips hands.")
	}
	n := s.Rec.Clone()
	n.Seats[seat].SittingOut = out
	n.Seats[seat].TimedOut = 0
	n.Seats[seat].SitOutBB = false
	n.Seats[seat].Posts = false // a choice to post is made again on coming back (`sitin post`)
	switch {
	case out && s.Rec.Tournament != nil:
		step := s.reply(n, Change{}, "You sit out: from your next turn the dealer checks for you when checking is free and folds otherwise; type `sitin` to play again.")
		step.post("%s sits out: a tournament stack keeps posting blinds, checking when it is free and folding otherwise, until %s types `sitin`.", by.Name, by.Name)
		step.Timers.Turn = s.ToAct(seat) // acts for the absent player
		return step, nil
	case out:
		step := s.reply(n, Change{}, "You sit out from the next hand; type `sitin` to play again.")
		step.post("%s sits out.", by.Name)
		return step, nil
	}
	if n.Seats[seat].Owes != 0 && s.missedBlinds() {
		step := s.reply(n, Change{}, "%s", s.waitLine(seat))
		step.post("%s is back in from the big blind.", by.Name)
		return step, nil
	}
	step := s.reply(n, Change{}, "You are dealt in from the next hand.")
	step.post("%s is back in.", by.Name)
	step.Timers.Deal = true
	return step, nil
}

// Rebuy adds chips from the caller's bankroll between hands (`rebuy [amount]`). The caller is seated
// (the gate's need).
func (s State) Rebuy(now time.Time, by Caller, args []string, in Inputs) (Step, error) {
	seat, err := s.seated(by)
	if err != nil {
		return Step{}, err
	}
	if s.Rec.Tournament != nil {
		return s.rebuyTournament(now, by, args, in)
	}
	set := s.Rec.Settings
	if s.InHand(seat) {
		return Step{}, errs.Errorf(errs.Invalid, "Rebuys happen between hands: wait for this hand to end.")
	}
	st := s.Rec.Seats[seat]
	switch {
	case set.Rebuys == 0:
		return Step{}, errs.Errorf(errs.Invalid, "This table does not allow rebuys: `leave` and `join` again another time.")
	case set.Rebuys > 0 && st.Rebuys >= set.Rebuys:
		return Step{}, errs.Errorf(errs.Invalid, "You have used all %d of your rebuys at this table.", set.Rebuys)
	case set.RebuyLevels > 0 && s.Rec.Level >= set.RebuyLevels:
		return Step{}, errs.Errorf(errs.Invalid, "Rebuys were allowed only during the first %d blind levels.", set.RebuyLevels)
	}
	room := set.MaxBuyIn - st.Stack
	if room <= 0 {
		return Step{}, errs.Errorf(errs.Invalid, "Your stack is already at the table's largest buy-in (%s): play it first.", render.Chips(set.MaxBuyIn))
	}
	amount, given, err := AmountArg(args, "rebuy", fmt.Sprintf("rebuy %d", min(set.BuyIn, room)))
	if err != nil {
		return Step{}, err
	}
	if !given {
		amount = min(set.BuyIn, room)
	}
	if amount > room {
		return Step{}, errs.Errorf(errs.Invalid, "You can add at most %s chips (a stack may hold %s): try `rebuy %d`.", render.Chips(room), render.Chips(set.MaxBuyIn), room)
	}
	// A rebuy is a buy-in: at least the table's smallest, unless less room than that is left.
	if least := min(set.MinBuyIn, room); amount < least {
		return Step{}, errs.Errorf(errs.Invalid, "A rebuy is at least %s chips here, the table's smallest buy-in: try `rebuy %d`.", render.Chips(least), least)
	}
	if err := s.roomFor(amount); err != nil {
		return Step{}, err
	}
	if in.Player.Bankroll < amount {
		return Step{}, errs.Errorf(errs.Invalid, "Your bankroll holds only %s chips: rebuy for less.", render.Chips(in.Player.Bankroll))
	}
	n := s.Rec.Clone()
	n.Seats[seat].Stack += amount
	n.Seats[seat].Rebuys++
	if i := StandingIndex(n.Standings, by.User); i >= 0 {
		n.Standings[i].BoughtIn += amount
	}
	c := Change{Ledger: []LedgerEntry{{Time: now, Kind: KindRebuy, Workspace: s.Rec.Workspace, User: by.User,
		Name: st.Name, Table: s.Rec.ID, Bankroll: -amount, OnTable: amount}}}
	step := s.reply(n, c, "Added %s chips; your stack is %s.", render.Chips(amount), render.Chips(n.Seats[seat].Stack))
	step.post("%s rebuys for %s chips (stack %s).", st.Name, render.Chips(amount), render.Chips(n.Seats[seat].Stack))
	step.Short = fmt.Sprintf("Your bankroll does not hold %s chips: rebuy for less.", render.Chips(amount))
	step.Timers.Deal = true
	return step, nil
}

// rebuyTournament buys another starting stack into the prize pool, while the rebuy period lasts, for
// a player whose stack is at most the starting stack.
func (s State) rebuyTournament(now time.Time, by Caller, args []string, in Inputs) (Step, error) {
	tr := s.Rec.Tournament
	seat := s.SeatOf(by.User) // Rebuy found it
	st := s.Rec.Seats[seat]
	i := tr.Entry(by.User)
	if len(args) == 1 && slices.Contains([]string{"no", "n", "decline"}, strings.ToLower(args[0])) {
		return s.declineRebuy(now, by, in)
	}
	if len(args) > 0 {
		return Step{}, errs.Errorf(errs.Invalid, "A tournament rebuy takes no amount: `rebuy` pays %s into the prize pool for %s chips (`rebuy no` declines it when you are out of chips).", render.Chips(tr.BuyIn), render.Chips(tr.Stack))
	}
	if e := tr.Entries[i]; e.Busted && !tr.RebuyBy.IsZero() && !now.Before(tr.RebuyBy) {
		return Step{}, errs.Errorf(errs.Conflict, "The time to rebuy is over: you are placed when the next hand is dealt, in a moment.")
	}
	if err := s.tournamentRebuy(now, seat); err != nil {
		return Step{}, err
	}
	if in.Player.Bankroll < tr.BuyIn {
		return Step{}, errs.Errorf(errs.Invalid, "A rebuy costs %s chips and your bankroll holds %s.", render.Chips(tr.BuyIn), render.Chips(in.Player.Bankroll))
	}
	n := s.Rec.Clone()
	n.Seats[seat].Stack += tr.Stack
	e := &n.Tournament.Entries[i]
	e.Paid += tr.BuyIn
	e.Rebuys++
	dealtIn := ""
	wasBusted := e.Busted
	if e.Busted {
		// Out of chips in the last hand, waiting to be placed at the next deal: the rebuy keeps them in.
		e.Busted, e.OutHand, e.Start, e.Order, e.Declined = false, 0, 0, 0, false
		dealtIn = " You are dealt in next hand."
	}
	if j := StandingIndex(n.Standings, by.User); j >= 0 {
		n.Standings[j].BoughtIn += tr.BuyIn
	}
	c := Change{Ledger: []LedgerEntry{{Time: now, Kind: KindRebuy, Workspace: s.Rec.Workspace, User: by.User,
		Name: st.Name, Table: s.Rec.ID, Bankroll: -tr.BuyIn, OnTable: tr.BuyIn}}}
	step := s.reply(n, c, "You rebought for %s: %s more chips.%s", render.Chips(tr.BuyIn), render.Chips(tr.Stack), dealtIn)
	step.post("%s rebuys: stack %s, prize pool %s.", st.Name, render.Chips(n.Seats[seat].Stack), render.Chips(n.Tournament.Pool()))
	step.Short = fmt.Sprintf("Your bankroll does not hold the %s chips a rebuy costs.", render.Chips(tr.BuyIn))
	step.Timers.Deal = true
	if wasBusted {
		return step.thenDeal(now, in), nil
	}
	return step, nil
}

// declineRebuy is `rebuy no` (or `leave`) from a tournament player out of chips in the last hand: they
// do not rebuy and are placed at the next deal, which goes ahead at once when nobody else out of
// chips has yet to answer (thenDeal).
func (s State) declineRebuy(now time.Time, by Caller, in Inputs) (Step, error) {
	tr := s.Rec.Tournament
	i := tr.Entry(by.User)
	switch {
	case i < 0 || !tr.Entries[i].Busted:
		return Step{}, errs.Errorf(errs.Invalid, "`rebuy no` answers the offer to rebuy when you are out of chips, and you are not: play on, or `leave`.")
	case tr.Entries[i].Declined:
		return Step{}, errs.Errorf(errs.Conflict, "You said already that you do not rebuy: you are placed when the next hand is dealt.")
	}
	n := s.Rec.Clone()
	e := &n.Tournament.Entries[i]
	e.Declined = true
	step := s.reply(n, Change{}, "You do not rebuy: you are out of the tournament, placed when the next hand is dealt.")
	step.post("%s does not rebuy.", e.Name)
	step.Timers.Deal = true
	return step.thenDeal(now, in), nil
}

// tournamentRebuy refuses a tournament rebuy by the player in seat now, for every reason but their
// bankroll: the verb checks that, and the end of a hand asks it of the players who just lost their
// last chip (holdBusts), whose bankrolls it cannot read.
func (s State) tournamentRebuy(now time.Time, seat int) error {
	tr := s.Rec.Tournament
	set := s.Rec.Settings
	st := s.Rec.Seats[seat]
	level := s.Level(now)
	switch {
	case set.Rebuys == 0:
		return errs.Errorf(errs.Conflict, "This tournament has no rebuys.")
	case tr.Began.IsZero():
		return errs.Errorf(errs.Conflict, "The tournament has not begun: you start with %s chips.", render.Chips(tr.Stack))
	case set.RebuyLevels > 0 && level >= set.RebuyLevels:
		return errs.Errorf(errs.Conflict, "The rebuy period is over: rebuys were allowed until level %d ended, and this is level %d.", set.RebuyLevels, level+1)
	case set.Rebuys > 0 && tr.Entries[tr.Entry(st.User)].Rebuys >= set.Rebuys:
		return errs.Errorf(errs.Conflict, "You have used all %d of your rebuys in this tournament.", set.Rebuys)
	case s.InHand(seat):
		return errs.Errorf(errs.Conflict, "Rebuys happen between hands: wait for this hand to end.")
	case st.Stack > tr.Stack:
		return errs.Errorf(errs.Conflict, "You can rebuy when your stack is at most the starting stack of %s; yours is %s.", render.Chips(tr.Stack), render.Chips(st.Stack))
	}
	if err := s.roomFor(tr.Stack); err != nil {
		return err
	}
	return tr.RoomForBuyIn()
}

// Straddle opts the caller in to straddle in the next hand, in which they must be under the gun. The
// caller is seated (the gate's need).
func (s State) Straddle(now time.Time, by Caller, _ []string, _ Inputs) (Step, error) {
	seat, err := s.seated(by)
	if err != nil {
		return Step{}, err
	}
	set := s.Rec.Settings
	switch {
	case !set.Straddle:
		return Step{}, errs.Errorf(errs.Conflict, "This table plays no straddles: the host can `set straddle=on`.")
	case s.Rec.Button < 0:
		return Step{}, errs.Errorf(errs.Conflict, "The button is drawn at the first hand: straddle from the next one.")
	case s.Rec.BombPot > 0:
		return Step{}, errs.Errorf(errs.Conflict, "The next hand is a bomb pot, which has no blinds to straddle.")
	case s.Rec.Seats[seat].Straddle:
		return Step{}, errs.Errorf(errs.Conflict, "You already straddle next hand.")
	}
	seats := s.Playing()
	if len(seats) <= 2 {
		return Step{}, errs.Errorf(errs.Conflict, "There is no straddle heads-up: it needs three players or more.")
	}
	button := s.nextButton(seats)
	utg := seats[engine.UnderTheGun(len(seats), slices.Index(seats, button))]
	if utg != seat {
		return Step{}, errs.Errorf(errs.Conflict, "You are not under the gun next hand (%s is): straddle before the hand in which you are.", s.Rec.Seats[utg].Name)
	}
	amount := set.Rules(s.Rec.Level).StraddleAmount()
	if s.Rec.Seats[seat].Stack <= amount {
		return Step{}, errs.Errorf(errs.Invalid, "A straddle of %s needs more than %s chips: `rebuy` first.", render.Chips(amount), render.Chips(amount))
	}
	n := s.Rec.Clone()
	n.Seats[seat].Straddle = true
	step := s.reply(n, Change{}, "You straddle %s next hand: you act last before the flop.", render.Chips(amount))
	step.post("%s will straddle %s next hand.", by.Name, render.Chips(amount))
	return step, nil
}
