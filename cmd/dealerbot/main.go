// Command dealerbot runs the dealer: on Discord and/or Slack when their settings are present, otherwise
// as a table in the terminal. It also has `backup FILE` and `phh check PATH...` subcommands.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/dealerbot/dealerbot/adapters/console"
	"github.com/dealerbot/dealerbot/adapters/discord"
	"github.com/dealerbot/dealerbot/adapters/slack"
	"github.com/dealerbot/dealerbot/bot"
	"github.com/dealerbot/dealerbot/bot/features"
	"github.com/dealerbot/dealerbot/render"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	m := &Main{Args: os.Args[1:], Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, Lookup: os.LookupEnv}
	os.Exit(m.Run(ctx))
}

// Main is the program with its inputs and outputs injected, so tests can drive it.
type Main struct {
	Args           []string
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	Lookup         func(string) (string, bool) // the environment
	// HTTPClient, when set, is how `dealerbot check` reaches Discord and Slack (tests point it at fakes).
	HTTPClient *http.Client
	// BotConfig, when set, is used for the dealer instead of defaults built from the settings (tests
	// inject clocks and decks through it).
	BotConfig *bot.Config
	// WrapStore, when set, wraps the store the dealer uses (tests make a process die at a chosen
	// moment, such as right after a commit and before anything is delivered).
	WrapStore func(store) store
	// WrapChat, when set, wraps the chat of the line server (DEALERBOT_LINES_ADDR), whose messages
	// go nowhere (tests observe what the processes post).
	WrapChat func(bot.Chat) bot.Chat

	ops *ops // health, readiness and metrics of the running dealer
	// logOut is where the log goes: standard error, or the console's line editor while it has the
	// terminal in raw mode (where a plain line break would not return the carriage).
	logOut *switchWriter

	consoleAdmins []string
}

const usage = `Usage:
  dealerbot [--env FILE] [--script FILE]   run the dealer (the console table when no chat is configured)
  dealerbot check                          check the Discord and Slack settings: token, application,
                                           servers, channel permissions, scopes, Socket Mode
  dealerbot backup FILE                    write a consistent copy of the database (of PostgreSQL: a
                                           portable bbolt file of every record; see dealerbot backup -h)
  dealerbot export [--format pokerstars|ohh|phh] [--out PATH] [--table ID] [--since DATE] [--player NAME]
                                           export finished hands for trackers (see dealerbot export -h)
  dealerbot phh check PATH...              replay PHH hand histories and compare final stacks
  dealerbot migrate --from FILE --to postgres://USER:PASSWORD@HOST:5432/DB
                                           copy a bbolt database into an empty PostgreSQL one
Settings come from the environment and .env; see .env.example.
`

// Run runs the command line and returns the exit code.
func (m *Main) Run(ctx context.Context) int {
	fs := flag.NewFlagSet("dealerbot", flag.ContinueOnError)
	fs.SetOutput(m.Stderr)
	fs.Usage = func() {} // printed below: asked for on standard output, after a mistake on standard error
	envFile := fs.String("env", ".env", "settings file read after the environment")
	script := fs.String("script", "", "console: read the lines to play from this file instead of the terminal")
	if err := fs.Parse(m.Args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(m.Stdout, usage)
			return 0 // asked for: nothing went wrong
		}
		fmt.Fprint(m.Stderr, usage)
		return 2
	}
	envSet := false
	fs.Visit(func(f *flag.Flag) { envSet = envSet || f.Name == "env" })
	args := fs.Args()
	if len(args) > 0 && args[0] == "help" {
		fmt.Fprint(m.Stdout, usage) // `dealerbot help` is `dealerbot --help`
		return 0
	}
	if len(args) > 0 && args[0] == "phh" {
		return runPHH(args[1:], m.Stdout, m.Stderr)
	}
	env, err := loadEnv(*envFile, m.Lookup, envSet)
	if err != nil {
		fmt.Fprintln(m.Stderr, "dealerbot:", err)
		return 2
	}
	settings, err := readSettings(env)
	if err != nil {
		fmt.Fprintln(m.Stderr, "dealerbot:", err)
		return 2
	}
	switch {
	case len(args) == 0:
	case args[0] == "check":
		if len(args) != 1 {
			fmt.Fprint(m.Stderr, "dealerbot check takes no arguments: it checks the settings of the environment and .env\n")
			return 2
		}
		return runCheck(ctx, env, m.HTTPClient, m.Stdout)
	case args[0] == "migrate":
		return runMigrate(ctx, args[1:], m.Stdout, m.Stderr)
	case args[0] == "export":
		return runExport(ctx, settings, args[1:], m.Stdout, m.Stderr)
	case args[0] == "backup":
		return runBackup(ctx, settings, args[1:], m.Stdout, m.Stderr)
	default:
		fmt.Fprintf(m.Stderr, "dealerbot: unknown command %q\n%s", args[0], usage)
		return 2
	}
	if err := m.serve(ctx, env, settings, *script); err != nil {
		fmt.Fprintln(m.Stderr, "dealerbot:", err)
		return 1
	}
	return 0
}

