package money

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/dealerbot/dealerbot/bot/errs"
)

// Event kinds of the money book. Nothing in the book is ever changed or removed: a correction is a
// later event (a dispute after a payment, say).
const (
	KindSession   = "session"   // a session at a table with a chip value ended: each player's result
	KindExpense   = "expense"   // a player paid for something the night's players share
	KindDebt      = "debt"      // a payment of a settle-up: From owes To Amount
	KindPaid      = "paid"      // the payer says they paid debt Debt
	KindConfirmed = "confirmed" // the receiver says they received it
	KindDisputed  = "disputed"  // the receiver says they have not received it
	KindForgiven  = "forgiven"  // the receiver lets the payer off
	KindReminded  = "reminded"  // the dealer reminded a payer of debts Reminded
	// KindRemindSet: the host of a night (or an admin) changed when its open debts are reminded
	// (RemindAfter; 0: never), after the night.
	KindRemindSet = "remind set"
)

// Event is one entry of a community's money book.
type Event struct {
	Seq uint64 // the event's number in its community's book, from 1; set by the store
	// No is a debt's or an expense's number in its community, from 1 without gaps, one count for
	// debts and one for expenses: what players see ("debt #3") and type ("paid 3"). Book.Number gives
	// it before the event is appended (the append is conditional on the book's head, so two writers
	// never give one number twice) and the stores keep it. The events of books written before it
	// existed have none: their number is their Seq, as it was then, so the messages and buttons
	// already sent still name the same debts, and new numbers go on after the largest.
	No        uint64 `json:",omitempty"`
	Time      time.Time
	Kind      string
	Community string // "discord/GUILD": the book's community (table.Community)
	Platform  string `json:",omitempty"`
	Channel   string `json:",omitempty"` // the channel of the night's table
	By        string `json:",omitempty"` // who did it: a user ID, or empty for the dealer
	ByName    string `json:",omitempty"`
	// The night: the session's table and when it started.
	Table   string    `json:",omitempty"`
	Started time.Time `json:",omitzero"`
	// Debt is the Seq of the debt a paid, confirmed, disputed or forgiven event is about. On a debt
	// event it makes the event an amendment of that debt instead of a new one: Amount is added to
	// it (an expense after the settle-up nets into the debt between the same two players).
	Debt     uint64 `json:",omitempty"`
	From     string `json:",omitempty"` // a debt's payer
	FromName string `json:",omitempty"`
	To       string `json:",omitempty"` // a debt's receiver
	ToName   string `json:",omitempty"`
	Amount   int64  `json:",omitempty"` // minor units of Currency: a debt, an expense
	Currency string `json:",omitempty"`
	Value    Value  `json:",omitzero"` // a session's chip value
	// Shares are a session's results (Chips and Amount, the net of each player) or an expense's
	// split (Amount, each sharer's part).
	Shares []Share `json:",omitempty"`
	Note   string  `json:",omitempty"` // what an expense was for
	// RemindAfter is how long after a debt opens its payer is first reminded; 0: never.
	RemindAfter time.Duration `json:",omitempty"`
	// Bank, on a session, says its host (By) is the bank: every payment of its nights goes through them.
	Bank     bool     `json:",omitempty"`
	Reminded []uint64 `json:",omitempty"` // the debts a reminder named
	// Key names the request that appended the event (every event of one append shares it): the store
	// keeps it under a unique constraint with the append, so the same request is applied once, and a
	// writer that lost the answer finds its events in the book by it.
	Key string `json:",omitempty"`
}

// Share is one player's part of a session's results or of an expense.
type Share struct {
	User   string
	Name   string
	Chips  int64  `json:",omitempty"`
	Amount int64  // minor units
	Exact  string `json:",omitempty"` // a result before rounding, when rounding changed it
}

