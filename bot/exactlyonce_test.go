package bot_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dealerbot/dealerbot/bot"
	"github.com/dealerbot/dealerbot/bot/bottest"
	"github.com/dealerbot/dealerbot/bot/features"
	"github.com/dealerbot/dealerbot/bot/schedule"
	"github.com/dealerbot/dealerbot/bot/table"
	"github.com/dealerbot/dealerbot/engine"
	"github.com/dealerbot/dealerbot/storage/pgtest"
	"github.com/dealerbot/dealerbot/storage/postgres"
)

// The fault a managed database gives most often: the connection breaks around COMMIT, the server
// committed and the dealer never heard. These tests put a fault-injecting proxy (pgtest.Proxy)
// between the dealer and a real PostgreSQL server and check that a step is applied exactly once and
// that what the player is told is true.

// lossyRig is an autoRig on PostgreSQL reached through a fault proxy, and a second connection to
// the same database, around the proxy, to read what is stored.
type lossyRig struct {
	*autoRig
	proxy  *pgtest.Proxy
	direct *postgres.DB
}

// newLossyRig opens a table in c1 for users through the proxy without dealing: its first user is the
// host. Every user gets the starting 10,000 when they first join.
func newLossyRig(t *testing.T, opts string, users ...string) *lossyRig {
	t.Helper()
	u := pgtest.URL(t)
	proxy, through := pgtest.ProxyURL(t, u)
	db, err := postgres.Open(context.Background(), through)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	direct, err := postgres.Open(context.Background(), u)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { direct.Close() })
	r := &autoRig{t: t, store: &flakyStore{Store: db}, chips: totalsOf(direct), users: users, log: &bottest.Buffer{},
		clk: bottest.NewClock(time.Date(2026, 11, 20, 20, 0, 0, 0, time.UTC)), chat: &surfaceChat{text: map[string]string{}}}
	d, err := bot.New(r.store, r.chat, features.With(r.store, bot.Config{Now: r.clk.Now, AfterFunc: r.clk.AfterFunc, Rand: rand.NewChaCha8([32]byte{7}),
		RateLimit: bot.RateLimit{Off: true}, PingAfter: -1, Logger: slog.New(slog.NewTextHandler(r.log, nil))}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close(context.Background()) })
	r.d = d
	r.clk.Settle = r.flush
	r.must(users[0], "start "+opts)
	return &lossyRig{autoRig: r, proxy: proxy, direct: direct}
}

// say runs a command in c1 and returns the reply, whatever it is.
func (r *lossyRig) say(user, text string) bot.Reply {
	rep := r.d.Handle(context.Background(), bot.Command{Platform: "test", Workspace: "w", Channel: "c1", User: user, UserName: user, Text: text})
	r.flush()
	return rep
}

// player is user's account as stored.
func (r *lossyRig) player(user string) table.PlayerRecord {
	r.t.Helper()
	p, ok, err := r.direct.Player(context.Background(), "w", user)
	if err != nil || !ok {
		r.t.Fatalf("player %s: ok=%v err=%v", user, ok, err)
	}
	return p
}

// A buy-in whose COMMIT's answer is lost is read back: the player is told it went through (never
// "nothing changed"), and their retry is refused as the seat it already is. The bankroll pays one
// buy-in and the ledger balances, player by player.
func TestLostCommitAnswerBuyInAppliedOnce(t *testing.T) {
	r := newLossyRig(t, "", "ann", "ben")
	r.must("ann", "join 1000")
	r.proxy.CutAfterCommit(1)
	rep := r.say("ben", "join 1000") // ben's first join: the grant and the buy-in in one commit
	if r.proxy.Cuts() != 1 {
		t.Fatalf("%d commits cut, want 1", r.proxy.Cuts())
	}
	if rep.IsError || strings.Contains(rep.Text, "nothing changed") {
		t.Fatalf("the buy-in landed, but ben was told: %q", rep.Text)
	}
	again := r.say("ben", "join 1000")
	if !again.IsError || !strings.Contains(again.Text, "already") {
		t.Fatalf("ben's retry: %+v, want a refusal saying he is seated already", again)
	}
	if p := r.player("ben"); p.Bankroll != 9000 || p.OnTable != 1000 {
		t.Fatalf("ben's account %+v, want 9,000 in the bankroll and 1,000 on the table", p)
	}
	r.conserved()
}

