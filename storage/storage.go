package storage

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"sync"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/dealerbot/dealerbot/bot"
	"github.com/dealerbot/dealerbot/bot/table"
	"github.com/dealerbot/dealerbot/storage/record"
)

// OpenTimeout is how long Open waits for another process to release the file.
const OpenTimeout = 2 * time.Second

var (
	bucketPlayers  = []byte("players")
	bucketLedger   = []byte("ledger")
	bucketTables   = []byte("tables")
	bucketHands    = []byte("hands")
	bucketSessions = []byte("sessions")
	bucketActions  = []byte("actions")
	bucketMeta     = []byte("meta")
	// bucketApplied holds the delivery IDs (Change.Once) already applied, with when (Unix seconds).
	bucketApplied = []byte("applied")
	// bucketVersions holds each open table's version and the key of its last step (Change.Step):
	// 8 bytes of version, then the key.
	bucketVersions = []byte("versions")

	// keyHandsFormat in bucketMeta marks a database whose hands are all binary (handsBinary).
	keyHandsFormat = []byte("hands-format")
)

// DB is the dealer's database. It is safe for concurrent use.
type DB struct {
	db *bolt.DB

	// Commits go through one goroutine that writes everything queued while the previous
	// transaction was being synced in the next transaction (group commit): one change alone is
	// written at once, and under load many share an fsync.
	reqs    chan commitReq
	quit    chan struct{} // closed by Close
	stopped chan struct{} // closed when the committer has finished
	once    sync.Once
	created bool
}

type commitReq struct {
	c    table.Change
	enc  encoded
	done chan error
}

// encoded holds a change's records that need nothing from the transaction, encoded by Commit
// before queueing so the committer, which every table waits on, spends its time writing.
type encoded struct {
	table, actions, hand, session []byte
}

// maxGroup bounds how many changes share one transaction.
const maxGroup = 1000

var _ bot.Store = (*DB)(nil)

// checkLimit is the largest file whose every page Open reads (checkPages) before use; a larger one
// gets the header checks only, so that opening a years-old database stays fast.
const checkLimit = 64 << 20

// Open opens the database file at path, or creates it when it is missing. A damaged file, an
// empty one among them, is refused with a sentence (errors.Is ErrDamaged) and a file another
// process holds with one naming that (ErrLocked).
func Open(path string) (*DB, error) {
	existed, err := checkHeader(path)
	if err != nil {
		return nil, err
	}
	if existed {
		if st, serr := os.Stat(path); serr == nil && st.Size() <= checkLimit {
			if err := checkPages(path); err != nil {
				return nil, err
			}
		}
	}
	var b *bolt.DB
	err = guard(path, func() (err error) {
		b, err = openBolt(path, false)
		return err
	})
	if err != nil {
		return nil, openError(path, err)
	}
	err = guard(path, func() error { return createBuckets(b) })
	if err != nil {
		b.Close()
		if errors.Is(err, ErrDamaged) {
			return nil, err
		}
		return nil, fmt.Errorf("create buckets in %s: %w", path, err)
	}
	if err := guard(path, func() error { return migrateHands(b) }); err != nil {
		b.Close()
		return nil, fmt.Errorf("convert the stored hands of %s: %w", path, err)
	}
	d := &DB{db: b, reqs: make(chan commitReq), quit: make(chan struct{}), stopped: make(chan struct{}), created: !existed}
	go d.committer()
	return d, nil
}

// ErrLocked is returned (in a sentence) when another process holds the database file.
var ErrLocked = errors.New("the database file is in use")

// Created reports whether Open made a new database (the file was missing).
func (d *DB) Created() bool { return d.created }

// openError turns bbolt's open errors into sentences.
func openError(path string, err error) error {
	switch {
	case errors.Is(err, ErrDamaged):
		return err
	case errors.Is(err, bolt.ErrTimeout):
		return fmt.Errorf("another dealerbot (or another program) is using %s: stop it first, or set DEALERBOT_DB to another file: %w", path, ErrLocked)
	case errors.Is(err, bolt.ErrInvalid), errors.Is(err, bolt.ErrChecksum), errors.Is(err, bolt.ErrVersionMismatch):
		return damaged(path, err.Error())
	}
	return fmt.Errorf("open %s: %w", path, err)
}

