package table

import (
	"fmt"
	"time"

	"github.com/dealerbot/dealerbot/render"
)

// The dealer's chores that are decisions, not delivery: how long a turn lasts, and what a ping says.
// The shell arms the timers and sends the ping; the core decides.

// RestartGrace is the least time a player gets to act when the dealer resumes a turn after a
// restart or a takeover (never more than the table's own timer).
const RestartGrace = 15 * time.Second

// TurnWait is how long the player to act has from now: the table's timer, or, when the hand's
// stored deadline leaves less (the dealer restarted, or another process took the table over), the
// time left, but at least RestartGrace and never more than the timer. 0: the table has no timer.
func (s State) TurnWait(now time.Time) time.Duration {
	wait := time.Duration(s.Rec.Settings.Timer) * time.Second
	if wait <= 0 || s.Rec.Hand == nil {
		return max(wait, 0)
	}
	if dl := s.Rec.Hand.Deadline; !dl.IsZero() {
		if left := dl.Sub(now); left < wait {
			wait = max(left, min(RestartGrace, wait))
		}
	}
	return wait
}

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
		text += fmt.Sprintf(", %d s left", max(int(deadline.Sub(now)/time.Second), 0))
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
