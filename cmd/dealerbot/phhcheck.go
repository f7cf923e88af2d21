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

// phhSummary counts the outcome of checkPHH.
// Checked = Match + Differ + Errors + Skipped + Expected + NotSelected.
type phhSummary struct {
	Checked int // files looked at
	Match   int // replayed to the recorded finishing stacks
	Differ  int // replayed, but to other stacks
	Errors  int // unreadable, of a game dealerbot does not deal, or the engine could not replay them
	Skipped int // no finishing_stacks to compare with
	// Expected counts hands where RULES.md pays otherwise than pokerkit on purpose (phh.Expected).
	Expected int
	// NotSelected counts files of variants --games left out, and Unselected lists them with their
	// counts ("F7S 13, FR 10").
	NotSelected int
	Unselected  string
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
	line := fmt.Sprintf("checked %d %s: %d match, %d differ, %d %s, %d skipped",
		s.Checked, hands, s.Match, s.Differ, s.Errors, errors, s.Skipped)
	if s.Expected > 0 {
		line += fmt.Sprintf(", %d expected (RULES.md differs from pokerkit)", s.Expected)
	}
	if s.NotSelected > 0 {
		line += fmt.Sprintf(", %d not selected by --games (%s)", s.NotSelected, s.Unselected)
	}
	return line
}

// OK reports whether nothing differed and nothing failed.
func (s phhSummary) OK() bool { return s.Differ == 0 && s.Errors == 0 }

type phhResult struct {
	outcome  phh.Outcome
	detail   string
	selected bool   // false for a file of a variant --games left out
	variant  string // the file's variant, when it could be read
}

// checkPHH checks every file named in paths (folders are searched recursively for *.phh files) with
// phh.CheckHand. It prints one line per file that differs or fails, naming the file, then the
// summary line.
func checkPHH(paths []string, out io.Writer) phhSummary { return checkPHHGames(paths, nil, out) }

// checkPHHGames is checkPHH for the files of the variants in games only (every file when games is
// nil): the others are counted as not selected, by variant.
func checkPHHGames(paths []string, games map[string]bool, out io.Writer) phhSummary {
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
				results[i] = checkPHHFile(files[i], games)
			}
		}()
	}
	for i := range files {
		work <- i
	}
	close(work)
	wg.Wait()
	unselected := map[string]int{}
	for i, r := range results {
		sum.Checked++
		if !r.selected {
			sum.NotSelected++
			unselected[r.variant]++
			continue
		}
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
			fmt.Fprintf(out, "%s: skipped: %s\n", files[i], r.detail)
		case phh.Expected:
			sum.Expected++
			fmt.Fprintf(out, "%s: expected difference: %s\n", files[i], r.detail)
		}
	}
	variants := make([]string, 0, len(unselected))
	for v := range unselected {
		variants = append(variants, v)
	}
	sort.Strings(variants)
	for i, v := range variants {
		variants[i] = fmt.Sprintf("%s %d", v, unselected[v])
	}
	sum.Unselected = strings.Join(variants, ", ")
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

func checkPHHFile(path string, games map[string]bool) phhResult {
	f, err := os.Open(path)
	if err != nil {
		return phhResult{outcome: phh.Failed, detail: err.Error(), selected: true}
	}
	defer f.Close()
	h, err := phh.Parse(f)
	if err != nil {
		return phhResult{outcome: phh.Failed, detail: err.Error(), selected: true}
	}
	if games != nil && !games[h.Variant] {
		return phhResult{variant: h.Variant}
	}
	o, detail := phh.CheckHistory(h)
	return phhResult{outcome: o, detail: detail, selected: true, variant: h.Variant}
}
