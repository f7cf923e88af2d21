package main

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/dealerbot/dealerbot/bot"
	"github.com/dealerbot/dealerbot/bot/money"
	"github.com/dealerbot/dealerbot/bot/schedule"
	"github.com/dealerbot/dealerbot/bot/table"
	"github.com/dealerbot/dealerbot/storage"
	"github.com/dealerbot/dealerbot/storage/pgtest"
	"github.com/dealerbot/dealerbot/storage/record"
)

// playOnPostgres plays hands at the console table of a dealer on a new PostgreSQL database (folds,
// then an all-in showdown, and a hand left in progress), then adds through the store some of every other record: a schedule
// with an answer and a result, a removed schedule, money books, payment handles, an installation
// and DM channels. It returns the database's URL and the number of finished hands.
func playOnPostgres(t *testing.T) (url string, hands int) {
	t.Helper()
	url = pgtest.URL(t)
	lines := []string{"alice: start timer=off", "alice: join 1000", "bob: join 1000"}
	for i := 0; i < 5; i++ {
		lines = append(lines, "alice: deal", "alice: fold", "bob: fold")
	}
	lines = append(lines, "alice: deal", "alice: allin", "bob: allin", "alice: call", "bob: call")
	// A hand in progress, with its action log: whoever is the small blind calls (the other line is refused).
	lines = append(lines, "alice: rebuy 1000", "bob: rebuy 1000", "alice: deal", "alice: call", "bob: call")
	script := filepath.Join(t.TempDir(), "s.txt")
	if err := os.WriteFile(script, []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"DEALERBOT_DATABASE_URL": url, "DEALERBOT_DEAL_DELAY": "1h"}
	if code, _, errOut := runMain(t, env, "", "--script", script); code != 0 {
		t.Fatalf("play: exit %d: %s", code, errOut)
	}
	db := openPostgres(t, url)
	ctx := context.Background()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	game := time.Date(2026, 11, 6, 20, 0, 0, 0, time.UTC)
	var ids []string
	for range 2 {
		s := &schedule.Schedule{Platform: "console", Workspace: "local", Channel: "console", When: "weekly fri 20:00", Zone: "UTC", Next: game}
		must(db.PutSchedule(ctx, s))
		ids = append(ids, s.ID)
	}
	must(db.PutRSVP(ctx, schedule.RSVP{Schedule: ids[0], Game: game, User: "bob", Name: "bob", Answer: schedule.Yes, Time: game.Add(-time.Hour)}))
	must(db.PutResult(ctx, schedule.Result{Schedule: ids[1], Game: game, Ended: game.Add(time.Hour)}, nil))
	must(db.DeleteSchedule(ctx, ids[1]))
	must(db.AppendMoney(ctx, "console/local", 0, []money.Event{{Time: game, Kind: money.KindDebt, Community: "console/local", From: "bob", To: "alice", Amount: 350, Currency: "USD"}}))
	must(db.SetHandle(ctx, "console/local", "alice", money.Handle{App: "venmo", Name: "@alice-w"}))
	must(db.PutInstallation(ctx, bot.Installation{Platform: "slack", Workspace: "T1", Name: "Home game", Scopes: []string{"commands"},
		Token: []byte{1, 0, 0xff}, Installed: time.Date(2026, 11, 1, 12, 0, 0, 123456789, time.UTC)}))
	must(db.PutDMChannel(ctx, "discord", "111", "5001"))
	must(db.Commit(ctx, table.Change{Session: &table.SessionRecord{Table: "console/local/other", Started: game, Ended: game.Add(time.Hour)}}))
	return url, 6
}