// When the answer is lost and the database cannot be read back either, the player is told that
// the dealer cannot tell yet (never "nothing changed"); the next command reads the table back first
// and sees the seat.
func TestLostCommitAnswerNotReadBackSaysSo(t *testing.T) {
	r := newLossyRig(t, "", "ann", "ben")
	r.must("ann", "join 1000")
	r.proxy.CutAfterCommit(1)
	r.proxy.Refuse(true) // the connection that would read it back cannot be opened
	rep := r.say("ben", "join 1000")
	if !rep.IsError || strings.Contains(rep.Text, "nothing changed") || !strings.Contains(rep.Text, "cannot tell") {
		t.Fatalf("the outcome is unknown, and ben was told: %q", rep.Text)
	}
	still := r.say("ben", "join 1000") // the database is still out of reach: nothing runs on a guess
	if !still.IsError || !strings.Contains(still.Text, "nothing changed") {
		t.Fatalf("while the database is out of reach: %q", still.Text)
	}
	r.proxy.Refuse(false)
	again := r.say("ben", "join 1000")
	if !again.IsError || !strings.Contains(again.Text, "already") {
		t.Fatalf("ben's retry once the database is back: %+v, want a refusal saying he is seated already", again)
	}
	if p := r.player("ben"); p.Bankroll != 9000 || p.OnTable != 1000 {
		t.Fatalf("ben's account %+v, want one buy-in", p)
	}
	r.conserved()
}

// A player's command that did not land (the connection broke before COMMIT reached the server) is
// answered "nothing changed", which is then true, and the retry applies it once.
func TestBrokenConnectionBeforeCommitChangesNothing(t *testing.T) {
	r := newLossyRig(t, "", "ann", "ben")
	r.must("ann", "join 1000")
	r.must("ben", "join 1000")
	r.proxy.Refuse(true)
	r.proxy.Reset()
	rep := r.say("ann", "rebuy 500")
	if !rep.IsError || !strings.Contains(rep.Text, "nothing changed") {
		t.Fatalf("a rebuy that never reached the database: %q", rep.Text)
	}
	r.proxy.Refuse(false)
	if p := r.player("ann"); p.OnTable != 1000 {
		t.Fatalf("ann has %d on the table after the failed rebuy, want 1,000", p.OnTable)
	}
	r.conserved()
}

// The dealer's own step: the clock's fold whose answer is lost is not applied twice, and the hand
// it is part of is stored once, counted once for each player.
func TestLostCommitAnswerTimeoutFoldOnce(t *testing.T) {
	for _, readBack := range []bool{true, false} {
		name := map[bool]string{true: "read back", false: "read back later"}[readBack]
		t.Run(name, func(t *testing.T) {
			r := newLossyRig(t, "timer=30", "ann", "ben")
			r.must("ann", "join 1000")
			r.must("ben", "join 1000")
			r.must("ann", "deal")
			who, p := r.toAct()
			r.advance(29 * time.Second) // the turn's reminder (at 20 s) is written; the fold is next
			r.proxy.CutAfterCommit(1)
			if !readBack {
				r.proxy.Refuse(true)
			}
			r.advance(time.Second) // the clock runs out; heads-up, the fold ends the hand
			if r.proxy.Cuts() != 1 {
				t.Fatalf("%d commits cut, want 1", r.proxy.Cuts())
			}
			if !readBack {
				r.advance(5 * time.Second) // the dealer tries again to read the table: still out of reach
				r.proxy.Refuse(false)
				r.advance(5 * time.Second)
			}
			hands, err := r.direct.Hands(context.Background(), "test/w/c1", 10)
			if err != nil || len(hands) != 1 {
				t.Fatalf("%d hands stored (err %v), want hand #1 once", len(hands), err)
			}
			if acts := hands[0].Actions; len(acts) != 1 || acts[0].Player != p || acts[0].Kind != engine.Fold {
				t.Fatalf("hand #1's actions %v, want %s's fold", acts, who)
			}
			for _, u := range []string{"ann", "ben"} {
				if pl := r.player(u); pl.Hands != 1 {
					t.Fatalf("%s has %d hands counted, want 1", u, pl.Hands)
				}
			}
			r.conserved()
		})
	}
}

