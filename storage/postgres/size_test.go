package postgres_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/dealerbot/dealerbot/bot/table"
	"github.com/dealerbot/dealerbot/engine"
)

// BenchmarkHandBytes stores 100,000 finished six-player hands and reports what a hand costs on disk
// in PostgreSQL: the hands table with its primary key, its TOAST and free-space maps.
func BenchmarkHandBytes(b *testing.B) {
	db := mustOpen(b)
	ctx := context.Background()
	const hands = 100_000
	h := table.HandRecord{Time: time.Date(2026, 11, 25, 20, 0, 0, 0, time.UTC),
		Names: []string{"alice", "bob", "carol", "dave", "erin", "frank"}, Users: []string{"U01", "U02", "U03", "U04", "U05", "U06"},
		Seats: []int{1, 2, 3, 4, 5, 6}, Size: 9, Rules: engine.Rules{SmallBlind: 5, BigBlind: 10},
		Stacks: []int64{1000, 1000, 1000, 1000, 1000, 1000}, Deck: engine.OrderedDeck(), Salt: "0123456789abcdef0123456789abcdef", Proof: 1,
		Final: []int64{1000, 1000, 1000, 1000, 1000, 1000}}
	for i := 0; i < 14; i++ {
		h.Actions = append(h.Actions, engine.Action{Player: i % 6, Kind: engine.Call})
	}
	for i := 0; i < b.N; i++ {
		var wg sync.WaitGroup
		for w := 0; w < 16; w++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for no := w; no < hands; no += 16 {
					c := h
					c.Table, c.No = fmt.Sprintf("discord/123456789012345678/%d", 100000000000000000+no%50), int64(no)
					if err := db.Commit(ctx, table.Change{Hand: &c}); err != nil {
						b.Error(err)
						return
					}
				}
			}()
		}
		wg.Wait()
	}
	conn := db.Pool()
	var size int64
	if _, err := conn.Exec(ctx, "VACUUM ANALYZE hands"); err != nil {
		b.Fatal(err)
	}
	if err := conn.QueryRow(ctx, "SELECT pg_total_relation_size('hands')").Scan(&size); err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(size)/float64(hands*b.N), "bytes/hand")
}
