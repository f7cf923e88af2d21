package bot

import (
	"context"
	"errors"
	"time"

	"github.com/dealerbot/dealerbot/bot/money"
	"github.com/dealerbot/dealerbot/bot/table"
	"github.com/dealerbot/dealerbot/render"
)

// MoneyStore keeps the money books (one per community, append-only) and the players' payment
// handles. Every Store implements it; each method is one transaction.
type MoneyStore interface {
	// AppendMoney appends evs to community's book, numbering them on from after, which must be the
	// book's newest Seq (0 for an empty book): when other events came since, it returns
	// ErrMoneyMoved and writes nothing.
	AppendMoney(ctx context.Context, community string, after uint64, evs []money.Event) error
	// MoneyBook returns every event of community's book, in Seq order.
	MoneyBook(ctx context.Context, community string) ([]money.Event, error)
	// MoneyCommunities returns the communities that have a money book.
	MoneyCommunities(ctx context.Context) ([]string, error)
	// SetHandle saves how a player is paid in a community; the zero Handle removes it.
	SetHandle(ctx context.Context, community, user string, h money.Handle) error
	// Handles returns the payment handles of a community's players, by user.
	Handles(ctx context.Context, community string) (map[string]money.Handle, error)
}

// ErrMoneyMoved is AppendMoney's refusal when the book has events the caller did not see.
var ErrMoneyMoved = errors.New("the money book changed meanwhile")

// --- the money book ----------------------------------------------------------------------------

// communityOfCmd is the community whose book and handles a command concerns.
func communityOfCmd(cmd Command) string { return table.Community(cmd.Platform, cmd.Workspace) }

// maxMoneyTries bounds how often an append is worked out again because the book moved meanwhile.
const maxMoneyTries = 8

// appendMoney works out events from the newest book with build and appends them under key (the
// request's, applied once: requestKey); when another event came in meanwhile it works them out
// again, unless the book already holds the request's events (an earlier try landed, unheard). A write whose fate was not heard is read back before anything is said (landed). It returns the book they
// were worked out from and the events as appended (numbered).
func (d *Dealer) appendMoney(ctx context.Context, community, key string, build func(b *money.Book) ([]money.Event, error)) (*money.Book, []money.Event, error) {
	for try := 0; ; try++ {
		evs, err := d.store.MoneyBook(ctx, community)
		if err != nil {
			return nil, nil, err
		}
		if mine := keyed(evs, key); len(mine) > 0 {
			return money.Fold(evs[:mine[0].Seq-1]), mine, nil // landed before, unheard
		}
		b := money.Fold(evs)
		out, err := build(b)
		if err != nil || len(out) == 0 {
			return b, nil, err
		}
		for i := range out {
			out[i].Community, out[i].Key = community, key
		}
		b.Number(out)
		err = d.store.AppendMoney(ctx, community, b.Head, out)
		if errors.Is(err, ErrOutcomeUnknown) {
			err = d.env.Landed(key, err)
		}
		if errors.Is(err, ErrMoneyMoved) && try < maxMoneyTries || errors.Is(err, ErrApplied) {
			continue // the next look at the book finds the request's events, or works them out again
		}
		if err != nil {
			return nil, nil, err
		}
		for i := range out {
			out[i].Seq = b.Head + uint64(i) + 1
		}
		return b, out, nil
	}
}

// keyed returns the events of evs appended under key ("" matches none).
func keyed(evs []money.Event, key string) []money.Event {
	var out []money.Event
	for _, e := range evs {
		if key != "" && e.Key == key {
			out = append(out, e)
		}
	}
	return out
}

