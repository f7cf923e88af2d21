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
