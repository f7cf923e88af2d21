package main

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/dealerbot/dealerbot/adapters/discord"
	"github.com/dealerbot/dealerbot/adapters/discord/discordtest"
	"github.com/dealerbot/dealerbot/storage/postgres"
)

// discordRig is a test's dealerbot processes serving Discord's Interactions Endpoint on one
// PostgreSQL database and one bot token, and the fake Discord they all talk to.
type discordRig struct {
	t     *testing.T
	url   string
	db    *postgres.DB
	fake  *discordtest.Server
	env   []string
	lease time.Duration

	mu    sync.Mutex
	procs []*proc
	next  int
	// gone is the last scrape of each process killed: its counters die with it.
	gone []map[string]float64
	// armed is a process about to be killed: a click sent to it rings fire, so that the kill lands
	// while the click is in flight.
	armed *proc
	fire  chan struct{}
}

// The metrics the rig scrapes.
const (
	mApplied   = `dealerbot_actions_applied_total{source="command"}`
	mTakeovers = "dealerbot_takeovers_total"
	mOwned     = "dealerbot_communities_owned"
	mForwarded = "dealerbot_commands_forwarded_total"
	m429       = `dealerbot_ratelimit_429_total{platform="discord"}`
)

var rigMetrics = []string{mApplied, mTakeovers, mOwned, mForwarded, m429}

// newDiscordRig starts a fake Discord for processes started later with start; env is
// added to every process's settings.
func newDiscordRig(t *testing.T, env ...string) *discordRig {
	url, db := processDB(t, "-short: runs real processes")
	app := discordtest.NewApp("424242")
	r := &discordRig{t: t, url: url, db: db, fake: discordtest.NewServer(t, app, "test-token"), lease: time.Second, next: 1}
	r.env = append([]string{"DISCORD_TOKEN=test-token", "DISCORD_APP_ID=" + app.ID, "DISCORD_PUBLIC_KEY=" + app.PublicKey(),
		"DEALERBOT_LISTEN_ADDR=127.0.0.1:0", "DISCORD_GATEWAY=off", "DISCORD_REST_PROXY=" + r.fake.URL}, env...)
	return r
}

// start starts n processes at once and adds them to the live ones.
func (r *discordRig) start(n int) []*proc {
	r.t.Helper()
	out := make([]*proc, n)
	var wg sync.WaitGroup
	for i := range out {
		r.mu.Lock()
		name := fmt.Sprintf("p%d", r.next)
		r.next++
		r.mu.Unlock()
		wg.Add(1)
		go func() {
			defer wg.Done()
			out[i] = startProc(r.t, r.url, name, r.lease, r.env...)
		}()
	}
	wg.Wait()
	for _, p := range out {
		if p == nil {
			r.t.FailNow() // startProc said why
		}
		if p.http == "" {
			r.t.Fatalf("%s does not listen:\n%s", p.name, p.log)
		}
	}
	r.mu.Lock()
	r.procs = append(r.procs, out...)
	r.mu.Unlock()
	return out
}

func (r *discordRig) live() []*proc {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.procs)
}

// byName is the live process named name, nil when there is none.
func (r *discordRig) byName(name string) *proc {
	for _, p := range r.live() {
		if p.name == name {
			return p
		}
	}
	return nil
}

// kill scrapes p's counters and SIGKILLs it, while a click sent to it is in flight if one comes
// within a second, and returns whether one was.
func (r *discordRig) kill(p *proc, rnd *rand.Rand) bool {
	m := scrape(r.t, p, rigMetrics...)
	fire := make(chan struct{})
	r.mu.Lock()
	r.armed, r.fire = p, fire
	r.mu.Unlock()
	inFlight := false
	select {
	case <-fire:
		inFlight = true
		time.Sleep(time.Duration(rnd.IntN(5000)) * time.Microsecond) // somewhere between receiving and answering
	case <-time.After(time.Second):
	}
	r.mu.Lock()
	r.armed = nil
	r.procs = slices.DeleteFunc(r.procs, func(q *proc) bool { return q == p })
	r.gone = append(r.gone, m)
	r.mu.Unlock()
	p.cmd.Process.Signal(syscall.SIGKILL)
	<-p.done
	return inFlight
}

