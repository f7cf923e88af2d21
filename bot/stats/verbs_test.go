package stats_test

import (
	"bytes"
	"context"
	"github.com/dealerbot/dealerbot/bot/bottest"
	"log/slog"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dealerbot/dealerbot/bot/money"
	"github.com/dealerbot/dealerbot/bot/stats"
	"github.com/dealerbot/dealerbot/bot/table"
	"github.com/dealerbot/dealerbot/bot/vocab"
	"github.com/dealerbot/dealerbot/engine"
	"github.com/dealerbot/dealerbot/render"
	"github.com/dealerbot/dealerbot/storage"
)

// fakeEnv is what the verbs get instead of a dealer's: a fixed clock and the channel's time zone.
type fakeEnv struct {
	now  time.Time
	zone *time.Location
	logs bytes.Buffer
}

func (e *fakeEnv) Now() time.Time                   { return e.now }
func (e *fakeEnv) Log() *slog.Logger                { return slog.New(slog.NewTextHandler(&e.logs, nil)) }
func (e *fakeEnv) Key(cmd vocab.Command) string     { return "key." + cmd.Text }
func (e *fakeEnv) Landed(_ string, err error) error { return err }
func (e *fakeEnv) Style(_ string, k render.CardKind) render.CardStyle {
	return render.CardStyle{Kind: k}
}
func (e *fakeEnv) Tell(context.Context, vocab.Command, string, render.Message) {}
func (e *fakeEnv) Zone(context.Context, vocab.Command) *time.Location {
	if e.zone == nil {
		return time.UTC
	}
	return e.zone
}
func (e *fakeEnv) Serves(string) bool                            { return true }
func (e *fakeEnv) Do(context.Context, vocab.Command) vocab.Reply { return vocab.Reply{} }

// countingStore counts the walks over the stored hands.
type countingStore struct {
	*storage.DB
	walks atomic.Int32
}

func (s *countingStore) EachHandOf(ctx context.Context, prefix string, fn func(table.HandRecord) error) error {
	s.walks.Add(1)
	return s.DB.EachHandOf(ctx, prefix, fn)
}

