package storage

// Scheduled home games (bot/schedule) keep their own buckets, created on first write:
// "sched_schedules" (big-endian schedule number -> JSON schedule.Schedule, with the runner's progress),
// "sched_rsvps" (schedule number, game time, user -> JSON schedule.RSVP) and "sched_results"
// (schedule number, game time -> JSON schedule.Result). Results outlive their schedule so the season
// leaderboard still has them.

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/dealerbot/dealerbot/bot"
	"github.com/dealerbot/dealerbot/bot/schedule"
	"github.com/dealerbot/dealerbot/bot/table"
)

var (
	schedBucketSchedules = []byte("sched_schedules")
	schedBucketRSVPs     = []byte("sched_rsvps")
	schedBucketResults   = []byte("sched_results")
)

var _ schedule.Store = (*DB)(nil)

// schedID turns a schedule ID ("12") into its 8-byte key.
func schedID(id string) ([]byte, error) {
	n, err := strconv.ParseUint(id, 10, 64)
	if err != nil || n == 0 {
		return nil, fmt.Errorf("schedule ID %q is not a positive number", id)
	}
	return binary.BigEndian.AppendUint64(nil, n), nil
}

// schedGameKey is the schedule's key followed by the game's time, so a prefix scan finds a schedule's
// games in time order.
func schedGameKey(id []byte, game time.Time) []byte {
	k := append([]byte(nil), id...)
	return binary.BigEndian.AppendUint64(k, uint64(game.UnixNano()))
}

func schedBuckets(tx *bolt.Tx) (s, r, res *bolt.Bucket, err error) {
	if s, err = tx.CreateBucketIfNotExists(schedBucketSchedules); err != nil {
		return
	}
	if r, err = tx.CreateBucketIfNotExists(schedBucketRSVPs); err != nil {
		return
	}
	res, err = tx.CreateBucketIfNotExists(schedBucketResults)
	return
}

// PutSchedule writes s; when s.ID is empty it first gives s the next schedule number.
func (d *DB) PutSchedule(ctx context.Context, s *schedule.Schedule) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	id := s.ID
	err := d.update(func(tx *bolt.Tx) error {
		if err := checkFence(tx, table.FenceFrom(ctx)); err != nil {
			return err
		}
		b, _, _, err := schedBuckets(tx)
		if err != nil {
			return err
		}
		cp := *s
		if cp.ID == "" && s.Key != "" { // the request that adds it, applied once
			if err := applyOnce(tx, s.Key); err != nil {
				return err
			}
		}
		if cp.ID == "" {
			n, err := b.NextSequence()
			if err != nil {
				return err
			}
			cp.ID = strconv.FormatUint(n, 10)
			cp.Version = 0
		}
		key, err := schedID(cp.ID)
		if err != nil {
			return err
		}
		if s.ID != "" {
			if err := scheduleAt(b, key, s); err != nil {
				return err
			}
		}
		id = cp.ID
		cp.Version++
		return put(b, key, cp)
	})
	if err != nil {
		return fmt.Errorf("put schedule: %w", err)
	}
	s.ID = id // only once the schedule is on disk
	s.Version++
	return nil
}

// scheduleAt refuses a write of s unless the schedule stored under key is at s.Version
// (bot.ErrStale: removed, or written meanwhile).
func scheduleAt(b *bolt.Bucket, key []byte, s *schedule.Schedule) error {
	v := b.Get(key)
	if v == nil {
		return fmt.Errorf("schedule %s was removed: %w", s.ID, bot.ErrStale)
	}
	var stored struct{ Version int64 }
	if err := json.Unmarshal(v, &stored); err != nil {
		return fmt.Errorf("schedule %s: %w", s.ID, err)
	}
	if stored.Version != s.Version {
		return fmt.Errorf("schedule %s is at version %d, written from version %d: %w", s.ID, stored.Version, s.Version, bot.ErrStale)
	}
	return nil
}

// DeleteSchedule removes a schedule and its RSVPs; its results stay.
func (d *DB) DeleteSchedule(ctx context.Context, id string) error {
	key, err := schedID(id)
	if err != nil {
		return err
	}
	return d.update(func(tx *bolt.Tx) error {
		if err := checkFence(tx, table.FenceFrom(ctx)); err != nil {
			return err
		}
		b, r, _, err := schedBuckets(tx)
		if err != nil {
			return err
		}
		if err := b.Delete(key); err != nil {
			return err
		}
		c := r.Cursor()
		for k, _ := c.Seek(key); k != nil && bytes.HasPrefix(k, key); k, _ = c.Seek(key) {
			if err := r.Delete(k); err != nil {
				return err
			}
		}
		return nil
	})
}

