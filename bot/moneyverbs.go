package bot

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"unicode/utf8"

	"github.com/dealerbot/dealerbot/bot/errs"
	"github.com/dealerbot/dealerbot/bot/money"
	"github.com/dealerbot/dealerbot/bot/table"
	"github.com/dealerbot/dealerbot/render"
)

// The money verbs: payment, debts, paid, confirm, dispute, forgive, expense and export money. They
// are workspace-wide (no table goroutine): each reads the community's money book and appends to it
// only if nobody else did meanwhile (appendMoney), so two of them never trample each other.

const moneyHelp = `start or set with ` + table.MoneyHelp + ` — play for money: the settle-up, debts and stats show money beside chips; remind= is when unpaid debts are reminded by DM, settle=bank makes the host the bank
payment venmo @NAME | cashapp $TAG | paypal NAME | zelle EMAIL-OR-PHONE | other TEXT — how you are paid (shown only in settle-up lines for payments to you); payment — yours; payment clear — remove it
debts — the open debts that concern you (an admin sees all; a host, all of the games they hosted)
paid NAME|N — you paid NAME (or debt #N); confirm NAME|N / dispute NAME|N — as the receiver, you got it or did not; forgive NAME|N — let the payer off
expense 30.00 pizza [@name...] — you paid 30.00 for pizza: it is split between tonight's players (or the names given) and added to tonight's settle-up
export money — a CSV of the money book: sessions, results, expenses, debts and payments, one row per event
stats [NAME] [session|season|all|2026-01-01..2026-03-31] — hands, net chips and money, bb/100, VPIP, PFR, 3-bet, WTSD, W$SD, AF, biggest pot won ("help stats" defines them)
stats chart [PERIOD] [NAME...] — a picture of cumulative results over the period's sessions
dealerbot never moves money: it only records what you say you paid.`

// payment answers `payment`, `payment clear` and `payment APP HANDLE`.
func (d *Dealer) payment(ctx context.Context, cmd Command, args []string) (Reply, error) {
	community := communityOfCmd(cmd)
	if len(args) == 0 {
		hs, err := d.store.Handles(ctx, community)
		if err != nil {
			return Reply{}, err
		}
		if h, found := hs[cmd.User]; found {
			return ok("Your payment handle here: %s. It is shown only in settle-up lines for payments to you; `payment clear` removes it.", money.HandleText(h))
		}
		return ok("You have no payment handle here: write `payment venmo @you`, `payment cashapp $you`, `payment paypal you`, `payment zelle you@example.com` or `payment other TEXT`.")
	}
	if len(args) == 1 && strings.EqualFold(args[0], "clear") {
		if err := d.store.SetHandle(ctx, community, cmd.User, money.Handle{}); err != nil {
			return Reply{}, err
		}
		return ok("Your payment handle is removed.")
	}
	if n := len(strings.Join(args, " ")); n > 200 {
		return Reply{}, errs.Errorf(errs.Invalid, "A payment handle takes at most 200 characters.")
	}
	h, err := money.ParseHandle(args[0], args[1:])
	if err != nil {
		return Reply{}, err
	}
	if err := d.store.SetHandle(ctx, community, cmd.User, h); err != nil {
		return Reply{}, err
	}
	return ok("Saved: you are paid by %s. Only settle-up lines for payments to you show it.", money.HandleText(h))
}

// hostHere reports whether the user hosts the table open in cmd's channel.
func (d *Dealer) hostHere(ctx context.Context, cmd Command) (bool, error) {
	rec, open, err := d.store.Table(ctx, tableID(cmd))
	if err != nil {
		return false, fmt.Errorf("load table %s: %w", tableID(cmd), err)
	}
	return open && rec.Host == cmd.User, nil
}

