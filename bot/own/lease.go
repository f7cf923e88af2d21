package own

import (
	"context"
	"errors"
	"time"

	"github.com/dealerbot/dealerbot/bot/table"
	"github.com/dealerbot/dealerbot/bot/vocab"
)

// Lease is a community's ownership as the store keeps it: who owns it, at which epoch, until when.
// A lease with no Owner is free. Epoch goes up by one at every claim that changes hands, so a
// process that lost a lease and claims it back holds a different lease than before.
type Lease struct {
	Community string
	Owner     string
	Epoch     int64
	Expires   time.Time // by the store's clock (the database server's, for PostgreSQL)
	Live      bool      // Owner is set and Expires is still ahead by the store's clock
}

// Fence is the fencing token of the lease.
func (l Lease) Fence() *table.Fence {
	return &table.Fence{Community: l.Community, Owner: l.Owner, Epoch: l.Epoch}
}

// Leases is what a store offers processes that share it: each community is owned by one process at
// a time through a lease row with an epoch, and Commit of a Change with a Fence checks that lease in
// its own transaction. Every time is the store's own, so processes on machines whose clocks differ
// agree on when a lease expires.
type Leases interface {
	// Claim makes owner the owner of community when the community is free or its lease has expired,
	// with a new epoch, for ttl (a ttl of zero or less claims a lease that has already expired). It
	// returns ErrOwned when another owner's lease is live (or owner's own: renew that with Renew).
	Claim(ctx context.Context, community, owner string, ttl time.Duration) (Lease, error)
	// Renew extends a lease still held at its epoch, even one past its expiry that nobody took.
	// It returns ErrNotOwner when the lease has changed hands (or was released).
	Renew(ctx context.Context, l Lease, ttl time.Duration) (Lease, error)
	// Release frees a lease held at its epoch, so another process may claim it at once. Releasing
	// a lease no longer held is not an error.
	Release(ctx context.Context, l Lease) error
	// Communities returns every community the store knows of (those with open tables, schedules or a
	// lease), with its lease, ordered by name.
	Communities(ctx context.Context) ([]Lease, error)
	// CommunityTables returns the open tables of one community, as the dealer's Store.Tables does.
	CommunityTables(ctx context.Context, community string) ([]table.TableRecord, error)
}

// ErrOwned is returned by Leases.Claim when another process owns the community.
var ErrOwned = errors.New("another dealer process owns this community")

// ErrNotOwner is returned by Renew, and by Commit for a Change whose Fence is no longer the
// community's lease: the process lost the community, and nothing was written.
var ErrNotOwner = errors.New("this dealer process no longer owns the community")

// ErrStoreUnreachable is wrapped by a store's errors when it cannot reach its database (the
// PostgreSQL server is down or cut off): the player is told that nothing changed. Owner.Serve and
// Owner.Ready return it too, for a lease this process has not managed to renew.
var ErrStoreUnreachable = errors.New("the dealer cannot reach its database")

// Inbox is what a shared store offers for commands that reach a process which does not own their
// community: the receiving process forwards them, the owner applies them in order and answers.
type Inbox interface {
	// Forward queues cmd (with an ID) for community's owner and waits for the reply until ctx ends
	// (ErrNoReply: the command stays queued, and is applied when an owner serves the community).
	Forward(ctx context.Context, community string, cmd vocab.Command) (vocab.Reply, error)
	// Pending returns the unanswered commands of the given communities, oldest first.
	Pending(ctx context.Context, communities []string) ([]Forwarded, error)
	// Answer stores the reply to a forwarded command and forgets its short-lived credentials
	// (vocab.Command.Followup). When ctx carries a fence (table.WithFence), the answer is stored only
	// while the fence is the community's lease (ErrNotOwner otherwise, and the command stays for the
	// owner): a process that lost the community cannot answer for it.
	Answer(ctx context.Context, seq int64, r vocab.Reply) error
	// Doorbell receives when a command was forwarded, until ctx ends.
	Doorbell(ctx context.Context) <-chan struct{}
	// Prune forgets answered commands and applied delivery IDs older than keep.
	Prune(ctx context.Context, keep time.Duration) error
}

// Forwarded is a command in the inbox.
type Forwarded struct {
	Seq int64
	Cmd vocab.Command
	Age time.Duration // how long it has waited, by the store's clock
}

// ErrNoReply is returned by Inbox.Forward when the owner did not answer in time.
var ErrNoReply = errors.New("the owner did not answer in time")
