package storage

// Snapshot and Counts read a whole database as it is stored (record.Snapshot, record.Counts), for
// `dealerbot migrate`, which copies a bbolt file into PostgreSQL record for record, and Summary sums it
// up for comparing a copy with.

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"

	bolt "go.etcd.io/bbolt"

	"github.com/dealerbot/dealerbot/bot"
	"github.com/dealerbot/dealerbot/bot/table"
	"github.com/dealerbot/dealerbot/storage/record"
)

// Snapshot reads every record but the finished hands in one transaction; its Hands reads those. The
// two reads are one state only while nothing writes in between: take the snapshot of a database no
// dealer is running on (migrate holds the file).
func (d *DB) Snapshot(ctx context.Context) (record.Snapshot, error) {
	if err := ctx.Err(); err != nil {
		return record.Snapshot{}, err
	}
	s := record.Snapshot{Hands: d.eachRawHand}
	err := d.view(func(tx *bolt.Tx) error {
		err := tx.Bucket(bucketPlayers).ForEach(func(k, v []byte) error {
			var p table.PlayerRecord
			if err := json.Unmarshal(v, &p); err != nil {
				return fmt.Errorf("player %q: %w", k, err)
			}
			if !bytes.Equal(k, playerKey(p.Workspace, p.User)) {
				return fmt.Errorf("player %q: the record is of %s/%s: %w", k, p.Workspace, p.User, record.ErrCorrupt)
			}
			s.Players = append(s.Players, p)
			return nil
		})
		if err != nil {
			return err
		}
		ledger := tx.Bucket(bucketLedger)
		s.LedgerSeq = ledger.Sequence()
		err = ledger.ForEach(func(k, v []byte) error {
			if len(k) != 8 {
				return fmt.Errorf("ledger key %x: %w", k, record.ErrCorrupt)
			}
			s.Ledger = append(s.Ledger, record.LedgerRecord{Seq: binary.BigEndian.Uint64(k), Rec: bytes.Clone(v)})
			return nil
		})
		if err != nil {
			return err
		}
		err = tx.Bucket(bucketTables).ForEach(func(k, v []byte) error {
			var t struct{ Platform, Workspace string }
			if err := json.Unmarshal(v, &t); err != nil {
				return fmt.Errorf("table %s: %w", k, err)
			}
			s.Tables = append(s.Tables, record.RawTable{ID: string(k), Community: table.Community(t.Platform, t.Workspace), Rec: bytes.Clone(v)})
			return nil
		})
		if err != nil {
			return err
		}
		err = tx.Bucket(bucketActions).ForEach(func(k, v []byte) error {
			s.Actions = append(s.Actions, record.RawActions{Table: string(k), Rec: bytes.Clone(v)})
			return nil
		})
		if err != nil {
			return err
		}
		sessions := tx.Bucket(bucketSessions)
		s.SessionSeq = sessions.Sequence()
		err = sessions.ForEach(func(k, v []byte) error {
			if len(k) != 8 {
				return fmt.Errorf("session key %x: %w", k, record.ErrCorrupt)
			}
			s.Sessions = append(s.Sessions, record.RawSession{Seq: binary.BigEndian.Uint64(k), Rec: bytes.Clone(v)})
			return nil
		})
		if err != nil {
			return err
		}
		if err := readMoney(tx, &s); err != nil {
			return err
		}
		if err := readAdapters(tx, &s); err != nil {
			return err
		}
		return readSchedules(tx, &s)
	})
	if err != nil {
		return record.Snapshot{}, fmt.Errorf("read %s: %w", d.Path(), err)
	}
	return s, nil
}

// readAdapters reads what the chat adapters keep: installations and DM channels, whose buckets
// exist once something was written.
func readAdapters(tx *bolt.Tx, s *record.Snapshot) error {
	if b := tx.Bucket(bucketInstallations); b != nil {
		err := b.ForEach(func(k, v []byte) error {
			var in bot.Installation
			if err := json.Unmarshal(v, &in); err != nil {
				return fmt.Errorf("installation %s: %w", k, err)
			}
			s.Installations = append(s.Installations, in)
			return nil
		})
		if err != nil {
			return err
		}
	}
	if b := tx.Bucket(bucketDMChannels); b != nil {
		return b.ForEach(func(k, v []byte) error {
			platform, user, ok := bytes.Cut(k, []byte{0})
			if !ok {
				return fmt.Errorf("DM channel key %q has no platform: %w", k, record.ErrCorrupt)
			}
			s.DMChannels = append(s.DMChannels, record.DMChannel{Platform: string(platform), User: string(user), Channel: string(v)})
			return nil
		})
	}
	return nil
}

