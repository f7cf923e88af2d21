// Package postgres keeps the dealer's state in PostgreSQL, for several dealerbot processes that share
// one database: it implements bot.Store, schedule.Store and bot.Leases with the same meaning as the
// bbolt store (package storage), which stays the embedded default.
//
// # Basics
//
// Open connects with a pgxpool, creates or migrates the schema from the versioned SQL files embedded
// under migrations/ (one transaction, serialized between processes that start together), and refuses
// a database whose schema is newer than this binary knows. Every method is one transaction: Commit
// applies a whole table.Change or nothing. Records are kept as the bbolt store keeps them (JSON tables
// and sessions, and hands and ledger events in the compact binary form of package storage/record),
// one row each. The package does not link the bbolt store: what both stores share is in
// storage/record.
//
// # Ownership
//
// A community (a Discord guild, a Slack team, the console) is owned by one process at a time through
// a row of the leases table: owner, epoch (a fencing token) and expiry, all judged by the database
// server's clock. A Change carrying a Fence, and a schedule write whose context carries one
// (table.WithFence), is applied only if the lease row still names that owner and epoch: the check
// (dealerbot_fence) runs in the same transaction as the writes and takes the row FOR SHARE, so a
// takeover, which updates the row, waits for the commits under way and every later commit of the old
// owner fails with bot.ErrNotOwner. Session advisory locks are not used: they belong to a pooled
// connection, not a process, and carry no token.
//
// # Caveats
//
// A commit whose connection breaks after COMMIT was sent may have been applied although the call
// failed: Commit then wraps bot.ErrOutcomeUnknown, and the caller reads back (the table's Step) to
// learn whether it landed.
package postgres

import (
	"context"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/dealerbot/dealerbot/bot"
	"github.com/dealerbot/dealerbot/bot/schedule"
	"github.com/dealerbot/dealerbot/bot/table"
	"github.com/dealerbot/dealerbot/storage/record"
)

//go:embed migrations/*.sql
var migrationFiles embed.FS

// migrations are the schema's versions in order: migrations[i] brings the schema to version i+1.
var migrations = func() []string {
	names, err := fs.Glob(migrationFiles, "migrations/*.sql")
	if err != nil {
		panic(err)
	}
	slices.Sort(names)
	out := make([]string, len(names))
	for i, n := range names {
		b, err := migrationFiles.ReadFile(n)
		if err != nil {
			panic(err)
		}
		if want := fmt.Sprintf("migrations/%03d_", i+1); !strings.HasPrefix(n, want) {
			panic("migration " + n + " is out of sequence: want " + want)
		}
		out[i] = string(b)
	}
	return out
}()

// SchemaVersion is the schema version this binary writes.
func SchemaVersion() int { return len(migrations) }

// ErrNewerSchema is returned by Open for a database migrated by a newer dealerbot.
var ErrNewerSchema = errors.New("the database was set up by a newer dealerbot")

// ErrUnreachable wraps every failure to reach the database, so the dealer can tell its players that
// nothing changed because the database is out of reach rather than apologize for a fault.
var ErrUnreachable = bot.ErrStoreUnreachable

// DB is a dealer database on PostgreSQL. It is safe for concurrent use.
type DB struct {
	pool *pgxpool.Pool
	// renewals is a pool of its own for lease renewals, so that tables committing, claims and scans
	// holding every connection of pool cannot make a process miss its renewals.
	renewals *pgxpool.Pool
	safe     string // the URL without its password, for messages
}

var (
	_ bot.Store      = (*DB)(nil)
	_ bot.Leases     = (*DB)(nil)
	_ schedule.Store = (*DB)(nil)
)

// SessionTimeouts are the settings of every session the dealer opens, unless its URL sets them:
// no statement waits more than lock_timeout for a lock or runs longer than statement_timeout, and
// the server ends a session left idle inside a transaction (a paused process) after
// idle_in_transaction_session_timeout, releasing its locks. The dealer's own transactions are one
// round trip each, or a few short ones (the money book, schedules, migrate), far inside these.
var SessionTimeouts = map[string]string{
	"lock_timeout":                        "2s",
	"statement_timeout":                   "30s",
	"idle_in_transaction_session_timeout": "2s",
}

// longTransaction lifts the statement and idle-in-transaction timeouts (SessionTimeouts) for the rest
// of tx: an operator's copy of the whole database (migrate, backup) reads and writes between its
// statements for as long as the data takes.
func (d *DB) longTransaction(ctx context.Context, tx pgx.Tx) error {
	_, err := tx.Exec(ctx, "SET LOCAL statement_timeout = 0; SET LOCAL idle_in_transaction_session_timeout = 0")
	return d.wrap("lift the timeouts of a long transaction", err)
}

// Open connects to the database at rawURL (postgres://user:password@host:port/db?...), checks that it
// answers, and creates or migrates its schema. A wrong URL, host, user or password is an error that
// says which; a schema newer than this binary's is refused (ErrNewerSchema) and nothing is written.
func Open(ctx context.Context, rawURL string) (*DB, error) {
	d, err := connect(ctx, rawURL)
	if err != nil {
		return nil, err
	}
	if err := d.migrate(ctx); err != nil {
		d.pool.Close()
		return nil, err
	}
	return d, nil
}