// TestExportOnPostgres: `dealerbot export` reads the database DEALERBOT_DATABASE_URL names (it
// said "no database at dealerbot.db"), in every format, and writes nothing to it; a URL naming a
// database no dealerbot set up is one sentence, and creates no tables there.
func TestExportOnPostgres(t *testing.T) {
	url, hands := playOnPostgres(t)
	env := map[string]string{"DEALERBOT_DATABASE_URL": url}
	code, out, errOut := runMain(t, env, "", "export")
	if code != 0 || strings.Count(out, "PokerStars Hand #") != hands || !strings.Contains(errOut, "exported 6 hands") {
		t.Fatalf("pokerstars: exit %d, %d hands, stderr %q", code, strings.Count(out, "PokerStars Hand #"), errOut)
	}
	if strings.Contains(out, "Dealt to") || !strings.Contains(out, "*** SHOW DOWN ***") {
		t.Fatalf("an export for nobody shows Dealt to, or the showdown is missing:\n%s", out)
	}
	code, mine, _ := runMain(t, env, "", "export", "--player", "alice")
	if code != 0 || strings.Count(mine, "Dealt to alice [") != hands || strings.Contains(mine, "Dealt to bob") {
		t.Fatalf("alice's export: exit %d:\n%s", code, mine)
	}
	folder := filepath.Join(t.TempDir(), "phh")
	if code, _, errOut := runMain(t, env, "", "export", "--format", "phh", "--out", folder); code != 0 {
		t.Fatalf("phh: exit %d: %s", code, errOut)
	}
	if sum := checkPHH([]string{folder}, io.Discard); sum.Checked != hands || sum.Match != hands {
		t.Fatalf("phh check of the export: %+v", sum)
	}
	if code, _, errOut := runMain(t, env, "", "export", "--table", "nowhere"); code != 1 || !strings.Contains(errOut, `no table "nowhere": the tables with hands are console/local/console`) {
		t.Fatalf("--table nowhere: exit %d, stderr %q", code, errOut)
	}

	empty := pgtest.URL(t)
	code, out, errOut = runMain(t, map[string]string{"DEALERBOT_DATABASE_URL": empty}, "", "export")
	if code != 1 || out != "" || !strings.Contains(errOut, "holds no dealerbot tables: check that DEALERBOT_DATABASE_URL names the dealer's database") || strings.Count(errOut, "\n") != 1 {
		t.Fatalf("export from a database without dealerbot: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	if n := tablesIn(t, empty); n != 0 {
		t.Fatalf("export created %d tables in a database that had none", n)
	}
}

// tablesIn counts the tables in a database's public schema.
func tablesIn(t *testing.T, url string) int {
	t.Helper()
	conn, err := pgx.Connect(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	var n int
	if err := conn.QueryRow(context.Background(), "SELECT count(*) FROM information_schema.tables WHERE table_schema = 'public'").Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestBackupOnPostgres: `dealerbot backup FILE` on PostgreSQL writes a portable bbolt file of
// everything and says so: every read of the file returns what the database returns (migrate's
// comparison, the other way), the file's summary (counts, totals, every record's checksum) is the
// database's, a dealer and export run on it, and bad inputs change nothing.
func TestBackupOnPostgres(t *testing.T) {
	url, hands := playOnPostgres(t)
	env := map[string]string{"DEALERBOT_DATABASE_URL": url}
	dir := t.TempDir()
	out := filepath.Join(dir, "backup.db")
	code, stdout, errOut := runMain(t, env, "", "backup", out)
	if code != 0 || errOut != "" {
		t.Fatalf("backup: exit %d: %s\n%s", code, errOut, stdout)
	}
	t.Logf("backup printed:\n%s", stdout)
	for _, want := range []string{"(PostgreSQL) to " + out + ", a portable bbolt file of every record", "pg_dump remains the full backup",
		"finished hands                                6              6", "every count and every record matches"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("backup's output lacks %q:\n%s", want, stdout)
		}
	}
	if st, err := os.Stat(out); err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("the backup file: %v, %v; want mode 0600", st, err)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".dealerbot-backup-*")); len(left) != 0 {
		t.Errorf("backup left %v behind", left)
	}

	ctx := context.Background()
	pg := openPostgres(t, url)
	b, err := storage.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	snap, err := b.Snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	compareDumps(t, "the backup", dump(t, b, snap), dump(t, pg, snap))
	got, err := b.Summary(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var want record.Summary
	if err := pg.ReadAll(ctx, func(_ record.Snapshot, s record.Summary) error { want = s; return nil }); err != nil {
		t.Fatal(err)
	}
	if d := record.SumsDiffer(got, want); len(d) > 0 || got.Counts != want.Counts || got.Totals != want.Totals || got.Balance != nil {
		t.Errorf("the backup's summary differs in %v:\n got %+v\nwant %+v", d, got, want)
	}
	for _, k := range record.SumKinds {
		if got.Sums[k].N == 0 {
			t.Errorf("the test's database has no %s", k)
		}
	}
	b.Close()

	// The file is a dealer's database: export reads it as it reads PostgreSQL.
	_, fromPG, _ := runMain(t, env, "", "export")
	code, fromFile, errOut := runMain(t, map[string]string{"DEALERBOT_DB": out}, "", "export")
	if code != 0 || fromFile != fromPG || strings.Count(fromFile, "PokerStars Hand #") != hands {
		t.Fatalf("export of the backup file: exit %d, %s; differs from PostgreSQL's: %v", code, errOut, fromFile != fromPG)
	}

	// Bad inputs: a folder, a database no dealerbot set up, a server that does not answer. Nothing
	// is written, and a file already at FILE stays as it was.
	old := filepath.Join(dir, "old.db")
	if err := os.WriteFile(old, []byte("an older backup"), 0o600); err != nil {
		t.Fatal(err)
	}
	empty := pgtest.URL(t)
	for _, tc := range []struct {
		name, url, out, want string
	}{
		{"a folder", url, dir, "is a folder: name the file to write the copy to"},
		{"a missing folder", url, filepath.Join(dir, "missing", "b.db"), "there is no folder " + filepath.Join(dir, "missing") + " to write b.db in"},
		{"no dealerbot there", empty, old, "holds no dealerbot tables"},
		{"nothing answers", "postgres://dealer:hunter2@127.0.0.1:1/x", old, "nothing answers there"},
	} {
		code, stdout, errOut := runMain(t, map[string]string{"DEALERBOT_DATABASE_URL": tc.url}, "", "backup", tc.out)
		if code != 1 || stdout != "" || !strings.Contains(errOut, tc.want) || strings.Count(errOut, "\n") != 1 || strings.Contains(errOut, "hunter2") {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want exit 1 and one line with %q", tc.name, code, stdout, errOut, tc.want)
		}
	}
	if data, _ := os.ReadFile(old); string(data) != "an older backup" {
		t.Errorf("a failed backup changed the file at FILE: %q", data)
	}
	if n := tablesIn(t, empty); n != 0 {
		t.Errorf("backup created %d tables in a database that had none", n)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".dealerbot-backup-*")); len(left) != 0 {
		t.Errorf("failed backups left %v behind", left)
	}
}
