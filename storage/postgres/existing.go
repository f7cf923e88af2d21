package postgres

import (
	"context"
	"errors"
	"fmt"
)

// ErrNoDealerDatabase is returned by OpenExisting for a database no dealerbot has set up.
var ErrNoDealerDatabase = errors.New("no dealerbot database there")

// OpenExisting connects to a database a dealerbot has set up, for the operators' tools that only
// read it (export, backup): unlike Open it writes nothing, so a URL that names the wrong database
// creates no tables in it. It refuses a database without dealerbot's schema (ErrNoDealerDatabase),
// with a newer schema (ErrNewerSchema), or with an older one (the dealer brings it up to date at its
// next start), each with a sentence.
func OpenExisting(ctx context.Context, rawURL string) (*DB, error) {
	d, err := connect(ctx, rawURL)
	if err != nil {
		return nil, err
	}
	var exists bool
	var have int
	err = d.pool.QueryRow(ctx, "SELECT to_regclass('dealerbot_schema') IS NOT NULL").Scan(&exists)
	if err == nil && exists {
		err = d.pool.QueryRow(ctx, "SELECT coalesce(max(version), 0) FROM dealerbot_schema").Scan(&have)
	}
	if err != nil {
		d.pool.Close()
		return nil, d.wrap("read the schema version", err)
	}
	switch {
	case have == 0:
		d.pool.Close()
		return nil, fmt.Errorf("the database %s holds no dealerbot tables: check that DEALERBOT_DATABASE_URL names the dealer's database (nothing was changed): %w", d.safe, ErrNoDealerDatabase)
	case have > len(migrations):
		d.pool.Close()
		return nil, fmt.Errorf("the database %s has schema version %d, and this dealerbot knows versions up to %d: use the newer dealerbot that set it up (nothing was changed): %w",
			d.safe, have, len(migrations), ErrNewerSchema)
	case have < len(migrations):
		d.pool.Close()
		return nil, fmt.Errorf("the database %s has schema version %d, older than this dealerbot's %d: start this dealerbot on it once (it brings the schema up to date), then try again; nothing was changed",
			d.safe, have, len(migrations))
	}
	return d, nil
}