// connect opens a pool on rawURL and checks that the database answers.
func connect(ctx context.Context, rawURL string) (*DB, error) {
	safe := Redact(rawURL)
	cfg, err := pgxpool.ParseConfig(rawURL)
	if err != nil {
		return nil, fmt.Errorf("DEALERBOT_DATABASE_URL %s is not a PostgreSQL URL (postgres://user:password@host:5432/dbname): %v", safe, redactErr(err, rawURL))
	}
	if cfg.MaxConns < 16 {
		cfg.MaxConns = 16 // tables commit in parallel; PostgreSQL groups their syncs
	}
	cfg.ConnConfig.ConnectTimeout = 5 * time.Second
	// Bounded waits on every session: a process paused inside a transaction, or a statement stuck
	// behind a lock, must not stall the others (a takeover waits for the lease row). The URL may set
	// other values (options=-c%20lock_timeout%3D5s, or lock_timeout=5s as a parameter).
	for name, value := range SessionTimeouts {
		if _, set := cfg.ConnConfig.RuntimeParams[name]; !set {
			cfg.ConnConfig.RuntimeParams[name] = value
		}
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("open the database %s: %v", safe, redactErr(err, rawURL))
	}
	pctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := pool.Ping(pctx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("cannot connect to the database %s: %s", safe, connectProblem(err, rawURL))
	}
	rcfg := cfg.Copy()
	rcfg.MaxConns, rcfg.MinConns = 2, 0
	renewals, err := pgxpool.NewWithConfig(ctx, rcfg)
	if err != nil {
		pool.Close()
		return nil, fmt.Errorf("open the database %s: %v", safe, redactErr(err, rawURL))
	}
	return &DB{pool: pool, renewals: renewals, safe: safe}, nil
}

// connectProblem says in a few words why a connection failed.
func connectProblem(err error, rawURL string) string {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		switch pe.Code {
		case "28P01", "28000":
			return "the user name or password is wrong (" + pe.Message + ")"
		case "3D000":
			return "the database does not exist (" + pe.Message + "): create it first"
		}
		return pe.Message
	}
	// pgx lists every address it tried, a line each: one line is enough.
	lines := strings.Split(redactErr(err, rawURL).Error(), "\n")
	last := strings.TrimSpace(lines[len(lines)-1])
	if i := strings.LastIndex(last, "dial error: "); i >= 0 {
		last = "nothing answers there (" + last[i+len("dial error: "):] + ")"
	}
	return last
}

// migrateLock is the key of the transaction-scoped advisory lock that serializes migrations of
// processes starting together (it is released with the transaction: no ownership rides on it).
const migrateLock = 0x6465616c6572 // "dealer"

func (d *DB) migrate(ctx context.Context) error {
	tx, err := d.pool.Begin(ctx)
	if err != nil {
		return d.wrap("begin the schema check", err)
	}
	defer tx.Rollback(ctx)
	if _, err := tx.Exec(ctx, "SELECT pg_advisory_xact_lock($1)", int64(migrateLock)); err != nil {
		return d.wrap("lock the schema", err)
	}
	if _, err := tx.Exec(ctx, `CREATE TABLE IF NOT EXISTS dealerbot_schema (
		version integer PRIMARY KEY, applied timestamptz NOT NULL DEFAULT now())`); err != nil {
		return d.wrap("create the schema table", err)
	}
	var have int
	if err := tx.QueryRow(ctx, "SELECT coalesce(max(version), 0) FROM dealerbot_schema").Scan(&have); err != nil {
		return d.wrap("read the schema version", err)
	}
	if have > len(migrations) {
		return fmt.Errorf("the database %s has schema version %d, and this dealerbot knows versions up to %d: run the newer dealerbot that set it up, nothing was changed: %w",
			d.safe, have, len(migrations), ErrNewerSchema)
	}
	if have == len(migrations) {
		return nil // nothing to write; the transaction only read
	}
	for v := have + 1; v <= len(migrations); v++ {
		if _, err := tx.Exec(ctx, migrations[v-1]); err != nil {
			return fmt.Errorf("migrate the database %s to schema version %d: %w", d.safe, v, err)
		}
		if _, err := tx.Exec(ctx, "INSERT INTO dealerbot_schema (version) VALUES ($1)", v); err != nil {
			return d.wrap("record the schema version", err)
		}
	}
	return d.wrap("commit the schema", tx.Commit(ctx))
}

// Close closes every connection.
func (d *DB) Close() error {
	d.pool.Close()
	d.renewals.Close()
	return nil
}

// String names the database without its password.
func (d *DB) String() string { return d.safe }

// Ping reports whether the database answers.
func (d *DB) Ping(ctx context.Context) error { return d.wrap("ping", d.pool.Ping(ctx)) }

