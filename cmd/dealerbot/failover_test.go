package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	neturl "net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/dealerbot/dealerbot/adapters/console"
	"github.com/dealerbot/dealerbot/bot"
	"github.com/dealerbot/dealerbot/bot/table"
	"github.com/dealerbot/dealerbot/engine"
	"github.com/dealerbot/dealerbot/storage/pgtest"
	"github.com/dealerbot/dealerbot/storage/postgres"
)

// The failover tests run real dealerbot processes: this test binary re-executed with
// DEALERBOT_TEST_RUN_MAIN set runs main's Main instead of the tests, serving the console's line
// protocol (DEALERBOT_LINES_ADDR) on a PostgreSQL database the processes share.
func TestMain(m *testing.M) {
	if os.Getenv("DEALERBOT_TEST_RUN_MAIN") == "1" {
		ctx, stop := context.WithCancel(context.Background())
		defer stop()
		mm := &Main{Args: []string{"--env", os.DevNull}, Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: os.Stderr, Lookup: os.LookupEnv}
		if n, err := strconv.Atoi(os.Getenv("DEALERBOT_TEST_CRASH_AFTER_COMMIT")); err == nil {
			mm.WrapStore = func(s store) store { return &crashStore{DB: s.(*postgres.DB), after: int64(n)} }
		}
		if os.Getenv("DEALERBOT_TEST_LOG_POSTS") == "1" {
			mm.WrapChat = func(c bot.Chat) bot.Chat {
				pl := &postLogger{Chat: c.(*console.Chat), channel: os.Getenv("DEALERBOT_TEST_CHANNEL"), proc: os.Getenv("DEALERBOT_OWNER")}
				pl.crashAt, pl.crashOn, _ = strings.Cut(os.Getenv("DEALERBOT_TEST_CRASH_AT_POST"), ":")
				return pl
			}
		}
		os.Exit(mm.Run(ctx))
	}
	os.Exit(m.Run())
}

// crashStore kills its own process with SIGKILL right after its nth successful commit: the change is
// in the database, and nothing of it (reply, table message, private cards) was delivered.
type crashStore struct {
	*postgres.DB
	after int64
	n     atomic.Int64
}

func (c *crashStore) Commit(ctx context.Context, ch table.Change) error {
	err := c.DB.Commit(ctx, ch)
	if err == nil && c.n.Add(1) == c.after {
		syscall.Kill(os.Getpid(), syscall.SIGKILL)
		select {} // the signal is on its way
	}
	return err
}

// postLogger is the line server's chat, which also writes every channel message it sends to standard
// error as a line of its own (postPrefix, the time, then the message as JSON), for a test to count
// what the processes posted.
//
// With channel set (DEALERBOT_TEST_CHANNEL), a file the processes share, postLogger is also the
// channels the processes post in, the way Discord's are: each channel post is one line appended to
// the file, and a post with a key the file already holds is not posted again (Discord's nonce with
// enforce_nonce), which it notes on standard error (againPrefix). The check and the line are one
// step under the file's lock, as on Discord they are one request.
//
// crashAt "before" or "after" (DEALERBOT_TEST_CRASH_AT_POST=before:TEXT) kills the process with
// SIGKILL when it sends a keyed channel post that begins with crashOn: before it is posted, or right
// after it is in the channel.
type postLogger struct {
	*console.Chat
	channel string
	proc    string
	crashAt string
	crashOn string
}

// crash kills the process when m is the post it is to die at, at.
func (p *postLogger) crash(m bot.Message, at string) {
	if p.crashAt == at && m.Key != "" && p.crashOn != "" && strings.HasPrefix(m.Text, p.crashOn) {
		syscall.Kill(os.Getpid(), syscall.SIGKILL)
		select {} // the signal is on its way
	}
}

const (
	postPrefix  = "dealerbot-test: post "
	againPrefix = "dealerbot-test: again "
)

// testPost is a channel message as postLogger writes it.
type testPost struct {
	Workspace string `json:"workspace"`
	Channel   string `json:"channel"`
	Text      string `json:"text"`
	Key       string `json:"key,omitempty"`
	At        string `json:"at,omitempty"`   // the shared channel's lines: when
	Proc      string `json:"proc,omitempty"` // and by which process
}