// A process paused inside a transaction that holds a community's lease row (a new player's first
// join, a schedule write) neither stalls a process that starts afterwards nor the takeover: the
// server ends the idle transaction (idle_in_transaction_session_timeout), the start-up has a
// deadline, and the community is served by the new process within the lease plus 2 s of its
// expiry.
func TestStuckTransactionStallsNobody(t *testing.T) {
	for _, late := range []bool{false, true} {
		name := map[bool]string{false: "starts while the lease lives", true: "starts after it expired"}[late]
		t.Run(name, func(t *testing.T) { stuckTransaction(t, late) })
	}
}

func stuckTransaction(t *testing.T, late bool) {
	u := pgtest.URL(t)
	ghost, err := postgres.Open(context.Background(), u) // the paused process's connections
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ghost.Close() })
	const lease = 2 * time.Second
	l, err := ghost.Claim(context.Background(), "test/w", "ghost", lease)
	if err != nil {
		t.Fatal(err)
	}
	expires := time.Now().Add(lease)
	tx, err := ghost.Pool().Begin(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback(context.Background())
	if _, err := tx.Exec(context.Background(), "SELECT dealerbot_fence($1, $2, $3)", l.Community, l.Owner, l.Epoch); err != nil {
		t.Fatal(err)
	}
	// The ghost is paused now, its transaction open and the lease row held FOR SHARE.
	if late {
		time.Sleep(time.Until(expires) + 100*time.Millisecond)
	}
	db, err := postgres.Open(context.Background(), u)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	began := time.Now()
	started := make(chan *bot.Dealer, 1)
	go func() {
		d, err := bot.New(db, &surfaceChat{text: map[string]string{}}, features.With(db, bot.Config{Owner: "b", Lease: lease, DealDelay: -1, RateLimit: bot.RateLimit{Off: true}}))
		if err != nil {
			t.Error(err)
		}
		started <- d
	}()
	var d *bot.Dealer
	select {
	case d = <-started:
	case <-time.After(10 * time.Second):
		t.Fatal("bot.New still waits 10 s after it began, behind the paused transaction")
	}
	if d == nil {
		return
	}
	t.Cleanup(func() { d.Close(context.Background()) })
	t.Logf("bot.New took %v", time.Since(began).Round(time.Millisecond))
	// B serves the community once the ghost's lease expired: a table opens there.
	time.Sleep(time.Until(expires))
	cctx, cancel := context.WithTimeout(context.Background(), lease+2*time.Second)
	defer cancel()
	rep := d.Handle(cctx, bot.Command{Platform: "test", Workspace: "w", Channel: "c1", User: "ann", UserName: "ann", Text: "start"})
	if rep.IsError {
		t.Fatalf("start at the paused owner's community %v after its lease expired: %s", time.Since(expires).Round(time.Millisecond), rep.Text)
	}
	t.Logf("served %v after the lease expired", time.Since(expires).Round(time.Millisecond))
	if d.Own().Served() != 1 {
		t.Fatalf("served %d communities, want 1", d.Own().Served())
	}
}

// pausingSchedules holds the first schedule write it is armed for until released: the owner's tick
// is then between reading a schedule and writing its progress back.
type pausingSchedules struct {
	*postgres.DB
	mu      sync.Mutex
	armed   bool
	paused  chan struct{} // closed when a write is held
	release chan struct{}
}