// wrap adds what was being done to err, and marks a connection failure ErrUnreachable.
func (d *DB) wrap(what string, err error) error {
	if err == nil {
		return nil
	}
	if errors.Is(err, bot.ErrNotOwner) || errors.Is(err, bot.ErrMoneyMoved) || errors.Is(err, bot.ErrInsufficient) || errors.Is(err, record.ErrOverflow) || errors.Is(err, bot.ErrApplied) || errors.Is(err, bot.ErrStale) {
		return err
	}
	var pe *pgconn.PgError
	switch {
	case errors.As(err, &pe):
		switch pe.Code {
		case "DBF01":
			return fmt.Errorf("%s: %w", what, bot.ErrNotOwner)
		case "DBM01":
			return bot.ErrMoneyMoved
		case "23514":
			if pe.ConstraintName == "players_bankroll_not_negative" {
				return bot.ErrInsufficient
			}
		case "22003":
			return fmt.Errorf("%s: %w", what, record.ErrOverflow)
		case "DBV01":
			return fmt.Errorf("%s: %w", what, bot.ErrStale)
		case "DBH01":
			return fmt.Errorf("%s: the hand is stored already: %w", what, bot.ErrApplied)
		case "23505":
			switch pe.ConstraintName {
			case "applied_pkey":
				return bot.ErrApplied
			case "hands_pkey":
				return fmt.Errorf("%s: the hand is stored already: %w", what, bot.ErrApplied)
			}
		case "55P03", "57014", "25P03":
			// A lock not had within lock_timeout, a statement past statement_timeout, a session
			// ended idle in a transaction: the transaction rolled back, nothing of it was written.
			return fmt.Errorf("%s: %w (%v)", what, ErrUnreachable, err)
		case "57P01", "57P02", "57P03", "08000", "08003", "08006", "08001", "08004":
			return fmt.Errorf("%s: %w (%v)", what, ErrUnreachable, err)
		}
		return fmt.Errorf("%s: %w", what, err)
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded), errors.Is(err, pgx.ErrNoRows):
		return fmt.Errorf("%s: %w", what, err)
	}
	// Anything else from the driver is the network: refused, reset, timed out, closed.
	return fmt.Errorf("%s: %w (%v)", what, ErrUnreachable, err)
}

// --- Commit ------------------------------------------------------------------------------------

// Commit applies c in one transaction, sent as one batch in one round trip (a batch outside a
// transaction runs as one implicit transaction), so no lock is held across round trips: a process
// paused mid-commit holds nothing. A change with a Fence is applied only while the fence is the
// community's lease (bot.ErrNotOwner otherwise); a stepped change only while its table is at the
// version it was computed from (bot.ErrStale); a bankroll that would go below zero refuses the whole
// change (bot.ErrInsufficient).
func (d *DB) Commit(ctx context.Context, c table.Change) error {
	var b pgx.Batch
	queueFence(&b, c.Fence)
	queueOnce(&b, c.Once)
	if id := c.TableID(); id != "" {
		b.Queue("SELECT dealerbot_step($1, $2, $3, $4)", id, c.Base, c.Step, c.Step != "")
	}
	queueLedger(&b, c.Ledger)
	if err := queueRecords(&b, c); err != nil {
		return err
	}
	return d.wrapWrite("commit", d.pool.SendBatch(ctx, &b).Close())
}

// wrapWrite is wrap for a write: a lost answer (lostAnswer) wraps bot.ErrOutcomeUnknown too, so
// nobody is told "nothing changed" for a write that may have landed.
func (d *DB) wrapWrite(what string, err error) error {
	if lostAnswer(err) {
		return fmt.Errorf("%s: %w: %w (%v)", what, bot.ErrOutcomeUnknown, ErrUnreachable, err)
	}
	return d.wrap(what, err)
}

// lostAnswer reports whether err leaves a write's fate unknown: the request may have reached the
// server (pgconn could not say it was never sent) and no answer from the server came back (an
// error the server sent, even a FATAL one, means the transaction did not commit).
func lostAnswer(err error) bool {
	if err == nil || pgconn.SafeToRetry(err) {
		return false
	}
	var pe *pgconn.PgError
	return !errors.As(err, &pe)
}

// queueFence queues the lease check that fails the transaction unless f is still the lease.
func queueFence(b *pgx.Batch, f *table.Fence) {
	if f != nil {
		b.Queue("SELECT dealerbot_fence($1, $2, $3)", f.Community, f.Owner, f.Epoch)
	}
}

// queueOnce queues the record of a delivery ID, which fails the transaction (bot.ErrApplied) when
// the ID was applied before.
func queueOnce(b *pgx.Batch, id string) {
	if id != "" {
		b.Queue("INSERT INTO applied (id) VALUES ($1)", id)
	}
}