func newLogger(w io.Writer, level string) *slog.Logger {
	var l slog.Level
	l.UnmarshalText([]byte(level))
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: l}))
}

// serve opens the database and runs the dealer on every configured platform until ctx ends (or, at
// the console, until the input ends).
func (m *Main) serve(ctx context.Context, env *Env, s Settings, script string) error {
	m.logOut = &switchWriter{w: m.Stderr}
	log := newLogger(m.logOut, s.LogLevel)
	dcfg, err := discord.ConfigFromEnv(env.Get)
	if err != nil {
		return err
	}
	scfg, err := slack.ConfigFromEnv(env.Get)
	if err != nil {
		return err
	}
	db, closeDB, err := openStore(ctx, s, log)
	if err != nil {
		return err
	}
	defer closeDB()
	if m.WrapStore != nil {
		db = m.WrapStore(db)
	}
	m.ops = newOps(db)

	cfg := bot.Config{StartingBankroll: s.StartingBankroll, DealDelay: s.DealDelay, Logger: log}
	// Zero means zero here (the settings document it); bot.Config's zero value means its default.
	if s.StartingBankroll == 0 {
		cfg.StartingBankroll = bot.NoStartingBankroll
	}
	if s.DealDelay == 0 {
		cfg.DealDelay = -1
	}
	if m.BotConfig != nil {
		cfg = *m.BotConfig
	}
	if s.DatabaseURL != "" {
		cfg.Owner, cfg.Lease = s.Owner, s.Lease
		if cfg.Owner == "" {
			cfg.Owner = defaultOwner()
		}
		log.Info("sharing the database with other dealerbot processes", "owner", cfg.Owner, "lease", cfg.Lease)
	}
	if s.ListenAddr != "" {
		cfg.Metrics = m.ops.metrics // nobody reads them without the listener
	}
	router := &router{chats: map[string]bot.Chat{}}
	var runners []func(context.Context) error
	var closers []func(context.Context) error
	var setDealer []func(handler)

	if dcfg.Enabled() {
		a, err := discord.New(dcfg, log.With("platform", "discord"), discord.WithMetrics(cfg.Metrics), discord.WithStore(db))
		if err != nil {
			return err
		}
		router.chats["discord"] = a
		setDealer = append(setDealer, func(h handler) { a.SetDealer(h) })
		runners = append(runners, a.Run)
	}
	if scfg.Mode() != slack.Off {
		opts := []slack.Option{slack.WithLogger(log.With("platform", "slack"))}
		if in, ok := db.(bot.Installations); ok { // many workspaces keep their installations there
			opts = append(opts, slack.WithInstallations(in))
		}
		a, err := slack.New(scfg, opts...)
		if err != nil {
			return err
		}
		router.chats["slack"] = a
		setDealer = append(setDealer, func(h handler) { a.SetDealer(h) })
		runners = append(runners, a.Run)
		closers = append(closers, a.Close)
	}
	front, listening, err := frontDoors(s.ListenAddr, router.chats, log, m.ops.routes) // frontdoors.go
	if err != nil {
		return err
	}
	if listening != "" {
		fmt.Fprintf(m.Stderr, "dealerbot: listening on %s\n", listening)
	}
	if len(router.chats) == 0 {
		// The console and the line server return by themselves; health and metrics serve beside them.
		fctx, stopFront := context.WithCancel(ctx)
		defer stopFront()
		for _, run := range front {
			go run(fctx)
		}
		if m.BotConfig == nil {
			cfg.RateLimit.Off = true // one person at the keyboard, or a script: nothing to protect from
		}
		m.consoleAdmins = s.ConsoleAdmins
		if s.LinesAddr != "" {
			return m.lines(ctx, db, cfg, s, log)
		}
		return m.console(ctx, db, cfg, s.Timezone, log, script)
	}
	runners = append(runners, front...)
	d, sched, err := m.dealer(ctx, db, router, cfg, s.Timezone, log)
	if err != nil {
		return err
	}
	// The dealer answers every command, the schedule commands too (the scheduler runs beside it).
	for _, f := range setDealer {
		f(d)
	}
	log.Info("dealerbot running", "db", db, "platforms", strings.Join(router.names(), ","))
	errs := make(chan error, len(runners))
	for _, run := range runners {
		go func() { errs <- run(ctx) }()
	}
	var firstErr error
	for range runners {
		if err := <-errs; err != nil && !errors.Is(err, context.Canceled) && firstErr == nil {
			firstErr = err
		}
	}
	shutdown, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	for _, c := range closers {
		c(shutdown)
	}
	sched.Close(shutdown)
	if err := d.Close(shutdown); err != nil && firstErr == nil {
		firstErr = err
	}
	return firstErr
}