func openBolt(path string, readOnly bool) (*bolt.DB, error) {
	return bolt.Open(path, 0o600, &bolt.Options{
		ReadOnly: readOnly,
		Timeout:  OpenTimeout,
		// Growing the memory map blocks every transaction; start with room for a busy server.
		InitialMmapSize: 256 << 20,
		// The free list is written with every commit. Not writing it (NoFreelistSync) saves a little
		// per commit but makes every open walk every page to rebuild it: on a database of 1,000,000
		// hands that took 1.2 s and brought the whole 1.4 GB file into memory (BenchmarkMillionHands).
		NoFreelistSync: false,
		FreelistType:   bolt.FreelistMapType,
	})
}

func createBuckets(b *bolt.DB) error {
	return b.Update(func(tx *bolt.Tx) error {
		for _, name := range [][]byte{bucketPlayers, bucketLedger, bucketTables, bucketHands, bucketSessions, bucketActions, bucketMeta} {
			if _, err := tx.CreateBucketIfNotExists(name); err != nil {
				return err
			}
		}
		if k, _ := tx.Bucket(bucketHands).Cursor().First(); k == nil {
			return tx.Bucket(bucketMeta).Put(keyHandsFormat, []byte{handsBinary}) // nothing to migrate
		}
		return nil
	})
}

// Close waits for the commits under way and closes the file.
func (d *DB) Close() error {
	d.once.Do(func() { close(d.quit) })
	<-d.stopped
	return d.db.Close()
}

var errClosed = errors.New("the database is closed")

func (d *DB) committer() {
	defer close(d.stopped)
	for {
		var first commitReq
		select {
		case first = <-d.reqs:
		case <-d.quit:
			return
		}
		group := []commitReq{first}
	more:
		for len(group) < maxGroup {
			select {
			case r := <-d.reqs:
				group = append(group, r)
			default:
				break more
			}
		}
		err := d.update(func(tx *bolt.Tx) error {
			for _, r := range group {
				if err := apply(tx, r.c, r.enc); err != nil {
					return err
				}
			}
			return nil
		})
		if err == nil || len(group) == 1 {
			for _, r := range group {
				r.done <- err
			}
			continue
		}
		// One change failed and rolled the group back: commit each alone to find out whose it was.
		for _, r := range group {
			r.done <- d.update(func(tx *bolt.Tx) error { return apply(tx, r.c, r.enc) })
		}
	}
}

// Path returns the file's path.
func (d *DB) Path() string { return d.db.Path() }

// Backup writes a consistent copy of the database to w while others keep using it.
func (d *DB) Backup(w io.Writer) error {
	return d.view(func(tx *bolt.Tx) error {
		_, err := tx.WriteTo(w)
		return err
	})
}

func playerKey(workspace, user string) []byte {
	return []byte(workspace + "\x00" + user)
}

func handKey(tableID string, no int64) []byte {
	k := make([]byte, 0, len(tableID)+9)
	k = append(k, tableID...)
	k = append(k, 0)
	return binary.BigEndian.AppendUint64(k, uint64(no))
}

// applyOnce records key (a delivery's or a request's: Change.Once, money.Event.Key, Schedule.Key)
// among the keys applied, with when (Unix seconds), and refuses a key applied before
// (bot.ErrApplied), so the same request is applied once.
func applyOnce(tx *bolt.Tx, key string) error {
	b, err := tx.CreateBucketIfNotExists(bucketApplied)
	if err != nil {
		return err
	}
	if b.Get([]byte(key)) != nil {
		return bot.ErrApplied
	}
	return b.Put([]byte(key), binary.BigEndian.AppendUint64(nil, uint64(time.Now().Unix())))
}

// keptHandKey is the key of a finished hand whose handKey is taken by another hand of the same
// number (kept by a version that numbered each session's hands from 1): handKey and then a sequence
// number, so the hand is kept beside the older one, after it, and nothing is overwritten. The same
// hand twice is refused (apply).
func keptHandKey(tableID string, no int64, seq uint64) []byte {
	return binary.BigEndian.AppendUint64(handKey(tableID, no), seq)
}

