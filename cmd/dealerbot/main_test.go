package main

import (
	"context"
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/dealerbot/dealerbot/bot/table"
	"github.com/dealerbot/dealerbot/storage"
)

func envOf(vals map[string]string) func(string) (string, bool) {
	return func(k string) (string, bool) { v, ok := vals[k]; return v, ok }
}

func runMain(t *testing.T, env map[string]string, stdin string, args ...string) (code int, out, errOut string) {
	t.Helper()
	// Locked: the scheduler's cron goroutine may still log its stop as Run returns.
	var o, e lockedBuffer
	empty := filepath.Join(t.TempDir(), "empty.env") // no .env of the working directory is read
	if err := os.WriteFile(empty, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if len(args) > 0 && args[0] == "--env" {
		empty = args[1] // the test names its own
		args = args[2:]
	}
	m := &Main{Args: append([]string{"--env", empty}, args...),
		Stdin: strings.NewReader(stdin), Stdout: &o, Stderr: &e, Lookup: envOf(env)}
	code = m.Run(context.Background())
	return code, o.String(), e.String()
}

func TestConsoleScriptPlaysAndPersists(t *testing.T) {
	db := filepath.Join(t.TempDir(), "game.db")
	script := filepath.Join(t.TempDir(), "game.txt")
	os.WriteFile(script, []byte("alice: start\nalice: join 1000\nbob: join 1000\nalice: deal\nbob: chips\n"), 0o600)
	code, out, errOut := runMain(t, map[string]string{"DEALERBOT_DB": db, "DEALERBOT_STARTING_BANKROLL": "5000"}, "", "--script", script)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"alice opened a table", "bob sits down", "posts the big blind", "[to alice] Hand #1"} {
		if !strings.Contains(out, want) {
			t.Fatalf("output lacks %q:\n%s", want, out)
		}
	}
	// Hole cards only ever go to one player.
	for _, line := range strings.Split(out, "\n") {
		if strings.Contains(line, "your cards") && !strings.HasPrefix(line, "[to ") {
			t.Fatalf("hole cards in a channel line: %q", line)
		}
	}
	// Everything is on disk: the bankrolls and the table with its hand in progress.
	s, err := storage.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	p, ok, err := s.Player(context.Background(), "local", "alice")
	if err != nil || !ok || p.Bankroll+p.OnTable != 5000 {
		t.Fatalf("alice on disk: %+v %v %v, want 5000 chips in all", p, ok, err)
	}
	tables, _ := s.Tables(context.Background())
	if len(tables) != 1 || tables[0].Hand == nil {
		t.Fatalf("tables on disk %+v: want one with a hand in progress", tables)
	}
}

func TestBackupWithoutAndWhileRunning(t *testing.T) {
	dir := t.TempDir()
	dbPath := filepath.Join(dir, "live.db")
	db, err := storage.Open(dbPath)
	if err != nil {
		t.Fatal(err)
	}
	grant := table.LedgerEntry{Kind: table.KindGrant, Workspace: "w", User: "u", Name: "u", Bankroll: 777}
	if err := db.Commit(context.Background(), table.Change{Ledger: []table.LedgerEntry{grant}}); err != nil {
		t.Fatal(err)
	}
	// While the database is open (the bot holds bbolt's lock), the copy comes over the socket.
	stop, err := serveBackups(db, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	// The copy holds every hole card: only the bot's own user may connect.
	if st, err := os.Stat(socketPath(dbPath)); err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("backup socket: %v, %v; want mode 0600", st.Mode(), err)
	}
	out1 := filepath.Join(dir, "copy1.db")
	code, _, errOut := runMain(t, map[string]string{"DEALERBOT_DB": dbPath}, "", "backup", out1)
	if code != 0 {
		t.Fatalf("backup while running: exit %d: %s", code, errOut)
	}
	stop()
	db.Close()
	// With no bot running, backup opens the file itself.
	out2 := filepath.Join(dir, "copy2.db")
	if code, _, errOut := runMain(t, map[string]string{"DEALERBOT_DB": dbPath}, "", "backup", out2); code != 0 {
		t.Fatalf("backup of a closed database: exit %d: %s", code, errOut)
	}
	for _, path := range []string{out1, out2} {
		c, err := storage.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		p, ok, err := c.Player(context.Background(), "w", "u")
		c.Close()
		if err != nil || !ok || p.Bankroll != 777 {
			t.Fatalf("%s: player %+v %v %v, want the 777-chip bankroll", path, p, ok, err)
		}
	}
}

func TestBadCommandLines(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name string
		env  map[string]string
		args []string
		code int
		want string
	}{
		{"unknown subcommand", nil, []string{"dance"}, 2, `unknown command "dance"`},
		{"backup without a file", nil, []string{"backup"}, 2, "exactly one argument"},
		{"backup to two files", nil, []string{"backup", "a.db", "b.db"}, 2, "exactly one argument"},
		{"backup with a flag", nil, []string{"backup", "--force"}, 2, "exactly one argument"},
		{"backup of a missing database", map[string]string{"DEALERBOT_DB": filepath.Join(dir, "nope.db")},
			[]string{"backup", filepath.Join(dir, "out.db")}, 1, "set DEALERBOT_DB"},
		{"bad setting", map[string]string{"DEALERBOT_DEAL_DELAY": "soon"}, nil, 2, "DEALERBOT_DEAL_DELAY"},
		{"half a Slack setup", map[string]string{"DEALERBOT_DB": filepath.Join(dir, "x.db"), "SLACK_BOT_TOKEN": "xoxb-1"}, nil, 1, "only SLACK_BOT_TOKEN is set: add SLACK_APP_TOKEN"},
		{"phh without a path", nil, []string{"phh", "check"}, 2, ""},
		{"a missing --env file", nil, []string{"--env", filepath.Join(dir, "missing.env")}, 2, "given with --env does not exist"},
		{"an unknown flag", nil, []string{"--colour"}, 2, "flag provided but not defined: -colour\nUsage:"},
		{"check with an argument", nil, []string{"check", "discord"}, 2, "dealerbot check takes no arguments"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, _, errOut := runMain(t, tt.env, "", tt.args...)
			if code != tt.code || !strings.Contains(errOut, tt.want) {
				t.Fatalf("exit %d, stderr %q; want exit %d mentioning %q", code, errOut, tt.code, tt.want)
			}
		})
	}
}

