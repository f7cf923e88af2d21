package money

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/dealerbot/dealerbot/render"
)

// SettleView is what a settle-up message shows: a night's results in money, its expenses and the
// payments that square it (debts, with their numbers), each naming the receiver's handle.
type SettleView struct {
	Session  *Event           // the night's results; nil for an amendment after a late expense
	Expenses []*Event         // the night's expenses (for an amendment: the new one)
	Debts    []Event          // the payments, numbered (for an amendment: the debts as they now stand)
	Was      map[uint64]int64 // for an amendment: what each changed debt (by No) was before
	Handles  map[string]Handle
	Bank     string // the bank's name when the host is the bank
}

// SettleMessage renders a settle-up: the results in money with the rounding shown, the expenses, one
// line per payment with the receiver's handle, a Paid button per payment and a link button for each
// payment whose receiver has an app with links.
func SettleMessage(v SettleView) render.Message {
	var lines []string
	currency := ""
	if v.Session != nil {
		currency = v.Session.Currency
		lines = append(lines, fmt.Sprintf("Settle-up · %s", v.Session.Value.Describe(currency)))
		shares := slices.Clone(v.Session.Shares)
		slices.SortStableFunc(shares, func(a, b Share) int {
			if c := cmp.Compare(b.Amount, a.Amount); c != 0 {
				return c
			}
			return strings.Compare(a.Name, b.Name)
		})
		var rounded []string
		for i, s := range shares {
			lines = append(lines, fmt.Sprintf("%d. %s %s chips = %s", i+1, s.Name, signedChips(s.Chips), Signed(s.Amount, currency)))
			if s.Exact != "" {
				rounded = append(rounded, fmt.Sprintf("%s %s → %s", s.Name, s.Exact, Signed(s.Amount, currency)))
			}
		}
		if len(rounded) > 0 {
			lines = append(lines, fmt.Sprintf("Rounded to %s, still adding up to zero: %s.", Format(1, currency), strings.Join(rounded, "; ")))
		}
	}
	for _, x := range v.Expenses {
		currency = x.Currency
		lines = append(lines, "Expense: "+ExpenseLine(x))
	}
	if v.Bank != "" {
		lines = append(lines, fmt.Sprintf("%s is the bank: losers pay %s, and %s pays the winners.", v.Bank, v.Bank, v.Bank))
	}
	var buttons []render.Button
	if len(v.Debts) == 0 {
		lines = append(lines, "Everyone is square: nobody pays anyone.")
	} else {
		lines = append(lines, "Payments:")
	}
	for _, d := range v.Debts {
		line := fmt.Sprintf("• #%d %s pays %s %s", d.No, d.FromName, d.ToName, Format(d.Amount, d.Currency))
		if was, ok := v.Was[d.No]; ok {
			line += fmt.Sprintf(" (was %s)", Format(was, d.Currency))
		}
		h := v.Handles[d.To]
		if !h.IsZero() {
			line += " · " + code(h)
		}
		lines = append(lines, line)
		buttons = append(buttons, render.Button{Label: fmt.Sprintf("Paid #%d", d.No), Command: fmt.Sprintf("paid %d", d.No), Style: render.Success})
		if link := h.Link(d.Amount, d.Currency); link != "" {
			buttons = append(buttons, render.Button{Label: fmt.Sprintf("Pay %s %s (%s)", d.ToName, Format(d.Amount, d.Currency), h.AppName()), URL: link})
		}
	}
	if len(v.Debts) > 0 {
		lines = append(lines, "Paid? Click Paid or type `paid NAME`; the receiver then types `confirm NAME` (or `dispute NAME`). `debts` lists what is open. dealerbot never moves money.")
	}
	return render.Message{Text: strings.Join(lines, "\n"), Buttons: buttons}
}

// code writes a handle as a code span, so no chat turns it into a mention, markup or a link.
func code(h Handle) string {
	switch h.App {
	case "venmo", "cashapp", "zelle":
		return h.AppName() + " `" + h.Name + "`"
	case "paypal":
		return "PayPal.me `" + h.Name + "`"
	}
	return "`" + h.Name + "`"
}

// HandleText is a handle as messages show it: the app, then the name in a code span.
func HandleText(h Handle) string { return code(h) }

// ExpenseLine describes an expense: "pizza 30.00 USD paid by alice, split between alice, bob and
// carol (10.00 USD each)".
func ExpenseLine(x *Event) string {
	var names []string
	equal := true
	for _, s := range x.Shares {
		names = append(names, s.Name)
		if s.Amount != x.Shares[0].Amount {
			equal = false
		}
	}
	each := ""
	if len(x.Shares) > 0 {
		if equal {
			each = fmt.Sprintf(" (%s each)", Format(x.Shares[0].Amount, x.Currency))
		} else {
			var parts []string
			for _, s := range x.Shares {
				parts = append(parts, s.Name+" "+Format(s.Amount, x.Currency))
			}
			each = " (" + strings.Join(parts, ", ") + ")"
		}
	}
	return fmt.Sprintf("%s %s paid by %s, split between %s%s", x.Note, Format(x.Amount, x.Currency), x.ByName, strings.Join(names, ", "), each)
}

func signedChips(n int64) string {
	if n > 0 {
		return "+" + render.Chips(n)
	}
	return render.Chips(n)
}
