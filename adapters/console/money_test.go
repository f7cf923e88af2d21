package console_test

import (
	"bytes"
	"context"
	"encoding/csv"
	"fmt"
	"image/png"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/dealerbot/dealerbot/adapters/console"
	"github.com/dealerbot/dealerbot/bot"
	"github.com/dealerbot/dealerbot/bot/features"
	"github.com/dealerbot/dealerbot/bot/money"
	"github.com/dealerbot/dealerbot/bot/table"
)

// moneyHand is a scripted four-handed hand: alice has the button, bob and carol the blinds, dave
// acts first; dave's aces beat alice's kings at the showdown. Nets: dave +185, alice -140,
// carol -40, bob -5.
var moneyHand = []string{
	"dave: call", "alice: raise 40", "bob: fold", "carol: call", "dave: call", // pre-flop
	"carol: check", "dave: bet 100", "alice: call", "carol: fold", // flop
	"dave: check", "alice: check", // turn
	"dave: check", "alice: check", // river
}

func (g *game) privateTo(user string) []string {
	var out []string
	for _, m := range g.chat.Messages() {
		if m.Private && m.User == user {
			out = append(out, m.Text)
		}
	}
	return out
}

func (g *game) lastPublic() bot.Message {
	ms := g.chat.Messages()
	for i := len(ms) - 1; i >= 0; i-- {
		if !ms[i].Private {
			return ms[i]
		}
	}
	return bot.Message{}
}

