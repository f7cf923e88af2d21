package money

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/dealerbot/dealerbot/bot/errs"
	"github.com/dealerbot/dealerbot/bot/vocab"
	"github.com/dealerbot/dealerbot/render"
)

// The money verbs: payment, debts, paid, confirm, dispute, forgive, expense, export money and the
// `set remind=` of a finished game. They are workspace-wide (no table goroutine): each reads the
// community's money book and appends to it only if nobody else did meanwhile (Append), so two of them
// never trample each other.

// OptionsHelp lists the money options of `start` and `set`.
const OptionsHelp = "value=0.01 currency=USD (what a chip is worth: the settle-up and debts are then in money) " + RemindExample + "|off (when unpaid debts are reminded: m, h or d) settle=fewest|bank"

// Help is `help money`: the money commands, a line each.
const Help = `start or set with ` + OptionsHelp + ` — play for money: the settle-up, debts and stats show money beside chips; remind= is when unpaid debts are reminded by DM, settle=bank makes the host the bank
payment venmo @NAME | cashapp $TAG | paypal NAME | zelle EMAIL-OR-PHONE | other TEXT — how you are paid (shown only in settle-up lines for payments to you); payment — yours; payment clear — remove it
debts — the open debts that concern you (an admin sees all; a host, all of the games they hosted)
paid NAME|N — you paid NAME (or debt #N); confirm NAME|N / dispute NAME|N — as the receiver, you got it or did not; forgive NAME|N — let the payer off
expense 30.00 pizza [@name...] — you paid 30.00 for pizza: it is split between tonight's players (or the names given) and added to tonight's settle-up
export money — a CSV of the money book: sessions, results, expenses, debts and payments, one row per event
stats [NAME] [session|season|all|2026-01-01..2026-03-31] — hands, net chips and money, bb/100, VPIP, PFR, 3-bet, WTSD, W$SD, AF, biggest pot won ("help stats" defines them)
stats chart [PERIOD] [NAME...] — a picture of cumulative results over the period's sessions
dealerbot never moves money: it only records what you say you paid.`

// payment answers `payment`, `payment clear` and `payment APP HANDLE`.
func (v verbs) payment(ctx context.Context, _ vocab.Env, cmd vocab.Command, args []string) (vocab.Reply, error) {
	community := cmd.Community()
	if len(args) == 0 {
		hs, err := v.store.Handles(ctx, community)
		if err != nil {
			return vocab.Reply{}, err
		}
		if h, found := hs[cmd.User]; found {
			return ok("Your payment handle here: %s. It is shown only in settle-up lines for payments to you; `payment clear` removes it.", HandleText(h))
		}
		return ok("You have no payment handle here: write `payment venmo @you`, `payment cashapp $you`, `payment paypal you`, `payment zelle you@example.com` or `payment other TEXT`.")
	}
	if len(args) == 1 && strings.EqualFold(args[0], "clear") {
		if err := v.store.SetHandle(ctx, community, cmd.User, Handle{}); err != nil {
			return vocab.Reply{}, err
		}
		return ok("Your payment handle is removed.")
	}
	if n := len(strings.Join(args, " ")); n > 200 {
		return vocab.Reply{}, errs.Errorf(errs.Invalid, "A payment handle takes at most 200 characters.")
	}
	h, err := ParseHandle(args[0], args[1:])
	if err != nil {
		return vocab.Reply{}, err
	}
	if err := v.store.SetHandle(ctx, community, cmd.User, h); err != nil {
		return vocab.Reply{}, err
	}
	return ok("Saved: you are paid by %s. Only settle-up lines for payments to you show it.", HandleText(h))
}

// hostHere reports whether the user hosts the table open in cmd's channel.
func (v verbs) hostHere(ctx context.Context, cmd vocab.Command) (bool, error) {
	rec, open, err := v.tables.Open(ctx, cmd.TableID())
	if err != nil {
		return false, fmt.Errorf("load table %s: %w", cmd.TableID(), err)
	}
	return open && rec.Host == cmd.User, nil
}

