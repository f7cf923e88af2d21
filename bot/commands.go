package bot

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/dealerbot/dealerbot/bot/errs"
	"github.com/dealerbot/dealerbot/bot/money"
	"github.com/dealerbot/dealerbot/bot/stats"
	"github.com/dealerbot/dealerbot/bot/table"
	"github.com/dealerbot/dealerbot/bot/vocab"
	"github.com/dealerbot/dealerbot/engine"
	"github.com/dealerbot/dealerbot/render"
)

// helpList is `help`: every command in a line short enough for an 80-column terminal even behind
// the console's "[to name] " (at most 62 characters); `help COMMAND` gives the details (helpText).
const helpList = `Commands (` + "`help COMMAND`" + ` for the details of one):
start [options] — open a table here and host it (` + "`help start`" + `)
start tournament [options] — open a tournament here
join [buy-in] — sit down, buying in from your bankroll
leave — cash out and stand up (after the hand)
sitout / sitin — skip hands without leaving / play again
rebuy [amount] — add chips between hands
rebuy no — at a tournament, out of chips: do not rebuy
deal — deal the next hand now
fold, check, call — act on your turn
bet N — bet N chips; raise N — raise to N in all
allin — put in every chip
cards — see your hole cards again, privately
table — the table: seats, stacks, board, pots
show — show your cards to the table after the hand
chips — your bankroll
leaderboard — everyone's results in this server
history [n] — a hand of this channel, replayed as text
export [n|session] [ohh] — a file of your hands, for trackers
verify [N] — how the deck is proven fixed (N: hand N's proof)
set [options] — change settings (host or admin)
kick @user — remove a player (host or admin)
straddle — straddle in your next hand under the gun
bombpot [N] — the next hand is a bomb pot (host)
runtwice yes|no — run the board twice after an all-in
adjust @user N — add (or take, -N) chips to a bankroll (admin)
end — end the session and post standings (host or admin)
help COMMAND — the details of a command, such as ` + "`help raise`"

// helpText explains every command in a line each, for `help COMMAND` (help.go finds the clauses
// that name the command).
const helpText = `Commands:
start [options] — open a table here (host). Options: ` + table.SettingsHelp + `
games (start or set game=NAME): ` + table.GameHelp + `
` + table.TournamentHelp + `
join [buy-in] — sit down, buying in from your bankroll (in a tournament: register for the buy-in)
leave — cash out and stand up (after the hand if you are in one)
sitout / sitin — skip hands without leaving / play again
sitout bb — sit out when the big blind would reach you, without posting it
sitin post — post the blinds you missed and play the next hand (missed=post)
away options for start and set: missed=wait|post away=3|off timebank=60[+5/10]
rebuy [amount] — add chips from your bankroll between hands (in a tournament: a starting stack for the buy-in, in the rebuy period; out of chips you have 30 s, and rebuy no declines at once)
deal — deal the next hand now
fold, check, call — act on your turn
bet N — bet N chips; raise N (or raise to N) — raise to N in all; allin — put in every chip
cards — see your hole cards again, privately
table — the table: seats, stacks, board, pots
show — show your cards to the table after the hand
chips — your bankroll
leaderboard — everyone's results in this server
history [N|last N] — hand #N (the latest if not said), or the N-th most recent
export [n|session] [ohh] — a file of your last n hands here (20 if not said) or this session's, for trackers (PokerStars text, or OHH)
verify [N] — how the deck is proven fixed; with N, the proof for hand N (public cards, and yours to you)
set [options] — change settings (host or admin; stakes change from the next hand); after a game played for money, set ` + money.RemindExample + ` changes when its open debts are reminded
kick @user — remove a player (host or admin)
straddle — straddle (twice the big blind) in your next hand under the gun, when the table allows it
bombpot [N] — the next hand is a bomb pot: everyone antes N (twice the big blind if not said), flop at once (host)
runtwice yes|no — answer whether to run the board twice after an all-in, when the table offers it
choose GAME — at dealer's choice (game=choice), the player on the button picks the orbit's game: choose plo
adjust @user N — add N chips to a bankroll, or take them with -N (admin)
end — end the session, cash everyone out and post standings (host or admin)
help — this list`

// communityOfCmd is the community whose book and handles a command concerns.
func communityOfCmd(cmd Command) string { return table.Community(cmd.Platform, cmd.Workspace) }

