package schedule

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/dealerbot/dealerbot/render"
)

// Store keeps schedules, RSVPs and results. storage.DB implements it; each method is one transaction.
type Store interface {
	// PutSchedule writes s; when s.ID is empty it first gives s a new ID. A schedule with an ID is
	// written only while the stored one is still at s.Version (removed or written meanwhile: an
	// error, nothing written); on success s.Version is the new version.
	PutSchedule(ctx context.Context, s *Schedule) error
	// DeleteSchedule removes a schedule and its RSVPs; its results stay for the season.
	DeleteSchedule(ctx context.Context, id string) error
	// Schedules returns every schedule, ordered by ID.
	Schedules(ctx context.Context) ([]Schedule, error)
	// PutRSVP records a player's answer for one game, replacing an earlier one.
	PutRSVP(ctx context.Context, r RSVP) error
	// RSVPs returns the answers for one game, in the order they were first given.
	RSVPs(ctx context.Context, schedule string, game time.Time) ([]RSVP, error)
	// PutResult records a game's result and writes s (which has settled the game) together, s on
	// the same condition as PutSchedule (a schedule removed meanwhile: the result alone).
	PutResult(ctx context.Context, r Result, s *Schedule) error
	// Results returns a schedule's results, oldest game first.
	Results(ctx context.Context, schedule string) ([]Result, error)
}

// Host is what the scheduler needs from the dealer.
type Host interface {
	// Post sends a public message to the schedule's channel. key names the message: the same key
	// again is the same message sent again (after a crash), which the chat shows once where the
	// platform can tell.
	Post(ctx context.Context, s *Schedule, key string, m render.Message) error
	// Open opens the schedule's table for game with its game settings (s.Options), hosted by s.Host,
	// to end at game.End. The error is shown in the channel when it is a player error (another table
	// running).
	Open(ctx context.Context, s *Schedule, game Session) error
	// Found reports what became of game's table: never opened, open, or opened and closed again (its
	// session is stored). A tick that stopped between opening a table and saving that it did asks
	// before it opens one.
	Found(ctx context.Context, s *Schedule, game Session) (Found, error)
	// Finish returns each player's net result for the game that started at game.Start once the
	// session is over; done is false while it still runs. With end set (the end time has come) it
	// first ends the session if it still runs: the hand in play is finished first, so done may stay
	// false for a while. Without end it only looks (a session may end early, when one player has
	// every chip).
	Finish(ctx context.Context, s *Schedule, game Session, end bool) (players []Balance, done bool, err error)
}

// Found is what became of a game's table (Host.Found).
type Found uint8

// What became of a game's table.
const (
	NotOpened Found = iota
	IsOpen
	Played // opened and closed again: its session is stored
)

// Request is who sent a scheduler's command, and where: the dealer's registry has taken the verb
// off the command line, and its gate has checked the user may run it.
type Request struct {
	Platform  string
	Workspace string
	Channel   string
	User      string
	UserName  string
	Token     string // the schedule ID on an RSVP button
	// Key is the platform's ID of the delivery (bot.Command.ID), empty when it has none: the store
	// adds a schedule once per key.
	Key string
}

// Reply is the private answer to a command. A refusal is the command's error instead.
type Reply struct {
	Text    string
	Buttons []render.Button
}

// Manager answers the schedule commands and fires due events. Its zero value is not usable: set
// Store, Host and Options. It is safe for concurrent use; commands and ticks run one at a time.
type Manager struct {
	Store Store
	Host  Host
	// Now is the clock; default time.Now.
	Now func() time.Time
	// DefaultZone is the time zone of a schedule added without tz=; default UTC.
	DefaultZone string
	// Options checks a schedule's game settings (the `start` options) and describes them in one line.
	// The error is shown to the host as it is.
	Options func(opts []string) (string, error)
	// Claim, when set, says whether this process fires s's events, and returns the context its
	// writes for s are made with (one carrying the lease's fence when processes share the store):
	// only the owner of a schedule's community fires it, so each event fires once. Nil: every
	// schedule is this process's.
	Claim func(ctx context.Context, s *Schedule) (context.Context, bool)
	// Mention writes a user mention; default <@ID> on Discord and Slack, @Name elsewhere.
	Mention func(platform, user, name string) string
	// Changed is called after a schedule is added, removed or advanced, so the cron wiring can
	// register it again; nil for none.
	Changed func(s *Schedule, removed bool)
	// Logger receives internal errors; default discards.
	Logger *slog.Logger
	// Also, when set, runs at every tick before the schedules (the dealer's debt reminders).
	Also func(ctx context.Context) error

	mu sync.Mutex
}

func (m *Manager) now() time.Time {
	if m.Now != nil {
		return m.Now()
	}
	return time.Now()
}

func (m *Manager) log() *slog.Logger {
	if m.Logger != nil {
		return m.Logger
	}
	return slog.New(slog.DiscardHandler)
}

func (m *Manager) mention(platform, user, name string) string {
	if m.Mention != nil {
		return m.Mention(platform, user, name)
	}
	if platform == "discord" || platform == "slack" {
		return "<@" + user + ">"
	}
	return "@" + name
}
