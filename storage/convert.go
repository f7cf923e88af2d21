package storage

// Hands written as JSON by earlier versions are converted to the binary form of package record once,
// when a file is opened.

import (
	bolt "go.etcd.io/bbolt"

	"github.com/dealerbot/dealerbot/storage/record"
)

// handsBinary is keyHandsFormat's value: every hand in the file is in record's binary form.
const handsBinary = 0x01

// migrateHands converts hands stored as JSON by earlier versions to the binary form, a batch per
// transaction, once: a marker in the meta bucket says it is done, so later opens cost nothing.
func migrateHands(b *bolt.DB) error {
	done := false
	if err := b.View(func(tx *bolt.Tx) error {
		done = len(tx.Bucket(bucketMeta).Get(keyHandsFormat)) > 0
		return nil
	}); err != nil || done {
		return err
	}
	var after []byte
	for {
		more := false
		err := b.Update(func(tx *bolt.Tx) error {
			hands := tx.Bucket(bucketHands)
			c := hands.Cursor()
			k, v := c.First()
			if after != nil {
				k, v = c.Seek(after)
				if k != nil && string(k) == string(after) {
					k, v = c.Next()
				}
			}
			type kv struct{ k, v []byte }
			var batch []kv
			for ; k != nil && len(batch) < 2000; k, v = c.Next() {
				after = append(after[:0], k...)
				if len(v) == 0 || v[0] != '{' {
					continue
				}
				h, err := decodeHandKV(k, v)
				if err != nil {
					return err
				}
				batch = append(batch, kv{append([]byte(nil), k...), record.EncodeHand(h)})
			}
			more = k != nil
			for _, e := range batch {
				if err := hands.Put(e.k, e.v); err != nil {
					return err
				}
			}
			if !more {
				return tx.Bucket(bucketMeta).Put(keyHandsFormat, []byte{handsBinary})
			}
			return nil
		})
		if err != nil || !more {
			return err
		}
	}
}
