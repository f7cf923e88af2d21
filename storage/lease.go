package storage

// Leases in bbolt: bucket "leases" (community -> JSON lease). One process holds the file, so a lease
// here never changes hands between processes; the store keeps them anyway, with the same meaning as
// the PostgreSQL store, so the dealer runs one way on both and one conformance suite checks both.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/dealerbot/dealerbot/bot"
	"github.com/dealerbot/dealerbot/bot/schedule"
	"github.com/dealerbot/dealerbot/bot/table"
)

var bucketLeases = []byte("leases")

var _ bot.Leases = (*DB)(nil)

type leaseRec struct {
	Owner   string
	Epoch   int64
	Expires time.Time
}

func getLease(tx *bolt.Tx, community string) (leaseRec, bool, error) {
	b := tx.Bucket(bucketLeases)
	if b == nil {
		return leaseRec{}, false, nil
	}
	v := b.Get([]byte(community))
	if v == nil {
		return leaseRec{}, false, nil
	}
	var l leaseRec
	if err := json.Unmarshal(v, &l); err != nil {
		return leaseRec{}, false, fmt.Errorf("lease of %s: %w", community, err)
	}
	return l, true, nil
}

func putLease(tx *bolt.Tx, community string, l leaseRec) error {
	b, err := tx.CreateBucketIfNotExists(bucketLeases)
	if err != nil {
		return err
	}
	return put(b, []byte(community), l)
}

// checkFence fails with bot.ErrNotOwner unless f (if any) is community's lease.
func checkFence(tx *bolt.Tx, f *table.Fence) error {
	if f == nil {
		return nil
	}
	l, ok, err := getLease(tx, f.Community)
	if err != nil {
		return err
	}
	if !ok || l.Owner != f.Owner || l.Epoch != f.Epoch {
		return fmt.Errorf("the lease of %s is not held by %s at epoch %d: %w", f.Community, f.Owner, f.Epoch, bot.ErrNotOwner)
	}
	return nil
}

func (d *DB) now() time.Time { return time.Now() }

func (l leaseRec) lease(community string, now time.Time) bot.Lease {
	return bot.Lease{Community: community, Owner: l.Owner, Epoch: l.Epoch, Expires: l.Expires, Live: l.Owner != "" && l.Expires.After(now)}
}

// Claim takes community for owner when it is free or its lease expired, with the next epoch.
func (d *DB) Claim(ctx context.Context, community, owner string, ttl time.Duration) (bot.Lease, error) {
	if owner == "" {
		return bot.Lease{}, errors.New("claim a community: no owner given")
	}
	var out bot.Lease
	err := d.update(func(tx *bolt.Tx) error {
		now := d.now()
		l, _, err := getLease(tx, community)
		if err != nil {
			return err
		}
		if l.Owner != "" && l.Expires.After(now) {
			return fmt.Errorf("claim %s: %w", community, bot.ErrOwned)
		}
		l = leaseRec{Owner: owner, Epoch: l.Epoch + 1, Expires: now.Add(ttl)}
		out = l.lease(community, now)
		return putLease(tx, community, l)
	})
	return out, err
}

// Renew extends a lease still held at its epoch.
func (d *DB) Renew(ctx context.Context, lease bot.Lease, ttl time.Duration) (bot.Lease, error) {
	var out bot.Lease
	err := d.update(func(tx *bolt.Tx) error {
		if err := checkFence(tx, lease.Fence()); err != nil {
			return fmt.Errorf("renew %s: %w", lease.Community, bot.ErrNotOwner)
		}
		now := d.now()
		l := leaseRec{Owner: lease.Owner, Epoch: lease.Epoch, Expires: now.Add(ttl)}
		out = l.lease(lease.Community, now)
		return putLease(tx, lease.Community, l)
	})
	return out, err
}

// Release frees a lease still held at its epoch.
func (d *DB) Release(ctx context.Context, lease bot.Lease) error {
	return d.update(func(tx *bolt.Tx) error {
		if checkFence(tx, lease.Fence()) != nil {
			return nil // no longer ours: nothing to give up
		}
		return putLease(tx, lease.Community, leaseRec{Epoch: lease.Epoch, Expires: d.now()})
	})
}

// Communities returns every community with open tables, schedules or a lease, with its lease.
func (d *DB) Communities(ctx context.Context) ([]bot.Lease, error) {
	seen := map[string]bot.Lease{}
	err := d.view(func(tx *bolt.Tx) error {
		now := d.now()
		// One table of each community is read: the others are under the same prefix (the ID is
		// community/channel), which the cursor then jumps past.
		cur := tx.Bucket(bucketTables).Cursor()
		for k, v := cur.First(); k != nil; {
			var t struct{ Platform, Workspace string }
			if err := json.Unmarshal(v, &t); err != nil {
				return fmt.Errorf("table %s: %w", k, err)
			}
			c := table.Community(t.Platform, t.Workspace)
			seen[c] = bot.Lease{Community: c}
			if prefix := []byte(c + "/"); bytes.HasPrefix(k, prefix) {
				k, v = cur.Seek(append([]byte(c), '/'+1)) // the first key after the prefix
			} else {
				k, v = cur.Next()
			}
		}
		if b := tx.Bucket(schedBucketSchedules); b != nil {
			err := b.ForEach(func(k, v []byte) error {
				var s schedule.Schedule
				if err := json.Unmarshal(v, &s); err != nil {
					return fmt.Errorf("schedule %x: %w", k, err)
				}
				c := table.Community(s.Platform, s.Workspace)
				seen[c] = bot.Lease{Community: c}
				return nil
			})
			if err != nil {
				return err
			}
		}
		if b := tx.Bucket(bucketLeases); b != nil {
			return b.ForEach(func(k, v []byte) error {
				var l leaseRec
				if err := json.Unmarshal(v, &l); err != nil {
					return fmt.Errorf("lease of %s: %w", k, err)
				}
				seen[string(k)] = l.lease(string(k), now)
				return nil
			})
		}
		return nil
	})
	out := make([]bot.Lease, 0, len(seen))
	for _, l := range seen {
		out = append(out, l)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Community < out[j].Community })
	return out, err
}

// CommunityTables returns the open tables of one community. A table's ID is its community, a
// slash and its channel (platform/workspace/channel), so the community's tables are the keys under
// that prefix: it reads those only, not every open table (BenchmarkClaimManyTables).
func (d *DB) CommunityTables(ctx context.Context, community string) ([]table.TableRecord, error) {
	var out []table.TableRecord
	err := d.view(func(tx *bolt.Tx) error {
		prefix := []byte(community + "/")
		c := tx.Bucket(bucketTables).Cursor()
		for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
			t, err := readTable(tx, k, v)
			if err != nil {
				return err
			}
			if table.Community(t.Platform, t.Workspace) == community { // not a workspace with a slash in its name
				out = append(out, t)
			}
		}
		return nil
	})
	return out, err
}