// Debt statuses.
const (
	Open      = "open"
	Paid      = "paid"      // the payer says paid; the receiver has not confirmed
	Confirmed = "confirmed" // received
	Disputed  = "disputed"  // the receiver says not received: open again
	Forgiven  = "forgiven"
)

// Debt is a settle-up payment and what became of it.
type Debt struct {
	ID       uint64 // the Seq of its debt event: what the book's later events name
	No       uint64 // its number for players (Event.No)
	Opened   Event  // its debt event, with Amount the amount owed after amendments
	Status   string
	Changed  time.Time // when the status last changed
	Reminded time.Time // when the payer was last reminded of it; zero: never
}

// Settled reports whether nothing more is expected of the debt.
func (d *Debt) Settled() bool { return d.Status == Confirmed || d.Status == Forgiven }

// Night is one session of a table with a chip value: its results, its expenses and its debts.
type Night struct {
	Table    string
	Started  time.Time
	Channel  string
	Currency string
	Session  *Event   // nil while the session still runs
	Expenses []*Event // in order
	Debts    []*Debt
}

// Book is a community's money book worked out from its events.
type Book struct {
	Head   uint64 // the newest event's Seq: appends go after it
	Events []Event
	Nights []*Night
	Debts  []*Debt
	nights map[string]*Night
	debts  map[uint64]*Debt
	byNo   map[uint64]*Debt
	// the numbers of the newest debt and expense
	debtNo, expenseNo uint64
}

func nightKey(table string, started time.Time) string {
	return fmt.Sprintf("%s@%d", table, started.UnixNano())
}

// Fold works out a book from its events, in Seq order.
func Fold(events []Event) *Book {
	b := &Book{nights: map[string]*Night{}, debts: map[uint64]*Debt{}, byNo: map[uint64]*Debt{}}
	for _, e := range events {
		b.apply(e)
	}
	return b
}

// Night returns the night of a table's session, or nil.
func (b *Book) Night(table string, started time.Time) *Night {
	return b.nights[nightKey(table, started)]
}

// Debt returns the debt whose event is id (its Seq), or nil.
func (b *Book) Debt(id uint64) *Debt { return b.debts[id] }

// DebtNo returns debt number no (what players see and type), or nil.
func (b *Book) DebtNo(no uint64) *Debt { return b.byNo[no] }

// Number gives the debts and expenses of evs, events to be appended after the book's newest, their
// numbers, in order, after the book's largest (amendments of debts get none).
func (b *Book) Number(evs []Event) {
	debt, expense := b.debtNo, b.expenseNo
	for i := range evs {
		switch e := &evs[i]; {
		case e.Kind == KindDebt && e.Debt == 0:
			debt++
			e.No = debt
		case e.Kind == KindExpense:
			expense++
			e.No = expense
		}
	}
}

func (b *Book) night(e Event) *Night {
	k := nightKey(e.Table, e.Started)
	n := b.nights[k]
	if n == nil {
		n = &Night{Table: e.Table, Started: e.Started, Channel: e.Channel, Currency: e.Currency}
		b.nights[k] = n
		b.Nights = append(b.Nights, n)
	}
	return n
}

