package storage

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dealerbot/dealerbot/bot"
)

// filledDB makes a database file of many pages (ledger entries and tables) and closes it.
func filledDB(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "full.db")
	d, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if !d.Created() {
		t.Error("a new file: Created() = false")
	}
	for i := 0; i < 300; i++ {
		u := fmt.Sprintf("player-%03d", i)
		tr := bot.TableRecord{ID: "t/" + u, Seats: []bot.SeatRecord{{User: u, Name: strings.Repeat(u, 10), Stack: 100}}}
		c := bot.Change{Table: &tr, Ledger: []bot.LedgerEntry{
			{Time: time.Unix(0, 0), Kind: bot.KindGrant, Workspace: "w", User: u, Bankroll: 1000},
			{Time: time.Unix(0, 0), Kind: bot.KindBuyIn, Workspace: "w", User: u, Bankroll: -100, OnTable: 100},
		}}
		if err := d.Commit(context.Background(), c); err != nil {
			t.Fatal(err)
		}
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	again, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if again.Created() {
		t.Error("an existing file: Created() = true")
	}
	again.Close()
	return path
}

// TestDamagedFiles: a truncated file, overwritten pages and zeroed meta pages are each refused with
// a sentence that names the file and what to do, never a panic or a SIGBUS (reproduction 5).
func TestDamagedFiles(t *testing.T) {
	for _, tc := range []struct {
		name  string
		spoil func(t *testing.T, path string, size int64)
		want  string
	}{
		{"truncated to half", func(t *testing.T, path string, size int64) {
			f, err := os.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			m, ok := readMeta(f, 0)
			f.Close()
			if !ok {
				t.Fatal("no valid meta page in a new file")
			}
			// Half of the pages in use: what the bot would map and read.
			if err := os.Truncate(path, int64(m.pages)*int64(m.pageSize)/2); err != nil {
				t.Fatal(err)
			}
		}, "cut short"},
		{"overwritten pages", func(t *testing.T, path string, size int64) {
			f, err := os.OpenFile(path, os.O_RDWR, 0)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			junk := []byte(strings.Repeat("\xde\xad\xbe\xef", 1024))
			for off := int64(2 * 4096); off < size; off += 3 * 4096 {
				f.WriteAt(junk, off)
			}
		}, "is damaged"},
		{"zero meta pages", func(t *testing.T, path string, size int64) {
			f, err := os.OpenFile(path, os.O_RDWR, 0)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			f.WriteAt(make([]byte, 2*4096), 0)
		}, "neither copy of its header is valid"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filledDB(t)
			st, err := os.Stat(path)
			if err != nil {
				t.Fatal(err)
			}
			tc.spoil(t, path, st.Size())
			d, err := Open(path)
			if err == nil {
				d.Close()
				t.Fatal("a damaged file opened without error")
			}
			if !errors.Is(err, ErrDamaged) || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), path) ||
				!strings.Contains(err.Error(), "restore it from a backup") {
				t.Fatalf("error %q, want a sentence naming the file, containing %q and what to do", err, tc.want)
			}
		})
	}
}

// TestLockedFile: a second Open of a file in use says that another dealerbot holds it.
func TestLockedFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "busy.db")
	d, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	_, err = Open(path)
	if !errors.Is(err, ErrLocked) || !strings.Contains(err.Error(), "another dealerbot") || !strings.Contains(err.Error(), "DEALERBOT_DB") {
		t.Fatalf("second open: %v, want a sentence that another dealerbot holds the file", err)
	}
}