func openStore(t *testing.T) *countingStore {
	t.Helper()
	db, err := storage.Open(filepath.Join(t.TempDir(), "stats.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return &countingStore{DB: db}
}

// play deals a heads-up hand between ann and ben at id (bottest.PlayHand, with this file's seed).
func play(t *testing.T, id string, no int64, at time.Time, kinds ...engine.ActionKind) table.HandRecord {
	t.Helper()
	return bottest.PlayHand(t, id, no, 7, at, kinds...)
}

func commit(t *testing.T, db *countingStore, c table.Change) {
	t.Helper()
	if err := db.Commit(context.Background(), c); err != nil {
		t.Fatal(err)
	}
}

func run(t *testing.T, vs vocab.Verbs, env vocab.Env, cmd vocab.Command) (vocab.Reply, error) {
	t.Helper()
	fields := strings.Fields(cmd.Text)
	name, args := fields[0], fields[1:]
	if len(args) > 0 {
		if _, ok := vs[name+" "+args[0]]; ok {
			name, args = name+" "+args[0], args[1:]
		}
	}
	v, ok := vs[name]
	if !ok {
		t.Fatalf("no verb %q", name)
	}
	return v.Run(context.Background(), env, cmd, args)
}

var ann = vocab.Command{Platform: "test", Workspace: "w", Channel: "c1", User: "ann", UserName: "Ann"}

func as(cmd vocab.Command, text string) vocab.Command { cmd.Text = text; return cmd }

// TestStatsVerbWithoutADealer: a scheduled session of three hands (the last an all-in run out) and one
// more hand after it, stored directly. `stats` gives the asker's line over all time worked out from
// the stored hands, with the money the session's night paid; `stats ben season` the season's (the
// session alone); the chart draws the session; refusals say what to write.
func TestStatsVerbWithoutADealer(t *testing.T) {
	db := openStore(t)
	env := &fakeEnv{now: time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)}
	start := time.Date(2026, 1, 9, 20, 0, 0, 0, time.UTC)
	hands := []table.HandRecord{
		play(t, "test/w/c1", 1, start.Add(time.Minute), engine.Fold),
		play(t, "test/w/c1", 2, start.Add(2*time.Minute), engine.Call, engine.Check, engine.Bet, engine.Fold),
		play(t, "test/w/c1", 3, start.Add(3*time.Minute), engine.AllIn, engine.Call),
	}
	for i := range hands {
		commit(t, db, table.Change{Hand: &hands[i]})
	}
	net := map[string]int64{}
	for _, h := range hands {
		for p, u := range h.Users {
			net[u] += h.Final[p] - h.Stacks[p]
		}
	}
	var standings []table.Standing
	for _, u := range []string{"ann", "ben"} {
		standings = append(standings, table.Standing{User: u, Name: strings.ToUpper(u[:1]) + u[1:], BoughtIn: 1000, CashedOut: 1000 + net[u]})
	}
	sess := table.SessionRecord{Table: "test/w/c1", Schedule: "1", Started: start, Ended: start.Add(time.Hour), HandBase: 0, HandNo: 3, Standings: standings}
	night := money.Event{Time: sess.Ended, Kind: money.KindSession, Community: "test/w", Table: sess.Table, Started: start,
		Currency: "USD", Value: money.Value{Units: 1, Scale: 2}}
	for _, st := range standings {
		night.Shares = append(night.Shares, money.Share{User: st.User, Name: st.Name, Chips: net[st.User], Amount: net[st.User]})
	}
	commit(t, db, table.Change{Session: &sess, Money: []money.Event{night}})
	later := play(t, "test/w/c1", 4, start.Add(48*time.Hour), engine.Fold)
	commit(t, db, table.Change{Hand: &later})

	// What the figures say, worked out here from the stored hands.
	line := func(u string, hs ...table.HandRecord) string {
		tl := stats.NewTally()
		for i := range hs {
			tl.Add(&hs[i], nil)
		}
		stats.Settle(tl)
		return tl.Lines[u].Text()
	}
	vs := stats.Verbs(db)
	r, err := run(t, vs, env, as(ann, "stats"))
	if err != nil {
		t.Fatal(err)
	}
	want := "Stats of Ann · all time (1 session)\n" + line("ann", append(hands, later)...) +
		"\nMoney: " + money.Signed(net["ann"], "USD") + " (from the games played for money)\n`help stats` says how each figure is worked out."
	if r.Text != want {
		t.Errorf("stats:\n%s\nwant\n%s", r.Text, want)
	}
	r, err = run(t, vs, env, as(ann, "stats <@ben> season"))
	if err != nil {
		t.Fatal(err)
	}
	if want := "Stats of Ben · this season (1 session)\n" + line("ben", hands...) + "\nMoney: "; !strings.HasPrefix(r.Text, want) {
		t.Errorf("stats ben season:\n%s\nwant it to begin\n%s", r.Text, want)
	}
	r, err = run(t, vs, env, as(ann, "stats chart season ann ben"))
	if err != nil || len(r.Files) != 1 || !bytes.HasPrefix(r.Files[0].Data, []byte("\x89PNG")) ||
		!strings.HasPrefix(r.Text, "Cumulative results over 1 session (this season). Dashed: all-in adjusted") {
		t.Errorf("stats chart season: %q, %d files, %v", r.Text, len(r.Files), err)
	}
	if r, err := run(t, vs, env, as(ann, "help stats")); err != nil || r.Text != stats.Definitions {
		t.Errorf("help stats: %q, %v", r.Text, err)
	}
	for _, tt := range []struct{ text, want string }{
		{"stats zed", `"zed" played no hand here in all time.`},
		{"stats ann ben", "`stats` shows one player at a time: `stats alice season`. `stats chart season alice bob` draws several."},
		{"stats 2026-02-01..2026-01-01", `The period "2026-02-01..2026-01-01" ends before it begins: put the earlier date first.`},
		{"stats 2026..", "Write a period as `session`, `season`, `all` or two dates like 2026-01-01..2026-03-31."},
		{"stats chart season zed", `"zed" played no session here in this season.`},
		{"stats " + strings.Repeat("a ", 13), "`stats` takes at most 12 words: a period and the players."},
	} {
		if _, err := run(t, vs, env, as(ann, tt.text)); err == nil || err.Error() != tt.want {
			t.Errorf("%s: %v, want %q", tt.text, err, tt.want)
		}
	}
	if _, err := run(t, vs, env, as(vocab.Command{Platform: "test", Workspace: "w", Channel: "c2", User: "ann"}, "stats session")); err == nil ||
		err.Error() != "This channel has had no session with a hand yet: `stats all` covers every table here." {
		t.Errorf("stats session in a channel without one: %v", err)
	}
}

// TestStatsPeriodInTheChannelsZone: a date range is read in the channel's time zone (env.Zone): a
// hand at 23:30 UTC on 1 January is on 2 January at UTC+1.
func TestStatsPeriodInTheChannelsZone(t *testing.T) {
	db := openStore(t)
	h := play(t, "test/w/c1", 1, time.Date(2026, 1, 1, 23, 30, 0, 0, time.UTC), engine.Fold)
	commit(t, db, table.Change{Hand: &h})
	vs := stats.Verbs(db)
	for _, tt := range []struct {
		zone     *time.Location
		jan1     bool // the hand is in 2026-01-01..2026-01-01
		jan2Only bool // the hand is in 2026-01-02..2026-01-02
	}{
		{time.UTC, true, false},
		{time.FixedZone("UTC+1", 3600), false, true},
	} {
		env := &fakeEnv{zone: tt.zone}
		_, err1 := run(t, vs, env, as(ann, "stats 2026-01-01..2026-01-01"))
		_, err2 := run(t, vs, env, as(ann, "stats 2026-01-02..2026-01-02"))
		if (err1 == nil) != tt.jan1 || (err2 == nil) != tt.jan2Only {
			t.Errorf("zone %s: 1 January %v, 2 January %v", tt.zone, err1, err2)
		}
	}
}

// TestSeasonChartSharesTheFigures: the season's chart is the one `stats chart season` draws, and a
// Stats works out a finished session's figures once: after `stats season`, neither the chart nor the
// stats walk the stored hands again. A channel without a season gets no chart.
func TestSeasonChartSharesTheFigures(t *testing.T) {
	db := openStore(t)
	env := &fakeEnv{}
	start := time.Date(2026, 1, 9, 20, 0, 0, 0, time.UTC)
	h1 := play(t, "test/w/c1", 1, start.Add(time.Minute), engine.AllIn, engine.Call)
	h2 := play(t, "test/w/c1", 2, start.Add(2*time.Minute), engine.Fold)
	commit(t, db, table.Change{Hand: &h1})
	commit(t, db, table.Change{Hand: &h2})
	commit(t, db, table.Change{Session: &table.SessionRecord{Table: "test/w/c1", Schedule: "1", Started: start, Ended: start.Add(time.Hour), HandNo: 2,
		Standings: []table.Standing{{User: "ann", Name: "Ann", BoughtIn: 1000, CashedOut: 1100}, {User: "ben", Name: "Ben", BoughtIn: 1000, CashedOut: 900}}}})
	st := stats.New(db)
	if _, err := run(t, st.Verbs(), env, as(ann, "stats season")); err != nil {
		t.Fatal(err)
	}
	walks := db.walks.Load()
	files := st.SeasonChart(context.Background(), env, as(ann, "leaderboard season"))
	chart, err := run(t, st.Verbs(), env, as(ann, "stats chart season"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 1 || !bytes.Equal(files[0].Data, chart.Files[0].Data) {
		t.Errorf("the season's chart (%d files) is not the one `stats chart season` draws", len(files))
	}
	if _, err := run(t, st.Verbs(), env, as(ann, "stats season")); err != nil {
		t.Fatal(err)
	}
	if n := db.walks.Load() - walks; n != 0 {
		t.Errorf("the stored hands were walked %d more times after the session's figures were worked out", n)
	}
	if files := st.SeasonChart(context.Background(), env, vocab.Command{Platform: "test", Workspace: "w", Channel: "c2"}); files != nil {
		t.Errorf("a channel without a season got %d files", len(files))
	}
	if env.logs.Len() > 0 {
		t.Errorf("logged: %s", env.logs.String())
	}
}

func (e *fakeEnv) Post(context.Context, vocab.Command, string, string, render.Message) error {
	return nil
}

func (e *fakeEnv) Fence(ctx context.Context, _ string) (context.Context, bool) { return ctx, true }