// debts answers `debts`: the unsettled debts of the community that concern the user, or all of them
// for an admin or the host of the channel's table.
func (d *Dealer) debts(ctx context.Context, cmd Command, args []string) (Reply, error) {
	if len(args) > 0 {
		return Reply{}, errs.Errorf(errs.Invalid, "Write `debts` alone: it lists the open debts that concern you.")
	}
	evs, err := d.store.MoneyBook(ctx, communityOfCmd(cmd))
	if err != nil {
		return Reply{}, err
	}
	b := money.Fold(evs)
	all := cmd.Admin
	if !all {
		if all, err = d.hostHere(ctx, cmd); err != nil {
			return Reply{}, err
		}
	}
	hs, err := d.store.Handles(ctx, communityOfCmd(cmd))
	if err != nil {
		return Reply{}, err
	}
	var lines []string
	var buttons []render.Button
	hosted := false // the user sees a debt as the host of its night
	for _, x := range b.Debts {
		mine := x.Opened.From == cmd.User || x.Opened.To == cmd.User
		if x.Settled() {
			continue
		}
		if !mine && !all {
			// The host of a night sees all its debts, also after `end`: it is after the game that a
			// host chases them.
			if n := b.Night(x.Opened.Table, x.Opened.Started); n == nil || n.Session == nil || n.Session.By != cmd.User {
				continue
			}
			hosted = true
		}
		line := fmt.Sprintf("#%d %s owes %s %s · %s since %s", x.No, x.Opened.FromName, x.Opened.ToName,
			money.Format(x.Opened.Amount, x.Opened.Currency), statusText(x.Status), x.Changed.Format("Mon 2 Jan"))
		if h := hs[x.Opened.To]; x.Opened.From == cmd.User && !h.IsZero() {
			line += " · " + money.HandleText(h) // a payment to that player, shown to its payer
		}
		lines = append(lines, line)
		switch {
		case x.Opened.From == cmd.User && (x.Status == money.Open || x.Status == money.Disputed):
			buttons = append(buttons, render.Button{Label: fmt.Sprintf("Paid #%d", x.No), Command: fmt.Sprintf("paid %d", x.No), Style: render.Success})
		case x.Opened.To == cmd.User && x.Status == money.Paid:
			buttons = append(buttons, render.Button{Label: fmt.Sprintf("Confirm #%d", x.No), Command: fmt.Sprintf("confirm %d", x.No), Style: render.Success},
				render.Button{Label: fmt.Sprintf("Dispute #%d", x.No), Command: fmt.Sprintf("dispute %d", x.No), Style: render.Danger})
		}
	}
	if len(lines) == 0 {
		if all {
			return ok("Nobody owes anybody here.")
		}
		// (a host whose nights' debts are all settled is told the same as a player: nothing open)
		return ok("You owe nobody and nobody owes you.")
	}
	if len(buttons) > 20 {
		buttons = buttons[:20]
	}
	head := "Open debts that concern you:"
	if hosted {
		head = "Open debts of the games you hosted, and those that concern you:"
	}
	if all {
		head = "Open debts here:"
	}
	return Reply{Text: errs.ClipText(head+"\n"+strings.Join(lines, "\n"), errs.MaxReply), Buttons: buttons}, nil
}

func statusText(s string) string {
	switch s {
	case money.Paid:
		return "paid, waiting for confirmation"
	case money.Disputed:
		return "disputed"
	}
	return s
}

// ref is who or what a debt verb names: a debt number (#12) or a player (mention, @name or name).
type ref struct {
	id   uint64
	user string // lower-cased name, or user ID from a mention
}

func parseRef(verb string, args []string) (ref, error) {
	usage := errs.Errorf(errs.Invalid, "Write `%s NAME` with the other player's name or mention, or `%s 12` with the debt's number from `debts`.", verb, verb)
	if len(args) != 1 || len(args[0]) > maxUserRef {
		return ref{}, usage
	}
	// A debt's number, with or without its # (at the console a line ending in #N is a click).
	a := args[0]
	if id, err := strconv.ParseUint(strings.TrimPrefix(a, "#"), 10, 64); err == nil {
		if id == 0 {
			return ref{}, usage
		}
		return ref{id: id}, nil
	} else if strings.HasPrefix(a, "#") {
		return ref{}, usage
	}
	return ref{user: strings.ToLower(strings.Trim(a, "@<>!"))}, nil
}

