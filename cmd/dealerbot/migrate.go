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
	"github.com/dealerbot/dealerbot/storage/record"
)

const migrateUsage = `Usage: dealerbot migrate --from FILE --to postgres://user:password@host:5432/dbname
  copies everything in the bbolt database FILE into an empty PostgreSQL database: players, the
  ledger, open tables with their hands in progress, finished hands, sessions, schedules, RSVPs,
  results, money books, payment handles, the chat apps' installations and the DM channels kept,
  record for record, in one transaction. Stop the dealer that uses FILE first. Before the copy
  commits it is read back: both ledgers must balance, every count match and every record be the
  same, or nothing is written; the counts and chip totals of both are printed.
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

// migrate copies the bbolt file at from into the empty PostgreSQL database at to and, in the same
// transaction, compares the two and prints their counts and chip totals: a copy that differs is
// rolled back.
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
	srcSum, err := src.Summary(ctx)
	if err != nil {
		return err
	}
	if srcSum.Balance != nil {
		return fmt.Errorf("%s is not copied, its ledger does not check out: %w", from, srcSum.Balance)
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
	// The copy is read back and compared in its own transaction, before it commits: a copy that
	// differs is rolled back whole.
	err = dst.Import(ctx, snap, func(dstSum record.Summary) error {
		fmt.Fprintf(stdout, "copied %s to %s\n", from, dst)
		differ := compareCopy(stdout, "bbolt", "postgres", srcSum, dstSum)
		if len(differ) > 0 {
			return fmt.Errorf("the copy differs from %s (%s), so nothing was written", from, strings.Join(differ, "; "))
		}
		return nil
	})
	if err != nil {
		return err
	}
	fmt.Fprintln(stdout, "both ledgers balance and every count matches; every record is the same on both sides")
	return nil
}

// compareCopy prints the counts and chip totals of a database and of its copy side by side, and
// returns what differs between them: a count, a total, a kind of record whose checksums differ
// (the same count of different records), or a ledger that does not balance.
func compareCopy(w io.Writer, fromName, toName string, src, dst record.Summary) []string {
	sn, dn, st, dt := src.Counts, dst.Counts, src.Totals, dst.Totals
	rows := []struct {
		what     string
		src, dst int64
	}{
		{"players", int64(sn.Players), int64(dn.Players)},
		{"ledger entries", int64(sn.LedgerEntries), int64(dn.LedgerEntries)},
		{"open tables", int64(sn.Tables), int64(dn.Tables)},
		{"hands in progress", int64(sn.HandsInProgress), int64(dn.HandsInProgress)},
		{"finished hands", int64(sn.Hands), int64(dn.Hands)},
		{"sessions", int64(sn.Sessions), int64(dn.Sessions)},
		{"schedules", int64(sn.Schedules), int64(dn.Schedules)},
		{"RSVPs", int64(sn.RSVPs), int64(dn.RSVPs)},
		{"results", int64(sn.Results), int64(dn.Results)},
		{"money events", int64(sn.MoneyEvents), int64(dn.MoneyEvents)},
		{"payment handles", int64(sn.Handles), int64(dn.Handles)},
		{"installations", int64(sn.Installations), int64(dn.Installations)},
		{"DM channels", int64(sn.DMChannels), int64(dn.DMChannels)},
		{"chips brought in", st.BroughtIn, dt.BroughtIn},
		{"chips in bankrolls", st.Bankrolls, dt.Bankrolls},
		{"chips on tables", st.OnTables, dt.OnTables},
		{"chips in stacks and prize pools", st.Stacks, dt.Stacks},
		{"sum of the ledger", st.LedgerSum, dt.LedgerSum},
	}
	fmt.Fprintf(w, "%-32s %14s %14s\n", "", fromName, toName)
	var differ []string
	for _, r := range rows {
		fmt.Fprintf(w, "%-32s %14d %14d\n", r.what, r.src, r.dst)
		if r.src != r.dst {
			differ = append(differ, fmt.Sprintf("%s %d, copied %d", r.what, r.src, r.dst))
		}
	}
	for _, k := range record.SumsDiffer(src, dst) {
		differ = append(differ, fmt.Sprintf("the %s are not the same records", k))
	}
	if src.Balance != nil {
		differ = append(differ, fmt.Sprintf("the original's ledger does not check out (%v)", src.Balance))
	}
	if dst.Balance != nil {
		differ = append(differ, fmt.Sprintf("the copy's ledger does not check out (%v)", dst.Balance))
	}
	return differ
}