// TestMoneyNight is a console session played for money from start to settle-up: payment handles,
// an expense during the night and one after its settle-up, a debt marked paid and confirmed, one
// disputed, one forgiven, the reminder by DM two days later (once a day, only for what is still
// open), and the CSV of the money book read back and checked against the book and the chip ledger.
func TestMoneyNight(t *testing.T) {
	g := newGame(t)
	ctx := context.Background()
	sched, err := features.NewScheduler(g.d, g.db, features.ScheduleConfig{})
	if err != nil {
		t.Fatal(err)
	}
	g.refuse("dave: payment paypal https://evil.example/x", "PayPal.me name")
	g.refuse("bob: payment other ping @everyone", "mentions")
	g.must("dave: payment paypal daveb", "bob: payment zelle bob@example.com", "alice: payment venmo @alice-w", "carol: payment cashapp $carolc")
	if r := g.say("carol: payment"); !strings.Contains(r.Text, "Cash App `$carolc`") {
		t.Fatalf("carol's own handle: %q", r.Text)
	}
	g.refuse("alice: start value=0.1", "Say which currency")
	g.rnd.drawDeck(t, "As Kd Qh Jc")
	g.rnd.hand(t, 0, []string{"Kc Kh", "3c 2d", "Qc Qd", "Ac Ad"}, "2s 7d 9h 4s Jc")
	g.must("alice: start value=0.1 currency=USD", "alice: join 1000", "bob: join 1000", "carol: join 1000", "dave: join 1000", "alice: deal")
	g.must(moneyHand...)
	if g.table().Hand != nil {
		t.Fatal("the scripted hand did not finish")
	}
	for _, bad := range []struct{ line, want string }{
		{"alice: expense -12 pizza", "cannot be negative"},
		{"alice: expense 0 pizza", "more than zero"},
		{"alice: expense 1000000.01 pizza", "at most 1,000,000.00 USD"},
		{"alice: expense 12.001 pizza", "USD has 2 decimals"},
		{"alice: expense twelve pizza", "not an amount of money"},
		{"alice: expense 12", "Write `expense 30.00 pizza`"},
		{"alice: expense 12 see www.evil.example", "links"},
	} {
		g.refuse(bad.line, bad.want)
	}
	if evs, _ := g.db.MoneyBook(ctx, "console/local"); len(evs) != 0 {
		t.Fatalf("refused expenses wrote the book: %+v", evs)
	}
	if r := g.say("alice: expense 12.00 pizza"); r.IsError || !strings.HasPrefix(r.Text, "Expense #1: pizza 12.00 USD paid by alice") {
		t.Fatalf("the night's first expense: %q", r.Text)
	}
	g.must("alice: end")

	settle := g.lastPublic()
	for _, want := range []string{
		"Settle-up · 1 chip = 0.1 USD",
		"1. dave +185 chips = +18.50 USD", "2. bob -5 chips = -0.50 USD", "3. carol -40 chips = -4.00 USD", "4. alice -140 chips = -14.00 USD",
		"Expense: pizza 12.00 USD paid by alice, split between alice, bob, carol, dave (3.00 USD each)",
		"#1 carol pays dave 7.00 USD · PayPal.me `daveb`", "#2 alice pays dave 5.00 USD · PayPal.me `daveb`", "#3 bob pays dave 3.50 USD · PayPal.me `daveb`",
		"dealerbot never moves money",
	} {
		if !strings.Contains(settle.Text, want) {
			t.Fatalf("the settle-up does not say %q:\n%s", want, settle.Text)
		}
	}
	for _, private := range []string{"alice-w", "carolc", "bob@example.com"} {
		if strings.Contains(settle.Text, private) {
			t.Fatalf("the settle-up shows %q, the handle of someone it pays nothing:\n%s", private, settle.Text)
		}
	}
	if hint := console.ButtonHint(settle.Buttons); !strings.Contains(hint, "[Paid #1] paid 1") || !strings.Contains(hint, "https://paypal.me/daveb/7.00USD") {
		t.Fatalf("settle-up buttons: %s", hint)
	}

	// Debts: only the payer says paid, only the receiver confirms, disputes or forgives.
	g.refuse("carol: paid 3", "only they can mark it")
	g.refuse("dave: paid bob", "You owe bob nothing")
	g.refuse("bob: confirm dave", "dave owes you nothing")
	g.must("bob: paid dave")
	if got := g.privateTo("dave"); len(got) == 0 || !strings.Contains(got[len(got)-1], "bob says they paid you 3.50 USD (debt #3)") {
		t.Fatalf("dave was not asked to confirm: %q", got)
	}
	g.must("dave: confirm bob")
	g.refuse("bob: paid 3", "paid and confirmed already")
	g.must("carol: paid 1", "dave: dispute carol", "dave: forgive alice")
	g.refuse("alice: paid dave", "forgave")
	r := g.say("carol: debts")
	if !strings.Contains(r.Text, "#1 carol owes dave 7.00 USD · disputed") || strings.Contains(r.Text, "#3") {
		t.Fatalf("carol's debts: %q", r.Text)
	}

	// An expense after the settle-up: the payments that square it are new debts.
	if r := g.say("bob: expense 8.00 taxi @carol @bob"); r.IsError || !strings.HasPrefix(r.Text, "Expense #2: taxi") {
		t.Fatalf("the second expense: %q", r.Text)
	}
	if got := g.lastPublic().Text; !strings.Contains(got, "#4 carol pays bob 4.00 USD · Zelle `bob@example.com`") {
		t.Fatalf("the amended settle-up: %q", got)
	}
	// Another one: carol owes dave 3.00 more, which nets into her open debt #1 to dave instead of
	// a new debt between them.
	g.must("dave: expense 6.00 drinks @carol @dave")
	if got := g.lastPublic().Text; !strings.Contains(got, "#1 carol pays dave 10.00 USD (was 7.00 USD)") || strings.Contains(got, "#5") {
		t.Fatalf("the settle-up amended into debt #1: %q", got)
	}
	if r := g.say("carol: debts"); !strings.Contains(r.Text, "#1 carol owes dave 10.00 USD") || strings.Contains(r.Text, "#5") {
		t.Fatalf("carol's debts after the drinks: %q", r.Text)
	}

	// Two days later the payers of what is still open are reminded, once a day.
	g.clock.Advance(49 * time.Hour)
	if err := sched.Tick(ctx); err != nil {
		t.Fatal(err)
	}
	carol := g.privateTo("carol")
	if len(carol) == 0 || !strings.Contains(carol[len(carol)-1], "#1 10.00 USD to dave") || !strings.Contains(carol[len(carol)-1], "#4 4.00 USD to bob") {
		t.Fatalf("carol's reminder: %q", carol)
	}
	for _, u := range []string{"alice", "bob"} {
		for _, m := range g.privateTo(u) {
			if strings.Contains(m, "A reminder") {
				t.Fatalf("%s was reminded of a settled debt: %q", u, m)
			}
		}
	}
	n := len(g.privateTo("carol"))
	g.clock.Advance(time.Hour)
	if err := sched.Tick(ctx); err != nil {
		t.Fatal(err)
	}
	if len(g.privateTo("carol")) != n {
		t.Fatal("carol was reminded twice in a day")
	}

	// The CSV, read back, is the book row for row and squares with the chip ledger.
	r = g.say("alice: export money")
	if len(r.Files) != 1 || r.Files[0].ContentType != "text/csv; charset=utf-8" {
		t.Fatalf("export money: %+v", r)
	}
	rows, err := csv.NewReader(bytes.NewReader(r.Files[0].Data)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(rows[0], ",") != strings.Join(money.CSVHeader, ",") {
		t.Fatalf("header %v", rows[0])
	}
	book, err := g.db.MoneyBook(ctx, "console/local")
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]string{}
	results := map[string]string{}
	var cents int64
	for _, row := range rows[1:] {
		kinds[row[0]] = row[2]
		switch row[2] {
		case "result":
			results[row[6]] = row[9]
			cents += parseCents(t, row[10])
		case "debt":
			cents += 0
		}
	}
	for _, e := range book {
		want := e.Kind
		if got := kinds[fmt.Sprint(e.Seq)]; got != want && !(e.Kind == money.KindSession && got == "result") && !(e.Kind == money.KindExpense && got == "share") {
			t.Errorf("event %d is %s in the book, %s in the CSV", e.Seq, e.Kind, got)
		}
	}
	if cents != 0 {
		t.Errorf("the results in the CSV add up to %d cents, want 0", cents)
	}
	ledger, err := g.db.Ledger(ctx)
	if err != nil {
		t.Fatal(err)
	}
	net := map[string]int64{}
	for _, e := range ledger {
		if e.Kind == table.KindBuyIn || e.Kind == table.KindCashOut {
			net[e.User] -= e.OnTable
		}
	}
	for user, chips := range net {
		if got := results[user]; got != fmt.Sprint(chips) {
			t.Errorf("%s's result in the CSV is %s chips, the ledger says %d", user, got, chips)
		}
	}
	var statuses []string
	for _, row := range rows[1:] {
		switch row[2] {
		case "paid", "confirmed", "disputed", "forgiven":
			statuses = append(statuses, row[2]+" #"+row[12])
		}
	}
	if got, want := strings.Join(statuses, ", "), "paid #3, confirmed #3, paid #1, disputed #1, forgiven #2"; got != want {
		t.Errorf("status rows: %s, want %s", got, want)
	}
	g.checkChips("after the night")

	// Stats of the night, worked out by hand from moneyHand, with its money; and its chart.
	r = g.say("alice: stats dave session")
	for _, want := range []string{"Stats of dave · the last session (1 session)", "Cash games: 1 hand · net +185 chips · 1850.0 bb/100",
		"VPIP 100% · PFR 0% · 3-bet 0% · WTSD 100% · W$SD 100% · AF ∞ · biggest pot won 325", "Money: +18.50 USD"} {
		if !strings.Contains(r.Text, want) {
			t.Fatalf("stats of dave do not say %q:\n%s", want, r.Text)
		}
	}
	r = g.say("bob: stats")
	if !strings.Contains(r.Text, "Stats of bob · all time") || !strings.Contains(r.Text, "VPIP 0% · PFR 0% · 3-bet 0%") {
		t.Fatalf("bob's own stats: %s", r.Text)
	}
	g.refuse("erin: stats", "You played no hand here in all time.")
	g.refuse("alice: stats 2026-03-01..2026-01-01", "ends before it begins")
	g.refuse("alice: stats season", "none has been played yet")
	r = g.say("alice: stats chart all")
	dir := t.TempDir()
	out := console.FormatReplyIn("alice", r, dir)
	_, path, found := strings.Cut(out, "written to ")
	if r.IsError || !found {
		t.Fatalf("stats chart: %s", out)
	}
	data, err := os.ReadFile(strings.TrimSpace(path))
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil || img.Bounds().Dx() != 960 || img.Bounds().Dy() != 540 {
		t.Fatalf("the chart at %s: %v, %v", path, err, img)
	}
}