// names reports whether a player (ID, name) is the one r names.
func (r ref) names(user, name string) bool {
	return r.user != "" && (strings.ToLower(user) == r.user || strings.EqualFold(name, r.user))
}

// markDebt answers paid, confirm, dispute and forgive: it marks the debts the user names, as the
// payer (paid) or the receiver (the others), with one event each.
func (d *Dealer) markDebt(ctx context.Context, cmd Command, kind, verb string, args []string) (Reply, error) {
	r, err := parseRef(verb, args)
	if err != nil {
		return Reply{}, err
	}
	now := d.cfg.Now()
	var marked []*money.Debt
	_, _, err = d.appendMoney(ctx, communityOfCmd(cmd), d.requestKey(cmd), func(b *money.Book) ([]money.Event, error) {
		marked = nil
		if r.id != 0 {
			x := b.DebtNo(r.id)
			if x == nil {
				return nil, errs.Errorf(errs.NotFound, "There is no debt #%d here: `debts` lists them.", r.id)
			}
			if err := money.Transition(x, kind, cmd.User); err != nil {
				return nil, err
			}
			marked = append(marked, x)
		} else {
			var refusal error
			for _, x := range b.Debts {
				other, otherName := x.Opened.To, x.Opened.ToName
				if kind != money.KindPaid {
					other, otherName = x.Opened.From, x.Opened.FromName
				}
				if !r.names(other, otherName) || (kind == money.KindPaid) != (x.Opened.From == cmd.User) || kind != money.KindPaid && x.Opened.To != cmd.User {
					continue
				}
				if err := money.Transition(x, kind, cmd.User); err != nil {
					refusal = err
					continue
				}
				marked = append(marked, x)
			}
			if len(marked) == 0 {
				if refusal != nil {
					return nil, refusal
				}
				if kind == money.KindPaid {
					return nil, errs.Errorf(errs.NotFound, "You owe %s nothing here: `debts` lists what you owe.", args[0])
				}
				return nil, errs.Errorf(errs.NotFound, "%s owes you nothing here: `debts` lists what you are owed.", args[0])
			}
		}
		var out []money.Event
		for _, x := range marked {
			o := x.Opened
			out = append(out, money.Event{Time: now, Kind: kind, Platform: cmd.Platform, Channel: o.Channel, By: cmd.User, ByName: cmd.UserName,
				Table: o.Table, Started: o.Started, Debt: x.ID, From: o.From, FromName: o.FromName, To: o.To, ToName: o.ToName,
				Amount: o.Amount, Currency: o.Currency})
		}
		return out, nil
	})
	if err != nil {
		return Reply{}, err
	}
	var lines []string
	for _, x := range marked {
		o := x.Opened
		what := fmt.Sprintf("#%d (%s pays %s %s)", x.No, o.FromName, o.ToName, money.Format(o.Amount, o.Currency))
		switch kind {
		case money.KindPaid:
			lines = append(lines, fmt.Sprintf("Debt %s marked paid: %s is asked to confirm it.", what, o.ToName))
			d.tell(ctx, cmd, o.To, render.Message{Text: fmt.Sprintf("%s says they paid you %s (debt #%d). Type `confirm %d` once you have it, or `dispute %d` if you do not.",
				o.FromName, money.Format(o.Amount, o.Currency), x.No, x.No, x.No),
				Buttons: []render.Button{{Label: "Confirm", Command: fmt.Sprintf("confirm %d", x.No), Style: render.Success},
					{Label: "Dispute", Command: fmt.Sprintf("dispute %d", x.No), Style: render.Danger}}})
		case money.KindConfirmed:
			lines = append(lines, fmt.Sprintf("Debt %s confirmed: it is settled.", what))
			d.tell(ctx, cmd, o.From, render.Message{Text: fmt.Sprintf("%s confirmed your payment of %s (debt #%d): it is settled.", o.ToName, money.Format(o.Amount, o.Currency), x.No)})
		case money.KindDisputed:
			lines = append(lines, fmt.Sprintf("Debt %s disputed: it is open again, and %s is told.", what, o.FromName))
			d.tell(ctx, cmd, o.From, render.Message{Text: fmt.Sprintf("%s has not received your payment of %s (debt #%d): it is open again. Check with them, then `paid %d` once it is sent.",
				o.ToName, money.Format(o.Amount, o.Currency), x.No, x.No)})
		case money.KindForgiven:
			lines = append(lines, fmt.Sprintf("Debt %s forgiven: %s owes you nothing for it.", what, o.FromName))
			d.tell(ctx, cmd, o.From, render.Message{Text: fmt.Sprintf("%s forgave your debt of %s (#%d): you owe nothing for it.", o.ToName, money.Format(o.Amount, o.Currency), x.No)})
		}
	}
	return Reply{Text: strings.Join(lines, "\n")}, nil
}