// decodeHandKV reads a hand with its table and number from its key (handKey or keptHandKey). Table
// IDs hold no zero byte, so a zero 17 bytes from the end marks a keptHandKey.
func decodeHandKV(k, v []byte) (table.HandRecord, error) {
	if len(k) >= 17 && k[len(k)-17] == 0 {
		k = k[:len(k)-8]
	}
	if len(k) < 9 || k[len(k)-9] != 0 {
		return table.HandRecord{}, fmt.Errorf("hand key %x: %w", k, record.ErrCorrupt)
	}
	return record.DecodeHand(string(k[:len(k)-9]), int64(binary.BigEndian.Uint64(k[len(k)-8:])), v)
}

func seqKey(n uint64) []byte { return binary.BigEndian.AppendUint64(nil, n) }

func put(b *bolt.Bucket, key []byte, v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return b.Put(key, data)
}

// Commit applies c in one transaction and returns when it is on disk. Changes committed at the same
// time from several goroutines may share a transaction; each is still all or nothing.
func (d *DB) Commit(ctx context.Context, c table.Change) (err error) {
	r := commitReq{c: c, done: make(chan error, 1)}
	marshal := func(dst *[]byte, v any) {
		if err == nil {
			*dst, err = json.Marshal(v)
		}
	}
	if c.Table != nil {
		marshal(&r.enc.table, c.Table)
	}
	if c.Actions != nil {
		marshal(&r.enc.actions, c.Actions)
	}
	if c.Hand != nil {
		r.enc.hand = record.EncodeHand(*c.Hand)
	}
	if c.Session != nil {
		marshal(&r.enc.session, c.Session)
	}
	if err != nil {
		return err
	}
	select {
	case d.reqs <- r:
	case <-d.quit:
		return errClosed
	case <-ctx.Done():
		return ctx.Err()
	}
	// Once queued, the change is written whatever happens to ctx: wait for the truth.
	return <-r.done
}

