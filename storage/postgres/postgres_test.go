package postgres_test

import (
	"context"
	"testing"

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
