package bot

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/dealerbot/dealerbot/bot/errs"
	"github.com/dealerbot/dealerbot/bot/table"
	"github.com/dealerbot/dealerbot/engine"
	"github.com/dealerbot/dealerbot/render"
)

// --- the tournament at a table --------------------------------------------------------------------

// startTournament opens a tournament: registration is open until the first hand is dealt.
func (t *actor) startTournament(ctx context.Context, cmd Command, args []string) (Reply, error) {
	s, tr, err := table.ParseTournament(t.defaults(cmd.Platform), args)
	if err == nil {
		err = t.checkCards(cmd, s)
	}
	if err != nil {
		return Reply{}, err
	}
	if err := t.openTable(ctx, cmd, s, tr); err != nil {
		return Reply{}, err
	}
	t.publicf("%s opened a tournament: %s. Type `join` to register, then `deal` to begin.", cmd.UserName, tr.Describe(s))
	return ok("Your tournament is open; you are the host. Registration closes when the first hand is dealt.")
}

// register is `join` at a tournament: the buy-in goes from the bankroll into the prize pool and the
// player sits down with the starting stack in tournament chips.
func (t *actor) register(ctx context.Context, cmd Command, args []string) (Reply, error) {
	tr := t.rec.Tournament
	if i := tr.Entry(cmd.User); i >= 0 && tr.Entries[i].Place > 0 {
		return Reply{}, refusef(errs.Conflict, "You are out of this tournament (%s place): watch with `table`.", table.Ordinal(tr.Entries[i].Place))
	}
	if t.seatOf(cmd.User) >= 0 {
		return Reply{}, refusef(errs.Conflict, "You are already registered in this tournament: wait for `deal`, or `leave` to get your buy-in back before it begins.")
	}
	if len(args) > 0 {
		return Reply{}, userErrorf("In a tournament `join` takes no amount: it costs the buy-in of %s and gives you %s tournament chips.", render.Chips(tr.BuyIn), render.Chips(tr.Stack))
	}
	if !tr.Began.IsZero() {
		return Reply{}, refusef(errs.Conflict, "The tournament has begun, so registration is closed: watch with `table`.")
	}
	seat := t.emptySeat()
	if seat < 0 {
		return Reply{}, userErrorf("The tournament is full (%d seats).", len(t.rec.Seats))
	}
	if err := t.roomFor(tr.Stack); err != nil {
		return Reply{}, err
	}
	if err := tr.RoomForBuyIn(); err != nil {
		return Reply{}, err
	}
	grant, err := t.bankrollFor(ctx, cmd, tr.BuyIn, "The buy-in is "+render.Chips(tr.BuyIn)+" chips and your bankroll holds %s: ask an admin for chips, or play a cash game.")
	if err != nil {
		return Reply{}, err
	}
	now := t.d.cfg.Now()
	c := Change{Ledger: grant}
	c.Ledger = append(c.Ledger, LedgerEntry{Time: now, Kind: KindBuyIn, Workspace: cmd.Workspace, User: cmd.User,
		Name: cmd.UserName, Table: t.id, Bankroll: -tr.BuyIn, OnTable: tr.BuyIn})
	n := t.rec.Clone()
	n.Seats[seat] = SeatRecord{User: cmd.User, Name: cmd.UserName, Stack: tr.Stack}
	n.Tournament.Entries = append(n.Tournament.Entries, Entry{User: cmd.User, Name: cmd.UserName, Paid: tr.BuyIn})
	if i := table.StandingIndex(n.Standings, cmd.User); i >= 0 {
		n.Standings[i].BoughtIn += tr.BuyIn
	} else {
		n.Standings = append(n.Standings, Standing{User: cmd.User, Name: cmd.UserName, BoughtIn: tr.BuyIn})
	}
	if err := t.commit(ctx, n, c); err != nil {
		if errors.Is(err, ErrInsufficient) {
			return Reply{}, userErrorf("Your bankroll does not hold the buy-in of %s chips.", render.Chips(tr.BuyIn))
		}
		return Reply{}, err
	}
	nt := n.Tournament
	t.publicf("%s registers in seat %d: %d %s, prize pool %s.", cmd.UserName, seat+1, len(nt.Entries),
		table.Plural(len(nt.Entries), "entrant", "entrants"), render.Chips(nt.Pool()))
	return ok("You are registered in seat %d with %s tournament chips; %s went from your bankroll to the prize pool.",
		seat+1, render.Chips(tr.Stack), render.Chips(tr.BuyIn))
}

