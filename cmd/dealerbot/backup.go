package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/dealerbot/dealerbot/storage"
	"github.com/dealerbot/dealerbot/storage/postgres"
	"github.com/dealerbot/dealerbot/storage/record"
)

// A running bot holds bbolt's exclusive lock on its file, so another process cannot open it. The bot
// therefore answers backup requests on a unix socket beside the database; `dealerbot backup` asks it
// there and, when no bot is running, opens the file itself.

func socketPath(db string) string { return db + ".sock" }

// serveBackups answers each connection that sends "backup\n" with a consistent copy of the database.
// It returns a function that stops serving and removes the socket.
func serveBackups(db *storage.DB, log *slog.Logger) (stop func(), err error) {
	path := socketPath(db.Path())
	if c, err := net.DialTimeout("unix", path, time.Second); err == nil {
		c.Close()
		return nil, fmt.Errorf("another dealerbot is serving %s", path)
	}
	os.Remove(path) // a socket left behind by a crash
	ln, err := net.Listen("unix", path)
	if err != nil {
		return nil, fmt.Errorf("listen for backups on %s: %w", path, err)
	}
	// The copy holds every hole card and bankroll: only this user may ask for it. The mode keeps
	// other users from connecting; the peer check closes the moment between bind and chmod.
	if err := os.Chmod(path, 0o600); err != nil {
		ln.Close()
		return nil, fmt.Errorf("restrict the backup socket %s: %w", path, err)
	}
	me := os.Getuid()
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer conn.Close()
				if uc, ok := conn.(*net.UnixConn); ok && peerChecked {
					if uid, err := peerUID(uc); err != nil || uid != me {
						log.Warn("backup refused: the asking process runs as another user", "uid", uid, "err", err)
						return
					}
				}
				conn.SetDeadline(time.Now().Add(10 * time.Minute))
				line, err := bufio.NewReader(conn).ReadString('\n')
				if err != nil || strings.TrimSpace(line) != "backup" {
					return
				}
				if err := db.Backup(conn); err != nil {
					log.Error("backup", "err", err)
				}
			}()
		}
	}()
	return func() { ln.Close(); os.Remove(path) }, nil
}

const backupUsage = `Usage: dealerbot backup FILE
  writes a consistent copy of the database to FILE, also while dealers are running. With
  DEALERBOT_DB (the bbolt file) the copy is that file as it is. With DEALERBOT_DATABASE_URL
  (PostgreSQL) it is a portable bbolt file of every record the dealers keep, read in one
  transaction and compared with the database before it is kept: open it with DEALERBOT_DB, or move
  it back with dealerbot migrate. It leaves out the leases, forwarded commands and delivery IDs
  applied; pg_dump remains the full backup of a PostgreSQL database.
`

// runBackup runs `dealerbot backup FILE`.
func runBackup(ctx context.Context, settings Settings, args []string, stdout, stderr io.Writer) int {
	if len(args) == 1 && (args[0] == "-h" || args[0] == "--help" || args[0] == "-help") {
		fmt.Fprint(stdout, backupUsage)
		return 0
	}
	if len(args) != 1 || strings.HasPrefix(args[0], "-") {
		fmt.Fprint(stderr, "dealerbot backup needs exactly one argument: the file to write the copy to\n"+backupUsage)
		return 2
	}
	out := args[0]
	if settings.DatabaseURL != "" {
		if err := backupPostgres(ctx, settings.DatabaseURL, out, stdout); err != nil {
			fmt.Fprintln(stderr, "dealerbot backup:", oneLine(err))
			return 1
		}
		return 0
	}
	if err := backup(ctx, settings.DB, out); err != nil {
		fmt.Fprintln(stderr, "dealerbot backup:", err)
		return 1
	}
	fmt.Fprintf(stdout, "backed up %s to %s\n", settings.DB, out)
	return 0
}

// oneLine puts an error on one line: pgx lists each address it tried on a line of its own.
func oneLine(err error) string {
	return strings.ReplaceAll(strings.ReplaceAll(err.Error(), "\n\t", "; "), "\n", " ")
}