// tell sends a private message to a user of cmd's community (a DM where the platform has them); a
// message that cannot be delivered is logged and dropped: the book already says what happened.
func (d *Dealer) tell(ctx context.Context, cmd Command, user string, m render.Message) {
	m.Private = true
	err := d.chat.Send(ctx, Message{Platform: cmd.Platform, Workspace: cmd.Workspace, Channel: cmd.Channel, User: user, Message: m})
	if err != nil && !errors.Is(err, ErrDMBlocked) {
		d.log.Error("send money message", "user", user, "err", err)
	}
}

// Limits on expenses, each named in the sentence that refuses more.
const (
	maxExpenseNote    = 60
	maxExpenseSharers = 20
	maxNightExpenses  = 50
)

// expense answers `expense AMOUNT WHAT [@name...]`: the user paid AMOUNT for WHAT, split between the
// night's players (or the names given) and added to the night's settle-up: the session running at
// the channel's table, or the last one there. After the settle-up, the payments that square the
// expense are new debts, posted to the channel.
func (d *Dealer) expense(ctx context.Context, cmd Command, args []string) (Reply, error) {
	if len(args) < 2 {
		return Reply{}, errs.Errorf(errs.Invalid, "Write `expense 30.00 pizza` to split what you paid between tonight's players, or `expense 30.00 pizza @bob @carol` to split it between those named.")
	}
	var noteWords, named []string
	for _, a := range args[1:] {
		if strings.HasPrefix(a, "@") || strings.HasPrefix(a, "<@") {
			named = append(named, a)
		} else {
			noteWords = append(noteWords, a)
		}
	}
	note := strings.Join(noteWords, " ")
	switch {
	case note == "":
		return Reply{}, errs.Errorf(errs.Invalid, "Say what the expense was for: `expense 30.00 pizza`.")
	case utf8.RuneCountInString(note) > maxExpenseNote:
		return Reply{}, errs.Errorf(errs.Invalid, "Describe the expense in at most %d characters.", maxExpenseNote)
	case len(named) > maxExpenseSharers:
		return Reply{}, errs.Errorf(errs.Invalid, "An expense is split between at most %d players.", maxExpenseSharers)
	}
	if err := money.PlainText(note, "An expense's description"); err != nil {
		return Reply{}, err
	}
	id := tableID(cmd)
	rec, open, err := d.store.Table(ctx, id)
	if err != nil {
		return Reply{}, err
	}
	now := d.cfg.Now()
	var x money.Event
	var settled *money.Event
	before, evs, err := d.appendMoney(ctx, communityOfCmd(cmd), d.requestKey(cmd), func(b *money.Book) ([]money.Event, error) {
		// The night: the session running here, or the last one played for money here.
		var n *money.Night
		var players []money.Share
		currency := ""
		if open && rec.Settings.Money.On() && rec.Tournament == nil {
			currency = rec.Settings.Money.Currency
			n = b.Night(rec.ID, rec.Started)
			for _, st := range rec.Standings {
				players = append(players, money.Share{User: st.User, Name: st.Name})
			}
			for _, s := range rec.Seats {
				if s.User != "" && !slices.ContainsFunc(players, func(p money.Share) bool { return p.User == s.User }) {
					players = append(players, money.Share{User: s.User, Name: s.Name})
				}
			}
			if n == nil {
				n = &money.Night{Table: rec.ID, Started: rec.Started, Channel: rec.Channel, Currency: currency}
			}
		} else {
			for _, c := range b.Nights {
				if c.Table == id && c.Session != nil && (n == nil || c.Started.After(n.Started)) {
					n = c
				}
			}
			if n == nil {
				if open {
					return nil, errs.Errorf(errs.Conflict, "This table plays for chips: the host can `set value=0.01 currency=USD` to play for money, and expenses go into its settle-up.")
				}
				return nil, errs.Errorf(errs.NotFound, "No game here has been played for money yet: expenses go into a money game's settle-up (`start value=0.01 currency=USD`).")
			}
			currency = n.Session.Currency
			for _, s := range n.Session.Shares {
				players = append(players, money.Share{User: s.User, Name: s.Name})
			}
		}
		if len(n.Expenses) >= maxNightExpenses {
			return nil, errs.Errorf(errs.TooMany, "A night takes at most %d expenses.", maxNightExpenses)
		}
		amount, err := money.ParseAmount(args[0], currency)
		if err != nil {
			return nil, err
		}
		sharers := players
		if len(named) > 0 {
			sharers = nil
			for _, a := range named {
				r := ref{user: strings.ToLower(strings.Trim(a, "@<>!"))}
				i := slices.IndexFunc(players, func(p money.Share) bool { return r.names(p.User, p.Name) })
				var s money.Share
				switch {
				case i >= 0:
					s = players[i]
				case strings.HasPrefix(a, "<@") || cmd.Platform == "console":
					s = money.Share{User: strings.Trim(a, "@<>!"), Name: strings.Trim(a, "@<>!")}
					if p, known, err := d.store.Player(ctx, cmd.Workspace, s.User); err == nil && known && p.Name != "" {
						s.Name = p.Name
					}
				default:
					return nil, errs.Errorf(errs.Invalid, "%s did not play tonight: name the players with their mentions.", errs.Quote(a))
				}
				if !slices.ContainsFunc(sharers, func(p money.Share) bool { return p.User == s.User }) {
					sharers = append(sharers, s)
				}
			}
		}
		if len(sharers) == 0 {
			return nil, errs.Errorf(errs.Conflict, "Nobody has played tonight yet to share the expense with: name them, `expense %s %s @bob @carol`.", args[0], note)
		}
		parts := money.Split(amount, len(sharers))
		x = money.Event{Time: now, Kind: money.KindExpense, Platform: cmd.Platform, Channel: cmd.Channel, By: cmd.User, ByName: cmd.UserName,
			Table: n.Table, Started: n.Started, Amount: amount, Currency: currency, Note: note}
		for i, s := range sharers {
			s.Amount = parts[i]
			x.Shares = append(x.Shares, s)
		}
		out := []money.Event{x}
		settled = n.Session
		if n.Session != nil { // the settle-up was posted: square the expense with new debts
			after := *n
			after.Expenses = append(slices.Clone(n.Expenses), &x)
			debts, err := debtsFor(&after, *n.Session, b.Head+2, now)
			if err != nil {
				return nil, err
			}
			out = append(out, netDebts(n, debts, now)...)
		}
		return out, nil
	})
	if err != nil {
		return Reply{}, err
	}
	x = evs[0]
	// The debts as they now stand: new ones, and those the expense changed with what they were.
	standing := make([]money.Event, 0, len(evs)-1)
	was := map[uint64]int64{}
	for _, e := range evs[1:] {
		if d := before.Debt(e.Debt); e.Debt != 0 && d != nil {
			e = d.Opened
			e.Amount += amendOf(evs[1:], d.ID)
			e.No = d.No
			was[d.No] = d.Opened.Amount
		}
		standing = append(standing, e)
	}
	text := fmt.Sprintf("Expense #%d: %s.", x.No, money.ExpenseLine(&x))
	if settled == nil {
		return ok("%s It goes into tonight's settle-up.", text)
	}
	hs, err := d.store.Handles(ctx, communityOfCmd(cmd))
	if err != nil {
		return Reply{}, err
	}
	m := money.SettleMessage(money.SettleView{Expenses: []*money.Event{&x}, Debts: standing, Was: was, Handles: hs})
	m.Text = fmt.Sprintf("%s added an expense to the settle-up of %s:\n%s", cmd.UserName, settled.Started.Format("Mon 2 Jan"), m.Text)
	if err := d.chat.Send(ctx, Message{Platform: cmd.Platform, Workspace: cmd.Workspace, Channel: cmd.Channel, Message: m}); err != nil {
		d.log.Error("post amended settle-up", "err", err)
	}
	return ok("%s The settle-up was already posted, so the payments that square it are added to the open debts between the same players, or are new debts (posted in the channel).", text)
}