func (p *pausingSchedules) PutSchedule(ctx context.Context, s *schedule.Schedule) error {
	p.mu.Lock()
	hold := p.armed
	p.armed = false
	p.mu.Unlock()
	if hold {
		close(p.paused)
		<-p.release
	}
	return p.DB.PutSchedule(ctx, s)
}

// `schedule remove` and `schedule skip` sent to a process that does not own the schedule's
// community go to the owner, like a table's command, so they are applied in order with the owner's
// tick: a removed schedule does not come back, and a skipped game stays skipped, even when the
// command arrives while the owner's tick is between reading the schedule and writing it back.
func TestScheduleVerbsGoToTheOwner(t *testing.T) {
	for _, verb := range []string{"remove", "skip"} {
		t.Run(verb, func(t *testing.T) {
			db, err := postgres.Open(context.Background(), pgtest.URL(t))
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { db.Close() })
			ctx := context.Background()
			now := time.Date(2026, 11, 25, 21, 0, 0, 0, time.UTC)
			clock := func() time.Time { return now }
			store := &pausingSchedules{DB: db, paused: make(chan struct{}), release: make(chan struct{})}
			a := startShared(t, store, "A", &schedChat{}, clock)
			as, err := features.NewScheduler(a, store, features.ScheduleConfig{Now: clock})
			if err != nil {
				t.Fatal(err)
			}
			b := startShared(t, db, "B", &schedChat{}, clock)
			if _, err := features.NewScheduler(b, db, features.ScheduleConfig{Now: clock}); err != nil {
				t.Fatal(err)
			}
			cmd := bot.Command{Platform: "discord", Workspace: "g1", Channel: "c1", User: "alice", UserName: "alice"}
			do := func(d *bot.Dealer, text string) bot.Reply {
				c := cmd
				c.Text = text
				return d.Handle(ctx, c)
			}
			if r := do(a, "start"); r.IsError {
				t.Fatal(r.Text)
			}
			if r := do(a, "schedule add weekly thu 20:00 tz=UTC"); r.IsError {
				t.Fatal(r.Text)
			}
			all, err := db.Schedules(ctx)
			if err != nil || len(all) != 1 {
				t.Fatalf("schedules %v err %v", all, err)
			}
			id := all[0].ID
			store.mu.Lock()
			store.armed = true // A's next schedule write waits: its tick announces the game
			store.mu.Unlock()
			ticked := make(chan error, 1)
			go func() { ticked <- as.Tick(ctx) }()
			<-store.paused
			answered := make(chan bot.Reply, 1)
			go func() { answered <- do(b, "schedule "+verb+" "+id) }() // alice is the schedule's host
			select {
			case r := <-answered: // applied beside the owner's tick: what the owner writes next undoes it
				answered <- r
			case <-time.After(500 * time.Millisecond): // forwarded, waiting for the owner's tick
			}
			close(store.release)
			if err := <-ticked; err != nil {
				t.Logf("tick: %v", err)
			}
			if r := <-answered; r.IsError {
				t.Fatalf("schedule %s on B: %s", verb, r.Text)
			}
			if err := as.Tick(ctx); err != nil {
				t.Fatal(err)
			}
			all, err = db.Schedules(ctx)
			if err != nil {
				t.Fatal(err)
			}
			switch verb {
			case "remove":
				if len(all) != 0 {
					t.Fatalf("the removed schedule came back: %+v", all)
				}
			case "skip":
				if len(all) != 1 || len(all[0].Skip) != 1 {
					t.Fatalf("schedule after the skip: %+v, want the next game skipped", all)
				}
			}
		})
	}
}

