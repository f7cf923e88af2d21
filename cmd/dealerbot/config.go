package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/dealerbot/dealerbot/engine"
)

// Env looks settings up: the process environment first, then the .env file.
type Env struct {
	lookup func(string) (string, bool)
	file   map[string]string
}

// loadEnv reads an optional .env file. A missing file is not an error.
func loadEnv(path string, lookup func(string) (string, bool)) (*Env, error) {
	e := &Env{lookup: lookup, file: map[string]string{}}
	f, err := os.Open(path)
	if os.IsNotExist(err) {
		return e, nil
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

// parseDotEnv reads KEY=VALUE lines; blank lines and lines starting with # are skipped, "export " is
// allowed, and a value may be wrapped in single or double quotes.
func parseDotEnv(r io.Reader) (map[string]string, error) {
	vals := map[string]string{}
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		line = strings.TrimPrefix(line, "export ")
		k, v, ok := strings.Cut(line, "=")
		k = strings.TrimSpace(k)
		if !ok || k == "" || strings.ContainsAny(k, " \t") {
			return nil, fmt.Errorf("line %d: want KEY=VALUE, got %q", n, line)
		}
		v = strings.TrimSpace(v)
		if len(v) >= 2 && (v[0] == '"' && v[len(v)-1] == '"' || v[0] == '\'' && v[len(v)-1] == '\'') {
			v = v[1 : len(v)-1]
		} else if i := strings.Index(v, " #"); i >= 0 {
			v = strings.TrimSpace(v[:i])
		}
		vals[k] = v
	}
	return vals, sc.Err()
}

// Get returns a setting, or "" when unset.
func (e *Env) Get(key string) string {
	if v, ok := e.lookup(key); ok {
		return v
	}
	return e.file[key]
}

// Settings are dealerbot's own settings (the chat adapters read theirs through Env.Get).
type Settings struct {
	DB               string
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
