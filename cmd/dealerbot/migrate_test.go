package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dealerbot/dealerbot/bot"
	"github.com/dealerbot/dealerbot/bot/money"
	"github.com/dealerbot/dealerbot/bot/schedule"
	"github.com/dealerbot/dealerbot/bot/table"
	"github.com/dealerbot/dealerbot/storage"
	"github.com/dealerbot/dealerbot/storage/pgtest"
	"github.com/dealerbot/dealerbot/storage/postgres"
	"github.com/dealerbot/dealerbot/storage/record"
	"github.com/dealerbot/dealerbot/storage/storetest"
)

// migrateSource makes a bbolt file with some of everything: two sessions played at the console
// table (grants, buy-ins, an adjustment, a cash-out, results, finished hands, a finished session, and
// a hand in progress with its action log and turn deadline), then, through the store, a second
// workspace, a second hand kept under a number already taken, three schedules with RSVPs and results,
// and one of those schedules removed (its result stays).
func migrateSource(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	path := filepath.Join(dir, "dealerbot.db")
	env := map[string]string{"DEALERBOT_DB": path, "DEALERBOT_DEAL_DELAY": "1h", "DEALERBOT_STARTING_BANKROLL": "5000",
		"DEALERBOT_CONSOLE_ADMINS": "alice"}
	play := func(lines ...string) {
		t.Helper()
		script := filepath.Join(dir, "s.txt")
		if err := os.WriteFile(script, []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		if code, out, errOut := runMain(t, env, "", "--script", script); code != 0 {
			t.Fatalf("play: exit %d: %s\n%s", code, errOut, out)
		}
	}
	session := []string{"alice: start timer=off", "alice: join 1000", "bob: join 1000", "carol: join 500", "carol: leave",
		"alice: adjust @carol 250"}
	for i := 0; i < 3; i++ {
		session = append(session, "alice: deal", "alice: fold", "bob: fold")
	}
	session = append(session, "alice: deal", "alice: allin", "bob: allin", "alice: call", "bob: call", "alice: end")
	play(session...)
	// The next session's hand stays in progress, with an action or two in its log.
	play("alice: start", "alice: join 800", "bob: join 800", "alice: deal", "alice: call", "bob: call")

	db, err := storage.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(db.Commit(ctx, table.Change{Ledger: []table.LedgerEntry{
		{Kind: table.KindGrant, Workspace: "w2", User: "zed", Name: "Zed", Bankroll: 700, Time: time.Unix(1_800_000_000, 0)},
	}}))
	tables, err := db.Tables(ctx)
	must(err)
	if len(tables) != 1 {
		t.Fatalf("the console left %d tables, want 1", len(tables))
	}
	hands, err := db.Hands(ctx, tables[0].ID, 100)
	must(err)
	if len(hands) < 4 {
		t.Fatalf("the console kept %d hands, want 4", len(hands))
	}
	// Hand 1 twice more under its number, as a version that numbered each session's hands from 1 kept them.
	for i := 1; i <= 2; i++ {
		kept := hands[len(hands)-1]
		kept.Time = kept.Time.Add(time.Duration(i) * time.Hour)
		kept.Salt = fmt.Sprintf("%032x", i) // another hand: the same one twice is refused
		must(db.Commit(ctx, table.Change{Hand: &kept}))
	}

	game := time.Date(2026, 11, 6, 20, 0, 0, 0, time.UTC)
	var ids []string
	for _, when := range []string{"weekly fri 20:00", "weekly sat 20:00", "weekly sun 18:00"} {
		s := &schedule.Schedule{Platform: "console", Workspace: "local", Channel: "console", Host: "alice", HostName: "alice",
			When: when, Cron: "0 20 * * 5", Zone: "Europe/Berlin", Length: 3 * time.Hour, Created: game.Add(-72 * time.Hour), Next: game}
		must(db.PutSchedule(ctx, s))
		ids = append(ids, s.ID)
	}
	for i, u := range []string{"bob", "alice"} {
		must(db.PutRSVP(ctx, schedule.RSVP{Schedule: ids[0], Game: game, User: u, Name: u, Answer: []schedule.Answer{schedule.Yes, schedule.Maybe}[i], Time: game.Add(-time.Duration(10-i) * time.Hour)}))
	}
	s0 := schedule.Schedule{ID: ids[0], Platform: "console", Workspace: "local", Channel: "console", When: "weekly fri 20:00", Next: game.Add(7 * 24 * time.Hour),
		Version: 1} // written at the version PutSchedule left
	must(db.PutResult(ctx, schedule.Result{Schedule: ids[0], Game: game, Ended: game.Add(3 * time.Hour),
		Players: []schedule.Balance{{User: "alice", Name: "alice", Net: 300}, {User: "bob", Name: "bob", Net: -300}}}, &s0))
	must(db.PutResult(ctx, schedule.Result{Schedule: ids[2], Game: game, Ended: game.Add(time.Hour)}, nil))
	must(db.DeleteSchedule(ctx, ids[2]))
	must(db.PutInstallation(ctx, bot.Installation{Platform: "slack", Workspace: "T1", Name: "Home game", BotUser: "U0BOT",
		Scopes: []string{"commands", "chat:write"}, Token: []byte{1, 0, 0xff, 7}, InstalledBy: "U1", Installed: game.UTC()}))
	must(db.PutDMChannel(ctx, "discord", "111", "5001"))
	must(db.PutDMChannel(ctx, "discord", "222", "5002"))
	// Money books in two communities and payment handles.
	for _, c := range []string{"console/local", "discord/1"} {
		must(db.AppendMoney(ctx, c, 0, []money.Event{{Time: game, Kind: money.KindDebt, Community: c, From: "bob", To: "alice", Amount: 350, Currency: "USD"},
			{Time: game, Kind: money.KindPaid, Community: c, Debt: 1, By: "bob"}}))
	}
	must(db.SetHandle(ctx, "discord/1", "alice", money.Handle{App: "venmo", Name: "@alice-w"}))
	must(db.SetHandle(ctx, "console/local", "bob", money.Handle{App: "paypal", Name: "bob@example.com"}))
	return path
}

// storeDump is everything a store returns through its methods, for comparing two stores.
type storeDump struct {
	Tables    []table.TableRecord
	Community map[string][]table.TableRecord
	Players   map[string][]table.PlayerRecord
	Ledger    []table.LedgerEntry
	Hands     []table.HandRecord
	Recent    map[string][]table.HandRecord // Hands(table, 100) of every table with hands
	Sessions  []table.SessionRecord
	Schedules []schedule.Schedule
	RSVPs     map[string][]schedule.RSVP
	Results   map[string][]schedule.Result
	Money     map[string][]money.Event           // every community's book
	Handles   map[string]map[string]money.Handle // the payment handles of every community with a book
	Installs  map[string]bot.Installation
	DMs       map[string]string
	Totals    record.Totals
}

// dump reads s through its methods; the workspaces, tables and games to ask for come from snap.
func dump(t *testing.T, s storetest.Store, snap record.Snapshot) storeDump {
	t.Helper()
	ctx := context.Background()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	d := storeDump{Community: map[string][]table.TableRecord{}, Players: map[string][]table.PlayerRecord{},
		Recent: map[string][]table.HandRecord{}, RSVPs: map[string][]schedule.RSVP{}, Results: map[string][]schedule.Result{},
		Money: map[string][]money.Event{}, Handles: map[string]map[string]money.Handle{}, Installs: map[string]bot.Installation{}, DMs: map[string]string{}}
	var err error
	// A table's version and last step count the writes of the store that holds it (table.Change.Step):
	// a copy starts its own count, so they are left out of the comparison.
	unversioned := func(ts []table.TableRecord) []table.TableRecord {
		for i := range ts {
			ts[i].Version, ts[i].Step = 0, ""
		}
		return ts
	}
	d.Tables, err = s.Tables(ctx)
	must(err)
	d.Tables = unversioned(d.Tables)
	for _, tb := range snap.Tables {
		ts, err := s.CommunityTables(ctx, tb.Community)
		must(err)
		d.Community[tb.Community] = unversioned(ts)
	}
	for _, p := range snap.Players {
		d.Players[p.Workspace], err = s.Players(ctx, p.Workspace)
		must(err)
	}
	d.Ledger, err = s.Ledger(ctx)
	must(err)
	must(s.EachHand(ctx, func(h table.HandRecord) error { d.Hands = append(d.Hands, h); return nil }))
	for _, h := range d.Hands {
		d.Recent[h.Table], err = s.Hands(ctx, h.Table, 100)
		must(err)
	}
	d.Sessions, err = s.Sessions(ctx)
	must(err)
	d.Schedules, err = s.Schedules(ctx)
	for i := range d.Schedules { // likewise a schedule's version: the count of the store's writes
		d.Schedules[i].Version = 0
	}
	must(err)
	for _, r := range snap.RSVPs {
		id, game := fmt.Sprint(r.Schedule), time.Unix(0, r.Game)
		d.RSVPs[fmt.Sprint(id, "@", r.Game)], err = s.RSVPs(ctx, id, game)
		must(err)
	}
	for _, r := range snap.Results {
		d.Results[fmt.Sprint(r.Schedule)], err = s.Results(ctx, fmt.Sprint(r.Schedule))
		must(err)
	}
	cs, err := s.MoneyCommunities(ctx)
	must(err)
	for _, h := range snap.Handles {
		cs = append(cs, h.Community)
	}
	for _, c := range cs {
		d.Money[c], err = s.MoneyBook(ctx, c)
		must(err)
		d.Handles[c], err = s.Handles(ctx, c)
		must(err)
	}
	if ins, ok := s.(bot.Installations); ok {
		for _, want := range snap.Installations {
			in, found, err := ins.Installation(ctx, want.Platform, want.Workspace)
			must(err)
			if found {
				in.Installed = in.Installed.UTC()
			}
			d.Installs[want.Platform+"/"+want.Workspace] = in
		}
	}
	for _, dm := range snap.DMChannels {
		ch, _, err := s.DMChannel(ctx, dm.Platform, dm.User)
		must(err)
		d.DMs[dm.Platform+"/"+dm.User] = ch
	}
	d.Totals, err = s.Balance(ctx)
	must(err)
	return d
}

// compareDumps reports every field in which two dumps differ.
func compareDumps(t *testing.T, what string, got, want storeDump) {
	t.Helper()
	g, w := reflect.ValueOf(got), reflect.ValueOf(want)
	for i := 0; i < g.NumField(); i++ {
		if !reflect.DeepEqual(g.Field(i).Interface(), w.Field(i).Interface()) {
			t.Errorf("%s: %s differ:\n got %+v\nwant %+v", what, g.Type().Field(i).Name, g.Field(i).Interface(), w.Field(i).Interface())
		}
	}
}

func openPostgres(t *testing.T, url string) *postgres.DB {
	t.Helper()
	db, err := postgres.Open(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// TestMigrateCopiesEverything: migrate copies a played bbolt file into PostgreSQL so that every read
// of the copy returns what the file returns, prints the counts of both, refuses a second run into
// the same database without changing it, and leaves the copy numbering new records after the old.
func TestMigrateCopiesEverything(t *testing.T) {
	url := pgtest.URL(t)
	from := migrateSource(t)

	code, out, errOut := runMain(t, nil, "", "migrate", "--from", from, "--to", url)
	if code != 0 {
		t.Fatalf("migrate: exit %d: %s\n%s", code, errOut, out)
	}
	t.Logf("migrate printed:\n%s", out)

	src, err := storage.Open(from)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	snap, err := src.Snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := dump(t, src, snap)
	n, err := src.Counts(ctx)
	src.Close() // the second migrate opens it
	if err != nil {
		t.Fatal(err)
	}
	dst := openPostgres(t, url)
	compareDumps(t, "the copy", dump(t, dst, snap), want)
	in, ok, err := dst.Installation(ctx, "slack", "T1")
	if err != nil || !ok || in.Name != "Home game" || string(in.Token) != string([]byte{1, 0, 0xff, 7}) || len(in.Scopes) != 2 {
		t.Errorf("the copied installation: %+v ok=%v err=%v", in, ok, err)
	}
	// The DM channels the Discord adapter keeps come along, so the new database does not open them
	// again; the report counts them.
	for user, want := range map[string]string{"111": "5001", "222": "5002"} {
		if ch, ok, err := dst.DMChannel(ctx, "discord", user); err != nil || !ok || ch != want {
			t.Errorf("the copied DM channel of %s: %q ok=%v err=%v, want %q", user, ch, ok, err, want)
		}
	}
	for _, row := range []string{`DM channels +2 +2`, `money events +4 +4`, `payment handles +2 +2`, `installations +1 +1`} {
		if !regexp.MustCompile(`(?m)^` + row + `$`).MatchString(out) {
			t.Errorf("migrate's report lacks the row %q:\n%s", row, out)
		}
	}
	if !regexp.MustCompile(`(?m)^DM channels +2 +2$`).MatchString(out) {
		t.Errorf("migrate's report does not count 2 DM channels on both sides:\n%s", out)
	}

	// The source holds what the test means to copy.
	if n.Tables != 1 || n.HandsInProgress != 1 || n.Sessions != 1 || n.Schedules != 2 || n.RSVPs != 2 || n.Results != 2 || n.Players != 4 {
		t.Fatalf("the source holds %+v", n)
	}
	if h := want.Tables[0].Hand; h == nil || len(h.Actions) == 0 || h.Deadline.IsZero() {
		t.Fatalf("the hand in progress has no action log or deadline: %+v", h)
	}
	kinds := map[string]bool{}
	for _, e := range want.Ledger {
		kinds[e.Kind] = true
	}
	for _, k := range []string{table.KindGrant, table.KindAdjust, table.KindBuyIn, table.KindResult, table.KindCashOut} {
		if !kinds[k] {
			t.Errorf("the source's ledger has no %s entry", k)
		}
	}
	if h := want.Hands; len(h) < 3 || h[0].No != h[2].No || !h[0].Time.Before(h[1].Time) || !h[1].Time.Before(h[2].Time) {
		t.Errorf("the source does not keep three hands under hand 1's number, oldest first: %d hands", len(h))
	}
	for _, line := range []string{
		fmt.Sprintf("%-32s %14d %14d", "finished hands", n.Hands, n.Hands),
		fmt.Sprintf("%-32s %14d %14d", "ledger entries", n.LedgerEntries, n.LedgerEntries),
		fmt.Sprintf("%-32s %14d %14d", "chips brought in", want.Totals.BroughtIn, want.Totals.BroughtIn),
		fmt.Sprintf("%-32s %14d %14d", "hands in progress", 1, 1),
		"both ledgers balance and every count matches",
	} {
		if !strings.Contains(out, line) {
			t.Errorf("migrate's output lacks %q:\n%s", line, out)
		}
	}
	if errOut != "" {
		t.Errorf("stderr %q", errOut)
	}

	// A second migrate into the same database is refused with a sentence and changes nothing.
	code, out, errOut = runMain(t, nil, "", "migrate", "--from", from, "--to", url)
	if code != 1 || !strings.Contains(errOut, "already holds players, ledger entries, open tables, action logs, finished hands, sessions, schedules, RSVPs, results, money events, payment handles, installations, DM channels, so nothing was written") ||
		strings.Count(errOut, "\n") != 1 || out != "" {
		t.Fatalf("second migrate: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	compareDumps(t, "after a refused second migrate", dump(t, dst, snap), want)

	// New records are numbered after the copied ones: a schedule after the removed one too.
	s := &schedule.Schedule{Platform: "console", Workspace: "local", Channel: "console", When: "weekly mon 20:00"}
	if err := dst.PutSchedule(ctx, s); err != nil || s.ID != fmt.Sprint(snap.ScheduleSeq+1) {
		t.Errorf("a new schedule in the copy: ID %q, %v; want %d", s.ID, err, snap.ScheduleSeq+1)
	}
	if err := dst.Commit(ctx, table.Change{Ledger: []table.LedgerEntry{{Kind: table.KindGrant, Workspace: "w2", User: "yan", Bankroll: 100}},
		Session: &table.SessionRecord{Table: "console/local/console"}}); err != nil {
		t.Fatal(err)
	}
	ledger, _ := dst.Ledger(ctx)
	if got, want := ledger[len(ledger)-1].Seq, want.Ledger[len(want.Ledger)-1].Seq+1; got != want {
		t.Errorf("a new ledger event in the copy: seq %d, want %d", got, want)
	}
	if ss, _ := dst.Sessions(ctx); len(ss) != len(want.Sessions)+1 {
		t.Errorf("the copy holds %d sessions after one more, want %d", len(ss), len(want.Sessions)+1)
	}
}

// TestMigrateRefusesATargetWithData: any record in the target refuses the copy whole; a lease alone
// (a dealer that started on the empty database) is not a record.
func TestMigrateRefusesATargetWithData(t *testing.T) {
	ctx := context.Background()
	from := filepath.Join(t.TempDir(), "small.db")
	src, err := storage.Open(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := src.Commit(ctx, table.Change{Ledger: []table.LedgerEntry{{Kind: table.KindGrant, Workspace: "w", User: "u", Bankroll: 500}}}); err != nil {
		t.Fatal(err)
	}
	src.Close()
	tests := []struct {
		name string
		fill func(*postgres.DB) error
		want string // "" for a copy
	}{
		{"a player", func(d *postgres.DB) error {
			return d.Commit(ctx, table.Change{Ledger: []table.LedgerEntry{{Kind: table.KindGrant, Workspace: "w", User: "other", Bankroll: 1}}})
		}, "already holds players, ledger entries, so nothing was written: migrate copies into an empty database only"},
		{"a schedule", func(d *postgres.DB) error {
			return d.PutSchedule(ctx, &schedule.Schedule{Platform: "console", Workspace: "local"})
		}, "already holds schedules, so"},
		{"a session", func(d *postgres.DB) error {
			return d.Commit(ctx, table.Change{Session: &table.SessionRecord{Table: "t"}})
		}, "already holds sessions, so"},
		// The chat apps' records are checked in the same transaction as the rest: a copy never
		// mixes its installations or DM channels into another database's.
		{"an installation", func(d *postgres.DB) error {
			return d.PutInstallation(ctx, bot.Installation{Platform: "slack", Workspace: "T9", Token: []byte{1}, Installed: time.Now()})
		}, "already holds installations, so"},
		{"a DM channel", func(d *postgres.DB) error { return d.PutDMChannel(ctx, "discord", "7", "8") }, "already holds DM channels, so"},
		{"a lease only", func(d *postgres.DB) error {
			_, err := d.Claim(ctx, "console/local", "another process", time.Minute)
			return err
		}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			url := pgtest.URL(t)
			d := openPostgres(t, url)
			if err := tt.fill(d); err != nil {
				t.Fatal(err)
			}
			before, err := d.Counts(ctx)
			if err != nil {
				t.Fatal(err)
			}
			code, _, errOut := runMain(t, nil, "", "migrate", "--from", from, "--to", url)
			if tt.want == "" {
				if code != 0 {
					t.Fatalf("exit %d: %s", code, errOut)
				}
				return
			}
			if code != 1 || !strings.Contains(errOut, tt.want) || !strings.Contains(errOut, "nothing was written: migrate copies into an empty database only (create a new one)\n") {
				t.Fatalf("exit %d, stderr %q; want exit 1 saying %q", code, errOut, tt.want)
			}
			if after, _ := d.Counts(ctx); after != before {
				t.Fatalf("a refused migrate changed the target: %+v, was %+v", after, before)
			}
		})
	}
}

// TestMigrateBadTarget: a --to that is not a PostgreSQL URL, or names a server or database that
// is not there, ends with exit 1 and one line, without the password.
func TestMigrateBadTarget(t *testing.T) {
	from := filepath.Join(t.TempDir(), "small.db")
	src, err := storage.Open(from)
	if err != nil {
		t.Fatal(err)
	}
	src.Close()
	tests := []struct {
		name, to, want string
		server         bool // needs the test server
	}{
		{"another database's URL", "mysql://dealer:s3cret@127.0.0.1/db", "is not a PostgreSQL URL", false},
		{"no URL at all", "dealerbot.db", "is not a PostgreSQL URL", false},
		{"nothing listens there", "postgres://dealer:s3cret@127.0.0.1:1/db", "cannot connect to the database postgres://dealer:xxxxx@127.0.0.1:1/db", false},
		{"no such database", "", "the database does not exist", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			to := tt.to
			if tt.server {
				to = pgtest.WithDatabase(pgtest.ServerURL(t), "dealerbot_no_such_database")
			}
			code, out, errOut := runMain(t, nil, "", "migrate", "--from", from, "--to", to)
			if code != 1 || !strings.Contains(errOut, tt.want) || strings.Count(errOut, "\n") != 1 ||
				!strings.HasPrefix(errOut, "dealerbot migrate: ") || strings.Contains(errOut, "s3cret") || out != "" {
				t.Fatalf("exit %d, stdout %q, stderr %q; want exit 1 and one line saying %q", code, out, errOut, tt.want)
			}
		})
	}
}

// TestMigrateBadCommandLines: missing or stray arguments are usage errors (exit 2, with the usage);
// a --from that is not a database is refused before anything is opened, and nothing is created.
func TestMigrateBadCommandLines(t *testing.T) {
	dir := t.TempDir()
	to := "postgres://dealer@127.0.0.1:1/db" // never reached: the command line is refused first
	empty := filepath.Join(dir, "empty.db")
	if err := os.WriteFile(empty, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	held := filepath.Join(dir, "held.db")
	db, err := storage.Open(held)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close() // a running dealer holds the file
	missing := filepath.Join(dir, "missing.db")
	tests := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"no flags", nil, 2, "name the file to copy with --from and the database to copy into with --to"},
		{"no --to", []string{"--from", held}, 2, "Usage: dealerbot migrate --from FILE --to"},
		{"no --from", []string{"--to", to}, 2, "Usage: dealerbot migrate --from FILE --to"},
		{"a stray argument", []string{"--from", held, "--to", to, "now"}, 2, `unexpected "now"`},
		{"an unknown flag", []string{"--force"}, 2, "flag provided but not defined: -force"},
		{"a missing file", []string{"--from", missing, "--to", to}, 1, "there is no database at " + missing},
		{"a folder", []string{"--from", dir, "--to", to}, 1, "is a folder"},
		{"an empty file", []string{"--from", empty, "--to", to}, 1, "is empty: it holds no dealerbot database"},
		{"a file in use", []string{"--from", held, "--to", to}, 1, "is in use: stop the dealerbot that runs on it first"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errOut := runMain(t, nil, "", append([]string{"migrate"}, tt.args...)...)
			if code != tt.code || !strings.Contains(errOut, tt.want) || out != "" {
				t.Fatalf("exit %d, stdout %q, stderr %q; want exit %d saying %q", code, out, errOut, tt.code, tt.want)
			}
			if code == 1 && strings.Count(errOut, "\n") != 1 {
				t.Fatalf("stderr %q: want one line", errOut)
			}
		})
	}
	if _, err := os.Stat(missing); !os.IsNotExist(err) {
		t.Errorf("migrate created the missing --from file: %v", err)
	}
	if st, err := os.Stat(empty); err != nil || st.Size() != 0 {
		t.Errorf("migrate wrote into the empty --from file: %v", err)
	}
	if !slices.Contains(strings.Split(usage, "\n"), "  dealerbot migrate --from FILE --to postgres://USER:PASSWORD@HOST:5432/DB") {
		t.Error("the usage does not list migrate")
	}
}
