package table

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/dealerbot/dealerbot/bot/errs"
	"github.com/dealerbot/dealerbot/engine"
	"github.com/dealerbot/dealerbot/render"
)

// The session verbs: start (a cash game or a tournament), set, bombpot and end.

// Defaults are the settings of a bare `start`: DefaultSettings, with card pictures on a platform that
// draws them.
func Defaults(cardPictures bool) Settings {
	s := DefaultSettings()
	if cardPictures {
		s.Cards = render.CardImages
	}
	return s
}

// checkCards refuses card pictures a player asks for on a platform that has none. A scheduled game
// started with them plays with emoji cards instead of not starting.
func checkCards(by Caller, in Inputs, s Settings) error {
	if s.Cards < render.CardImages || by.Schedule != "" || in.CardPictures {
		return nil
	}
	return errs.Errorf(errs.Invalid, "Card pictures are drawn on Discord only: write cards=emoji or cards=text here.")
}

// Start opens a table hosted by the caller (`start [options]`, `start tournament [options]`) at
// in.Where, its hand numbers going on from in.LastHand.
func (s State) Start(now time.Time, by Caller, args []string, in Inputs) (Step, error) {
	if s.Open {
		return Step{}, errs.Errorf(errs.Invalid, "A game is already running here, hosted by %s: type `join` to sit down or `table` to see it.", s.Rec.HostName)
	}
	var tr *Tournament
	set := Defaults(in.CardPictures)
	var err error
	if len(args) > 0 && strings.EqualFold(args[0], "tournament") {
		set, tr, err = ParseTournament(set, args[1:])
	} else {
		err = set.Apply(args)
	}
	if err == nil {
		err = checkCards(by, in, set)
	}
	if err != nil {
		return Step{}, err
	}
	w := in.Where
	n := TableRecord{ID: w.ID, Platform: w.Platform, Workspace: w.Workspace, Channel: w.Channel,
		Host: by.User, HostName: by.Name, Settings: set, Seats: make([]SeatRecord, set.Seats), Button: -1,
		Started: now, LevelAt: now, Schedule: by.Schedule, Tournament: tr, HandBase: in.LastHand, HandNo: in.LastHand}
	if tr != nil {
		st := s.reply(n, Change{}, "Your tournament is open; you are the host. Registration closes when the first hand is dealt.")
		st.post("%s opened a tournament: %s. Type `join` to register, then `deal` to begin.", by.Name, tr.Describe(set))
		return st, nil
	}
	st := s.reply(n, Change{}, "Your table is open; you are the host.")
	st.post("%s opened a table: %s. Type `join` to sit down, then `deal`.", by.Name, set.Describe())
	return st, nil
}

// Set changes the settings from the next hand (`set key=value...`).
func (s State) Set(now time.Time, by Caller, args []string, in Inputs) (Step, error) {
	if len(args) == 0 {
		return Step{}, errs.Errorf(errs.Invalid, "Say what to change, for example `set blinds=10/20`; `help` lists the options.")
	}
	n := s.Rec.Clone()
	if err := n.Settings.Apply(args); err != nil {
		return Step{}, err
	}
	if err := checkCards(by, in, n.Settings); err != nil {
		return Step{}, err
	}
	if seated, most := s.seatedCount(), n.Settings.MaxSeated(); seated > most {
		return Step{}, errs.Errorf(errs.Invalid, "%s deals to at most %d players and %d are seated: %d must leave before the table switches.",
			render.Stakes(n.Settings.Game, n.Settings.Variant, false), most, seated, seated-most)
	}
	if n.Settings.Seats < len(n.Seats) {
		for _, st := range n.Seats[n.Settings.Seats:] {
			if st.User != "" {
				return Step{}, errs.Errorf(errs.Invalid, "Seats above %d are taken: they must be empty before the table shrinks.", n.Settings.Seats)
			}
		}
		n.Seats = n.Seats[:n.Settings.Seats]
	}
	for len(n.Seats) < n.Settings.Seats {
		n.Seats = append(n.Seats, SeatRecord{})
	}
	if n.Settings.Games == "" && n.Orbit != (Orbit{}) {
		n.Orbit = Orbit{Placed: n.Orbit.Placed} // one game now: no choice waited for (games.go)
	}
	st := s.reply(n, Change{}, "Settings changed.")
	st.post("%s changed the settings: %s. Stakes change from the next hand.", by.Name, n.Settings.Describe())
	return st, nil
}