// owner is the process holding community's lease now ("" when the test cannot tell). It may be
// called from any goroutine.
func (r *discordRig) owner(community string) string {
	ls, err := r.db.Communities(context.Background())
	if err != nil {
		return ""
	}
	for _, l := range ls {
		if l.Community == community && l.Live {
			return l.Owner
		}
	}
	return ""
}

func endpointOf(p *proc) string { return "http://" + p.http + discord.InteractionsPath }

// guild is one Discord server with a table in one channel and three players.
type guild struct {
	id, channel string
	players     []discordtest.User
}

func (g guild) community() string { return "discord/" + g.id }

// clickResult is what the processes answered one interaction with.
type clickResult struct {
	outcome outcome
	text    string        // the sentence of a refusal, or the reply
	took    time.Duration // from sending the click to the table message updated (applied) or the answer
	form    string        // the form a click on an amount button opened
	late    bool          // no answer within Discord's 3 s from a live process
}

// deliver sends in to p and waits for what the player sees: the answer in the body and, when it was
// a deferral, its follow-up or edit over REST.
func (r *discordRig) deliver(p *proc, in discordtest.Interaction) clickResult {
	r.mu.Lock()
	if r.armed == p {
		r.armed = nil
		close(r.fire)
	}
	r.mu.Unlock()
	sent := time.Now()
	a := r.fake.Deliver(context.Background(), endpointOf(p), in)
	if a.Err != nil {
		switch {
		case a.Status != 0 && a.Status != http.StatusOK:
			// An answer, but not an interaction response: refused as unsigned or replayed (401), or none
			// in time (503). Discord would show the user that the interaction failed.
			r.t.Errorf("%s answered an interaction with %d: %v", p.name, a.Status, a.Err)
		case errors.Is(a.Err, syscall.ECONNREFUSED):
			return clickResult{outcome: unsent}
		case errors.Is(a.Err, context.DeadlineExceeded):
			select {
			case <-p.done:
			default:
				return clickResult{outcome: unknown, late: true, took: a.Took, text: a.Err.Error()}
			}
		}
		return clickResult{outcome: unknown, text: a.Err.Error()}
	}
	res := clickResult{took: a.Took}
	webhook := "/webhooks/" + r.fake.App.ID + "/" + in.Token
	switch a.Type() {
	case 7: // the clicked message updated: applied, unless a refusal follows (refusalsWithUpdate)
		res.outcome = applied
		return res
	case 4:
		res.outcome, res.text = refused, a.Content()
		return res
	case 9:
		res.outcome, res.form = refused, a.FormID
		return res
	case 5, 6: // deferred: the reply, or the update, follows over REST
	default:
		r.t.Errorf("interaction answered with type %d: %s", a.Type(), a.Raw)
		res.outcome = refused
		return res
	}
	c, ok := r.fake.WaitFor(0, 15*time.Second, func(c discordtest.Call) bool {
		return c.Status == http.StatusOK && (c.Path == webhook+"/messages/@original" || c.Path == webhook)
	})
	switch {
	case !ok:
		res.outcome = unknown // the process died after deferring
	case c.Path == webhook+"/messages/@original" && a.Type() == 6:
		res.outcome, res.took = applied, c.At.Sub(sent)
	default:
		res.outcome, res.text, res.took = refused, c.Content(), c.At.Sub(sent)
	}
	return res
}

// refusalFollows bounds the wait for the refusals that follow a click's updates
// (refusalsWithUpdate): the adapter sends each right after its update, from the same goroutine.
const refusalFollows = 500 * time.Millisecond

