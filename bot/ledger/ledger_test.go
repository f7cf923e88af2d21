package ledger_test

import (
	"context"
	"errors"
	"fmt"
	"github.com/dealerbot/dealerbot/bot/bottest"
	"log/slog"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dealerbot/dealerbot/bot"
	"github.com/dealerbot/dealerbot/bot/errs"
	"github.com/dealerbot/dealerbot/bot/ledger"
	"github.com/dealerbot/dealerbot/bot/table"
	"github.com/dealerbot/dealerbot/bot/vocab"
	"github.com/dealerbot/dealerbot/engine"
	"github.com/dealerbot/dealerbot/render"
	"github.com/dealerbot/dealerbot/storage"
)

// fakeEnv is what the verbs get instead of a dealer's: a fixed clock, one key per command text, and
// a record of what the verbs asked of it.
type fakeEnv struct {
	now time.Time
	// landed answers Landed; nil: the write landed.
	landed error
	// asked are the Landed and Style calls, in order.
	asked []string
}

func (e *fakeEnv) Now() time.Time               { return e.now }
func (e *fakeEnv) Log() *slog.Logger            { return slog.New(slog.DiscardHandler) }
func (e *fakeEnv) Key(cmd vocab.Command) string { return "key." + cmd.Text }
func (e *fakeEnv) Landed(key string, cause error) error {
	e.asked = append(e.asked, fmt.Sprintf("landed %s: %v", key, errors.Is(cause, errs.ErrOutcomeUnknown)))
	return e.landed
}
func (e *fakeEnv) Style(platform string, k render.CardKind) render.CardStyle {
	e.asked = append(e.asked, fmt.Sprintf("style %s %d", platform, k))
	return render.CardStyle{Kind: k}
}
func (e *fakeEnv) Tell(context.Context, vocab.Command, string, render.Message) {}
func (e *fakeEnv) Zone(context.Context, vocab.Command) *time.Location          { return time.UTC }
func (e *fakeEnv) Serves(string) bool                                          { return true }
func (e *fakeEnv) Do(context.Context, vocab.Command) vocab.Reply               { return vocab.Reply{} }

// faultyStore stands between the verbs and the database: fail, when set, is what Commit returns after
// (landed) or instead of committing.
type faultyStore struct {
	*storage.DB
	fail   error
	landed bool
}

func (s *faultyStore) Commit(ctx context.Context, c table.Change) error {
	if s.fail == nil {
		return s.DB.Commit(ctx, c)
	}
	if s.landed {
		if err := s.DB.Commit(ctx, c); err != nil {
			return err
		}
	}
	return fmt.Errorf("commit: %w", s.fail)
}

