// Package schedule runs weekly home games: it parses when a game is (cron or friendly forms such as
// `weekly fri 20:00`) in the schedule's own time zone, works out which announcements, reminders and
// table openings are due at a given moment, keeps RSVPs, and turns session results into settle-up
// payments and a season leaderboard.
//
// The package is pure where it can be: Parse, Spec.Next, Due, SettleUp and Season take their inputs
// and a time, never a clock. Manager handles the chat commands and Runner fires due events; both take
// an injected clock, a Store (storage.DB) and a Host (the dealer), so tests drive them without sleeping.
package schedule

import (
	"slices"
	"strings"
	"time"

	"github.com/dealerbot/dealerbot/bot/money"
	"github.com/dealerbot/dealerbot/render"
)

// Defaults for a new schedule.
const (
	DefaultAnnounce = 24 * time.Hour   // the announcement with RSVP buttons, before the start
	DefaultRemind   = 30 * time.Minute // the reminder to those who said yes, before the start
	DefaultLength   = 3 * time.Hour    // how long a game lasts when no length or end is given
	// Grace is how late the runner may still open a table. A start found more than Grace in the past
	// (the bot was down) is announced as missed instead.
	Grace = 10 * time.Minute
	// SettleWait is how long after the end time the runner keeps waiting for the last hand to finish
	// before it settles with whatever results there are.
	SettleWait = 2 * time.Hour
)

// Schedule is one recurring home game and the runner's progress through it.
type Schedule struct {
	ID        string
	Platform  string
	Workspace string
	Channel   string
	Host      string // user who added it; may manage it besides admins
	HostName  string
	When      string // as the host wrote it: "weekly fri 20:00"
	Cron      string // five standard fields
	Zone      string // IANA name
	From      time.Time
	Until     time.Time
	Length    time.Duration
	Announce  time.Duration
	Remind    time.Duration
	Options   []string // game settings as `start` options: "blinds=10/20", "levels=20m"
	Game      string   // the settings described for players: "no-limit 10/20, buy-in 1,000 ..."
	Created   time.Time

	// Runner state: the game being worked toward and what has been done for it.
	Next      time.Time
	Announced bool
	Reminded  bool
	Skip      []time.Time // games the host skipped
	Open      []Session   // games started and not yet settled
	// Posts are the channel messages the schedule owes (its outbox), oldest first: each is stored
	// in the same write as the progress that made it due and taken off once it went out, so a crash
	// or a lost answer in between sends it again, under the same key.
	Posts []Post `json:",omitempty"`

	// Version counts the schedule's writes: the store writes a schedule only while it is still at
	// the version it was read at (a command or a tick elsewhere wrote it meanwhile: refused), and
	// moves it on.
	Version int64 `json:",omitempty"`
	// Key, on a schedule being added, names the request that adds it: the store keeps it under a
	// unique constraint with the new schedule (an add delivered twice adds one). Not stored.
	Key string `json:"-"`
}

// Session is one game that was started.
type Session struct {
	Start time.Time
	End   time.Time
	// Waiting is set while the game's table could not be opened (another table is open in the
	// channel): the runner tries again at every tick until the end time.
	Waiting bool `json:",omitempty"`
	// Opening is set from the game's start until its table is open (or found waiting): a tick
	// stopped in between leaves it for the next tick, which asks what became of the table
	// (Host.Found) before it opens one, and posts the opening.
	Opening bool `json:",omitempty"`
}

// Post is a channel message a schedule owes. Key names it for the chat, which shows a message sent
// twice under one key once where the platform can tell (bot.Message.Key); Made is when it fell due.
type Post struct {
	Key     string
	Made    time.Time
	Message render.Message
}

// Spec parses the schedule's stored when.
func (s *Schedule) Spec() (*Spec, error) {
	return Restore(s.Cron, s.Zone, s.From, s.Until)
}

// Skipped reports whether the game at t was skipped.
func (s *Schedule) Skipped(t time.Time) bool {
	return slices.ContainsFunc(s.Skip, t.Equal)
}

// Upcoming returns up to n games after now that will be played (skipped ones left out), in the
// schedule's own zone.
func (s *Schedule) Upcoming(now time.Time, n int) []time.Time {
	spec, err := s.Spec()
	if err != nil {
		return nil
	}
	var out []time.Time
	t := now
	if s.Next.After(now) {
		t = s.Next.Add(-time.Second)
	}
	for len(out) < n {
		t = spec.Next(t)
		if t.IsZero() {
			break
		}
		if !s.Skipped(t) {
			out = append(out, t)
		}
	}
	return out
}

