package money

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/dealerbot/dealerbot/bot/errs"
)

func TestParseAmount(t *testing.T) {
	tests := []struct {
		name, in, cur string
		want          int64
		err           string // part of the sentence; empty: valid
	}{
		{"whole", "30", "USD", 3000, ""},
		{"cents", "30.00", "USD", 3000, ""},
		{"one decimal", "12.5", "USD", 1250, ""},
		{"thousands", "1,250.75", "USD", 125075, ""},
		{"plus sign", "+5", "USD", 500, ""},
		{"yen", "1200", "JPY", 1200, ""},
		{"dinar", "1.005", "KWD", 1005, ""},
		{"the most", "1000000.00", "USD", 100000000, ""},
		{"negative", "-5", "USD", 0, "cannot be negative"},
		{"zero", "0.00", "USD", 0, "more than zero"},
		{"absurd", "1000000.01", "USD", 0, "at most 1,000,000.00 USD"},
		{"huge", "99999999999999999999", "USD", 0, "not an amount"},
		{"too many decimals", "3.333", "USD", 0, "USD has 2 decimals"},
		{"yen decimals", "5.5", "JPY", 0, "JPY has no smaller unit"},
		{"word", "pizza", "USD", 0, "not an amount"},
		{"exponent", "1e3", "USD", 0, "not an amount"},
		{"two dots", "1.2.3", "USD", 0, "not an amount"},
		{"bare dot", ".", "USD", 0, "not an amount"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseAmount(tt.in, tt.cur)
			if tt.err == "" {
				if err != nil || got != tt.want {
					t.Fatalf("ParseAmount(%q) = %d, %v; want %d", tt.in, got, err, tt.want)
				}
				return
			}
			if err == nil || errs.CodeOf(err) != errs.Invalid || !strings.Contains(err.Error(), tt.err) {
				t.Fatalf("ParseAmount(%q) = %d, %v; want an Invalid error saying %q", tt.in, got, err, tt.err)
			}
		})
	}
}

func TestParseValueAndCurrency(t *testing.T) {
	for _, tt := range []struct{ in, want, err string }{
		{"0.01", "0.01", ""}, {"1", "1", ""}, {"0.0025", "0.0025", ""}, {"1000", "1,000", ""},
		{"0", "", "above 0"}, {"1000.5", "", "at most 1,000"}, {"0.0000001", "", "at most 6 decimals"},
		{"-1", "", "not a chip value"}, {"abc", "", "not a chip value"},
	} {
		v, err := ParseValue(tt.in)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("ParseValue(%q) = %v, %v; want an error saying %q", tt.in, v, err, tt.err)
			}
			continue
		}
		if err != nil || v.String() != tt.want {
			t.Errorf("ParseValue(%q) = %q, %v; want %q", tt.in, v.String(), err, tt.want)
		}
	}
	if c, err := ParseCurrency("usd"); err != nil || c != "USD" {
		t.Errorf("ParseCurrency(usd) = %q, %v", c, err)
	}
	if _, err := ParseCurrency("XYZ"); err == nil || !strings.Contains(err.Error(), "ISO 4217") {
		t.Errorf("ParseCurrency(XYZ) = %v, want a sentence naming ISO 4217", err)
	}
}

func TestFormat(t *testing.T) {
	for _, tt := range []struct {
		minor int64
		cur   string
		want  string
	}{{350, "USD", "3.50 USD"}, {-5, "USD", "-0.05 USD"}, {123456789, "EUR", "1,234,567.89 EUR"}, {1200, "JPY", "1,200 JPY"}, {1005, "KWD", "1.005 KWD"}} {
		if got := Format(tt.minor, tt.cur); got != tt.want {
			t.Errorf("Format(%d, %s) = %q, want %q", tt.minor, tt.cur, got, tt.want)
		}
	}
}

// Results converted at a value finer than the minor unit are rounded, the rounding is reported, and
// the amounts still add up to zero.
func TestConvertSquares(t *testing.T) {
	v := Value{Units: 5, Scale: 3} // 0.005 a chip
	got := Convert([]int64{201, -67, -67, -67}, v, "USD")
	var sum int64
	for _, c := range got {
		sum += c.Minor
	}
	if sum != 0 {
		t.Fatalf("converted amounts add up to %d, want 0: %+v", sum, got)
	}
	if got[0].Exact != "1.005" || !got[0].Rounded {
		t.Errorf("first result: %+v, want exact 1.005 marked rounded", got[0])
	}
	// Exact at a value the currency can show: nothing rounded.
	for _, c := range Convert([]int64{350, -200, -150}, Value{Units: 1, Scale: 2}, "USD") {
		if c.Rounded {
			t.Errorf("%+v rounded at 0.01 USD a chip", c)
		}
	}
	// Property: any results that add up to zero convert to amounts that add up to zero, each within
	// one minor unit of its exact value.
	seed := time.Now().UnixNano()
	r := rand.New(rand.NewPCG(uint64(seed), 1))
	for i := 0; i < 2000; i++ {
		n := 2 + r.IntN(9)
		chips := make([]int64, n)
		var total int64
		for j := 0; j < n-1; j++ {
			chips[j] = r.Int64N(2_000_000) - 1_000_000
			total += chips[j]
		}
		chips[n-1] = -total
		v := Value{Units: 1 + r.Int64N(99999), Scale: r.IntN(7)}
		var s int64
		for j, c := range Convert(chips, v, "USD") {
			s += c.Minor
			exact := float64(chips[j]) * float64(v.Units) / pow10f(v.Scale) * 100
			if d := float64(c.Minor) - exact; d > 1.0001 || d < -1.0001 {
				t.Fatalf("seed %d: %d chips at %s became %d cents, %f from exact", seed, chips[j], v, c.Minor, d)
			}
		}
		if s != 0 {
			t.Fatalf("seed %d: %v at %s add up to %d cents", seed, chips, v, s)
		}
	}
}