// leaveTournament: before the first hand the buy-in comes back; after it the player is sat out and
// keeps being dealt in, posting blinds and antes and folding, until the stack is gone or they `sitin`.
func (t *actor) leaveTournament(ctx context.Context, cmd Command, seat int, kicked bool) (Reply, error) {
	n := t.rec.Clone()
	s := n.Seats[seat]
	tr := n.Tournament
	by := ""
	if kicked {
		by = " (removed by " + cmd.UserName + ")"
	}
	if tr.Began.IsZero() {
		i := tr.Entry(s.User)
		paid := tr.Entries[i].Paid
		c := Change{Ledger: []LedgerEntry{{Time: t.d.cfg.Now(), Kind: KindCashOut, Workspace: n.Workspace, User: s.User,
			Name: s.Name, Table: n.ID, Bankroll: paid, OnTable: -paid}}}
		tr.Entries = slices.Delete(tr.Entries, i, i+1)
		if j := table.StandingIndex(n.Standings, s.User); j >= 0 {
			n.Standings = slices.Delete(n.Standings, j, j+1)
		}
		n.Seats[seat] = SeatRecord{}
		if err := t.commit(ctx, n, c); err != nil {
			return Reply{}, err
		}
		t.publicf("%s unregisters%s: prize pool %s.", s.Name, by, render.Chips(tr.Pool()))
		return ok("%s's buy-in of %s went back to the bankroll.", s.Name, render.Chips(paid))
	}
	if s.SittingOut {
		return Reply{}, refusef(errs.Conflict, "%s is already away: their hands are folded until they type `sitin`.", s.Name)
	}
	n.Seats[seat].SittingOut = true
	if err := t.commit(ctx, n, Change{}); err != nil {
		return Reply{}, err
	}
	t.publicf("%s is away%s: a tournament stack stays in play, posting blinds and folding, until it is gone or %s types `sitin`.", s.Name, by, s.Name)
	if p := t.playerOf(seat); p >= 0 && t.hand != nil && t.hand.ToAct() == p {
		t.afterStep(ctx) // folds for the absent player
	}
	return ok("%s's chips stay in the tournament and are folded each hand; `sitin` comes back.", s.Name)
}

