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

// Away from the table and the time bank (RULES.md section 13): missed blinds at cash tables
// (missed=wait|post, `sitin post`, `sitout bb`), players stood up after away=N orbits sitting out, and
// each player's time bank (timebank=S or S+A/H).
//
// The blinds pass a seat when the big blind moves past it: a seat that sits out then has missed them
// (Owes), and each pass counts one orbit away (Orbits). A player who owes waits for the big blind,
// or, where the table allows it, posts the big blind live and the small blind dead (a newcomer one
// big blind, live) to be dealt in at once. A tournament never charges missed blinds: a player away
// is dealt in and blinded.

// What a seat owes to be dealt in before the big blind reaches it (SeatRecord.Owes).
const (
	OwesMissed = 1 // the big blind passed the seat while it sat out: the big blind live, the small blind dead
	OwesNew    = 2 // new at a table already playing: one big blind, live
)

// Limits on the away settings, each named in the sentence that refuses a larger one.
const (
	defaultAway      = 3    // orbits sitting out before a player is stood up
	maxAway          = 100  // orbits
	minTimeBank      = 5    // seconds
	maxTimeBank      = 3600 // seconds: an hour of reserve
	maxTimeBankHands = 1000
)

// applyAway reads missed=, away= and timebank= into s.
func (s *Settings) applyAway(key, val string) error {
	switch key {
	case "missed":
		switch val {
		case "wait":
			s.MissedPost = false
		case "post":
			s.MissedPost = true
		default:
			return errs.Errorf(errs.Invalid, "Write missed=wait (players who missed the blinds wait for the big blind) or missed=post (they may post them to play at once).")
		}
	case "away":
		if val == "off" || val == "no" || val == "never" || val == "0" {
			s.Away = -1
			return nil
		}
		n, err := bounded(val, 1, maxAway, fmt.Sprintf("A player sitting out is stood up after 1 to %d orbits, or never with away=off", maxAway), "away=3")
		if err != nil {
			return err
		}
		s.Away = n
	case "timebank":
		if val == "off" || val == "no" || val == "0" {
			s.TimeBank, s.TimeBankAdd, s.TimeBankHands = 0, 0, 0
			return nil
		}
		const example = "timebank=60 or timebank=60+5/10"
		total, refill, _ := strings.Cut(val, "+")
		bank, err := bounded(strings.TrimSuffix(total, "s"), minTimeBank, maxTimeBank, fmt.Sprintf("A time bank holds %d to %d seconds, or timebank=off", minTimeBank, maxTimeBank), example)
		if err != nil {
			return err
		}
		add, hands := 0, 0
		if refill != "" {
			a, h, ok := strings.Cut(refill, "/")
			if !ok {
				return errs.Errorf(errs.Invalid, "Write the refill as seconds/hands: timebank=60+5/10 adds 5 s back every 10 hands.")
			}
			if add, err = bounded(strings.TrimSuffix(a, "s"), 1, bank, fmt.Sprintf("The time bank's refill is 1 to %d seconds (at most the bank)", bank), example); err != nil {
				return err
			}
			if hands, err = bounded(strings.TrimSuffix(h, "hands"), 1, maxTimeBankHands, fmt.Sprintf("The time bank refills every 1 to %d hands", maxTimeBankHands), example); err != nil {
				return err
			}
		}
		s.TimeBank, s.TimeBankAdd, s.TimeBankHands = bank, add, hands
	}
	return nil
}

// validateAway checks the away settings read back from the database.
func (s Settings) validateAway() error {
	switch {
	case s.Away < -1 || s.Away > maxAway:
		return fmt.Errorf("away after %d orbits out of range", s.Away)
	case s.TimeBank != 0 && (s.TimeBank < minTimeBank || s.TimeBank > maxTimeBank):
		return fmt.Errorf("time bank %d s out of range", s.TimeBank)
	case s.TimeBankAdd < 0 || s.TimeBankAdd > s.TimeBank || s.TimeBankHands < 0 || s.TimeBankHands > maxTimeBankHands ||
		(s.TimeBankAdd > 0) != (s.TimeBankHands > 0):
		return fmt.Errorf("time bank refill %d s every %d hands out of range", s.TimeBankAdd, s.TimeBankHands)
	}
	return nil
}

