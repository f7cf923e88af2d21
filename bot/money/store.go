package money

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"github.com/dealerbot/dealerbot/bot/errs"
	"github.com/dealerbot/dealerbot/bot/vocab"
	"github.com/dealerbot/dealerbot/render"
)

// Store keeps the money books (one per community, append-only) and the players' payment handles.
// Every dealer's store implements it (bot.Store embeds it); each method is one transaction.
type Store interface {
	// AppendMoney appends evs to community's book, numbering them on from after, which must be the
	// book's newest Seq (0 for an empty book): when other events came since, it returns ErrMoved and
	// writes nothing.
	AppendMoney(ctx context.Context, community string, after uint64, evs []Event) error
	// MoneyBook returns every event of community's book, in Seq order.
	MoneyBook(ctx context.Context, community string) ([]Event, error)
	// MoneyCommunities returns the communities that have a money book.
	MoneyCommunities(ctx context.Context) ([]string, error)
	// SetHandle saves how a player is paid in a community; the zero Handle removes it.
	SetHandle(ctx context.Context, community, user string, h Handle) error
	// Handles returns the payment handles of a community's players, by user.
	Handles(ctx context.Context, community string) (map[string]Handle, error)
}

// ErrMoved is AppendMoney's refusal when the book has events the caller did not see.
var ErrMoved = errors.New("the money book changed meanwhile")

// MaxTries bounds how often an append is worked out again because the book moved meanwhile.
const MaxTries = 8

// Append works out events from the newest book of community with build and appends them under key
// (the request's, applied once: env.Key); when another event came in meanwhile it works them out
// again, unless the book already holds the request's events (an earlier try landed, unheard). A
// write whose fate was not heard is read back before anything is said (env.Landed). It returns the
// book they were worked out from and the events as appended (numbered).
func Append(ctx context.Context, store Store, env vocab.Env, community, key string, build func(b *Book) ([]Event, error)) (*Book, []Event, error) {
	for try := 0; ; try++ {
		evs, err := store.MoneyBook(ctx, community)
		if err != nil {
			return nil, nil, err
		}
		if mine := keyed(evs, key); len(mine) > 0 {
			return Fold(evs[:mine[0].Seq-1]), mine, nil // landed before, unheard
		}
		b := Fold(evs)
		out, err := build(b)
		if err != nil || len(out) == 0 {
			return b, nil, err
		}
		for i := range out {
			out[i].Community, out[i].Key = community, key
		}
		b.Number(out)
		err = store.AppendMoney(ctx, community, b.Head, out)
		if errors.Is(err, errs.ErrOutcomeUnknown) {
			err = env.Landed(key, err)
		}
		if errors.Is(err, ErrMoved) && try < MaxTries || errors.Is(err, errs.ErrApplied) {
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
func keyed(evs []Event, key string) []Event {
	var out []Event
	for _, e := range evs {
		if key != "" && e.Key == key {
			out = append(out, e)
		}
	}
	return out
}

// Session is a session played for money as it ended at its table: what SettleSession settles.
type Session struct {
	Community, Platform, Channel string
	Table                        string // the table's ID
	Host, HostName               string
	Started, Ended               time.Time
	Value                        Value
	Currency                     string
	RemindAfter                  time.Duration // before an open debt is reminded; 0 never
	Bank                         bool          // the host is the bank
	// Results are the players' net chips (Share.Chips), in the standings' order.
	Results []Share
}

// SettleSession works out a session's money events: its results in money (rounded so that they
// still add up to zero) and one debt per payment of the settle-up, which squares the results and the
// night's expenses. after is the book's newest event they go after (the table's commit carries them,
// refused with ErrMoved when the book moved meanwhile); msg is the settle-up for the channel.
func SettleSession(ctx context.Context, store Store, log *slog.Logger, s Session) (evs []Event, after uint64, msg *render.Message, err error) {
	book, err := store.MoneyBook(ctx, s.Community)
	if err != nil {
		return nil, 0, nil, err
	}
	b := Fold(book)
	chips := make([]int64, len(s.Results))
	for i, r := range s.Results {
		chips[i] = r.Chips
	}
	conv := Convert(chips, s.Value, s.Currency)
	session := Event{Time: s.Ended, Kind: KindSession, Community: s.Community, Platform: s.Platform, Channel: s.Channel,
		By: s.Host, ByName: s.HostName, Table: s.Table, Started: s.Started, Currency: s.Currency, Value: s.Value,
		RemindAfter: s.RemindAfter, Bank: s.Bank}
	for i, r := range s.Results {
		sh := Share{User: r.User, Name: r.Name, Chips: chips[i], Amount: conv[i].Minor}
		if conv[i].Rounded {
			sh.Exact = conv[i].Exact
		}
		session.Shares = append(session.Shares, sh)
	}
	night := Night{Session: &session}
	if n := b.Night(s.Table, s.Started); n != nil {
		night.Expenses, night.Debts = n.Expenses, n.Debts
	}
	out := []Event{session}
	debts, err := debtsFor(&night, session, b.Head+2, s.Ended)
	view := SettleView{Session: &session, Expenses: night.Expenses}
	if err != nil {
		// Cannot happen with converted results and split expenses; say so rather than lose the night.
		log.Error("settle-up does not add up", "table", s.Table, "err", err)
		msg := render.Message{Text: "Settle-up: " + err.Error() + ": settle this night by hand."}
		return out, b.Head, &msg, nil
	}
	out = append(out, debts...)
	b.Number(out)
	view.Debts = out[1:]
	if view.Handles, err = store.Handles(ctx, s.Community); err != nil {
		return nil, 0, nil, err
	}
	if s.Bank {
		view.Bank = s.HostName
	}
	m := SettleMessage(view)
	return out, b.Head, &m, nil
}

// debtsFor returns the debts still needed to square a night (its balances less its debts), in the
// night's way (the fewest payments, or through its host as the bank), numbered from first.
func debtsFor(n *Night, session Event, first uint64, now time.Time) ([]Event, error) {
	bank, bankName := "", ""
	if session.Bank {
		bank, bankName = session.By, session.ByName
	}
	ts, err := Settle(n.Owed(), bank, bankName)
	if err != nil {
		return nil, err
	}
	out := make([]Event, len(ts))
	for i, tr := range ts {
		out[i] = Event{Seq: first + uint64(i), Time: now, Kind: KindDebt, Community: session.Community,
			Platform: session.Platform, Channel: session.Channel, Table: session.Table, Started: session.Started,
			From: tr.From.User, FromName: tr.From.Name, To: tr.To.User, ToName: tr.To.Name, Amount: tr.Amount,
			Currency: session.Currency, RemindAfter: session.RemindAfter}
	}
	return out, nil
}
