package money

import (
	"bytes"
	"context"
	"encoding/csv"
	"strconv"
	"strings"
	"time"

	"github.com/dealerbot/dealerbot/bot/errs"
	"github.com/dealerbot/dealerbot/bot/vocab"
	"github.com/dealerbot/dealerbot/render"
)

// CSVHeader is the first row of `export money`.
var CSVHeader = []string{"event", "time", "kind", "game", "table", "by", "player", "from", "to", "chips", "amount", "currency", "debt", "note"}

// exportMoney answers `export money`: the community's money book as CSV, one row per event (and per
// player of a session's results or an expense's split), dates in the channel's time zone (env.Zone),
// amounts as decimals a spreadsheet reads as numbers.
func (v verbs) exportMoney(ctx context.Context, env vocab.Env, cmd vocab.Command, args []string) (vocab.Reply, error) {
	if len(args) > 0 {
		return vocab.Reply{}, errs.Errorf(errs.Invalid, "Write `export money` alone: it sends the whole money book.")
	}
	evs, err := v.store.MoneyBook(ctx, cmd.Community())
	if err != nil {
		return vocab.Reply{}, err
	}
	if len(evs) == 0 {
		return vocab.Reply{}, errs.Errorf(errs.NotFound, "Nothing has been played for money here yet: `start value=0.01 currency=USD` opens a money game.")
	}
	data, err := CSV(evs, env.Zone(ctx, cmd))
	if err != nil {
		return vocab.Reply{}, err
	}
	return vocab.Reply{Text: "The money book as CSV: sessions, results, expenses, debts and payments, one row per event. Corrections are later rows, never edits.",
		Files: []render.File{{Name: "dealerbot-money.csv", ContentType: "text/csv; charset=utf-8", Data: data}}}, nil
}

// CSV writes a money book as CSV (CSVHeader's columns): a session is a "session" row and a
// "result" row per player; an expense an "expense" row and a "share" row per sharer; every other
// event one row. Amounts are decimals in the currency, chips whole numbers.
func CSV(evs []Event, loc *time.Location) ([]byte, error) {
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	w.UseCRLF = true // what spreadsheets expect
	if err := w.Write(CSVHeader); err != nil {
		return nil, err
	}
	amount := func(minor int64, currency string) string {
		return strings.ReplaceAll(strings.TrimSuffix(Format(minor, currency), " "+currency), ",", "")
	}
	// Debts are named by their numbers (Event.No), as players see them, not by their events' Seq.
	book := Fold(evs)
	debtNo := func(seq uint64) string {
		if d := book.Debt(seq); d != nil {
			return strconv.FormatUint(d.No, 10)
		}
		return strconv.FormatUint(seq, 10)
	}
	for _, e := range book.Events {
		game := ""
		if !e.Started.IsZero() {
			game = e.Started.In(loc).Format("2006-01-02 15:04")
		}
		row := func(kind, player string, chips string, amt string, note string) []string {
			debt := ""
			if e.Debt != 0 {
				debt = debtNo(e.Debt)
			} else if e.Kind == KindDebt {
				debt = debtNo(e.Seq)
			}
			return []string{strconv.FormatUint(e.Seq, 10), e.Time.In(loc).Format("2006-01-02 15:04:05"), kind, game, e.Table,
				e.ByName, player, e.FromName, e.ToName, chips, amt, e.Currency, debt, note}
		}
		var rows [][]string
		switch e.Kind {
		case KindSession:
			rows = append(rows, row("session", "", "", "", e.Value.Describe(e.Currency)))
			for _, s := range e.Shares {
				note := ""
				if s.Exact != "" {
					note = "rounded from " + s.Exact
				}
				rows = append(rows, row("result", s.Name, strconv.FormatInt(s.Chips, 10), amount(s.Amount, e.Currency), note))
			}
		case KindExpense:
			rows = append(rows, row("expense", "", "", amount(e.Amount, e.Currency), e.Note))
			for _, s := range e.Shares {
				rows = append(rows, row("share", s.Name, "", amount(s.Amount, e.Currency), e.Note))
			}
		case KindReminded:
			for _, id := range e.Reminded {
				r := row("reminded", e.To, "", "", "")
				r[12] = debtNo(id)
				rows = append(rows, r)
			}
		case KindDebt:
			note := ""
			if e.Debt != 0 {
				note = "a later expense changes debt #" + debtNo(e.Debt) + " by this amount"
			}
			rows = append(rows, row(e.Kind, "", "", amount(e.Amount, e.Currency), note))
		case KindRemindSet:
			note := "debts of the game no longer reminded"
			if e.RemindAfter > 0 {
				note = "debts of the game reminded " + FormatRemind(e.RemindAfter) + " after the settle-up"
			}
			rows = append(rows, row(e.Kind, "", "", "", note))
		default:
			rows = append(rows, row(e.Kind, "", "", amount(e.Amount, e.Currency), ""))
		}
		for _, r := range rows {
			for i, f := range r {
				r[i] = csvSafe(f)
			}
			if err := w.Write(r); err != nil {
				return nil, err
			}
		}
	}
	w.Flush()
	return buf.Bytes(), w.Error()
}

// csvSafe keeps a name from being read as a formula by a spreadsheet (=, +, -, @ first), leaving
// numbers as they are.
func csvSafe(s string) string {
	if s == "" || !strings.ContainsAny(s[:1], "=+-@") {
		return s
	}
	if _, err := strconv.ParseFloat(s, 64); err == nil {
		return s
	}
	return "'" + s
}
