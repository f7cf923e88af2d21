package main

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
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
	"github.com/dealerbot/dealerbot/bot/schedule"
	"github.com/dealerbot/dealerbot/bot/table"
	"github.com/dealerbot/dealerbot/engine"
	"github.com/dealerbot/dealerbot/storage/pgtest"
	"github.com/dealerbot/dealerbot/storage/postgres"
)

// The Jepsen-style run (issue 34): real processes, each reaching the database through a fault proxy
// of the test's own, faults of every kind at random moments while actions arrive at random live
// processes, and a check of the history afterwards, action by action.

// jproc is a process of the Jepsen run and the fault proxy its database connections go through.
type jproc struct {
	*proc
	proxy *pgtest.Proxy
	n     int // its number: it is named pn
}

// jclass is what the player was told about one action.
type jclass int

const (
	jApplied    jclass = iota // done: it must be stored, once
	jAlready                  // "That was already done": the test sends each line once, so it landed: stored once
	jRefused                  // a player's error (not their turn...): it must not be stored
	jUnchanged                // "nothing changed" (database out of reach, table moving...): it must not be stored
	jCannotTell               // "cannot tell yet": stored at most once
	jQueued                   // forwarded and queued for an owner: stored at most once, maybe later
	jUnanswered               // the connection broke (the process died): stored at most once
	jUnsent                   // no process took the line: nothing can have happened
)

var jclassNames = [...]string{"applied", "already done", "refused", "nothing changed", "cannot tell", "queued", "unanswered", "unsent"}

func (c jclass) String() string { return jclassNames[c] }

// may is whether an action told c may be stored (once).
func (c jclass) may() bool { return c == jCannotTell || c == jQueued || c == jUnanswered }

// landed is whether an action told c must be stored (once).
func (c jclass) landed() bool { return c == jApplied || c == jAlready }

// classify reads the answer to one line.
func classify(r console.LineReply, o outcome) jclass {
	switch {
	case o == unsent:
		return jUnsent
	case o == unknown:
		return jUnanswered
	case o == applied:
		return jApplied
	case strings.Contains(r.Text, "already done"):
		return jAlready
	case strings.Contains(r.Text, "cannot tell"):
		return jCannotTell
	case strings.Contains(r.Text, "queued"):
		return jQueued
	case strings.Contains(r.Text, "nothing changed"):
		return jUnchanged
	}
	return jRefused
}

// sentAction is one action line sent for a community, in the order they were sent.
type sentAction struct {
	user, verb string // verb is the command: "call", "raise 30"...
	to         string // the process it was sent to
	class      jclass
	reply      string
	at         time.Time     // when it was sent
	took       time.Duration // until its answer
}

// storedAction is a player action as the database holds it.
type storedAction struct {
	hand int64
	user string
	act  engine.Action
}

func (s storedAction) String() string {
	return fmt.Sprintf("hand #%d %s %v", s.hand, s.user, s.act.Kind)
}

// matches reports whether the stored action a can be the sent action s.
func (s sentAction) matches(a storedAction) bool {
	if s.user != a.user {
		return false
	}
	verb, _, _ := strings.Cut(s.verb, " ")
	switch a.act.Kind {
	case engine.Fold:
		return verb == "fold"
	case engine.Check:
		return verb == "check"
	case engine.Call:
		return verb == "call"
	case engine.Bet, engine.Raise:
		return verb == "bet" || verb == "raise"
	case engine.AllIn:
		return verb == "call" || verb == "bet" || verb == "raise"
	}
	return false
}

// checkHistory checks one community's stored actions against what was sent there and answered, and
// returns what does not fit. The actions of a community were sent one at a time, each after the
// answer to the one before, so an action answered "done" landed after every action answered "done"
// before it, and before every action sent after it; an action whose outcome the sender does not
// know (cannot tell, queued, unanswered) landed at most once, after the "done" ones sent before it,
// possibly late (a queued command runs when an owner serves the community); an action refused or
// answered "nothing changed" did not land. The stored actions are matched greedily in order: the
// next action answered "done" first when it fits, else the oldest unknown one that fits; with
// matches by player and kind this finds a matching whenever one exists (an unknown action that fits
// stays available for later, and taking the "done" one only widens what later actions may match).
func checkHistory(sent []sentAction, stored []storedAction) (problems []string) {
	var done []int
	for i, s := range sent {
		if s.class.landed() {
			done = append(done, i)
		}
	}
	next := 0      // index into done of the next action answered "done" not stored yet
	var open []int // unknown actions sent before sent[done[next]], not matched yet
	seen := 0      // sent[:seen] are in open or matched
	widen := func() {
		end := len(sent)
		if next < len(done) {
			end = done[next]
		}
		for ; seen < end; seen++ {
			if sent[seen].class.may() {
				open = append(open, seen)
			}
		}
		if seen < len(sent) && sent[seen].class.landed() {
			seen++
		}
	}
	widen()
	for j, a := range stored {
		if next < len(done) && sent[done[next]].matches(a) {
			next++
			widen()
			continue
		}
		k := slices.IndexFunc(open, func(i int) bool { return sent[i].matches(a) })
		if k >= 0 {
			open = slices.Delete(open, k, k+1)
			continue
		}
		if len(problems) < 5 {
			limit := len(sent)
			if next < len(done) {
				limit = done[next] + 1
			}
			var near []string
			for i := range limit {
				if sent[i].matches(a) && !sent[i].class.may() && !sent[i].class.landed() {
					near = append(near, fmt.Sprintf("#%d %s %s to %s, answered %s: %q", i, sent[i].user, sent[i].verb, sent[i].to, sent[i].class, sent[i].reply))
				}
			}
			if len(near) > 3 {
				near = near[len(near)-3:]
			}
			want := "none"
			if next < len(done) {
				s := sent[done[next]]
				want = fmt.Sprintf("#%d %s %s (to %s)", done[next], s.user, s.verb, s.to)
			}
			problems = append(problems, fmt.Sprintf("stored action %d (%v) is no action answered done or left unknown: the next one answered done is %s; refused or unchanged ones it could be: %v",
				j, a, want, near))
		}
	}
	if next < len(done) {
		s := sent[done[next]]
		problems = append(problems, fmt.Sprintf("%d actions answered done are not stored, the first #%d %s %s (to %s)", len(done)-next, done[next], s.user, s.verb, s.to))
	}
	return problems
}

