package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/dealerbot/dealerbot/bot/ledger"
	"github.com/dealerbot/dealerbot/bot/table"
	"github.com/dealerbot/dealerbot/engine"
	"github.com/dealerbot/dealerbot/render/hh"
	"github.com/dealerbot/dealerbot/storage"
	"github.com/dealerbot/dealerbot/storage/postgres"
)

const exportUsage = `Usage: dealerbot export [--format pokerstars|ohh|phh] [--out PATH] [--table ID] [--since YYYY-MM-DD] [--player NAME] [--game GAME]
  pokerstars  PokerStars hand-history text, every hand in one stream (the default)
  ohh         Open Hand History JSON, one hand per line
  phh         one .phh file per hand in the folder --out, named by hand ID
Without --out, pokerstars and ohh go to standard output. Unshown hole cards are never written;
with --player, that player's hands only, with their own hole cards; with --game (holdem, omaha,
omaha5, omaha-hilo, or nlh, plo, plo5, plo8, o8), that game's hands only. It reads the PostgreSQL
database DEALERBOT_DATABASE_URL names when it is set, else the file DEALERBOT_DB names.
`

// runExport exports every finished hand in the database: the PostgreSQL one DEALERBOT_DATABASE_URL
// names, or else the file DEALERBOT_DB names.
func runExport(ctx context.Context, settings Settings, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("dealerbot export", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {} // printed below: asked for on standard output, after a mistake on standard error
	format := fs.String("format", ledger.FormatPokerStars, "pokerstars, ohh or phh")
	out := fs.String("out", "", "the file (pokerstars, ohh) or folder (phh) to write")
	var f ledger.ExportFilter
	fs.StringVar(&f.Table, "table", "", "only hands of tables whose ID contains this")
	since := fs.String("since", "", "only hands finished on or after this date (YYYY-MM-DD, UTC)")
	fs.StringVar(&f.Player, "player", "", "only this player's hands (user ID or name), with their own hole cards")
	fs.StringVar(&f.Game, "game", "", "only hands of this game: holdem, omaha, omaha5 or omaha-hilo (nlh, plo, plo5, plo8, o8)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(stdout, exportUsage)
			return 0
		}
		fmt.Fprint(stderr, exportUsage)
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "dealerbot export: unexpected %q\n%s", fs.Arg(0), exportUsage)
		return 2
	}
	if *since != "" {
		t, err := time.Parse("2006-01-02", *since)
		if err != nil {
			fmt.Fprintf(stderr, "dealerbot export: --since takes a date like 2026-11-01\n")
			return 2
		}
		f.Since = t
	}
	if f.Game != "" {
		if _, err := engine.ParseGame(f.Game); err != nil {
			fmt.Fprintf(stderr, "dealerbot export: --game: %v\n", err)
			return 2
		}
	}
	switch *format {
	case ledger.FormatPokerStars, ledger.FormatOHH:
	case ledger.FormatPHH:
		if *out == "" {
			fmt.Fprintf(stderr, "dealerbot export: --format phh writes one file per hand: name the folder with --out\n")
			return 2
		}
	default:
		fmt.Fprintf(stderr, "dealerbot export: --format must be pokerstars, ohh or phh\n")
		return 2
	}
	var db handSource
	var cleanup func()
	var err error
	if settings.DatabaseURL != "" {
		db, cleanup, err = openPostgresForExport(ctx, settings.DatabaseURL)
	} else {
		db, cleanup, err = openForExport(ctx, settings.DB)
	}
	if err != nil {
		fmt.Fprintln(stderr, "dealerbot export:", err)
		return 1
	}
	defer cleanup()
	n, err := export(ctx, db, *format, *out, f, stdout)
	if err != nil {
		fmt.Fprintln(stderr, "dealerbot export:", err)
		return 1
	}
	fmt.Fprintf(stderr, "exported %d %s\n", n, map[bool]string{true: "hand", false: "hands"}[n == 1])
	return 0
}

// openForExport opens the database; while a dealerbot holds it, it exports from a consistent copy
// the running bot sends over its backup socket.
func openForExport(ctx context.Context, path string) (*storage.DB, func(), error) {
	if _, err := os.Stat(path); err != nil {
		return nil, nil, fmt.Errorf("no database at %s: set DEALERBOT_DB to the file to export from", path)
	}
	db, err := storage.Open(path)
	if err == nil {
		return db, func() { db.Close() }, nil
	}
	if !errors.Is(err, storage.ErrLocked) {
		return nil, nil, err
	}
	dir, err := os.MkdirTemp("", "dealerbot-export-*")
	if err != nil {
		return nil, nil, err
	}
	copyPath := filepath.Join(dir, "copy.db")
	if err := backup(ctx, path, copyPath); err != nil {
		os.RemoveAll(dir)
		return nil, nil, err
	}
	db, err = storage.Open(copyPath)
	if err != nil {
		os.RemoveAll(dir)
		return nil, nil, err
	}
	return db, func() { db.Close(); os.RemoveAll(dir) }, nil
}

// openPostgresForExport opens the PostgreSQL database for reading; it writes nothing to it.
func openPostgresForExport(ctx context.Context, url string) (*postgres.DB, func(), error) {
	db, err := postgres.OpenExisting(ctx, url)
	if err != nil {
		return nil, nil, err
	}
	return db, func() { db.Close() }, nil
}

// handSource is a store export reads: the bbolt file or PostgreSQL.
type handSource interface {
	EachHand(ctx context.Context, fn func(table.HandRecord) error) error
}

func export(ctx context.Context, db handSource, format, out string, f ledger.ExportFilter, stdout io.Writer) (int, error) {
	var w io.Writer = stdout
	var file *os.File
	if format == ledger.FormatPHH {
		if err := os.MkdirAll(out, 0o700); err != nil {
			return 0, err
		}
	} else if out != "" {
		var err error
		if file, err = os.OpenFile(out, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600); err != nil {
			return 0, err
		}
		defer file.Close()
		w = file
	}
	bw := bufio.NewWriter(w)
	n := 0
	var tables []string // the tables with hands, when --table names none of them
	tableSeen := false
	err := db.EachHand(ctx, func(hr table.HandRecord) error {
		if f.Table != "" && !tableSeen {
			if strings.Contains(hr.Table, f.Table) {
				tableSeen = true
			} else if !slices.Contains(tables, hr.Table) {
				tables = append(tables, hr.Table)
			}
		}
		ok, hero := f.Pick(hr)
		if !ok {
			return nil
		}
		h := ledger.ExportHand(hr, hero)
		n++
		if format != ledger.FormatPHH {
			return ledger.WriteExport(bw, format, h)
		}
		hist, err := hh.PHH(&h)
		if err != nil {
			return err
		}
		text, err := hist.Marshal()
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(out, fmt.Sprintf("%d.phh", hh.HandID(hr.Table, hr.No))), text, 0o600)
	})
	if err == nil {
		err = bw.Flush()
	}
	if err == nil && file != nil {
		err = file.Close()
	}
	if err == nil && f.Table != "" && !tableSeen {
		err = noSuchTable(f.Table, tables)
	}
	return n, err
}

// noSuchTable is the error of a --table that names no table with a hand, naming the tables that have.
func noSuchTable(table string, tables []string) error {
	switch {
	case len(tables) == 0:
		return fmt.Errorf("no table %q: the database holds no finished hand", table)
	case len(tables) > 5:
		tables = append(tables[:5], "...")
	}
	return fmt.Errorf("no table %q: the tables with hands are %s", table, strings.Join(tables, ", "))
}