func pow10f(n int) float64 {
	f := 1.0
	for range n {
		f *= 10
	}
	return f
}

func TestParseHandle(t *testing.T) {
	tests := []struct {
		name, app, text string
		want            string // Handle.String(); empty: refused
		err             string
	}{
		{"venmo", "venmo", "@alice-w", "Venmo @alice-w", ""},
		{"venmo without at", "venmo", "alice_w", "Venmo @alice_w", ""},
		{"venmo too short", "venmo", "@al", "", "5 to 30"},
		{"venmo mention", "venmo", "<@123456>", "", "5 to 30"},
		{"cashapp", "cashapp", "$alice", "Cash App $alice", ""},
		{"cashapp digits only", "cashapp", "$1234", "", "at least one letter"},
		{"paypal", "paypal", "alicesmith", "PayPal.me/alicesmith", ""},
		{"paypal link", "paypal", "https://evil.example/x", "", "PayPal.me name"},
		{"zelle email", "zelle", "alice@example.com", "Zelle alice@example.com", ""},
		{"zelle phone", "zelle", "+1 555 010 2030", "Zelle +1 555 010 2030", ""},
		{"zelle nonsense", "zelle", "call me", "", "neither"},
		{"other", "other", "cash at the next game", "cash at the next game", ""},
		{"other link", "other", "pay at evil.example.com", "", "links"},
		{"other scheme", "other", "see https:/x", "", "links"},
		{"other mention", "other", "ask @everyone", "", "mentions"},
		{"other markup", "other", "**rich**", "", "markup"},
		{"other too long", "other", strings.Repeat("a", MaxOther+1), "", "at most 80"},
		{"unknown app", "bitcoin", "1abc", "", "I know the payment apps"},
		{"empty", "venmo", "", "", "followed by your name"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var words []string
			if tt.text != "" {
				words = strings.Fields(tt.text)
			}
			h, err := ParseHandle(tt.app, words)
			if tt.want != "" {
				if err != nil || h.String() != tt.want {
					t.Fatalf("ParseHandle(%s, %q) = %q, %v; want %q", tt.app, tt.text, h.String(), err, tt.want)
				}
				return
			}
			if err == nil || errs.CodeOf(err) != errs.Invalid || !strings.Contains(err.Error(), tt.err) {
				t.Fatalf("ParseHandle(%s, %q) = %v, %v; want an Invalid error saying %q", tt.app, tt.text, h, err, tt.err)
			}
		})
	}
}

func TestLinks(t *testing.T) {
	for _, tt := range []struct {
		h    Handle
		cur  string
		want string
	}{
		{Handle{"venmo", "@alice-w"}, "USD", "https://venmo.com/alice-w?txn=pay&amount=12.50"},
		{Handle{"cashapp", "$alice"}, "USD", "https://cash.app/$alice/12.50"},
		{Handle{"paypal", "alicesmith"}, "EUR", "https://paypal.me/alicesmith/12.50EUR"},
		{Handle{"venmo", "@alice-w"}, "EUR", "https://venmo.com/u/alice-w"},
		{Handle{"zelle", "alice@example.com"}, "USD", ""},
		{Handle{"other", "cash"}, "USD", ""},
	} {
		if got := tt.h.Link(1250, tt.cur); got != tt.want {
			t.Errorf("%v link for 12.50 %s = %q, want %q", tt.h, tt.cur, got, tt.want)
		}
	}
}

func bal(pairs ...any) []Balance {
	var out []Balance
	for i := 0; i < len(pairs); i += 2 {
		out = append(out, Balance{User: pairs[i].(string), Name: pairs[i].(string), Net: int64(pairs[i+1].(int))})
	}
	return out
}