// queueLedger queues the account updates of es and their ledger records, one per event. A grant
// only opens an account: it and its ledger record are written only when the player has none.
func queueLedger(b *pgx.Batch, es []table.LedgerEntry) {
	for _, e := range es {
		if e.Kind == table.KindGrant {
			one := e
			one.Seq = 0
			b.Queue(`WITH opened AS (
					INSERT INTO players (workspace, user_id, name, bankroll, on_table, granted, hands)
					VALUES ($1, $2, $3, $4, $5, $4, 0) ON CONFLICT DO NOTHING RETURNING 1)
				INSERT INTO ledger (rec) SELECT $6 FROM opened`,
				e.Workspace, e.User, e.Name, e.Bankroll, e.OnTable, record.EncodeLedger([]table.LedgerEntry{one}))
			continue
		}
		var granted, hands int64
		switch e.Kind {
		case table.KindAdjust:
			granted = e.Bankroll
		case table.KindResult:
			hands = 1
		}
		// Sums out of bigint's range fail with 22003 (record.ErrOverflow); a bankroll below zero
		// fails the CHECK (bot.ErrInsufficient). Either rolls back the whole change.
		// Update first: an INSERT ... ON CONFLICT would check the CHECK on the row it proposes
		// (a buy-in's negative amount) before it found the conflict.
		b.Queue(`WITH u AS (
				UPDATE players SET name = CASE WHEN $3 <> '' THEN $3 ELSE name END,
					bankroll = bankroll + $4, on_table = on_table + $5, granted = granted + $6, hands = hands + $7
				WHERE workspace = $1 AND user_id = $2 RETURNING 1)
			INSERT INTO players (workspace, user_id, name, bankroll, on_table, granted, hands)
			SELECT $1, $2, $3, $4, $5, $6, $7 WHERE NOT EXISTS (SELECT 1 FROM u)`,
			e.Workspace, e.User, e.Name, e.Bankroll, e.OnTable, granted, hands)
	}
	for len(es) > 0 {
		n := 1
		for n < len(es) && record.SameEvent(es[0], es[n]) {
			n++
		}
		group := make([]table.LedgerEntry, 0, n)
		for _, e := range es[:n] {
			if e.Kind != table.KindGrant { // written with its account above
				e.Seq = 0
				group = append(group, e)
			}
		}
		if len(group) > 0 {
			b.Queue("INSERT INTO ledger (rec) VALUES ($1)", record.EncodeLedger(group))
		}
		es = es[n:]
	}
}

// queueRecords queues the change's table, action log, deletion, hand and session.
func queueRecords(b *pgx.Batch, c table.Change) error {
	if c.Table != nil {
		data, err := json.Marshal(c.Table)
		if err != nil {
			return err
		}
		// A new table starts at version 1; an existing one was moved on by dealerbot_step.
		b.Queue(`INSERT INTO tables (id, community, rec, version, step) VALUES ($1, $2, $3, 1, $4)
			ON CONFLICT (id) DO UPDATE SET community = excluded.community, rec = excluded.rec`,
			c.Table.ID, table.Community(c.Table.Platform, c.Table.Workspace), data, c.Step)
		if c.Table.Hand == nil {
			b.Queue("DELETE FROM actions WHERE table_id = $1", c.Table.ID)
		}
	}
	if c.Actions != nil {
		data, err := json.Marshal(c.Actions)
		if err != nil {
			return err
		}
		b.Queue(`INSERT INTO actions (table_id, rec) VALUES ($1, $2)
			ON CONFLICT (table_id) DO UPDATE SET rec = excluded.rec`, c.Actions.Table, data)
	}
	if c.DeleteTable != "" {
		b.Queue("DELETE FROM tables WHERE id = $1", c.DeleteTable)
		b.Queue("DELETE FROM actions WHERE table_id = $1", c.DeleteTable)
	}
	if c.Hand != nil {
		// A hand is stored once (the same salt again is a retried step: bot.ErrApplied); another
		// hand under a number an older version's session took is kept beside, as storage.DB does.
		b.Queue("SELECT dealerbot_hand($1, $2, $3, $4)", c.Hand.Table, c.Hand.No, c.Hand.Salt, record.EncodeHand(*c.Hand))
	}
	if c.Session != nil {
		data, err := json.Marshal(c.Session)
		if err != nil {
			return err
		}
		b.Queue("INSERT INTO sessions (rec) VALUES ($1)", data)
	}
	if a := c.Answer; a != nil { // the forwarded command's reply, with its step (inbox.go)
		b.Queue(answerSQL+")", a.Seq, a.Reply, true) // only a row still unanswered
	}
	return queueMoney(b, c.Money, c.MoneyAfter) // money.go
}

// --- reads -------------------------------------------------------------------------------------

// Landed reports whether a change or money append keyed key (Change.Once, money.Event.Key) was
// applied (keys are kept for an hour: Prune).
func (d *DB) Landed(ctx context.Context, key string) (bool, error) {
	var ok bool
	err := d.pool.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM applied WHERE id = $1)", key).Scan(&ok)
	return ok, d.wrap("read back a write", err)
}

// Tables returns every open table, as last committed.
func (d *DB) Tables(ctx context.Context) ([]table.TableRecord, error) {
	return d.tables(ctx, "", "")
}

// CommunityTables returns the open tables of one community.
func (d *DB) CommunityTables(ctx context.Context, community string) ([]table.TableRecord, error) {
	return d.tables(ctx, "t.community", community)
}

// Table returns one open table.
func (d *DB) Table(ctx context.Context, id string) (table.TableRecord, bool, error) {
	ts, err := d.tables(ctx, "t.id", id)
	if err != nil || len(ts) == 0 {
		return table.TableRecord{}, false, err
	}
	return ts[0], true, nil
}