// netDebts turns the new debts that square a late expense into amendments of the night's debts
// still open between the same two players (in either direction, when the open one is larger), so
// that an expense after the settle-up changes the debt between them instead of adding another.
// A debt already marked paid, confirmed or forgiven is never changed: the new debt stays new.
func netDebts(n *money.Night, debts []money.Event, now time.Time) []money.Event {
	out := make([]money.Event, 0, len(debts))
	used := map[uint64]bool{}
	for _, e := range debts {
		amended := false
		for _, x := range n.Debts {
			o := x.Opened
			if used[x.ID] || x.Status != money.Open && x.Status != money.Disputed {
				continue
			}
			delta := int64(0)
			switch {
			case o.From == e.From && o.To == e.To:
				delta = e.Amount
			case o.From == e.To && o.To == e.From && o.Amount > e.Amount:
				delta = -e.Amount
			default:
				continue
			}
			a := o
			a.Seq, a.No, a.Time, a.Debt, a.Amount, a.RemindAfter = 0, 0, now, x.ID, delta, 0
			out = append(out, a)
			used[x.ID], amended = true, true
			break
		}
		if !amended {
			out = append(out, e)
		}
	}
	return out
}

// amendOf is what the amendments among evs add to debt id.
func amendOf(evs []money.Event, id uint64) int64 {
	var sum int64
	for _, e := range evs {
		if e.Kind == money.KindDebt && e.Debt == id {
			sum += e.Amount
		}
	}
	return sum
}

