package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestCheckPHH: folders are searched recursively for *.phh files, in lexical order; every file that
// differs or fails is printed with its name (a missing path first, as it is found), then the summary.
func TestCheckPHH(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	writeFile(t, filepath.Join(a, "1-match.phh"), matchingHand)
	writeFile(t, filepath.Join(a, "3-differ.phh"), strings.Replace(matchingHand, "[110, 90]", "[111, 89]", 1))
	writeFile(t, filepath.Join(b, "deep", "5-error.phh"), strings.Replace(matchingHand, "'p2 cbr 6'", "'p2 cbr 3'", 1))
	writeFile(t, filepath.Join(b, "6-stud.phh"), strings.Replace(matchingHand, "'NT'", "'F7S'", 1))
	writeFile(t, filepath.Join(b, "7-no-finish.phh"), strings.Replace(matchingHand, "finishing_stacks", "#", 1))
	writeFile(t, filepath.Join(b, "8-broken.phh"), "variant = \n")
	writeFile(t, filepath.Join(b, "notes.txt"), "not a hand history")
	missing := filepath.Join(dir, "missing")

	var out bytes.Buffer
	got := checkPHH([]string{a, b, missing}, &out)
	if want := (phhSummary{Checked: 7, Match: 1, Differ: 1, Errors: 4, Skipped: 1}); got != want {
		t.Errorf("checkPHH = %+v, want %+v", got, want)
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	wantLines := []string{
		missing + ": no such file or folder: give a .phh file or a folder holding some",
		filepath.Join(a, "3-differ.phh") + ": differs: p1 finished with 110, the file says 111; p2 finished with 90, the file says 89",
		filepath.Join(b, "6-stud.phh") + `: error: variant "F7S" is not a game dealerbot deals, so it cannot be replayed: only hold'em (NT, FT, PT) and Omaha (PO, FO/8, PO5, PO/8) replay`,
		filepath.Join(b, "7-no-finish.phh") + ": skipped: the file records no finishing_stacks to compare with",
		filepath.Join(b, "8-broken.phh") + ": error: not a valid TOML file: ",
		filepath.Join(b, "deep", "5-error.phh") + `: error: action 3 "p2 cbr 3" (engine player 1: raise to 3) refused: The smallest raise is to 4.`,
		"checked 7 hands: 1 match, 1 differ, 4 errors, 1 skipped",
	}
	if len(lines) != len(wantLines) {
		t.Fatalf("checkPHH printed\n%s\nwant %d lines like\n%s", out.String(), len(wantLines), strings.Join(wantLines, "\n"))
	}
	// The TOML library words the broken file's error (line 5); only its start is ours.
	for i := range lines {
		if !strings.HasPrefix(lines[i], wantLines[i]) || (i != 4 && lines[i] != wantLines[i]) {
			t.Errorf("line %d:\n got %s\nwant %s", i+1, lines[i], wantLines[i])
		}
	}
	if got.OK() {
		t.Errorf("summary OK with differences and errors")
	}

	// A file named directly is checked whatever its name.
	out.Reset()
	named := filepath.Join(b, "notes.txt")
	writeFile(t, named, matchingHand)
	if got, want := checkPHH([]string{named}, &out), (phhSummary{Checked: 1, Match: 1}); got != want || !got.OK() {
		t.Errorf("checkPHH(%s) = %+v, want %+v", named, got, want)
	}
	if got, want := out.String(), "checked 1 hand: 1 match, 0 differ, 0 errors, 0 skipped\n"; got != want {
		t.Errorf("output %q, want %q", got, want)
	}
}

// phhCorpus is the shared folder of real hand histories, beside the repository.
const phhCorpus = "../../../shared/phh"

// TestCorpus replays every hand of the shared corpus of the games CI selects (--games
// NT,FT,PO,FO/8): 10,011 no-limit and 7 fixed-limit hold'em hands, 7 pot-limit Omaha and 14 Omaha
// hi-lo hands with finishing stacks must all match; a hold'em and an Omaha hand without finishing
// stacks are skipped, and the 47 hands of games dealerbot does not deal are not selected. Without
// the selection those 47 are errors.
func TestCorpus(t *testing.T) {
	if _, err := os.Stat(phhCorpus); err != nil {
		t.Skipf("the hand-history corpus %s is not here (%v): clone shared/ beside the repository to run this test", phhCorpus, err)
	}
	var out bytes.Buffer
	games := map[string]bool{"NT": true, "FT": true, "PO": true, "FO/8": true}
	got := checkPHHGames([]string{phhCorpus}, games, &out)
	want := phhSummary{Checked: 10088, Match: 10039, Skipped: 2, NotSelected: 47,
		Unselected: "F2L3D 8, F7S 13, F7S/8 7, FB 1, FR 10, N2L1D 7, NS 1"}
	if got != want {
		t.Fatalf("checkPHH(%s) = %+v, want %+v\n%s", phhCorpus, got, want, out.String())
	}
	wantOut := phhCorpus + "/antonius-blom-2009.phh: skipped: the file records no finishing_stacks to compare with\n" +
		phhCorpus + "/dwan-ivey-2009.phh: skipped: the file records no finishing_stacks to compare with\n" +
		"checked 10088 hands: 10039 match, 0 differ, 0 errors, 2 skipped, 47 not selected by --games " +
		"(F2L3D 8, F7S 13, F7S/8 7, FB 1, FR 10, N2L1D 7, NS 1)\n"
	if got := out.String(); got != wantOut {
		t.Errorf("output %q, want %q", got, wantOut)
	}
	out.Reset()
	if got := checkPHH([]string{phhCorpus}, &out); got.Errors != 47 || got.OK() {
		t.Errorf("without --games: %+v, want the 47 hands of other games as errors", got)
	}
}