// refusalsWithUpdate returns the refusals among the answers of interaction token that updated the
// clicked message, at most updated of them. A click from an earlier turn, or a repeat of one already
// applied, brings the message up to date and says privately, in a follow-up, why nothing was done;
// those two are the only refusals that come with an update, and an applied click's follow-ups (a
// player's cards) say neither. The copies of a click sent twice share the token, so the refusals are
// counted, not matched to a copy.
func (r *discordRig) refusalsWithUpdate(token string, updated int) []string {
	webhook := "/webhooks/" + r.fake.App.ID + "/" + token
	deadline := time.After(refusalFollows)
	for {
		changed := r.fake.Changed()
		var texts []string
		for _, c := range r.fake.Calls(0) {
			text := c.Content()
			if c.Method == "POST" && c.Status == http.StatusOK && c.Path == webhook &&
				(strings.Contains(text, "earlier turn") || strings.Contains(text, "already done")) {
				texts = append(texts, text)
			}
		}
		if len(texts) >= updated {
			return texts[:updated]
		}
		select {
		case <-changed:
		case <-deadline:
			return texts
		}
	}
}

// slash sends /poker sub from u to a random process and returns the reply, which must be applied.
func (r *discordRig) slash(rnd *rand.Rand, g guild, u discordtest.User, sub string, opts ...discordtest.Option) string {
	r.t.Helper()
	for try := 0; ; try++ {
		ps := r.live()
		in := r.fake.NewInteraction(discordtest.TypeCommand, g.id, g.channel, u, "", discordtest.Slash(discord.CommandName, sub, opts...))
		res := r.deliver(ps[rnd.IntN(len(ps))], in)
		if res.outcome != unknown && res.outcome != unsent {
			return res.text
		}
		if try > 5 {
			r.t.Fatalf("/poker %s: no answer: %s", sub, res.text)
		}
	}
}

// tableHeader and turnArrow find the hand's table message and the line naming the player to act.
var (
	tableHeader = regexp.MustCompile(`Hand #\d+ ·`)
	turnArrow   = regexp.MustCompile(`(?m)^▶ .*$`)
)

// table is the newest hand's table message in g's channel: its ID and what it shows now.
func (r *discordRig) table(g guild) (string, discordtest.Shown, bool) {
	calls := r.fake.Calls(0)
	for i := len(calls) - 1; i >= 0; i-- {
		c := calls[i]
		if c.Method == "POST" && c.Path == "/channels/"+g.channel+"/messages" && c.Status == http.StatusOK && tableHeader.MatchString(c.Content()) {
			s, ok := r.fake.Screen(c.ID)
			return c.ID, s, ok
		}
	}
	return "", discordtest.Shown{}, false
}

// actionButton is a betting button of the table message: its custom ID (pk1|b|TOKEN|COMMAND, or
// pk1|a|MIN|MAX|TOKEN|COMMAND for one that asks for an amount) read as Discord users never do.
type actionButton struct {
	id     string
	verb   string
	amount bool
	min    int64
}

func actionButtons(bs []discordtest.Button) []actionButton {
	var out []actionButton
	for _, b := range bs {
		parts := strings.Split(b.CustomID, "|")
		if len(parts) < 4 || parts[0] != "pk1" {
			continue
		}
		ab := actionButton{id: b.CustomID}
		cmd := parts[len(parts)-1]
		switch {
		case parts[1] == "b" && len(parts) == 4:
		case parts[1] == "a" && len(parts) == 6:
			ab.amount = true
			ab.min, _ = strconv.ParseInt(parts[2], 10, 64)
		default:
			continue
		}
		ab.verb, _, _ = strings.Cut(cmd, " ")
		switch ab.verb {
		case "fold", "check", "call", "bet", "raise":
			out = append(out, ab) // not all-in: a player out of chips would stop the table
		}
	}
	return out
}

// clickStats is what the processes answered the clicks with.
type clickStats struct {
	sync.Mutex
	applied, refused, unknown, twice, moving, late int
	local, remote                                  []time.Duration // click to table updated, by where it arrived
	sentences                                      map[string]int
}

