package slack

import (
	"context"
	"log/slog"
	"math/rand/v2"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	slackapi "github.com/slack-go/slack"

	"github.com/dealerbot/dealerbot/bot"
	"github.com/dealerbot/dealerbot/storage"
)

// stoppedTimer is a timer that never fires: the turn timer and the automatic next deal stay out of
// the scripted hands.
type stoppedTimer struct{}

func (stoppedTimer) Stop() bool { return true }

// table is a running dealer behind the adapter, with its bbolt store.
type table struct {
	*harness
	t  *testing.T
	db *storage.DB
}

// newTable wires adapter, dealer and a real bbolt file like cmd/dealerbot does, and connects over the
// fake Socket Mode.
func newTable(t *testing.T, seed uint64) *table {
	t.Helper()
	tb := newDealer(t, socketConfig(), seed)
	tb.runSocket(t) // its cleanup (adapter first) runs before the dealer's and the database's
	return tb
}

// newDealer builds the adapter for cfg with a dealer and a bbolt store behind it, not yet running.
func newDealer(t *testing.T, cfg Config, seed uint64) *table {
	t.Helper()
	h := newHarness(t, cfg)
	db, err := storage.Open(filepath.Join(t.TempDir(), "x.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	var key [32]byte
	key[0], key[1] = byte(seed), byte(seed>>8)
	t.Logf("deck seed %d", seed)
	d, err := bot.New(db, h.a, bot.Config{
		Rand:      rand.NewChaCha8(key),
		AfterFunc: func(time.Duration, func()) bot.Timer { return stoppedTimer{} },
		Logger:    slog.New(slog.NewTextHandler(h.logs, nil)),
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := d.Close(ctx); err != nil {
			t.Error(err)
		}
	})
	h.a.SetDealer(d)
	return &table{harness: h, t: t, db: db}
}

// do runs act (a slash command, click or submit by user) and waits for the dealer's reply to user,
// which comes after every public message the command caused. It returns the reply's text.
func (tb *table) do(user string, act func()) string {
	tb.t.Helper()
	n := len(tb.snapshot())
	act()
	return tb.waitCall(n, "chat.postEphemeral", func(c call) bool { return c.User == user }).Text
}

func (tb *table) slashDo(user, text string) string {
	tb.t.Helper()
	return tb.do(user, func() { tb.slash("CGAME", user, text) })
}

var toActRe = regexp.MustCompile(`^(\S+) to act`)

// turn returns the newest turn prompt in the channel and the user it is for.
func (tb *table) turn() (call, string) {
	tb.t.Helper()
	cs := tb.snapshot()
	for i := len(cs) - 1; i >= 0; i-- {
		c := cs[i]
		if c.Method == "chat.postMessage" && c.Channel == "CGAME" && len(c.Buttons) > 0 {
			m := toActRe.FindStringSubmatch(c.Text)
			if m == nil {
				tb.t.Fatalf("prompt with buttons that names nobody: %q", c.Text)
			}
			for id, name := range tb.names {
				if name == m[1] {
					return c, id
				}
			}
			tb.t.Fatalf("prompt for unknown player %q", m[1])
		}
	}
	tb.t.Fatalf("no turn prompt in the channel:\n%s", dump(cs))
	return call{}, ""
}

func button(c call, label string) (slackapi.ButtonBlockElement, bool) {
	for _, b := range c.Buttons {
		if strings.HasPrefix(b.Text.Text, label) {
			return b, true
		}
	}
	return slackapi.ButtonBlockElement{}, false
}

func mustButton(t *testing.T, c call, label string) slackapi.ButtonBlockElement {
	t.Helper()
	b, ok := button(c, label)
	if !ok {
		t.Fatalf("no %q button on %q", label, c.Text)
	}
	return b
}

// record returns the table's committed state.
func (tb *table) record() bot.TableRecord {
	tb.t.Helper()
	recs, err := tb.db.Tables(context.Background())
	if err != nil || len(recs) != 1 {
		tb.t.Fatalf("tables: %v, %d", err, len(recs))
	}
	return recs[0]
}

func chipsOnTable(r bot.TableRecord) int64 {
	var sum int64
	for _, s := range r.Seats {
		sum += s.Stack
	}
	return sum
}

// publicSince returns the channel posts made after call n.
// raiseByModal has user click the prompt's Raise… and submit the smallest raise the form offers (n
// is the call count before the click); the hand then holds that one action.
func raiseByModal(t *testing.T, tb *table, n int, user string, prompt call) {
	t.Helper()
	tb.click("CGAME", user, mustButton(t, prompt, "Raise"))
	modal := tb.waitCall(n, "views.open", nil)
	v, err := decodeValue(modal.View.PrivateMetadata)
	if err != nil {
		t.Fatal(err)
	}
	if got := tb.do(user, func() { tb.submit(user, modal.View, itoa(v.Min)) }); !strings.Contains(strings.ToLower(got), "raise") {
		t.Errorf("raise reply %q", got)
	}
	if r := tb.record(); r.Hand == nil || len(r.Hand.Actions) != 1 {
		t.Fatalf("after the modal raise the hand has %v", r.Hand)
	}
}

func (tb *table) publicSince(n int) []call {
	var out []call
	for _, c := range tb.snapshot()[n:] {
		if c.Method == "chat.postMessage" && c.Channel == "CGAME" {
			out = append(out, c)
		}
	}
	return out
}

var holeRe = regexp.MustCompile(`your cards: (.+)$`)

func TestWholeHandOverSocketMode(t *testing.T) {
	tb := newTable(t, 7)
	players := []string{"UALICE", "UBOB", "UCAROL"}

	if got := tb.slashDo("UALICE", "start blinds=10/20"); !strings.Contains(got, "host") {
		t.Fatalf("start reply %q", got)
	}
	for _, p := range players {
		if got := tb.slashDo(p, "join 1000"); !strings.Contains(got, "1,000") {
			t.Fatalf("join reply for %s: %q", p, got)
		}
	}
	tb.slashDo("UALICE", "deal")

	// Hole cards went by DM, one per player, to that player's DM channel only.
	holes := map[string]string{}
	for _, c := range tb.snapshot() {
		if m := holeRe.FindStringSubmatch(c.Text); m != nil {
			if c.Method != "chat.postMessage" || !strings.HasPrefix(c.Channel, "D") {
				t.Errorf("hole cards outside a DM: %+v", c)
			}
			holes[strings.TrimPrefix(c.Channel, "D")] = m[1]
		}
	}
	if len(holes) != 3 {
		t.Fatalf("hole cards for %d players, want 3:\n%s", len(holes), dump(tb.snapshot()))
	}

	prompt, first := tb.turn()
	before := tb.record()
	if before.Hand == nil {
		t.Fatal("no hand in progress after deal")
	}
	var dealtIn int64
	for _, s := range before.Hand.Stacks {
		dealtIn += s
	}
	if dealtIn != 3000 {
		t.Errorf("chips dealt into the hand: %d, want 3000", dealtIn)
	}

	// A player who is not to act clicks the prompt: told privately, nothing changes.
	other := players[0]
	if other == first {
		other = players[1]
	}
	n := len(tb.snapshot())
	got := tb.do(other, func() { tb.click("CGAME", other, mustButton(t, prompt, "Fold")) })
	if !strings.Contains(got, "turn, not yours") {
		t.Errorf("wrong player's click answered %q, want the bot's turn error", got)
	}
	if pub := tb.publicSince(n); len(pub) != 0 {
		t.Errorf("a wrong player's click posted in the channel: %+v", pub)
	}
	if after := tb.record(); !sameState(before, after) {
		t.Error("a wrong player's click changed the table")
	}

	// The player to act raises through the modal: the smallest raise the modal offers.
	n = len(tb.snapshot())
	raiseByModal(t, tb, n, first, prompt)

	// The old prompt's buttons are stale now: answered, never acted on.
	_, second := tb.turn()
	before = tb.record()
	n = len(tb.snapshot())
	got = tb.do(second, func() { tb.click("CGAME", second, mustButton(t, prompt, "Fold")) })
	if !strings.Contains(got, "earlier turn") {
		t.Errorf("stale click answered %q, want the bot's stale-button error", got)
	}
	if pub := tb.publicSince(n); len(pub) != 0 || !sameState(before, tb.record()) {
		t.Errorf("a stale click acted: %+v", pub)
	}

	// Second player calls with the button, third folds with the button.
	prompt, _ = tb.turn()
	tb.do(second, func() { tb.click("CGAME", second, mustButton(t, prompt, "Call")) })
	prompt, third := tb.turn()
	tb.do(third, func() { tb.click("CGAME", third, mustButton(t, prompt, "Fold")) })

	// The two left check (or call) it down by button until the pot is awarded.
	showdownAt := -1
	for i := 0; tb.record().Hand != nil; i++ {
		if i > 12 {
			t.Fatalf("the hand did not end:\n%s", dump(tb.snapshot()))
		}
		prompt, who := tb.turn()
		b, ok := button(prompt, "Check")
		if !ok {
			b = mustButton(t, prompt, "Call")
		}
		showdownAt = len(tb.snapshot())
		tb.do(who, func() { tb.click("CGAME", who, b) })
	}
	var award string
	for _, c := range tb.publicSince(showdownAt) {
		if strings.Contains(c.Text, " wins ") || strings.Contains(c.Text, " split ") { // a split has no winner alone
			award = c.Text
		}
	}
	if award == "" {
		t.Errorf("no pot award in the channel after the last action:\n%s", dump(tb.snapshot()[showdownAt:]))
	}
	if got := chipsOnTable(tb.record()); got != 3000 {
		t.Errorf("chips on the table after the hand: %d, want 3000", got)
	}

	t.Logf("transcript:\n%s", dump(tb.snapshot()))

	// Every turn prompt lost its buttons once its turn was over, the last one included; its text stayed.
	// Retiring runs in the background, so wait for it.
	prompts := 0
	tb.waitFor("every turn prompt retired", func(cs []call) bool {
		prompts = 0
		for i, c := range cs {
			if c.Method != "chat.postMessage" || c.Channel != "CGAME" || len(c.Buttons) == 0 {
				continue
			}
			prompts++
			retired := false
			for _, u := range cs[i+1:] {
				if u.Method == "chat.update" && u.TS == c.TS && u.Channel == "CGAME" {
					retired = len(u.Buttons) == 0 && u.Text == c.Text
				}
			}
			if !retired {
				return false
			}
		}
		return true
	})
	if prompts < 5 {
		t.Errorf("only %d turn prompts in a whole hand", prompts)
	}

	// Hole cards never reached the channel, an ephemeral message or a log line before the showdown;
	// the folded player's cards never at all.
	for i, c := range tb.snapshot() {
		if strings.HasPrefix(c.Channel, "D") {
			continue
		}
		for user, cards := range holes {
			if strings.Contains(c.Text, cards) && (user == third || i < showdownAt) {
				t.Errorf("%s's hole cards %s in %s %s: %q", user, cards, c.Method, c.Channel, c.Text)
			}
		}
	}
	for user, cards := range holes {
		if strings.Contains(tb.logs.String(), cards) {
			t.Errorf("%s's hole cards %s in the log", user, cards)
		}
	}
}

// The Raise… form opens only for the player to act: anyone else, and anyone clicking an old Raise…
// button, gets the dealer's refusal privately and no form.
func TestRaiseFormOnlyForThePlayerToAct(t *testing.T) {
	tb := newTable(t, 5)
	players := []string{"UALICE", "UBOB", "UCAROL"}
	tb.slashDo("UALICE", "start blinds=10/20")
	for _, p := range players {
		tb.slashDo(p, "join 1000")
	}
	tb.slashDo("UALICE", "deal")
	prompt, first := tb.turn()

	// refused clicks the Raise… button of prompt as user and checks the private answer holds want
	// and that nothing else happened: no form, no post, no change to the table.
	refused := func(user string, prompt call, want string) {
		t.Helper()
		before := tb.record()
		n := len(tb.snapshot())
		got := tb.do(user, func() { tb.click("CGAME", user, mustButton(t, prompt, "Raise")) })
		if !strings.Contains(got, want) {
			t.Errorf("%s's Raise… click answered %q, want %q", user, got, want)
		}
		time.Sleep(50 * time.Millisecond)
		cs := tb.snapshot()[n:]
		if k := countCalls(cs, "views.open"); k != 0 {
			t.Errorf("%s's refused Raise… click opened the form:\n%s", user, dump(cs))
		}
		if pub := tb.publicSince(n); len(pub) != 0 || !sameState(before, tb.record()) {
			t.Errorf("%s's refused Raise… click acted: %+v", user, pub)
		}
	}

	// Everyone but the player to act.
	for _, p := range players {
		if p != first {
			refused(p, prompt, "It is "+tb.names[first]+"'s turn, not yours")
		}
	}

	// The player to act gets the form, and its submission raises.
	n := len(tb.snapshot())
	raiseByModal(t, tb, n, first, prompt)

	// The first prompt's Raise… is stale now, even for the player whose turn it is.
	_, second := tb.turn()
	refused(second, prompt, "earlier turn")
	if k := countCalls(tb.snapshot(), "views.open"); k != 1 {
		t.Errorf("the form opened %d times, want once (for the player to act)", k)
	}
}

func sameState(a, b bot.TableRecord) bool {
	if (a.Hand == nil) != (b.Hand == nil) || chipsOnTable(a) != chipsOnTable(b) {
		return false
	}
	return a.Hand == nil || len(a.Hand.Actions) == len(b.Hand.Actions)
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

func TestHoleCardsFallBackWhenDMsAreClosed(t *testing.T) {
	tb := newTable(t, 11)
	tb.refuseDM("UCAROL", "cannot_dm_user")
	tb.slashDo("UALICE", "start")
	for _, p := range []string{"UALICE", "UBOB", "UCAROL"} {
		tb.slashDo(p, "join")
	}
	tb.slashDo("UALICE", "deal")

	var carol []call
	for _, c := range tb.snapshot() {
		if holeRe.MatchString(c.Text) && c.Channel != "DUALICE" && c.Channel != "DUBOB" {
			carol = append(carol, c)
		}
	}
	if len(carol) != 1 {
		t.Fatalf("carol's cards went out %d times, want once:\n%s", len(carol), dump(tb.snapshot()))
	}
	if c := carol[0]; c.Method != "chat.postEphemeral" || c.Channel != "CGAME" || c.User != "UCAROL" {
		t.Errorf("carol's cards went by %s to %s/%s, want an ephemeral message in CGAME for UCAROL only", c.Method, c.Channel, c.User)
	}
	cards := holeRe.FindStringSubmatch(carol[0].Text)[1]
	if strings.Contains(tb.logs.String(), cards) {
		t.Errorf("carol's cards %s in the log", cards)
	}
	// The others still got theirs by DM.
	for _, dm := range []string{"DUALICE", "DUBOB"} {
		if tb.waitCall(0, "chat.postMessage", func(c call) bool { return c.Channel == dm && holeRe.MatchString(c.Text) }).Text == "" {
			t.Errorf("no DM to %s", dm)
		}
	}
}