// setVerb answers `set`, a workspace-wide verb so that it runs also where no table is open: with a
// table open here, the table's settings, the core's step (the verb setCore, with the gate's host
// check, on the table's goroutine); with none, `set remind=...` for the open debts of the last game
// played for money in this channel (remindNight), since a host chases debts after the game.
func setVerb(ctx context.Context, d *Dealer, _ *actor, cmd Command, args []string, _ *answer) (Reply, error) {
	if len(args) == 1 && strings.HasPrefix(strings.ToLower(args[0]), "remind=") {
		_, open, err := d.store.Table(ctx, tableID(cmd))
		if err != nil {
			return Reply{}, fmt.Errorf("load table %s: %w", tableID(cmd), err)
		}
		if !open {
			return d.remindNight(ctx, cmd, args[0][len("remind="):])
		}
	}
	inner := cmd
	inner.Text = strings.Join(append([]string{setCore}, args...), " ")
	if d.own == nil {
		// Limited and counted once, as it came in. (With leases it goes the whole way again, so
		// that the community's owner runs it: one more token of the user's rate limit.)
		inner.Forwarded = true
	}
	return d.Handle(ctx, inner), nil
}

// setCore names the core's `set` in the verb table: a name nobody types (a NUL byte), reached only
// through setVerb, so that the gate's host check and the step run as for any core verb.
const setCore = "set\x00core"