// storedHistories reads every table's player actions in order, by community: its finished hands by
// number, then the hand in progress.
func storedHistories(t *testing.T, db *postgres.DB) map[string][]storedAction {
	t.Helper()
	ctx := context.Background()
	byTable := map[string][]table.HandRecord{}
	if err := db.EachHand(ctx, func(h table.HandRecord) error { byTable[h.Table] = append(byTable[h.Table], h); return nil }); err != nil {
		t.Fatal(err)
	}
	ts, err := db.Tables(ctx)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]storedAction{}
	for _, tr := range ts {
		c := table.Community(tr.Platform, tr.Workspace)
		hs := byTable[tr.ID]
		slices.SortStableFunc(hs, func(a, b table.HandRecord) int { return int(a.No - b.No) })
		for _, h := range hs {
			for _, a := range h.Actions {
				user := "?"
				if a.Player >= 0 && a.Player < len(h.Users) {
					user = h.Users[a.Player]
				}
				out[c] = append(out[c], storedAction{hand: h.No, user: user, act: a})
			}
		}
		if h := tr.Hand; h != nil {
			for _, a := range h.Actions {
				user := "?"
				if a.Player >= 0 && a.Player < len(h.Seats) && h.Seats[a.Player] < len(tr.Seats) {
					user = tr.Seats[h.Seats[a.Player]].User
				}
				out[c] = append(out[c], storedAction{hand: h.No, user: user, act: a})
			}
		}
	}
	return out
}

// leaseChange is a lease's epoch changing, as the test's poller saw it.
type leaseChange struct {
	community string
	from, to  string
	epoch     int64 // the epoch before
	at        time.Time
	midHand   bool // the same hand was in play before and after
}

// window is a span of time during which a fault was in force.
type window struct {
	what     string // a process's name, or a community
	owner    string // for a community, its owner when the fault began
	from, to time.Time
}

func (w window) holds(what string, at time.Time) bool {
	return w.what == what && !at.Before(w.from) && !at.After(w.to)
}

// jepsenSeed is the run's seed: DEALERBOT_JEPSEN_SEED to replay a run's choices, else a new one.
func jepsenSeed(t *testing.T) uint64 {
	if s := os.Getenv("DEALERBOT_JEPSEN_SEED"); s != "" {
		n, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			t.Fatalf("DEALERBOT_JEPSEN_SEED=%q is not a number", s)
		}
		return n
	}
	return uint64(time.Now().UnixNano())
}