func (p *postLogger) Send(ctx context.Context, m bot.Message) error {
	if m.Private || p.channel == "" {
		return p.log(ctx, m)
	}
	p.crash(m, "before")
	f, err := os.OpenFile(p.channel, os.O_RDWR|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return err
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		return err
	}
	if m.Key != "" {
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			var prev testPost
			if json.Unmarshal(sc.Bytes(), &prev) == nil && prev.Key == m.Key && prev.Workspace == m.Workspace && prev.Channel == m.Channel {
				os.Stderr.Write([]byte(againPrefix + time.Now().Format("15:04:05.000") + " " + m.Key + "\n"))
				return nil // posted before: Discord answers with that message
			}
		}
	}
	if err := p.log(ctx, m); err != nil {
		return err
	}
	b, _ := json.Marshal(testPost{Workspace: m.Workspace, Channel: m.Channel, Text: m.Text, Key: m.Key, At: time.Now().Format("15:04:05.000"), Proc: p.proc})
	if _, err = f.Write(append(b, '\n')); err != nil { // one write: one line
		return err
	}
	p.crash(m, "after")
	return nil
}

// log sends m and writes a channel post to standard error.
func (p *postLogger) log(ctx context.Context, m bot.Message) error {
	err := p.Chat.Send(ctx, m)
	if err == nil && !m.Private {
		b, _ := json.Marshal(testPost{Workspace: m.Workspace, Channel: m.Channel, Text: m.Text, Key: m.Key})
		os.Stderr.Write([]byte(postPrefix + time.Now().Format("15:04:05.000") + " " + string(b) + "\n")) // one write: one line
	}
	return err
}

// processDB is the database of a test that runs real processes: a fresh PostgreSQL database (its URL)
// and the test's own connection to it. Under -short the test is skipped, saying why.
func processDB(t *testing.T, why string) (string, *postgres.DB) {
	t.Helper()
	if testing.Short() {
		t.Skip(why)
	}
	url := pgtest.URL(t)
	db, err := postgres.Open(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return url, db
}

// proc is one dealerbot process of a failover test.
type proc struct {
	name string
	cmd  *exec.Cmd
	addr string
	log  *lockedBuffer
	done chan struct{} // closed when the process has exited
	http string        // its DEALERBOT_LISTEN_ADDR, when it listens
}

type lockedBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

var (
	servingRE   = regexp.MustCompile(`serving lines on (\S+)`)
	listeningRE = regexp.MustCompile(`dealerbot: listening on (\S+)`)
	// discordRE is the log line of a process serving Discord's Interactions Endpoint without the
	// gateway, once its commands are registered.
	discordRE = regexp.MustCompile(`connected to Discord without the gateway`)
)

// startProc starts a dealerbot process named name on the database at url and waits until it
// serves lines or, with Discord configured by env, Discord's Interactions Endpoint.
func startProc(t *testing.T, url, name string, lease time.Duration, env ...string) *proc {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	p := &proc{name: name, log: &lockedBuffer{}, done: make(chan struct{})}
	p.cmd = exec.Command(self)
	p.cmd.Env = append(os.Environ(), "DEALERBOT_TEST_RUN_MAIN=1", "DEALERBOT_DATABASE_URL="+url, "DEALERBOT_OWNER="+name,
		"DEALERBOT_LEASE="+lease.String(), "DEALERBOT_LINES_ADDR=127.0.0.1:0", "DEALERBOT_DEAL_DELAY=0", "DEALERBOT_LOG_LEVEL=info",
		"DISCORD_TOKEN=", "SLACK_BOT_TOKEN=", "SLACK_APP_TOKEN=", "DEALERBOT_DB=")
	p.cmd.Env = append(p.cmd.Env, env...)
	stderr, err := p.cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	addr := make(chan string, 1)
	httpAddr := make(chan string, 1)
	discordUp := make(chan struct{}, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			line := sc.Text()
			fmt.Fprintln(p.log, line)
			if m := servingRE.FindStringSubmatch(line); m != nil {
				addr <- m[1]
			}
			if m := listeningRE.FindStringSubmatch(line); m != nil {
				httpAddr <- m[1]
			}
			if discordRE.MatchString(line) {
				select {
				case discordUp <- struct{}{}:
				default:
				}
			}
		}
		p.cmd.Wait()
		close(p.done)
	}()
	started := func() {
		select {
		case p.http = <-httpAddr:
		default: // it listens before it serves, or not at all
		}
	}
	select {
	case p.addr = <-addr:
		started()
	case <-discordUp:
		started()
	case <-p.done:
		t.Fatalf("process %s exited at start:\n%s", name, p.log)
	case <-time.After(30 * time.Second):
		p.cmd.Process.Kill()
		t.Fatalf("process %s did not start:\n%s", name, p.log)
	}
	t.Cleanup(func() {
		p.cmd.Process.Kill()
		<-p.done
	})
	return p
}