// The console runs the scheduler in front of the dealer, with DEALERBOT_TIMEZONE as the default
// zone, and the schedule is on disk afterwards.
func TestConsoleSchedules(t *testing.T) {
	db := filepath.Join(t.TempDir(), "game.db")
	script := filepath.Join(t.TempDir(), "game.txt")
	os.WriteFile(script, []byte("alice: start\nalice: schedule add weekly fri 20:00\nbob: schedule add weekly sat 20:00\n"), 0o600)
	env := map[string]string{"DEALERBOT_DB": db, "DEALERBOT_TIMEZONE": "America/New_York"}
	code, out, errOut := runMain(t, env, "", "--script", script)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, "20:00 EST") {
		t.Errorf("the host's schedule is not in the default zone America/New_York:\n%s", out)
	}
	if !strings.Contains(out, "[to bob] ! Only an admin or the host") {
		t.Errorf("a player who is not the host added a schedule:\n%s", out)
	}
	os.WriteFile(script, []byte("bob: schedule list\n"), 0o600)
	code, out, errOut = runMain(t, env, "", "--script", script)
	if code != 0 || !strings.Contains(out, "1. weekly fri 20:00 (America/New_York), 3 h, host alice") || strings.Contains(out, "sat") {
		t.Errorf("after a restart schedule list = %q (exit %d, %s)", out, code, errOut)
	}
}

// TestDamagedDatabaseExitsWithASentence: a damaged or locked file ends the start with one line that
// says what to do and a non-zero exit, never a Go trace; a new file is named in the log.
func TestDamagedDatabaseExitsWithASentence(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "game.db")
	script := filepath.Join(dir, "s.txt")
	os.WriteFile(script, []byte("alice: start\nalice: join\nbob: join\nalice: deal\n"), 0o600)
	code, _, errOut := runMain(t, map[string]string{"DEALERBOT_DB": db}, "", "--script", script)
	if code != 0 || !strings.Contains(errOut, "started a new database file") {
		t.Fatalf("first run: exit %d, log %q", code, errOut)
	}
	f, err := os.OpenFile(db, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteAt(make([]byte, 8192), 0) // both meta pages gone
	f.Close()
	code, _, errOut = runMain(t, map[string]string{"DEALERBOT_DB": db}, "", "--script", script)
	if code == 0 || !strings.Contains(errOut, "is damaged") || strings.Contains(errOut, "goroutine ") || strings.Count(strings.TrimSpace(errOut), "\n") > 1 {
		t.Fatalf("damaged file: exit %d, stderr %q; want a non-zero exit and one sentence", code, errOut)
	}

	held, err := storage.Open(filepath.Join(dir, "held.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	code, _, errOut = runMain(t, map[string]string{"DEALERBOT_DB": filepath.Join(dir, "held.db")}, "", "--script", script)
	if code == 0 || !strings.Contains(errOut, "another dealerbot") {
		t.Fatalf("locked file: exit %d, stderr %q", code, errOut)
	}
}

// TestPeerUID: the backup socket learns the asking process's user, which must be the bot's own.
func TestPeerUID(t *testing.T) {
	if !peerChecked {
		t.Skip("no peer credentials on this system: the socket's 0600 mode alone guards backups")
	}
	ln, err := net.Listen("unix", filepath.Join(t.TempDir(), "p.sock"))
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	c, err := net.Dial("unix", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	s, err := ln.Accept()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	uid, err := peerUID(s.(*net.UnixConn))
	if err != nil || uid != os.Getuid() {
		t.Fatalf("peerUID = %d, %v; want %d", uid, err, os.Getuid())
	}
}

// TestReadmeConsoleExample: the console lines README.md gives a newcomer run without a refusal, and the
// table then says who acts first in the words the README quotes.
func TestReadmeConsoleExample(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, after, ok := strings.Cut(string(readme), "## Playing at the console")
	if !ok {
		t.Fatal("README.md has no console section")
	}
	var lines []string
	for _, l := range strings.Split(after, "\n") {
		if strings.HasPrefix(l, "    ") {
			lines = append(lines, strings.TrimSpace(l))
		} else if len(lines) > 0 && strings.TrimSpace(l) != "" {
			break
		}
	}
	if len(lines) < 4 {
		t.Fatalf("README.md's console example: %q", lines)
	}
	script := filepath.Join(t.TempDir(), "readme.txt")
	if err := os.WriteFile(script, []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runMain(t, map[string]string{"DEALERBOT_DB": filepath.Join(t.TempDir(), "r.db")}, "", "--script", script)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if strings.Contains(out, "] ! ") {
		t.Fatalf("a line of README.md's example was refused:\n%s", out)
	}
	if !regexp.MustCompile(`▶ (alice|bob|carol) to act pre-flop — 10 to call\. Raise to 20–1,000\.`).MatchString(out) {
		t.Fatalf("the table does not say who acts first as README.md quotes it:\n%s", out)
	}
}