// playGuild clicks g's table's betting buttons until ctx ends, each click at a random process and
// one in five at two at once, and counts what came back in st.
func (r *discordRig) playGuild(ctx context.Context, g guild, seed uint64, st *clickStats) {
	rnd := rand.New(rand.NewPCG(seed, 17))
	last := map[string]time.Time{} // user ID -> their last click
	for ctx.Err() == nil {
		msg, shown, ok := r.table(g)
		acts := actionButtons(shown.Buttons)
		if !ok || len(acts) == 0 {
			select { // between hands: wait for the next table message
			case <-r.fake.Changed():
			case <-time.After(100 * time.Millisecond):
			case <-ctx.Done():
			}
			continue
		}
		who := g.players[rnd.IntN(len(g.players))]
		if turn := turnArrow.FindString(shown.Content); turn != "" && rnd.IntN(4) != 0 {
			for _, p := range g.players {
				if strings.Contains(turn, p.Name) {
					who = p // mostly the player to act clicks, sometimes someone else
				}
			}
		}
		// A person clicks at most about once a second; faster, the dealer refuses (DefaultRateLimit).
		if wait := time.Until(last[who.ID].Add(time.Second)); wait > 0 {
			select {
			case <-time.After(wait):
			case <-ctx.Done():
				return
			}
		}
		last[who.ID] = time.Now()
		b := acts[rnd.IntN(len(acts))]
		in := r.fake.NewInteraction(discordtest.TypeComponent, g.id, g.channel, who, msg, discordtest.Click(b.id))
		if b.amount {
			// The amount button opens a form when the player may act (the dealer is asked first).
			ps := r.live()
			res := r.deliver(ps[rnd.IntN(len(ps))], in)
			if res.form == "" {
				r.count(st, []clickResult{res}, []bool{false}, g)
				continue
			}
			in = r.fake.NewInteraction(discordtest.TypeSubmit, g.id, g.channel, who, msg, discordtest.Submit(res.form, "amount", strconv.FormatInt(b.min, 10)))
		}
		ps := r.live()
		rnd.Shuffle(len(ps), func(i, j int) { ps[i], ps[j] = ps[j], ps[i] })
		targets := ps[:1]
		if rnd.IntN(5) == 0 && len(ps) > 1 {
			// The same interaction at two processes (a load balancer's retry). Twice at one process is
			// refused as a replay (401), as it must be.
			targets = ps[:2]
		}
		owner := r.owner(g.community())
		results := make([]clickResult, len(targets))
		local := make([]bool, len(targets))
		var wg sync.WaitGroup
		for k, p := range targets {
			local[k] = p.name == owner
			wg.Add(1)
			go func() { defer wg.Done(); results[k] = r.deliver(p, in) }()
		}
		wg.Wait()
		updated := 0
		for _, res := range results {
			if res.outcome == applied {
				updated++
			}
		}
		if updated > 0 {
			refusals := r.refusalsWithUpdate(in.Token, updated)
			for k := len(results) - 1; k >= 0 && len(refusals) > 0; k-- {
				if results[k].outcome == applied {
					results[k].outcome, results[k].text = refused, refusals[0]
					refusals = refusals[1:]
				}
			}
		}
		r.count(st, results, local, g)
	}
}