func parseCents(t *testing.T, s string) int64 {
	t.Helper()
	var whole, frac int64
	neg := strings.HasPrefix(s, "-")
	if _, err := fmt.Sscanf(strings.TrimPrefix(s, "-"), "%d.%d", &whole, &frac); err != nil {
		t.Fatalf("amount %q: %v", s, err)
	}
	if neg {
		return -(whole*100 + frac)
	}
	return whole*100 + frac
}

// TestMoneyBankAndRounding: a chip worth less than a cent rounds each result to the cent, shows the
// rounding and still adds up to zero; with settle=bank the host pays the winners and is paid by the
// losers.
func TestMoneyBankAndRounding(t *testing.T) {
	g := newGame(t)
	g.rnd.drawDeck(t, "As Kd Qh")
	g.rnd.hand(t, 0, []string{"Kc Kh", "Ac 2d", "Qc Qd"}, "2c 7d 9h 4s Jc")
	g.must("carol: start value=0.0025 currency=USD settle=bank", "alice: join 1000", "bob: join 800", "carol: join 1200", "alice: deal")
	g.must(crashHand...) // alice +200, bob -30, carol -170
	g.must("carol: end")
	settle := g.lastPublic().Text
	for _, want := range []string{
		"1. alice +200 chips = +0.50 USD", "2. bob -30 chips = -0.07 USD", "3. carol -170 chips = -0.43 USD",
		"Rounded to 0.01 USD, still adding up to zero: bob -0.075 → -0.07 USD; carol -0.425 → -0.43 USD.",
		"carol is the bank", "#1 bob pays carol 0.07 USD", "#2 carol pays alice 0.50 USD",
	} {
		if !strings.Contains(settle, want) {
			t.Fatalf("the settle-up does not say %q:\n%s", want, settle)
		}
	}
}