// describeAway is what Describe says of the away settings that are not the defaults.
func (s Settings) describeAway() string {
	var b strings.Builder
	if s.MissedPost {
		b.WriteString(", missed blinds may be posted")
	}
	switch {
	case s.Away < 0:
		b.WriteString(", nobody is stood up for sitting out")
	case s.Away > 0 && s.Away != defaultAway:
		fmt.Fprintf(&b, ", stood up after %s sitting out", count(s.Away, "orbit", "orbits"))
	}
	if s.TimeBank > 0 {
		fmt.Fprintf(&b, ", time bank %d s", s.TimeBank)
		if s.TimeBankHands > 0 {
			fmt.Fprintf(&b, " (+%d s every %s)", s.TimeBankAdd, count(s.TimeBankHands, "hand", "hands"))
		}
	}
	return b.String()
}

// awayOrbits is how many orbits a player may sit out before being stood up; 0: never.
func (s Settings) awayOrbits() int {
	switch {
	case s.Away < 0:
		return 0
	case s.Away == 0:
		return defaultAway
	}
	return s.Away
}

// missedBlinds reports whether blinds can be missed here: at a cash table that has dealt a hand (whose
// big blind the next one moves on from).
func (s State) missedBlinds() bool { return s.Rec.Tournament == nil && s.Rec.BigBlind > 0 }

// between reports whether seat x lies strictly after seat a and before seat b, clockwise round a
// table of size seats (b == a: the whole way round).
func between(a, x, b, size int) bool {
	d := func(y int) int { return ((y-a)%size + size) % size }
	db := d(b)
	if db == 0 {
		db = size
	}
	return d(x) > 0 && d(x) < db
}

// nextBigBlind is the seat of the next hand's big blind among the seats that can play (cands): the
// first after the last big blind that does not sit out at its big blind (`sitout bb`); -1 when none.
func (s State) nextBigBlind(cands []int) int {
	size, last := len(s.Rec.Seats), s.Rec.BigBlind-1
	for k := 1; k <= size; k++ {
		seat := (last + k) % size
		if slices.Contains(cands, seat) && !s.Rec.Seats[seat].SitOutBB {
			return seat
		}
	}
	return -1
}

// dealtIn narrows the seats that can play (cands) at a cash table to those dealt in next hand: a
// player who owes blinds waits for the big blind unless they post (missed=post, `sitin post`), and a
// player who sits out at their big blind is not dealt in when it comes. When fewer than two would be
// left, nobody waits: there is nobody to wait for.
func (s State) dealtIn(cands []int) []int {
	bb := s.nextBigBlind(cands)
	last, size := s.Rec.BigBlind-1, len(s.Rec.Seats)
	var out, open []int
	for _, i := range cands {
		st := s.Rec.Seats[i]
		if st.SitOutBB && bb >= 0 && between(last, i, bb, size) {
			continue // sits out now, at the big blind
		}
		open = append(open, i)
		if i != bb && st.Owes != 0 && !(st.Posts && s.Rec.Settings.MissedPost) {
			continue // waits for the big blind
		}
		out = append(out, i)
	}
	if len(out) < 2 {
		return open
	}
	return out
}

