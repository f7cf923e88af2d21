package table

import (
	"fmt"
	"time"

	"github.com/dealerbot/dealerbot/render"
)

// The dealer's chores that are decisions, not delivery: whether to act for an absent player, how
// long a turn lasts, whether and when the next hand is dealt by itself, how long a message may take
// to be shown, and what a ping says. The shell arms the timers, sends the ping and, when a timer
// fires, asks the core again (a step may have come in between); the core decides.

// ShowBackstop is how long a clock that starts when its message is on screen (a turn's clock, the
// pause before a deal that offers rebuys) waits for the platform to report the message shown before
// it starts anyway, so a table never waits for ever on a platform that does not show it.
const ShowBackstop = 10 * time.Second

// Chores is what the dealer does by itself after a step (Step.Timers says which clocks the step
// concerns), as the core decides it.
type Chores struct {
	// Forfeit: the player to act is leaving, or away at a tournament: the dealer acts for them at
	// once (State.Forfeit: a check when checking is free, else a fold; R-21), with no clock.
	Forfeit bool
	// Turn: a player is to act. Their clock runs Wait (0: the table has no timer) from when the turn
	// is on screen, or from Backstop after the step when the platform never reports it shown.
	Turn bool
	Wait time.Duration
	// PingAfter: with a turn timer, when the player to act is pinged, counted like Wait from when the
	// turn is on screen: when a third of the timer is left, and at least PingBefore before the end.
	// 0 without a timer: the shell's own delay; -1 no ping (too little time left for one).
	PingAfter time.Duration
	// Deal: the next hand is dealt by itself Pause after the step; with WhenShown, Pause after the
	// hand's last message (which offers the players out of chips a rebuy within the pause) is on
	// screen, so they have all of it, at the latest Backstop + Pause after the step.
	Deal      bool
	Pause     time.Duration
	WhenShown bool
	Backstop  time.Duration
}

// Chores decides the dealer's own next moves after a step that concerns the clocks tm (after a
// restart: Timers{Turn: true} with a hand in play, Timers{Deal: true} without).
//
// The player to act who is leaving, or away at a tournament, is absent: the dealer acts for them
// (Forfeit) rather than waiting for them. Anyone else has the table's timer, or, when the hand's
// stored deadline leaves less (the dealer restarted, or another process took the table over), the
// time left, but at least RestartGrace and never more than the timer. While the player's time bank
// runs (timebank=; the clock's Timeout started it) the turn waits for what is left of the bank.
func (s State) Chores(now time.Time, tm Timers) Chores {
	c := Chores{Backstop: ShowBackstop}
	if tm.Turn && s.Hand != nil && !s.Hand.Done() {
		st := s.Rec.Seats[s.Rec.Hand.Seats[s.Hand.ToAct()]]
		c.Forfeit = st.Leaving || st.SittingOut && s.Rec.Tournament != nil
		c.Turn = !c.Forfeit
	}
	if c.Turn {
		c.Wait = max(time.Duration(s.Rec.Settings.Timer)*time.Second, 0)
		if dl := s.Rec.Hand.Deadline; !dl.IsZero() && dl.Sub(now) < c.Wait {
			c.Wait = max(dl.Sub(now), min(RestartGrace, c.Wait))
		}
		if !s.Rec.Hand.BankFrom.IsZero() {
			// The player's time bank runs (timebank=): until it is gone, also after a restart. The
			// turn's reminder came with the timer: none during the bank.
			c.Wait = max(s.Rec.Hand.Deadline.Sub(now), time.Second)
		} else if timer := time.Duration(s.Rec.Settings.Timer) * time.Second; timer > 0 && c.Wait > 0 {
			// The ping: when a third of the timer is left, at least PingBefore before the end (timer=60
			// at 40 s, timer=20 at 13.3 s, timer=10 at 5 s); none once that moment has passed (a turn
			// resumed with less left) or for a timer too short. (Written here, not in a function of its
			// own: this is every action's path.)
			c.PingAfter = c.Wait - max(timer/3, PingBefore)
			if c.PingAfter <= 0 {
				c.PingAfter = -1
			}
		}
	}
	if tm.Deal && s.DealsItself() {
		c.Deal, c.Pause, c.WhenShown = true, s.DealDelay, tm.DealWhenShown
		if tr := s.Rec.Tournament; tr != nil && len(tr.Busted()) > 0 && !tr.RebuyBy.IsZero() {
			// Tournament players out of chips wait to be placed: the deal comes when their time to
			// rebuy is over (a deadline in the record, which a restart keeps), or at once when each
			// has answered.
			_, c.Pause = s.rebuyWait(now)
			c.WhenShown = false
		}
	}
	if o := s.Rec.Orbit; tm.Deal && o.Chooser != "" && s.Open && s.Hand == nil && !s.Quarantined {
		// The button is choosing the game (games.go): the hand is dealt when they answer, or with
		// the game unchanged when their time is up.
		c.Deal, c.Pause, c.WhenShown = true, max(o.By.Sub(now), 0), false
	}
	return c
}

// DealsItself reports whether the dealer deals the next hand by itself now: the table is open and
// healthy, between hands, a hand has been dealt this session (the first deal is the host's), and
// the deal would do something (Dealable: two or more can play, or tournament players out of chips
// who did not rebuy are placed at it).
func (s State) DealsItself() bool {
	return !s.Quarantined && s.Open && s.Hand == nil && s.Rec.HandNo != s.Rec.HandBase && s.Dealable()
}

// PingBefore is the least time before a turn's clock runs out that its player is pinged: a ping
// later than that would come when nothing can be done any more ("0 s left").
const PingBefore = 5 * time.Second

// RestartGrace is the least time a player gets to act when the dealer resumes a turn after a
// restart or a takeover (never more than the table's own timer).
const RestartGrace = 15 * time.Second

// Ping is the short channel post that pings the player to act when they have not acted a while
// after their turn was shown: a mention that notifies them, what they owe, and the time left on
// their clock (deadline zero: no clock). ok is false when nobody is to act.
func (s State) Ping(now, deadline time.Time) (text string, ok bool) {
	if s.Hand == nil || s.Hand.Done() || s.Rec.Hand == nil {
		return "", false
	}
	o, ok := s.Hand.Options()
	if !ok {
		return "", false
	}
	seat := s.Rec.Seats[s.Rec.Hand.Seats[o.Player]]
	// The bell begins every ping: the console tells a ping from a table message by it.
	text = fmt.Sprintf("🔔 %s, it is your turn in hand #%d", Mention(s.Rec.Platform, seat.User, seat.Name), s.Rec.Hand.No)
	if o.ToCall > 0 {
		text += fmt.Sprintf(": %s to call", render.Chips(o.ToCall))
	}
	if !deadline.IsZero() {
		// To the nearest second: a ping timed at 10 s left fires a hair after, which is still "10 s".
		text += fmt.Sprintf(", %d s left", max(int((deadline.Sub(now)+time.Second/2-1)/time.Second), 0))
	}
	return text + ".", true
}

// Mention writes a user mention that notifies them: <@ID> on Discord and Slack, @name elsewhere.
func Mention(platform, user, name string) string {
	switch platform {
	case "discord", "slack":
		return "<@" + user + ">"
	}
	return "@" + name
}
