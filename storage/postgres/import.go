package postgres

// Import and Counts serve `dealerbot migrate`, which copies a bbolt database into an empty PostgreSQL
// one record for record: the caller reads the bbolt file's record.Snapshot (package storage) and
// hands it to Import, so this package never opens a bbolt file itself.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/dealerbot/dealerbot/bot/table"
	"github.com/dealerbot/dealerbot/storage/record"
)

// ErrNotEmpty is returned by Import for a database that already holds records.
var ErrNotEmpty = errors.New("migrate copies into an empty database only (create a new one)")

// dataTables are the tables that hold a dealer's records (leases and the schema version are not
// records), with what a sentence calls their rows.
var dataTables = []struct{ name, what string }{
	{"players", "players"},
	{"ledger", "ledger entries"},
	{"tables", "open tables"},
	{"actions", "action logs"},
	{"hands", "finished hands"},
	{"sessions", "sessions"},
	{"schedules", "schedules"},
	{"rsvps", "RSVPs"},
	{"results", "results"},
	{"money_events", "money events"},
	{"payment_handles", "payment handles"},
	{"installations", "installations"},
	{"dm_channels", "DM channels"},
}

// importBatch is how many hands one COPY writes: the snapshot's hands are read in batches as well,
// so a database of any size is copied in little memory.
const importBatch = 1000

// Import writes s into the database in one transaction, every record as it was stored: players' rows
// as they are (nothing re-derived from the ledger), ledger events, sessions and schedules under their
// own numbers, hands in their binary form, money books, payment handles, the chat apps'
// installations and DM channels. The sequences that number new ledger events, sessions and
// schedules go on after the snapshot's. Import refuses, with ErrNotEmpty and nothing written, a
// database that holds any record; the check runs in the same transaction, with the tables locked
// against writers until it ends.
//
// check, when not nil, is called in the same transaction after the copy and before its commit, with
// the copy summed up as the transaction reads it (counts, chip totals, every record's checksum); an
// error from check rolls the whole copy back and is returned.
func (d *DB) Import(ctx context.Context, s record.Snapshot, check func(record.Summary) error) error {
	tx, err := d.pool.Begin(ctx)
	if err != nil {
		return d.wrap("begin the import", err)
	}
	defer tx.Rollback(ctx)
	// A dealer writing to the database keeps its locks only for a commit: waiting longer means
	// something holds a transaction open.
	if _, err := tx.Exec(ctx, "SET LOCAL lock_timeout = '15s'"); err != nil {
		return d.wrap("import", err)
	}
	if err := d.longTransaction(ctx, tx); err != nil {
		return err
	}
	names := make([]string, len(dataTables))
	for i, t := range dataTables {
		names[i] = t.name
	}
	// EXCLUSIVE lets others read but not write, so nothing lands between the check and the copy.
	if _, err := tx.Exec(ctx, "LOCK TABLE "+strings.Join(names, ", ")+" IN EXCLUSIVE MODE"); err != nil {
		var pe *pgconn.PgError
		if errors.As(err, &pe) && pe.Code == "55P03" {
			return fmt.Errorf("another process keeps writing to %s (its tables stayed locked for 15 s): stop it first, nothing was written", d.safe)
		}
		return d.wrap("lock the tables", err)
	}
	var held []string
	for _, t := range dataTables {
		var some bool
		if err := tx.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM "+t.name+")").Scan(&some); err != nil {
			return d.wrap("check that the database is empty", err)
		}
		if some {
			held = append(held, t.what)
		}
	}
	if len(held) > 0 {
		return fmt.Errorf("%s already holds %s, so nothing was written: %w", d.safe, strings.Join(held, ", "), ErrNotEmpty)
	}
	if err := d.copyRecords(ctx, tx, s); err != nil {
		return err
	}
	if err := d.copyMoney(ctx, tx, s); err != nil { // money.go
		return err
	}
	if err := d.copyAdapters(ctx, tx, s); err != nil {
		return err
	}
	if s.Hands != nil {
		var batch [][]any
		flush := func() error {
			err := d.copyRows(ctx, tx, "hands", []string{"table_id", "no", "kept", "rec"}, batch)
			batch = batch[:0]
			return err
		}
		err := s.Hands(ctx, func(h record.RawHand) error {
			batch = append(batch, []any{h.Table, h.No, int32(h.Kept), h.Rec})
			if len(batch) == importBatch {
				return flush()
			}
			return nil
		})
		if err == nil {
			err = flush()
		}
		if err != nil {
			return err
		}
	}
	for _, q := range []struct {
		what, sql string
		after     uint64
	}{
		{"ledger", `SELECT setval(pg_get_serial_sequence('ledger', 'seq'),
			greatest($1, (SELECT coalesce(max(seq), 0) FROM ledger)) + 1, false)`, s.LedgerSeq},
		{"sessions", `SELECT setval(pg_get_serial_sequence('sessions', 'seq'),
			greatest($1, (SELECT coalesce(max(seq), 0) FROM sessions)) + 1, false)`, s.SessionSeq},
		// A removed schedule's number stays taken while its results (or answers) are kept.
		{"schedules", `SELECT setval(pg_get_serial_sequence('schedules', 'id'),
			greatest($1, (SELECT coalesce(max(id), 0) FROM schedules), (SELECT coalesce(max(schedule), 0) FROM results),
				(SELECT coalesce(max(schedule), 0) FROM rsvps)) + 1, false)`, s.ScheduleSeq},
	} {
		after, err := signed(q.what+" sequence", q.after)
		if err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, q.sql, after); err != nil {
			return d.wrap("set the "+q.what+" sequence", err)
		}
	}
	if check != nil {
		sum, err := d.summaryOn(ctx, tx)
		if err != nil {
			return fmt.Errorf("read the copy back: %w", err)
		}
		if err := check(sum); err != nil {
			return err
		}
	}
	return d.wrap("commit the import", tx.Commit(ctx))
}