// tables reads the tables whose column col (t.id or t.community) is val; all of them when col is
// empty.
func (d *DB) tables(ctx context.Context, col, val string) ([]table.TableRecord, error) {
	q := `SELECT t.id, t.rec, a.rec, t.version, t.step FROM tables t LEFT JOIN actions a ON a.table_id = t.id`
	var args []any
	if col != "" {
		q += " WHERE " + col + " = $1"
		args = append(args, val)
	}
	rows, err := d.pool.Query(ctx, q+" ORDER BY t.id", args...)
	if err != nil {
		return nil, d.wrap("load tables", err)
	}
	defer rows.Close()
	var out []table.TableRecord
	for rows.Next() {
		var id, step string
		var rec, acts []byte
		var version int64
		if err := rows.Scan(&id, &rec, &acts, &version, &step); err != nil {
			return nil, d.wrap("load tables", err)
		}
		var t table.TableRecord
		if err := json.Unmarshal(rec, &t); err != nil {
			return nil, fmt.Errorf("table %s: %w", id, err)
		}
		t.Version, t.Step = version, step
		// As in storage.DB: the action log only grows within a hand, so the longer copy is newer.
		if acts != nil && t.Hand != nil {
			var log table.ActionLog
			if err := json.Unmarshal(acts, &log); err != nil {
				return nil, fmt.Errorf("actions of table %s: %w", id, err)
			}
			if log.HandNo == t.Hand.No && len(log.Actions) > len(t.Hand.Actions) {
				t.Hand.Actions, t.Hand.TimedOut, t.Hand.Deadline = log.Actions, log.TimedOut, log.Deadline
			}
		}
		out = append(out, t)
	}
	return out, d.wrap("load tables", rows.Err())
}

const playerCols = "workspace, user_id, name, bankroll, on_table, granted, hands"

func scanPlayer(row pgx.Row) (table.PlayerRecord, error) {
	var p table.PlayerRecord
	var hands int64
	err := row.Scan(&p.Workspace, &p.User, &p.Name, &p.Bankroll, &p.OnTable, &p.Granted, &hands)
	p.Hands = int(hands)
	return p, err
}

// Player returns one player's record.
func (d *DB) Player(ctx context.Context, workspace, user string) (table.PlayerRecord, bool, error) {
	p, err := scanPlayer(d.pool.QueryRow(ctx, "SELECT "+playerCols+" FROM players WHERE workspace = $1 AND user_id = $2", workspace, user))
	if errors.Is(err, pgx.ErrNoRows) {
		return table.PlayerRecord{}, false, nil
	}
	if err != nil {
		return table.PlayerRecord{}, false, d.wrap("load player", err)
	}
	return p, true, nil
}

// Players returns every player of a workspace, ordered by user ID.
func (d *DB) Players(ctx context.Context, workspace string) ([]table.PlayerRecord, error) {
	rows, err := d.pool.Query(ctx, "SELECT "+playerCols+" FROM players WHERE workspace = $1 ORDER BY user_id", workspace)
	if err != nil {
		return nil, d.wrap("load players", err)
	}
	defer rows.Close()
	var out []table.PlayerRecord
	for rows.Next() {
		p, err := scanPlayer(rows)
		if err != nil {
			return nil, d.wrap("load players", err)
		}
		out = append(out, p)
	}
	return out, d.wrap("load players", rows.Err())
}

// Hands returns up to n finished hands of a table, the most recent first.
func (d *DB) Hands(ctx context.Context, tableID string, n int) ([]table.HandRecord, error) {
	if n <= 0 {
		return nil, nil
	}
	rows, err := d.pool.Query(ctx, `SELECT no, rec FROM hands WHERE table_id = $1 ORDER BY no DESC, kept DESC LIMIT $2`, tableID, n)
	if err != nil {
		return nil, d.wrap("load hands", err)
	}
	defer rows.Close()
	var out []table.HandRecord
	for rows.Next() {
		var no int64
		var rec []byte
		if err := rows.Scan(&no, &rec); err != nil {
			return nil, d.wrap("load hands", err)
		}
		h, err := record.DecodeHand(tableID, no, rec)
		if err != nil {
			return nil, err
		}
		out = append(out, h)
	}
	return out, d.wrap("load hands", rows.Err())
}

// Hand returns hand number no of a table; of several kept under that number, the newest.
func (d *DB) Hand(ctx context.Context, tableID string, no int64) (table.HandRecord, bool, error) {
	var rec []byte
	err := d.pool.QueryRow(ctx, `SELECT rec FROM hands WHERE table_id = $1 AND no = $2 ORDER BY kept DESC LIMIT 1`, tableID, no).Scan(&rec)
	if errors.Is(err, pgx.ErrNoRows) {
		return table.HandRecord{}, false, nil
	}
	if err != nil {
		return table.HandRecord{}, false, d.wrap("load hand", err)
	}
	h, err := record.DecodeHand(tableID, no, rec)
	return h, err == nil, err
}

// EachHand calls fn with every finished hand, table by table and in hand order, in batches.
func (d *DB) EachHand(ctx context.Context, fn func(table.HandRecord) error) error {
	return d.eachHand(ctx, "", fn)
}

