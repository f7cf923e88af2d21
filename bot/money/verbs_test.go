package money_test

import (
	"context"
	"fmt"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dealerbot/dealerbot/bot/errs"
	"github.com/dealerbot/dealerbot/bot/money"
	"github.com/dealerbot/dealerbot/bot/vocab"
	"github.com/dealerbot/dealerbot/render"
	"github.com/dealerbot/dealerbot/storage"
)

// The money verbs run here without a dealer: on a bbolt store, with a fake env (the clock, the
// private and channel messages it was asked to send) and fake tables.

type sent struct {
	user string // "" for a post in the channel
	msg  render.Message
}

// fakeEnv is the dealer's side of a verb: a clock, keys, and what the verbs sent.
type fakeEnv struct {
	now    time.Time
	keys   int
	zone   *time.Location
	serves map[string]bool // nil: every community
	sent   []sent
	did    []vocab.Command // what Do ran
	landed error           // what Landed says
}

func (e *fakeEnv) Now() time.Time    { return e.now }
func (e *fakeEnv) Log() *slog.Logger { return slog.New(slog.DiscardHandler) }
func (e *fakeEnv) Key(cmd vocab.Command) string {
	if cmd.ID != "" {
		return cmd.ID
	}
	e.keys++
	return fmt.Sprintf("k%d", e.keys)
}
func (e *fakeEnv) Landed(string, error) error { return e.landed }
func (e *fakeEnv) Style(string, render.CardKind) render.CardStyle {
	return render.CardStyle{Kind: render.CardText}
}
func (e *fakeEnv) Tell(_ context.Context, _ vocab.Command, user string, m render.Message) {
	e.sent = append(e.sent, sent{user, m})
}
func (e *fakeEnv) Zone(context.Context, vocab.Command) *time.Location {
	if e.zone == nil {
		return time.UTC
	}
	return e.zone
}
func (e *fakeEnv) Serves(c string) bool { return e.serves == nil || e.serves[c] }
func (e *fakeEnv) Do(_ context.Context, cmd vocab.Command) vocab.Reply {
	e.did = append(e.did, cmd)
	return vocab.Reply{Text: "did " + cmd.Text}
}
func (e *fakeEnv) Fence(ctx context.Context, _ string) (context.Context, bool) { return ctx, true }

func (e *fakeEnv) Post(_ context.Context, _ vocab.Command, _, _ string, m render.Message) error {
	e.sent = append(e.sent, sent{"", m})
	return nil
}

// to returns the texts sent to user ("" the channel), and forgets every message sent.
func (e *fakeEnv) to(user string) []string {
	var out []string
	for _, s := range e.sent {
		if s.user == user {
			out = append(out, s.msg.Text)
		}
	}
	e.sent = nil
	return out
}

// fakeTables is the channel's table as money reads it.
type fakeTables struct {
	open  map[string]money.Table
	names map[string]string
}

func (t *fakeTables) Open(_ context.Context, id string) (money.Table, bool, error) {
	tb, ok := t.open[id]
	return tb, ok, nil
}
func (t *fakeTables) PlayerName(_ context.Context, _, user string) (string, error) {
	return t.names[user], nil
}
func (t *fakeTables) Settings(ctx context.Context, env vocab.Env, cmd vocab.Command, args []string) vocab.Reply {
	cmd.Text = "\x00set " + strings.Join(args, " ")
	return env.Do(ctx, cmd)
}

const channel = "console/W/C" // the table's ID

type rig struct {
	t      *testing.T
	ctx    context.Context
	store  *storage.DB
	env    *fakeEnv
	tables *fakeTables
	verbs  vocab.Verbs
}

