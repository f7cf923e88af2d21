package phh

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestCheckHand: each kind of file gets its outcome, and a sentence naming what differs or failed.
func TestCheckHand(t *testing.T) {
	tests := []struct {
		name   string
		file   string
		want   Outcome
		detail string // the whole detail, or its start when prefix is set
		prefix bool
	}{
		{"match", pluribusHand, Match, "", false},
		{"half chips of a split pot", halfChips, Match, "", false},
		{"differs", strings.Replace(pluribusHand, "[10310, 9900,", "[10311, 9899,", 1), Differ,
			"p1 finished with 10310, the file says 10311; p2 finished with 9900, the file says 9899", false},
		// Half chips excuse less than one chip, not more.
		{"half chips off by more", strings.Replace(halfChips, "[10112.5,", "[10114.5,", 1), Differ,
			"p1 finished with 10113, the file says 10114.5", false},
		{"refused action", strings.Replace(pluribusHand, "p4 cbr 210", "p4 cbr 150", 1), Failed,
			`action 8 "p4 cbr 150" (engine player 3: raise to 150) refused: The smallest raise is to 200.`, false},
		// A game dealerbot does not deal is a failure with its reason, never a pass.
		{"other game", otherGame, Failed, `variant "FR" is not a game dealerbot deals, so it cannot be replayed: ` +
			`only hold'em (NT, FT, PT) and Omaha (PO, FO/8, PO5, PO/8) replay`, false},
		{"no finishing stacks", strings.Replace(pluribusHand, "finishing_stacks", "#", 1), Skipped,
			"the file records no finishing_stacks to compare with", false},
		// The TOML library words the rest of the broken file's error; only its start is ours.
		{"broken", "variant = \n", Failed, "not a valid TOML file: ", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o, detail := CheckHand(strings.NewReader(tt.file))
			if o != tt.want || (tt.prefix && !strings.HasPrefix(detail, tt.detail)) || (!tt.prefix && detail != tt.detail) {
				t.Errorf("CheckHand = %v, %q; want %v, %q", o, detail, tt.want, tt.detail)
			}
		})
	}
}

// corpus is the shared folder of real hand histories, beside the repository. cmd/dealerbot's
// TestCorpus replays all of it through the engine.
const corpus = "../../../shared/phh"

// TestCorpusWriteRoundTrip: every real file, written back out and read again, is the same history.
func TestCorpusWriteRoundTrip(t *testing.T) {
	if _, err := os.Stat(corpus); err != nil {
		t.Skipf("the hand-history corpus %s is not here (%v): clone shared/ beside the repository to run this test", corpus, err)
	}
	files := 0
	err := filepath.WalkDir(corpus, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".phh") {
			return err
		}
		files++
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		h, err := Parse(bytes.NewReader(data))
		if err != nil {
			t.Errorf("%s: %v", path, err)
			return nil
		}
		out, err := h.Marshal()
		if err != nil {
			t.Errorf("%s: %v", path, err)
			return nil
		}
		back, err := Parse(bytes.NewReader(out))
		if err != nil {
			t.Errorf("%s: written file does not parse: %v\n%s", path, err, out)
			return nil
		}
		if !reflect.DeepEqual(back, h) {
			t.Errorf("%s: round trip changed the history\n%s", path, out)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := files, 10088; got != want {
		t.Errorf("%d files, want %d", got, want)
	}
}

// Targets, for a six-player hand: Parse under 100µs (the TOML decoding is most of it), Replay under
// 30µs, Marshal under 20µs, so that the corpus of 10,088 files checks in about a second on one core.
func BenchmarkParse(b *testing.B) {
	data := []byte(pluribusHand)
	for b.Loop() {
		if _, err := Parse(bytes.NewReader(data)); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkReplay(b *testing.B) {
	h := mustParse(b, pluribusHand)
	for b.Loop() {
		if _, err := Replay(h); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkMarshal(b *testing.B) {
	h := mustParse(b, pluribusHand)
	for b.Loop() {
		if _, err := h.Marshal(); err != nil {
			b.Fatal(err)
		}
	}
}