// eachHand walks the finished hands of the tables whose ID starts with prefix (all for ""), table
// by table in hand order, in batches read by key.
func (d *DB) eachHand(ctx context.Context, prefix string, fn func(table.HandRecord) error) error {
	const batchSize = 5000
	like := strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(prefix) + "%"
	after := struct {
		table    string
		no, kept int64
	}{"", -1 << 62, 0}
	for {
		rows, err := d.pool.Query(ctx, `SELECT table_id, no, kept, rec FROM hands
			WHERE table_id LIKE $4 AND (table_id, no, kept) > ($1, $2, $3) ORDER BY table_id, no, kept LIMIT $5`,
			after.table, after.no, after.kept, like, batchSize)
		if err != nil {
			return d.wrap("load hands", err)
		}
		var batch []table.HandRecord
		for rows.Next() {
			var rec []byte
			if err := rows.Scan(&after.table, &after.no, &after.kept, &rec); err != nil {
				rows.Close()
				return d.wrap("load hands", err)
			}
			h, err := record.DecodeHand(after.table, after.no, rec)
			if err != nil {
				rows.Close()
				return err
			}
			batch = append(batch, h)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return d.wrap("load hands", err)
		}
		for _, h := range batch {
			if err := ctx.Err(); err != nil {
				return err
			}
			if err := fn(h); err != nil {
				return err
			}
		}
		if len(batch) < batchSize {
			return nil
		}
	}
}

// Ledger returns every ledger entry in order.
func (d *DB) Ledger(ctx context.Context) ([]table.LedgerEntry, error) {
	recs, err := d.ledgerRecords(ctx, d.pool)
	if err != nil {
		return nil, err
	}
	var out []table.LedgerEntry
	for _, r := range recs {
		es, err := record.DecodeLedger(r.Seq, r.Rec)
		if err != nil {
			return nil, err
		}
		out = append(out, es...)
	}
	return out, nil
}

// querier is the pool or a transaction.
type querier interface {
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
}

// ledgerRecords reads the stored ledger records (one per event) in order.
func (d *DB) ledgerRecords(ctx context.Context, q querier) ([]record.LedgerRecord, error) {
	rows, err := q.Query(ctx, "SELECT seq, rec FROM ledger ORDER BY seq")
	if err != nil {
		return nil, d.wrap("load the ledger", err)
	}
	recs, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (record.LedgerRecord, error) {
		var seq int64
		var rec []byte
		err := r.Scan(&seq, &rec)
		return record.LedgerRecord{Seq: uint64(seq), Rec: rec}, err
	})
	return recs, d.wrap("load the ledger", err)
}

// Sessions returns every finished session in order.
func (d *DB) Sessions(ctx context.Context) ([]table.SessionRecord, error) {
	return jsonRows[table.SessionRecord](ctx, d, "load sessions", "SELECT rec FROM sessions ORDER BY seq")
}

// jsonRows runs a query of one JSON column and decodes each row into a T.
func jsonRows[T any](ctx context.Context, d *DB, what, q string, args ...any) ([]T, error) {
	return jsonRowsOn[T](ctx, d, d.pool, what, q, args...)
}

// jsonRowsOn is jsonRows in a transaction (or on the pool).
func jsonRowsOn[T any](ctx context.Context, d *DB, on querier, what, q string, args ...any) ([]T, error) {
	rows, err := on.Query(ctx, q, args...)
	if err != nil {
		return nil, d.wrap(what, err)
	}
	defer rows.Close()
	var out []T
	for rows.Next() {
		var rec []byte
		if err := rows.Scan(&rec); err != nil {
			return nil, d.wrap(what, err)
		}
		var v T
		if err := json.Unmarshal(rec, &v); err != nil {
			return nil, fmt.Errorf("%s: %w", what, err)
		}
		out = append(out, v)
	}
	return out, d.wrap(what, rows.Err())
}

// Balance reads the chip totals in one snapshot and reports an error when the ledger does not
// balance, exactly as the bbolt store's Balance does (both hand their records to record.Tally).
func (d *DB) Balance(ctx context.Context) (record.Totals, error) {
	var t record.Totals
	tx, err := d.pool.BeginTx(ctx, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly})
	if err != nil {
		return t, d.wrap("begin", err)
	}
	defer tx.Rollback(ctx)
	ledger, err := d.ledgerRecords(ctx, tx)
	if err != nil {
		return t, err
	}
	prows, err := tx.Query(ctx, "SELECT "+playerCols+" FROM players")
	if err != nil {
		return t, d.wrap("load players", err)
	}
	players, err := pgx.CollectRows(prows, func(r pgx.CollectableRow) (table.PlayerRecord, error) { return scanPlayer(r) })
	if err != nil {
		return t, d.wrap("load players", err)
	}
	tables, err := jsonRowsOn[table.TableRecord](ctx, d, tx, "load tables", "SELECT rec FROM tables")
	if err != nil {
		return t, err
	}
	return record.Tally(ledger, players, tables)
}

// --- schedules ---------------------------------------------------------------------------------

// fenceSchedule queues the fence a schedule write carries in its context, if any.
func fenceSchedule(ctx context.Context, b *pgx.Batch) { queueFence(b, table.FenceFrom(ctx)) }

func scheduleKey(id string) (int64, error) {
	n, err := strconv.ParseInt(id, 10, 64)
	if err != nil || n <= 0 {
		return 0, fmt.Errorf("schedule ID %q is not a positive number", id)
	}
	return n, nil
}