func (b *Book) apply(e Event) {
	b.Head = max(b.Head, e.Seq)
	b.Events = append(b.Events, e)
	switch e.Kind {
	case KindSession:
		b.night(e).Session = &e // e is this call's own copy
	case KindExpense:
		if e.No == 0 {
			e.No = e.Seq // written before numbers were given
		}
		b.expenseNo = max(b.expenseNo, e.No)
		b.Events[len(b.Events)-1].No = e.No
		n := b.night(e)
		n.Expenses = append(n.Expenses, &e)
	case KindDebt:
		if e.Debt != 0 { // an amendment: the debt's amount changes, it stays one debt
			if d := b.debts[e.Debt]; d != nil {
				d.Opened.Amount += e.Amount
				d.Changed = e.Time
			}
			return
		}
		if e.No == 0 {
			e.No = e.Seq // written before numbers were given
		}
		b.debtNo = max(b.debtNo, e.No)
		b.Events[len(b.Events)-1].No = e.No
		d := &Debt{ID: e.Seq, No: e.No, Opened: e, Status: Open, Changed: e.Time}
		b.debts[e.Seq] = d
		b.byNo[d.No] = d
		b.Debts = append(b.Debts, d)
		if e.Table != "" {
			n := b.night(e)
			n.Debts = append(n.Debts, d)
		}
	case KindPaid, KindConfirmed, KindDisputed, KindForgiven:
		if d := b.debts[e.Debt]; d != nil {
			d.Status, d.Changed = statusOf[e.Kind], e.Time
		}
	case KindRemindSet:
		if n := b.nights[nightKey(e.Table, e.Started)]; n != nil {
			for _, d := range n.Debts {
				if !d.Settled() {
					d.Opened.RemindAfter = max(e.RemindAfter, 0)
				}
			}
		}
	case KindReminded:
		for _, id := range e.Reminded {
			if d := b.debts[id]; d != nil {
				d.Reminded = e.Time
			}
		}
	}
}

var statusOf = map[string]string{KindPaid: Paid, KindConfirmed: Confirmed, KindDisputed: Disputed, KindForgiven: Forgiven}

// Transition checks whether user may turn debt d's status with an event of kind, and returns the
// refusal as a sentence for players. Only the payer and the receiver may mark a debt: the payer says
// paid; the receiver confirms, disputes or forgives; a confirmed or forgiven debt stays so (only the
// receiver can dispute a confirmed one, for a payment that bounced).
func Transition(d *Debt, kind, user string) error {
	payer, receiver := d.Opened.From == user, d.Opened.To == user
	if !payer && !receiver {
		return errs.Errorf(errs.Invalid, "Debt #%d is between %s and %s: only they can mark it.", d.No, d.Opened.FromName, d.Opened.ToName)
	}
	switch kind {
	case KindPaid:
		if !payer {
			return errs.Errorf(errs.Invalid, "Debt #%d is %s's to pay: as the receiver, type `confirm %s` once you have the money.", d.No, d.Opened.FromName, d.Opened.FromName)
		}
		switch d.Status {
		case Paid:
			return errs.Errorf(errs.Invalid, "You already said you paid debt #%d: %s has yet to confirm it.", d.No, d.Opened.ToName)
		case Confirmed:
			return errs.Errorf(errs.Invalid, "Debt #%d is paid and confirmed already.", d.No)
		case Forgiven:
			return errs.Errorf(errs.Invalid, "%s forgave debt #%d: there is nothing to pay.", d.Opened.ToName, d.No)
		}
	case KindConfirmed, KindDisputed, KindForgiven:
		if !receiver {
			return errs.Errorf(errs.Invalid, "Only %s, who is owed debt #%d, can %s it.", d.Opened.ToName, d.No, verbOf[kind])
		}
		switch {
		case d.Status == Forgiven:
			return errs.Errorf(errs.Invalid, "You forgave debt #%d already.", d.No)
		case kind == KindConfirmed && d.Status == Confirmed:
			return errs.Errorf(errs.Invalid, "Debt #%d is confirmed already.", d.No)
		case kind == KindDisputed && (d.Status == Open || d.Status == Disputed):
			return errs.Errorf(errs.Invalid, "%s has not said they paid debt #%d: it is still open, nothing to dispute.", d.Opened.FromName, d.No)
		case kind == KindForgiven && d.Status == Confirmed:
			return errs.Errorf(errs.Invalid, "Debt #%d is paid and confirmed: there is nothing left to forgive.", d.No)
		}
	}
	return nil
}

var verbOf = map[string]string{KindConfirmed: "confirm", KindDisputed: "dispute", KindForgiven: "forgive"}