// rebuyTournament buys another starting stack into the prize pool, while the rebuy period lasts, for
// a player whose stack is at most the starting stack.
func (t *actor) rebuyTournament(ctx context.Context, cmd Command, args []string) (Reply, error) {
	tr := t.rec.Tournament
	s := t.rec.Settings
	seat := t.seatOf(cmd.User)
	st := t.rec.Seats[seat]
	i := tr.Entry(cmd.User)
	level := t.currentLevel()
	switch {
	case len(args) > 0:
		return Reply{}, userErrorf("A tournament rebuy takes no amount: `rebuy` pays %s into the prize pool for %s chips.", render.Chips(tr.BuyIn), render.Chips(tr.Stack))
	case s.Rebuys == 0:
		return Reply{}, refusef(errs.Conflict, "This tournament has no rebuys.")
	case tr.Began.IsZero():
		return Reply{}, refusef(errs.Conflict, "The tournament has not begun: you start with %s chips.", render.Chips(tr.Stack))
	case s.RebuyLevels > 0 && level >= s.RebuyLevels:
		return Reply{}, refusef(errs.Conflict, "The rebuy period is over: rebuys were allowed until level %d ended, and this is level %d.", s.RebuyLevels, level+1)
	case s.Rebuys > 0 && tr.Entries[i].Rebuys >= s.Rebuys:
		return Reply{}, refusef(errs.Conflict, "You have used all %d of your rebuys in this tournament.", s.Rebuys)
	case t.hand != nil && t.playerOf(seat) >= 0:
		return Reply{}, refusef(errs.Conflict, "Rebuys happen between hands: wait for this hand to end.")
	case st.Stack > tr.Stack:
		return Reply{}, refusef(errs.Conflict, "You can rebuy when your stack is at most the starting stack of %s; yours is %s.", render.Chips(tr.Stack), render.Chips(st.Stack))
	}
	if err := t.roomFor(tr.Stack); err != nil {
		return Reply{}, err
	}
	if err := tr.RoomForBuyIn(); err != nil {
		return Reply{}, err
	}
	p, _, err := t.d.store.Player(ctx, cmd.Workspace, cmd.User)
	if err != nil {
		return Reply{}, err
	}
	if p.Bankroll < tr.BuyIn {
		return Reply{}, userErrorf("A rebuy costs %s chips and your bankroll holds %s.", render.Chips(tr.BuyIn), render.Chips(p.Bankroll))
	}
	n := t.rec.Clone()
	n.Seats[seat].Stack += tr.Stack
	n.Tournament.Entries[i].Paid += tr.BuyIn
	n.Tournament.Entries[i].Rebuys++
	if j := table.StandingIndex(n.Standings, cmd.User); j >= 0 {
		n.Standings[j].BoughtIn += tr.BuyIn
	}
	c := Change{Ledger: []LedgerEntry{{Time: t.d.cfg.Now(), Kind: KindRebuy, Workspace: cmd.Workspace, User: cmd.User,
		Name: st.Name, Table: t.id, Bankroll: -tr.BuyIn, OnTable: tr.BuyIn}}}
	if err := t.commit(ctx, n, c); err != nil {
		if errors.Is(err, ErrInsufficient) {
			return Reply{}, userErrorf("Your bankroll does not hold the %s chips a rebuy costs.", render.Chips(tr.BuyIn))
		}
		return Reply{}, err
	}
	t.publicf("%s rebuys: stack %s, prize pool %s.", st.Name, render.Chips(n.Seats[seat].Stack), render.Chips(n.Tournament.Pool()))
	return ok("You rebought for %s: %s more chips.", render.Chips(tr.BuyIn), render.Chips(tr.Stack))
}

// currentLevel is the blind level now: the one the last hand was dealt at, or a later one the clock
// has reached since.
func (t *actor) currentLevel() int {
	now := t.d.cfg.Now()
	from := t.rec.Started
	if tr := t.rec.Tournament; tr != nil {
		if tr.Began.IsZero() {
			return 0
		}
		from = tr.Began
	}
	return max(t.rec.Level, t.rec.Settings.Level(now.Sub(from), t.rec.HandNo-t.rec.HandBase))
}

// notes are the table view's lines about this hand's or the next hand's home-game options.
func (t *actor) notes() []string {
	var out []string
	if hs := t.rec.Hand; hs != nil && t.hand != nil {
		switch {
		case hs.BombPot > 0:
			out = append(out, fmt.Sprintf("Bomb pot: %s from everyone, no blinds.", render.Chips(hs.BombPot)))
		case hs.Straddle:
			p := engine.UnderTheGun(len(hs.Seats), hs.Button)
			out = append(out, fmt.Sprintf("Straddle: %s %s.", t.names().Name(p), render.Chips(hs.Rules.StraddleAmount())))
		}
	}
	if t.rec.BombPot > 0 {
		out = append(out, fmt.Sprintf("Next hand: a bomb pot of %s each.", render.Chips(t.rec.BombPot)))
	}
	for _, s := range t.rec.Seats {
		if s.User != "" && s.Straddle {
			out = append(out, fmt.Sprintf("Next hand: %s straddles.", s.Name))
		}
	}
	return out
}