// remindNight answers `set remind=...` in a channel with no table open: when the open debts of its
// last game played for money are reminded (val as remind= takes it), for that game's host or an admin.
func (d *Dealer) remindNight(ctx context.Context, cmd Command, val string) (Reply, error) {
	after, err := money.ParseRemind(val)
	if err != nil {
		return Reply{}, err
	}
	id := tableID(cmd)
	now := d.cfg.Now()
	var night *money.Night
	open := 0
	_, _, err = d.appendMoney(ctx, communityOfCmd(cmd), d.requestKey(cmd), func(b *money.Book) ([]money.Event, error) {
		night, open = nil, 0
		for _, n := range b.Nights {
			if n.Table == id && n.Session != nil && (night == nil || n.Started.After(night.Started)) {
				night = n
			}
		}
		if night == nil {
			return nil, errs.Errorf(errs.NotFound, "There is no game in this channel yet, and no game here was played for money: `start value=0.01 currency=USD %s` sets reminders for a new one.", money.RemindExample)
		}
		day := night.Started.Format("Mon 2 Jan")
		if !cmd.Admin && night.Session.By != cmd.User {
			return nil, errs.Errorf(errs.Forbidden, "Only %s, who hosted the game of %s, or an admin can change when its debts are reminded.", night.Session.ByName, day)
		}
		for _, x := range night.Debts {
			if !x.Settled() {
				open++
			}
		}
		if open == 0 {
			return nil, errs.Errorf(errs.Conflict, "The game of %s has no open debts to remind: everyone is square.", day)
		}
		return []money.Event{{Time: now, Kind: money.KindRemindSet, Platform: cmd.Platform, Channel: cmd.Channel, By: cmd.User, ByName: cmd.UserName,
			Table: night.Table, Started: night.Started, Currency: night.Currency, RemindAfter: after}}, nil
	})
	if err != nil {
		return Reply{}, err
	}
	debts := fmt.Sprintf("The %d open %s of the game of %s", open, table.Plural(open, "debt", "debts"), night.Started.Format("Mon 2 Jan"))
	if after == 0 {
		return ok("%s are not reminded any more.", debts)
	}
	return ok("%s are reminded by DM %s after the settle-up, then at most once a day until paid or forgiven.", debts, money.FormatRemind(after))
}

