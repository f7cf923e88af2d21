package discord

// /pokermoney: the money and stats commands. /poker has 25 subcommands, Discord's maximum, so money
// gets a top-level command of its own; typing /poker shows both. The dealer's words are the same as
// at the console and on Slack (payment, debts, paid...); /poker help points here.

// MoneyCommandName is the second slash command: money after the game, and stats.
const MoneyCommandName = "pokermoney"

var debtOpts = []optSpec{
	{name: "player", desc: "The other player of the debt", kind: optUser},
	{name: "debt", desc: "Or the debt's number (#12 in the settle-up and in debts)", kind: optCount, min: 1, max: 1 << 40},
}

var moneySubs = []subSpec{
	{name: "payment", desc: "How you are paid, shown only in settle-up lines for payments to you", opts: []optSpec{
		{name: "app", desc: "The app (leave out to see yours; clear removes it)", kind: optChoice, choices: []string{"venmo", "cashapp", "paypal", "zelle", "other", "clear"}},
		{name: "handle", desc: "Your name there: @name, $cashtag, PayPal.me name, e-mail or phone, or free text", kind: optWord},
	}},
	{name: "debts", desc: "The open debts that concern you"},
	{name: "paid", desc: "You paid a debt (the receiver then confirms)", opts: debtOpts},
	{name: "confirm", desc: "You received a payment someone says they made", opts: debtOpts},
	{name: "dispute", desc: "You did not receive a payment someone says they made", opts: debtOpts},
	{name: "forgive", desc: "Let someone off a debt to you", opts: debtOpts},
	{name: "expense", desc: "You paid for something tonight's players share: it goes into the settle-up", opts: []optSpec{
		{name: "amount", desc: "What you paid, e.g. 30.00", kind: optWord, required: true},
		{name: "what", desc: "What it was for, e.g. pizza", kind: optWord, required: true},
		{name: "players", desc: "Split between these (mentions); default: tonight's players", kind: optWord},
	}},
	{name: "export", verb: "export money", desc: "A CSV of sessions, results, expenses, debts and payments (only you see it)"},
	{name: "stats", desc: "Hands, results, VPIP, PFR, 3-bet, WTSD, W$SD, AF, biggest pot", opts: []optSpec{
		{name: "player", desc: "Whose stats (default: yours)", kind: optUser},
		{name: "period", desc: "session, season, all, or a range like 2026-01-01..2026-03-31 (default: all)", kind: optWord},
	}},
	{name: "chart", verb: "stats chart", desc: "A picture of cumulative results over the period's sessions", opts: []optSpec{
		{name: "period", desc: "session, season, all, or a range like 2026-01-01..2026-03-31 (default: all)", kind: optWord},
	}},
	{name: "help", verb: "help money", desc: "Playing for money: chip value, handles, debts, expenses, stats"},
}
