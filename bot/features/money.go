package features

import (
	"context"
	"strings"

	"github.com/dealerbot/dealerbot/bot"
	"github.com/dealerbot/dealerbot/bot/money"
	"github.com/dealerbot/dealerbot/bot/table"
	"github.com/dealerbot/dealerbot/bot/vocab"
)

// moneyTables is what the money verbs read of the tables (money.Tables), from the dealer's store.
type moneyTables struct{ store bot.Store }

// Open returns the facts of the channel's open table that the money verbs read.
func (t moneyTables) Open(ctx context.Context, tableID string) (money.Table, bool, error) {
	rec, open, err := t.store.Table(ctx, tableID)
	if err != nil || !open {
		return money.Table{}, false, err
	}
	m := rec.Settings.Money
	out := money.Table{ID: rec.ID, Channel: rec.Channel, Host: rec.Host, Started: rec.Started,
		Money: m.On() && rec.Tournament == nil, Currency: m.Currency}
	for _, st := range rec.Standings {
		out.Standings = append(out.Standings, money.Share{User: st.User, Name: st.Name})
	}
	for _, s := range rec.Seats {
		if s.User != "" {
			out.Seated = append(out.Seated, money.Share{User: s.User, Name: s.Name})
		}
	}
	return out, true, nil
}

// PlayerName returns a player's name in a workspace, "" for a player never seen.
func (t moneyTables) PlayerName(ctx context.Context, workspace, user string) (string, error) {
	p, known, err := t.store.Player(ctx, workspace, user)
	if err != nil || !known {
		return "", err
	}
	return p.Name, nil
}

// Settings hands `set` to the table core's own settings verb (table.SetVerb).
func (moneyTables) Settings(ctx context.Context, env vocab.Env, cmd vocab.Command, args []string) vocab.Reply {
	inner := cmd
	inner.Text = strings.Join(append([]string{table.SetVerb}, args...), " ")
	return env.Do(ctx, inner)
}
