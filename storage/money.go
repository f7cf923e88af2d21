package storage

// The money books (money.Store) keep their own buckets, created on first write: "money_heads"
// (community -> the book's newest Seq, 8 bytes big-endian), "money" (community, 0, Seq -> JSON
// money.Event) and "money_handles" (community, 0, user -> JSON money.Handle).

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"

	bolt "go.etcd.io/bbolt"

	"github.com/dealerbot/dealerbot/bot"
	"github.com/dealerbot/dealerbot/bot/money"
	"github.com/dealerbot/dealerbot/bot/table"
	"github.com/dealerbot/dealerbot/storage/record"
)

var (
	bucketMoneyHeads   = []byte("money_heads")
	bucketMoney        = []byte("money")
	bucketMoneyHandles = []byte("money_handles")
)

func moneyKey(community string, seq uint64) []byte {
	return binary.BigEndian.AppendUint64(append([]byte(community), 0), seq)
}

// appendMoney writes evs after the book's newest event; with check set, only when that is after.
func appendMoney(tx *bolt.Tx, community string, after uint64, check bool, evs []money.Event) error {
	if len(evs) == 0 {
		return nil
	}
	heads, err := tx.CreateBucketIfNotExists(bucketMoneyHeads)
	if err != nil {
		return err
	}
	book, err := tx.CreateBucketIfNotExists(bucketMoney)
	if err != nil {
		return err
	}
	book.FillPercent = 0.9 // appended in key order
	var head uint64
	if v := heads.Get([]byte(community)); len(v) == 8 {
		head = binary.BigEndian.Uint64(v)
	}
	if check && head != after {
		return bot.ErrMoneyMoved
	}
	for _, e := range evs {
		if e.Community != community {
			return fmt.Errorf("money event for %q in the book of %q", e.Community, community)
		}
		head++
		e.Seq = head
		if err := put(book, moneyKey(community, head), e); err != nil {
			return err
		}
	}
	return heads.Put([]byte(community), binary.BigEndian.AppendUint64(nil, head))
}

// AppendMoney appends evs to community's book when its newest event is after.
func (d *DB) AppendMoney(ctx context.Context, community string, after uint64, evs []money.Event) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return d.update(func(tx *bolt.Tx) error {
		if len(evs) > 0 && evs[0].Key != "" { // the request's key, applied once (as Change.Once)
			if err := applyOnce(tx, evs[0].Key); err != nil {
				return err
			}
		}
		return appendMoney(tx, community, after, true, evs)
	})
}

// MoneyBook returns community's book in order.
func (d *DB) MoneyBook(ctx context.Context, community string) ([]money.Event, error) {
	var out []money.Event
	err := d.view(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketMoney)
		if b == nil {
			return nil
		}
		prefix := append([]byte(community), 0)
		c := b.Cursor()
		for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
			var e money.Event
			if err := json.Unmarshal(v, &e); err != nil {
				return fmt.Errorf("money event %x: %w", k, err)
			}
			e.Seq = binary.BigEndian.Uint64(k[len(prefix):])
			out = append(out, e)
		}
		return nil
	})
	return out, err
}

// MoneyCommunities returns the communities with a book.
func (d *DB) MoneyCommunities(ctx context.Context) ([]string, error) {
	var out []string
	err := d.view(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketMoneyHeads)
		if b == nil {
			return nil
		}
		return b.ForEach(func(k, _ []byte) error {
			out = append(out, string(k))
			return nil
		})
	})
	return out, err
}

// SetHandle saves or (zero h) removes a player's payment handle.
func (d *DB) SetHandle(ctx context.Context, community, user string, h money.Handle) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return d.update(func(tx *bolt.Tx) error {
		b, err := tx.CreateBucketIfNotExists(bucketMoneyHandles)
		if err != nil {
			return err
		}
		k := append(append([]byte(community), 0), user...)
		if h.IsZero() {
			return b.Delete(k)
		}
		return put(b, k, h)
	})
}

// Handles returns a community's payment handles by user.
func (d *DB) Handles(ctx context.Context, community string) (map[string]money.Handle, error) {
	out := map[string]money.Handle{}
	err := d.view(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketMoneyHandles)
		if b == nil {
			return nil
		}
		prefix := append([]byte(community), 0)
		c := b.Cursor()
		for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
			var h money.Handle
			if err := json.Unmarshal(v, &h); err != nil {
				return fmt.Errorf("payment handle %x: %w", k, err)
			}
			out[string(k[len(prefix):])] = h
		}
		return nil
	})
	return out, err
}

// EachHandOf calls fn with every finished hand of the tables whose ID starts with prefix, in key
// order (table, then hand number), in batches (see EachHand).
func (d *DB) EachHandOf(ctx context.Context, prefix string, fn func(table.HandRecord) error) error {
	return d.eachHand(ctx, []byte(prefix), fn)
}

// readMoney reads the money books and handles, whose buckets exist once something was written.
func readMoney(tx *bolt.Tx, s *record.Snapshot) error {
	if b := tx.Bucket(bucketMoney); b != nil {
		err := b.ForEach(func(k, v []byte) error {
			i := bytes.IndexByte(k, 0)
			if i < 0 || len(k)-i-1 != 8 {
				return fmt.Errorf("money key %x: %w", k, record.ErrCorrupt)
			}
			s.Money = append(s.Money, record.RawMoney{Community: string(k[:i]), Seq: binary.BigEndian.Uint64(k[i+1:]), Rec: bytes.Clone(v)})
			return nil
		})
		if err != nil {
			return err
		}
	}
	if b := tx.Bucket(bucketMoneyHandles); b != nil {
		return b.ForEach(func(k, v []byte) error {
			c, u, ok := bytes.Cut(k, []byte{0})
			if !ok {
				return fmt.Errorf("payment handle key %x: %w", k, record.ErrCorrupt)
			}
			s.Handles = append(s.Handles, record.RawHandle{Community: string(c), User: string(u), Rec: bytes.Clone(v)})
			return nil
		})
	}
	return nil
}
