package bot

import (
	"context"
	"errors"
	"time"

	"github.com/dealerbot/dealerbot/bot/errs"
	"github.com/dealerbot/dealerbot/bot/money"
	"github.com/dealerbot/dealerbot/bot/own"
	"github.com/dealerbot/dealerbot/bot/table"
)

// Store keeps everything the dealer must not lose. Each method is one transaction: Commit applies a
// whole Change or nothing, so what a finished hand changes (stacks, ledger, history) lands together.
// storage.DB (bbolt) and postgres.DB (storage/postgres) implement it; the interface lives here, where
// it is used.
type Store interface {
	// Tables returns every open table, as last committed.
	Tables(ctx context.Context) ([]table.TableRecord, error)
	// Table returns one open table, as last committed; ok is false when the channel has none.
	Table(ctx context.Context, id string) (t table.TableRecord, ok bool, err error)
	// Commit applies a change atomically. It returns ErrInsufficient, changing nothing, when a ledger
	// entry would take a bankroll below zero.
	Commit(ctx context.Context, c table.Change) error
	// Player returns a player's record in a workspace; ok is false for a player never seen.
	Player(ctx context.Context, workspace, user string) (p table.PlayerRecord, ok bool, err error)
	// Players returns every player of a workspace.
	Players(ctx context.Context, workspace string) ([]table.PlayerRecord, error)
	// Hands returns up to n finished hands of a table, the most recent first.
	Hands(ctx context.Context, table string, n int) ([]table.HandRecord, error)
	// Hand returns hand number no of a table; ok is false when there is none.
	Hand(ctx context.Context, table string, no int64) (h table.HandRecord, ok bool, err error)
	// Sessions returns every finished session, oldest first.
	Sessions(ctx context.Context) ([]table.SessionRecord, error)
	// Landed reports whether a write keyed key (table.Change.Once, money.Event.Key) was applied:
	// how a writer whose answer was lost (ErrOutcomeUnknown) learns the truth.
	Landed(ctx context.Context, key string) (bool, error)
	// The money books and payment handles (package money): a money table's session ends with its
	// settle-up, written with it.
	money.Store
}

// ErrMoneyMoved is AppendMoney's refusal when the book has events the caller did not see
// (money.ErrMoved).
var ErrMoneyMoved = money.ErrMoved

// ErrInsufficient is returned by Store.Commit when a bankroll would go below zero
// (errs.ErrInsufficient, which the ledger's verbs read).
var ErrInsufficient = errs.ErrInsufficient

// ErrApplied is returned by Commit for a Change whose Once ID was already applied: the delivery it
// came from arrived twice, and the second time changes nothing.
var ErrApplied = errs.ErrApplied

// ErrOutcomeUnknown is wrapped by Commit's error when the change may have landed although the call
// failed: the request reached the database and its answer was lost (the connection broke around
// COMMIT, or the wait was cut short while the database worked). Nobody may be told "nothing
// changed" on it: the dealer reads the table back first (actor.settle). It is errs.ErrOutcomeUnknown,
// which the features' writes meet too.
var ErrOutcomeUnknown = errs.ErrOutcomeUnknown

// ErrStale is returned by Commit for a stepped Change (table.Change.Step) whose table is no longer
// at the version the step was computed from: another change landed first (the same step retried
// after it landed, or a writer that no longer owns the table), and nothing was written.
var ErrStale = errors.New("the table changed since that step was computed")

// Fence is the lease a Change is written under (table.Fence).
type Fence = table.Fence

// What a store offers processes that share it lives with the ownership of communities, in package
// bot/own; the stores (storage/...), cmd/dealerbot and the tests name it here too.
type (
	Lease     = own.Lease
	Leases    = own.Leases
	Inbox     = own.Inbox
	Forwarded = own.Forwarded
)

// DefaultLease is how long a lease lasts without renewal when Config.Lease is 0 (own.DefaultLease).
const DefaultLease = own.DefaultLease

// The errors of leases and of a store out of reach (package bot/own), for the stores to return.
var (
	ErrOwned            = own.ErrOwned
	ErrNotOwner         = own.ErrNotOwner
	ErrNoReply          = own.ErrNoReply
	ErrStoreUnreachable = own.ErrStoreUnreachable
)

// DMChannels is an optional Store capability for adapters that must open a direct-message channel
// before they can DM a user (Discord): the channel's ID, kept across restarts, so that a restarted
// dealer does not open one again for every player (a request each against the platform's limits).
// It is a cache: a channel it returns may have to be opened anew, and nothing else depends on it.
type DMChannels interface {
	// DMChannel returns the DM channel kept for user on platform; ok is false when there is none.
	DMChannel(ctx context.Context, platform, user string) (channel string, ok bool, err error)
	// PutDMChannel keeps channel as user's DM channel on platform, replacing any other.
	PutDMChannel(ctx context.Context, platform, user, channel string) error
}

// Installation is a chat app's installation in one workspace, for a dealer that serves many (Slack's
// OAuth v2: every workspace that installs the app gives it a bot token of its own). The adapter that
// uses it seals the token before it is stored and opens it after it is read: a store keeps Token as
// opaque bytes and never sees a token in the clear.
type Installation struct {
	Platform    string // "slack"
	Workspace   string // the workspace (Slack team) ID
	Name        string // the workspace's name, for logs and the install page
	BotUser     string // the bot's user ID in the workspace
	Scopes      []string
	Token       []byte    // the bot token, sealed by the adapter
	InstalledBy string    // the user who installed the app
	Installed   time.Time // when
}

// Installations keeps the installations of a dealer that serves many workspaces, one per workspace.
// storage.DB and the PostgreSQL store implement it; each method is one transaction.
type Installations interface {
	// PutInstallation stores in, replacing the workspace's installation if there is one (the app
	// installed again).
	PutInstallation(ctx context.Context, in Installation) error
	// Installation returns a workspace's installation; ok is false when there is none.
	Installation(ctx context.Context, platform, workspace string) (in Installation, ok bool, err error)
	// DeleteInstallation removes a workspace's installation; removing one that is not there is not
	// an error.
	DeleteInstallation(ctx context.Context, platform, workspace string) error
}