// settleSession commits a step's Change that ends a session at a cash table that plays for money:
// the Change also carries the night's results in money and its settle-up's debts, worked out again
// when the money book moved meanwhile. It returns the settle-up for the channel.
func (t *actor) settleSession(ctx context.Context, c table.Change) (*render.Message, error) {
	rec := t.st.Rec
	for try := 0; ; try++ {
		evs, after, msg, err := t.d.settleNight(ctx, rec, *c.Session)
		if err != nil {
			return nil, err
		}
		c.Money, c.MoneyAfter = evs, after
		err = t.d.store.Commit(ctx, c)
		if errors.Is(err, ErrMoneyMoved) && try < maxMoneyTries {
			continue
		}
		if err != nil {
			return nil, err
		}
		return msg, nil
	}
}

// settleNight works out a session's money events: its results in money (rounded so that they still
// add up to zero) and one debt per payment of the settle-up, which squares the results and the
// night's expenses. after is the book's newest event they go after.
func (d *Dealer) settleNight(ctx context.Context, rec table.TableRecord, s table.SessionRecord) ([]money.Event, uint64, *render.Message, error) {
	m := rec.Settings.Money
	community := table.Community(rec.Platform, rec.Workspace)
	evs, err := d.store.MoneyBook(ctx, community)
	if err != nil {
		return nil, 0, nil, err
	}
	b := money.Fold(evs)
	chips := make([]int64, len(s.Standings))
	for i, st := range s.Standings {
		chips[i] = st.CashedOut - st.BoughtIn
	}
	conv := money.Convert(chips, m.Value, m.Currency)
	session := money.Event{Time: s.Ended, Kind: money.KindSession, Community: community, Platform: rec.Platform, Channel: rec.Channel,
		By: rec.Host, ByName: rec.HostName, Table: rec.ID, Started: rec.Started, Currency: m.Currency, Value: m.Value,
		RemindAfter: m.RemindAfter(), Bank: m.Bank}
	for i, st := range s.Standings {
		sh := money.Share{User: st.User, Name: st.Name, Chips: chips[i], Amount: conv[i].Minor}
		if conv[i].Rounded {
			sh.Exact = conv[i].Exact
		}
		session.Shares = append(session.Shares, sh)
	}
	night := money.Night{Session: &session}
	if n := b.Night(rec.ID, rec.Started); n != nil {
		night.Expenses, night.Debts = n.Expenses, n.Debts
	}
	out := []money.Event{session}
	debts, err := debtsFor(&night, session, b.Head+2, s.Ended)
	view := money.SettleView{Session: &session, Expenses: night.Expenses}
	if err != nil {
		// Cannot happen with converted results and split expenses; say so rather than lose the night.
		d.log.Error("settle-up does not add up", "table", rec.ID, "err", err)
		msg := render.Message{Text: "Settle-up: " + err.Error() + ": settle this night by hand."}
		return out, b.Head, &msg, nil
	}
	out = append(out, debts...)
	b.Number(out)
	view.Debts = out[1:]
	if view.Handles, err = d.store.Handles(ctx, community); err != nil {
		return nil, 0, nil, err
	}
	if m.Bank {
		view.Bank = rec.HostName
	}
	msg := money.SettleMessage(view)
	return out, b.Head, &msg, nil
}

// debtsFor returns the debts still needed to square a night (its balances less its debts), in the
// night's way (the fewest payments, or through its host as the bank), numbered from first.
func debtsFor(n *money.Night, session money.Event, first uint64, now time.Time) ([]money.Event, error) {
	bank, bankName := "", ""
	if session.Bank {
		bank, bankName = session.By, session.ByName
	}
	ts, err := money.Settle(n.Owed(), bank, bankName)
	if err != nil {
		return nil, err
	}
	out := make([]money.Event, len(ts))
	for i, tr := range ts {
		out[i] = money.Event{Seq: first + uint64(i), Time: now, Kind: money.KindDebt, Community: session.Community,
			Platform: session.Platform, Channel: session.Channel, Table: session.Table, Started: session.Started,
			From: tr.From.User, FromName: tr.From.Name, To: tr.To.User, ToName: tr.To.Name, Amount: tr.Amount,
			Currency: session.Currency, RemindAfter: session.RemindAfter}
	}
	return out, nil
}