// awayAtDeal applies the away rules to table n as hand hs is dealt, the big blind having moved from
// the last hand's (this state's) to n's: who is dealt in owes nothing more and posts what they chose
// to post (hs.Posts); a player who sits out at the big blind (`sitout bb`) sits out now; a player
// sitting out whom the big blind passed has missed it, and after away=N such orbits is stood up and
// cashed out (into c). It returns the lines for the hand's table message.
func (s State) awayAtDeal(now time.Time, n *TableRecord, hs *HandState, c *Change) []string {
	last, bb, size := s.Rec.BigBlind-1, n.BigBlind-1, len(n.Seats)
	var notes []string
	posts := make([]engine.Post, len(hs.Seats))
	posted := false
	for p, i := range hs.Seats {
		st := &n.Seats[i]
		if st.Owes != 0 && st.Posts && i != bb && hs.BombPot == 0 && n.Settings.MissedPost {
			posts[p].Live = hs.Rules.BigBlind
			if st.Owes == OwesMissed {
				posts[p].Dead = hs.Rules.SmallBlind
			}
			posted = true
		}
		st.Owes, st.Posts, st.Orbits = 0, false, 0
	}
	if posted {
		hs.Posts = posts
	}
	for i := range n.Seats {
		st := &n.Seats[i]
		if st.User == "" || slices.Contains(hs.Seats, i) || !between(last, i, bb, size) {
			continue
		}
		if st.SitOutBB {
			st.SitOutBB, st.SittingOut = false, true
			notes = append(notes, fmt.Sprintf("%s sits out at the big blind.", st.Name))
		}
		if !st.SittingOut {
			continue
		}
		st.Owes, st.Posts = OwesMissed, false
		st.Orbits++
		if away := n.Settings.awayOrbits(); away > 0 && st.Orbits >= away {
			notes = append(notes, fmt.Sprintf("%s sat out %s and is stood up: %s chips went back to the bankroll.",
				st.Name, count(st.Orbits, "orbit", "orbits"), render.Chips(st.Stack)))
			CashOut(n, c, i, now)
		}
	}
	return notes
}

// owed says what the player in seat owes to be dealt in before the big blind reaches them, at the
// table's blinds: "10 and 5 dead", "10".
func (s State) owed(seat int) string {
	r := s.Rec.Settings.Rules(s.Rec.Level)
	if s.Rec.Seats[seat].Owes == OwesMissed {
		return render.Chips(r.BigBlind) + " and " + render.Chips(r.SmallBlind) + " dead"
	}
	return render.Chips(r.BigBlind)
}

// waitLine is the reply to a player who owes blinds: they wait for the big blind, and where the table
// allows it may post instead.
func (s State) waitLine(seat int) string {
	line := "You are dealt in when the big blind reaches you"
	if s.Rec.Settings.MissedPost {
		return line + ", or type `sitin post` to post " + s.owed(seat) + " and play the next hand."
	}
	return line + "."
}

// sitInPost is `sitin post` (post what you owe and play the next hand) and `sitin wait` (wait for the
// big blind after all).
func (s State) sitInPost(by Caller, wait bool) (Step, error) {
	seat, err := s.seated(by)
	if err != nil {
		return Step{}, err
	}
	st := s.Rec.Seats[seat]
	switch {
	case s.Rec.Tournament != nil:
		return Step{}, errs.Errorf(errs.Invalid, "A tournament has no missed blinds: `sitin` deals you in from the next hand.")
	case st.Owes == 0:
		return Step{}, errs.Errorf(errs.Invalid, "You owe no blinds: `sitin` deals you in from the next hand.")
	case !wait && !s.Rec.Settings.MissedPost:
		return Step{}, errs.Errorf(errs.Invalid, "This table has players who missed the blinds wait for the big blind (missed=wait): type `sitin` to wait for it.")
	}
	n := s.Rec.Clone()
	n.Seats[seat].SittingOut, n.Seats[seat].SitOutBB, n.Seats[seat].TimedOut = false, false, 0
	n.Seats[seat].Posts = !wait
	if wait {
		step := s.reply(n, Change{}, "%s", s.waitLine(seat))
		if st.SittingOut {
			step.post("%s is back in from the big blind.", by.Name)
		}
		return step, nil
	}
	step := s.reply(n, Change{}, "You post %s in the next hand and are dealt in; `sitin wait` waits for the big blind instead.", s.owed(seat))
	step.post("%s will post %s to play the next hand.", by.Name, s.owed(seat))
	step.Timers.Deal = true
	return step, nil
}

// sitOutBB is `sitout bb`: the player plays on until the big blind would reach them and sits out
// then, without posting it.
func (s State) sitOutBB(by Caller) (Step, error) {
	seat, err := s.seated(by)
	if err != nil {
		return Step{}, err
	}
	st := s.Rec.Seats[seat]
	switch {
	case s.Rec.Tournament != nil:
		return Step{}, errs.Errorf(errs.Invalid, "In a tournament the blinds are never missed: `sitout` has the dealer post them and check or fold for you.")
	case st.SittingOut:
		return Step{}, errs.Errorf(errs.Invalid, "You are already sitting out: type `sitin` to play again.")
	case st.SitOutBB:
		return Step{}, errs.Errorf(errs.Invalid, "You already sit out when the big blind reaches you: `sitin` cancels it.")
	}
	n := s.Rec.Clone()
	n.Seats[seat].SitOutBB = true
	step := s.reply(n, Change{}, "You play until the big blind reaches you and sit out then; `sitin` cancels it.")
	step.post("%s sits out at the big blind.", by.Name)
	return step, nil
}

