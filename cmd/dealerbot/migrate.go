package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/url"
	"os"
	"strings"

	"github.com/dealerbot/dealerbot/storage"
	"github.com/dealerbot/dealerbot/storage/postgres"
)

const migrateUsage = `Usage: dealerbot migrate --from FILE --to postgres://user:password@host:5432/dbname
  copies everything in the bbolt database FILE into an empty PostgreSQL database: players, the
  ledger, open tables with their hands in progress, finished hands, sessions, schedules, RSVPs,
  results, the chat apps' installations and the DM channels kept, record for record. Stop the dealer that uses FILE first. Afterwards both ledgers must
  balance and every count match; the counts and chip totals of both are printed.
`

// runMigrate copies a bbolt database into an empty PostgreSQL one.
func runMigrate(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("dealerbot migrate", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, migrateUsage) }
	from := fs.String("from", "", "the bbolt database file to copy (DEALERBOT_DB of the dealer that used it)")
	to := fs.String("to", "", "the PostgreSQL database to copy into: postgres://user:password@host:5432/dbname")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "dealerbot migrate: unexpected %q\n%s", fs.Arg(0), migrateUsage)
		return 2
	}
	if *from == "" || *to == "" {
		fmt.Fprintf(stderr, "dealerbot migrate: name the file to copy with --from and the database to copy into with --to\n%s", migrateUsage)
		return 2
	}
	if err := migrate(ctx, *from, *to, stdout); err != nil {
		// One line: pgx lists each address it tried on a line of its own.
		msg := strings.ReplaceAll(strings.ReplaceAll(err.Error(), "\n\t", "; "), "\n", " ")
		fmt.Fprintln(stderr, "dealerbot migrate:", msg)
		return 1
	}
	return 0
}

// migrate copies the bbolt file at from into the empty PostgreSQL database at to, then compares the
// two and prints their counts and chip totals.
func migrate(ctx context.Context, from, to string, stdout io.Writer) error {
	if u, err := url.Parse(to); err != nil || (u.Scheme != "postgres" && u.Scheme != "postgresql") {
		return fmt.Errorf("--to %s is not a PostgreSQL URL: write it as postgres://user:password@host:5432/dbname", postgres.Redact(to))
	}
	// storage.Open creates a missing file: look first, so a wrong --from copies nothing and creates nothing.
	st, err := os.Stat(from)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return fmt.Errorf("there is no database at %s: --from names the dealer's database file (its DEALERBOT_DB)", from)
	case err != nil:
		return err
	case st.IsDir():
		return fmt.Errorf("%s is a folder: --from names the dealer's database file (its DEALERBOT_DB)", from)
	case st.Size() == 0:
		return fmt.Errorf("%s is empty: it holds no dealerbot database to copy", from)
	}
	src, err := storage.Open(from)
	if errors.Is(err, storage.ErrLocked) {
		return fmt.Errorf("%s is in use: stop the dealerbot that runs on it first, so that nothing changes while it is copied; nothing was copied", from)
	}
	if err != nil {
		return err
	}
	defer src.Close()
	// A source that does not balance would make a copy that does not either: say so before writing.
	srcTot, err := src.Balance(ctx)
	if err != nil {
		return fmt.Errorf("%s is not copied, its ledger does not check out: %w", from, err)
	}
	dst, err := postgres.Open(ctx, to)
	if err != nil {
		return err
	}
	defer dst.Close()
	snap, err := src.Snapshot(ctx)
	if err != nil {
		return err
	}
	if err := dst.Import(ctx, snap); err != nil {
		return err
	}
	// The chat apps' installations (Slack for many workspaces), sealed tokens as they are.
	installs, err := src.AllInstallations(ctx)
	if err != nil {
		return err
	}
	for _, in := range installs {
		if err := dst.PutInstallation(ctx, in); err != nil {
			return fmt.Errorf("copy the installation of %s/%s: %w", in.Platform, in.Workspace, err)
		}
	}
	dstInstalls, err := dst.CountInstallations(ctx)
	if err != nil {
		return err
	}
	// The DM channels the Discord adapter keeps, so the new database does not open them again.
	dms, err := src.AllDMChannels(ctx)
	if err != nil {
		return err
	}
	for _, dm := range dms {
		if err := dst.PutDMChannel(ctx, dm.Platform, dm.User, dm.Channel); err != nil {
			return fmt.Errorf("copy the DM channel of %s/%s: %w", dm.Platform, dm.User, err)
		}
	}
	dstDMs, err := dst.CountDMChannels(ctx)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "copied %s to %s\n", from, dst)

	// Read both sides anew, each through its own store, and compare.
	srcN, err := src.Counts(ctx)
	if err != nil {
		return err
	}
	dstN, err := dst.Counts(ctx)
	if err != nil {
		return fmt.Errorf("count the copy's records: %w", err)
	}
	dstTot, dstErr := dst.Balance(ctx)
	rows := []struct {
		what     string
		src, dst int64
	}{
		{"players", int64(srcN.Players), int64(dstN.Players)},
		{"ledger entries", int64(srcN.LedgerEntries), int64(dstN.LedgerEntries)},
		{"open tables", int64(srcN.Tables), int64(dstN.Tables)},
		{"hands in progress", int64(srcN.HandsInProgress), int64(dstN.HandsInProgress)},
		{"finished hands", int64(srcN.Hands), int64(dstN.Hands)},
		{"sessions", int64(srcN.Sessions), int64(dstN.Sessions)},
		{"schedules", int64(srcN.Schedules), int64(dstN.Schedules)},
		{"RSVPs", int64(srcN.RSVPs), int64(dstN.RSVPs)},
		{"results", int64(srcN.Results), int64(dstN.Results)},
		{"installations", int64(len(installs)), int64(dstInstalls)},
		{"DM channels", int64(len(dms)), int64(dstDMs)},
		{"chips brought in", srcTot.BroughtIn, dstTot.BroughtIn},
		{"chips in bankrolls", srcTot.Bankrolls, dstTot.Bankrolls},
		{"chips on tables", srcTot.OnTables, dstTot.OnTables},
		{"chips in stacks and prize pools", srcTot.Stacks, dstTot.Stacks},
		{"sum of the ledger", srcTot.LedgerSum, dstTot.LedgerSum},
	}
	fmt.Fprintf(stdout, "%-32s %14s %14s\n", "", "bbolt", "postgres")
	var differ []string
	for _, r := range rows {
		fmt.Fprintf(stdout, "%-32s %14d %14d\n", r.what, r.src, r.dst)
		if r.src != r.dst {
			differ = append(differ, fmt.Sprintf("%s %d, copied %d", r.what, r.src, r.dst))
		}
	}
	// The copy is committed by now: a difference is reported, and the target left for a look.
	const after = "the copy is written; look into it, or drop that database and migrate into a new one"
	if dstErr != nil {
		return fmt.Errorf("the copy's ledger does not check out (%v): %s", dstErr, after)
	}
	if len(differ) > 0 {
		return fmt.Errorf("the copy differs from %s (%s): %s", from, strings.Join(differ, "; "), after)
	}
	fmt.Fprintln(stdout, "both ledgers balance and every count matches")
	return nil
}
