package postgres

// ReadAll serves `dealerbot backup` on PostgreSQL, which writes a portable bbolt file of everything
// (the reverse of migrate's Import): every record read in one transaction, as stored.

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/dealerbot/dealerbot/bot"
	"github.com/dealerbot/dealerbot/bot/table"
	"github.com/dealerbot/dealerbot/storage/record"
)

// ReadAll reads the whole database in one REPEATABLE READ, read-only transaction, so that what it
// reads is one state while dealers go on writing, and calls fn with it: the snapshot (whose Hands
// reads the finished hands from the same transaction, in batches, while fn runs) and its summary
// (counts, chip totals, every record's checksum), for comparing a copy with.
func (d *DB) ReadAll(ctx context.Context, fn func(record.Snapshot, record.Summary) error) error {
	tx, err := d.pool.BeginTx(ctx, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly})
	if err != nil {
		return d.wrap("begin", err)
	}
	defer tx.Rollback(ctx)
	if err := d.longTransaction(ctx, tx); err != nil {
		return err
	}
	sum, err := d.summaryOn(ctx, tx)
	if err != nil {
		return err
	}
	s, err := d.snapshotOn(ctx, tx)
	if err != nil {
		return err
	}
	return fn(s, sum)
}

// snapshotOn reads every record as tx sees it; its Hands reads the hands from tx.
func (d *DB) snapshotOn(ctx context.Context, tx pgx.Tx) (record.Snapshot, error) {
	s := record.Snapshot{Hands: func(ctx context.Context, fn func(record.RawHand) error) error { return d.rawHands(ctx, tx, fn) }}
	rows, err := tx.Query(ctx, "SELECT "+playerCols+" FROM players ORDER BY workspace, user_id")
	if err != nil {
		return s, d.wrap("read players", err)
	}
	if s.Players, err = pgx.CollectRows(rows, func(r pgx.CollectableRow) (table.PlayerRecord, error) { return scanPlayer(r) }); err != nil {
		return s, d.wrap("read players", err)
	}
	if s.Ledger, err = d.ledgerRecords(ctx, tx); err != nil {
		return s, err
	}
	read := func(what, q string, scan func(pgx.CollectableRow) error) error {
		rows, err := tx.Query(ctx, q)
		if err != nil {
			return d.wrap("read "+what, err)
		}
		_, err = pgx.CollectRows(rows, func(r pgx.CollectableRow) (struct{}, error) { return struct{}{}, scan(r) })
		return d.wrap("read "+what, err)
	}
	var n, m int64
	err = read("tables", "SELECT id, community, rec FROM tables ORDER BY id", func(r pgx.CollectableRow) error {
		var t record.RawTable
		err := r.Scan(&t.ID, &t.Community, &t.Rec)
		s.Tables = append(s.Tables, t)
		return err
	})
	if err == nil {
		err = read("action logs", "SELECT table_id, rec FROM actions ORDER BY table_id", func(r pgx.CollectableRow) error {
			var a record.RawActions
			err := r.Scan(&a.Table, &a.Rec)
			s.Actions = append(s.Actions, a)
			return err
		})
	}
	if err == nil {
		err = read("sessions", "SELECT seq, rec FROM sessions ORDER BY seq", func(r pgx.CollectableRow) error {
			var ss record.RawSession
			err := r.Scan(&n, &ss.Rec)
			ss.Seq = uint64(n)
			s.Sessions = append(s.Sessions, ss)
			return err
		})
	}
	if err == nil {
		err = read("schedules", "SELECT id, community, rec FROM schedules ORDER BY id", func(r pgx.CollectableRow) error {
			var sc record.RawSchedule
			err := r.Scan(&n, &sc.Community, &sc.Rec)
			sc.ID = uint64(n)
			s.Schedules = append(s.Schedules, sc)
			return err
		})
	}
	if err == nil {
		err = read("RSVPs", "SELECT schedule, game, user_id, rec FROM rsvps ORDER BY schedule, game, user_id", func(r pgx.CollectableRow) error {
			var rv record.RawRSVP
			err := r.Scan(&n, &rv.Game, &rv.User, &rv.Rec)
			rv.Schedule = uint64(n)
			s.RSVPs = append(s.RSVPs, rv)
			return err
		})
	}
	if err == nil {
		err = read("results", "SELECT schedule, game, rec FROM results ORDER BY schedule, game", func(r pgx.CollectableRow) error {
			var rs record.RawResult
			err := r.Scan(&n, &rs.Game, &rs.Rec)
			rs.Schedule = uint64(n)
			s.Results = append(s.Results, rs)
			return err
		})
	}
	if err == nil {
		err = read("money events", "SELECT community, seq, rec FROM money_events ORDER BY community, seq", func(r pgx.CollectableRow) error {
			var me record.RawMoney
			err := r.Scan(&me.Community, &m, &me.Rec)
			me.Seq = uint64(m)
			s.Money = append(s.Money, me)
			return err
		})
	}
	if err == nil {
		err = read("payment handles", "SELECT community, user_id, rec FROM payment_handles ORDER BY community, user_id", func(r pgx.CollectableRow) error {
			var h record.RawHandle
			err := r.Scan(&h.Community, &h.User, &h.Rec)
			s.Handles = append(s.Handles, h)
			return err
		})
	}
	if err == nil {
		err = read("installations", `SELECT platform, workspace, name, bot_user, scopes, token, installed_by, installed_at
			FROM installations ORDER BY platform, workspace`, func(r pgx.CollectableRow) error {
			var in bot.Installation
			err := r.Scan(&in.Platform, &in.Workspace, &in.Name, &in.BotUser, &in.Scopes, &in.Token, &in.InstalledBy, &in.Installed)
			if len(in.Scopes) == 0 {
				in.Scopes = nil // as Installation reads them
			}
			s.Installations = append(s.Installations, in)
			return err
		})
	}
	if err == nil {
		err = read("DM channels", "SELECT platform, user_id, channel FROM dm_channels ORDER BY platform, user_id", func(r pgx.CollectableRow) error {
			var dm record.DMChannel
			err := r.Scan(&dm.Platform, &dm.User, &dm.Channel)
			s.DMChannels = append(s.DMChannels, dm)
			return err
		})
	}
	if err != nil {
		return s, err
	}
	// The last number each sequence gave (sequences are not transactional: this may be ahead of
	// the records read, which only leaves a gap, as a removed schedule does).
	for _, q := range []struct {
		table, col string
		to         *uint64
	}{{"ledger", "seq", &s.LedgerSeq}, {"sessions", "seq", &s.SessionSeq}, {"schedules", "id", &s.ScheduleSeq}} {
		var name string
		if err := tx.QueryRow(ctx, "SELECT pg_get_serial_sequence($1, $2)", q.table, q.col).Scan(&name); err != nil {
			return s, d.wrap("read the "+q.table+" sequence", err)
		}
		var last int64
		var called bool
		if err := tx.QueryRow(ctx, "SELECT last_value, is_called FROM "+name).Scan(&last, &called); err != nil {
			return s, d.wrap("read the "+q.table+" sequence", err)
		}
		if !called {
			last-- // setval(n, false): n is the next number given
		}
		if last < 0 {
			return s, fmt.Errorf("the %s sequence is at %d", q.table, last)
		}
		*q.to = uint64(last)
	}
	return s, nil
}

// rawHands walks the finished hands as tx sees them, table by table in hand order, in batches.
func (d *DB) rawHands(ctx context.Context, tx pgx.Tx, fn func(record.RawHand) error) error {
	after := record.RawHand{No: -1 << 62}
	after.Kept = -1
	for {
		rows, err := tx.Query(ctx, `SELECT table_id, no, kept, rec FROM hands WHERE (table_id, no, kept) > ($1, $2, $3)
			ORDER BY table_id, no, kept LIMIT $4`, after.Table, after.No, int32(after.Kept), importBatch)
		if err != nil {
			return d.wrap("read hands", err)
		}
		batch, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (record.RawHand, error) {
			var h record.RawHand
			var kept int32
			err := r.Scan(&h.Table, &h.No, &kept, &h.Rec)
			h.Kept = int(kept)
			return h, err
		})
		if err != nil {
			return d.wrap("read hands", err)
		}
		for _, h := range batch {
			if err := ctx.Err(); err != nil {
				return err
			}
			if err := fn(h); err != nil {
				return err
			}
		}
		if len(batch) < importBatch {
			return nil
		}
		after = batch[len(batch)-1]
	}
}
