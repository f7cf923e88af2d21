package main

import (
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dealerbot/dealerbot/storage"
)

// playHands plays hands at the console table in a new database: folds, then an all-in showdown.
func playHands(t *testing.T) (dbPath string, hands int) {
	t.Helper()
	dir := t.TempDir()
	dbPath = filepath.Join(dir, "game.db")
	var lines []string
	lines = append(lines, "alice: start timer=off", "alice: join 1000", "bob: join 1000")
	for i := 0; i < 5; i++ {
		lines = append(lines, "alice: deal", "alice: fold", "bob: fold")
	}
	lines = append(lines, "alice: deal", "alice: allin", "bob: allin", "alice: call", "bob: call")
	script := filepath.Join(dir, "s.txt")
	os.WriteFile(script, []byte(strings.Join(lines, "\n")+"\n"), 0o600)
	env := map[string]string{"DEALERBOT_DB": dbPath, "DEALERBOT_DEAL_DELAY": "1h"}
	if code, _, errOut := runMain(t, env, "", "--script", script); code != 0 {
		t.Fatalf("play: exit %d: %s", code, errOut)
	}
	return dbPath, 6
}

// TestExportCommand: `dealerbot export` writes every finished hand in each format; PHH files replay
// with `dealerbot phh check`; no unshown hole card is written unless the export is for that player.
func TestExportCommand(t *testing.T) {
	db, hands := playHands(t)
	env := map[string]string{"DEALERBOT_DB": db}

	code, out, errOut := runMain(t, env, "", "export")
	if code != 0 || strings.Count(out, "PokerStars Hand #") != hands || !strings.Contains(errOut, "exported 6 hands") {
		t.Fatalf("pokerstars: exit %d, %d hands, stderr %q", code, strings.Count(out, "PokerStars Hand #"), errOut)
	}
	if strings.Contains(out, "Dealt to") || !strings.Contains(out, "*** SHOW DOWN ***") {
		t.Fatalf("an export for nobody shows Dealt to, or the showdown is missing:\n%s", out)
	}
	code, mine, _ := runMain(t, env, "", "export", "--player", "alice")
	if code != 0 || strings.Count(mine, "Dealt to alice [") != hands || strings.Contains(mine, "Dealt to bob") {
		t.Fatalf("alice's export: exit %d, %d Dealt to alice lines:\n%s", code, strings.Count(mine, "Dealt to alice ["), mine)
	}

	ohhPath := filepath.Join(t.TempDir(), "hands.json")
	if code, _, errOut := runMain(t, env, "", "export", "--format", "ohh", "--out", ohhPath); code != 0 {
		t.Fatalf("ohh: exit %d: %s", code, errOut)
	}
	data, _ := os.ReadFile(ohhPath)
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	if len(lines) != hands {
		t.Fatalf("ohh: %d lines, want %d", len(lines), hands)
	}
	for _, l := range lines {
		var v struct {
			OHH struct {
				GameNumber string `json:"game_number"`
			} `json:"ohh"`
		}
		if err := json.Unmarshal([]byte(l), &v); err != nil || v.OHH.GameNumber == "" {
			t.Fatalf("ohh line %q: %v", l, err)
		}
	}

	folder := filepath.Join(t.TempDir(), "phh")
	if code, _, errOut := runMain(t, env, "", "export", "--format", "phh", "--out", folder); code != 0 {
		t.Fatalf("phh: exit %d: %s", code, errOut)
	}
	if sum := checkPHH([]string{folder}, io.Discard); sum.Checked != hands || sum.Match != hands {
		t.Fatalf("phh check of the export: %+v", sum)
	}
	// A second export names the files the same: hand IDs are stable.
	again := filepath.Join(t.TempDir(), "phh2")
	runMain(t, env, "", "export", "--format", "phh", "--out", again)
	a, _ := os.ReadDir(folder)
	b, _ := os.ReadDir(again)
	if len(a) != len(b) || a[0].Name() != b[0].Name() {
		t.Fatal("hand IDs changed between two exports")
	}

	// While a dealerbot holds the file, the export comes from the running bot's consistent copy.
	held, err := storage.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	stop, err := serveBackups(held, newLogger(io.Discard, "error"))
	if err != nil {
		t.Fatal(err)
	}
	code, out, errOut = runMain(t, env, "", "export")
	stop()
	held.Close()
	if code != 0 || strings.Count(out, "PokerStars Hand #") != hands {
		t.Fatalf("export while the bot runs: exit %d: %s", code, errOut)
	}

	for _, bad := range [][]string{{"export", "--format", "xml"}, {"export", "--format", "phh"}, {"export", "--since", "yesterday"}} {
		if code, _, errOut := runMain(t, env, "", bad...); code != 2 || errOut == "" {
			t.Fatalf("%v: exit %d, stderr %q; want a usage error", bad, code, errOut)
		}
	}
}