// apply writes c, whose records are already encoded in enc. It only touches tx, so it may run again
// in a new transaction after a group failed.
func apply(tx *bolt.Tx, c table.Change, enc encoded) error {
	if c.Fence != nil {
		if err := checkFence(tx, c.Fence); err != nil {
			return err
		}
	}
	if c.Once != "" {
		if err := applyOnce(tx, c.Once); err != nil {
			return err
		}
	}
	// The table's version moves on with every write of its records; a stepped change must find it
	// at c.Base (written out here, not in a helper: every action runs it).
	if id := c.DeleteTable; c.Table != nil || c.Actions != nil || id != "" {
		if c.Table != nil {
			id = c.Table.ID
		} else if c.Actions != nil {
			id = c.Actions.Table
		}
		b, err := tx.CreateBucketIfNotExists(bucketVersions)
		if err != nil {
			return err
		}
		var cur int64
		if v := b.Get([]byte(id)); len(v) >= 8 {
			cur = int64(binary.BigEndian.Uint64(v))
		}
		if c.Step != "" && cur != c.Base {
			return fmt.Errorf("table %s is at version %d, the step was computed at %d: %w", id, cur, c.Base, bot.ErrStale)
		}
		if c.Table == nil && c.DeleteTable == id {
			err = b.Delete([]byte(id))
		} else {
			err = b.Put([]byte(id), append(binary.BigEndian.AppendUint64(nil, uint64(cur+1)), c.Step...))
		}
		if err != nil {
			return err
		}
	}
	players := tx.Bucket(bucketPlayers)
	ledger := tx.Bucket(bucketLedger)
	// Ledger records and a table's hands are written in key order (sequence, hand number): pages that
	// split when full can be left nearly full instead of half full (bbolt's default), since nothing
	// will be inserted before those keys later. It makes the file about a third smaller.
	ledger.FillPercent = 0.9
	tx.Bucket(bucketHands).FillPercent = 0.9
	var applied []table.LedgerEntry
	for _, e := range c.Ledger {
		key := playerKey(e.Workspace, e.User)
		var p table.PlayerRecord
		exists := false
		if v := players.Get(key); v != nil {
			if err := json.Unmarshal(v, &p); err != nil {
				return fmt.Errorf("player %s: %w", key, err)
			}
			exists = true
		} else {
			p = table.PlayerRecord{Workspace: e.Workspace, User: e.User}
		}
		if e.Kind == table.KindGrant && exists {
			continue // a grant only opens an account
		}
		if e.Name != "" {
			p.Name = e.Name
		}
		var ok1, ok2, ok3 bool
		p.Bankroll, ok1 = record.AddChips(p.Bankroll, e.Bankroll)
		p.OnTable, ok2 = record.AddChips(p.OnTable, e.OnTable)
		ok3 = true
		switch e.Kind {
		case table.KindGrant, table.KindAdjust:
			p.Granted, ok3 = record.AddChips(p.Granted, e.Bankroll)
		case table.KindResult:
			p.Hands++
		}
		if !ok1 || !ok2 || !ok3 {
			return fmt.Errorf("player %s: %w", key, record.ErrOverflow)
		}
		if p.Bankroll < 0 {
			return bot.ErrInsufficient
		}
		if err := put(players, key, p); err != nil {
			return err
		}
		applied = append(applied, e)
	}
	// Entries of one event (a hand's results, say) share one ledger record and one sequence number.
	for len(applied) > 0 {
		n := 1
		for n < len(applied) && record.SameEvent(applied[0], applied[n]) {
			n++
		}
		seq, err := ledger.NextSequence()
		if err != nil {
			return err
		}
		if err := ledger.Put(seqKey(seq), record.EncodeLedger(applied[:n])); err != nil {
			return err
		}
		applied = applied[n:]
	}
	if c.Table != nil {
		if err := tx.Bucket(bucketTables).Put([]byte(c.Table.ID), enc.table); err != nil {
			return err
		}
		if c.Table.Hand == nil {
			if err := tx.Bucket(bucketActions).Delete([]byte(c.Table.ID)); err != nil {
				return err
			}
		}
	}
	if c.Actions != nil {
		if err := tx.Bucket(bucketActions).Put([]byte(c.Actions.Table), enc.actions); err != nil {
			return err
		}
	}
	if c.DeleteTable != "" {
		if err := tx.Bucket(bucketTables).Delete([]byte(c.DeleteTable)); err != nil {
			return err
		}
		if err := tx.Bucket(bucketActions).Delete([]byte(c.DeleteTable)); err != nil {
			return err
		}
	}
	if c.Hand != nil {
		hands := tx.Bucket(bucketHands)
		k := handKey(c.Hand.Table, c.Hand.No)
		if hands.Get(k) != nil {
			// A hand is stored once: the same hand again (its deck's salt, drawn at the deal, says
			// which hand it is) is a retry of a step that landed. Another hand under a number taken
			// by a version that numbered each session from 1 is kept beside the older one, after it.
			cur := hands.Cursor()
			for hk, hv := cur.Seek(k); hk != nil && bytes.HasPrefix(hk, k); hk, hv = cur.Next() {
				if len(hk) != len(k) && len(hk) != len(k)+8 {
					continue // a longer table ID's key
				}
				old, err := decodeHandKV(hk, hv)
				if err != nil {
					return err
				}
				if old.Salt == c.Hand.Salt {
					return fmt.Errorf("hand #%d of %s is stored already: %w", c.Hand.No, c.Hand.Table, bot.ErrApplied)
				}
			}
			seq, err := hands.NextSequence()
			if err != nil {
				return err
			}
			k = keptHandKey(c.Hand.Table, c.Hand.No, seq)
		}
		if err := hands.Put(k, enc.hand); err != nil {
			return err
		}
	}
	if len(c.Money) > 0 { // a session's money events, in its community's book (money.go)
		if err := appendMoney(tx, c.Money[0].Community, c.MoneyAfter, true, c.Money); err != nil {
			return err
		}
	}
	if c.Session != nil {
		b := tx.Bucket(bucketSessions)
		seq, err := b.NextSequence()
		if err != nil {
			return err
		}
		if err := b.Put(seqKey(seq), enc.session); err != nil {
			return err
		}
	}
	return nil
}

// decodeVersion reads a table's version and last step key from bucketVersions (0 and "" for none).
func decodeVersion(v []byte) (int64, string) {
	if len(v) < 8 {
		return 0, ""
	}
	return int64(binary.BigEndian.Uint64(v)), string(v[8:])
}

// Landed reports whether a change or money append keyed key (Change.Once, money.Event.Key) was
// applied.
func (d *DB) Landed(ctx context.Context, key string) (bool, error) {
	ok := false
	err := d.view(func(tx *bolt.Tx) error {
		if b := tx.Bucket(bucketApplied); b != nil {
			ok = b.Get([]byte(key)) != nil
		}
		return nil
	})
	return ok, err
}

