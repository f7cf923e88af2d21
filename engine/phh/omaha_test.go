package phh

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOmahaCorpus replays the differential corpus pokerkit played (testdata/omaha, written by its
// generate.py): every pot-limit Omaha (PO, and PO5 for five cards) and fixed-limit Omaha hi-lo (FO/8)
// hand in po/ and fo8/ ends with pokerkit's finishing stacks, and every hand in expected/ is reported
// as the difference its first line names, with RULES.md's reason.
func TestOmahaCorpus(t *testing.T) {
	reasons := map[string]string{"no-low-side-pot": DiffNoLowSidePot, "remainder": DiffRemainder, "limit-raise": DiffLimitRaise}
	count := map[string]int{}
	for _, dir := range []string{"po", "fo8", "expected"} {
		files, err := filepath.Glob(filepath.Join("testdata", "omaha", dir, "*.phh"))
		if err != nil {
			t.Fatal(err)
		}
		for _, path := range files {
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			h, err := Parse(strings.NewReader(string(b)))
			if err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			count[h.Variant]++
			count[dir]++
			o, detail := CheckHistory(h)
			if dir != "expected" {
				if o != Match {
					t.Errorf("%s: %v: %s", path, o, detail)
				}
				continue
			}
			first, _, _ := strings.Cut(string(b), "\n")
			kinds, ok := strings.CutPrefix(first, "# expected: ")
			if !ok {
				t.Fatalf("%s: the first line should name the expected difference", path)
			}
			if o != Expected {
				t.Errorf("%s: %v (%s), want the expected difference %s", path, o, detail, kinds)
				continue
			}
			for _, k := range strings.Split(kinds, ",") {
				if !strings.Contains(detail, reasons[k]) || reasons[k] == "" {
					t.Errorf("%s: detail %q does not name %s", path, detail, k)
				}
			}
		}
	}
	t.Logf("%v", count)
	// The corpus holds every game and every kind of file; an empty folder would pass vacuously.
	for _, k := range []string{"PO", "PO5", "FO/8", "expected"} {
		if count[k] < 3 {
			t.Errorf("only %d files of %s in testdata/omaha", count[k], k)
		}
	}
}

// oneBlind is a WSOP Omaha hi-lo hand (shared corpus, 2023 event 43, day 5, hand 76) in which only p1
// posts a blind: a big blind left of the button, the small blind missing.
const oneBlind = `variant = 'FO/8'
ante_trimming_status = true
antes = [0, 0, 0, 0]
blinds_or_straddles = [250000, 0, 0, 0]
small_bet = 250000
big_bet = 500000
starting_stacks = [2625000, 6250000, 18275000, 2550000]
actions = ['d dh p1 ????????', 'd dh p2 AdAcTs8s', 'd dh p3 As8c3s2c', 'd dh p4 Qh9s5d4c', 'p2 cbr 500000', 'p3 cbr 750000', 'p4 f', 'p1 f', 'p2 cbr 1000000', 'p3 cc', 'd db Jd7s4h', 'p2 cbr 250000', 'p3 cc', 'd db 5h', 'p2 cc', 'p3 cbr 500000', 'p2 cc', 'd db Js', 'p2 cc', 'p3 cc', 'p2 sm AdAcTs8s', 'p3 sm As8c3s2c']
finishing_stacks = [2375000, 6375000, 18400000, 2550000]
`

// TestOneBlind: a hand where only p1 posts a blind replays with p2 first to act, when the button
// (the last player) folds before the flop; otherwise the engine, which would start the flop with the
// button, refuses it with the reason.
func TestOneBlind(t *testing.T) {
	if o, detail := CheckHand(strings.NewReader(oneBlind)); o != Match {
		t.Fatalf("%v: %s", o, detail)
	}
	// p3, the button, stays in after the flop: actions in the engine's order, refused for the order.
	stays := `variant = 'NT'
antes = [0, 0, 0]
blinds_or_straddles = [2, 0, 0]
min_bet = 2
starting_stacks = [100, 100, 100]
actions = ['d dh p1 AsAd', 'd dh p2 7c2h', 'd dh p3 KsKd', 'p2 f', 'p3 cc', 'p1 cc', 'd db 2c3d9h', 'p3 cc', 'p1 cc', 'd db Tc', 'p3 cc', 'p1 cc', 'd db Jc', 'p3 cc', 'p1 cc']
finishing_stacks = [102, 100, 98]
`
	o, detail := CheckHand(strings.NewReader(stays))
	if want := "only p1 posts a blind: the engine replays such a hand only when p3, the button, folds before the flop"; o != Failed || detail != want {
		t.Fatalf("%v %q, want Failed %q", o, detail, want)
	}
}

// TestOmahaExportedReadByPokerkit replays an Omaha session dealerbot exported (testdata/omaha/
// exported: eight hands of pot-limit Omaha and eight of Omaha hi-lo at a four-player console table,
// with bets, raises, folds and all-ins), which pokerkit 0.7.4 read to the same finishing stacks
// (verify_export.py). The engine must still replay each to the stacks written.
func TestOmahaExportedReadByPokerkit(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "omaha", "exported", "*.phh"))
	if err != nil {
		t.Fatal(err)
	}
	games := map[string]int{}
	for _, path := range files {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		h, err := Parse(strings.NewReader(string(b)))
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		games[h.Variant]++
		if o, detail := CheckHistory(h); o != Match {
			t.Errorf("%s: %v: %s", path, o, detail)
		}
	}
	if games["PO"] != 8 || games["FO/8"] != 8 {
		t.Fatalf("exported hands by game %v, want 8 PO and 8 FO/8", games)
	}
}