// Balances are a night's money results and expenses added up by player: what each is up (or down)
// before any payment, and the players in the order they first appear.
func (n *Night) Balances() []Balance {
	idx := map[string]int{}
	var out []Balance
	add := func(user, name string, amount int64) {
		i, ok := idx[user]
		if !ok {
			i = len(out)
			idx[user] = i
			out = append(out, Balance{User: user, Name: name})
		}
		out[i].Net += amount
	}
	if n.Session != nil {
		for _, s := range n.Session.Shares {
			add(s.User, s.Name, s.Amount)
		}
	}
	for _, x := range n.Expenses {
		add(x.By, x.ByName, x.Amount)
		for _, s := range x.Shares {
			add(s.User, s.Name, -s.Amount)
		}
	}
	return out
}

// Owed is what is still to be squared for a night: its balances less the debts already opened for it.
func (n *Night) Owed() []Balance {
	bal := n.Balances()
	idx := map[string]int{}
	for i, b := range bal {
		idx[b.User] = i
	}
	for _, d := range n.Debts {
		if i, ok := idx[d.Opened.From]; ok {
			bal[i].Net += d.Opened.Amount
		}
		if i, ok := idx[d.Opened.To]; ok {
			bal[i].Net -= d.Opened.Amount
		}
	}
	return bal
}

// Transfer is one payment that squares a night.
type Transfer struct {
	From, To Balance
	Amount   int64
}

// Settle returns the payments that square balances (summing to zero): the fewest payments, or, with
// a bank (a user), every loser pays the bank and the bank pays every winner.
func Settle(bal []Balance, bank, bankName string) ([]Transfer, error) {
	if bank == "" {
		ps, err := SettleUp(bal)
		if err != nil {
			return nil, err
		}
		out := make([]Transfer, len(ps))
		for i, p := range ps {
			out[i] = Transfer{From: p.From, To: p.To, Amount: p.Amount}
		}
		return out, nil
	}
	var sum int64
	for _, b := range bal {
		sum += b.Net
	}
	if sum != 0 {
		return nil, fmt.Errorf("the results do not add up to zero (off by %d)", sum)
	}
	host := Balance{User: bank, Name: bankName}
	sorted := slices.Clone(bal)
	slices.SortStableFunc(sorted, func(a, b Balance) int {
		if c := cmp.Compare(abs(b.Net), abs(a.Net)); c != 0 {
			return c
		}
		return strings.Compare(a.Name, b.Name)
	})
	var in, out []Transfer
	for _, b := range sorted {
		switch {
		case b.User == bank:
			host.Name = b.Name
		case b.Net < 0:
			in = append(in, Transfer{From: b, To: host, Amount: -b.Net})
		case b.Net > 0:
			out = append(out, Transfer{From: host, To: b, Amount: b.Net})
		}
	}
	for i := range out {
		out[i].From = host
	}
	return append(in, out...), nil
}

// Split divides amount (minor units) between n sharers: equal parts, the first ones a minor unit
// more when it does not divide evenly, so the parts add up to amount.
func Split(amount int64, n int) []int64 {
	parts := make([]int64, n)
	if n == 0 {
		return parts
	}
	each, rest := amount/int64(n), amount%int64(n)
	for i := range parts {
		parts[i] = each
		if int64(i) < rest {
			parts[i]++
		}
	}
	return parts
}

// Due returns the debts whose payer should be reminded at now: open or disputed, past their
// reminder delay, and not reminded in the last day.
func (b *Book) Due(now time.Time) []*Debt {
	var out []*Debt
	for _, d := range b.Debts {
		if d.Status != Open && d.Status != Disputed || d.Opened.RemindAfter <= 0 {
			continue
		}
		if now.Before(d.Opened.Time.Add(d.Opened.RemindAfter)) || !d.Reminded.IsZero() && now.Before(d.Reminded.Add(24*time.Hour)) {
			continue
		}
		out = append(out, d)
	}
	return out
}

func abs(n int64) int64 {
	if n < 0 {
		return -n
	}
	return n
}
