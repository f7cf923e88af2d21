package main

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dealerbot/dealerbot/bot/table"
	"github.com/dealerbot/dealerbot/storage"
	"github.com/dealerbot/dealerbot/storage/pgtest"
)

// withPassword adds a password to a URL's query, where libpq also takes it (?password= or &password=).
func withPassword(u, pw string) string {
	if strings.Contains(u, "?") {
		return u + "&password=" + pw
	}
	return u + "?password=" + pw
}

// TestPasswordNeverShown: a password in DEALERBOT_DATABASE_URL's query (the test server trusts
// loopback, so it is not checked) reaches neither the dealer's log nor migrate's report or errors.
func TestPasswordNeverShown(t *testing.T) {
	const pw = "s3cretpw42"
	url := withPassword(pgtest.URL(t), pw)

	code, out, errOut := runMain(t, map[string]string{"DEALERBOT_DATABASE_URL": url, "DEALERBOT_LOG_LEVEL": "debug"}, "alice: start\n")
	if code != 0 {
		t.Fatalf("the dealer on %s: exit %d: %s", url, code, errOut)
	}
	if strings.Contains(out+errOut, pw) || !strings.Contains(errOut, "password=xxxxx") {
		t.Errorf("the dealer's log shows the password, or not where it was hidden:\n%s", errOut)
	}

	from := filepath.Join(t.TempDir(), "small.db")
	src, err := storage.Open(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := src.Commit(context.Background(), table.Change{Ledger: []table.LedgerEntry{{Kind: table.KindGrant, Workspace: "w", User: "u", Bankroll: 500}}}); err != nil {
		t.Fatal(err)
	}
	src.Close()
	for _, tc := range []struct{ name, to string }{
		{"a copy", withPassword(pgtest.URL(t), pw)},
		{"a server that does not answer", withPassword("postgres://dealer@127.0.0.1:1/db", pw)},
		{"a password after &", "postgres://dealer@127.0.0.1:1/db?sslmode=disable&password=" + pw},
		{"a URL that cannot be parsed", "postgres://dealer@127.0.0.1:port/db?password=" + pw},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := runMain(t, nil, "", "migrate", "--from", from, "--to", tc.to)
			if strings.Contains(out+errOut, pw) {
				t.Errorf("exit %d: migrate shows the password:\n%s%s", code, out, errOut)
			}
			if tc.name == "a copy" && (code != 0 || !strings.Contains(out, "password=xxxxx")) {
				t.Errorf("exit %d: %s\n%s", code, out, errOut)
			}
		})
	}
}