// Three processes share one PostgreSQL, each through a fault proxy of the test's; six communities
// play while, at random moments, answers to COMMIT are lost (the proxy cuts the connection once the
// server committed), owners are SIGKILLed (a fresh process replaces each), owners are SIGSTOPped past
// their lease and resumed, and a paused process's transaction holds a lease row FOR SHARE until the
// server ends it. Afterwards: every action answered "done" is stored once, every action refused or
// answered "nothing changed" is not stored, every other at most once; hands are stored once; the
// ledger balances, player by player; every hand in progress replays; every community has one live
// owner; every process answers; every takeover took at most the lease plus 2 s. Each community also
// has a scheduled game that falls due during the run (its announcement and reminder soon after the
// faults begin, its table's opening within the run): each of the three was posted exactly once, and
// the stored schedule agrees.
//
// DEALERBOT_JEPSEN_SEED replays a run's choices (not its timing); DEALERBOT_JEPSEN_LOGS names a
// directory that receives every process's log, the faults' timeline and, for a community whose
// history does not fit, every action sent there with its answer and every action stored.
func TestJepsen(t *testing.T) {
	url, db := processDB(t, "-short: the Jepsen run runs real processes for about a minute")
	const lease = time.Second
	seed := jepsenSeed(t)
	t.Logf("seed %d (DEALERBOT_JEPSEN_SEED=%d replays the run's choices)", seed, seed)
	ctx := context.Background()
	ghostDB, err := postgres.Open(ctx, url) // the paused process's connections: the dealer's session settings
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ghostDB.Close() })

	var mu sync.Mutex
	var procs, all []*jproc // live ones; every one started
	next := 0               // p0 sets the tables and schedules up, then dies; p1, p2, p3 play
	const cutRate = 0.005   // of the committing rounds, once play began
	var lossy atomic.Bool
	// The channels the processes post in, shared as Discord's are (postLogger): a post sent again
	// under its key shows once, as Discord shows a message created again with its nonce.
	channelFile := filepath.Join(t.TempDir(), "channels")
	start := func() *jproc {
		mu.Lock()
		n := next
		next++
		mu.Unlock()
		proxy, through := pgtest.ProxyURL(t, url)
		p := &jproc{proc: startProc(t, through, fmt.Sprintf("p%d", n), lease, "DEALERBOT_TEST_LOG_POSTS=1", "DEALERBOT_TEST_CHANNEL="+channelFile), proxy: proxy, n: n}
		if lossy.Load() {
			proxy.CutProbability(cutRate, seed+uint64(n))
		}
		mu.Lock()
		procs = append(procs, p)
		all = append(all, p)
		mu.Unlock()
		return p
	}
	setup := start()
	live := func() []*jproc {
		mu.Lock()
		defer mu.Unlock()
		return slices.Clone(procs)
	}
	pick := func(r *rand.Rand) *jproc {
		ps := live()
		return ps[r.IntN(len(ps))]
	}
	byName := func(name string) *jproc {
		mu.Lock()
		defer mu.Unlock()
		for _, p := range procs {
			if p.name == name {
				return p
			}
		}
		return nil
	}
	// logsAbout is what the processes logged of substr: who served it when, and the answers lost.
	logsAbout := func(substr string) string {
		var lines []string
		for _, p := range all {
			for _, line := range strings.Split(p.log.String(), "\n") {
				if !strings.Contains(line, "serving community") && !strings.Contains(line, "commit answer lost") && !strings.Contains(line, "resumed hand") {
					continue // the moves and the lost answers, not every refusal
				}
				if strings.Contains(line, substr) {
					lines = append(lines, line+" ("+p.name+")")
				}
			}
		}
		slices.Sort(lines) // by time: each line begins with it
		if len(lines) > 200 {
			lines = lines[len(lines)-200:]
		}
		return strings.Join(lines, "\n")
	}

	communities := []string{"w1", "w2", "w3", "w4", "w5", "w6"}
	players := []string{"alice", "bob", "carol"}
	r0 := rand.New(rand.NewPCG(seed, 0))
	must := func(line string) {
		for i := 0; ; i++ {
			rep, o := send(pick(r0).proc, line)
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

	// Every community gets a scheduled game (issue 34: every schedule fires once): a single game in
	// channel c2 at gameAt, the first whole minute at least 25 s away, announced 2 minutes and
	// reminded 1 minute before it, so the announcement (and the reminder, unless it falls on the
	// minute before gameAt) is due as soon as the schedule is added, and the game starts inside the
	// run. p0 adds them (as the host of a table it opens in c2 and ends again) and is SIGKILLed once
	// the players' processes run: whoever claims a community after it fires what is due there at
	// once (a claim ticks the claimer's schedules), under the faults of the run. Each process writes
	// every channel message it sends to its log (postLogger), and the test counts them.
	sched0 := time.Now().UTC()
	gameAt := sched0.Truncate(time.Minute).Add(time.Minute)
	for gameAt.Sub(sched0) < 25*time.Second {
		gameAt = gameAt.Add(time.Minute)
	}
	for _, w := range communities {
		must(w + " c2 alice start")
		must(fmt.Sprintf("%s c2 alice schedule add on %s tz=UTC announce=2m remind=1m length=1h", w, gameAt.Format("2006-01-02 15:04")))
		must(w + " c2 alice end")
	}
	for range 3 {
		start()
	}
	mu.Lock()
	procs = slices.DeleteFunc(procs, func(p *jproc) bool { return p == setup })
	mu.Unlock()
	setupKilled := time.Now()
	setup.cmd.Process.Signal(syscall.SIGKILL)
	<-setup.done
	// schedPosts reads the scheduled games' posts (channel c2) from the channels the processes share,
	// by community and kind, each as "time process: text".
	schedPosts := func() map[string]map[string][]string {
		out := map[string]map[string][]string{}
		shared, err := os.ReadFile(channelFile)
		if err != nil {
			t.Errorf("the processes' channels: %v", err)
		}
		for _, line := range strings.Split(string(shared), "\n") {
			var m testPost
			if json.Unmarshal([]byte(line), &m) != nil || m.Channel != "c2" {
				continue
			}
			kind := "other"
			switch {
			case strings.HasPrefix(m.Text, "🃏 Home game on"):
				kind = "announce"
			case strings.HasPrefix(m.Text, "⏰ The game starts"):
				kind = "remind"
			case strings.Contains(m.Text, "game is open until"):
				kind = "open"
			case strings.HasPrefix(m.Text, "I could not open the table"):
				kind = "not yet"
			case strings.HasPrefix(m.Text, "I was offline and missed"):
				kind = "missed"
			}
			if out[m.Workspace] == nil {
				out[m.Workspace] = map[string][]string{}
			}
			out[m.Workspace][kind] = append(out[m.Workspace][kind], fmt.Sprintf("%s %s: %q", m.At, m.Proc, m.Text))
		}
		return out
	}

	// The lease poller: every epoch change, and whether the same hand was in play on both sides.
	var changes []leaseChange
	polling, stopPolling := context.WithCancel(ctx)
	var polled sync.WaitGroup
	polled.Add(1)
	go func() {
		defer polled.Done()
		type snap struct {
			lease bot.Lease
			hand  int64 // the hand in play, 0 between hands
		}
		prev := map[string]snap{}
		for polling.Err() == nil {
			ls, err1 := db.Communities(polling)
			ts, err2 := db.Tables(polling)
			if err1 == nil && err2 == nil {
				hands := map[string]int64{}
				for _, tr := range ts {
					if tr.Hand != nil {
						hands[table.Community(tr.Platform, tr.Workspace)] = tr.Hand.No
					}
				}
				now := time.Now()
				for _, l := range ls {
					if strings.HasPrefix(l.Community, "process/") {
						continue
					}
					s := snap{lease: l, hand: hands[l.Community]}
					if p, ok := prev[l.Community]; ok && p.lease.Epoch != l.Epoch {
						changes = append(changes, leaseChange{community: l.Community, from: p.lease.Owner, to: l.Owner, epoch: p.lease.Epoch, at: now,
							midHand: p.hand != 0 && p.hand == s.hand})
					}
					prev[l.Community] = s
				}
			}
			time.Sleep(25 * time.Millisecond)
		}
	}()

	// The players: one sender per community, one line at a time, to a random live process.
	hist := make([][]sentAction, len(communities))
	verbs := []string{"call", "check", "call", "check", "fold", "raise 30", "bet 20"}
	playing, stopPlay := context.WithCancel(ctx)
	var played sync.WaitGroup
	for i, w := range communities {
		played.Add(1)
		go func() {
			defer played.Done()
			r := rand.New(rand.NewPCG(seed, uint64(10+i)))
			for playing.Err() == nil {
				user, verb := players[r.IntN(len(players))], verbs[r.IntN(len(verbs))]
				p := pick(r)
				at := time.Now()
				rep, o := send(p.proc, fmt.Sprintf("%s c1 %s %s", w, user, verb))
				hist[i] = append(hist[i], sentAction{user: user, verb: verb, to: p.name, class: classify(rep, o), reply: rep.Text, at: at, took: time.Since(at)})
				time.Sleep(time.Duration(r.IntN(20)) * time.Millisecond)
			}
		}()
	}

	// Answers lost after COMMIT: every 0.3 to 0.7 s, the next one or two committing rounds of a random
	// live process are cut, whatever they are (a table's step, a lease renewal, an inbox answer).
	cutting, stopCutting := context.WithCancel(ctx)
	var cut sync.WaitGroup
	cut.Add(1)
	go func() {
		defer cut.Done()
		r := rand.New(rand.NewPCG(seed, 1))
		for cutting.Err() == nil {
			time.Sleep(time.Duration(300+r.IntN(400)) * time.Millisecond)
			pick(r).proxy.CutAfterCommit(1 + r.IntN(2))
		}
	}()
	// ...and besides, one committing round in 200 of every process, from its start.
	lossy.Store(true)
	for _, p := range live() {
		p.proxy.CutProbability(cutRate, seed+uint64(p.n))
	}

	// The other faults, one at a time in a random order: 20 SIGKILLs, 5 SIGSTOPs, 3 stuck transactions.
	rf := rand.New(rand.NewPCG(seed, 2))
	faults := slices.Repeat([]byte{'k'}, 20)
	faults = append(faults, slices.Repeat([]byte{'s'}, 5)...)
	faults = append(faults, slices.Repeat([]byte{'g'}, 3)...)
	rf.Shuffle(len(faults), func(i, j int) { faults[i], faults[j] = faults[j], faults[i] })
	stalls := watchStalls(t)
	var (
		takeovers, ghostWaits  []time.Duration
		withheld               []time.Duration // by takeover: the time the machine ran nothing during it (stallWatch)
		killed                 = map[string]time.Time{}
		stops, ghosts          []window
		stopsTakenOver, freed  int
		kills, stopped, stucks int
		timeline               []string // the faults, when and where
	)
	killed[setup.name] = setupKilled
	note := func(at time.Time, format string, args ...any) {
		timeline = append(timeline, at.Format("15:04:05.000 ")+fmt.Sprintf(format, args...))
	}
	// owner picks a community at random and its owner among the live processes (nil when it has
	// none right now).
	owner := func() (string, bot.Lease, *jproc) {
		w := "console/" + communities[rf.IntN(len(communities))]
		l := leaseOwners(t, db)[w]
		if !l.Live {
			return w, l, nil
		}
		return w, l, byName(l.Owner)
	}
	began := time.Now()
	for i := 0; i < len(faults); i++ {
		if time.Since(began) > 3*time.Minute {
			t.Fatalf("seed %d: %d of %d faults injected in 3 minutes: no community has a live owner to pick", seed, i, len(faults))
		}
		time.Sleep(time.Duration(150+rf.IntN(350)) * time.Millisecond)
		w, l, victim := owner()
		if victim == nil {
			i-- // not owned right now (being taken over): pick again
			continue
		}
		switch faults[i] {
		case 'k': // SIGKILL the owner; a fresh process takes its place; time the takeover
			mu.Lock()
			procs = slices.DeleteFunc(procs, func(p *jproc) bool { return p == victim })
			killed[victim.name] = time.Now()
			mu.Unlock()
			at := time.Now()
			victim.cmd.Process.Signal(syscall.SIGKILL)
			note(at, "SIGKILL %s, owner of %s", victim.name, w)
			<-victim.done
			kills++
			start()
			for {
				now := leaseOwners(t, db)[w]
				if now.Live && now.Owner != victim.name {
					takeovers = append(takeovers, time.Since(at))
					withheld = append(withheld, stalls.during(at, time.Now()))
					break
				}
				if time.Since(at) > 30*time.Second {
					t.Fatalf("seed %d: community %s not taken over 30 s after its owner %s was killed", seed, w, victim.name)
				}
				time.Sleep(20 * time.Millisecond)
			}
		case 's': // SIGSTOP the owner past its lease, then SIGCONT
			at := time.Now()
			victim.cmd.Process.Signal(syscall.SIGSTOP)
			stopped++
			taken := false
			for until := at.Add(lease + 500*time.Millisecond + time.Duration(rf.IntN(1000))*time.Millisecond); time.Now().Before(until); {
				if now := leaseOwners(t, db)[w]; now.Live && now.Owner != victim.name {
					taken = true
				}
				time.Sleep(50 * time.Millisecond)
			}
			victim.cmd.Process.Signal(syscall.SIGCONT)
			note(at, "SIGSTOP %s, owner of %s, until %s", victim.name, w, time.Now().Format("15:04:05.000"))
			stops = append(stops, window{what: victim.name, from: at, to: time.Now().Add(2 * time.Second)})
			if taken {
				stopsTakenOver++
			}
		case 'g': // a paused process's transaction holds the lease row FOR SHARE, as the owner's commit does
			tx, err := ghostDB.Pool().Begin(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := tx.Exec(ctx, "SELECT dealerbot_fence($1, $2, $3)", l.Community, l.Owner, l.Epoch); err != nil {
				tx.Rollback(ctx)
				i-- // the lease moved meanwhile: pick again
				continue
			}
			at := time.Now()
			stucks++
			note(at, "a paused transaction holds %s's lease row (owner %s, epoch %d)", w, l.Owner, l.Epoch)
			held := leaseOwners(t, db)[w]
			// The community is served again once its lease row is written (renewed or taken over),
			// which the held row forbids until the server ends the idle transaction.
			waited := time.Duration(-1)
			for time.Since(at) < 10*time.Second {
				if now := leaseOwners(t, db)[w]; now.Live && (now.Epoch != held.Epoch || now.Expires.After(held.Expires)) {
					// From its expiry, as a SIGKILLed owner's takeover, less the time the machine ran
					// nothing meanwhile.
					waited = max(0, time.Since(held.Expires)-stalls.during(held.Expires, time.Now()))
					break
				}
				time.Sleep(20 * time.Millisecond)
			}
			if waited < 0 {
				t.Errorf("seed %d: community %s not served again 10 s after a paused transaction held its lease row", seed, w)
			} else {
				ghostWaits = append(ghostWaits, waited)
			}
			time.Sleep(time.Until(at.Add(2500 * time.Millisecond)))
			if _, err := tx.Exec(ctx, "SELECT 1"); err != nil {
				freed++ // the server ended the session (idle_in_transaction_session_timeout)
			} else {
				t.Errorf("seed %d: the paused transaction on %s's lease row is still open after 2.5 s", seed, w)
			}
			tx.Rollback(ctx)
			ghosts = append(ghosts, window{what: w, owner: l.Owner, from: at, to: time.Now().Add(2 * time.Second)})
		}
	}
	// Play and lost answers go on until every scheduled game has opened (posted), at most 15 s past
	// its time.
	for {
		opened := 0
		for _, c := range schedPosts() {
			if len(c["open"]) > 0 {
				opened++
			}
		}
		if now := time.Now(); now.After(gameAt.Add(15*time.Second)) || now.After(gameAt.Add(2*time.Second)) && opened == len(communities) {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	stopCutting()
	cut.Wait()
	stopPlay()
	played.Wait()
	lossy.Store(false)
	for _, p := range all {
		p.proxy.CutAfterCommit(0)
		p.proxy.CutProbability(0, 0)
	}
	var cuts int64
	for _, p := range all {
		cuts += p.proxy.Cuts()
	}

	// Every community has exactly one live owner, a running process, and every process answers.
	time.Sleep(2 * lease)
	stopPolling()
	polled.Wait()
	names := map[string]bool{}
	for _, p := range live() {
		names[p.name] = true
	}
	owners := leaseOwners(t, db)
	for _, w := range communities {
		if l := owners["console/"+w]; !l.Live || !names[l.Owner] {
			t.Errorf("seed %d: community %s: lease %+v, not held by a running process (%v)", seed, w, l, names)
		}
	}
	var answered sync.WaitGroup
	for i, p := range live() {
		answered.Add(1)
		go func() {
			defer answered.Done()
			line := communities[i%len(communities)] + " c1 nobody table"
			if rep, o := sendWithin(p.proc, line, 5*time.Second); o != applied && o != refused {
				t.Errorf("seed %d: process %s did not answer %q within 5 s (%q): hung?\n%s", seed, p.name, line, rep.Text, p.log)
			}
		}()
	}
	answered.Wait()

	// Every hand is stored once and replays; the ledger balances, player by player.
	var nHands, perNo, perSalt int
	if err := db.Pool().QueryRow(ctx, "SELECT count(*), count(DISTINCT (table_id, no)), count(DISTINCT (table_id, no, salt)) FROM hands").Scan(&nHands, &perNo, &perSalt); err != nil {
		t.Fatal(err)
	}
	if nHands != perSalt {
		t.Errorf("seed %d: %d hand records, %d distinct (table, number, deck salt): a hand was stored twice", seed, nHands, perSalt)
	}
	if nHands != perNo {
		t.Errorf("seed %d: %d hand records, %d distinct (table, number): a hand number was used twice", seed, nHands, perNo)
	}
	if err := db.EachHand(ctx, func(h table.HandRecord) error {
		if _, err := engine.Replay(h.Setup(), h.Actions); err != nil {
			t.Errorf("seed %d: table %s: stored hand #%d does not replay: %v", seed, h.Table, h.No, err)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	ts, err := db.Tables(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(slices.DeleteFunc(slices.Clone(ts), func(tr table.TableRecord) bool { return !strings.HasSuffix(tr.ID, "/c1") })); n != len(communities) {
		t.Errorf("%d open tables in channel c1, want %d", n, len(communities))
	}
	for _, tr := range ts {
		if tr.Hand == nil {
			continue
		}
		if _, err := engine.Replay(tr.Hand.Setup(), tr.Hand.Actions); err != nil {
			t.Errorf("seed %d: table %s: hand #%d does not replay: %v", seed, tr.ID, tr.Hand.No, err)
		}
	}
	if tot, err := db.Balance(ctx); err != nil {
		t.Errorf("seed %d: ledger: %v", seed, err)
	} else if tot.BroughtIn != int64(len(communities)*len(players))*10000 {
		t.Errorf("seed %d: chips brought in %d, want %d", seed, tot.BroughtIn, len(communities)*len(players)*10000)
	}

	// Every action answered "done" is stored once, none refused or answered "nothing changed" is, the
	// others at most once: in total, per community, and action by action.
	var count [len(jclassNames)]int
	histories := storedHistories(t, db)
	stored := 0
	for i, w := range communities {
		var c [len(jclassNames)]int
		for _, s := range hist[i] {
			c[s.class]++
			count[s.class]++
		}
		got := histories["console/"+w]
		stored += len(got)
		if done, unknown := c[jApplied]+c[jAlready], c[jCannotTell]+c[jQueued]+c[jUnanswered]; len(got) < done || len(got) > done+unknown {
			t.Errorf("seed %d: community %s: %d player actions stored; %d answered done (or already done), %d not known (cannot tell, queued, unanswered): an action was lost or applied twice",
				seed, w, len(got), done, unknown)
		}
		if problems := checkHistory(hist[i], got); len(problems) > 0 {
			if dir := os.Getenv("DEALERBOT_JEPSEN_LOGS"); dir != "" {
				var b strings.Builder
				for k, s := range hist[i] {
					fmt.Fprintf(&b, "sent #%d %s %s %s to %s took %v: %s %q\n", k, s.at.Format("15:04:05.000"), s.user, s.verb, s.to, s.took.Round(time.Millisecond), s.class, s.reply)
				}
				for k, a := range got {
					fmt.Fprintf(&b, "stored %d: %v %d\n", k, a, a.act.Amount)
				}
				os.WriteFile(filepath.Join(dir, w+".history"), []byte(b.String()), 0o644)
			}
			t.Logf("seed %d: faults:\n  %s", seed, strings.Join(timeline, "\n  "))
			t.Errorf("seed %d: community %s: the stored actions do not fit the answers:\n  %s\nits tables' log lines:\n%s",
				seed, w, strings.Join(problems, "\n  "), logsAbout("console/"+w))
		}
	}
	sent := 0
	for _, n := range count {
		sent += n
	}
	if done, unknown := count[jApplied]+count[jAlready], count[jCannotTell]+count[jQueued]+count[jUnanswered]; stored < done || stored > done+unknown {
		t.Errorf("seed %d: %d player actions stored; %d answered done (or already done), %d not known: an action was lost or applied twice", seed, stored, done, unknown)
	}

	// Every scheduled game's events were posted once: its announcement, its reminder and its table's
	// opening, none as missed; and the stored schedule agrees: it moved past the game, which is open
	// (not waiting for its table), and channel c2's table is the schedule's.
	posts := schedPosts()
	scheds, err := db.Schedules(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var schedCounts []string
	for _, w := range communities {
		c := posts[w]
		schedCounts = append(schedCounts, fmt.Sprintf("%s %d/%d/%d/%d/%d", w, len(c["announce"]), len(c["remind"]), len(c["open"]), len(c["not yet"]), len(c["missed"])))
		var problems []string
		for _, k := range []string{"announce", "remind", "open"} {
			if len(c[k]) != 1 {
				problems = append(problems, fmt.Sprintf("%d %s posts, want 1", len(c[k]), k))
			}
		}
		if len(c["missed"]) > 0 {
			problems = append(problems, fmt.Sprintf("%d missed posts, want none", len(c["missed"])))
		}
		var mine []schedule.Schedule
		for _, s := range scheds {
			if s.Workspace == w {
				mine = append(mine, s)
			}
		}
		if len(mine) != 1 {
			problems = append(problems, fmt.Sprintf("%d schedules stored, want 1", len(mine)))
		} else {
			s := mine[0]
			if !s.Next.IsZero() || len(s.Open) != 1 || !s.Open[0].Start.Equal(gameAt) || s.Open[0].Waiting || s.Open[0].Opening || len(s.Posts) > 0 {
				problems = append(problems, fmt.Sprintf("stored schedule %s (version %d): next %v, announced %v, reminded %v, open %+v, %d posts waiting; want the game open, none next and none waiting",
					s.ID, s.Version, s.Next, s.Announced, s.Reminded, s.Open, len(s.Posts)))
			}
			k := slices.IndexFunc(ts, func(tr table.TableRecord) bool { return tr.ID == "console/"+w+"/c2" })
			if k < 0 || ts[k].Schedule != s.ID {
				problems = append(problems, fmt.Sprintf("channel c2's table is not schedule %s's (open %v)", s.ID, k >= 0))
			}
		}
		if len(problems) > 0 {
			var lines []string
			for _, k := range []string{"announce", "remind", "open", "not yet", "missed", "other"} {
				for _, p := range c[k] {
					lines = append(lines, k+": "+p)
				}
			}
			var logs []string
			for _, p := range all {
				for _, line := range strings.Split(p.log.String(), "\n") {
					if strings.Contains(line, "schedule") && !strings.HasPrefix(line, postPrefix) {
						logs = append(logs, line+" ("+p.name+")")
					}
				}
			}
			slices.Sort(logs)
			t.Logf("seed %d: faults:\n  %s", seed, strings.Join(timeline, "\n  "))
			t.Errorf("seed %d: community %s, the game scheduled at %s: %s\nits posts:\n  %s\nthe processes' log lines on schedules:\n%s\nits moves:\n%s",
				seed, w, gameAt.Format("15:04:05"), strings.Join(problems, "; "), strings.Join(lines, "\n  "), strings.Join(logs, "\n"), logsAbout("console/"+w))
		}
	}

	if dir := os.Getenv("DEALERBOT_JEPSEN_LOGS"); dir != "" {
		for _, p := range all {
			os.WriteFile(filepath.Join(dir, p.name+".log"), []byte(p.log.String()), 0o644)
		}
		os.WriteFile(filepath.Join(dir, "faults"), []byte(strings.Join(timeline, "\n")+"\n"), 0o644)
	}

	// What happened: faults, outcomes, takeovers, moves.
	lost := map[string]int{}
	for _, p := range all {
		for _, line := range strings.Split(p.log.String(), "\n") {
			for _, s := range []string{"commit answer lost: the step landed", "commit answer lost: the step did not land", "commit answer lost and not read back"} {
				if strings.Contains(line, s) {
					lost[s]++
				}
			}
		}
	}
	var byKill, byStop, byGhost, byGhostOwner, other, otherMid, forcedMid int
	var whys []string // why the former owner let the others go, in its words
	procLog := map[string]string{}
	for _, p := range all {
		procLog[p.name] = p.log.String()
	}
	for _, c := range changes {
		if at, ok := killed[c.from]; ok && c.at.After(at) {
			byKill++
			continue
		}
		switch {
		case slices.ContainsFunc(stops, func(w window) bool { return w.holds(c.from, c.at) }):
			byStop++
		case slices.ContainsFunc(ghosts, func(w window) bool { return w.holds(c.community, c.at) }):
			byGhost++
		case slices.ContainsFunc(ghosts, func(w window) bool { return w.owner == c.from && w.holds(w.what, c.at) }):
			byGhostOwner++ // another community of the held row's owner, whose renewals waited behind it
		default:
			other++
			if c.midHand {
				otherMid++
			}
			why := "?"
			if m := regexp.MustCompile(`msg="stopped serving community" community=` + regexp.QuoteMeta(c.community) + ` epoch=` +
				strconv.FormatInt(c.epoch, 10) + ` why="([^"]*)"`).FindStringSubmatch(procLog[c.from]); m != nil {
				why = m[1]
			} else if strings.Contains(procLog[c.from], "claim "+c.community+": the dealer cannot reach its database (unexpected EOF)") {
				why = "(no line) its claim's answer was lost after COMMIT: it did not know it held the lease"
			}
			whys = append(whys, fmt.Sprintf("%s %s→%s mid-hand=%v: %s", c.community, c.from, c.to, c.midHand, why))
			continue
		}
		if c.midHand {
			forcedMid++
		}
	}
	// Each takeover's bound is stretched by the time the machine withheld during it: the slowest
	// takeover on a machine that kept time.
	slowest, slowestWithheld := time.Duration(0), time.Duration(0)
	for i, d := range takeovers {
		if d-withheld[i] > slowest-slowestWithheld {
			slowest, slowestWithheld = d, withheld[i]
		}
	}
	slices.Sort(takeovers)
	slices.Sort(ghostWaits)
	t.Logf("faults: %d answers lost after COMMIT (table steps read back: %d landed, %d did not, %d not read back), %d SIGKILLs, %d SIGSTOPs past the lease (taken over during %d), %d stuck transactions (%d ended by the server)",
		cuts, lost["commit answer lost: the step landed"], lost["commit answer lost: the step did not land"], lost["commit answer lost and not read back"],
		kills, stopped, stopsTakenOver, stucks, freed)
	t.Logf("actions: %d sent; %d applied, %d already done, %d refused, %d nothing changed, %d cannot tell, %d queued, %d unanswered, %d unsent; %d stored",
		sent, count[jApplied], count[jAlready], count[jRefused], count[jUnchanged], count[jCannotTell], count[jQueued], count[jUnanswered], count[jUnsent], stored)
	if len(takeovers) > 0 {
		t.Logf("takeover after SIGKILL: p50 %v, max %v (lease %v), the machine ran nothing for %v of the run (%v of the slowest takeover); served again after a stuck transaction, from the lease's expiry (less the machine's stalls): %v",
			takeovers[len(takeovers)/2].Round(time.Millisecond), takeovers[len(takeovers)-1].Round(time.Millisecond), lease,
			stalls.total().Round(time.Millisecond), slowestWithheld.Round(time.Millisecond), roundAll(ghostWaits))
	}
	t.Logf("lease epoch changes: %d, %d after a kill; moves not caused by a kill: %d after a SIGSTOP, %d after a stuck transaction on the community's lease row and %d on another of its owner's (%d of these mid-hand), %d others (%d mid-hand); %d hands stored",
		len(changes), byKill, byStop, byGhost, byGhostOwner, forcedMid, other, otherMid, nHands)
	for _, w := range whys {
		t.Logf("  move: %s", w)
	}
	again := 0 // posts sent again under their key, which the channel showed once
	for _, p := range all {
		again += strings.Count(p.log.String(), againPrefix)
	}
	t.Logf("scheduled games (added %s, announced 2 min and reminded 1 min before %s): posts per community, announcement/reminder/opening/could not open yet/missed: %s; %d posts sent again under their key (shown once)",
		sched0.Format("15:04:05"), gameAt.Format("15:04:05"), strings.Join(schedCounts, ", "), again)

	// The faults happened: the run cannot pass by injecting nothing.
	if cuts < 50 {
		t.Errorf("only %d answers lost after COMMIT, want at least 50", cuts)
	}
	if n := lost["commit answer lost: the step landed"] + lost["commit answer lost: the step did not land"] + lost["commit answer lost and not read back"]; n < 5 {
		t.Errorf("only %d table steps lost their COMMIT's answer, want at least 5", n)
	}
	if kills != 20 || stopped != 5 || stucks != 3 {
		t.Errorf("%d SIGKILLs, %d SIGSTOPs, %d stuck transactions; want 20, 5 and 3", kills, stopped, stucks)
	}
	if sent < 1000 {
		t.Errorf("only %d actions sent, want at least 1,000", sent)
	}
	// The tables played: most actions sent are out of turn (refused), and about one in six is applied
	// in a healthy run, fast machine or slow (a run under -race on a busy 2-core machine applies
	// about 450 of 2,700, an idle one 1,400 of 7,900). Wedged tables apply far fewer.
	if a := count[jApplied]; a < 250 || a*10 < sent {
		t.Errorf("only %d of %d actions applied: the tables hardly played", a, sent)
	}
	if slowest-slowestWithheld > lease+2*time.Second {
		t.Errorf("seed %d: slowest takeover after a SIGKILL %v, %v of it while the machine ran nothing, want at most the lease plus 2 s (%v) besides",
			seed, slowest.Round(time.Millisecond), slowestWithheld.Round(time.Millisecond), lease+2*time.Second)
	}
	for _, w := range ghostWaits {
		if w > lease+2*time.Second {
			t.Errorf("seed %d: a community held by a stuck transaction was served again %v after its lease expired, want at most the lease plus 2 s", seed, w.Round(time.Millisecond))
		}
	}
}

func roundAll(ds []time.Duration) []time.Duration {
	out := make([]time.Duration, len(ds))
	for i, d := range ds {
		out[i] = d.Round(time.Millisecond)
	}
	return out
}

// The Jepsen run's history check, on histories written by hand.
func TestJepsenHistoryCheck(t *testing.T) {
	s := func(user, verb string, c jclass) sentAction { return sentAction{user: user, verb: verb, class: c} }
	a := func(user string, k engine.ActionKind) storedAction {
		return storedAction{hand: 1, user: user, act: engine.Action{Kind: k}}
	}
	for _, tc := range []struct {
		name   string
		sent   []sentAction
		stored []storedAction
		ok     bool
	}{
		{"done ones stored in order", []sentAction{s("ann", "call", jApplied), s("ben", "check", jRefused), s("ben", "raise 30", jApplied)},
			[]storedAction{a("ann", engine.Call), a("ben", engine.Raise)}, true},
		{"a done one lost", []sentAction{s("ann", "call", jApplied), s("ben", "call", jApplied)},
			[]storedAction{a("ann", engine.Call)}, false},
		{"a done one twice", []sentAction{s("ann", "call", jApplied)},
			[]storedAction{a("ann", engine.Call), a("ann", engine.Call)}, false},
		{"nothing changed, yet stored", []sentAction{s("ann", "fold", jUnchanged), s("ben", "call", jApplied)},
			[]storedAction{a("ann", engine.Fold), a("ben", engine.Call)}, false},
		{"refused, yet stored", []sentAction{s("ann", "fold", jRefused)},
			[]storedAction{a("ann", engine.Fold)}, false},
		{"unanswered, not stored", []sentAction{s("ann", "call", jUnanswered), s("ben", "call", jApplied)},
			[]storedAction{a("ben", engine.Call)}, true},
		{"unanswered, stored", []sentAction{s("ann", "call", jUnanswered), s("ben", "call", jApplied)},
			[]storedAction{a("ann", engine.Call), a("ben", engine.Call)}, true},
		{"unanswered, stored twice", []sentAction{s("ann", "call", jCannotTell), s("ben", "call", jApplied)},
			[]storedAction{a("ann", engine.Call), a("ann", engine.Call), a("ben", engine.Call)}, false},
		{"queued, stored late", []sentAction{s("ann", "call", jQueued), s("ben", "call", jApplied), s("cat", "fold", jApplied)},
			[]storedAction{a("ben", engine.Call), a("cat", engine.Fold), a("ann", engine.Call)}, true},
		{"unanswered, stored before a done one sent before it", []sentAction{s("ben", "call", jApplied), s("ann", "call", jUnanswered)},
			[]storedAction{a("ann", engine.Call), a("ben", engine.Call)}, false},
		{"a done one stored before one sent before it", []sentAction{s("ann", "call", jApplied), s("ben", "call", jApplied)},
			[]storedAction{a("ben", engine.Call), a("ann", engine.Call)}, false},
		{"a call all-in", []sentAction{s("ann", "call", jApplied), s("ben", "bet 20", jApplied)},
			[]storedAction{a("ann", engine.AllIn), a("ben", engine.Bet)}, true},
		{"already done: landed", []sentAction{s("ann", "fold", jAlready), s("ann", "fold", jApplied)},
			[]storedAction{a("ann", engine.Fold), a("ann", engine.Fold)}, true},
		{"already done, not stored", []sentAction{s("ann", "fold", jAlready)}, nil, false},
		{"another kind", []sentAction{s("ann", "call", jApplied)},
			[]storedAction{a("ann", engine.Check)}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			problems := checkHistory(tc.sent, tc.stored)
			if got := len(problems) == 0; got != tc.ok {
				t.Errorf("fits: %v, want %v; problems %q", got, tc.ok, problems)
			}
		})
	}
}

// stallWatch measures how long the machine ran nothing for the test: a goroutine sleeps 10 ms at a
// time, and what a sleep takes beyond that (less a millisecond of timer slack) is time no core ran
// it. On a starved machine (every core busy, as under `go test -race ./...` beside the other
// packages) the dealer's processes wait as long, so a bound on how fast they take over is a bound
// on the time the machine gave them.
type stallWatch struct {
	mu     sync.Mutex
	stalls []stall
}

type stall struct {
	end time.Time
	d   time.Duration
}

func watchStalls(t *testing.T) *stallWatch {
	w := &stallWatch{}
	done := make(chan struct{})
	t.Cleanup(func() { close(done) })
	go func() {
		const nap = 10 * time.Millisecond
		for {
			select {
			case <-done:
				return
			default:
			}
			began := time.Now()
			time.Sleep(nap)
			if late := time.Since(began) - nap - time.Millisecond; late > time.Millisecond {
				w.mu.Lock()
				w.stalls = append(w.stalls, stall{end: time.Now(), d: late})
				w.mu.Unlock()
			}
		}
	}()
	return w
}

// during returns the stalls that ended within [from, to].
func (w *stallWatch) during(from, to time.Time) time.Duration {
	w.mu.Lock()
	defer w.mu.Unlock()
	var sum time.Duration
	for _, s := range w.stalls {
		if !s.end.Before(from) && !s.end.After(to) {
			sum += s.d
		}
	}
	return sum
}

// total returns every stall.
func (w *stallWatch) total() time.Duration {
	w.mu.Lock()
	defer w.mu.Unlock()
	var sum time.Duration
	for _, s := range w.stalls {
		sum += s.d
	}
	return sum
}