// Kind is the kind of a due event.
type Kind uint8

// The event kinds, in the order they happen for one game.
const (
	Announce Kind = iota // post the game with RSVP buttons
	Remind               // remind those who said yes
	Start                // open the table and ping the RSVPs
	Missed               // the start passed while the bot was down
	Settle               // the game's end time passed: end it, post results and the settle-up
)

func (k Kind) String() string {
	return [...]string{"announce", "remind", "start", "missed", "settle"}[k]
}

// Event is something due for one schedule. At is the game's start time; for Missed it is the last
// game missed and Count how many were missed in a row.
type Event struct {
	Kind     Kind
	Schedule string
	At       time.Time
	End      time.Time // Start and Settle: when the game ends
	Count    int
}

// Due advances s to now and returns what has become due, in order: settlements of games past their
// end, then for each game in turn its announcement, reminder and start (or one Missed event for a run
// of games whose start passed more than Grace ago). A game started late, within Grace, gets no
// announcement or reminder any more. Due is idempotent: calling it again at the same
// time returns only Settle events for games not yet settled (see Settled). The caller persists s.
func Due(s *Schedule, spec *Spec, now time.Time) []Event {
	var out []Event
	for _, o := range s.Open {
		if !now.Before(o.End) {
			out = append(out, Event{Kind: Settle, Schedule: s.ID, At: o.Start, End: o.End})
		}
	}
	missed := Event{Kind: Missed, Schedule: s.ID}
	flushMissed := func() {
		if missed.Count > 0 {
			out = append(out, missed)
			missed.Count = 0
		}
	}
	for !s.Next.IsZero() {
		at := s.Next
		switch {
		case s.Skipped(at):
			if now.Before(at) {
				flushMissed()
				return out
			}
		case now.After(at.Add(Grace)):
			missed.At = at
			missed.Count++
		default:
			flushMissed()
			if !now.Before(at) {
				// Starting late (the bot was down): the start message pings everyone, so an
				// announcement or reminder now would only be noise.
				s.Announced, s.Reminded = true, true
			}
			if !s.Announced && !now.Before(at.Add(-s.Announce)) {
				out = append(out, Event{Kind: Announce, Schedule: s.ID, At: at, End: at.Add(s.Length)})
				s.Announced = true
			}
			if !s.Reminded && !now.Before(at.Add(-s.Remind)) {
				out = append(out, Event{Kind: Remind, Schedule: s.ID, At: at, End: at.Add(s.Length)})
				s.Reminded = true
			}
			if now.Before(at) {
				return out
			}
			out = append(out, Event{Kind: Start, Schedule: s.ID, At: at, End: at.Add(s.Length)})
			s.Open = append(s.Open, Session{Start: at, End: at.Add(s.Length), Opening: true})
		}
		s.advance(spec.Next(at))
	}
	flushMissed()
	return out
}

// advance moves to the game at next, forgetting the skip of the game just passed.
func (s *Schedule) advance(next time.Time) {
	prev := s.Next
	s.Skip = slices.DeleteFunc(s.Skip, func(t time.Time) bool { return !t.After(prev) })
	s.Next = next
	s.Announced, s.Reminded = false, false
}

// Settled forgets the open game that started at start, once its results are recorded.
func (s *Schedule) Settled(start time.Time) {
	s.Open = slices.DeleteFunc(s.Open, func(o Session) bool { return o.Start.Equal(start) })
}

// Answer is an RSVP answer.
type Answer string

// The RSVP answers; they are also the button commands' last word ("rsvp yes").
const (
	Yes   Answer = "yes"
	Maybe Answer = "maybe"
	No    Answer = "no"
)

// RSVP is one player's answer for one game.
type RSVP struct {
	Schedule string
	Game     time.Time // the game's start
	User     string
	Name     string
	Answer   Answer
	Time     time.Time // when they answered
}

// Result is one finished game's net results.
type Result struct {
	Schedule string
	Game     time.Time
	Ended    time.Time
	Players  []Balance
	// Money: the game was played for money (value=), so the dealer posted its settle-up in money and
	// the results message leaves it out.
	Money bool `json:",omitempty"`
}

// forMoney reports whether game options play for money (value= other than off).
func forMoney(opts []string) bool {
	for _, o := range opts {
		k, v, _ := strings.Cut(strings.ToLower(o), "=")
		if k == "value" && v != "off" && v != "no" && v != "0" && v != "" {
			return true
		}
	}
	return false
}

// Balance is a player's net result: positive won, negative lost (the settle-up's, money.Balance).
type Balance = money.Balance
