package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/dealerbot/dealerbot/engine/phh"
)

const phhUsage = `usage: dealerbot phh check [--games CODES] PATH...
  Replays every PHH hand history in PATH (a .phh file, or a folder searched recursively for *.phh)
  through the engine and compares the final stacks with the file's finishing_stacks.
  --games NT,PO,FO/8  checks only files of these variants (games dealerbot deals: NT FT PT PO FO/8 PO5
      PO/8 ...); files of other variants are counted and listed as not selected, which is your choice,
      not a pass. Without --games, a file of a game dealerbot does not deal (stud, razz, draw...) is an
      error. A hand where RULES.md pays otherwise than pokerkit on purpose is an expected difference,
      listed with the rule, and not an error.
  Exit status: 0 when every checked hand matches or differs as expected, 1 when a hand differs or
  fails, 2 on bad arguments.
`

// runPHH runs "dealerbot phh ...": args are the words after "phh". It returns the exit status.
func runPHH(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, "dealerbot phh: say what to do.\n"+phhUsage)
		return 2
	}
	switch args[0] {
	case "check":
		paths, games, err := phhCheckArgs(args[1:])
		if err != nil {
			fmt.Fprintf(stderr, "dealerbot phh check: %v\n%s", err, phhUsage)
			return 2
		}
		if s := checkPHHGames(paths, games, stdout); !s.OK() {
			return 1
		}
		return 0
	case "help", "-h", "-help", "--help":
		fmt.Fprint(stdout, phhUsage)
		return 0
	}
	fmt.Fprintf(stderr, "dealerbot phh: %q is not a phh command; the only one is check.\n%s", args[0], phhUsage)
	return 2
}

// phhCheckArgs reads the words after "check": the --games selection (nil when absent) and the paths.
func phhCheckArgs(args []string) (paths []string, games map[string]bool, err error) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		var list string
		switch {
		case a == "--games" || a == "-games":
			if i+1 == len(args) {
				return nil, nil, fmt.Errorf("--games needs a list of variants, like --games NT,PO,FO/8")
			}
			i++
			list = args[i]
		case strings.HasPrefix(a, "--games=") || strings.HasPrefix(a, "-games="):
			list = a[strings.IndexByte(a, '=')+1:]
		case strings.HasPrefix(a, "-") && a != "-":
			return nil, nil, fmt.Errorf("%q is not an option; the only one is --games", a)
		default:
			paths = append(paths, a)
			continue
		}
		if games == nil {
			games = map[string]bool{}
		}
		for _, v := range strings.Split(list, ",") {
			v = strings.TrimSpace(v)
			if !phh.Replayable(v) {
				return nil, nil, fmt.Errorf("--games: %q is not a game dealerbot deals; choose from NT, FT, PT, PO, FO/8, PO5, PO/8", v)
			}
			games[v] = true
		}
	}
	if len(paths) == 0 {
		return nil, nil, fmt.Errorf("name at least one .phh file or folder")
	}
	return paths, games, nil
}