func ok(format string, args ...any) (Reply, error) {
	return Reply{Text: fmt.Sprintf(format, args...)}, nil
}

// workspaceVerbs are the verbs the dealer still answers itself, each without a table goroutine.
func (d *Dealer) workspaceVerbs() vocab.Verbs {
	run := func(f func(ctx context.Context, cmd Command, args []string) (Reply, error)) vocab.Runner {
		return vocab.Func(func(ctx context.Context, _ vocab.Env, cmd Command, args []string) (Reply, error) {
			return f(ctx, cmd, args)
		})
	}
	verbs := vocab.Verbs{
		"help": {Need: vocab.Anyone, Runner: run(func(_ context.Context, _ Command, args []string) (Reply, error) {
			return d.help(args) // help.go
		})},
		"help stats": {Need: vocab.Anyone, Runner: vocab.Text(stats.Definitions)},
		"verify":     {Need: vocab.Anyone, Runner: run(d.verify)},
		"chips": {Need: vocab.Anyone, Runner: run(func(ctx context.Context, cmd Command, _ []string) (Reply, error) {
			return d.chips(ctx, cmd)
		})},
		"leaderboard": {Need: vocab.Anyone, Runner: run(func(ctx context.Context, cmd Command, _ []string) (Reply, error) {
			return d.leaderboard(ctx, cmd)
		})},
		"adjust": {Need: vocab.Admin, Refusal: "adjust bankrolls", Runner: run(d.adjust)},
		"export": {Need: vocab.Anyone, Runner: run(d.exportHands)},
		// history needs no table: the channel's hands are kept after `end`.
		"history": {Need: vocab.Anyone, Runner: run(d.history)},
		"stats":   {Need: vocab.Anyone, Runner: run(d.statsVerb)}, // stats.go
	}
	addScheduleVerbs(d, verbs) // schedules.go: schedule add|list|remove|skip, rsvp, leaderboard season
	return verbs
}

// AdminMatters reports whether being a server or workspace admin can decide a command
// (vocab.Registry.AdminMatters).
func (d *Dealer) AdminMatters(text string) bool { return d.verbs.AdminMatters(text) }

// maxUserRef is the longest user reference (ID, mention or name) a command may name.
const maxUserRef = 100

// ref is a player a command names (stats NAME): a user ID from a mention, or a name, lower-cased.
type ref struct {
	user string
}

// names reports whether a player (ID, name) is the one r names.
func (r ref) names(user, name string) bool {
	return r.user != "" && (strings.ToLower(user) == r.user || strings.EqualFold(name, r.user))
}

// maxHandNo is the largest hand number `history` reads: far more hands than a channel deals.
const maxHandNo = 1_000_000_000_000

// historyUsage is the sentence a bad `history` argument gets.
const historyUsage = "Write `history` for the last hand, `history 15` for hand #15, or `history last 3` for the third most recent (up to 100)."

