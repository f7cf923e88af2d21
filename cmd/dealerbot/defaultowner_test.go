package main

import (
	"fmt"
	"os"
	"regexp"
	"testing"

	"github.com/dealerbot/dealerbot/storage/pgtest"
)

// TestDefaultOwnerUniquePerStart: without DEALERBOT_OWNER each start of the dealer on PostgreSQL
// names itself anew (host, process ID and a random part), so a container restarted with the same
// host name and process ID is not taken for its previous life; a name that is set is kept as is.
func TestDefaultOwnerUniquePerStart(t *testing.T) {
	host, _ := os.Hostname()
	if len(host) > 64 {
		host = host[:64]
	}
	form := regexp.MustCompile("^" + regexp.QuoteMeta(fmt.Sprintf("%s-%d-", host, os.Getpid())) + "[0-9a-f]{8}$")
	a, b := defaultOwner(), defaultOwner()
	if a == b || !form.MatchString(a) || !form.MatchString(b) || len(a) > 100 {
		t.Fatalf("two starts in one process are named %q and %q; want two different names like %s", a, b, form)
	}

	url := pgtest.URL(t)
	owner := regexp.MustCompile(`sharing the database with other dealerbot processes" owner=(\S+)`)
	start := func(env map[string]string) string {
		t.Helper()
		env["DEALERBOT_DATABASE_URL"] = url
		code, _, errOut := runMain(t, env, "alice: start\n")
		m := owner.FindStringSubmatch(errOut)
		if code != 0 || m == nil {
			t.Fatalf("exit %d, no owner in the log:\n%s", code, errOut)
		}
		return m[1]
	}
	first, second := start(map[string]string{}), start(map[string]string{})
	if first == second || !form.MatchString(first) || !form.MatchString(second) {
		t.Errorf("two starts are named %q and %q; want two different names like %s", first, second, form)
	}
	if got := start(map[string]string{"DEALERBOT_OWNER": "dealer-a"}); got != "dealer-a" {
		t.Errorf("DEALERBOT_OWNER=dealer-a: the dealer calls itself %q", got)
	}
}