// PutSchedule writes s; when s.ID is empty it first gives s the next schedule number. A schedule
// with an ID is written only at the version it was read at (bot.ErrStale otherwise). The writes go in
// one batch: no lock is held across round trips.
func (d *DB) PutSchedule(ctx context.Context, s *schedule.Schedule) error {
	cp := *s
	community := table.Community(s.Platform, s.Workspace)
	if cp.ID == "" {
		var n int64
		if err := d.pool.QueryRow(ctx, "SELECT nextval(pg_get_serial_sequence('schedules', 'id'))").Scan(&n); err != nil {
			return d.wrap("put schedule", err)
		}
		cp.ID, cp.Version = strconv.FormatInt(n, 10), 0
	}
	id, err := scheduleKey(cp.ID)
	if err != nil {
		return err
	}
	cp.Version++
	data, err := json.Marshal(cp)
	if err != nil {
		return err
	}
	var b pgx.Batch
	fenceSchedule(ctx, &b)
	if s.ID != "" {
		b.Queue("SELECT dealerbot_schedule_at($1, $2, false)", id, s.Version)
	} else {
		queueOnce(&b, s.Key) // the request that adds it, applied once
	}
	b.Queue(`INSERT INTO schedules (id, community, rec, version) VALUES ($1, $2, $3, $4)
		ON CONFLICT (id) DO UPDATE SET community = excluded.community, rec = excluded.rec, version = excluded.version`, id, community, data, cp.Version)
	if err := d.pool.SendBatch(ctx, &b).Close(); err != nil {
		return d.wrapWrite("put schedule", err)
	}
	s.ID, s.Version = cp.ID, cp.Version // only once the schedule is stored
	return nil
}

// DeleteSchedule removes a schedule and its RSVPs; its results stay.
func (d *DB) DeleteSchedule(ctx context.Context, id string) error {
	n, err := scheduleKey(id)
	if err != nil {
		return err
	}
	var b pgx.Batch
	fenceSchedule(ctx, &b)
	b.Queue("DELETE FROM schedules WHERE id = $1", n)
	b.Queue("DELETE FROM rsvps WHERE schedule = $1", n)
	return d.wrapWrite("delete schedule", d.pool.SendBatch(ctx, &b).Close())
}

// Schedules returns every schedule, ordered by ID.
func (d *DB) Schedules(ctx context.Context) ([]schedule.Schedule, error) {
	rows, err := d.pool.Query(ctx, "SELECT rec, version FROM schedules ORDER BY id")
	if err != nil {
		return nil, d.wrap("load schedules", err)
	}
	defer rows.Close()
	var out []schedule.Schedule
	for rows.Next() {
		var rec []byte
		var s schedule.Schedule
		if err := rows.Scan(&rec, &s.Version); err != nil {
			return nil, d.wrap("load schedules", err)
		}
		version := s.Version
		if err := json.Unmarshal(rec, &s); err != nil {
			return nil, fmt.Errorf("load schedules: %w", err)
		}
		// The column is the version writes are checked against (a schedule copied in by migrate
		// keeps the version its file's record says, and starts the column's count at 0).
		s.Version = version
		out = append(out, s)
	}
	return out, d.wrap("load schedules", rows.Err())
}

// errNoSchedule refuses an RSVP for a schedule that was removed meanwhile.
var errNoSchedule = errors.New("that schedule does not exist")

// PutRSVP records a player's answer for one game, replacing an earlier one. It refuses an answer for
// a schedule that does not exist.
func (d *DB) PutRSVP(ctx context.Context, r schedule.RSVP) error {
	n, err := scheduleKey(r.Schedule)
	if err != nil {
		return err
	}
	data, err := json.Marshal(r)
	if err != nil {
		return err
	}
	tag, err := d.pool.Exec(ctx, `INSERT INTO rsvps (schedule, game, user_id, rec)
		SELECT $1, $2, $3, $4 WHERE EXISTS (SELECT 1 FROM schedules WHERE id = $1)
		ON CONFLICT (schedule, game, user_id) DO UPDATE SET rec = excluded.rec`, n, r.Game.UnixNano(), r.User, data)
	if err != nil {
		return d.wrapWrite("put rsvp", err)
	}
	if tag.RowsAffected() == 0 {
		return fmt.Errorf("rsvp for schedule %s: %w", r.Schedule, errNoSchedule)
	}
	return nil
}

// RSVPs returns the answers for one game, in the order they were given.
func (d *DB) RSVPs(ctx context.Context, id string, game time.Time) ([]schedule.RSVP, error) {
	n, err := scheduleKey(id)
	if err != nil {
		return nil, err
	}
	out, err := jsonRows[schedule.RSVP](ctx, d, "load rsvps", "SELECT rec FROM rsvps WHERE schedule = $1 AND game = $2 ORDER BY user_id", n, game.UnixNano())
	slices.SortStableFunc(out, func(a, b schedule.RSVP) int { return a.Time.Compare(b.Time) })
	return out, err
}

// PutResult records a game's result and writes s (when it still exists) in the same transaction.
func (d *DB) PutResult(ctx context.Context, r schedule.Result, s *schedule.Schedule) error {
	n, err := scheduleKey(r.Schedule)
	if err != nil {
		return err
	}
	data, err := json.Marshal(r)
	if err != nil {
		return err
	}
	var b pgx.Batch
	fenceSchedule(ctx, &b)
	b.Queue(`INSERT INTO results (schedule, game, rec) VALUES ($1, $2, $3)
		ON CONFLICT (schedule, game) DO UPDATE SET rec = excluded.rec`, n, r.Game.UnixNano(), data)
	var next *schedule.Schedule
	if s != nil {
		sid, err := scheduleKey(s.ID)
		if err != nil {
			return err
		}
		cp := *s
		cp.Version++
		sdata, err := json.Marshal(cp)
		if err != nil {
			return err
		}
		b.Queue("SELECT dealerbot_schedule_at($1, $2, true)", sid, s.Version)
		// Removed meanwhile: the result alone.
		b.Queue("UPDATE schedules SET rec = $2, version = $3 WHERE id = $1", sid, sdata, cp.Version)
		next = &cp
	}
	if err := d.pool.SendBatch(ctx, &b).Close(); err != nil {
		return d.wrapWrite("put result", err)
	}
	if next != nil {
		s.Version = next.Version
	}
	return nil
}