// readSchedules reads the schedule buckets, which exist once a schedule was written.
func readSchedules(tx *bolt.Tx, s *record.Snapshot) error {
	if b := tx.Bucket(schedBucketSchedules); b != nil {
		s.ScheduleSeq = b.Sequence()
		err := b.ForEach(func(k, v []byte) error {
			var sc struct{ Platform, Workspace string }
			if err := json.Unmarshal(v, &sc); err != nil {
				return fmt.Errorf("schedule %x: %w", k, err)
			}
			if len(k) != 8 {
				return fmt.Errorf("schedule key %x: %w", k, record.ErrCorrupt)
			}
			s.Schedules = append(s.Schedules, record.RawSchedule{ID: binary.BigEndian.Uint64(k), Community: table.Community(sc.Platform, sc.Workspace), Rec: bytes.Clone(v)})
			return nil
		})
		if err != nil {
			return err
		}
	}
	if b := tx.Bucket(schedBucketRSVPs); b != nil {
		err := b.ForEach(func(k, v []byte) error {
			if len(k) < 16 { // schedGameKey, then the user
				return fmt.Errorf("rsvp key %x: %w", k, record.ErrCorrupt)
			}
			s.RSVPs = append(s.RSVPs, record.RawRSVP{Schedule: binary.BigEndian.Uint64(k), Game: int64(binary.BigEndian.Uint64(k[8:])),
				User: string(k[16:]), Rec: bytes.Clone(v)})
			return nil
		})
		if err != nil {
			return err
		}
	}
	if b := tx.Bucket(schedBucketResults); b != nil {
		return b.ForEach(func(k, v []byte) error {
			if len(k) != 16 { // schedGameKey
				return fmt.Errorf("result key %x: %w", k, record.ErrCorrupt)
			}
			s.Results = append(s.Results, record.RawResult{Schedule: binary.BigEndian.Uint64(k), Game: int64(binary.BigEndian.Uint64(k[8:])), Rec: bytes.Clone(v)})
			return nil
		})
	}
	return nil
}

// eachRawHand walks the hands bucket as EachHand does, without decoding the records.
func (d *DB) eachRawHand(ctx context.Context, fn func(record.RawHand) error) error {
	var after []byte
	var last record.RawHand // the previous hand, to number the kept ones
	for {
		var batch []record.RawHand
		err := d.view(func(tx *bolt.Tx) error {
			c := tx.Bucket(bucketHands).Cursor()
			k, v := c.First()
			if after != nil {
				k, v = c.Seek(after)
				if k != nil && bytes.Equal(k, after) {
					k, v = c.Next()
				}
			}
			for ; k != nil && len(batch) < 1000; k, v = c.Next() {
				base, kept := k, false
				if len(k) >= 17 && k[len(k)-17] == 0 { // see decodeHandKV
					base, kept = k[:len(k)-8], true
				}
				if len(base) < 9 || base[len(base)-9] != 0 {
					return fmt.Errorf("hand key %x: %w", k, record.ErrCorrupt)
				}
				h := record.RawHand{Table: string(base[:len(base)-9]), No: int64(binary.BigEndian.Uint64(base[len(base)-8:])), Rec: bytes.Clone(v)}
				if kept {
					if h.Table != last.Table || h.No != last.No {
						return fmt.Errorf("hand key %x: a kept hand without the hand it was kept beside: %w", k, record.ErrCorrupt)
					}
					h.Kept = last.Kept + 1
				}
				batch = append(batch, h)
				last = h
				after = append(after[:0], k...)
			}
			return nil
		})
		if err != nil {
			return fmt.Errorf("read the hands of %s: %w", d.Path(), err)
		}
		for _, h := range batch {
			if err := ctx.Err(); err != nil {
				return err
			}
			if err := fn(h); err != nil {
				return err
			}
		}
		if len(batch) < 1000 {
			return nil
		}
	}
}

// Counts counts the records in one transaction.
func (d *DB) Counts(ctx context.Context) (record.Counts, error) {
	var n record.Counts
	err := d.view(func(tx *bolt.Tx) error {
		keys := func(name []byte) int {
			if b := tx.Bucket(name); b != nil {
				return b.Stats().KeyN
			}
			return 0
		}
		n.Players, n.Hands, n.Sessions = keys(bucketPlayers), keys(bucketHands), keys(bucketSessions)
		n.Schedules, n.RSVPs, n.Results = keys(schedBucketSchedules), keys(schedBucketRSVPs), keys(schedBucketResults)
		n.MoneyEvents, n.Handles = keys(bucketMoney), keys(bucketMoneyHandles)
		n.Installations, n.DMChannels = keys(bucketInstallations), keys(bucketDMChannels)
		err := tx.Bucket(bucketLedger).ForEach(func(k, v []byte) error {
			es, err := record.DecodeLedger(binary.BigEndian.Uint64(k), v)
			n.LedgerEntries += len(es)
			return err
		})
		if err != nil {
			return err
		}
		return tx.Bucket(bucketTables).ForEach(func(k, v []byte) error {
			var t struct{ Hand *struct{} }
			if err := json.Unmarshal(v, &t); err != nil {
				return fmt.Errorf("table %s: %w", k, err)
			}
			n.Tables++
			if t.Hand != nil {
				n.HandsInProgress++
			}
			return nil
		})
	})
	return n, err
}

// Summary sums up the database: its snapshot, counts and totals, each read in a transaction of its
// own, so it is one state only while nothing writes (migrate holds the file; backup writes a new one).
func (d *DB) Summary(ctx context.Context) (record.Summary, error) {
	s, err := d.Snapshot(ctx)
	if err != nil {
		return record.Summary{}, err
	}
	n, err := d.Counts(ctx)
	if err != nil {
		return record.Summary{}, err
	}
	t, balance := d.Balance(ctx)
	return record.Summarize(ctx, s, n, t, balance)
}