// TestMoneyAfterTheGame (issue 37 item 5): after `end`, the night's host sees all its debts with
// `debts` (a player only their own), and sets when its open debts are reminded with
// `set remind=` (m, h or d); anyone else is refused, and a refused value changes nothing.
func TestMoneyAfterTheGame(t *testing.T) {
	g := newGame(t)
	g.rnd.hand(t, 0, []string{"Kc Kh", "Ac 2d", "Qc Qd"}, "2c 7d 9h 4s Jc")
	g.must("dave: start value=0.01 currency=USD", "alice: join 1000", "bob: join 800", "carol: join 1200", "alice: deal")
	g.must(crashHand...)
	g.must("dave: end")
	if r := g.say("dave: debts"); !strings.Contains(r.Text, "Open debts of the games you hosted") ||
		!strings.Contains(r.Text, "#1 bob owes alice 0.15 USD") || !strings.Contains(r.Text, "#2 bob owes carol 0.15 USD") {
		t.Fatalf("the host's debts after end: %q", r.Text)
	}
	if r := g.say("alice: debts"); !strings.Contains(r.Text, "#1 bob owes alice") || strings.Contains(r.Text, "carol") {
		t.Fatalf("alice's debts after end: %q", r.Text)
	}
	ctx := context.Background()
	before, err := g.db.MoneyBook(ctx, "console/local")
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ line, want string }{
		{"bob: set remind=3d", "Only dave, who hosted the game of"},
		{"dave: set remind=12", "Write remind= as whole minutes, hours or days from 1m to 30d, for example remind=2d"},
		{"dave: set remind=31d", "from 1m to 30d"},
		{"dave: set remind=0m", "from 1m to 30d"},
		{"dave: set blinds=10/20", "There is no game in this channel yet"},
	} {
		g.refuse(tt.line, tt.want)
	}
	if after, _ := g.db.MoneyBook(ctx, "console/local"); len(after) != len(before) {
		t.Fatalf("refused settings wrote the book: %d events, was %d", len(after), len(before))
	}
	for _, tt := range []struct {
		line, want string
		after      time.Duration
	}{
		{"dave: set remind=5m", "The 2 open debts of the game of", 5 * time.Minute},
		{"dave: set remind=12h", "reminded by DM 12h after the settle-up", 12 * time.Hour},
		{"dave: set remind=3d", "reminded by DM 3d after the settle-up", 72 * time.Hour},
		{"dave: set remind=off", "are not reminded any more", 0},
	} {
		if r := g.say(tt.line); r.IsError || !strings.Contains(r.Text, tt.want) {
			t.Fatalf("%s: %q, want %q", tt.line, r.Text, tt.want)
		}
		evs, err := g.db.MoneyBook(ctx, "console/local")
		if err != nil {
			t.Fatal(err)
		}
		for _, x := range money.Fold(evs).Debts {
			if x.Opened.RemindAfter != tt.after {
				t.Fatalf("%s: debt #%d is reminded after %v, want %v", tt.line, x.No, x.Opened.RemindAfter, tt.after)
			}
		}
	}
}
