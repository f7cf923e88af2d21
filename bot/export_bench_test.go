package bot_test

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"
	"testing"

	"github.com/dealerbot/dealerbot/bot"
	"github.com/dealerbot/dealerbot/bot/table"
	"github.com/dealerbot/dealerbot/storage"
)

// openManyTables opens a bbolt store holding n open tables of the community console/w, written by
// concurrent commits (the store groups them into few transactions).
func openManyTables(b *testing.B, n int) *storage.DB {
	b.Helper()
	db, err := storage.Open(filepath.Join(b.TempDir(), "many.db"))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	ctx := context.Background()
	var wg sync.WaitGroup
	errs := make(chan error, 1)
	for w := 0; w < 100; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < n; i += 100 {
				id := fmt.Sprintf("t%05d", i)
				rec := &table.TableRecord{ID: "console/w/" + id, Platform: "console", Workspace: "w", Channel: id, Button: -1,
					Settings: table.DefaultSettings()}
				if err := db.Commit(ctx, table.Change{Table: rec}); err != nil {
					select {
					case errs <- err:
					default:
					}
					return
				}
			}
		}()
	}
	wg.Wait()
	select {
	case err := <-errs:
		b.Fatal(err)
	default:
	}
	return db
}

// BenchmarkExportSessionManyTables answers `export session` in one channel of a store holding
// 10,000 open tables: like `history`, the verb reads that channel's table and hands only. Target:
// at most 2 ms. Measured on a shared 2-core machine: 163-400 ms (median 259 ms) when it read every
// open table, 0.10-0.42 ms (median 0.27 ms) reading its own.
func BenchmarkExportSessionManyTables(b *testing.B) {
	db := openManyTables(b, 10000)
	d, chat := newBenchDealerOn(b, db, bot.Config{})
	dr := &driver{d: d, chat: chat, ch: "x"}
	dr.setup(b)
	dr.deal(b)
	for dr.live {
		dr.act(b)
	}
	ctx := context.Background()
	cmd := bot.Command{Platform: "bench", Workspace: "w", Channel: "x", User: dr.p1(), UserName: dr.p1(), Text: "export session"}
	if r := d.Handle(ctx, cmd); r.IsError || len(r.Files) != 1 {
		b.Fatalf("export session: %+v", r)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if r := d.Handle(ctx, cmd); r.IsError {
			b.Fatal(r.Text)
		}
	}
}