// count adds one click's answers to st.
func (r *discordRig) count(st *clickStats, results []clickResult, local []bool, g guild) {
	st.Lock()
	defer st.Unlock()
	nApplied, anyUnknown, sent := 0, false, false
	for k, res := range results {
		if res.late {
			st.late++
			r.t.Errorf("%s: a click got no answer within 3 s: %s", g.community(), res.text)
		}
		switch res.outcome {
		case applied:
			nApplied++
			if local[k] {
				st.local = append(st.local, res.took)
			} else {
				st.remote = append(st.remote, res.took)
			}
		case unknown:
			anyUnknown = true
		case refused:
			if res.form != "" {
				break
			}
			if strings.TrimSpace(res.text) == "" {
				r.t.Errorf("%s: a click refused without a sentence", g.community())
			}
			if strings.Contains(res.text, "another dealer process") || strings.Contains(res.text, "cannot reach its database") {
				st.moving++
			}
			st.sentences[firstWords(res.text)]++
		}
		sent = sent || res.outcome != unsent
	}
	if nApplied > 1 {
		st.twice++ // both got the owner's one answer: the stored count shows it applied once
	}
	switch {
	case nApplied >= 1:
		st.applied++
	case anyUnknown:
		st.unknown++
	case sent:
		st.refused++
	}
}

// scrapeAll sums the rig's metrics over the live processes.
func (r *discordRig) scrapeAll() (map[string]float64, map[*proc]map[string]float64) {
	sum, each := map[string]float64{}, map[*proc]map[string]float64{}
	for _, p := range r.live() {
		m := scrape(r.t, p, rigMetrics...)
		each[p] = m
		for k, v := range m {
			sum[k] += v
		}
	}
	return sum, each
}

// quantile is the p-th percentile of ds.
func quantile(ds []time.Duration, p int) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	ds = slices.Clone(ds)
	slices.Sort(ds)
	return ds[min(len(ds)-1, len(ds)*p/100)].Round(100 * time.Microsecond)
}