func openStore(t *testing.T) *faultyStore {
	t.Helper()
	db, err := storage.Open(filepath.Join(t.TempDir(), "ledger.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return &faultyStore{DB: db}
}

func commit(t *testing.T, db *faultyStore, c table.Change) {
	t.Helper()
	if err := db.DB.Commit(context.Background(), c); err != nil {
		t.Fatal(err)
	}
}

// grant opens a bankroll of chips for user in workspace w.
func grant(t *testing.T, db *faultyStore, user, name string, chips int64) {
	t.Helper()
	commit(t, db, table.Change{Ledger: []table.LedgerEntry{{Kind: table.KindGrant, Workspace: "w", User: user, Name: name, Bankroll: chips}}})
}

// play deals a heads-up hand between ann and ben at id (bottest.PlayHand, with this file's seed).
func play(t *testing.T, id string, no int64, at time.Time, kinds ...engine.ActionKind) table.HandRecord {
	t.Helper()
	return bottest.PlayHand(t, id, no, 11, at, kinds...)
}

// storeHands stores three finished hands at test/w/c1: a session of the first two, and one more.
func storeHands(t *testing.T, db *faultyStore) []table.HandRecord {
	t.Helper()
	start := time.Date(2026, 1, 9, 20, 0, 0, 0, time.UTC)
	hands := []table.HandRecord{
		play(t, "test/w/c1", 1, start.Add(time.Minute), engine.Fold),
		play(t, "test/w/c1", 2, start.Add(2*time.Minute), engine.Call, engine.Check, engine.Check, engine.Check, engine.Check, engine.Check, engine.Check, engine.Check),
		play(t, "test/w/c1", 3, start.Add(48*time.Hour), engine.AllIn, engine.Call),
	}
	for i := range hands {
		commit(t, db, table.Change{Hand: &hands[i]})
	}
	commit(t, db, table.Change{Session: &table.SessionRecord{Table: "test/w/c1", Started: start, Ended: start.Add(time.Hour), HandNo: 2}})
	return hands
}

func run(t *testing.T, vs vocab.Verbs, env vocab.Env, cmd vocab.Command) (vocab.Reply, error) {
	t.Helper()
	fields := strings.Fields(cmd.Text)
	v, ok := vs[fields[0]]
	if !ok {
		t.Fatalf("no verb %q", fields[0])
	}
	return v.Run(context.Background(), env, cmd, fields[1:])
}

// as is cmd from user in channel c1 of workspace w.
func as(user, text string) vocab.Command {
	return vocab.Command{Platform: "test", Workspace: "w", Channel: "c1", User: user, UserName: user, Text: text}
}

// must runs text as user and fails the test on an error.
func must(t *testing.T, vs vocab.Verbs, env vocab.Env, user, text string) vocab.Reply {
	t.Helper()
	r, err := run(t, vs, env, as(user, text))
	if err != nil {
		t.Fatalf("%s: %v", text, err)
	}
	return r
}

// refused runs text as user and checks the refusal's sentence.
func refused(t *testing.T, vs vocab.Verbs, env vocab.Env, user, text, want string) {
	t.Helper()
	if _, err := run(t, vs, env, as(user, text)); err == nil || err.Error() != want {
		t.Errorf("%s: %v, want %q", text, err, want)
	}
}

// TestVerbsNeeds: adjust is for admins; the others for anyone, history without a table.
func TestVerbsNeeds(t *testing.T) {
	vs := ledger.Verbs(openStore(t), 10000)
	var names []string
	for name, v := range vs {
		names = append(names, name)
		want := vocab.Anyone
		if name == "adjust" {
			want = vocab.Admin
			if v.Refusal != "adjust bankrolls" {
				t.Errorf("adjust's refusal: %q", v.Refusal)
			}
		}
		if v.Need != want {
			t.Errorf("%s needs %d, want %d", name, v.Need, want)
		}
	}
	slices.Sort(names)
	if got := strings.Join(names, " "); got != "adjust chips export history leaderboard verify" {
		t.Errorf("verbs %s", got)
	}
}

// TestChipsAndLeaderboard: chips says the starting bankroll bot.Config gives a new player before they
// play, and the bankroll after; the leaderboard lists the workspace's players.
func TestChipsAndLeaderboard(t *testing.T) {
	db := openStore(t)
	env := &fakeEnv{}
	for _, tt := range []struct {
		cfg  bot.Config
		want string
	}{
		{bot.Config{}, "10,000"},
		{bot.Config{StartingBankroll: 2500}, "2,500"},
		{bot.Config{StartingBankroll: bot.NoStartingBankroll}, "0"},
	} {
		r := must(t, ledger.Verbs(db, tt.cfg.NewBankroll()), env, "ann", "chips")
		if want := "You have not played yet: your bankroll starts at " + tt.want + " chips when you first `join` a table."; r.Text != want {
			t.Errorf("chips with a starting bankroll of %d: %q, want %q", tt.cfg.StartingBankroll, r.Text, want)
		}
	}
	vs := ledger.Verbs(db, 10000)
	if r := must(t, vs, env, "ann", "leaderboard"); r.Text != "Nobody has played here yet: `start` a table and `join` it." {
		t.Errorf("empty leaderboard: %q", r.Text)
	}
	grant(t, db, "ann", "Ann", 10000)
	grant(t, db, "ben", "Ben", 10000)
	commit(t, db, table.Change{Ledger: []table.LedgerEntry{{Kind: table.KindBuyIn, Workspace: "w", User: "ann", Bankroll: -1000, OnTable: 1000}}})
	if r := must(t, vs, env, "ann", "chips"); r.Text != "Your bankroll: 9,000 chips, and 1,000 on tables." {
		t.Errorf("chips: %q", r.Text)
	}
	want := render.Leaderboard("Leaderboard", []render.LeaderRow{{Name: "Ann", Chips: 10000}, {Name: "Ben", Chips: 10000}}).Text
	if r := must(t, vs, env, "zed", "leaderboard"); r.Text != want || !strings.Contains(r.Text, "Ann") || !strings.Contains(r.Text, "Ben") {
		t.Errorf("leaderboard:\n%s\nwant\n%s", r.Text, want)
	}
}

// TestAdjust: an adjustment is recorded once under the request's key (env.Key); a lost answer is read
// back (env.Landed), and the verb answers as the read-back says; a bankroll that would go below zero
// is refused before and at the commit.
func TestAdjust(t *testing.T) {
	db := openStore(t)
	env := &fakeEnv{now: time.Date(2026, 2, 1, 0, 0, 0, 0, time.UTC)}
	vs := ledger.Verbs(db, 10000)
	refused(t, vs, env, "admin", "adjust @ann 500", "ann has no bankroll here yet: they get one when they first join a table.")
	grant(t, db, "ann", "Ann", 10000)
	if r := must(t, vs, env, "admin", "adjust <@ann> 1,500"); r.Text != "ann's bankroll is now 11,500 chips." {
		t.Errorf("adjust: %q", r.Text)
	}
	// The same request again (its key) changes nothing.
	if _, err := run(t, vs, env, as("admin", "adjust <@ann> 1,500")); !errors.Is(err, bot.ErrApplied) {
		t.Errorf("the same adjustment again: %v, want ErrApplied", err)
	}
	bankroll := func() int64 {
		p, _, err := db.Player(context.Background(), "w", "ann")
		if err != nil {
			t.Fatal(err)
		}
		return p.Bankroll
	}
	if b := bankroll(); b != 11500 {
		t.Fatalf("ann holds %d, want 11,500", b)
	}
	es, err := db.Ledger(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if e := es[len(es)-1]; e.Kind != table.KindAdjust || e.User != "ann" || e.Bankroll != 1500 || e.Table != "test/w/c1" || !e.Time.Equal(env.now) {
		t.Errorf("the ledger's adjustment: %+v", e)
	}

	// The answer lost after the write landed: read back, and answered as done.
	db.fail, db.landed = errs.ErrOutcomeUnknown, true
	if r := must(t, vs, env, "admin", "adjust ann -500"); r.Text != "ann's bankroll is now 11,000 chips." {
		t.Errorf("adjust with its answer lost: %q", r.Text)
	}
	if want := []string{"landed key.adjust ann -500: true"}; !slices.Equal(env.asked, want) || bankroll() != 11000 {
		t.Errorf("asked %q, ann holds %d; want %q and 11,000", env.asked, bankroll(), want)
	}
	// Lost and not read back: the read-back's error.
	db.landed = false
	env.landed = errors.New("the write did not land")
	if _, err := run(t, vs, env, as("admin", "adjust ann -1")); err == nil || err.Error() != "the write did not land" || bankroll() != 11000 {
		t.Errorf("adjust not landed: %v, ann holds %d", err, bankroll())
	}
	// Taken below zero at the commit (another write came first).
	db.fail = errs.ErrInsufficient
	refused(t, vs, env, "admin", "adjust ann -500", "ann's bankroll no longer holds 500 chips: check it with `leaderboard` and try again.")
	db.fail = nil
	for _, tt := range []struct{ text, want string }{
		{"adjust ann", "Write `adjust @name 500` to add chips or `adjust @name -500` to take them."},
		{"adjust ann 0", `"0" is not a number of chips other than 0: write ` + "`adjust @ann 500` or `adjust @ann -500`."},
		{"adjust ann lots", `"lots" is not a number of chips other than 0: write ` + "`adjust @ann 500` or `adjust @ann -500`."},
		{"adjust ann -11001", "ann's bankroll holds only 11,000 chips: take at most that."},
		{"adjust ann 99999999999999999999", "An adjustment can add or take at most 1,000,000,000,000 chips at a time."},
		{"adjust " + strings.Repeat("x", 101) + " 5", `"` + strings.Repeat("x", 39) + `…" is not a player: write ` + "`adjust @name 500` with the player's name or mention."},
	} {
		refused(t, vs, env, "admin", tt.text, tt.want)
	}
}

// TestHistoryAndVerify: history replays a stored hand as text, in the open table's cards (env.Style)
// or a new table's; verify opens the public cards to anyone and the asker's own hole cards to them
// alone.
func TestHistoryAndVerify(t *testing.T) {
	db := openStore(t)
	env := &fakeEnv{}
	vs := ledger.Verbs(db, 10000)
	refused(t, vs, env, "ben", "history", "There is no game in this channel yet: type `start` to open a table.")
	hands := storeHands(t, db)
	for _, tt := range []struct{ text, want string }{
		{"history", "Hand #3 "},
		{"history 2", "Hand #2 "},
		{"history #1", "Hand #1 "},
		{"history last 3", "Hand #1 "},
	} {
		if r := must(t, vs, env, "ben", tt.text); !strings.HasPrefix(r.Text, tt.want) || !strings.HasSuffix(r.Text, "Type `verify "+tt.want[6:7]+"` to check this hand's deck.") {
			t.Errorf("%s:\n%s", tt.text, r.Text)
		}
	}
	if len(env.asked) != 0 {
		t.Errorf("without an open table history asked %q", env.asked)
	}
	usage := "Write `history` for the last hand, `history 15` for hand #15, or `history last 3` for the third most recent (up to 100)."
	for _, tt := range []struct{ text, want string }{
		{"history 4", "Hand #4 has not finished in this channel: the latest is #3 (`history 3`)."},
		{"history last 4", "This channel has only 3 finished hands: ask for `history last 3` or less."},
		{"history 0", usage},
		{"history last", usage},
	} {
		refused(t, vs, env, "ben", tt.text, tt.want)
	}
	settings := table.DefaultSettings()
	settings.Cards = render.CardText
	commit(t, db, table.Change{Table: &table.TableRecord{ID: "test/w/c1", Platform: "test", Workspace: "w", Channel: "c1", Button: -1, Settings: settings}})
	must(t, vs, env, "ben", "history")
	if want := []string{fmt.Sprintf("style test %d", render.CardText)}; !slices.Equal(env.asked, want) {
		t.Errorf("history at an open table asked %q, want %q", env.asked, want)
	}

	if r := must(t, vs, env, "zed", "verify"); r.Text != render.VerifyHelp {
		t.Errorf("verify: %q", r.Text)
	}
	hr := hands[0] // ben folded before the flop: no card is public
	h, err := engine.Replay(hr.Setup(), hr.Actions)
	if err != nil {
		t.Fatal(err)
	}
	proofs := map[string]string{}
	for _, u := range []string{"ann", "ben", "zed"} {
		proofs[u] = must(t, vs, env, u, "verify 1").Text
		if !strings.Contains(proofs[u], render.DeckCommitment(hr.Deck, hr.Salt)) {
			t.Errorf("%s's proof does not hold the commitment:\n%s", u, proofs[u])
		}
	}
	for p, u := range hr.Users {
		for _, c := range h.HoleCards(p) {
			salt := render.CardSalt(hr.Salt, slices.Index(hr.Deck[:], c))
			for asker, proof := range proofs {
				if strings.Contains(proof, salt) != (asker == u) {
					t.Errorf("%s's card %s opened to %s: %v", u, c, asker, asker != u)
				}
			}
		}
	}
	old := play(t, "test/w/c1", 4, time.Date(2026, 1, 20, 0, 0, 0, 0, time.UTC), engine.Fold)
	old.Proof = 0
	commit(t, db, table.Change{Hand: &old})
	for _, tt := range []struct{ text, want string }{
		{"verify 4", "Hand #4 was dealt before card-by-card proofs: its deck cannot be opened without showing folded cards."},
		{"verify 5", "Hand #5 has not finished at this table: `verify` works for finished hands."},
		{"verify x", "Write `verify 12` with the number of a finished hand at this table."},
	} {
		refused(t, vs, env, "zed", tt.text, tt.want)
	}
}

// TestExport: export sends the asker a file of their own hands (the last ones, or the last session's
// when no table is open), in PokerStars text or OHH; bad arguments are refused with a sentence.
func TestExport(t *testing.T) {
	db := openStore(t)
	env := &fakeEnv{}
	vs := ledger.Verbs(db, 10000)
	storeHands(t, db)
	r := must(t, vs, env, "ann", "export")
	if r.Text != "Your 3 hands from this table, with your own cards and nobody else's unshown ones: import the file into your tracker." ||
		len(r.Files) != 1 || r.Files[0].Name != "dealerbot-hands-1-3.txt" || r.Files[0].ContentType != "text/plain; charset=utf-8" {
		t.Fatalf("export: %q, %+v", r.Text, r.Files)
	}
	text := string(r.Files[0].Data)
	if strings.Count(text, "PokerStars Hand #") != 3 || strings.Count(text, "Dealt to Ann [") != 3 || strings.Contains(text, "Dealt to Ben") {
		t.Errorf("ann's export:\n%s", text)
	}
	r = must(t, vs, env, "ben", "export session")
	if n := strings.Count(string(r.Files[0].Data), "PokerStars Hand #"); n != 2 || r.Files[0].Name != "dealerbot-hands-1-2.txt" {
		t.Errorf("export session holds %d hands (%s), want the last session's 2", n, r.Files[0].Name)
	}
	r = must(t, vs, env, "ben", "export 1 ohh")
	if r.Text != "Your 1 hand from this table, with your own cards and nobody else's unshown ones: import the file into your tracker." ||
		r.Files[0].Name != "dealerbot-hands-3-3.json" || r.Files[0].ContentType != "application/json" || strings.Count(string(r.Files[0].Data), "\n") != 1 {
		t.Errorf("export 1 ohh: %q, %s %s", r.Text, r.Files[0].Name, r.Files[0].ContentType)
	}
	refused(t, vs, env, "zed", "export", "You have no finished hands at this table yet.")
	refused(t, vs, env, "ann", "export lots", "Write `export` for your last 20 hands here, `export 100` for the last 100 (up to 1000), `export session` for this session's, and add `ohh` for JSON.")
	if _, err := run(t, vs, env, vocab.Command{Platform: "test", Workspace: "w", Channel: "c2", User: "ann", Text: "export session"}); err == nil ||
		err.Error() != "This channel has had no session with a hand yet: `export 50` sends your last 50 hands here." {
		t.Errorf("export session in a channel without one: %v", err)
	}
}

// TestExportFilter: dealerbot export's filter picks hands by table, time, player (with their hand
// index) and game.
func TestExportFilter(t *testing.T) {
	h := play(t, "discord/g/chan", 1, time.Date(2026, 1, 9, 20, 0, 0, 0, time.UTC), engine.Fold)
	for _, tt := range []struct {
		f    ledger.ExportFilter
		ok   bool
		hero int
	}{
		{ledger.ExportFilter{}, true, -1},
		{ledger.ExportFilter{Table: "chan"}, true, -1},
		{ledger.ExportFilter{Table: "other"}, false, -1},
		{ledger.ExportFilter{Since: h.Time.Add(time.Second)}, false, -1},
		{ledger.ExportFilter{Player: "ben"}, true, 1},
		{ledger.ExportFilter{Player: "ANN"}, true, 0},
		{ledger.ExportFilter{Player: "zed"}, false, -1},
		{ledger.ExportFilter{Game: "holdem"}, true, -1},
		{ledger.ExportFilter{Game: "plo"}, false, -1},
	} {
		if ok, hero := tt.f.Pick(h); ok != tt.ok || hero != tt.hero {
			t.Errorf("%+v: %v %d, want %v %d", tt.f, ok, hero, tt.ok, tt.hero)
		}
	}
	var b strings.Builder
	if err := ledger.WriteExport(&b, ledger.FormatPHH, ledger.ExportHand(h, 0)); err == nil {
		t.Error("phh is written as a stream")
	}
	if err := ledger.WriteExport(&b, ledger.FormatPokerStars, ledger.ExportHand(h, 0)); err != nil || !strings.Contains(b.String(), "Dealt to Ann [") {
		t.Errorf("pokerstars: %v\n%s", err, b.String())
	}
}

func (e *fakeEnv) Post(context.Context, vocab.Command, string, string, render.Message) error {
	return nil
}

func (e *fakeEnv) Fence(ctx context.Context, _ string) (context.Context, bool) { return ctx, true }
