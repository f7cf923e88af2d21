package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"

	"github.com/dealerbot/dealerbot/engine/phh"
)

// phhSummary counts the outcome of checkPHH. Checked = Match + Differ + Errors + Skipped.
type phhSummary struct {
	Checked int // files looked at
	Match   int // replayed to the recorded finishing stacks
	Differ  int // replayed, but to other stacks
	Errors  int // unreadable, or the engine could not replay them
	Skipped int // other games, or no finishing_stacks to compare with
}

// String is the summary line checkPHH prints last.
func (s phhSummary) String() string {
	hands, errors := "hands", "errors"
	if s.Checked == 1 {
		hands = "hand"
	}
	if s.Errors == 1 {
		errors = "error"
	}
	return fmt.Sprintf("checked %d %s: %d match, %d differ, %d %s, %d skipped",
		s.Checked, hands, s.Match, s.Differ, s.Errors, errors, s.Skipped)
}

// OK reports whether nothing differed and nothing failed.
func (s phhSummary) OK() bool { return s.Differ == 0 && s.Errors == 0 }

type phhResult struct {
	outcome phh.Outcome
	detail  string
}

// checkPHH checks every file named in paths (folders are searched recursively for *.phh files) with
// phh.CheckHand. It prints one line per file that differs or fails, naming the file, then the
// summary line.
func checkPHH(paths []string, out io.Writer) phhSummary {
	var files []string
	var sum phhSummary
	for _, p := range paths {
		found, err := collectPHH(p)
		if err != nil {
			sum.Checked++
			sum.Errors++
			fmt.Fprintf(out, "%s: %v\n", p, err)
		}
		files = append(files, found...)
	}
	results := make([]phhResult, len(files))
	// Files are independent: replay them on every CPU, then report in file order.
	var wg sync.WaitGroup
	work := make(chan int)
	for w := 0; w < runtime.GOMAXPROCS(0); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				results[i] = checkPHHFile(files[i])
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
		case phh.Match:
			sum.Match++
		case phh.Differ:
			sum.Differ++
			fmt.Fprintf(out, "%s: differs: %s\n", files[i], r.detail)
		case phh.Failed:
			sum.Errors++
			fmt.Fprintf(out, "%s: error: %s\n", files[i], r.detail)
		case phh.Skipped:
			sum.Skipped++
		}
	}
	fmt.Fprintln(out, sum)
	return sum
}

// collectPHH returns path itself when it is a file, or the *.phh files under it in lexical order.
func collectPHH(path string) ([]string, error) {
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

func checkPHHFile(path string) phhResult {
	f, err := os.Open(path)
	if err != nil {
		return phhResult{phh.Failed, err.Error()}
	}
	defer f.Close()
	o, detail := phh.CheckHand(f)
	return phhResult{o, detail}
}