// Any process answers, over Discord's real front door: three dealerbot processes on one PostgreSQL
// serve the Interactions Endpoint (DISCORD_GATEWAY=off) for one bot token, and talk to a fake Discord
// that holds them together to the token's limits. Signed interactions, built as Discord sends them,
// go to a random process (a round robin); one in five goes to two processes at once (the same
// interaction ID, as a load balancer's retry); the owner of a community is SIGKILLed mid-hand four
// times and a fresh process takes its place. Every click is applied exactly once (the actions stored
// lie between the clicks answered as applied and those plus the unanswered) or refused with a
// sentence, none for having reached the wrong process; every answer comes within Discord's 3 s;
// chips are conserved; /readyz answers and /metrics agrees with what the test did (actions applied,
// takeovers after the kills). Prints how long a click takes to update the table message when it
// reaches the owner and when it is forwarded.
func TestAnyProcessAnswersDiscordHTTP(t *testing.T) {
	began := time.Now()
	r := newDiscordRig(t)
	// The first process uploads the card emojis; the others find them there (processes starting at
	// the same moment would upload the same names at once: Discord refuses the second of a name).
	first := r.start(1)[0]
	waitUntil(t, 20*time.Second, "the first process's card emojis", func() bool {
		return strings.Contains(first.log.String(), "card emojis up to date")
	})
	r.start(2)
	if got := r.fake.Registrations(); got != 3 {
		t.Errorf("/poker registered %d times by 3 processes with the gateway off, want once each", got)
	}
	uploads := 0
	for _, c := range r.fake.Calls(0) {
		if c.Method == "POST" && strings.HasSuffix(c.Path, "/emojis") {
			uploads++
		}
	}
	if got := r.fake.Emojis(); got != 106 || uploads != 106 {
		t.Errorf("%d card emojis, %d uploads; want 2 decks of 53, uploaded once", got, uploads)
	}

	var guilds []guild
	for i := range 6 {
		g := guild{id: strconv.Itoa(9001 + i), channel: strconv.Itoa(8001 + i)}
		for k, name := range []string{"alice", "bob", "carol"} {
			g.players = append(g.players, discordtest.User{ID: fmt.Sprintf("%d%d", 71+i, k), Name: name})
		}
		guilds = append(guilds, g)
	}
	rnd := rand.New(rand.NewPCG(5, 5))
	for _, g := range guilds {
		if rep := r.slash(rnd, g, g.players[0], "start", discordtest.Option{Name: "timer", Type: 4, Value: 0},
			discordtest.Option{Name: "buyin", Type: 4, Value: 5000}); !strings.Contains(rep, "table is open") {
			t.Fatalf("%s: /poker start answered %q", g.community(), rep)
		}
		for _, p := range g.players {
			if rep := r.slash(rnd, g, p, "join"); !strings.Contains(rep, "seat") {
				t.Fatalf("%s: %s's /poker join answered %q", g.community(), p.Name, rep)
			}
		}
		if rep := r.slash(rnd, g, g.players[0], "deal"); !strings.Contains(rep, "Dealt hand") {
			t.Fatalf("%s: /poker deal answered %q", g.community(), rep)
		}
	}
	ready := time.Since(began)

	// Play, and kill the owner of a community mid-hand four times.
	st := &clickStats{sentences: map[string]int{}}
	ctx, stop := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	for i, g := range guilds {
		wg.Add(1)
		go func() { defer wg.Done(); r.playGuild(ctx, g, uint64(i), st) }()
	}
	rk := rand.New(rand.NewPCG(9, 9))
	kills, held, inFlight := 0, 0, 0 // held: the communities the killed processes held when they died
	for deadline := time.Now().Add(40 * time.Second); kills < 4; {
		if time.Now().After(deadline) {
			var state strings.Builder
			for _, g := range guilds {
				_, shown, _ := r.table(g)
				fmt.Fprintf(&state, "%s owned by %q: %s\n", g.community(), r.owner(g.community()), shown.Content)
			}
			t.Fatalf("only %d kills mid-hand in 40 s: the tables do not play:\n%s\nthe fake's last calls:\n%s", kills, &state, r.dump(40))
		}
		time.Sleep(time.Duration(2000+rk.IntN(1500)) * time.Millisecond)
		g := guilds[rk.IntN(len(guilds))]
		victim := r.byName(r.owner(g.community()))
		if _, shown, _ := r.table(g); victim == nil || len(actionButtons(shown.Buttons)) == 0 {
			continue // being taken over, or between hands: not mid-hand
		}
		for _, l := range leaseOwners(t, r.db) {
			if l.Owner == victim.name && l.Live {
				held++
			}
		}
		if r.kill(victim, rk) {
			inFlight++
		}
		kills++
		r.start(1)
	}
	time.Sleep(time.Second)
	stop()
	wg.Wait()

	// Five quiet seconds without kills: the processes' counters of actions applied grow by
	// what the test saw applied, wherever each click arrived.
	waitUntil(t, 10*time.Second, "every community served", func() bool {
		sum, _ := r.scrapeAll()
		return int(sum[mOwned]) == len(guilds)
	})
	before, _ := r.scrapeAll()
	quiet := &clickStats{sentences: map[string]int{}}
	qctx, qstop := context.WithTimeout(context.Background(), 5*time.Second)
	defer qstop()
	for i, g := range guilds {
		wg.Add(1)
		go func() { defer wg.Done(); r.playGuild(qctx, g, uint64(100+i), quiet) }()
	}
	wg.Wait()
	after, each := r.scrapeAll()
	if quiet.unknown != 0 {
		t.Errorf("%d clicks unanswered with every process running", quiet.unknown)
	}
	if got := after[mApplied] - before[mApplied]; int(got) != quiet.applied {
		t.Errorf("the processes' metrics count %v commands applied in the quiet phase, the test saw %d applied", got, quiet.applied)
	}
	takeovers, forwarded, counted429 := 0.0, 0.0, 0.0
	for _, m := range append(slices.Collect(maps.Values(each)), r.gone...) {
		takeovers += m[mTakeovers]
		forwarded += m[mForwarded]
		counted429 += m[m429]
	}
	if int(takeovers) < held {
		t.Errorf("the processes counted %v takeovers; the %d killed held %d communities", takeovers, kills, held)
	}
	if forwarded == 0 {
		t.Error("no command was forwarded, though each went to a random process")
	}
	for _, p := range r.live() {
		resp, err := http.Get("http://" + p.http + "/readyz")
		if err != nil {
			t.Errorf("%s /readyz: %v", p.name, err)
			continue
		}
		if resp.StatusCode != http.StatusOK {
			t.Errorf("%s /readyz: %s", p.name, resp.Status)
		}
		resp.Body.Close()
	}

	// Every click applied once or refused with a sentence; chips conserved.
	stored := storedActions(t, r.db, nil)
	nApplied, nUnknown := st.applied+quiet.applied, st.unknown+quiet.unknown
	if stored < nApplied || stored > nApplied+nUnknown {
		t.Errorf("%d actions stored; %d clicks applied, %d unanswered: a click was lost or applied twice", stored, nApplied, nUnknown)
	}
	tot, err := r.db.Balance(context.Background())
	if err != nil {
		t.Errorf("chips: %v", err)
	} else if want := int64(len(guilds)*3) * 10000; tot.BroughtIn != want {
		t.Errorf("chips brought in %d, want %d", tot.BroughtIn, want)
	}
	total := st.applied + st.refused + st.unknown
	if st.moving*100 > total {
		t.Errorf("%d of %d clicks refused as reaching a process that does not serve their table (or the database out of reach): forwarding failed", st.moving, total)
	}
	if nApplied < 100 {
		t.Errorf("only %d clicks applied: the tables hardly played", nApplied)
	}
	for _, f := range r.fake.Faults() {
		t.Errorf("fake Discord: %s", f)
	}
	for _, c := range r.fake.Calls(0) {
		if strings.HasPrefix(c.Path, "/channels/") && !strings.HasPrefix(c.Path, "/channels/dm") && strings.Contains(c.Content(), "your cards") {
			t.Errorf("hole cards in a channel: %s", c)
		}
	}
	// The goals are 100 ms at the owner and 300 ms forwarded (loopback); on a shared machine the test
	// holds the quiet phase to generous bounds only, and prints the figures.
	if p99 := quantile(quiet.local, 99); p99 > time.Second {
		t.Errorf("a click at the owner updates the table in %v at the 99th percentile, want well under a second (goal 100 ms)", p99)
	}
	if p99 := quantile(quiet.remote, 99); p99 > 2*time.Second {
		t.Errorf("a forwarded click updates the table in %v at the 99th percentile, want well under 2 s (goal 300 ms)", p99)
	}
	local, remote := slices.Concat(st.local, quiet.local), slices.Concat(st.remote, quiet.remote)
	global429, channel429 := r.fake.Limited()
	t.Logf("ready in %v; %d kills (%d with a click in flight, %d communities held), takeovers counted %v, forwarded %v; clicks: %d applied (%d sent twice and both answered applied), %d refused, %d unanswered, %d stored; table updated at the owner p50 %v p99 %v (%d), forwarded p50 %v p99 %v (%d); 429s: %d global, %d channel (counted by the processes %v); refusals %v; %v in all",
		ready.Round(time.Millisecond), kills, inFlight, held, takeovers, forwarded, nApplied, st.twice+quiet.twice, st.refused+quiet.refused, nUnknown, stored,
		quantile(local, 50), quantile(local, 99), len(local), quantile(remote, 50), quantile(remote, 99), len(remote),
		global429, channel429, counted429, st.sentences, time.Since(began).Round(time.Millisecond))
	t.Logf("without kills: table updated at the owner p50 %v p99 %v (%d), forwarded p50 %v p99 %v (%d)",
		quantile(quiet.local, 50), quantile(quiet.local, 99), len(quiet.local), quantile(quiet.remote, 50), quantile(quiet.remote, 99), len(quiet.remote))
}