// remindDebts sends each payer whose debts are due a reminder by DM, at most once a day, for the
// communities this process serves. The reminder is written to the book first, so two processes
// never both send it.
func (d *Dealer) remindDebts(ctx context.Context) error {
	communities, err := d.store.MoneyCommunities(ctx)
	if err != nil {
		return err
	}
	now := d.cfg.Now()
	var first error
	for _, c := range communities {
		if !d.servesCommunity(c) {
			continue
		}
		byPayer := map[string][]*money.Debt{}
		var payers []string
		_, evs, err := d.appendMoney(ctx, c, d.requestKey(Command{}), func(b *money.Book) ([]money.Event, error) {
			byPayer, payers = map[string][]*money.Debt{}, nil
			for _, x := range b.Due(now) {
				if byPayer[x.Opened.From] == nil {
					payers = append(payers, x.Opened.From)
				}
				byPayer[x.Opened.From] = append(byPayer[x.Opened.From], x)
			}
			var out []money.Event
			for _, p := range payers {
				e := money.Event{Time: now, Kind: money.KindReminded, By: "", To: p}
				for _, x := range byPayer[p] {
					e.Reminded = append(e.Reminded, x.ID)
					e.Platform, e.Channel = x.Opened.Platform, x.Opened.Channel
				}
				out = append(out, e)
			}
			return out, nil
		})
		if err != nil {
			if first == nil {
				first = fmt.Errorf("remind debts of %s: %w", c, err)
			}
			continue
		}
		if len(evs) == 0 {
			continue
		}
		hs, err := d.store.Handles(ctx, c)
		if err != nil {
			return err
		}
		for _, p := range payers {
			ds := byPayer[p]
			lines := []string{"A reminder from the dealer: you still owe"}
			var buttons []render.Button
			for _, x := range ds {
				o := x.Opened
				line := fmt.Sprintf("• #%d %s to %s (the game of %s)", x.No, money.Format(o.Amount, o.Currency), o.ToName, o.Started.Format("Mon 2 Jan"))
				h := hs[o.To]
				if !h.IsZero() {
					line += " · " + money.HandleText(h)
				}
				lines = append(lines, line)
				buttons = append(buttons, render.Button{Label: fmt.Sprintf("Paid #%d", x.No), Command: fmt.Sprintf("paid %d", x.No), Style: render.Success})
				if link := h.Link(o.Amount, o.Currency); link != "" {
					buttons = append(buttons, render.Button{Label: fmt.Sprintf("Pay %s (%s)", o.ToName, h.AppName()), URL: link})
				}
			}
			lines = append(lines, "Once paid, click Paid or type `paid NAME`. I remind you at most once a day until it is paid or forgiven.")
			platform, workspace, _ := strings.Cut(c, "/")
			o := ds[0].Opened
			msg := Message{Platform: platform, Workspace: workspace, Channel: o.Channel, User: p,
				Message: render.Message{Text: strings.Join(lines, "\n"), Buttons: buttons, Private: true}}
			if err := d.chat.Send(ctx, msg); err != nil && !errors.Is(err, ErrDMBlocked) {
				d.log.Error("send debt reminder", "community", c, "user", p, "err", err)
			}
		}
	}
	return first
}

// servesCommunity reports whether this process answers for a community ("discord/GUILD"): always
// without leases, else when it holds the community's lease.
func (d *Dealer) servesCommunity(c string) bool { return d.own.Serves(c) }

// moneyHelpList is the money commands' line of `help` (helpList).
const moneyHelpList = "help money — playing for money (on Discord: /pokermoney)"

// moneyHelpLine is help's pointer to the money commands.
const moneyHelpLine = "help money — playing for money: payment handles, debts, expenses, export money, stats (on Discord: /pokermoney)"

// addMoneyVerbs puts the money verbs into the command table.
func addMoneyVerbs(verbs map[string]verb) {
	verbs["payment"] = verb{need: needAnyone, run: func(ctx context.Context, d *Dealer, _ *actor, cmd Command, args []string, _ *answer) (Reply, error) {
		return d.payment(ctx, cmd, args)
	}}
	// hostToo: an admin or the table's host sees every debt, so whether the user is an admin matters.
	verbs["debts"] = verb{need: needAnyone, hostToo: true, run: func(ctx context.Context, d *Dealer, _ *actor, cmd Command, args []string, _ *answer) (Reply, error) {
		return d.debts(ctx, cmd, args)
	}}
	for name, kind := range map[string]string{"paid": money.KindPaid, "confirm": money.KindConfirmed, "dispute": money.KindDisputed, "forgive": money.KindForgiven} {
		verbs[name] = verb{need: needAnyone, run: func(ctx context.Context, d *Dealer, _ *actor, cmd Command, args []string, _ *answer) (Reply, error) {
			return d.markDebt(ctx, cmd, kind, name, args)
		}}
	}
	verbs["stats"] = verb{need: needAnyone, run: func(ctx context.Context, d *Dealer, _ *actor, cmd Command, args []string, _ *answer) (Reply, error) {
		return d.statsVerb(ctx, cmd, args) // stats.go
	}}
	verbs["expense"] = verb{need: needAnyone, run: func(ctx context.Context, d *Dealer, _ *actor, cmd Command, args []string, _ *answer) (Reply, error) {
		return d.expense(ctx, cmd, args)
	}}
}
