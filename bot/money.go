package bot

import (
	"context"
	"errors"

	"github.com/dealerbot/dealerbot/bot/money"
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
