package main

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestExportOmahaSession: a rotation of Hold'em, PLO and O8 at the console, exported: PokerStars
// text names each game, --game picks one game's hands, and the PHH files (PO, FO/8 and NT) replay
// with `dealerbot phh check`; a game that does not exist is a usage error.
func TestExportOmahaSession(t *testing.T) {
	dir := t.TempDir()
	dbPath := filepath.Join(dir, "game.db")
	lines := []string{"alice: start games=nlh,plo,o8 timer=off", "alice: join 1000", "bob: join 1000"}
	for range 6 { // two hands an orbit: three orbits
		lines = append(lines, "alice: deal", "alice: call", "bob: call", "alice: check", "bob: check")
		for range 8 { // whoever is to act checks; the others' lines are refused and change nothing
			lines = append(lines, "alice: check", "bob: check")
		}
	}
	script := filepath.Join(dir, "s.txt")
	os.WriteFile(script, []byte(strings.Join(lines, "\n")+"\n"), 0o600)
	env := map[string]string{"DEALERBOT_DB": dbPath, "DEALERBOT_DEAL_DELAY": "1h"}
	if code, _, errOut := runMain(t, env, "", "--script", script); code != 0 {
		t.Fatalf("play: exit %d: %s", code, errOut)
	}
	code, out, errOut := runMain(t, env, "", "export")
	if code != 0 || strings.Count(out, "PokerStars Hand #") != 6 {
		t.Fatalf("export: exit %d, %d hands, stderr %q\n%s", code, strings.Count(out, "PokerStars Hand #"), errOut, out)
	}
	for _, h := range []string{":  Hold'em No Limit (5/10)", ":  Omaha Pot Limit (5/10)", ":  Omaha Hi/Lo Limit (10/20)"} {
		if got := strings.Count(out, h); got != 2 {
			t.Errorf("%d hands with %q, want 2", got, h)
		}
	}
	code, plo, _ := runMain(t, env, "", "export", "--game", "plo")
	if code != 0 || strings.Count(plo, "PokerStars Hand #") != 2 || strings.Count(plo, "Omaha Pot Limit") != 2 {
		t.Fatalf("--game plo: exit %d:\n%s", code, plo)
	}
	folder := filepath.Join(t.TempDir(), "phh")
	if code, _, errOut := runMain(t, env, "", "export", "--format", "phh", "--out", folder); code != 0 {
		t.Fatalf("phh: exit %d: %s", code, errOut)
	}
	if sum := checkPHH([]string{folder}, io.Discard); sum.Checked != 6 || sum.Match != 6 {
		t.Fatalf("phh check of the export: %+v", sum)
	}
	if code, _, errOut := runMain(t, env, "", "export", "--game", "razz"); code != 2 || !strings.Contains(errOut, "--game") {
		t.Fatalf("--game razz: exit %d, stderr %q", code, errOut)
	}
}