// copyAdapters copies the chat apps' installations (sealed tokens as they are) and DM channels.
func (d *DB) copyAdapters(ctx context.Context, tx pgx.Tx, s record.Snapshot) error {
	var rows [][]any
	for _, in := range s.Installations {
		if in.Platform == "" || in.Workspace == "" {
			return errors.New("copy an installation: no platform or workspace given")
		}
		scopes := in.Scopes
		if scopes == nil {
			scopes = []string{}
		}
		token := in.Token
		if token == nil {
			token = []byte{}
		}
		rows = append(rows, []any{in.Platform, in.Workspace, in.Name, in.BotUser, scopes, token, in.InstalledBy, in.Installed})
	}
	if err := d.copyRows(ctx, tx, "installations", []string{"platform", "workspace", "name", "bot_user", "scopes", "token", "installed_by", "installed_at"}, rows); err != nil {
		return err
	}
	rows = rows[:0]
	for _, dm := range s.DMChannels {
		rows = append(rows, []any{dm.Platform, dm.User, dm.Channel})
	}
	return d.copyRows(ctx, tx, "dm_channels", []string{"platform", "user_id", "channel"}, rows)
}

// copyRecords copies every record of s but the hands.
func (d *DB) copyRecords(ctx context.Context, tx pgx.Tx, s record.Snapshot) error {
	rows := make([][]any, 0, len(s.Players))
	for _, p := range s.Players {
		rows = append(rows, []any{p.Workspace, p.User, p.Name, p.Bankroll, p.OnTable, p.Granted, int64(p.Hands)})
	}
	if err := d.copyRows(ctx, tx, "players", []string{"workspace", "user_id", "name", "bankroll", "on_table", "granted", "hands"}, rows); err != nil {
		return err
	}
	rows = rows[:0]
	for _, r := range s.Ledger {
		seq, err := signed("ledger event", r.Seq)
		if err != nil {
			return err
		}
		rows = append(rows, []any{seq, r.Rec})
	}
	if err := d.copyRows(ctx, tx, "ledger", []string{"seq", "rec"}, rows); err != nil {
		return err
	}
	rows = rows[:0]
	for _, t := range s.Tables {
		rows = append(rows, []any{t.ID, t.Community, t.Rec})
	}
	if err := d.copyRows(ctx, tx, "tables", []string{"id", "community", "rec"}, rows); err != nil {
		return err
	}
	rows = rows[:0]
	for _, a := range s.Actions {
		rows = append(rows, []any{a.Table, a.Rec})
	}
	if err := d.copyRows(ctx, tx, "actions", []string{"table_id", "rec"}, rows); err != nil {
		return err
	}
	rows = rows[:0]
	for _, ss := range s.Sessions {
		seq, err := signed("session", ss.Seq)
		if err != nil {
			return err
		}
		rows = append(rows, []any{seq, ss.Rec})
	}
	if err := d.copyRows(ctx, tx, "sessions", []string{"seq", "rec"}, rows); err != nil {
		return err
	}
	rows = rows[:0]
	for _, sc := range s.Schedules {
		id, err := scheduleNo(sc.ID)
		if err != nil {
			return err
		}
		rows = append(rows, []any{id, sc.Community, sc.Rec})
	}
	if err := d.copyRows(ctx, tx, "schedules", []string{"id", "community", "rec"}, rows); err != nil {
		return err
	}
	rows = rows[:0]
	for _, r := range s.RSVPs {
		id, err := scheduleNo(r.Schedule)
		if err != nil {
			return err
		}
		rows = append(rows, []any{id, r.Game, r.User, r.Rec})
	}
	if err := d.copyRows(ctx, tx, "rsvps", []string{"schedule", "game", "user_id", "rec"}, rows); err != nil {
		return err
	}
	rows = rows[:0]
	for _, r := range s.Results {
		id, err := scheduleNo(r.Schedule)
		if err != nil {
			return err
		}
		rows = append(rows, []any{id, r.Game, r.Rec})
	}
	return d.copyRows(ctx, tx, "results", []string{"schedule", "game", "rec"}, rows)
}