// outcome of one line sent to a process.
type outcome int

const (
	applied outcome = iota
	refused
	unknown // the connection broke: the process may have died before or after the commit
	unsent  // no process took the line (it had just died): nothing can have happened
)

// send sends one line to p and reads its answer.
func send(p *proc, line string) (console.LineReply, outcome) {
	return sendWithin(p, line, 20*time.Second)
}

// sendWithin is send with the answer awaited for at most wait: none by then is unknown.
func sendWithin(p *proc, line string, wait time.Duration) (console.LineReply, outcome) {
	conn, err := net.DialTimeout("tcp", p.addr, time.Second)
	if err != nil {
		return console.LineReply{}, unsent
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(wait))
	if _, err := fmt.Fprintln(conn, line); err != nil {
		return console.LineReply{}, unknown
	}
	var r console.LineReply
	if err := json.NewDecoder(conn).Decode(&r); err != nil {
		return console.LineReply{}, unknown
	}
	// The reminder that checking is free changes no chips or cards: the fold waits for a
	// second one.
	if r.Error || strings.Contains(r.Text, "Type fold again") {
		return r, refused
	}
	return r, applied
}

// ledgerOwners reads the leases of the communities (without the processes' own).
func leaseOwners(t *testing.T, db *postgres.DB) map[string]bot.Lease {
	t.Helper()
	cs, err := db.Communities(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]bot.Lease{}
	for _, c := range cs {
		if !strings.HasPrefix(c.Community, "process/") {
			out[c.Community] = c
		}
	}
	return out
}

