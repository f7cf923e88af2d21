// Package pgtest gives tests a fresh PostgreSQL database on the server that DEALERBOT_TEST_POSTGRES
// names (.ci/run starts a throw-away one on loopback; see start.sh beside this file). Without the
// variable the tests that need a server are skipped with one line, except under CI=true, where a
// missing or unreachable server fails them: CI never passes by skipping.
package pgtest

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// Env is the variable holding the server's URL (any database on it; tests create their own).
const Env = "DEALERBOT_TEST_POSTGRES"

var seq atomic.Int64

// ServerURL returns the server's URL, or skips tb (fails it under CI=true) when there is none.
func ServerURL(tb testing.TB) string {
	tb.Helper()
	u := os.Getenv(Env)
	if u == "" {
		if os.Getenv("CI") == "true" {
			tb.Fatalf("%s is not set, and CI=true: the PostgreSQL tests must run (.ci/run starts a server)", Env)
		}
		tb.Skipf("%s is not set: PostgreSQL tests skipped (.ci/run starts a throw-away server)", Env)
	}
	return u
}

// URL creates an empty database for tb on the test server and returns its URL; the database is
// dropped when tb ends.
func URL(tb testing.TB) string {
	tb.Helper()
	server := ServerURL(tb)
	name := fmt.Sprintf("dealerbot_t%d_%d_%d", os.Getpid(), time.Now().UnixNano()%1e9, seq.Add(1))
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	admin, err := pgx.Connect(ctx, server)
	if err != nil {
		tb.Fatalf("connect to the test PostgreSQL (%s): %v", Env, err)
	}
	defer admin.Close(context.Background())
	if _, err := admin.Exec(ctx, "CREATE DATABASE "+name); err != nil {
		tb.Fatalf("create test database: %v", err)
	}
	tb.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		c, err := pgx.Connect(ctx, server)
		if err != nil {
			return
		}
		defer c.Close(ctx)
		_, _ = c.Exec(ctx, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)")
	})
	return WithDatabase(server, name)
}

// WithDatabase returns the URL u pointing at database name.
func WithDatabase(u, name string) string {
	p, err := url.Parse(u)
	if err != nil || !strings.HasPrefix(p.Scheme, "postgres") {
		return u
	}
	p.Path = "/" + name
	return p.String()
}
