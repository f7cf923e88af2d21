package main

import (
	"fmt"
	"io"
)

const phhUsage = `usage: dealerbot phh check PATH...
  Replays every PHH hand history in PATH (a .phh file, or a folder searched recursively for *.phh)
  through the engine and compares the final stacks with the file's finishing_stacks.
  Exit status: 0 when every replayed hand matches, 1 when a hand differs or fails, 2 on bad arguments.
`

// runPHH runs "dealerbot phh ...": args are the words after "phh". It returns the exit status.
func runPHH(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, "dealerbot phh: say what to do.\n"+phhUsage)
		return 2
	}
	switch args[0] {
	case "check":
		if len(args) == 1 {
			fmt.Fprint(stderr, "dealerbot phh check: name at least one .phh file or folder.\n"+phhUsage)
			return 2
		}
		if s := checkPHH(args[1:], stdout); !s.OK() {
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
