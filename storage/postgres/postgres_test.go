package postgres_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	neturl "net/url"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/dealerbot/dealerbot/bot/schedule"
	"github.com/dealerbot/dealerbot/storage/pgtest"
	"github.com/dealerbot/dealerbot/storage/postgres"
	"github.com/dealerbot/dealerbot/storage/storetest"
)

func mustOpen(t testing.TB) *postgres.DB {
	t.Helper()
	db, err := postgres.Open(context.Background(), pgtest.URL(t))
	if err != nil {
		t.Fatal(err)
	}
	return db
}

// The PostgreSQL store passes the conformance suite every bot.Store passes.
func TestConformance(t *testing.T) {
	storetest.Run(t, func(t *testing.T) storetest.Store { return mustOpen(t) })
}

// A database whose schema a newer dealerbot set up is refused with a sentence, and nothing is
// written to it.
func TestNewerSchemaRefused(t *testing.T) {
	url := pgtest.URL(t)
	db, err := postgres.Open(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	conn, err := pgx.Connect(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	newer := postgres.SchemaVersion() + 1
	if _, err := conn.Exec(context.Background(), "INSERT INTO dealerbot_schema (version) VALUES ($1)", newer); err != nil {
		t.Fatal(err)
	}
	var before int
	conn.QueryRow(context.Background(), "SELECT count(*) FROM dealerbot_schema").Scan(&before)
	_, err = postgres.Open(context.Background(), url)
	if !errors.Is(err, postgres.ErrNewerSchema) || !strings.Contains(err.Error(), fmt.Sprintf("schema version %d", newer)) {
		t.Fatalf("opening a newer schema: err %v, want ErrNewerSchema naming version %d", err, newer)
	}
	var after int
	conn.QueryRow(context.Background(), "SELECT count(*) FROM dealerbot_schema").Scan(&after)
	if after != before {
		t.Fatalf("the refused open wrote: %d schema rows, was %d", after, before)
	}
}

// Opening twice (two processes starting together) migrates once; a second open is a no-op.
func TestOpenTwiceMigratesOnce(t *testing.T) {
	url := pgtest.URL(t)
	errs := make(chan error, 2)
	for i := 0; i < 2; i++ {
		go func() {
			db, err := postgres.Open(context.Background(), url)
			if err == nil {
				db.Close()
			}
			errs <- err
		}()
	}
	for i := 0; i < 2; i++ {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
}

// A wrong password or an address where nothing listens is one sentence naming the problem, with the
// password left out.
func TestOpenErrors(t *testing.T) {
	server := pgtest.ServerURL(t)
	u, _ := neturl.Parse(server)
	u.User = neturl.UserPassword("nobody", "hunter2")
	for _, tc := range []struct{ name, url, want string }{
		{"unknown user", u.String(), "user name or password is wrong"},
		{"nothing listens", "postgres://dealer:hunter2@127.0.0.1:1/x", "nothing answers there"},
		{"not a URL", "postgres://dealer:hunter2@127.0.0.1:notaport/x", "is not a PostgreSQL URL"},
	} {
		_, err := postgres.Open(context.Background(), tc.url)
		if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "hunter2") || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: err %v, want one line with %q and no password", tc.name, err, tc.want)
		}
	}
}

// A schedule copied in by migrate keeps the version its file's record says, while the database
// counts its writes from 0: the schedule read back carries the database's count, so the scheduler
// can go on writing it (before, every write after a migrate was refused as stale).
func TestMigratedScheduleStillWritable(t *testing.T) {
	db := mustOpen(t)
	t.Cleanup(func() { db.Close() })
	ctx := context.Background()
	s := &schedule.Schedule{Platform: "console", Workspace: "w", Channel: "c", When: "weekly fri 20:00", Version: 7}
	data, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Pool().Exec(ctx, "INSERT INTO schedules (id, community, rec) VALUES (1, 'console/w', $1)", data); err != nil {
		t.Fatal(err)
	}
	all, err := db.Schedules(ctx)
	if err != nil || len(all) != 1 || all[0].Version != 0 {
		t.Fatalf("schedules %+v err %v, want one at the database's version 0", all, err)
	}
	all[0].Announced = true
	if err := db.PutSchedule(ctx, &all[0]); err != nil {
		t.Fatalf("writing the migrated schedule: %v", err)
	}
	if again, _ := db.Schedules(ctx); len(again) != 1 || !again[0].Announced || again[0].Version != 1 {
		t.Fatalf("after the write: %+v", again)
	}
}
