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

	"github.com/dealerbot/dealerbot/bot/table"
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
		tr := table.TableRecord{ID: "t/" + u, Seats: []table.SeatRecord{{User: u, Name: strings.Repeat(u, 10), Stack: 100}}}
		c := table.Change{Table: &tr, Ledger: []table.LedgerEntry{
			{Time: time.Unix(0, 0), Kind: table.KindGrant, Workspace: "w", User: u, Bankroll: 1000},
			{Time: time.Unix(0, 0), Kind: table.KindBuyIn, Workspace: "w", User: u, Bankroll: -100, OnTable: 100},
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
		{"truncated to 0 bytes", func(t *testing.T, path string, size int64) {
			if err := os.Truncate(path, 0); err != nil {
				t.Fatal(err)
			}
		}, "is empty (0 bytes): it may have been truncated"},
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

// TestEmptyFileRefused: an existing file of 0 bytes (a database truncated by a full disk or a bad
// copy) is refused with a sentence saying what happened and what to do, and is left as it was:
// before, bbolt wrote a new database into it and every bankroll was gone without a word. Deleting
// it, as the sentence says, starts a new database, as a missing file always does.
func TestEmptyFileRefused(t *testing.T) {
	path := filepath.Join(t.TempDir(), "dealerbot.db")
	if err := os.WriteFile(path, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	d, err := Open(path)
	if err == nil {
		d.Close()
		t.Fatal("an empty file opened as a new database")
	}
	if got, want := err.Error(), path+" is empty (0 bytes): it may have been truncated; restore it from a backup "+
		"(`dealerbot backup FILE` makes one), or delete it to start a new database: "+ErrDamaged.Error(); got != want {
		t.Fatalf("error\n%q, want\n%q", got, want)
	}
	if !errors.Is(err, ErrDamaged) {
		t.Fatalf("errors.Is(%v, ErrDamaged) = false", err)
	}
	if st, err := os.Stat(path); err != nil || st.Size() != 0 {
		t.Fatalf("the refused file was changed: %v, %v", st, err)
	}
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	d, err = Open(path)
	if err != nil {
		t.Fatalf("a missing file: %v, want a new database", err)
	}
	defer d.Close()
	if !d.Created() {
		t.Error("a missing file: Created() = false")
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