// Schedules returns every schedule, ordered by ID.
func (d *DB) Schedules(ctx context.Context) ([]schedule.Schedule, error) {
	var out []schedule.Schedule
	err := d.view(func(tx *bolt.Tx) error {
		b := tx.Bucket(schedBucketSchedules)
		if b == nil {
			return nil
		}
		return b.ForEach(func(k, v []byte) error {
			var s schedule.Schedule
			if err := json.Unmarshal(v, &s); err != nil {
				return fmt.Errorf("schedule %x: %w", k, err)
			}
			out = append(out, s)
			return nil
		})
	})
	return out, err
}

// PutRSVP records a player's answer for one game, replacing an earlier one. It refuses an answer for
// a schedule that does not exist (removed meanwhile).
func (d *DB) PutRSVP(ctx context.Context, r schedule.RSVP) error {
	key, err := schedID(r.Schedule)
	if err != nil {
		return err
	}
	return d.update(func(tx *bolt.Tx) error {
		b, rb, _, err := schedBuckets(tx)
		if err != nil {
			return err
		}
		if b.Get(key) == nil {
			return fmt.Errorf("rsvp for schedule %s, which does not exist", r.Schedule)
		}
		k := append(schedGameKey(key, r.Game), r.User...)
		return put(rb, k, r)
	})
}

// RSVPs returns the answers for one game, in the order they were given (a changed answer counts
// from when it changed).
func (d *DB) RSVPs(ctx context.Context, id string, game time.Time) ([]schedule.RSVP, error) {
	key, err := schedID(id)
	if err != nil {
		return nil, err
	}
	prefix := schedGameKey(key, game)
	var out []schedule.RSVP
	err = d.view(func(tx *bolt.Tx) error {
		b := tx.Bucket(schedBucketRSVPs)
		if b == nil {
			return nil
		}
		c := b.Cursor()
		for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
			var r schedule.RSVP
			if err := json.Unmarshal(v, &r); err != nil {
				return fmt.Errorf("rsvp %x: %w", k, err)
			}
			out = append(out, r)
		}
		return nil
	})
	slices.SortStableFunc(out, func(a, b schedule.RSVP) int { return a.Time.Compare(b.Time) })
	return out, err
}

// PutResult records a game's result and writes s in the same transaction, so a game is never both
// settled and unrecorded, or recorded twice.
func (d *DB) PutResult(ctx context.Context, r schedule.Result, s *schedule.Schedule) error {
	key, err := schedID(r.Schedule)
	if err != nil {
		return err
	}
	wrote := false
	err = d.update(func(tx *bolt.Tx) error {
		if err := checkFence(tx, table.FenceFrom(ctx)); err != nil {
			return err
		}
		b, _, res, err := schedBuckets(tx)
		if err != nil {
			return err
		}
		if err := put(res, schedGameKey(key, r.Game), r); err != nil {
			return err
		}
		if s == nil {
			return nil
		}
		skey, err := schedID(s.ID)
		if err != nil {
			return err
		}
		if b.Get(skey) == nil {
			return nil // removed while the game ran: keep the result only
		}
		if err := scheduleAt(b, skey, s); err != nil {
			return err
		}
		cp := *s
		cp.Version++
		if err := put(b, skey, cp); err != nil {
			return err
		}
		wrote = true
		return nil
	})
	if err == nil && wrote {
		s.Version++
	}
	return err
}

// Results returns a schedule's results, oldest game first.
func (d *DB) Results(ctx context.Context, id string) ([]schedule.Result, error) {
	key, err := schedID(id)
	if err != nil {
		return nil, err
	}
	var out []schedule.Result
	err = d.view(func(tx *bolt.Tx) error {
		b := tx.Bucket(schedBucketResults)
		if b == nil {
			return nil
		}
		c := b.Cursor()
		for k, v := c.Seek(key); k != nil && bytes.HasPrefix(k, key); k, v = c.Next() {
			var r schedule.Result
			if err := json.Unmarshal(v, &r); err != nil {
				return fmt.Errorf("result %x: %w", k, err)
			}
			out = append(out, r)
		}
		return nil
	})
	return out, err
}
