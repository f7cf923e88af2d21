package storage

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"
	"testing"

	"github.com/dealerbot/dealerbot/bot/table"
)

// BenchmarkClaimManyTables reads what claiming one community reads of a bbolt store holding 10,000
// open tables in 1,000 communities: its 10 tables (CommunityTables), and the list of communities
// a claiming process scans (Communities). Target: CommunityTables reads the community's tables only,
// in well under a millisecond.
func BenchmarkClaimManyTables(b *testing.B) {
	db, err := Open(filepath.Join(b.TempDir(), "claim.db"))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	ctx := context.Background()
	var wg sync.WaitGroup
	for w := 0; w < 100; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < 10000; i += 100 {
				ws, ch := fmt.Sprintf("g%04d", i/10), fmt.Sprintf("c%d", i%10)
				rec := &table.TableRecord{ID: "discord/" + ws + "/" + ch, Platform: "discord", Workspace: ws, Channel: ch, Button: -1,
					Settings: table.DefaultSettings(), Seats: []table.SeatRecord{{User: "u1", Name: "One", Stack: 1000}, {User: "u2", Name: "Two", Stack: 1000}}}
				if err := db.Commit(ctx, table.Change{Table: rec}); err != nil {
					b.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	b.Run("CommunityTables", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			ts, err := db.CommunityTables(ctx, fmt.Sprintf("discord/g%04d", i%1000))
			if err != nil || len(ts) != 10 {
				b.Fatalf("%d tables, %v", len(ts), err)
			}
		}
	})
	b.Run("Communities", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			cs, err := db.Communities(ctx)
			if err != nil || len(cs) != 1000 {
				b.Fatalf("%d communities, %v", len(cs), err)
			}
		}
	})
}
