package record

// The records of a whole store as they are stored, for copying one store into another record for
// record (`dealerbot migrate` from bbolt into PostgreSQL, `dealerbot backup` the other way):
// re-applying the ledger through Commit would grant again and count hands again, and re-encoding
// records could change them. Each store reads its own Snapshot and Counts and imports a Snapshot.

import (
	"context"

	"github.com/dealerbot/dealerbot/bot"
	"github.com/dealerbot/dealerbot/bot/table"
)

// Snapshot is everything a store holds but its leases, as stored: each record's key and its bytes
// (JSON, or the binary form of hands and ledger events), and the sequences that number new records.
// Leases are left out: they belong to the processes that used the store, and a new store's processes
// claim their own.
type Snapshot struct {
	Players   []table.PlayerRecord // in key order: workspace, then user
	Ledger    []LedgerRecord       // one per event, in sequence order
	Tables    []RawTable           // open tables, by ID
	Actions   []RawActions         // the action log of each running hand, by table ID
	Sessions  []RawSession         // in sequence order
	Schedules []RawSchedule        // by ID
	RSVPs     []RawRSVP            // by schedule, game and user
	Results   []RawResult          // by schedule and game; a removed schedule's results stay
	Money     []RawMoney           // the money books, by community and number
	Handles   []RawHandle          // payment handles, by community and user

	Installations []bot.Installation // the chat apps' installations, sealed tokens as they are
	DMChannels    []DMChannel        // the DM channels the adapters keep

	// The sequences: the last number given to a ledger event, a session and a schedule. They
	// may be ahead of the last record (a schedule removed), and a copy must not number anew from
	// below them: a new schedule under a removed one's number would inherit its results.
	LedgerSeq, SessionSeq, ScheduleSeq uint64

	// Hands calls fn with every finished hand, table by table and in hand order (kept hands after
	// the hand whose number they share), reading them in batches so that any number of hands is
	// copied in little memory. It stops at fn's first error.
	Hands func(ctx context.Context, fn func(RawHand) error) error
}

// RawTable is an open table's record (JSON table.TableRecord) and its community.
type RawTable struct {
	ID, Community string
	Rec           []byte
}

// RawActions is the action log of a table's running hand (JSON table.ActionLog).
type RawActions struct {
	Table string
	Rec   []byte
}

// RawHand is a finished hand (binary, see EncodeHand). Kept is 0 for the first hand stored under its
// number and 1, 2, ... for the ones kept beside it (hands of the same number, written by a version
// that numbered each session's hands from 1), in the order they were kept.
type RawHand struct {
	Table string
	No    int64
	Kept  int
	Rec   []byte
}

// RawSession is a finished session (JSON table.SessionRecord) and its sequence number.
type RawSession struct {
	Seq uint64
	Rec []byte
}

// RawSchedule is a schedule (JSON schedule.Schedule) under its number, and its community.
type RawSchedule struct {
	ID        uint64
	Community string
	Rec       []byte
}

// RawRSVP is an answer (JSON schedule.RSVP) under its key: schedule, game (Unix nanoseconds) and user.
type RawRSVP struct {
	Schedule uint64
	Game     int64
	User     string
	Rec      []byte
}

// RawResult is a game's result (JSON schedule.Result) under its key: schedule and game.
type RawResult struct {
	Schedule uint64
	Game     int64
	Rec      []byte
}

// RawMoney is a money book's event (JSON money.Event) under its community and number.
type RawMoney struct {
	Community string
	Seq       uint64
	Rec       []byte
}

// RawHandle is a player's payment handle (JSON money.Handle).
type RawHandle struct {
	Community, User string
	Rec             []byte
}

// DMChannel is one kept DM channel, as a Snapshot lists them.
type DMChannel struct{ Platform, User, Channel string }

// Counts are how many records of each kind a store holds, which `dealerbot migrate` and `dealerbot
// backup` compare between a database and its copy.
type Counts struct {
	Players         int
	LedgerEntries   int // entries, not records: a hand's results share a record
	Tables          int // open tables
	HandsInProgress int // open tables with a hand in progress
	Hands           int // finished hands, kept ones included
	Sessions        int
	Schedules       int
	RSVPs           int
	Results         int
	MoneyEvents     int // events of the money books
	Handles         int // payment handles
	Installations   int
	DMChannels      int
}
