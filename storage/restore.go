package storage

// Import writes a record.Snapshot into an empty bbolt database: `dealerbot backup` on PostgreSQL
// makes a portable bbolt file of everything this way, the reverse of `dealerbot migrate`.

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"strings"

	bolt "go.etcd.io/bbolt"

	"github.com/dealerbot/dealerbot/bot/table"
	"github.com/dealerbot/dealerbot/storage/record"
)

// ErrNotEmpty is returned by Import for a database that already holds records.
var ErrNotEmpty = errors.New("a copy goes into an empty database only")

// recordBuckets are the buckets that hold a dealer's records (leases, delivery IDs and the file's
// own notes are not records), with what a sentence calls their keys.
var recordBuckets = []struct {
	name []byte
	what string
}{
	{bucketPlayers, "players"}, {bucketLedger, "ledger entries"}, {bucketTables, "open tables"},
	{bucketActions, "action logs"}, {bucketHands, "finished hands"}, {bucketSessions, "sessions"},
	{schedBucketSchedules, "schedules"}, {schedBucketRSVPs, "RSVPs"}, {schedBucketResults, "results"},
	{bucketMoney, "money events"}, {bucketMoneyHandles, "payment handles"},
	{bucketInstallations, "installations"}, {bucketDMChannels, "DM channels"},
}

// importBatch is how many hands one transaction of Import writes: a database of any size is
// copied in little memory.
const importBatch = 1000

// Import writes s into the database, every record as it was stored, under its own key and number;
// the bucket sequences go on after the snapshot's. It refuses, with ErrNotEmpty and nothing
// written, a database that holds any record. Everything but the finished hands is written in one
// transaction, the hands in transactions of a thousand after it: import into a file no dealer uses
// (`dealerbot backup` writes a new file and renames it only once the copy is checked).
func (d *DB) Import(ctx context.Context, s record.Snapshot) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	err := d.update(func(tx *bolt.Tx) error {
		var held []string
		for _, b := range recordBuckets {
			if bk := tx.Bucket(b.name); bk != nil {
				if k, _ := bk.Cursor().First(); k != nil {
					held = append(held, b.what)
				}
			}
		}
		if len(held) > 0 {
			return fmt.Errorf("%s already holds %s, so nothing was written: %w", d.Path(), strings.Join(held, ", "), ErrNotEmpty)
		}
		return importRecords(tx, s)
	})
	if err != nil || s.Hands == nil {
		return err
	}
	var batch []record.RawHand
	flush := func() error {
		err := d.update(func(tx *bolt.Tx) error {
			b := tx.Bucket(bucketHands)
			b.FillPercent = 0.9 // written in key order
			for _, h := range batch {
				if h.Table == "" || strings.IndexByte(h.Table, 0) >= 0 {
					return fmt.Errorf("hand %d of table %q: a table ID is not empty and holds no zero byte", h.No, h.Table)
				}
				k := handKey(h.Table, h.No)
				if h.Kept > 0 { // kept beside the hand of its number, after it (see keptHandKey)
					seq, err := b.NextSequence()
					if err != nil {
						return err
					}
					k = keptHandKey(h.Table, h.No, seq)
				}
				if b.Get(k) != nil {
					return fmt.Errorf("hand %d of table %s twice in the copy", h.No, h.Table)
				}
				if err := b.Put(k, h.Rec); err != nil {
					return err
				}
			}
			return nil
		})
		batch = batch[:0]
		return err
	}
	err = s.Hands(ctx, func(h record.RawHand) error {
		batch = append(batch, h)
		if len(batch) == importBatch {
			return flush()
		}
		return nil
	})
	if err == nil {
		err = flush()
	}
	return err
}