// history answers `history [N | last N]`: hand #N of the channel (the hand's own number, which goes
// on across sessions), the latest one, or the N-th most recent, replayed as text with the cards drawn
// as the channel's table draws them (as a new table would when none is open).
func (d *Dealer) history(ctx context.Context, cmd Command, args []string) (Reply, error) {
	var no int64 // a hand number, or 0
	back := 1    // else the back-th most recent hand
	switch {
	case len(args) == 0:
	case len(args) == 2 && strings.EqualFold(args[0], "last"):
		v, err := strconv.Atoi(args[1])
		if err != nil || v <= 0 || v > 100 {
			return Reply{}, errs.Errorf(errs.Invalid, historyUsage)
		}
		back = v
	case len(args) == 1 && !strings.EqualFold(args[0], "last"):
		v, err := strconv.ParseInt(strings.TrimPrefix(args[0], "#"), 10, 64)
		if err != nil || v <= 0 || v > maxHandNo {
			return Reply{}, errs.Errorf(errs.Invalid, historyUsage)
		}
		no = v
	default:
		return Reply{}, errs.Errorf(errs.Invalid, historyUsage)
	}
	id := tableID(cmd)
	rec, open, err := d.store.Table(ctx, id)
	if err != nil {
		return Reply{}, err
	}
	style := render.CardStyle{Kind: table.DefaultSettings().Cards}
	if open {
		style = d.env.Style(rec.Platform, rec.Settings.Cards)
	}
	hands, err := d.store.Hands(ctx, id, back)
	if err != nil {
		return Reply{}, err
	}
	if len(hands) == 0 && !open {
		return Reply{}, errNoGame
	}
	if no > 0 {
		if len(hands) == 0 {
			return Reply{}, errs.Errorf(errs.NotFound, "No hand has finished in this channel yet.")
		}
		hr, found, err := d.store.Hand(ctx, id, no)
		if err != nil {
			return Reply{}, err
		}
		if !found {
			if latest := hands[0].No; no > latest {
				return Reply{}, errs.Errorf(errs.NotFound, "Hand #%d has not finished in this channel: the latest is #%d (`history %d`).", no, latest, latest)
			}
			return Reply{}, errs.Errorf(errs.NotFound, "Hand #%d is not kept in this channel: `history` shows the latest.", no)
		}
		hands = []table.HandRecord{hr}
		back = 1
	}
	if len(hands) < back {
		return Reply{}, errs.Errorf(errs.Invalid, "This channel has only %d finished %s: ask for `history last %d` or less.", len(hands), table.Plural(len(hands), "hand", "hands"), max(1, len(hands)))
	}
	hr := hands[back-1]
	h, err := engine.Replay(hr.Setup(), hr.Actions)
	if err != nil {
		return Reply{}, fmt.Errorf("replay hand %d: %w", hr.No, err)
	}
	narr := &render.Narrator{Names: hr.Names, Style: style, HiLo: hr.Rules.Game.HiLo()}
	var b strings.Builder
	fmt.Fprintf(&b, "Hand #%d (%s %s/%s)\n", hr.No, strings.ToLower(render.Stakes(hr.Rules.Game, hr.Rules.Variant, false)), render.Chips(hr.Rules.SmallBlind), render.Chips(hr.Rules.BigBlind))
	for p, st := range hr.Stacks {
		fmt.Fprintf(&b, "%s: %s chips\n", render.Names(hr.Names).Name(p), render.Chips(st))
	}
	for _, m := range narr.Events(h.Events()) {
		b.WriteString(m.Text)
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "Type `verify %d` to check this hand's deck.", hr.No)
	return Reply{Text: b.String()}, nil
}

func (d *Dealer) chips(ctx context.Context, cmd Command) (Reply, error) {
	p, known, err := d.store.Player(ctx, cmd.Workspace, cmd.User)
	if err != nil {
		return Reply{}, err
	}
	if !known {
		return ok("You have not played yet: your bankroll starts at %s chips when you first `join` a table.", render.Chips(d.cfg.StartingBankroll))
	}
	return ok("Your bankroll: %s chips, and %s on tables.", render.Chips(p.Bankroll), render.Chips(p.OnTable))
}

func (d *Dealer) leaderboard(ctx context.Context, cmd Command) (Reply, error) {
	ps, err := d.store.Players(ctx, cmd.Workspace)
	if err != nil {
		return Reply{}, err
	}
	if len(ps) == 0 {
		return ok("Nobody has played here yet: `start` a table and `join` it.")
	}
	sort.Slice(ps, func(i, j int) bool { return ps[i].User < ps[j].User })
	rows := make([]render.LeaderRow, len(ps))
	for i, p := range ps {
		total := p.Bankroll + p.OnTable
		rows[i] = render.LeaderRow{Name: p.Name, Chips: total, Net: total - p.Granted, Hands: p.Hands}
	}
	return Reply{Text: render.Leaderboard("Leaderboard", rows).Text}, nil
}