// dump is the fake's last n calls, one a line.
func (r *discordRig) dump(n int) string {
	var b strings.Builder
	calls := r.fake.Calls(0)
	for _, c := range calls[max(0, len(calls)-n):] {
		fmt.Fprintf(&b, "  %s\n", c)
	}
	return b.String()
}

// waitUntil polls ok until it holds, failing the test after d.
func waitUntil(t *testing.T, d time.Duration, what string, ok func() bool) {
	t.Helper()
	for deadline := time.Now().Add(d); !ok(); time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within %v", what, d)
		}
	}
}

// A command forwarded to the process that owns the table carries its interaction's token, so with
// DISCORD_HOLE_CARDS=ephemeral the owner shows the players' cards as ephemeral follow-ups on their
// newest interactions, as the process that received them would, not by DM: the players join at a
// process that does not own the table, and a deal sent there gives each their cards in the channel,
// only to them, following their join.
func TestForwardedCardsFollowTheInteraction(t *testing.T) {
	r := newDiscordRig(t, "DISCORD_HOLE_CARDS=ephemeral", "DISCORD_CARD_EMOJIS=off")
	owner := r.start(1)[0]
	g := guild{id: "9100", channel: "8100"}
	for k, name := range []string{"alice", "bob", "carol"} {
		g.players = append(g.players, discordtest.User{ID: fmt.Sprint(900 + k), Name: name})
	}
	at := func(p *proc, u discordtest.User, sub string, opts ...discordtest.Option) (string, discordtest.Interaction) {
		t.Helper()
		in := r.fake.NewInteraction(discordtest.TypeCommand, g.id, g.channel, u, "", discordtest.Slash(discord.CommandName, sub, opts...))
		res := r.deliver(p, in)
		if res.outcome != refused { // a slash command's reply is a message (type 4), whatever it says
			t.Fatalf("/poker %s at %s: %+v", sub, p.name, res)
		}
		return res.text, in
	}
	if rep, _ := at(owner, g.players[0], "start", discordtest.Option{Name: "timer", Type: 4, Value: 0}); !strings.Contains(rep, "table is open") {
		t.Fatalf("/poker start: %q", rep)
	}
	other := r.start(1)[0]
	joins := map[string]string{} // user ID -> the token of their join
	for _, p := range g.players {
		rep, in := at(other, p, "join")
		if !strings.Contains(rep, "seat") {
			t.Fatalf("%s's /poker join at %s: %q", p.Name, other.name, rep)
		}
		joins[p.ID] = in.Token
	}
	if got := r.owner(g.community()); got != owner.name {
		t.Fatalf("%s is owned by %q, want %s", g.community(), got, owner.name)
	}
	// The owner waits a moment before it uses a forwarded interaction: the time the process that
	// received it has to pass the answer on to Discord.
	time.Sleep(time.Second)
	n := r.fake.Count()
	if rep, _ := at(other, g.players[0], "deal"); !strings.Contains(rep, "Dealt hand") {
		t.Fatalf("/poker deal at %s: %q", other.name, rep)
	}
	for _, p := range g.players {
		c, ok := r.fake.WaitFor(n, 10*time.Second, func(c discordtest.Call) bool {
			return c.Method == "POST" && c.Status == http.StatusOK && strings.Contains(c.Content(), "your cards") &&
				(c.Path == "/channels/dm"+p.ID+"/messages" || c.Path == "/webhooks/"+r.fake.App.ID+"/"+joins[p.ID])
		})
		switch {
		case !ok:
			t.Errorf("%s got no cards:\n%s", p.Name, r.dump(30))
		case c.Path != "/webhooks/"+r.fake.App.ID+"/"+joins[p.ID] || c.Flags()&64 == 0:
			t.Errorf("%s's cards came as %s, want an ephemeral follow-up on their join", p.Name, c)
		}
	}
	for _, c := range r.fake.Calls(0) {
		if c.Path == "/users/@me/channels" || strings.HasPrefix(c.Path, "/channels/dm") {
			t.Errorf("a DM though every player had a live interaction: %s", c)
		}
	}
	for _, f := range r.fake.Faults() {
		t.Errorf("fake Discord: %s", f)
	}
}
