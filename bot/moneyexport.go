package bot

import (
	"bytes"
	"context"
	"encoding/csv"
	"strconv"
	"strings"
	"time"

	"github.com/dealerbot/dealerbot/bot/errs"
	"github.com/dealerbot/dealerbot/bot/money"
	"github.com/dealerbot/dealerbot/render"
)

// MoneyCSVHeader is the first row of `export money`.
var MoneyCSVHeader = []string{"event", "time", "kind", "game", "table", "by", "player", "from", "to", "chips", "amount", "currency", "debt", "note"}

// exportZone is the time zone of the channel's schedule, else the scheduler's default, else UTC.
func (d *Dealer) exportZone(ctx context.Context, cmd Command) *time.Location {
	m := d.sched.Load()
	if m == nil {
		return time.UTC
	}
	if ss, err := m.Store.Schedules(ctx); err == nil {
		for _, s := range ss {
			if s.Platform == cmd.Platform && s.Workspace == cmd.Workspace && s.Channel == cmd.Channel {
				if spec, err := s.Spec(); err == nil {
					return spec.Loc
				}
			}
		}
	}
	if loc, err := time.LoadLocation(m.DefaultZone); err == nil {
		return loc
	}
	return time.UTC
}

// exportMoney answers `export money`: the community's money book as CSV, one row per event (and per
// player of a session's results or an expense's split), dates in the schedule's time zone, amounts
// as decimals a spreadsheet reads as numbers.
func (d *Dealer) exportMoney(ctx context.Context, cmd Command, args []string) (Reply, error) {
	if len(args) > 0 {
		return Reply{}, errs.Errorf(errs.Invalid, "Write `export money` alone: it sends the whole money book.")
	}
	evs, err := d.store.MoneyBook(ctx, communityOfCmd(cmd))
	if err != nil {
		return Reply{}, err
	}
	if len(evs) == 0 {
		return Reply{}, errs.Errorf(errs.NotFound, "Nothing has been played for money here yet: `start value=0.01 currency=USD` opens a money game.")
	}
	data, err := MoneyCSV(evs, d.exportZone(ctx, cmd))
	if err != nil {
		return Reply{}, err
	}
	return Reply{Text: "The money book as CSV: sessions, results, expenses, debts and payments, one row per event. Corrections are later rows, never edits.",
		Files: []render.File{{Name: "dealerbot-money.csv", ContentType: "text/csv; charset=utf-8", Data: data}}}, nil
}

// MoneyCSV writes a money book as CSV (MoneyCSVHeader's columns): a session is a "session" row and a
// "result" row per player; an expense an "expense" row and a "share" row per sharer; every other
// event one row. Amounts are decimals in the currency, chips whole numbers.
func MoneyCSV(evs []money.Event, loc *time.Location) ([]byte, error) {
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	w.UseCRLF = true // what spreadsheets expect
	if err := w.Write(MoneyCSVHeader); err != nil {
		return nil, err
	}
	amount := func(minor int64, currency string) string {
		return strings.ReplaceAll(strings.TrimSuffix(money.Format(minor, currency), " "+currency), ",", "")
	}
	// Debts are named by their numbers (Event.No), as players see them, not by their events' Seq.
	book := money.Fold(evs)
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
			} else if e.Kind == money.KindDebt {
				debt = debtNo(e.Seq)
			}
			return []string{strconv.FormatUint(e.Seq, 10), e.Time.In(loc).Format("2006-01-02 15:04:05"), kind, game, e.Table,
				e.ByName, player, e.FromName, e.ToName, chips, amt, e.Currency, debt, note}
		}
		var rows [][]string
		switch e.Kind {
		case money.KindSession:
			rows = append(rows, row("session", "", "", "", e.Value.Describe(e.Currency)))
			for _, s := range e.Shares {
				note := ""
				if s.Exact != "" {
					note = "rounded from " + s.Exact
				}
				rows = append(rows, row("result", s.Name, strconv.FormatInt(s.Chips, 10), amount(s.Amount, e.Currency), note))
			}
		case money.KindExpense:
			rows = append(rows, row("expense", "", "", amount(e.Amount, e.Currency), e.Note))
			for _, s := range e.Shares {
				rows = append(rows, row("share", s.Name, "", amount(s.Amount, e.Currency), e.Note))
			}
		case money.KindReminded:
			for _, id := range e.Reminded {
				r := row("reminded", e.To, "", "", "")
				r[12] = debtNo(id)
				rows = append(rows, r)
			}
		case money.KindDebt:
			note := ""
			if e.Debt != 0 {
				note = "a later expense changes debt #" + debtNo(e.Debt) + " by this amount"
			}
			rows = append(rows, row(e.Kind, "", "", amount(e.Amount, e.Currency), note))
		case money.KindRemindSet:
			note := "debts of the game no longer reminded"
			if e.RemindAfter > 0 {
				note = "debts of the game reminded " + money.FormatRemind(e.RemindAfter) + " after the settle-up"
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