// storedActions counts the player actions the database holds: finished hands' and the hands in
// progress.
func storedActions(t *testing.T, db *postgres.DB, tables []string) int {
	t.Helper()
	ctx := context.Background()
	n := 0
	err := db.EachHand(ctx, func(h table.HandRecord) error { n += len(h.Actions); return nil })
	if err != nil {
		t.Fatal(err)
	}
	ts, err := db.Tables(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, tr := range ts {
		if tr.Hand != nil {
			n += len(tr.Hand.Actions)
		}
	}
	return n
}

// Three processes share one PostgreSQL; six communities play at once while the owner of one of
// them is SIGKILLed at random moments, at least 20 times (a fresh process takes each dead one's
// place). Actions keep arriving at random live processes. Afterwards every community has exactly
// one live owner, every hand in progress replays, the ledger balances, and every action was either
// applied once or refused: the player actions stored are at least those answered as applied and at
// most those plus the ones whose process died before answering.
func TestFailoverKills(t *testing.T) {
	url, db := processDB(t, "-short: the failover test runs real processes for about a minute")
	const lease = time.Second

	var mu sync.Mutex
	procs := []*proc{startProc(t, url, "p1", lease), startProc(t, url, "p2", lease), startProc(t, url, "p3", lease)}
	next := 4
	rp := rand.New(rand.NewPCG(3, 3))
	// fresh starts a process to take a dead one's place; every other one kills itself right after
	// its few-th commit, before anything of that step is delivered.
	fresh := func() *proc {
		mu.Lock()
		name := fmt.Sprintf("p%d", next)
		crashy := next%2 == 0
		after := 3 + rp.IntN(10)
		next++
		mu.Unlock()
		var env []string
		if crashy {
			env = append(env, fmt.Sprintf("DEALERBOT_TEST_CRASH_AFTER_COMMIT=%d", after))
		}
		return startProc(t, url, name, lease, env...)
	}
	live := func() []*proc {
		mu.Lock()
		defer mu.Unlock()
		return slices.Clone(procs)
	}
	pick := func(r *rand.Rand) *proc {
		ps := live()
		return ps[r.IntN(len(ps))]
	}
	communities := []string{"w1", "w2", "w3", "w4", "w5", "w6"}
	players := []string{"alice", "bob", "carol"}
	// Open every table and seat everyone, retrying refusals (a community being claimed).
	r0 := rand.New(rand.NewPCG(1, 2))
	must := func(line string) {
		for i := 0; ; i++ {
			rep, o := send(pick(r0), line)
			if o == applied {
				return
			}
			if i > 100 {
				t.Fatalf("%q refused 100 times: %s", line, rep.Text)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	for _, w := range communities {
		must(w + " c1 alice start")
		for _, p := range players {
			must(w + " c1 " + p + " join")
		}
		must(w + " c1 alice deal")
	}

	var counts struct {
		sync.Mutex
		applied, refused, unknown int
	}
	verbs := []string{"call", "check", "call", "check", "fold", "raise 30", "bet 20"}
	ctx, stopPlay := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	for i, w := range communities {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewPCG(uint64(i), 99))
			for ctx.Err() == nil {
				line := fmt.Sprintf("%s c1 %s %s", w, players[r.IntN(len(players))], verbs[r.IntN(len(verbs))])
				_, o := send(pick(r), line)
				counts.Lock()
				switch o {
				case applied:
					counts.applied++
				case refused:
					counts.refused++
				case unknown:
					counts.unknown++
				}
				counts.Unlock()
				time.Sleep(time.Duration(r.IntN(20)) * time.Millisecond)
			}
		}()
	}

	// A process that died by itself (after a commit, before delivering it) is replaced.
	var selfCrashes atomic.Int64
	supervise, stopSupervising := context.WithCancel(context.Background())
	var supervised sync.WaitGroup
	supervised.Add(1)
	go func() {
		defer supervised.Done()
		for supervise.Err() == nil {
			for _, p := range live() {
				select {
				case <-p.done:
					mu.Lock()
					i := slices.Index(procs, p)
					if i >= 0 {
						procs = slices.Delete(procs, i, i+1)
					}
					mu.Unlock()
					if i >= 0 {
						selfCrashes.Add(1)
						f := fresh()
						mu.Lock()
						procs = append(procs, f)
						mu.Unlock()
					}
				default:
				}
			}
			time.Sleep(20 * time.Millisecond)
		}
	}()

	// Kill the owner of a random community, 20 times, and time each takeover: from the kill to a
	// new live owner of that community in the database.
	var takeovers []time.Duration
	rk := rand.New(rand.NewPCG(7, 7))
	for kill := 0; kill < 20; kill++ {
		time.Sleep(time.Duration(200+rk.IntN(500)) * time.Millisecond)
		owners := leaseOwners(t, db)
		w := communities[rk.IntN(len(communities))]
		l := owners["console/"+w]
		var victim *proc
		mu.Lock()
		for i, p := range procs {
			if p.name == l.Owner {
				victim = p
				procs = slices.Delete(procs, i, i+1)
				break
			}
		}
		mu.Unlock()
		if victim == nil {
			kill-- // not owned right now (being taken over): pick again
			continue
		}
		killed := time.Now()
		victim.cmd.Process.Signal(syscall.SIGKILL)
		<-victim.done
		f := fresh()
		mu.Lock()
		procs = append(procs, f)
		mu.Unlock()
		for {
			now := leaseOwners(t, db)["console/"+w]
			if now.Live && now.Owner != victim.name {
				takeovers = append(takeovers, time.Since(killed))
				break
			}
			if time.Since(killed) > 30*time.Second {
				t.Fatalf("community %s not taken over 30 s after its owner %s was killed", w, victim.name)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	stopPlay()
	wg.Wait()
	stopSupervising()
	supervised.Wait()

	// Every community has exactly one live owner, a running process.
	time.Sleep(2 * lease)
	names := map[string]bool{}
	for _, p := range live() {
		names[p.name] = true
	}
	owners := leaseOwners(t, db)
	for _, w := range communities {
		l := owners["console/"+w]
		if !l.Live || !names[l.Owner] {
			t.Errorf("community %s: lease %+v, not held by a running process (%v)", w, l, names)
		}
	}
	// Every hand is finished or resumable, and the ledger balances.
	ts, err := db.Tables(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(ts) != len(communities) {
		t.Errorf("%d open tables, want %d", len(ts), len(communities))
	}
	for _, tr := range ts {
		if tr.Hand == nil {
			continue
		}
		if _, err := engine.Replay(tr.Hand.Setup(), tr.Hand.Actions); err != nil {
			t.Errorf("table %s: hand #%d does not replay: %v", tr.ID, tr.Hand.No, err)
		}
	}
	if tot, err := db.Balance(context.Background()); err != nil {
		t.Errorf("ledger: %v", err)
	} else if tot.BroughtIn != int64(len(communities)*len(players))*10000 {
		t.Errorf("chips brought in %d, want %d", tot.BroughtIn, len(communities)*len(players)*10000)
	}
	stored := storedActions(t, db, nil)
	counts.Lock()
	defer counts.Unlock()
	if stored < counts.applied || stored > counts.applied+counts.unknown {
		t.Errorf("%d player actions stored; %d answered as applied, %d unanswered: an action was lost or applied twice",
			stored, counts.applied, counts.unknown)
	}
	slices.Sort(takeovers)
	p50, worst := takeovers[len(takeovers)/2], takeovers[len(takeovers)-1]
	t.Logf("20 kills: takeover p50 %v, max %v (lease %v); %d processes died right after a commit; actions: %d applied, %d refused, %d unanswered; %d stored",
		p50.Round(time.Millisecond), worst.Round(time.Millisecond), lease, selfCrashes.Load(), counts.applied, counts.refused, counts.unknown, stored)
	if selfCrashes.Load() < 3 {
		t.Errorf("only %d processes died between a commit and its delivery, want at least 3", selfCrashes.Load())
	}
	if worst > lease+2*time.Second {
		t.Errorf("slowest takeover %v, want at most the lease plus 2 s (%v)", worst, lease+2*time.Second)
	}
	if counts.applied < 100 {
		t.Errorf("only %d actions applied: the tables hardly played", counts.applied)
	}
}

// An owner paused (SIGSTOP) past its lease loses its community to another process, which plays on;
// when the first resumes, the action it had been sent meanwhile is refused by the fencing check,
// it stops serving the community (its log says why), and nothing it held in memory reaches the
// database.
func TestFailoverPause(t *testing.T) {
	url, db := processDB(t, "-short: the pause test runs real processes")
	const lease = time.Second
	a := startProc(t, url, "A", lease)
	for _, line := range []string{"w1 c1 alice start", "w1 c1 alice join", "w1 c1 bob join", "w1 c1 alice deal"} {
		if rep, o := send(a, line); o != applied {
			t.Fatalf("%q: %s", line, rep.Text)
		}
	}
	if l := leaseOwners(t, db)["console/w1"]; l.Owner != "A" {
		t.Fatalf("w1 owned by %q, want A", l.Owner)
	}
	b := startProc(t, url, "B", lease)

	a.cmd.Process.Signal(syscall.SIGSTOP)
	stopped := true
	defer func() {
		if stopped {
			a.cmd.Process.Signal(syscall.SIGCONT)
		}
	}()
	// B takes w1 over once A's lease has expired, and plays on: whoever is to act acts until one
	// action lands.
	deadline := time.Now().Add(10 * time.Second)
	for leaseOwners(t, db)["console/w1"].Owner != "B" {
		if time.Now().After(deadline) {
			t.Fatal("B did not take w1 over while A was stopped")
		}
		send(b, "w1 c1 nobody table") // a command for w1 makes B claim it as soon as it may
		time.Sleep(100 * time.Millisecond)
	}
	actedOnB := false
	for _, p := range []string{"alice", "bob"} {
		if _, o := send(b, "w1 c1 "+p+" call"); o == applied {
			actedOnB = true
			break
		}
	}
	if !actedOnB {
		t.Fatal("nobody could act at w1 on B")
	}
	before, _ := db.Tables(context.Background())
	beforeActions := storedActions(t, db, nil)

	// A is sent an action while stopped (the kernel keeps it in the socket), then resumes.
	results := make(chan console.LineReply, 2)
	for _, p := range []string{"alice", "bob"} {
		go func() { r, _ := send(a, "w1 c1 "+p+" call"); results <- r }()
	}
	time.Sleep(200 * time.Millisecond)
	a.cmd.Process.Signal(syscall.SIGCONT)
	stopped = false
	// Each is refused (by the fence, when A still believed it owned w1) or, when A had already seen
	// that it lost w1, forwarded to B and applied there: never applied from A's memory.
	forwarded := 0
	for i := 0; i < 2; i++ {
		select {
		case r := <-results:
			if !r.Error {
				forwarded++
			}
		case <-time.After(15 * time.Second):
			t.Fatal("the resumed process did not answer")
		}
	}
	time.Sleep(3 * lease) // A's timers and renewals run: none may write
	after, _ := db.Tables(context.Background())
	if got, want := storedActions(t, db, nil), beforeActions+forwarded; got != want {
		t.Errorf("%d actions stored after A resumed, want %d (%d forwarded to B): A wrote", got, want, forwarded)
	}
	if forwarded == 0 && (len(before) != 1 || len(after) != 1 || fmt.Sprint(before[0].Hand) != fmt.Sprint(after[0].Hand) || before[0].HandNo != after[0].HandNo) {
		t.Errorf("the table changed after A resumed:\nbefore %+v\nafter  %+v", before, after)
	}
	if forwarded == 0 && !strings.Contains(a.log.String(), "no longer owns the community") && !strings.Contains(a.log.String(), "another dealer process") &&
		!strings.Contains(a.log.String(), "its lease is not renewed") {
		t.Errorf("A's log does not say why its actions were refused:\n%s", a.log)
	}
	if l := leaseOwners(t, db)["console/w1"]; l.Owner != "B" || !l.Live {
		t.Errorf("w1's lease after A resumed: %+v, want B's", l)
	}
	if !strings.Contains(a.log.String(), "stopped serving community") {
		t.Errorf("A's log does not say it stopped serving w1:\n%s", a.log)
	}
	if _, err := db.Balance(context.Background()); err != nil {
		t.Error(err)
	}
}

// ownServer starts a PostgreSQL server of the test's own with .ci/postgres (which the test can stop
// and start again) and returns its URL and the script's directory.
func ownServer(t *testing.T) (url string, ctl func(verb string)) {
	t.Helper()
	pgtest.ServerURL(t) // skipped, or failed under CI=true, like every PostgreSQL test
	script, err := filepath.Abs("../../.ci/postgres")
	if err != nil {
		t.Fatal(err)
	}
	dir, err := os.MkdirTemp("/tmp", "dealerbot-pgdown-")
	if err != nil {
		t.Fatal(err)
	}
	os.Chmod(dir, 0o755)
	out, err := exec.Command(script, "start", dir+"/pg").Output()
	if err != nil {
		t.Fatalf("start a PostgreSQL server of the test's own: %v", err)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	ctl = func(verb string) {
		if out, err := exec.Command(script, verb, dir+"/pg").CombinedOutput(); err != nil {
			t.Fatalf(".ci/postgres %s: %v\n%s", verb, err, out)
		}
	}
	t.Cleanup(func() { ctl("stop"); os.RemoveAll(dir) })
	return lines[len(lines)-1], ctl
}

// PostgreSQL stopped mid-game: actions are answered with a sentence saying the dealer cannot reach
// its database and nothing changed; nothing is lost; play resumes once the database is back.
func TestDatabaseDown(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: stops and starts a PostgreSQL server")
	}
	url, ctl := ownServer(t)
	const lease = time.Second
	p := startProc(t, url, "A", lease)
	for _, line := range []string{"w1 c1 alice start", "w1 c1 alice join", "w1 c1 bob join", "w1 c1 alice deal"} {
		if rep, o := send(p, line); o != applied {
			t.Fatalf("%q: %s", line, rep.Text)
		}
	}
	// act has whoever is to act call or check: one of the four lines is the legal action.
	act := func() (applied_ int, replies []string) {
		for _, line := range []string{"alice call", "alice check", "bob call", "bob check"} {
			rep, o := send(p, "w1 c1 "+line)
			if o == applied {
				return 1, nil
			}
			if !strings.Contains(rep.Text, "turn, not yours") && !strings.Contains(rep.Text, "check instead") && !strings.Contains(rep.Text, "to call") {
				replies = append(replies, rep.Text) // the legal action's answer
			}
		}
		return 0, replies
	}
	before, _ := act()
	if before != 1 {
		t.Fatalf("%d of alice and bob could call, want the one to act", before)
	}
	ctl("halt")
	n, replies := act()
	if n != 0 || len(replies) == 0 {
		t.Fatalf("with the database down: %d applied, answers %q", n, replies)
	}
	// A command whose request never left is refused with "nothing changed"; one whose request may
	// have reached the server as it went down cannot be read back while it is down, and is answered
	// that the dealer cannot tell yet: never "nothing changed" on a guess.
	for _, r := range replies {
		known := strings.Contains(r, "nothing changed") && (strings.Contains(r, "cannot reach its database") || strings.Contains(r, "try again"))
		unknown := strings.Contains(r, "cannot tell yet")
		if !known && !unknown {
			t.Errorf("reply with the database down: %q, want a sentence that the database is out of reach and nothing changed, or that the dealer cannot tell yet", r)
		}
	}
	time.Sleep(2 * lease) // past the lease: the process stops serving, and claims again when it can
	ctl("resume")
	deadline := time.Now().Add(20 * time.Second)
	for {
		if n, _ := act(); n == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("play did not resume after the database came back:\n%s", p.log)
		}
		time.Sleep(200 * time.Millisecond)
	}
	db, err := postgres.Open(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if got := storedActions(t, db, nil); got != 2 {
		t.Errorf("%d actions stored, want the 2 applied", got)
	}
	if _, err := db.Balance(context.Background()); err != nil {
		t.Error(err)
	}
}

// The database settings at start: both kinds set, a URL that is not PostgreSQL's, and a server that
// does not answer or refuses the user are each one line on standard error, and nothing starts.
func TestDatabaseSettingsAtStart(t *testing.T) {
	for _, tc := range []struct {
		name string
		env  map[string]string
		code int
		want string
	}{
		{"both", map[string]string{"DEALERBOT_DB": "x.db", "DEALERBOT_DATABASE_URL": "postgres://dealer@127.0.0.1:1/x"}, 2, "both set"},
		{"not postgres", map[string]string{"DEALERBOT_DATABASE_URL": "mysql://dealer@127.0.0.1/x"}, 2, "must be a PostgreSQL URL"},
		{"nothing answers", map[string]string{"DEALERBOT_DATABASE_URL": "postgres://dealer:hunter2@127.0.0.1:1/x"}, 1, "nothing answers there"},
		{"bad lease", map[string]string{"DEALERBOT_DATABASE_URL": "postgres://dealer@127.0.0.1:1/x", "DEALERBOT_LEASE": "10ms"}, 2, "DEALERBOT_LEASE must be"},
	} {
		code, _, errOut := runMain(t, tc.env, "alice: start\n")
		if code != tc.code || !strings.Contains(errOut, tc.want) || strings.Count(strings.TrimSpace(errOut), "\n") != 0 || strings.Contains(errOut, "hunter2") {
			t.Errorf("%s: exit %d, stderr %q; want exit %d and one line with %q", tc.name, code, errOut, tc.code, tc.want)
		}
	}
	if os.Getenv(pgtest.Env) == "" && os.Getenv("CI") != "true" {
		return
	}
	u, _ := neturl.Parse(pgtest.ServerURL(t))
	u.User = neturl.UserPassword("nobody", "hunter2")
	code, _, errOut := runMain(t, map[string]string{"DEALERBOT_DATABASE_URL": u.String()}, "alice: start\n")
	if code != 1 || !strings.Contains(errOut, "user name or password is wrong") || strings.Contains(errOut, "hunter2") {
		t.Errorf("a user the server refuses: exit %d, stderr %q", code, errOut)
	}
}
