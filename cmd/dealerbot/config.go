package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/joho/godotenv"

	"github.com/dealerbot/dealerbot/bot"

	"github.com/dealerbot/dealerbot/engine"
)

// Env looks settings up: the process environment first, then the .env file.
type Env struct {
	lookup func(string) (string, bool)
	file   map[string]string
}

// loadEnv reads the settings file at path. A missing file is not an error unless the user named it
// (named: --env was given).
func loadEnv(path string, lookup func(string) (string, bool), named bool) (*Env, error) {
	e := &Env{lookup: lookup, file: map[string]string{}}
	f, err := os.Open(path)
	if os.IsNotExist(err) {
		if named {
			return nil, fmt.Errorf("the settings file %s given with --env does not exist: check the path, or leave --env out to use .env in the working directory if there is one", path)
		}
		return e, nil // .env is optional
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	vals, err := parseDotEnv(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	e.file = vals
	return e, nil
}

// parseDotEnv reads a .env file with godotenv: KEY=VALUE lines, comments, `export`, quoted values
// (with a comment after the closing quote). An error names the line and, where it can be read, the
// key, never the value: a .env file holds the bot's tokens.
func parseDotEnv(r io.Reader) (map[string]string, error) {
	data, err := io.ReadAll(io.LimitReader(r, maxEnvFile+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxEnvFile {
		return nil, fmt.Errorf("the file is larger than %d KiB: is it the right file?", maxEnvFile>>10)
	}
	vals, err := godotenv.UnmarshalBytes(data)
	if err == nil {
		bad := false
		for k := range vals {
			bad = bad || !envKey.MatchString(k)
		}
		if !bad {
			return vals, nil
		}
	}
	// Name the line godotenv could not read, or whose key is no name (godotenv takes "A B=1" and
	// even a line without "="), without its value.
	for n, line := range strings.Split(string(data), "\n") {
		t := strings.TrimSpace(line)
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		key, _, hasEq := strings.Cut(strings.TrimPrefix(t, "export "), "=")
		key = strings.TrimSpace(key)
		if _, lerr := godotenv.Unmarshal(t); lerr == nil && hasEq && envKey.MatchString(key) {
			continue
		}
		if hasEq && envKey.MatchString(key) {
			return nil, fmt.Errorf("line %d (%s): the value cannot be read; quote a value that holds spaces, quotes or #", n+1, key)
		}
		return nil, fmt.Errorf("line %d: write KEY=VALUE, with a key of letters, digits and _", n+1)
	}
	return nil, errors.New("a quoted value is not closed: check the quotes")
}

// maxEnvFile bounds the .env file read.
const maxEnvFile = 1 << 20

var envKey = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_.]*$`)

// Get returns a setting, or "" when unset.
func (e *Env) Get(key string) string {
	if v, ok := e.lookup(key); ok {
		return v
	}
	return e.file[key]
}

// Settings are dealerbot's own settings (the chat adapters read theirs through Env.Get).
type Settings struct {
	DB string
	// DatabaseURL is a PostgreSQL URL (DEALERBOT_DATABASE_URL): several processes share that
	// database, each serving the communities it holds a lease on. Empty: the bbolt file DB.
	DatabaseURL string
	Lease       time.Duration // DEALERBOT_LEASE: how long before another process may take over
	Owner       string        // DEALERBOT_OWNER: this process's name among those sharing the database
	// LinesAddr (DEALERBOT_LINES_ADDR), with no chat configured, serves the console's line protocol
	// on this TCP address instead of reading the terminal (console.ServeLines): for scripted load
	// and for tests that drive real processes.
	LinesAddr string
	// ListenAddr (DEALERBOT_LISTEN_ADDR) is where dealerbot serves HTTP: /healthz, /readyz,
	// /metrics, and the platforms' front doors. Empty: no listener.
	ListenAddr       string
	StartingBankroll int64
	DealDelay        time.Duration
	LogLevel         string
	Timezone         string
	ConsoleAdmins    []string // console names that act as admins (adjust, and host powers everywhere)
}

func readSettings(e *Env) (Settings, error) {
	s := Settings{DB: "dealerbot.db", StartingBankroll: 10000, DealDelay: 3 * time.Second, LogLevel: "info", Timezone: "UTC"}
	if v := e.Get("DEALERBOT_DB"); v != "" {
		s.DB = v
	}
	if v := e.Get("DEALERBOT_DATABASE_URL"); v != "" {
		if e.Get("DEALERBOT_DB") != "" {
			return s, fmt.Errorf("DEALERBOT_DB (a bbolt file) and DEALERBOT_DATABASE_URL (PostgreSQL) are both set: set only one; to move a file into PostgreSQL use dealerbot migrate --from FILE --to URL")
		}
		if !strings.HasPrefix(v, "postgres://") && !strings.HasPrefix(v, "postgresql://") {
			return s, fmt.Errorf("DEALERBOT_DATABASE_URL must be a PostgreSQL URL such as postgres://dealer:secret@db.example.com:5432/dealerbot")
		}
		s.DatabaseURL = v
	}
	s.Lease = bot.DefaultLease
	if v := e.Get("DEALERBOT_LEASE"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d < time.Second || d > 10*time.Minute {
			return s, fmt.Errorf("DEALERBOT_LEASE must be a duration from 1s to 10m, such as 10s")
		}
		s.Lease = d
	}
	s.LinesAddr = e.Get("DEALERBOT_LINES_ADDR")
	s.ListenAddr = e.Get("DEALERBOT_LISTEN_ADDR")
	s.Owner = e.Get("DEALERBOT_OWNER")
	if len(s.Owner) > 100 {
		return s, fmt.Errorf("DEALERBOT_OWNER must be at most 100 characters")
	}
	if v := e.Get("DEALERBOT_STARTING_BANKROLL"); v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 0 || n > engine.MaxChips {
			return s, fmt.Errorf("DEALERBOT_STARTING_BANKROLL must be a whole number of chips from 0 to %d", engine.MaxChips)
		}
		s.StartingBankroll = n
	}
	if v := e.Get("DEALERBOT_DEAL_DELAY"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d < 0 {
			return s, fmt.Errorf("DEALERBOT_DEAL_DELAY must be a duration such as 3s (0 deals at once)")
		}
		s.DealDelay = d
	}
	if v := e.Get("DEALERBOT_LOG_LEVEL"); v != "" {
		switch v {
		case "debug", "info", "warn", "error":
			s.LogLevel = v
		default:
			return s, fmt.Errorf("DEALERBOT_LOG_LEVEL must be debug, info, warn or error")
		}
	}
	if v := e.Get("DEALERBOT_TIMEZONE"); v != "" {
		if _, err := time.LoadLocation(v); err != nil {
			return s, fmt.Errorf("DEALERBOT_TIMEZONE must be an IANA time zone such as Europe/Berlin")
		}
		s.Timezone = v
	}
	if v := e.Get("DEALERBOT_CONSOLE_ADMINS"); v != "" {
		for _, name := range strings.Split(v, ",") {
			if name = strings.TrimSpace(name); name != "" {
				s.ConsoleAdmins = append(s.ConsoleAdmins, name)
			}
		}
	}
	return s, nil
}