// console runs the terminal table: lines from the script file or standard input. At a terminal the
// line being typed is kept intact while messages print (console.Editor).
func (m *Main) console(ctx context.Context, db store, cfg bot.Config, zone string, log *slog.Logger, script string) error {
	out, in := m.Stdout, m.Stdin
	if e, restore, ok := m.terminal(script); ok {
		defer restore()
		out, in = e, e
		m.logOut.set(e)
		defer m.logOut.set(m.Stderr)
	}
	if script != "" {
		f, err := os.Open(script)
		if err != nil {
			return err
		}
		defer f.Close()
		in = f
	}
	chat := console.NewChat(out)
	d, sched, err := m.dealer(ctx, db, chat, cfg, zone, log)
	if err != nil {
		return err
	}
	if script == "" {
		fmt.Fprintln(out, "dealerbot console table. Type `name: command`, e.g. `alice: start`, `alice: join`, `bob: join`, `alice: deal`; `alice: help` lists every command (scheduled games too). Ctrl-D quits.")
	}
	runErr := console.Run(ctx, d, chat, in, console.Options{Admins: m.consoleAdmins, Flush: d.Flush})
	shutdown, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	sched.Close(shutdown)
	if err := d.Close(shutdown); err != nil && runErr == nil {
		runErr = err
	}
	if errors.Is(runErr, context.Canceled) {
		return nil
	}
	return runErr
}

// terminal is the console's line editor when it reads from a terminal (no script) and prints to one.
func (m *Main) terminal(script string) (e *console.Editor, restore func(), ok bool) {
	in, isIn := m.Stdin.(*os.File)
	out, isOut := m.Stdout.(*os.File)
	if script != "" || !isIn || !isOut {
		return nil, nil, false
	}
	return console.Terminal(in, out)
}

// switchWriter is a writer whose destination can change while it is in use (the log's).
type switchWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (s *switchWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(p)
}

func (s *switchWriter) set(w io.Writer) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.w = w
}

// lines serves the console's line protocol on s.LinesAddr (console.ServeLines) until ctx ends.
func (m *Main) lines(ctx context.Context, db store, cfg bot.Config, s Settings, log *slog.Logger) error {
	ln, err := net.Listen("tcp", s.LinesAddr)
	if err != nil {
		return fmt.Errorf("DEALERBOT_LINES_ADDR %s: %w", s.LinesAddr, err)
	}
	var chat bot.Chat = console.NewChat(io.Discard)
	if m.WrapChat != nil {
		chat = m.WrapChat(chat)
	}
	d, sched, err := m.dealer(ctx, db, chat, cfg, s.Timezone, log)
	if err != nil {
		ln.Close()
		return err
	}
	fmt.Fprintf(m.Stderr, "dealerbot: serving lines on %s\n", ln.Addr())
	runErr := console.ServeLines(ctx, ln, d)
	shutdown, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	sched.Close(shutdown)
	if err := d.Close(shutdown); err != nil && runErr == nil {
		runErr = err
	}
	if errors.Is(runErr, context.Canceled) {
		return nil
	}
	return runErr
}

