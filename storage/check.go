package storage

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"os"

	bolt "go.etcd.io/bbolt"
)

// ErrDamaged is returned (wrapped in a sentence naming the file) when the database file is damaged:
// cut short, its header pages overwritten, or its pages inconsistent. Nothing is written to it.
var ErrDamaged = errors.New("the database file is damaged")

// bbolt's file header, as laid out by go.etcd.io/bbolt v1.5.0 (internal/common): every page starts
// with a 16-byte header; pages 0 and 1 each hold a copy of the meta record, of which the newer valid
// one is in force. The meta record is magic, version, page size, flags (4 bytes each), the root
// bucket (16), the free-list page, the high-water mark (the number of pages in use) and the
// transaction ID (8 each), then an FNV-64a checksum of the 56 bytes before it.
const (
	pageHeaderSize = 16
	metaSize       = 64
	boltMagic      = 0xED0CDAED
	boltVersion    = 2
)

type meta struct {
	pageSize uint32
	pages    uint64 // high-water mark
	txid     uint64
}

// readMeta reads and checks the meta record in the page at off.
func readMeta(f io.ReaderAt, off int64) (meta, bool) {
	var b [metaSize]byte
	if _, err := f.ReadAt(b[:], off+pageHeaderSize); err != nil {
		return meta{}, false
	}
	le := binary.NativeEndian
	h := fnv.New64a()
	h.Write(b[:56])
	if le.Uint32(b[0:]) != boltMagic || le.Uint32(b[4:]) != boltVersion || le.Uint64(b[56:]) != h.Sum64() {
		return meta{}, false
	}
	m := meta{pageSize: le.Uint32(b[8:]), pages: le.Uint64(b[40:]), txid: le.Uint64(b[48:])}
	if m.pageSize < 512 || m.pageSize > 1<<20 || m.pageSize&(m.pageSize-1) != 0 {
		return meta{}, false
	}
	return m, true
}

// checkHeader looks at an existing file before bbolt maps it: at least one valid meta record, and a
// file at least as long as the pages that record says are in use (bbolt would otherwise map past
// the end of the file and die of SIGBUS on the first read). It reports whether the file exists.
// An existing file of 0 bytes is refused: bbolt would write a new database into it, and a
// truncated file would then lose every bankroll without a word. Only a missing file is new.
func checkHeader(path string) (bool, error) {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return false, err
	}
	size := st.Size()
	if size == 0 {
		return true, fmt.Errorf("%s is empty (0 bytes): it may have been truncated; restore it from a backup "+
			"(`dealerbot backup FILE` makes one), or delete it to start a new database: %w", path, ErrDamaged)
	}
	best, found := meta{}, false
	m0, ok0 := readMeta(f, 0)
	if ok0 {
		best, found = m0, true
	}
	sizes := []int64{4096, 8192, 16384, 32768, 65536}
	if ok0 {
		sizes = []int64{int64(m0.pageSize)}
	}
	for _, ps := range sizes {
		if m1, ok := readMeta(f, ps); ok {
			if !found || m1.txid > best.txid {
				best = m1
			}
			found = true
			break
		}
	}
	if !found {
		return true, damaged(path, "neither copy of its header is valid")
	}
	if need := int64(best.pages) * int64(best.pageSize); best.pages < 2 || size < need {
		return true, damaged(path, fmt.Sprintf("it holds %d bytes but its pages need %d: it was cut short", size, need))
	}
	return true, nil
}

func damaged(path, why string) error {
	return fmt.Errorf("%s is damaged (%s): restore it from a backup (`dealerbot backup FILE` makes one) or move it away to start with a new file: %w",
		path, why, ErrDamaged)
}

// checkPages reads every page reachable from the root, read-only and under guard, before the file
// is opened for writing. It must come first: this dealer syncs the free list with every commit, but
// a file whose free list is missing (written with NoFreelistSync, or cut short) makes bbolt rebuild
// it on a writable open by walking the pages in a goroutine of its own, where a damaged page panics
// beyond any recover. bbolt's own Tx.Check cannot serve, since it walks the pages the same way.
func checkPages(path string) error {
	var b *bolt.DB
	err := guard(path, func() (err error) {
		b, err = openBolt(path, true)
		return err
	})
	if err != nil {
		return openError(path, err)
	}
	defer b.Close()
	return guard(path, func() error {
		return b.View(func(tx *bolt.Tx) error {
			return tx.ForEach(func(_ []byte, bk *bolt.Bucket) error { return walk(bk) })
		})
	})
}

// walk visits every key of a bucket and its nested buckets; reading a page checks its header.
func walk(bk *bolt.Bucket) error {
	c := bk.Cursor()
	for k, v := c.First(); k != nil; k, v = c.Next() {
		if v == nil {
			if nb := bk.Bucket(k); nb != nil {
				if err := walk(nb); err != nil {
					return err
				}
			}
		}
	}
	return nil
}