// adjust is an admin's change to a bankroll, recorded in the ledger as an adjustment.
func (d *Dealer) adjust(ctx context.Context, cmd Command, args []string) (Reply, error) {
	if len(args) != 2 {
		return Reply{}, errs.Errorf(errs.Invalid, "Write `adjust @name 500` to add chips or `adjust @name -500` to take them.")
	}
	who := strings.Trim(args[0], "@<>!")
	if len(who) > maxUserRef {
		return Reply{}, errs.Errorf(errs.Invalid, "%s is not a player: write `adjust @name 500` with the player's name or mention.", errs.Quote(who))
	}
	n, err := strconv.ParseInt(strings.ReplaceAll(args[1], ",", ""), 10, 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) || err == nil && n == 0 {
		return Reply{}, errs.Errorf(errs.Invalid, "%s is not a number of chips other than 0: write `adjust @%s 500` or `adjust @%s -500`.", errs.Quote(args[1]), who, who)
	}
	if err != nil || n > engine.MaxChips || n < -engine.MaxChips {
		return Reply{}, errs.Errorf(errs.Invalid, "An adjustment can add or take at most %s chips at a time.", render.Chips(engine.MaxChips))
	}
	p, known, err := d.store.Player(ctx, cmd.Workspace, who)
	if err != nil {
		return Reply{}, err
	}
	if !known {
		return Reply{}, errs.Errorf(errs.Invalid, "%s has no bankroll here yet: they get one when they first join a table.", who)
	}
	if p.Bankroll+n < 0 { // |n| <= MaxChips and bankrolls are far below int64's limit: no wrap
		return Reply{}, errs.Errorf(errs.Invalid, "%s's bankroll holds only %s chips: take at most that.", who, render.Chips(p.Bankroll))
	}
	if n > 0 && p.Bankroll+n > engine.MaxChips {
		return Reply{}, errs.Errorf(errs.Invalid, "An adjustment may not take a bankroll above %s chips: %s holds %s, so add at most %s.",
			render.Chips(engine.MaxChips), who, render.Chips(p.Bankroll), render.Chips(max(0, engine.MaxChips-p.Bankroll)))
	}
	e := table.LedgerEntry{Time: d.cfg.Now(), Kind: table.KindAdjust, Workspace: cmd.Workspace, User: who, Table: tableID(cmd), Bankroll: n}
	key := d.env.Key(cmd) // applied once; a lost answer is read back (landed)
	err = d.store.Commit(ctx, table.Change{Once: key, Ledger: []table.LedgerEntry{e}})
	if errors.Is(err, ErrOutcomeUnknown) {
		err = d.env.Landed(key, err)
	}
	if errors.Is(err, ErrInsufficient) {
		return Reply{}, errs.Errorf(errs.Invalid, "%s's bankroll no longer holds %s chips: check it with `leaderboard` and try again.", who, render.Chips(-n))
	} else if err != nil {
		return Reply{}, err
	}
	return ok("%s's bankroll is now %s chips.", who, render.Chips(p.Bankroll+n))
}

// verify answers `verify` with how the proof works, and `verify N` with hand N's proof: the public
// cards opened for anyone, the asker's own hole cards opened for the asker alone. Folded and mucked
// cards are never opened.
func (d *Dealer) verify(ctx context.Context, cmd Command, args []string) (Reply, error) {
	if len(args) == 0 {
		return Reply{Text: render.VerifyHelp}, nil
	}
	no, err := strconv.ParseInt(strings.TrimPrefix(args[0], "#"), 10, 64)
	if err != nil || no <= 0 {
		return Reply{}, errs.Errorf(errs.Invalid, "Write `verify 12` with the number of a finished hand at this table.")
	}
	hr, found, err := d.store.Hand(ctx, tableID(cmd), no)
	if err != nil {
		return Reply{}, err
	}
	if !found {
		return Reply{}, errs.Errorf(errs.NotFound, "Hand #%d has not finished at this table: `verify` works for finished hands.", no)
	}
	if hr.Proof != render.ProofVersion {
		return Reply{}, errs.Errorf(errs.NotFound, "Hand #%d was dealt before card-by-card proofs: its deck cannot be opened without showing folded cards.", no)
	}
	h, err := engine.Replay(hr.Setup(), hr.Actions)
	if err != nil {
		return Reply{}, fmt.Errorf("replay hand %d: %w", hr.No, err)
	}
	var public, own []engine.Card
	for _, ev := range h.Events() {
		switch ev.Kind {
		case engine.EvBoard, engine.EvShow:
			public = append(public, ev.Cards...)
		case engine.EvReveal:
			for _, r := range ev.Hands {
				public = append(public, r.Hole...) // every hole card: four or five in Omaha
			}
		}
	}
	for p, u := range hr.Users {
		if u == cmd.User {
			for _, c := range h.HoleCards(p) {
				if !slices.Contains(public, c) {
					own = append(own, c)
				}
			}
		}
	}
	v := render.ProofView{HandNo: hr.No, Commitment: render.DeckCommitment(hr.Deck, hr.Salt), Leaves: render.Leaves(hr.Deck, hr.Salt),
		Public: render.Open(hr.Deck, hr.Salt, public), Own: render.Open(hr.Deck, hr.Salt, own)}
	return Reply{Text: render.Proof(v, render.TextCards).Text}, nil
}