// Tables returns every open table.
func (d *DB) Tables(ctx context.Context) ([]table.TableRecord, error) {
	var out []table.TableRecord
	err := d.view(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketTables).ForEach(func(k, v []byte) error {
			t, err := readTable(tx, k, v)
			out = append(out, t)
			return err
		})
	})
	return out, err
}

// Table returns one open table.
func (d *DB) Table(ctx context.Context, id string) (table.TableRecord, bool, error) {
	var t table.TableRecord
	ok := false
	err := d.view(func(tx *bolt.Tx) error {
		v := tx.Bucket(bucketTables).Get([]byte(id))
		if v == nil {
			return nil
		}
		ok = true
		var err error
		t, err = readTable(tx, []byte(id), v)
		return err
	})
	return t, ok, err
}

// readTable decodes a table record and puts its hand's newest action log back into it.
func readTable(tx *bolt.Tx, k, v []byte) (table.TableRecord, error) {
	var t table.TableRecord
	if err := json.Unmarshal(v, &t); err != nil {
		return t, fmt.Errorf("table %s: %w", k, err)
	}
	if b := tx.Bucket(bucketVersions); b != nil {
		t.Version, t.Step = decodeVersion(b.Get(k))
	}
	// The action log is written alone on each action; within a hand it only grows, so the
	// longer of the two copies is the newer.
	if a := tx.Bucket(bucketActions).Get(k); a != nil && t.Hand != nil {
		var log table.ActionLog
		if err := json.Unmarshal(a, &log); err != nil {
			return t, fmt.Errorf("actions of table %s: %w", k, err)
		}
		if log.HandNo == t.Hand.No && len(log.Actions) > len(t.Hand.Actions) {
			t.Hand.Actions, t.Hand.TimedOut, t.Hand.Deadline = log.Actions, log.TimedOut, log.Deadline
		}
	}
	return t, nil
}

// Player returns one player's record.
func (d *DB) Player(ctx context.Context, workspace, user string) (table.PlayerRecord, bool, error) {
	var p table.PlayerRecord
	ok := false
	err := d.view(func(tx *bolt.Tx) error {
		v := tx.Bucket(bucketPlayers).Get(playerKey(workspace, user))
		if v == nil {
			return nil
		}
		ok = true
		return json.Unmarshal(v, &p)
	})
	return p, ok, err
}

// Players returns every player of a workspace.
func (d *DB) Players(ctx context.Context, workspace string) ([]table.PlayerRecord, error) {
	var out []table.PlayerRecord
	prefix := []byte(workspace + "\x00")
	err := d.view(func(tx *bolt.Tx) error {
		c := tx.Bucket(bucketPlayers).Cursor()
		for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
			var p table.PlayerRecord
			if err := json.Unmarshal(v, &p); err != nil {
				return fmt.Errorf("player %s: %w", k, err)
			}
			out = append(out, p)
		}
		return nil
	})
	return out, err
}

// Hands returns up to n finished hands of a table, the most recent first.
func (d *DB) Hands(ctx context.Context, tableID string, n int) ([]table.HandRecord, error) {
	var out []table.HandRecord
	prefix := []byte(tableID + "\x00")
	err := d.view(func(tx *bolt.Tx) error {
		c := tx.Bucket(bucketHands).Cursor()
		// Seek past the tableID's last key, then walk back.
		end := append(append([]byte(nil), prefix...), 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff)
		k, v := c.Seek(end)
		if k == nil {
			k, v = c.Last()
		} else {
			k, v = c.Prev()
		}
		for ; k != nil && bytes.HasPrefix(k, prefix) && len(out) < n; k, v = c.Prev() {
			h, err := decodeHandKV(k, v)
			if err != nil {
				return err
			}
			out = append(out, h)
		}
		return nil
	})
	return out, err
}

// Hand returns hand number no of a table; of several hands kept under that number (see keptHandKey),
// the newest.
func (d *DB) Hand(ctx context.Context, tableID string, no int64) (table.HandRecord, bool, error) {
	var h table.HandRecord
	ok := false
	prefix := handKey(tableID, no)
	err := d.view(func(tx *bolt.Tx) error {
		c := tx.Bucket(bucketHands).Cursor()
		var v []byte
		for k, cv := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, cv = c.Next() {
			v = cv
		}
		if v == nil {
			return nil
		}
		ok = true
		var err error
		h, err = record.DecodeHand(tableID, no, v)
		return err
	})
	return h, ok, err
}