// copyRows writes rows into table with COPY and checks that every one was written.
func (d *DB) copyRows(ctx context.Context, tx pgx.Tx, table string, cols []string, rows [][]any) error {
	if len(rows) == 0 {
		return nil
	}
	n, err := tx.CopyFrom(ctx, pgx.Identifier{table}, cols, pgx.CopyFromRows(rows))
	if err != nil {
		return d.wrap("copy the "+table, err)
	}
	if n != int64(len(rows)) {
		return fmt.Errorf("copy the %s: %d of %d rows written", table, n, len(rows))
	}
	return nil
}

// signed converts a snapshot's sequence number (unsigned, as bbolt keeps them) to a bigint.
func signed(what string, n uint64) (int64, error) {
	if n > math.MaxInt64 {
		return 0, fmt.Errorf("%s number %d is beyond PostgreSQL's bigint", what, n)
	}
	return int64(n), nil
}

func scheduleNo(n uint64) (int64, error) {
	if n == 0 || n > math.MaxInt64 {
		return 0, fmt.Errorf("schedule number %d is not a positive bigint", n)
	}
	return int64(n), nil
}

// Counts counts the records in one snapshot, as the bbolt store's Counts does.
func (d *DB) Counts(ctx context.Context) (record.Counts, error) {
	tx, err := d.pool.BeginTx(ctx, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly})
	if err != nil {
		return record.Counts{}, d.wrap("begin", err)
	}
	defer tx.Rollback(ctx)
	return d.countsOn(ctx, tx)
}

// countsOn is Counts in a transaction.
func (d *DB) countsOn(ctx context.Context, tx pgx.Tx) (record.Counts, error) {
	var n record.Counts
	err := tx.QueryRow(ctx, `SELECT (SELECT count(*) FROM players), (SELECT count(*) FROM hands), (SELECT count(*) FROM sessions),
		(SELECT count(*) FROM schedules), (SELECT count(*) FROM rsvps), (SELECT count(*) FROM results),
		(SELECT count(*) FROM money_events), (SELECT count(*) FROM payment_handles),
		(SELECT count(*) FROM installations), (SELECT count(*) FROM dm_channels)`).
		Scan(&n.Players, &n.Hands, &n.Sessions, &n.Schedules, &n.RSVPs, &n.Results, &n.MoneyEvents, &n.Handles, &n.Installations, &n.DMChannels)
	if err != nil {
		return n, d.wrap("count records", err)
	}
	recs, err := d.ledgerRecords(ctx, tx)
	if err != nil {
		return n, err
	}
	for _, r := range recs {
		es, err := record.DecodeLedger(r.Seq, r.Rec)
		if err != nil {
			return n, err
		}
		n.LedgerEntries += len(es)
	}
	rows, err := tx.Query(ctx, "SELECT id, rec FROM tables")
	if err != nil {
		return n, d.wrap("count tables", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id string
		var rec []byte
		if err := rows.Scan(&id, &rec); err != nil {
			return n, d.wrap("count tables", err)
		}
		var t struct{ Hand *struct{} }
		if err := json.Unmarshal(rec, &t); err != nil {
			return n, fmt.Errorf("table %s: %w", id, err)
		}
		n.Tables++
		if t.Hand != nil {
			n.HandsInProgress++
		}
	}
	return n, d.wrap("count tables", rows.Err())
}

// balanceOn is Balance in a transaction (Balance itself is left as it is: the commit path's owners
// are changing it).
func (d *DB) balanceOn(ctx context.Context, tx pgx.Tx) (record.Totals, error) {
	ledger, err := d.ledgerRecords(ctx, tx)
	if err != nil {
		return record.Totals{}, err
	}
	prows, err := tx.Query(ctx, "SELECT "+playerCols+" FROM players")
	if err != nil {
		return record.Totals{}, d.wrap("load players", err)
	}
	players, err := pgx.CollectRows(prows, func(r pgx.CollectableRow) (table.PlayerRecord, error) { return scanPlayer(r) })
	if err != nil {
		return record.Totals{}, d.wrap("load players", err)
	}
	tables, err := jsonRowsOn[table.TableRecord](ctx, d, tx, "load tables", "SELECT rec FROM tables")
	if err != nil {
		return record.Totals{}, err
	}
	return record.Tally(ledger, players, tables)
}

// summaryOn sums up the database as tx reads it: counts, chip totals and every record's checksum.
func (d *DB) summaryOn(ctx context.Context, tx pgx.Tx) (record.Summary, error) {
	s, err := d.snapshotOn(ctx, tx)
	if err != nil {
		return record.Summary{}, err
	}
	n, err := d.countsOn(ctx, tx)
	if err != nil {
		return record.Summary{}, err
	}
	t, balance := d.balanceOn(ctx, tx) // an error of the reads themselves fails the hands' reads below
	if balance != nil && ctx.Err() != nil {
		return record.Summary{}, ctx.Err() // cancelled, not a ledger that does not balance
	}
	return record.Summarize(ctx, s, n, t, balance)
}
