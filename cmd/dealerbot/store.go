package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"log/slog"
	"os"

	"github.com/dealerbot/dealerbot/bot/features"
	"github.com/dealerbot/dealerbot/storage"
	"github.com/dealerbot/dealerbot/storage/postgres"
)

// store is what the dealer and its features keep their records in: the bbolt file or PostgreSQL.
type store interface {
	features.Store
}

// openStore opens PostgreSQL when DEALERBOT_DATABASE_URL is set, else the bbolt file (with its
// hourly backups); close closes it.
func openStore(ctx context.Context, s Settings, log *slog.Logger) (db store, close func(), err error) {
	if s.DatabaseURL != "" {
		pg, err := postgres.Open(ctx, s.DatabaseURL)
		if err != nil {
			return nil, nil, err
		}
		log.Info("opened the database", "db", pg.String(), "schema", postgres.SchemaVersion())
		return pg, func() { pg.Close() }, nil
	}
	b, err := storage.Open(s.DB)
	if err != nil {
		return nil, nil, err
	}
	if b.Created() {
		log.Info("started a new database file: no bankrolls, tables or schedules yet", "db", s.DB)
	} else {
		log.Info("opened the database", "db", s.DB)
	}
	stopBackups, err := serveBackups(b, log)
	if err != nil {
		b.Close()
		return nil, nil, err
	}
	return storeName{b, s.DB}, func() { stopBackups(); b.Close() }, nil
}

// storeName is the bbolt store, named by its file in logs.
type storeName struct {
	*storage.DB
	path string
}

func (s storeName) String() string { return s.path }

// defaultOwner names this process among those sharing a database: host, process ID and a random
// part drawn at each start. Host and process ID alone repeat when a container restarts (same host
// name, often PID 1), and a restarted process would take the lease rows of its previous life for its
// own; the random part makes every start a new owner, which claims anew.
func defaultOwner() string {
	host, err := os.Hostname()
	if err != nil || host == "" {
		host = "dealerbot"
	}
	if len(host) > 64 {
		host = host[:64] // DEALERBOT_OWNER is at most 100 characters; so is this
	}
	var b [4]byte
	rand.Read(b[:]) // never fails (crypto/rand)
	return fmt.Sprintf("%s-%d-%s", host, os.Getpid(), hex.EncodeToString(b[:]))
}
