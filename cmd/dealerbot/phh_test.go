package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const matchingHand = `variant = 'NT'
antes = [0, 0]
blinds_or_straddles = [1, 2]
min_bet = 2
starting_stacks = [100, 100]
actions = ['d dh p1 AsAd', 'd dh p2 7c2h', 'p2 cbr 6', 'p1 cc', 'd db Kh8s3c', 'p1 cc', 'p2 cbr 4', 'p1 cbr 12', 'p2 f']
finishing_stacks = [110, 90]
`

func TestRunPHH(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good")
	bad := filepath.Join(dir, "bad")
	mixed := filepath.Join(dir, "mixed")
	for path, content := range map[string]string{
		filepath.Join(good, "1.phh"):  matchingHand,
		filepath.Join(bad, "1.phh"):   matchingHand,
		filepath.Join(bad, "2.phh"):   strings.Replace(matchingHand, "[110, 90]", "[90, 110]", 1),
		filepath.Join(mixed, "1.phh"): matchingHand,
		filepath.Join(mixed, "2.phh"): strings.Replace(matchingHand, "'NT'", "'F7S'", 1),
		filepath.Join(mixed, "3.phh"): strings.Replace(matchingHand, "'NT'", "'FR'", 1),
	} {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		name       string
		args       []string
		code       int
		stdout     string // the last line printed, or the whole output when empty is expected
		stderrPart string
		stdoutPart string // a line that must also appear, naming the file
	}{
		{name: "all match", args: []string{"check", good}, code: 0,
			stdout: "checked 1 hand: 1 match, 0 differ, 0 errors, 0 skipped"},
		{name: "one differs", args: []string{"check", bad}, code: 1,
			stdout:     "checked 2 hands: 1 match, 1 differ, 0 errors, 0 skipped",
			stdoutPart: filepath.Join(bad, "2.phh") + ": differs: p1 finished with 110, the file says 90; p2 finished with 90, the file says 110\n"},
		{name: "missing path", args: []string{"check", filepath.Join(dir, "nope")}, code: 1,
			stdout: "checked 1 hand: 0 match, 0 differ, 1 error, 0 skipped"},
		// A game dealerbot does not deal is an error unless --games leaves it out, which the summary says.
		{name: "other games", args: []string{"check", mixed}, code: 1,
			stdout:     "checked 3 hands: 1 match, 0 differ, 2 errors, 0 skipped",
			stdoutPart: filepath.Join(mixed, "2.phh") + `: error: variant "F7S" is not a game dealerbot deals, so it cannot be replayed`},
		{name: "other games not selected", args: []string{"check", "--games", "NT,PO,FO/8", mixed}, code: 0,
			stdout: "checked 3 hands: 1 match, 0 differ, 0 errors, 0 skipped, 2 not selected by --games (F7S 1, FR 1)"},
		{name: "games with equals", args: []string{"check", "--games=PO", mixed}, code: 0,
			stdout: "checked 3 hands: 0 match, 0 differ, 0 errors, 0 skipped, 3 not selected by --games (F7S 1, FR 1, NT 1)"},
		{name: "games of no engine", args: []string{"check", "--games", "NT,F7S", mixed}, code: 2,
			stderrPart: `--games: "F7S" is not a game dealerbot deals; choose from NT, FT, PT, PO, FO/8, PO5, PO/8`},
		{name: "games without list", args: []string{"check", mixed, "--games"}, code: 2,
			stderrPart: "--games needs a list of variants, like --games NT,PO,FO/8"},
		{name: "unknown option", args: []string{"check", "--fast", mixed}, code: 2,
			stderrPart: `"--fast" is not an option; the only one is --games`},
		{name: "no command", args: nil, code: 2, stderrPart: "usage: dealerbot phh check [--games CODES] PATH..."},
		{name: "no path", args: []string{"check"}, code: 2, stderrPart: "name at least one .phh file or folder"},
		{name: "unknown command", args: []string{"verify", good}, code: 2, stderrPart: `"verify" is not a phh command`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			if got := runPHH(tt.args, &stdout, &stderr); got != tt.code {
				t.Errorf("exit status %d, want %d (stdout %q, stderr %q)", got, tt.code, stdout.String(), stderr.String())
			}
			lines := strings.Split(strings.TrimSuffix(stdout.String(), "\n"), "\n")
			if got := lines[len(lines)-1]; got != tt.stdout {
				t.Errorf("last line of stdout %q, want %q", got, tt.stdout)
			}
			if !strings.Contains(stdout.String(), tt.stdoutPart) {
				t.Errorf("stdout %q, want it to contain %q", stdout.String(), tt.stdoutPart)
			}
			if !strings.Contains(stderr.String(), tt.stderrPart) || (tt.stderrPart == "" && stderr.Len() > 0) {
				t.Errorf("stderr %q, want it to contain %q", stderr.String(), tt.stderrPart)
			}
		})
	}
}