// debts answers `debts`: the unsettled debts of the community that concern the user, or all of them
// for an admin or the host of the channel's table.
func (v verbs) debts(ctx context.Context, _ vocab.Env, cmd vocab.Command, args []string) (vocab.Reply, error) {
	if len(args) > 0 {
		return vocab.Reply{}, errs.Errorf(errs.Invalid, "Write `debts` alone: it lists the open debts that concern you.")
	}
	evs, err := v.store.MoneyBook(ctx, cmd.Community())
	if err != nil {
		return vocab.Reply{}, err
	}
	b := Fold(evs)
	all := cmd.Admin
	if !all {
		if all, err = v.hostHere(ctx, cmd); err != nil {
			return vocab.Reply{}, err
		}
	}
	hs, err := v.store.Handles(ctx, cmd.Community())
	if err != nil {
		return vocab.Reply{}, err
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
			Format(x.Opened.Amount, x.Opened.Currency), statusText(x.Status), x.Changed.Format("Mon 2 Jan"))
		if h := hs[x.Opened.To]; x.Opened.From == cmd.User && !h.IsZero() {
			line += " · " + HandleText(h) // a payment to that player, shown to its payer
		}
		lines = append(lines, line)
		switch {
		case x.Opened.From == cmd.User && (x.Status == Open || x.Status == Disputed):
			buttons = append(buttons, render.Button{Label: fmt.Sprintf("Paid #%d", x.No), Command: fmt.Sprintf("paid %d", x.No), Style: render.Success})
		case x.Opened.To == cmd.User && x.Status == Paid:
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
	return vocab.Reply{Text: errs.ClipText(head+"\n"+strings.Join(lines, "\n"), errs.MaxReply), Buttons: buttons}, nil
}

func statusText(s string) string {
	switch s {
	case Paid:
		return "paid, waiting for confirmation"
	case Disputed:
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
func (v verbs) markDebt(ctx context.Context, env vocab.Env, cmd vocab.Command, kind, verb string, args []string) (vocab.Reply, error) {
	r, err := parseRef(verb, args)
	if err != nil {
		return vocab.Reply{}, err
	}
	now := env.Now()
	var marked []*Debt
	_, _, err = Append(ctx, v.store, env, cmd.Community(), env.Key(cmd), func(b *Book) ([]Event, error) {
		marked = nil
		if r.id != 0 {
			x := b.DebtNo(r.id)
			if x == nil {
				return nil, errs.Errorf(errs.NotFound, "There is no debt #%d here: `debts` lists them.", r.id)
			}
			if err := Transition(x, kind, cmd.User); err != nil {
				return nil, err
			}
			marked = append(marked, x)
		} else {
			var refusal error
			for _, x := range b.Debts {
				other, otherName := x.Opened.To, x.Opened.ToName
				if kind != KindPaid {
					other, otherName = x.Opened.From, x.Opened.FromName
				}
				if !r.names(other, otherName) || (kind == KindPaid) != (x.Opened.From == cmd.User) || kind != KindPaid && x.Opened.To != cmd.User {
					continue
				}
				if err := Transition(x, kind, cmd.User); err != nil {
					refusal = err
					continue
				}
				marked = append(marked, x)
			}
			if len(marked) == 0 {
				if refusal != nil {
					return nil, refusal
				}
				if kind == KindPaid {
					return nil, errs.Errorf(errs.NotFound, "You owe %s nothing here: `debts` lists what you owe.", args[0])
				}
				return nil, errs.Errorf(errs.NotFound, "%s owes you nothing here: `debts` lists what you are owed.", args[0])
			}
		}
		var out []Event
		for _, x := range marked {
			o := x.Opened
			out = append(out, Event{Time: now, Kind: kind, Platform: cmd.Platform, Channel: o.Channel, By: cmd.User, ByName: cmd.UserName,
				Table: o.Table, Started: o.Started, Debt: x.ID, From: o.From, FromName: o.FromName, To: o.To, ToName: o.ToName,
				Amount: o.Amount, Currency: o.Currency})
		}
		return out, nil
	})
	if err != nil {
		return vocab.Reply{}, err
	}
	var lines []string
	for _, x := range marked {
		o := x.Opened
		what := fmt.Sprintf("#%d (%s pays %s %s)", x.No, o.FromName, o.ToName, Format(o.Amount, o.Currency))
		switch kind {
		case KindPaid:
			lines = append(lines, fmt.Sprintf("Debt %s marked paid: %s is asked to confirm it.", what, o.ToName))
			env.Tell(ctx, cmd, o.To, render.Message{Text: fmt.Sprintf("%s says they paid you %s (debt #%d). Type `confirm %d` once you have it, or `dispute %d` if you do not.",
				o.FromName, Format(o.Amount, o.Currency), x.No, x.No, x.No),
				Buttons: []render.Button{{Label: "Confirm", Command: fmt.Sprintf("confirm %d", x.No), Style: render.Success},
					{Label: "Dispute", Command: fmt.Sprintf("dispute %d", x.No), Style: render.Danger}}})
		case KindConfirmed:
			lines = append(lines, fmt.Sprintf("Debt %s confirmed: it is settled.", what))
			env.Tell(ctx, cmd, o.From, render.Message{Text: fmt.Sprintf("%s confirmed your payment of %s (debt #%d): it is settled.", o.ToName, Format(o.Amount, o.Currency), x.No)})
		case KindDisputed:
			lines = append(lines, fmt.Sprintf("Debt %s disputed: it is open again, and %s is told.", what, o.FromName))
			env.Tell(ctx, cmd, o.From, render.Message{Text: fmt.Sprintf("%s has not received your payment of %s (debt #%d): it is open again. Check with them, then `paid %d` once it is sent.",
				o.ToName, Format(o.Amount, o.Currency), x.No, x.No)})
		case KindForgiven:
			lines = append(lines, fmt.Sprintf("Debt %s forgiven: %s owes you nothing for it.", what, o.FromName))
			env.Tell(ctx, cmd, o.From, render.Message{Text: fmt.Sprintf("%s forgave your debt of %s (#%d): you owe nothing for it.", o.ToName, Format(o.Amount, o.Currency), x.No)})
		}
	}
	return vocab.Reply{Text: strings.Join(lines, "\n")}, nil
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
func (v verbs) expense(ctx context.Context, env vocab.Env, cmd vocab.Command, args []string) (vocab.Reply, error) {
	if len(args) < 2 {
		return vocab.Reply{}, errs.Errorf(errs.Invalid, "Write `expense 30.00 pizza` to split what you paid between tonight's players, or `expense 30.00 pizza @bob @carol` to split it between those named.")
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
		return vocab.Reply{}, errs.Errorf(errs.Invalid, "Say what the expense was for: `expense 30.00 pizza`.")
	case utf8.RuneCountInString(note) > maxExpenseNote:
		return vocab.Reply{}, errs.Errorf(errs.Invalid, "Describe the expense in at most %d characters.", maxExpenseNote)
	case len(named) > maxExpenseSharers:
		return vocab.Reply{}, errs.Errorf(errs.Invalid, "An expense is split between at most %d players.", maxExpenseSharers)
	}
	if err := PlainText(note, "An expense's description"); err != nil {
		return vocab.Reply{}, err
	}
	id := cmd.TableID()
	rec, open, err := v.tables.Open(ctx, id)
	if err != nil {
		return vocab.Reply{}, err
	}
	now := env.Now()
	var x Event
	var settled *Event
	before, evs, err := Append(ctx, v.store, env, cmd.Community(), env.Key(cmd), func(b *Book) ([]Event, error) {
		// The night: the session running here, or the last one played for money here.
		var n *Night
		var players []Share
		currency := ""
		if open && rec.Money {
			currency = rec.Currency
			n = b.Night(rec.ID, rec.Started)
			for _, st := range rec.Standings {
				players = append(players, Share{User: st.User, Name: st.Name})
			}
			for _, s := range rec.Seated {
				if s.User != "" && !slices.ContainsFunc(players, func(p Share) bool { return p.User == s.User }) {
					players = append(players, Share{User: s.User, Name: s.Name})
				}
			}
			if n == nil {
				n = &Night{Table: rec.ID, Started: rec.Started, Channel: rec.Channel, Currency: currency}
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
				players = append(players, Share{User: s.User, Name: s.Name})
			}
		}
		if len(n.Expenses) >= maxNightExpenses {
			return nil, errs.Errorf(errs.TooMany, "A night takes at most %d expenses.", maxNightExpenses)
		}
		amount, err := ParseAmount(args[0], currency)
		if err != nil {
			return nil, err
		}
		sharers := players
		if len(named) > 0 {
			sharers = nil
			for _, a := range named {
				r := ref{user: strings.ToLower(strings.Trim(a, "@<>!"))}
				i := slices.IndexFunc(players, func(p Share) bool { return r.names(p.User, p.Name) })
				var s Share
				switch {
				case i >= 0:
					s = players[i]
				case strings.HasPrefix(a, "<@") || cmd.Platform == "console":
					s = Share{User: strings.Trim(a, "@<>!"), Name: strings.Trim(a, "@<>!")}
					if name, err := v.tables.PlayerName(ctx, cmd.Workspace, s.User); err == nil && name != "" {
						s.Name = name
					}
				default:
					return nil, errs.Errorf(errs.Invalid, "%s did not play tonight: name the players with their mentions.", errs.Quote(a))
				}
				if !slices.ContainsFunc(sharers, func(p Share) bool { return p.User == s.User }) {
					sharers = append(sharers, s)
				}
			}
		}
		if len(sharers) == 0 {
			return nil, errs.Errorf(errs.Conflict, "Nobody has played tonight yet to share the expense with: name them, `expense %s %s @bob @carol`.", args[0], note)
		}
		parts := Split(amount, len(sharers))
		x = Event{Time: now, Kind: KindExpense, Platform: cmd.Platform, Channel: cmd.Channel, By: cmd.User, ByName: cmd.UserName,
			Table: n.Table, Started: n.Started, Amount: amount, Currency: currency, Note: note}
		for i, s := range sharers {
			s.Amount = parts[i]
			x.Shares = append(x.Shares, s)
		}
		out := []Event{x}
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
		return vocab.Reply{}, err
	}
	x = evs[0]
	// The debts as they now stand: new ones, and those the expense changed with what they were.
	standing := make([]Event, 0, len(evs)-1)
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
	text := fmt.Sprintf("Expense #%d: %s.", x.No, ExpenseLine(&x))
	if settled == nil {
		return ok("%s It goes into tonight's settle-up.", text)
	}
	hs, err := v.store.Handles(ctx, cmd.Community())
	if err != nil {
		return vocab.Reply{}, err
	}
	m := SettleMessage(SettleView{Expenses: []*Event{&x}, Debts: standing, Was: was, Handles: hs})
	m.Text = fmt.Sprintf("%s added an expense to the settle-up of %s:\n%s", cmd.UserName, settled.Started.Format("Mon 2 Jan"), m.Text)
	if err := env.Post(ctx, cmd, "", "", m); err != nil {
		env.Log().Error("post amended settle-up", "err", err)
	}
	return ok("%s The settle-up was already posted, so the payments that square it are added to the open debts between the same players, or are new debts (posted in the channel).", text)
}

// netDebts turns the new debts that square a late expense into amendments of the night's debts
// still open between the same two players (in either direction, when the open one is larger), so
// that an expense after the settle-up changes the debt between them instead of adding another.
// A debt already marked paid, confirmed or forgiven is never changed: the new debt stays new.
func netDebts(n *Night, debts []Event, now time.Time) []Event {
	out := make([]Event, 0, len(debts))
	used := map[uint64]bool{}
	for _, e := range debts {
		amended := false
		for _, x := range n.Debts {
			o := x.Opened
			if used[x.ID] || x.Status != Open && x.Status != Disputed {
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
func amendOf(evs []Event, id uint64) int64 {
	var sum int64
	for _, e := range evs {
		if e.Kind == KindDebt && e.Debt == id {
			sum += e.Amount
		}
	}
	return sum
}

// set answers `set`, a workspace-wide verb so that it runs also where no table is open: with a
// table open here, the table's settings, the core's step (Tables.Settings: the table's own verb, with
// the gate's host check, on the table's goroutine); with none, `set remind=...` for the open debts of
// the last game played for money in this channel (remindNight), since a host chases debts after the
// game.
func (v verbs) set(ctx context.Context, env vocab.Env, cmd vocab.Command, args []string) (vocab.Reply, error) {
	if len(args) == 1 && strings.HasPrefix(strings.ToLower(args[0]), "remind=") {
		_, open, err := v.tables.Open(ctx, cmd.TableID())
		if err != nil {
			return vocab.Reply{}, fmt.Errorf("load table %s: %w", cmd.TableID(), err)
		}
		if !open {
			return v.remindNight(ctx, env, cmd, args[0][len("remind="):])
		}
	}
	return v.tables.Settings(ctx, env, cmd, args), nil
}

// remindNight answers `set remind=...` in a channel with no table open: when the open debts of its
// last game played for money are reminded (val as remind= takes it), for that game's host or an admin.
func (v verbs) remindNight(ctx context.Context, env vocab.Env, cmd vocab.Command, val string) (vocab.Reply, error) {
	after, err := ParseRemind(val)
	if err != nil {
		return vocab.Reply{}, err
	}
	id := cmd.TableID()
	now := env.Now()
	var night *Night
	open := 0
	_, _, err = Append(ctx, v.store, env, cmd.Community(), env.Key(cmd), func(b *Book) ([]Event, error) {
		night, open = nil, 0
		for _, n := range b.Nights {
			if n.Table == id && n.Session != nil && (night == nil || n.Started.After(night.Started)) {
				night = n
			}
		}
		if night == nil {
			return nil, errs.Errorf(errs.NotFound, "There is no game in this channel yet, and no game here was played for money: `start value=0.01 currency=USD %s` sets reminders for a new one.", RemindExample)
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
		return []Event{{Time: now, Kind: KindRemindSet, Platform: cmd.Platform, Channel: cmd.Channel, By: cmd.User, ByName: cmd.UserName,
			Table: night.Table, Started: night.Started, Currency: night.Currency, RemindAfter: after}}, nil
	})
	if err != nil {
		return vocab.Reply{}, err
	}
	debts := fmt.Sprintf("The %d open %s of the game of %s", open, plural(open, "debt", "debts"), night.Started.Format("Mon 2 Jan"))
	if after == 0 {
		return ok("%s are not reminded any more.", debts)
	}
	return ok("%s are reminded by DM %s after the settle-up, then at most once a day until paid or forgiven.", debts, FormatRemind(after))
}

// RemindDebts sends each payer whose debts are due a reminder by DM, at most once a day, for the
// communities this process serves. The reminder is written to the book first, so two processes
// never both send it.
func RemindDebts(ctx context.Context, store Store, env vocab.Env) error {
	communities, err := store.MoneyCommunities(ctx)
	if err != nil {
		return err
	}
	now := env.Now()
	var first error
	for _, c := range communities {
		if !env.Serves(c) {
			continue
		}
		byPayer := map[string][]*Debt{}
		var payers []string
		_, evs, err := Append(ctx, store, env, c, env.Key(vocab.Command{}), func(b *Book) ([]Event, error) {
			byPayer, payers = map[string][]*Debt{}, nil
			for _, x := range b.Due(now) {
				if byPayer[x.Opened.From] == nil {
					payers = append(payers, x.Opened.From)
				}
				byPayer[x.Opened.From] = append(byPayer[x.Opened.From], x)
			}
			var out []Event
			for _, p := range payers {
				e := Event{Time: now, Kind: KindReminded, By: "", To: p}
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
		hs, err := store.Handles(ctx, c)
		if err != nil {
			return err
		}
		for _, p := range payers {
			ds := byPayer[p]
			lines := []string{"A reminder from the dealer: you still owe"}
			var buttons []render.Button
			for _, x := range ds {
				o := x.Opened
				line := fmt.Sprintf("• #%d %s to %s (the game of %s)", x.No, Format(o.Amount, o.Currency), o.ToName, o.Started.Format("Mon 2 Jan"))
				h := hs[o.To]
				if !h.IsZero() {
					line += " · " + HandleText(h)
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
			env.Tell(ctx, vocab.Command{Platform: platform, Workspace: workspace, Channel: o.Channel}, p,
				render.Message{Text: strings.Join(lines, "\n"), Buttons: buttons})
		}
	}
	return first
}

// HelpList is the money commands' line of `help`.
const HelpList = "help money — playing for money (on Discord: /pokermoney)"

// HelpLine is help's pointer to the money commands, in the details `help COMMAND` reads.
const HelpLine = "help money — playing for money: payment handles, debts, expenses, export money, stats (on Discord: /pokermoney)"

// Tables is what the money verbs read of the tables, and the settings they hand to them. Package
// table imports money, so money reads the tables through this (bot/features implements it).
type Tables interface {
	// Open returns what money reads of the table open in the channel tableID names; ok is false when
	// none is.
	Open(ctx context.Context, tableID string) (t Table, ok bool, err error)
	// PlayerName returns a player's name in a workspace: "" for a player never seen.
	PlayerName(ctx context.Context, workspace, user string) (string, error)
	// Settings runs `set` with args as the channel's table's own settings verb (with its host check,
	// on the table's goroutine), through env.Do, and returns its reply.
	Settings(ctx context.Context, env vocab.Env, cmd vocab.Command, args []string) vocab.Reply
}

// Table is what the money verbs read of a channel's open table.
type Table struct {
	ID      string
	Channel string
	Host    string
	Started time.Time // the session's start: a night's key in the book, with ID
	// Money: a cash table that plays for money (value=), in Currency.
	Money    bool
	Currency string
	// Standings are who played this session (the standings' order), Seated who sits now (the seats'
	// order): User and Name.
	Standings, Seated []Share
}

// verbs are the money verbs on a store, reading the tables through tables.
type verbs struct {
	store  Store
	tables Tables
}

// Verbs returns the money verbs, on store, reading the tables through tables.
func Verbs(store Store, tables Tables) vocab.Verbs {
	v := verbs{store, tables}
	out := vocab.Verbs{
		"help money": {Need: vocab.Anyone, Runner: vocab.Text(Help)},
		"payment":    {Need: vocab.Anyone, Runner: vocab.Func(v.payment)},
		// HostToo: an admin or the table's host sees every debt, so whether the user is an admin matters.
		"debts":        {Need: vocab.Anyone, HostToo: true, Runner: vocab.Func(v.debts)},
		"expense":      {Need: vocab.Anyone, Runner: vocab.Func(v.expense)},
		"export money": {Need: vocab.Anyone, Runner: vocab.Func(v.exportMoney)}, // export.go
		// set is workspace-wide so that `set remind=` reaches a game after its end; HostToo: the
		// table's settings are for its host or an admin.
		"set": {Need: vocab.Anyone, HostToo: true, Runner: vocab.Func(v.set)},
	}
	for name, kind := range map[string]string{"paid": KindPaid, "confirm": KindConfirmed, "dispute": KindDisputed, "forgive": KindForgiven} {
		out[name] = vocab.Verb{Need: vocab.Anyone, Runner: vocab.Func(func(ctx context.Context, env vocab.Env, cmd vocab.Command, args []string) (vocab.Reply, error) {
			return v.markDebt(ctx, env, cmd, kind, name, args)
		})}
	}
	return out
}

// maxUserRef is the longest user reference (ID, mention or name) a debt verb may name.
const maxUserRef = 100

func ok(format string, args ...any) (vocab.Reply, error) {
	return vocab.Reply{Text: fmt.Sprintf(format, args...)}, nil
}

// plural is one for n == 1, else many.
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