// BombPot makes the next hand a bomb pot (`bombpot [ante]`).
func (s State) BombPot(now time.Time, by Caller, args []string, _ Inputs) (Step, error) {
	amount := min(2*s.Rec.Settings.Rules(s.Rec.Level).BigBlind, engine.MaxChips)
	v, given, err := AmountArg(args, "ante in the bomb pot", fmt.Sprintf("bombpot %d", amount))
	if err != nil {
		return Step{}, err
	}
	if given {
		amount = v
	}
	n := s.Rec.Clone()
	n.BombPot = amount
	for i := range n.Seats {
		n.Seats[i].Straddle = false // a bomb pot has no blinds to straddle
	}
	st := s.reply(n, Change{}, "The next hand is a bomb pot of %s each.", render.Chips(amount))
	st.post("%s calls a bomb pot: next hand everyone puts in %s, no blinds, and the flop comes at once.", by.Name, render.Chips(amount))
	st.Timers.Deal = true
	return st, nil
}

// End ends the session (`end`): at once between hands, else when the running hand is over.
func (s State) End(now time.Time, by Caller, _ []string, _ Inputs) (Step, error) {
	if s.Hand != nil {
		n := s.Rec.Clone()
		n.Ending = true
		st := s.reply(n, Change{}, "The session ends after this hand.")
		st.post("%s is ending the session: it ends when this hand is over.", by.Name)
		return st, nil
	}
	st := s.EndSession(now)
	st.Posts = append([]render.Message{{Text: by.Name + " ended the session."}}, st.Posts...)
	st.Reply = "Session ended; standings posted."
	return st, nil
}

// EndSession cashes everyone out, records the standings (a tournament's results) and closes the
// table: its Change deletes the table.
func (s State) EndSession(now time.Time) Step {
	n := s.Rec.Clone()
	var c Change
	var result render.Message
	var posts []render.Message
	if n.Tournament != nil {
		// Players out of chips still waiting to be placed are placed first, by the hand they lost
		// their last chip in, below everyone who still has chips.
		if lines := placeBusted(&n); len(lines) > 0 {
			posts = append(posts, render.Message{Text: strings.Join(lines, " ")})
		}
		result = PayTournament(&n, &c, now)
	}
	for i, st := range n.Seats {
		if st.User != "" {
			CashOut(&n, &c, i, now)
		}
	}
	c.Session = &SessionRecord{Table: n.ID, Schedule: n.Schedule, Started: n.Started, Ended: now, Standings: n.Standings,
		HandBase: n.HandBase, HandNo: n.HandNo}
	if tr := n.Tournament; tr != nil && !tr.Began.IsZero() {
		// PayTournament placed every entry and paid its prize, the only chips a tournament cashes out.
		for _, e := range tr.Entries {
			f := TournamentFinish{User: e.User, Name: e.Name, Place: e.Place, Paid: e.Paid}
			if j := StandingIndex(n.Standings, e.User); j >= 0 {
				f.Prize = n.Standings[j].CashedOut
			}
			c.Session.Tournament = append(c.Session.Tournament, f)
		}
	}
	c.DeleteTable = n.ID
	if n.Tournament == nil {
		rows := make([]render.Standing, len(n.Standings))
		for i, st := range n.Standings {
			rows[i] = render.Standing{Name: st.Name, BoughtIn: st.BoughtIn, CashedOut: st.CashedOut}
		}
		result = render.Standings("Session over — standings", rows)
	}
	return Step{Change: c, Next: &State{}, Posts: append(posts, result)}
}

// Restore is a table read back from the store: open, with its running hand replayed from the record.
// A hand that cannot go on (it no longer replays, or it is over) is an error, and the state returned
// still holds it, for Cancel.
func Restore(rec TableRecord) (State, error) {
	s := State{Open: true, Rec: rec}
	if rec.Hand == nil {
		return s, nil
	}
	h, err := engine.Replay(rec.Hand.Setup(), rec.Hand.Actions)
	if err == nil && h.Done() {
		err = errors.New("the hand is over")
	}
	if err != nil {
		return s, fmt.Errorf("replay hand %d: %w", rec.Hand.No, err)
	}
	s.Hand = h
	return s, nil
}

// Cancel calls off the hand in progress, if any: the seats still hold the stacks from before it, so
// every chip is back where it was.
func (s State) Cancel() Step {
	n := s.Rec.Clone()
	n.Hand = nil
	next := s
	next.Rec, next.Hand = n, nil
	return Step{Change: Change{Table: &n}, Next: &next}
}

// OnScreen keeps what is on screen for the table (its table message, the turn ping) with it, so a
// restart edits the same message.
func (s State) OnScreen(sc Screen) Step {
	n := s.Rec.Clone()
	n.Screen = sc
	next := s
	next.Rec = n
	return Step{Change: Change{Table: &n}, Next: &next}
}