func newRig(t *testing.T) *rig {
	db, err := storage.Open(filepath.Join(t.TempDir(), "money.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	r := &rig{t: t, ctx: context.Background(), store: db, env: &fakeEnv{now: time.Date(2026, 3, 6, 23, 0, 0, 0, time.UTC)},
		tables: &fakeTables{open: map[string]money.Table{}, names: map[string]string{}}}
	r.verbs = money.Verbs(db, r.tables)
	return r
}

// run runs line as user's command in the channel.
func (r *rig) run(user, line string) (vocab.Reply, error) {
	r.t.Helper()
	cmd := vocab.Command{Platform: "console", Workspace: "W", Channel: "C", User: user, UserName: user, Text: line}
	// The verb's name is the line's first two words when the money verbs have one of that name
	// ("export money"), else its first word, as the dealer looks it up.
	words := strings.Fields(line)
	v, ok := vocab.Verb{}, false
	args := words
	if len(words) > 1 {
		v, ok = r.verbs[strings.ToLower(words[0]+" "+words[1])]
		args = words[2:]
	}
	if !ok && len(words) > 0 {
		v, ok = r.verbs[strings.ToLower(words[0])]
		args = words[1:]
	}
	if !ok {
		r.t.Fatalf("no verb for %q", line)
	}
	return v.Run(r.ctx, r.env, cmd, args)
}

// must runs line and returns its reply's text, failing on a refusal.
func (r *rig) must(user, line string) string {
	r.t.Helper()
	rep, err := r.run(user, line)
	if err != nil {
		r.t.Fatalf("%s: %s: %v", user, line, err)
	}
	return rep.Text
}

// refused runs line and returns the sentence it is refused with.
func (r *rig) refused(user, line string) string {
	r.t.Helper()
	rep, err := r.run(user, line)
	if err == nil {
		r.t.Fatalf("%s: %s: not refused: %s", user, line, rep.Text)
	}
	text, internal := errs.Reply(err)
	if internal {
		r.t.Fatalf("%s: %s: internal error %v", user, line, err)
	}
	return text
}

// settle ends a money session at the channel's table with the players' net chips (value 0.01 USD),
// as the actor commits it: the events SettleSession works out, appended after the book's head.
func (r *rig) settle(started time.Time, nets ...any) string {
	r.t.Helper()
	v, err := money.ParseValue("0.01")
	if err != nil {
		r.t.Fatal(err)
	}
	s := money.Session{Community: "console/W", Platform: "console", Channel: "C", Table: channel, Host: "alice", HostName: "alice",
		Started: started, Ended: r.env.now, Value: v, Currency: "USD", RemindAfter: 48 * time.Hour}
	for i := 0; i < len(nets); i += 2 {
		s.Results = append(s.Results, money.Share{User: nets[i].(string), Name: nets[i].(string), Chips: int64(nets[i+1].(int))})
	}
	evs, after, msg, err := money.SettleSession(r.ctx, r.store, r.env.Log(), s)
	if err != nil {
		r.t.Fatal(err)
	}
	if err := r.store.AppendMoney(r.ctx, "console/W", after, evs); err != nil {
		r.t.Fatal(err)
	}
	return msg.Text
}

func wants(t *testing.T, what, got string, parts ...string) {
	t.Helper()
	for _, p := range parts {
		if !strings.Contains(got, p) {
			t.Errorf("%s lacks %q:\n%s", what, p, got)
		}
	}
}

// TestPaymentVerb: a handle is saved, shown to its owner, and removed.
func TestPaymentVerb(t *testing.T) {
	r := newRig(t)
	wants(t, "no handle", r.must("bob", "payment"), "You have no payment handle here")
	wants(t, "saved", r.must("bob", "payment venmo @bobby"), "Saved: you are paid by Venmo `@bobby`.")
	wants(t, "shown", r.must("bob", "payment"), "Your payment handle here: Venmo `@bobby`.")
	wants(t, "removed", r.must("bob", "payment clear"), "Your payment handle is removed.")
	wants(t, "too long", r.refused("bob", "payment other "+strings.Repeat("x", 201)), "A payment handle takes at most 200 characters.")
}

// TestMoneyVerbsNight: an expense during the night goes into the settle-up; the debts it leaves are
// listed, paid, confirmed and disputed by their players, each told by a private message; an expense
// after the settle-up amends the open debt between the same players and posts the amended
// settle-up in the channel.
func TestMoneyVerbsNight(t *testing.T) {
	r := newRig(t)
	started := r.env.now.Add(-3 * time.Hour)
	r.tables.open[channel] = money.Table{ID: channel, Channel: "C", Host: "alice", Started: started, Money: true, Currency: "USD",
		Standings: []money.Share{{User: "alice", Name: "alice"}, {User: "bob", Name: "bob"}}, Seated: []money.Share{{User: "carol", Name: "carol"}}}
	wants(t, "chip table", r.refused("carol", "expense"), "Write `expense 30.00 pizza`")
	wants(t, "expense", r.must("carol", "expense 30.00 pizza"), "Expense #1: ", "30.00 USD", "pizza", "It goes into tonight's settle-up.")
	wants(t, "nobody owes", r.must("carol", "debts"), "You owe nobody and nobody owes you.")
	wants(t, "the host", r.must("alice", "debts"), "Nobody owes anybody here.")

	// alice +20.00, bob -20.00; the pizza: carol paid 30.00, 10.00 each. bob pays carol 20.00 and
	// alice 10.00.
	delete(r.tables.open, channel)
	wants(t, "settle-up", r.settle(started, "alice", 2000, "bob", -2000), "Settle-up", "pizza")
	wants(t, "bob's debts", r.must("bob", "debts"), "Open debts that concern you:", "bob owes")
	wants(t, "an admin's debts", r.must("dave", "debts"), "You owe nobody and nobody owes you.")
	wants(t, "paid", r.must("bob", "paid carol"), "marked paid: carol is asked to confirm it.")
	if got := strings.Join(r.env.to("carol"), "\n"); !strings.Contains(got, "bob says they paid you 20.00 USD") {
		t.Errorf("carol is not asked to confirm: %q", got)
	}
	wants(t, "not the receiver", r.refused("bob", "confirm carol"), "carol owes you nothing here")
	wants(t, "dispute", r.must("carol", "dispute bob"), "disputed: it is open again, and bob is told.")
	wants(t, "told", strings.Join(r.env.to("bob"), "\n"), "carol has not received your payment of 20.00 USD")
	r.must("bob", "paid carol")
	wants(t, "confirm", r.must("carol", "confirm bob"), "confirmed: it is settled.")

	// A late expense: alice paid 6.00 for herself and bob, after the settle-up: bob's open debt to
	// her grows by 3.00.
	wants(t, "late expense", r.must("alice", "expense 6.00 taxi @alice @bob"), "The settle-up was already posted")
	wants(t, "posted", strings.Join(r.env.to(""), "\n"), "alice added an expense to the settle-up of Fri 6 Mar:", "13.00 USD (was 10.00 USD)")
	// A player named who did not play is named as the dealer knows them.
	r.tables.names["dave"] = "Dave"
	wants(t, "a name", r.must("alice", "expense 4.00 ice @dave"), "split between Dave")
}

// TestSetVerb: with a table open, set goes to the table's own verb; with none, remind= sets when the
// last money game's open debts are reminded, for its host or an admin.
func TestSetVerb(t *testing.T) {
	r := newRig(t)
	r.tables.open[channel] = money.Table{ID: channel}
	if got := r.must("alice", "set remind=1d"); got != "did \x00set remind=1d" || len(r.env.did) != 1 {
		t.Errorf("set at an open table: %q, ran %v", got, r.env.did)
	}
	delete(r.tables.open, channel)
	wants(t, "no game", r.refused("alice", "set remind=1d"), "There is no game in this channel yet")
	r.settle(r.env.now.Add(-2*time.Hour), "alice", 500, "bob", -500)
	wants(t, "not the host", r.refused("bob", "set remind=1d"), "Only alice, who hosted the game of Fri 6 Mar, or an admin")
	wants(t, "host", r.must("alice", "set remind=1d"), "The 1 open debt of the game of Fri 6 Mar are reminded by DM")
	wants(t, "off", r.must("alice", "set remind=off"), "are not reminded any more.")
	if len(r.env.did) != 1 {
		t.Errorf("remind= after the game went to the table: %v", r.env.did)
	}
}

// TestRemindDebts: a debt past its delay is reminded to its payer by DM, once a day, only where this
// process serves the community.
func TestRemindDebts(t *testing.T) {
	r := newRig(t)
	r.settle(r.env.now.Add(-2*time.Hour), "alice", 500, "bob", -500)
	r.must("alice", "payment venmo @alice")
	r.env.sent = nil
	if err := money.RemindDebts(r.ctx, r.store, r.env); err != nil || len(r.env.sent) != 0 {
		t.Fatalf("reminded before the delay: %v %v", err, r.env.sent)
	}
	r.env.now = r.env.now.Add(49 * time.Hour)
	r.env.serves = map[string]bool{}
	if err := money.RemindDebts(r.ctx, r.store, r.env); err != nil || len(r.env.sent) != 0 {
		t.Fatalf("reminded where another process serves: %v %v", err, r.env.sent)
	}
	r.env.serves = nil
	if err := money.RemindDebts(r.ctx, r.store, r.env); err != nil {
		t.Fatal(err)
	}
	wants(t, "reminder", strings.Join(r.env.to("bob"), "\n"), "A reminder from the dealer: you still owe", "5.00 USD to alice", "Venmo `@alice`")
	r.env.now = r.env.now.Add(time.Hour)
	if err := money.RemindDebts(r.ctx, r.store, r.env); err != nil || len(r.env.sent) != 0 {
		t.Fatalf("reminded twice in a day: %v %v", err, r.env.sent)
	}
}

// TestExportMoneyVerb: the book as CSV, dates in the channel's zone.
func TestExportMoneyVerb(t *testing.T) {
	r := newRig(t)
	wants(t, "empty book", r.refused("alice", "export money"), "Nothing has been played for money here yet")
	r.settle(r.env.now.Add(-2*time.Hour), "alice", 500, "bob", -500)
	r.env.zone = time.FixedZone("X", -5*3600)
	rep, err := r.run("alice", "export money")
	if err != nil || len(rep.Files) != 1 {
		t.Fatalf("export money: %v %+v", err, rep)
	}
	csv := string(rep.Files[0].Data)
	wants(t, "CSV", csv, strings.Join(money.CSVHeader, ",")+"\r\n", "2026-03-06 18:00:00,session", ",result,", ",debt,")
}

// TestAppendLostAnswer: an append whose answer was lost is read back (env.Landed): when it landed,
// its events are returned as appended; when another request moved the book, the request is worked
// out again.
func TestAppendLostAnswer(t *testing.T) {
	r := newRig(t)
	lost := &losing{Store: r.store, lose: 1}
	build := func(b *money.Book) ([]money.Event, error) {
		return []money.Event{{Time: r.env.now, Kind: money.KindExpense, Amount: 100, Currency: "USD"}}, nil
	}
	_, evs, err := money.Append(r.ctx, lost, r.env, "console/W", "once", build)
	if err != nil || len(evs) != 1 || evs[0].Seq != 1 {
		t.Fatalf("append with a lost answer: %v %+v", err, evs)
	}
	// The same key again finds the request's events: nothing is appended twice.
	_, evs, err = money.Append(r.ctx, r.store, r.env, "console/W", "once", build)
	if book, _ := r.store.MoneyBook(r.ctx, "console/W"); err != nil || len(evs) != 1 || len(book) != 1 {
		t.Fatalf("a repeated key appended again: %v, %d events in the book", err, len(book))
	}
	moved := &losing{Store: r.store, move: 1}
	_, evs, err = money.Append(r.ctx, moved, r.env, "console/W", "twice", build)
	if err != nil || len(evs) != 1 || evs[0].Seq != 2 || moved.tries != 2 {
		t.Fatalf("append after the book moved: %v %+v after %d tries", err, evs, moved.tries)
	}
}

// losing is a store whose first appends land with their answer lost (lose), or are refused as if
// the book had moved (move).
type losing struct {
	money.Store
	lose, move, tries int
}

func (l *losing) AppendMoney(ctx context.Context, c string, after uint64, evs []money.Event) error {
	l.tries++
	if l.move > 0 {
		l.move--
		return money.ErrMoved
	}
	err := l.Store.AppendMoney(ctx, c, after, evs)
	if l.lose > 0 && err == nil {
		l.lose--
		return fmt.Errorf("commit: %w", errs.ErrOutcomeUnknown)
	}
	return err
}