// The time bank (timebank=S or S+A/H): when a player's turn timer runs out, their reserve starts
// counting down instead of the check or fold (Timeout, startBank); what they use is charged when they
// act or when it runs out (spendBank), and A seconds come back every H hands, up to S (refillBank).
// The running bank is in the hand's record (HandState.BankFrom and Deadline), its use in the
// standings, so a restart resumes it.

// bankLeft is what is left of user's time bank.
func (s State) bankLeft(user string) time.Duration {
	left := time.Duration(s.Rec.Settings.TimeBank) * time.Second
	if i := StandingIndex(s.Rec.Standings, user); i >= 0 {
		left -= s.Rec.Standings[i].BankUsed
	}
	return max(left, 0)
}

// startBank starts the time bank of the player to act, whose turn timer ran out, when the table has
// one and they have some left: their turn goes on until it is gone. ok is false otherwise (the
// timeout checks or folds).
func (s State) startBank(now time.Time) (st Step, ok bool) {
	if s.Rec.Settings.TimeBank <= 0 || s.Hand == nil || s.Rec.Hand == nil || s.Hand.Done() || !s.Rec.Hand.BankFrom.IsZero() {
		return Step{}, false
	}
	seat := s.Rec.Seats[s.Rec.Hand.Seats[s.Hand.ToAct()]]
	left := s.bankLeft(seat.User)
	if left <= 0 {
		return Step{}, false
	}
	n := s.Rec.Clone()
	n.Hand.BankFrom, n.Hand.Deadline = now, now.Add(left)
	next := s
	next.Rec = n
	view := &View{Hand: s.Hand, State: n.Hand, Names: s.Names(),
		Bank: fmt.Sprintf("%s is using the time bank: %s", seat.Name, Seconds(left))}
	return Step{Change: Change{Table: &n}, Next: &next, View: view, Timers: Timers{Turn: true}}, true
}

// spendBank charges the time bank that ran in hand hs of table n to the player who was to act (the
// time since it started, at most what they had) and stops it. n's standings are copied first.
func (s State) spendBank(now time.Time, n TableRecord, hs *HandState) TableRecord {
	user := s.Rec.Seats[hs.Seats[s.Hand.ToAct()]].User
	used := min(max(now.Sub(hs.BankFrom), 0), s.bankLeft(user))
	n.Standings = slices.Clone(n.Standings)
	if i := StandingIndex(n.Standings, user); i >= 0 {
		n.Standings[i].BankUsed += used
	}
	hs.BankFrom = time.Time{}
	return n
}

// refillBank gives every player A seconds of their time bank back after every H hands (timebank=S+A/H),
// up to S, when hand no is the H-th.
func refillBank(n *TableRecord, no int64) {
	set := n.Settings
	if set.TimeBank <= 0 || set.TimeBankHands <= 0 || (no-n.HandBase)%int64(set.TimeBankHands) != 0 {
		return
	}
	for i := range n.Standings {
		n.Standings[i].BankUsed = max(n.Standings[i].BankUsed-time.Duration(set.TimeBankAdd)*time.Second, 0)
	}
}

// awayArgs reads `sitin post|wait` and `sitout bb`: which of the away forms the verb's words ask for.
func awayArgs(args []string, verb string, words ...string) (string, error) {
	if len(args) == 0 {
		return "", nil
	}
	w := strings.ToLower(args[0])
	if len(args) == 1 && slices.Contains(words, w) {
		return w, nil
	}
	forms := make([]string, len(words))
	for i, x := range words {
		forms[i] = "`" + verb + " " + x + "`"
	}
	return "", errs.Errorf(errs.Invalid, "%s takes %s or nothing.", "`"+verb+"`", strings.Join(forms, " or "))
}