// dealer makes the dealer on db with every feature wired in (features.With), and starts the
// scheduler of home games beside it: the one place the three ways to run (chat platforms, the
// console, the line server) make them.
func (m *Main) dealer(ctx context.Context, db store, chat bot.Chat, cfg bot.Config, zone string, log *slog.Logger) (*bot.Dealer, *features.Scheduler, error) {
	d, err := bot.New(db, chat, features.With(db, cfg))
	if err != nil {
		return nil, nil, err
	}
	m.ops.watch(d)
	sched, err := features.NewScheduler(d, db, features.ScheduleConfig{DefaultZone: zone, Logger: log})
	if err == nil {
		err = sched.Start(ctx)
	}
	if err != nil {
		d.Close(context.Background())
		return nil, nil, err
	}
	return d, sched, nil
}

// handler is what an adapter needs from the bot: the dealer.
type handler interface {
	Handle(ctx context.Context, cmd bot.Command) bot.Reply
}

// router sends each message to the chat of its table's platform, for a process serving several.
type router struct {
	chats map[string]bot.Chat
}

func (r *router) names() []string {
	var out []string
	for k := range r.chats {
		out = append(out, k)
	}
	return out
}

func (r *router) pick(platform string) (bot.Chat, error) {
	if c, ok := r.chats[platform]; ok {
		return c, nil
	}
	if len(r.chats) == 1 {
		for _, c := range r.chats {
			return c, nil
		}
	}
	return nil, fmt.Errorf("no chat adapter for platform %q", platform)
}

func (r *router) Send(ctx context.Context, m bot.Message) error {
	c, err := r.pick(m.Platform)
	if err != nil {
		return err
	}
	return c.Send(ctx, m)
}

func (r *router) SendEphemeral(ctx context.Context, m bot.Message) error {
	c, err := r.pick(m.Platform)
	if err != nil {
		return err
	}
	e, ok := c.(bot.Ephemeral)
	if !ok {
		return bot.ErrDMBlocked
	}
	return e.SendEphemeral(ctx, m)
}

// The router is a chat, shows pictures when the platform's chat does, and hands forwarded commands
// to the platform's chat when it follows them up.
var (
	_ bot.Chat      = (*router)(nil)
	_ bot.Pictures  = (*router)(nil)
	_ bot.Followups = (*router)(nil)
)

func (r *router) Forwarded(cmd bot.Command) {
	c, err := r.pick(cmd.Platform)
	if err != nil {
		return
	}
	if f, ok := c.(bot.Followups); ok {
		f.Forwarded(cmd)
	}
}

func (r *router) Post(ctx context.Context, m bot.Message) (string, error) {
	s, err := r.pick(m.Platform)
	if err != nil {
		return "", err
	}
	return s.Post(ctx, m)
}

func (r *router) Edit(ctx context.Context, m bot.Message, id string) error {
	s, err := r.pick(m.Platform)
	if err != nil {
		return err
	}
	return s.Edit(ctx, m, id)
}

func (r *router) Delete(ctx context.Context, m bot.Message, id string) error {
	s, err := r.pick(m.Platform)
	if err != nil {
		return err
	}
	return s.Delete(ctx, m, id)
}

func (r *router) CardFaces(platform string, four bool) (*render.Faces, bool) {
	c, err := r.pick(platform)
	if err != nil {
		return nil, false
	}
	if p, ok := c.(bot.Pictures); ok {
		return p.CardFaces(platform, four)
	}
	return nil, false
}

func (r *router) ShowsPictures(platform string) bool {
	c, err := r.pick(platform)
	if err != nil {
		return false
	}
	p, ok := c.(bot.Pictures)
	return ok && p.ShowsPictures(platform)
}
