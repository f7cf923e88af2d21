package storage

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/dealerbot/dealerbot/bot/table"
	"github.com/dealerbot/dealerbot/storage/internal/handgen"
	"github.com/dealerbot/dealerbot/storage/record"
)

var million = flag.Bool("storage.million", false, "build a database of 1,000,000 hands for BenchmarkMillionHands")

// resultEntries are the ledger entries a finished hand adds: one result per player.
func resultEntries(h table.HandRecord, ws string) []table.LedgerEntry {
	es := make([]table.LedgerEntry, len(h.Users))
	for p, u := range h.Users {
		es[p] = table.LedgerEntry{Time: h.Time, Kind: table.KindResult, Workspace: ws, User: u, Name: h.Names[p], Table: h.Table,
			HandNo: h.No, OnTable: h.Final[p] - h.Stacks[p]}
	}
	return es
}

// bucketBytes sums the keys and values of the hands and ledger buckets.
func bucketBytes(tb testing.TB, d *DB) int {
	total := 0
	err := d.db.View(func(tx *bolt.Tx) error {
		for _, name := range [][]byte{bucketHands, bucketLedger} {
			tx.Bucket(name).ForEach(func(k, v []byte) error { total += len(k) + len(v); return nil })
		}
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
	return total
}

// storeHands stores n finished six-player hands (Discord-sized IDs) the way a hand's end does, one
// transaction each with its ledger entries, and returns the mean record size and the mean bytes of
// keys and values each hand added to the database.
func storeHands(tb testing.TB, n int, timer func(start bool)) (perHand, added float64) {
	d, err := Open(filepath.Join(tb.TempDir(), "bench.db"))
	if err != nil {
		tb.Fatal(err)
	}
	defer d.Close()
	r := rand.New(rand.NewPCG(7, 7))
	const tableID = "discord/123456789012345678/876543210987654321"
	hands := make([]table.HandRecord, 500)
	for i := range hands {
		hands[i] = handgen.PlayedOf(r, 6, tableID, 0)
		perHand += float64(len(record.EncodeHand(hands[i])))
	}
	ctx := context.Background()
	before := bucketBytes(tb, d)
	timer(true)
	for i := 0; i < n; i++ {
		h := hands[i%len(hands)]
		h.No = int64(i + 1)
		if err := d.Commit(ctx, table.Change{Hand: &h, Ledger: resultEntries(h, "123456789012345678")}); err != nil {
			tb.Fatal(err)
		}
	}
	timer(false)
	return perHand / float64(len(hands)), float64(bucketBytes(tb, d)-before) / float64(n)
}

// BenchmarkHandRecord reports a finished six-player hand's record size (target: at most 400 B),
// everything it adds to the database in keys and values, ledger included (target: at most 800 B),
// and the time to store one (one transaction with fsync).
func BenchmarkHandRecord(b *testing.B) {
	perHand, added := storeHands(b, b.N, func(start bool) {
		if start {
			b.ResetTimer()
		} else {
			b.StopTimer()
		}
	})
	b.ReportMetric(perHand, "B/record")
	b.ReportMetric(added, "B/hand-added")
}

// TestHandSizeTargets keeps the sizes BenchmarkHandRecord reports within the targets.
func TestHandSizeTargets(t *testing.T) {
	perHand, added := storeHands(t, 200, func(bool) {})
	if perHand > 400 || perHand == 0 {
		t.Fatalf("a six-player hand record takes %.0f bytes, want at most 400", perHand)
	}
	if added > 800 || added == 0 {
		t.Fatalf("a finished hand adds %.0f bytes of keys and values, want at most 800", added)
	}
	t.Logf("%.0f B per record, %.0f B added per hand", perHand, added)
}

func rssKB() int {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return -1
	}
	for _, line := range strings.Split(string(data), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "VmRSS:" {
			n, _ := strconv.Atoi(f[1])
			return n
		}
	}
	return -1
}

// BenchmarkMillionHands builds a database of 1,000,000 finished hands (100 tables, 600 players, the
// ledger entries included, one open table with a hand in progress) once, then measures what the bot
// does at start on it: open and restore the tables (target under 200 ms), the heap and RSS after that
// (target under 100 MB), and one durable action (target under 2 ms). Run with -storage.million; it
// needs about 1 GB of disk and a few minutes.
func BenchmarkMillionHands(b *testing.B) {
	if !*million {
		b.Skip("run with -storage.million to build a 1,000,000-hand database")
	}
	path := filepath.Join(b.TempDir(), "million.db")
	d, err := Open(path)
	if err != nil {
		b.Fatal(err)
	}
	r := rand.New(rand.NewPCG(9, 9))
	var pool []table.HandRecord
	for i := 0; i < 1000; i++ {
		pool = append(pool, handgen.PlayedOf(r, 2+r.IntN(8), "", 0))
	}
	const total, batch = 1_000_000, 20_000
	start := time.Now()
	for done := 0; done < total; done += batch {
		err := d.db.Update(func(tx *bolt.Tx) error {
			hb, lb := tx.Bucket(bucketHands), tx.Bucket(bucketLedger)
			hb.FillPercent, lb.FillPercent = 0.9, 0.9 // as apply writes them
			for i := done; i < done+batch; i++ {
				h := pool[i%len(pool)]
				h.Table = fmt.Sprintf("discord/123456789012345678/%018d", i%100)
				h.No = int64(i/100 + 1)
				if err := hb.Put(handKey(h.Table, h.No), record.EncodeHand(h)); err != nil {
					return err
				}
				seq, _ := lb.NextSequence()
				if err := lb.Put(seqKey(seq), record.EncodeLedger(resultEntries(h, "123456789012345678"))); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	live := table.TableRecord{ID: "discord/123456789012345678/live", Platform: "discord", Workspace: "123456789012345678", Channel: "live",
		Settings: table.DefaultSettings(), Seats: make([]table.SeatRecord, 9), Button: -1}
	live.Seats[0] = table.SeatRecord{User: "a", Name: "a", Stack: 1000}
	live.Seats[1] = table.SeatRecord{User: "b", Name: "b", Stack: 1000}
	if err := d.Commit(context.Background(), table.Change{Table: &live}); err != nil {
		b.Fatal(err)
	}
	d.Close()
	st, _ := os.Stat(path)
	b.Logf("built %d hands in %v: %d MB", total, time.Since(start).Round(time.Second), st.Size()>>20)

	runtime.GC()
	rssBefore := rssKB()
	b.ResetTimer()
	var openTime time.Duration
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		d, err = Open(path)
		if err != nil {
			b.Fatal(err)
		}
		tables, err := d.Tables(context.Background())
		if err != nil || len(tables) != 1 {
			b.Fatalf("tables: %d, %v", len(tables), err)
		}
		openTime += time.Since(t0)
		if i < b.N-1 {
			d.Close()
		}
	}
	b.StopTimer()
	defer d.Close()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	// One durable action on the big file: the action log of a hand in progress.
	ctx := context.Background()
	var act time.Duration
	const acts = 200
	for i := 0; i < acts; i++ {
		t0 := time.Now()
		log := &table.ActionLog{Table: live.ID, HandNo: 1, Deadline: time.Now()}
		if err := d.Commit(ctx, table.Change{Actions: log}); err != nil {
			b.Fatal(err)
		}
		act += time.Since(t0)
	}
	b.ReportMetric(float64(openTime.Milliseconds())/float64(b.N), "ms/open+restore")
	b.ReportMetric(float64(ms.HeapAlloc>>20), "MB-heap")
	b.ReportMetric(float64(rssKB()-rssBefore)/1024, "MB-rss-growth")
	b.ReportMetric(float64(rssKB())/1024, "MB-rss")
	b.ReportMetric(float64(act.Microseconds())/acts/1000, "ms/action")
}
