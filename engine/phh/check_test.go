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

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestCheck(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	writeFile(t, filepath.Join(a, "1-match.phh"), pluribusHand)
	writeFile(t, filepath.Join(a, "2-half.phh"), halfChips)
	writeFile(t, filepath.Join(a, "3-differ.phh"), strings.Replace(pluribusHand, "[10310, 9900,", "[10311, 9899,", 1))
	// Half chips excuse less than one chip, not more.
	writeFile(t, filepath.Join(a, "4-half-off.phh"), strings.Replace(halfChips, "[10112.5,", "[10114.5,", 1))
	writeFile(t, filepath.Join(b, "deep", "5-error.phh"), strings.Replace(pluribusHand, "p4 cbr 210", "p4 cbr 150", 1))
	writeFile(t, filepath.Join(b, "6-stud.phh"), otherGame)
	writeFile(t, filepath.Join(b, "7-no-finish.phh"), strings.Replace(pluribusHand, "finishing_stacks", "#", 1))
	writeFile(t, filepath.Join(b, "8-broken.phh"), "variant = \n")
	writeFile(t, filepath.Join(b, "notes.txt"), "not a hand history")
	missing := filepath.Join(dir, "missing")

	var out bytes.Buffer
	got := Check([]string{a, b, missing}, &out)
	if want := (Summary{Checked: 9, Match: 2, Differ: 2, Errors: 3, Skipped: 2}); got != want {
		t.Errorf("Check = %+v, want %+v", got, want)
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	wantLines := []string{
		missing + ": no such file or folder: give a .phh file or a folder holding some",
		filepath.Join(a, "3-differ.phh") + ": differs: p1 finished with 10310, the file says 10311; p2 finished with 9900, the file says 9899",
		filepath.Join(a, "4-half-off.phh") + ": differs: p1 finished with 10113, the file says 10114.5",
		filepath.Join(b, "8-broken.phh") + ": error: not a valid TOML file: ",
		filepath.Join(b, "deep", "5-error.phh") + `: error: action 8 "p4 cbr 150" (engine player 3: raise to 150) refused: The smallest raise is to 200.`,
		"checked 9 hands: 2 match, 2 differ, 3 errors, 2 skipped",
	}
	if len(lines) != len(wantLines) {
		t.Fatalf("Check printed\n%s\nwant %d lines like\n%s", out.String(), len(wantLines), strings.Join(wantLines, "\n"))
	}
	// The TOML library words the broken file's error (line 4); only its start is ours.
	for i := range lines {
		if !strings.HasPrefix(lines[i], wantLines[i]) || (i != 3 && lines[i] != wantLines[i]) {
			t.Errorf("line %d:\n got %s\nwant %s", i+1, lines[i], wantLines[i])
		}
	}
	if got.OK() {
		t.Errorf("Summary.OK() with differences and errors")
	}

	// A file named directly is checked whatever its name.
	out.Reset()
	named := filepath.Join(b, "notes.txt")
	writeFile(t, named, pluribusHand)
	if got, want := Check([]string{named}, &out), (Summary{Checked: 1, Match: 1}); got != want || !got.OK() {
		t.Errorf("Check(%s) = %+v, want %+v", named, got, want)
	}
	if got, want := out.String(), "checked 1 hands: 1 match, 0 differ, 0 errors, 0 skipped\n"; got != want {
		t.Errorf("output %q, want %q", got, want)
	}
}

// corpus is the shared folder of real hand histories, beside the repository.
const corpus = "../../../shared/phh"

// TestCorpus replays every hand of the shared corpus: 10,011 no-limit and 7 fixed-limit hold'em hands
// with finishing stacks must all match; the 69 hands of other games and the one hold'em hand without
// finishing stacks are skipped.
func TestCorpus(t *testing.T) {
	if _, err := os.Stat(corpus); err != nil {
		t.Skipf("the hand-history corpus %s is not here (%v): clone shared/ beside the repository to run this test", corpus, err)
	}
	var out bytes.Buffer
	got := Check([]string{corpus}, &out)
	want := Summary{Checked: 10088, Match: 10018, Differ: 0, Errors: 0, Skipped: 70}
	if got != want {
		t.Fatalf("Check(%s) = %+v, want %+v\n%s", corpus, got, want, out.String())
	}
	if got, want := out.String(), "checked 10088 hands: 10018 match, 0 differ, 0 errors, 70 skipped\n"; got != want {
		t.Errorf("output %q, want %q", got, want)
	}
}

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