// Results returns a schedule's results, oldest game first.
func (d *DB) Results(ctx context.Context, id string) ([]schedule.Result, error) {
	n, err := scheduleKey(id)
	if err != nil {
		return nil, err
	}
	return jsonRows[schedule.Result](ctx, d, "load results", "SELECT rec FROM results WHERE schedule = $1 ORDER BY game", n)
}

// --- leases ------------------------------------------------------------------------------------

func interval(ttl time.Duration) string {
	return strconv.FormatInt(ttl.Microseconds(), 10) + " microseconds"
}

// Claim takes community for owner when it is free or its lease expired (by the database's clock),
// with the next epoch.
func (d *DB) Claim(ctx context.Context, community, owner string, ttl time.Duration) (bot.Lease, error) {
	if owner == "" {
		return bot.Lease{}, errors.New("claim a community: no owner given")
	}
	l := bot.Lease{Community: community, Owner: owner}
	err := d.pool.QueryRow(ctx, `INSERT INTO leases AS l (community, owner, epoch, expires_at)
		VALUES ($1, $2, 1, now() + $3::interval)
		ON CONFLICT (community) DO UPDATE SET owner = excluded.owner, epoch = l.epoch + 1, expires_at = excluded.expires_at
			WHERE l.owner = '' OR l.expires_at <= now()
		RETURNING epoch, expires_at, expires_at > now()`, community, owner, interval(ttl)).Scan(&l.Epoch, &l.Expires, &l.Live)
	if errors.Is(err, pgx.ErrNoRows) {
		return bot.Lease{}, fmt.Errorf("claim %s: %w", community, bot.ErrOwned)
	}
	if lostAnswer(err) {
		// The claim may have landed: read the lease back (owner names are unique to a process start),
		// rather than leave the community unserved, held by this process, until the lease expires.
		rctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		if rerr := d.pool.QueryRow(rctx, `SELECT epoch, expires_at, expires_at > now() FROM leases
			WHERE community = $1 AND owner = $2`, community, owner).Scan(&l.Epoch, &l.Expires, &l.Live); rerr == nil && l.Live {
			return l, nil
		}
	}
	if err != nil {
		return bot.Lease{}, d.wrap("claim "+community, err)
	}
	return l, nil
}

// Renew extends a lease still held at its epoch.
func (d *DB) Renew(ctx context.Context, l bot.Lease, ttl time.Duration) (bot.Lease, error) {
	err := d.renewals.QueryRow(ctx, `UPDATE leases SET expires_at = now() + $4::interval
		WHERE community = $1 AND owner = $2 AND epoch = $3 RETURNING expires_at, expires_at > now()`,
		l.Community, l.Owner, l.Epoch, interval(ttl)).Scan(&l.Expires, &l.Live)
	if errors.Is(err, pgx.ErrNoRows) {
		return bot.Lease{}, fmt.Errorf("renew %s: %w", l.Community, bot.ErrNotOwner)
	}
	if err != nil {
		return bot.Lease{}, d.wrap("renew "+l.Community, err)
	}
	return l, nil
}

// Release frees a lease still held at its epoch.
func (d *DB) Release(ctx context.Context, l bot.Lease) error {
	_, err := d.pool.Exec(ctx, `UPDATE leases SET owner = '', expires_at = now()
		WHERE community = $1 AND owner = $2 AND epoch = $3`, l.Community, l.Owner, l.Epoch)
	return d.wrap("release "+l.Community, err)
}

// Communities returns every community with open tables, schedules or a lease, with its lease.
func (d *DB) Communities(ctx context.Context) ([]bot.Lease, error) {
	rows, err := d.pool.Query(ctx, `SELECT c.community, coalesce(l.owner, ''), coalesce(l.epoch, 0),
			coalesce(l.expires_at, 'epoch'::timestamptz), coalesce(l.owner <> '' AND l.expires_at > now(), false)
		FROM (SELECT community FROM tables UNION SELECT community FROM schedules UNION SELECT community FROM leases) c
		LEFT JOIN leases l USING (community) ORDER BY c.community`)
	if err != nil {
		return nil, d.wrap("load communities", err)
	}
	defer rows.Close()
	var out []bot.Lease
	for rows.Next() {
		var l bot.Lease
		if err := rows.Scan(&l.Community, &l.Owner, &l.Epoch, &l.Expires, &l.Live); err != nil {
			return nil, d.wrap("load communities", err)
		}
		out = append(out, l)
	}
	return out, d.wrap("load communities", rows.Err())
}

// Pool is the connection pool, for tools and tests that measure the database itself.
func (d *DB) Pool() *pgxpool.Pool { return d.pool }