// backupPostgres writes every record of the PostgreSQL database at url into a new bbolt file, reads
// the file back and compares it with the database (the comparison migrate makes the other way), and
// only then puts it at out. Nothing is written to the database, and out is left as it was when
// anything fails.
func backupPostgres(ctx context.Context, url, out string, stdout io.Writer) error {
	if st, err := os.Stat(out); err == nil && st.IsDir() {
		return fmt.Errorf("%s is a folder: name the file to write the copy to", out)
	}
	if st, err := os.Stat(filepath.Dir(out)); err != nil || !st.IsDir() {
		return fmt.Errorf("there is no folder %s to write %s in: create it first", filepath.Dir(out), filepath.Base(out))
	}
	pg, err := postgres.OpenExisting(ctx, url)
	if err != nil {
		return err
	}
	defer pg.Close()
	// A new file beside out: storage.Open makes a new database only where no file is.
	dir, err := os.MkdirTemp(filepath.Dir(out), ".dealerbot-backup-*")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "copy.db")
	var report strings.Builder
	err = pg.ReadAll(ctx, func(snap record.Snapshot, want record.Summary) error {
		db, err := storage.Open(path)
		if err != nil {
			return err
		}
		defer db.Close()
		if err := db.Import(ctx, snap); err != nil {
			return fmt.Errorf("write the copy: %w", err)
		}
		got, err := db.Summary(ctx)
		if err != nil {
			return fmt.Errorf("read the copy back: %w", err)
		}
		if want.Balance != nil {
			// A backup keeps the records as they are, also a ledger that does not balance.
			fmt.Fprintf(&report, "warning: the database's ledger does not check out (%v); the copy keeps it as it is\n", want.Balance)
			want.Balance, got.Balance = nil, nil
		}
		if differ := compareCopy(&report, "postgres", "bbolt", want, got); len(differ) > 0 {
			return fmt.Errorf("the copy differs from the database (%s), so %s was not written", strings.Join(differ, "; "), out)
		}
		return db.Close()
	})
	if err != nil {
		return err
	}
	if err := os.Rename(path, out); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "backed up %s (PostgreSQL) to %s, a portable bbolt file of every record the dealers keep\n", pg, out)
	fmt.Fprint(stdout, report.String())
	fmt.Fprintf(stdout, "every count and every record matches. Open the copy with DEALERBOT_DB=%s, or move it into an empty PostgreSQL database with dealerbot migrate.\n", out)
	fmt.Fprintln(stdout, "It leaves out the leases, forwarded commands and delivery IDs applied: pg_dump remains the full backup of the database.")
	return nil
}

// backup writes a consistent copy of the database at dbPath to out.
func backup(ctx context.Context, dbPath, out string) error {
	tmp, err := os.CreateTemp(filepath.Dir(out), ".dealerbot-backup-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	err = copyFromRunningBot(ctx, dbPath, tmp)
	if errors.Is(err, errNoBot) {
		err = copyFromFile(dbPath, tmp)
	}
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	// Check that the copy opens as a database before it replaces anything.
	check, err := storage.Open(tmp.Name())
	if err != nil {
		return fmt.Errorf("the copy is not a usable database: %w", err)
	}
	check.Close()
	return os.Rename(tmp.Name(), out)
}

var errNoBot = errors.New("no running dealerbot")

func copyFromRunningBot(ctx context.Context, dbPath string, w io.Writer) error {
	var d net.Dialer
	dctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	conn, err := d.DialContext(dctx, "unix", socketPath(dbPath))
	if err != nil {
		return errNoBot
	}
	defer conn.Close()
	if _, err := io.WriteString(conn, "backup\n"); err != nil {
		return err
	}
	n, err := io.Copy(w, conn)
	if err != nil {
		return fmt.Errorf("copy from the running bot: %w", err)
	}
	if n == 0 {
		return fmt.Errorf("the running bot sent an empty backup; see its log")
	}
	return nil
}

func copyFromFile(dbPath string, w io.Writer) error {
	if _, err := os.Stat(dbPath); err != nil {
		return fmt.Errorf("no database at %s: set DEALERBOT_DB to the file to back up", dbPath)
	}
	db, err := storage.Open(dbPath)
	if err != nil {
		return err
	}
	defer db.Close()
	return db.Backup(w)
}