func TestSettle(t *testing.T) {
	fewest, err := Settle(bal("alice", 500, "bob", -300, "carol", -200), "", "")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := transfers(fewest), "bob->alice 300, carol->alice 200"; got != want {
		t.Errorf("fewest: %s, want %s", got, want)
	}
	bank, err := Settle(bal("alice", 500, "bob", -300, "carol", -200, "dave", 0), "dave", "dave")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := transfers(bank), "bob->dave 300, carol->dave 200, dave->alice 500"; got != want {
		t.Errorf("bank: %s, want %s", got, want)
	}
	// The host as the bank who also won: nobody pays themselves.
	bank, _ = Settle(bal("alice", 500, "bob", -300, "carol", -200), "alice", "alice")
	if got, want := transfers(bank), "bob->alice 300, carol->alice 200"; got != want {
		t.Errorf("winning bank: %s, want %s", got, want)
	}
	if _, err := Settle(bal("alice", 5, "bob", -4), "", ""); err == nil {
		t.Error("balances off by one settled")
	}
}

func transfers(ts []Transfer) string {
	var s []string
	for _, t := range ts {
		s = append(s, fmt.Sprintf("%s->%s %d", t.From.User, t.To.User, t.Amount))
	}
	return strings.Join(s, ", ")
}

func TestSplit(t *testing.T) {
	if got := fmt.Sprint(Split(1000, 3)); got != "[334 333 333]" {
		t.Errorf("Split(10.00, 3) = %s", got)
	}
}

// The book: an expense after the night was settled adds only the payments still needed, and the
// debts' statuses follow their events.
func TestBookOwedAndTransitions(t *testing.T) {
	t0 := time.Date(2026, 3, 6, 23, 0, 0, 0, time.UTC)
	night := Event{Table: "console/local/console", Started: t0.Add(-3 * time.Hour), Currency: "USD"}
	ev := func(seq uint64, e Event) Event {
		e.Seq, e.Time, e.Table, e.Started, e.Currency = seq, t0.Add(time.Duration(seq)*time.Minute), night.Table, night.Started, "USD"
		return e
	}
	events := []Event{
		ev(1, Event{Kind: KindSession, Shares: []Share{{User: "alice", Name: "alice", Amount: 500}, {User: "bob", Name: "bob", Amount: -500}}}),
		ev(2, Event{Kind: KindDebt, From: "bob", FromName: "bob", To: "alice", ToName: "alice", Amount: 500, RemindAfter: 48 * time.Hour}),
		ev(3, Event{Kind: KindExpense, By: "alice", ByName: "alice", Amount: 3000, Note: "pizza",
			Shares: []Share{{User: "alice", Amount: 1000}, {User: "bob", Amount: 1000}, {User: "carol", Name: "carol", Amount: 1000}}}),
	}
	b := Fold(events)
	n := b.Night(night.Table, night.Started)
	ts, err := Settle(n.Owed(), "", "")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := transfers(ts), "bob->alice 1000, carol->alice 1000"; got != want {
		t.Errorf("after the pizza: %s, want %s", got, want)
	}
	d := b.Debt(2)
	for _, tt := range []struct {
		kind, user, err string
	}{
		{KindPaid, "carol", "only they can mark it"},
		{KindPaid, "alice", "confirm bob"},
		{KindDisputed, "alice", "nothing to dispute"},
		{KindConfirmed, "bob", "Only alice"},
		{KindPaid, "bob", ""},
	} {
		err := Transition(d, tt.kind, tt.user)
		if tt.err == "" && err != nil || tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)) {
			t.Errorf("%s by %s: %v, want %q", tt.kind, tt.user, err, tt.err)
		}
	}
	b = Fold(append(events, ev(4, Event{Kind: KindPaid, Debt: 2, By: "bob"}), ev(5, Event{Kind: KindConfirmed, Debt: 2, By: "alice"})))
	d = b.Debt(2)
	if d.Status != Confirmed {
		t.Fatalf("status %s, want confirmed", d.Status)
	}
	if err := Transition(d, KindPaid, "bob"); err == nil || !errors.Is(err, errs.E(errs.Invalid)) {
		t.Errorf("the payer reopened a confirmed debt: %v", err)
	}
}

func TestDue(t *testing.T) {
	t0 := time.Date(2026, 3, 6, 23, 0, 0, 0, time.UTC)
	events := []Event{{Seq: 1, Time: t0, Kind: KindDebt, From: "bob", To: "alice", Amount: 5, RemindAfter: 48 * time.Hour}}
	if due := Fold(events).Due(t0.Add(47 * time.Hour)); len(due) != 0 {
		t.Errorf("reminded before the delay: %v", due)
	}
	if due := Fold(events).Due(t0.Add(48 * time.Hour)); len(due) != 1 {
		t.Errorf("not reminded after the delay")
	}
	events = append(events, Event{Seq: 2, Time: t0.Add(48 * time.Hour), Kind: KindReminded, Reminded: []uint64{1}})
	if due := Fold(events).Due(t0.Add(71 * time.Hour)); len(due) != 0 {
		t.Errorf("reminded twice in a day")
	}
	if due := Fold(events).Due(t0.Add(72 * time.Hour)); len(due) != 1 {
		t.Errorf("not reminded a day later")
	}
}