// The owner applies forwarded commands in order within a table, tables and communities in parallel:
// a forwarded command for one server is not held up by another server's slow step (here a deal whose
// hole-card DMs take seconds to send).
func TestInboxServesCommunitiesInParallel(t *testing.T) {
	db, err := postgres.Open(context.Background(), pgtest.URL(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	ctx := context.Background()
	chatA := &surfaceChat{text: map[string]string{}}
	slow := func(m bot.Message) {
		if m.Workspace == "g1" && m.User != "" {
			time.Sleep(1200 * time.Millisecond)
		}
	}
	chatA.onSend.Store(&slow)
	a := startShared(t, db, "A", chatA, time.Now)
	do := func(d *bot.Dealer, workspace, user, text string) bot.Reply {
		return d.Handle(ctx, bot.Command{Platform: "discord", Workspace: workspace, Channel: "c1", User: user, UserName: user, Text: text})
	}
	for _, g := range []string{"g1", "g2"} {
		for _, line := range [][2]string{{"ann", "start"}, {"ann", "join 1000"}, {"ben", "join 1000"}} {
			if r := do(a, g, line[0], line[1]); r.IsError {
				t.Fatalf("%s %s: %s", g, line[1], r.Text)
			}
		}
	}
	b := startShared(t, db, "B", &surfaceChat{text: map[string]string{}}, time.Now)
	dealt := make(chan bot.Reply, 1)
	go func() { dealt <- do(b, "g1", "ann", "deal") }() // forwarded to A, whose DMs for g1 are slow
	time.Sleep(500 * time.Millisecond)
	began := time.Now()
	if r := do(b, "g2", "ann", "table"); r.IsError {
		t.Fatalf("table at g2 through B: %s", r.Text)
	}
	if waited := time.Since(began); waited > time.Second {
		t.Fatalf("the forwarded `table` for g2 waited %v behind g1's deal", waited.Round(time.Millisecond))
	}
	if r := <-dealt; r.IsError {
		t.Fatalf("the forwarded deal at g1: %s", r.Text)
	}
}

// Forwarded commands that waited too long for an owner are answered "too late" and not applied (a
// typed command after 2 minutes, an interaction after 15), and every answered command's interaction
// token is gone from the inbox.
func TestInboxRowsExpire(t *testing.T) {
	db, err := postgres.Open(context.Background(), pgtest.URL(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	ctx := context.Background()
	a := startShared(t, db, "A", &surfaceChat{text: map[string]string{}}, time.Now)
	do := func(user, text string) bot.Reply {
		return a.Handle(ctx, bot.Command{Platform: "discord", Workspace: "g1", Channel: "c1", User: user, UserName: user, Text: text})
	}
	if r := do("ann", "start"); r.IsError {
		t.Fatal(r.Text)
	}
	queue := func(id, user, followup string, age time.Duration) {
		t.Helper()
		cmd := bot.Command{Platform: "discord", Workspace: "g1", Channel: "c1", User: user, UserName: user, Text: "join 1000", ID: id, Followup: followup}
		data, err := json.Marshal(cmd)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := db.Pool().Exec(ctx, `INSERT INTO inbox (id, community, cmd, created_at) VALUES ($1, 'discord/g1', $2, now() - $3::interval)`,
			id, data, fmt.Sprintf("%d seconds", int(age.Seconds()))); err != nil {
			t.Fatal(err)
		}
		if _, err := db.Pool().Exec(ctx, "SELECT pg_notify('dealerbot_inbox', 'discord/g1')"); err != nil {
			t.Fatal(err)
		}
	}
	queue("typed-late", "ben", "", 3*time.Minute)
	queue("click-late", "cat", "app/1/secret-token-1", 16*time.Minute)
	queue("click-in-time", "dan", "app/2/secret-token-2", 5*time.Minute)
	answer := func(id string) (string, string) {
		t.Helper()
		for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
			var reply, cmd []byte
			if err := db.Pool().QueryRow(ctx, "SELECT reply, cmd FROM inbox WHERE id = $1", id).Scan(&reply, &cmd); err != nil {
				t.Fatal(err)
			}
			if reply != nil {
				return string(reply), string(cmd)
			}
		}
		t.Fatalf("%s was not answered", id)
		return "", ""
	}
	for _, id := range []string{"typed-late", "click-late"} {
		reply, cmd := answer(id)
		if !strings.Contains(reply, "Too late") || !strings.Contains(reply, "nothing changed") {
			t.Errorf("%s answered %s, want too late and nothing changed", id, reply)
		}
		if strings.Contains(cmd, "secret-token") {
			t.Errorf("%s's token is still in the inbox after its answer: %s", id, cmd)
		}
	}
	reply, cmd := answer("click-in-time")
	if strings.Contains(reply, "Too late") || strings.Contains(cmd, "secret-token") {
		t.Errorf("the click in time: answered %s, its command now %s: want it applied and its token gone", reply, cmd)
	}
	tr, _, err := db.Table(ctx, "discord/g1/c1")
	if err != nil {
		t.Fatal(err)
	}
	var seated []string
	for _, s := range tr.Seats {
		if s.User != "" {
			seated = append(seated, s.User)
		}
	}
	if fmt.Sprint(seated) != "[dan]" {
		t.Fatalf("seated %v, want only dan (the commands too late change nothing)", seated)
	}
}

// A process that lost a community cannot answer a command forwarded to it: the answer is written
// under the lease, so the command stays for the new owner, whose answer is the one the sender gets.
func TestInboxAnswerNeedsTheLease(t *testing.T) {
	db, err := postgres.Open(context.Background(), pgtest.URL(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	ctx := context.Background()
	old, err := db.Claim(ctx, "discord/g1", "A", time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Pool().Exec(ctx, "UPDATE leases SET expires_at = now() WHERE community = 'discord/g1'"); err != nil {
		t.Fatal(err)
	}
	cur, err := db.Claim(ctx, "discord/g1", "B", time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	cmd := bot.Command{Platform: "discord", Workspace: "g1", Channel: "c1", User: "ann", Text: "table", ID: "fwd-1"}
	got := make(chan bot.Reply, 1)
	go func() {
		r, err := db.Forward(ctx, "discord/g1", cmd)
		if err != nil {
			t.Error(err)
		}
		got <- r
	}()
	var fs []bot.Forwarded
	for deadline := time.Now().Add(5 * time.Second); len(fs) == 0 && time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if fs, err = db.Pending(ctx, []string{"discord/g1"}); err != nil {
			t.Fatal(err)
		}
	}
	if len(fs) != 1 {
		t.Fatalf("pending %v, want the forwarded command", fs)
	}
	err = db.Answer(table.WithFence(ctx, old.Fence()), fs[0].Seq, bot.Reply{Text: "from the former owner"})
	if !errors.Is(err, bot.ErrNotOwner) {
		t.Fatalf("the former owner's answer: %v, want ErrNotOwner", err)
	}
	if err := db.Answer(table.WithFence(ctx, cur.Fence()), fs[0].Seq, bot.Reply{Text: "from the owner"}); err != nil {
		t.Fatal(err)
	}
	if r := <-got; r.Text != "from the owner" {
		t.Fatalf("the sender got %q, want the owner's answer", r.Text)
	}
}

// A process with more than its share hands a community to one with room only between hands, the
// one idle longest: a table with a hand in play stays where it is (a move pauses it for a restore).
func TestHandBackOnlyBetweenHands(t *testing.T) {
	for _, st := range sharedStores {
		t.Run(st.name, func(t *testing.T) {
			db := st.open(t)
			t.Cleanup(func() { db.Close() }) // after the dealers' (cleanups run last first): they renew leases until closed
			ctx := context.Background()
			a := startShared(t, db, "A", &schedChat{}, nil)
			do := func(d *bot.Dealer, g, user, text string) bot.Reply {
				return d.Handle(ctx, bot.Command{Platform: "discord", Workspace: g, Channel: "c", User: user, UserName: user, Text: text})
			}
			for _, g := range []string{"g1", "g2"} { // g2 sorts last: the old choice
				for _, line := range [][2]string{{"ann", "start timer=off"}, {"ann", "join 1000"}, {"ben", "join 1000"}} {
					if r := do(a, g, line[0], line[1]); r.IsError {
						t.Fatalf("%s: %s", line[1], r.Text)
					}
				}
			}
			if r := do(a, "g2", "ann", "deal"); r.IsError { // a hand in play at g2
				t.Fatal(r.Text)
			}
			b := startShared(t, db, "B", &schedChat{}, nil)
			deadline := time.Now().Add(15 * time.Second)
			for len(b.Own().Owned()) == 0 {
				if time.Now().After(deadline) {
					t.Fatalf("after 15 s B serves nothing; A serves %v", a.Own().Owned())
				}
				time.Sleep(100 * time.Millisecond)
			}
			time.Sleep(2 * time.Second) // more scans: nothing else moves
			if got := b.Own().Owned(); len(got) != 1 || got[0] != "discord/g1" {
				t.Fatalf("B serves %v, want discord/g1 (idle), not g2, whose hand is in play", got)
			}
			if got := a.Own().Owned(); len(got) != 1 || got[0] != "discord/g2" {
				t.Fatalf("A serves %v, want discord/g2", got)
			}
		})
	}
}

// An admin's adjustment whose COMMIT answer is lost is read back: the admin is told it went through,
// and it is applied once.
func TestLostCommitAnswerAdjustOnce(t *testing.T) {
	r := newLossyRig(t, "", "ann", "ben")
	r.must("ben", "join 1000")
	adjust := func() bot.Reply {
		rep := r.d.Handle(context.Background(), bot.Command{Platform: "test", Workspace: "w", Channel: "c1", User: "ann", UserName: "ann",
			Admin: true, Text: "adjust @ben 500"})
		r.flush()
		return rep
	}
	r.proxy.CutAfterCommit(1)
	rep := adjust()
	if r.proxy.Cuts() != 1 {
		t.Fatalf("%d commits cut, want 1", r.proxy.Cuts())
	}
	if rep.IsError || !strings.Contains(rep.Text, "9,500") {
		t.Fatalf("the adjustment landed, but ann was told: %q", rep.Text)
	}
	if p := r.player("ben"); p.Bankroll != 9500 {
		t.Fatalf("ben's bankroll %d, want 9,500: the adjustment once", p.Bankroll)
	}
	r.proxy.CutAfterCommit(1)
	r.proxy.Refuse(true) // and now it cannot be read back either
	rep = adjust()
	if !rep.IsError || !strings.Contains(rep.Text, "cannot tell") {
		t.Fatalf("an adjustment whose fate is unknown: %q", rep.Text)
	}
	r.proxy.Refuse(false)
	if p := r.player("ben"); p.Bankroll != 10000 {
		t.Fatalf("ben's bankroll %d, want 10,000: the second adjustment landed once", p.Bankroll)
	}
}

// silentAnswers is an owner's store whose separate answers never arrive: the owner dies right after
// the step of a forwarded command, before it answers.
type silentAnswers struct{ *postgres.DB }

func (silentAnswers) Answer(ctx context.Context, seq int64, r bot.Reply) error {
	<-ctx.Done()
	return ctx.Err()
}

// A forwarded command's reply is stored in the same transaction as the step it causes: the sender
// hears "done" even when the owner dies between the step and its answer.
func TestForwardedReplyLandsWithItsStep(t *testing.T) {
	db, err := postgres.Open(context.Background(), pgtest.URL(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	ctx := context.Background()
	a := startShared(t, silentAnswers{db}, "A", &surfaceChat{text: map[string]string{}}, time.Now)
	if r := a.Handle(ctx, bot.Command{Platform: "discord", Workspace: "g1", Channel: "c1", User: "ann", UserName: "ann", Text: "start"}); r.IsError {
		t.Fatal(r.Text)
	}
	b := startShared(t, db, "B", &surfaceChat{text: map[string]string{}}, time.Now)
	r := b.Handle(ctx, bot.Command{Platform: "discord", Workspace: "g1", Channel: "c1", User: "ben", UserName: "ben", Text: "join 1000"})
	if r.IsError || !strings.Contains(r.Text, "seat") {
		t.Fatalf("ben's join through B, whose owner never answers separately: %+v, want the join's reply", r)
	}
}