// importRecords writes every record of s but the hands.
func importRecords(tx *bolt.Tx, s record.Snapshot) error {
	players := tx.Bucket(bucketPlayers)
	for _, p := range s.Players {
		if err := put(players, playerKey(p.Workspace, p.User), p); err != nil {
			return err
		}
	}
	ledger := tx.Bucket(bucketLedger)
	ledger.FillPercent = 0.9
	last := s.LedgerSeq // new events are numbered after every copied one, whatever the snapshot says
	for _, r := range s.Ledger {
		if err := ledger.Put(seqKey(r.Seq), r.Rec); err != nil {
			return err
		}
		last = max(last, r.Seq)
	}
	if err := setSequence(ledger, last); err != nil {
		return err
	}
	for _, t := range s.Tables {
		if err := tx.Bucket(bucketTables).Put([]byte(t.ID), t.Rec); err != nil {
			return err
		}
	}
	for _, a := range s.Actions {
		if err := tx.Bucket(bucketActions).Put([]byte(a.Table), a.Rec); err != nil {
			return err
		}
	}
	sessions := tx.Bucket(bucketSessions)
	last = s.SessionSeq
	for _, ss := range s.Sessions {
		if err := sessions.Put(seqKey(ss.Seq), ss.Rec); err != nil {
			return err
		}
		last = max(last, ss.Seq)
	}
	if err := setSequence(sessions, last); err != nil {
		return err
	}
	if len(s.Schedules) > 0 || len(s.RSVPs) > 0 || len(s.Results) > 0 || s.ScheduleSeq > 0 {
		sb, rb, resb, err := schedBuckets(tx)
		if err != nil {
			return err
		}
		// A removed schedule's number stays taken while its results (or answers) are kept.
		last = s.ScheduleSeq
		for _, sc := range s.Schedules {
			if err := sb.Put(seqKey(sc.ID), sc.Rec); err != nil {
				return err
			}
			last = max(last, sc.ID)
		}
		for _, r := range s.RSVPs {
			last = max(last, r.Schedule)
		}
		for _, r := range s.Results {
			last = max(last, r.Schedule)
		}
		if err := setSequence(sb, last); err != nil {
			return err
		}
		for _, r := range s.RSVPs {
			k := append(binary.BigEndian.AppendUint64(seqKey(r.Schedule), uint64(r.Game)), r.User...)
			if err := rb.Put(k, r.Rec); err != nil {
				return err
			}
		}
		for _, r := range s.Results {
			if err := resb.Put(binary.BigEndian.AppendUint64(seqKey(r.Schedule), uint64(r.Game)), r.Rec); err != nil {
				return err
			}
		}
	}
	if err := importMoney(tx, s); err != nil {
		return err
	}
	if len(s.Installations) > 0 {
		b, err := tx.CreateBucketIfNotExists(bucketInstallations)
		if err != nil {
			return err
		}
		for _, in := range s.Installations {
			if err := put(b, []byte(table.Community(in.Platform, in.Workspace)), in); err != nil {
				return err
			}
		}
	}
	if len(s.DMChannels) > 0 {
		b, err := tx.CreateBucketIfNotExists(bucketDMChannels)
		if err != nil {
			return err
		}
		for _, dm := range s.DMChannels {
			if err := b.Put(dmKey(dm.Platform, dm.User), []byte(dm.Channel)); err != nil {
				return err
			}
		}
	}
	return nil
}

// importMoney writes the money books, each book's newest number, and the payment handles.
func importMoney(tx *bolt.Tx, s record.Snapshot) error {
	if len(s.Money) > 0 {
		book, err := tx.CreateBucketIfNotExists(bucketMoney)
		if err != nil {
			return err
		}
		heads, err := tx.CreateBucketIfNotExists(bucketMoneyHeads)
		if err != nil {
			return err
		}
		head := map[string]uint64{}
		for _, m := range s.Money {
			if err := book.Put(moneyKey(m.Community, m.Seq), m.Rec); err != nil {
				return err
			}
			head[m.Community] = max(head[m.Community], m.Seq)
		}
		for c, n := range head {
			if err := heads.Put([]byte(c), binary.BigEndian.AppendUint64(nil, n)); err != nil {
				return err
			}
		}
	}
	if len(s.Handles) > 0 {
		b, err := tx.CreateBucketIfNotExists(bucketMoneyHandles)
		if err != nil {
			return err
		}
		for _, h := range s.Handles {
			if err := b.Put(append(append([]byte(h.Community), 0), h.User...), h.Rec); err != nil {
				return err
			}
		}
	}
	return nil
}

// setSequence sets a bucket's sequence (the last number given) to n unless it is already past it.
func setSequence(b *bolt.Bucket, n uint64) error {
	if n <= b.Sequence() {
		return nil
	}
	return b.SetSequence(n)
}