// EachHand calls fn with every finished hand, table by table and in hand order, reading them in
// batches so that any number of hands is exported in little memory. fn's error stops the walk.
func (d *DB) EachHand(ctx context.Context, fn func(table.HandRecord) error) error {
	return d.eachHand(ctx, nil, fn)
}

// eachHand is EachHand for the tables whose ID starts with prefix (all for nil). Each batch is read
// in a transaction of its own, and fn runs outside it.
func (d *DB) eachHand(ctx context.Context, prefix []byte, fn func(table.HandRecord) error) error {
	var after []byte
	for {
		var batch []table.HandRecord
		err := d.view(func(tx *bolt.Tx) error {
			c := tx.Bucket(bucketHands).Cursor()
			k, v := c.Seek(prefix)
			if after != nil {
				k, v = c.Seek(after)
				if k != nil && bytes.Equal(k, after) {
					k, v = c.Next()
				}
			}
			for ; k != nil && bytes.HasPrefix(k, prefix) && len(batch) < 1000; k, v = c.Next() {
				h, err := decodeHandKV(k, v)
				if err != nil {
					return err
				}
				batch = append(batch, h)
				after = append(after[:0], k...)
			}
			return nil
		})
		if err != nil {
			return err
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

// Ledger returns every ledger entry in order.
func (d *DB) Ledger(ctx context.Context) ([]table.LedgerEntry, error) {
	var out []table.LedgerEntry
	err := d.view(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketLedger).ForEach(func(k, v []byte) error {
			es, err := record.DecodeLedger(binary.BigEndian.Uint64(k), v)
			if err != nil {
				return err
			}
			out = append(out, es...)
			return nil
		})
	})
	return out, err
}

// Sessions returns every finished session in order.
func (d *DB) Sessions(ctx context.Context) ([]table.SessionRecord, error) {
	var out []table.SessionRecord
	err := d.view(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketSessions).ForEach(func(k, v []byte) error {
			var s table.SessionRecord
			if err := json.Unmarshal(v, &s); err != nil {
				return err
			}
			out = append(out, s)
			return nil
		})
	})
	return out, err
}

// Balance reads the chip totals in one transaction and reports an error when the ledger does not
// balance (see record.Tally).
func (d *DB) Balance(ctx context.Context) (record.Totals, error) {
	var (
		ledger  []record.LedgerRecord
		players []table.PlayerRecord
		tables  []table.TableRecord
	)
	err := d.view(func(tx *bolt.Tx) error {
		err := tx.Bucket(bucketLedger).ForEach(func(k, v []byte) error {
			ledger = append(ledger, record.LedgerRecord{Seq: binary.BigEndian.Uint64(k), Rec: bytes.Clone(v)}) // v lives only in the transaction
			return nil
		})
		if err != nil {
			return err
		}
		err = tx.Bucket(bucketPlayers).ForEach(func(k, v []byte) error {
			var p table.PlayerRecord
			if err := json.Unmarshal(v, &p); err != nil {
				return fmt.Errorf("player %s: %w", k, err)
			}
			players = append(players, p)
			return nil
		})
		if err != nil {
			return err
		}
		return tx.Bucket(bucketTables).ForEach(func(k, v []byte) error {
			var tr table.TableRecord
			if err := json.Unmarshal(v, &tr); err != nil {
				return fmt.Errorf("table %s: %w", k, err)
			}
			tables = append(tables, tr)
			return nil
		})
	})
	if err != nil {
		return record.Totals{}, err
	}
	return record.Tally(ledger, players, tables)
}

// --- every transaction runs under guard --------------------------------------------------------------

// guard turns a panic (a bbolt assertion on a damaged page) or a memory fault inside fn into an
// error: a damaged file must end in a sentence, never in a Go trace.
func guard(path string, fn func() error) (err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if p := recover(); p != nil {
			err = damaged(path, fmt.Sprintf("reading it failed: %v", p))
		}
	}()
	return fn()
}

// view and update run bbolt transactions under guard: a page found damaged while the bot runs
// fails that one call with a sentence instead of taking the process down.
func (d *DB) view(fn func(*bolt.Tx) error) error {
	return guard(d.db.Path(), func() error { return d.db.View(fn) })
}

func (d *DB) update(fn func(*bolt.Tx) error) error {
	return guard(d.db.Path(), func() error { return d.db.Update(fn) })
}
