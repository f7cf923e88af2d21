package phh

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
)

// Summary counts the outcome of Check. Checked = Match + Differ + Errors + Skipped.
type Summary struct {
	Checked int // files looked at
	Match   int // replayed to the recorded finishing stacks
	Differ  int // replayed, but to other stacks
	Errors  int // unreadable, or the engine could not replay them
	Skipped int // other games, or no finishing_stacks to compare with
}

// String is the summary line Check prints last.
func (s Summary) String() string {
	return fmt.Sprintf("checked %d hands: %d match, %d differ, %d errors, %d skipped",
		s.Checked, s.Match, s.Differ, s.Errors, s.Skipped)
}

// OK reports whether nothing differed and nothing failed.
func (s Summary) OK() bool { return s.Differ == 0 && s.Errors == 0 }

type outcome int

const (
	match outcome = iota
	differ
	failed
	skipped
)

type result struct {
	outcome outcome
	detail  string // a sentence for differ and failed
}

// Check replays every file named in paths (folders are searched recursively for *.phh files) and
// compares the final stacks with the files' finishing_stacks. A player may be off by less than one chip
// only where the file records a fractional stack (a split pot the engine pays in whole chips). It
// prints one line per file that differs or fails, naming the file, then the summary line.
func Check(paths []string, out io.Writer) Summary {
	var files []string
	var sum Summary
	for _, p := range paths {
		found, err := collect(p)
		if err != nil {
			sum.Checked++
			sum.Errors++
			fmt.Fprintf(out, "%s: %v\n", p, err)
		}
		files = append(files, found...)
	}
	results := make([]result, len(files))
	// Files are independent: replay them on every CPU, then report in file order.
	var wg sync.WaitGroup
	work := make(chan int)
	for w := 0; w < runtime.GOMAXPROCS(0); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				results[i] = checkFile(files[i])
			}
		}()
	}
	for i := range files {
		work <- i
	}
	close(work)
	wg.Wait()
	for i, r := range results {
		sum.Checked++
		switch r.outcome {
		case match:
			sum.Match++
		case differ:
			sum.Differ++
			fmt.Fprintf(out, "%s: differs: %s\n", files[i], r.detail)
		case failed:
			sum.Errors++
			fmt.Fprintf(out, "%s: error: %s\n", files[i], r.detail)
		case skipped:
			sum.Skipped++
		}
	}
	fmt.Fprintln(out, sum)
	return sum
}

// collect returns path itself when it is a file, or the *.phh files under it in lexical order.
func collect(path string) ([]string, error) {
	info, err := os.Stat(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("no such file or folder: give a .phh file or a folder holding some")
		}
		return nil, err
	}
	if !info.IsDir() {
		return []string{path}, nil
	}
	var files []string
	err = filepath.WalkDir(path, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(d.Name(), ".phh") {
			files = append(files, p)
		}
		return nil
	})
	sort.Strings(files)
	return files, err
}

func checkFile(path string) result {
	f, err := os.Open(path)
	if err != nil {
		return result{failed, err.Error()}
	}
	defer f.Close()
	h, err := Parse(f)
	if err != nil {
		return result{failed, err.Error()}
	}
	if !Replayable(h.Variant) {
		return result{outcome: skipped}
	}
	hand, err := Replay(h)
	if err != nil {
		return result{failed, err.Error()}
	}
	if h.FinishingStacks == nil {
		return result{outcome: skipped}
	}
	got := hand.Stacks()
	var bad []string
	for i, want := range h.FinishingStacks {
		diff := math.Abs(float64(got[i]) - want)
		if diff == 0 || (want != math.Trunc(want) && diff < 1) {
			continue
		}
		bad = append(bad, fmt.Sprintf("p%d finished with %d, the file says %s", i+1, got[i], formatAmount(want)))
	}
	if bad != nil {
		return result{differ, strings.Join(bad, "; ")}
	}
	return result{outcome: match}
}
