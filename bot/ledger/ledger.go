// Package ledger is the chip ledger's verbs: a player's bankroll (chips), everyone's (leaderboard),
// an admin's adjustment (adjust), and the channel's finished hands: replayed as text (history),
// proven (verify) and exported for trackers (export), as a file in chat or by `dealerbot export`.
package ledger

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/dealerbot/dealerbot/bot/errs"
	"github.com/dealerbot/dealerbot/bot/stats"
	"github.com/dealerbot/dealerbot/bot/table"
	"github.com/dealerbot/dealerbot/bot/vocab"
	"github.com/dealerbot/dealerbot/engine"
	"github.com/dealerbot/dealerbot/render"
)

// Store is what the ledger's verbs read and write. Every bot.Store implements it.
type Store interface {
	// Table returns one open table, as last committed; ok is false when the channel has none.
	Table(ctx context.Context, id string) (t table.TableRecord, ok bool, err error)
	// Commit applies a change atomically. It returns errs.ErrInsufficient, changing nothing, when a
	// ledger entry would take a bankroll below zero.
	Commit(ctx context.Context, c table.Change) error
	// Player returns a player's record in a workspace; ok is false for a player never seen.
	Player(ctx context.Context, workspace, user string) (p table.PlayerRecord, ok bool, err error)
	// Players returns every player of a workspace.
	Players(ctx context.Context, workspace string) ([]table.PlayerRecord, error)
	// Hands returns up to n finished hands of a table, the most recent first.
	Hands(ctx context.Context, table string, n int) ([]table.HandRecord, error)
	// Hand returns hand number no of a table; ok is false when there is none.
	Hand(ctx context.Context, table string, no int64) (h table.HandRecord, ok bool, err error)
	// Sessions returns every finished session, oldest first.
	Sessions(ctx context.Context) ([]table.SessionRecord, error)
	// EachHandOf walks the stored hands (stats.HandReader), for the last session that dealt one.
	stats.HandReader
}

// ledger answers the verbs on one store.
type ledger struct {
	store Store
	// bankroll is a new player's starting bankroll, as `chips` says it (bot.Config.NewBankroll).
	bankroll int64
}

// Verbs returns the ledger's verbs on store: history, chips, leaderboard, adjust, verify and export.
// startingBankroll is what a new player gets (bot.Config.NewBankroll), which `chips` tells a player
// who has not played yet.
func Verbs(store Store, startingBankroll int64) vocab.Verbs {
	l := &ledger{store: store, bankroll: startingBankroll}
	return vocab.Verbs{
		"verify":      {Need: vocab.Anyone, Runner: vocab.Func(l.verify)},
		"chips":       {Need: vocab.Anyone, Runner: vocab.Func(l.chips)},
		"leaderboard": {Need: vocab.Anyone, Runner: vocab.Func(l.leaderboard)},
		"adjust":      {Need: vocab.Admin, Refusal: "adjust bankrolls", Runner: vocab.Func(l.adjust)},
		"export":      {Need: vocab.Anyone, Runner: vocab.Func(l.export)},
		// history needs no table: the channel's hands are kept after `end`.
		"history": {Need: vocab.Anyone, Runner: vocab.Func(l.history)},
	}
}

// errNoGame is the refusal in a channel that has no table and no hand (bot's own, word for word).
var errNoGame = errs.Errorf(errs.NotFound, "There is no game in this channel yet: type `start` to open a table.")

func reply(format string, args ...any) (vocab.Reply, error) {
	return vocab.Reply{Text: fmt.Sprintf(format, args...)}, nil
}

// maxUserRef is the longest user reference (ID, mention or name) a command may name.
const maxUserRef = 100

// maxHandNo is the largest hand number `history` reads: far more hands than a channel deals.
const maxHandNo = 1_000_000_000_000

// historyUsage is the sentence a bad `history` argument gets.
const historyUsage = "Write `history` for the last hand, `history 15` for hand #15, or `history last 3` for the third most recent (up to 100)."

// history answers `history [N | last N]`: hand #N of the channel (the hand's own number, which goes
// on across sessions), the latest one, or the N-th most recent, replayed as text with the cards drawn
// as the channel's table draws them (as a new table would when none is open).
func (l *ledger) history(ctx context.Context, env vocab.Env, cmd vocab.Command, args []string) (vocab.Reply, error) {
	var no int64 // a hand number, or 0
	back := 1    // else the back-th most recent hand
	switch {
	case len(args) == 0:
	case len(args) == 2 && strings.EqualFold(args[0], "last"):
		v, err := strconv.Atoi(args[1])
		if err != nil || v <= 0 || v > 100 {
			return vocab.Reply{}, errs.Errorf(errs.Invalid, historyUsage)
		}
		back = v
	case len(args) == 1 && !strings.EqualFold(args[0], "last"):
		v, err := strconv.ParseInt(strings.TrimPrefix(args[0], "#"), 10, 64)
		if err != nil || v <= 0 || v > maxHandNo {
			return vocab.Reply{}, errs.Errorf(errs.Invalid, historyUsage)
		}
		no = v
	default:
		return vocab.Reply{}, errs.Errorf(errs.Invalid, historyUsage)
	}
	id := cmd.TableID()
	rec, open, err := l.store.Table(ctx, id)
	if err != nil {
		return vocab.Reply{}, err
	}
	style := render.CardStyle{Kind: table.DefaultSettings().Cards}
	if open {
		style = env.Style(rec.Platform, rec.Settings.Cards)
	}
	hands, err := l.store.Hands(ctx, id, back)
	if err != nil {
		return vocab.Reply{}, err
	}
	if len(hands) == 0 && !open {
		return vocab.Reply{}, errNoGame
	}
	if no > 0 {
		if len(hands) == 0 {
			return vocab.Reply{}, errs.Errorf(errs.NotFound, "No hand has finished in this channel yet.")
		}
		hr, found, err := l.store.Hand(ctx, id, no)
		if err != nil {
			return vocab.Reply{}, err
		}
		if !found {
			if latest := hands[0].No; no > latest {
				return vocab.Reply{}, errs.Errorf(errs.NotFound, "Hand #%d has not finished in this channel: the latest is #%d (`history %d`).", no, latest, latest)
			}
			return vocab.Reply{}, errs.Errorf(errs.NotFound, "Hand #%d is not kept in this channel: `history` shows the latest.", no)
		}
		hands = []table.HandRecord{hr}
		back = 1
	}
	if len(hands) < back {
		return vocab.Reply{}, errs.Errorf(errs.Invalid, "This channel has only %d finished %s: ask for `history last %d` or less.", len(hands), table.Plural(len(hands), "hand", "hands"), max(1, len(hands)))
	}
	hr := hands[back-1]
	h, err := engine.Replay(hr.Setup(), hr.Actions)
	if err != nil {
		return vocab.Reply{}, fmt.Errorf("replay hand %d: %w", hr.No, err)
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
	return vocab.Reply{Text: b.String()}, nil
}

// chips answers `chips`: the user's bankroll and what they have on tables.
func (l *ledger) chips(ctx context.Context, _ vocab.Env, cmd vocab.Command, _ []string) (vocab.Reply, error) {
	p, known, err := l.store.Player(ctx, cmd.Workspace, cmd.User)
	if err != nil {
		return vocab.Reply{}, err
	}
	if !known {
		return reply("You have not played yet: your bankroll starts at %s chips when you first `join` a table.", render.Chips(l.bankroll))
	}
	return reply("Your bankroll: %s chips, and %s on tables.", render.Chips(p.Bankroll), render.Chips(p.OnTable))
}

// leaderboard answers `leaderboard`: every player of the workspace, with their chips and results.
func (l *ledger) leaderboard(ctx context.Context, _ vocab.Env, cmd vocab.Command, _ []string) (vocab.Reply, error) {
	ps, err := l.store.Players(ctx, cmd.Workspace)
	if err != nil {
		return vocab.Reply{}, err
	}
	if len(ps) == 0 {
		return reply("Nobody has played here yet: `start` a table and `join` it.")
	}
	sort.Slice(ps, func(i, j int) bool { return ps[i].User < ps[j].User })
	rows := make([]render.LeaderRow, len(ps))
	for i, p := range ps {
		total := p.Bankroll + p.OnTable
		rows[i] = render.LeaderRow{Name: p.Name, Chips: total, Net: total - p.Granted, Hands: p.Hands}
	}
	return vocab.Reply{Text: render.Leaderboard("Leaderboard", rows).Text}, nil
}

// adjust is an admin's change to a bankroll, recorded in the ledger as an adjustment.
func (l *ledger) adjust(ctx context.Context, env vocab.Env, cmd vocab.Command, args []string) (vocab.Reply, error) {
	if len(args) != 2 {
		return vocab.Reply{}, errs.Errorf(errs.Invalid, "Write `adjust @name 500` to add chips or `adjust @name -500` to take them.")
	}
	who := strings.Trim(args[0], "@<>!")
	if len(who) > maxUserRef {
		return vocab.Reply{}, errs.Errorf(errs.Invalid, "%s is not a player: write `adjust @name 500` with the player's name or mention.", errs.Quote(who))
	}
	n, err := strconv.ParseInt(strings.ReplaceAll(args[1], ",", ""), 10, 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) || err == nil && n == 0 {
		return vocab.Reply{}, errs.Errorf(errs.Invalid, "%s is not a number of chips other than 0: write `adjust @%s 500` or `adjust @%s -500`.", errs.Quote(args[1]), who, who)
	}
	if err != nil || n > engine.MaxChips || n < -engine.MaxChips {
		return vocab.Reply{}, errs.Errorf(errs.Invalid, "An adjustment can add or take at most %s chips at a time.", render.Chips(engine.MaxChips))
	}
	p, known, err := l.store.Player(ctx, cmd.Workspace, who)
	if err != nil {
		return vocab.Reply{}, err
	}
	if !known {
		return vocab.Reply{}, errs.Errorf(errs.Invalid, "%s has no bankroll here yet: they get one when they first join a table.", who)
	}
	if p.Bankroll+n < 0 { // |n| <= MaxChips and bankrolls are far below int64's limit: no wrap
		return vocab.Reply{}, errs.Errorf(errs.Invalid, "%s's bankroll holds only %s chips: take at most that.", who, render.Chips(p.Bankroll))
	}
	if n > 0 && p.Bankroll+n > engine.MaxChips {
		return vocab.Reply{}, errs.Errorf(errs.Invalid, "An adjustment may not take a bankroll above %s chips: %s holds %s, so add at most %s.",
			render.Chips(engine.MaxChips), who, render.Chips(p.Bankroll), render.Chips(max(0, engine.MaxChips-p.Bankroll)))
	}
	e := table.LedgerEntry{Time: env.Now(), Kind: table.KindAdjust, Workspace: cmd.Workspace, User: who, Table: cmd.TableID(), Bankroll: n}
	key := env.Key(cmd) // applied once; a lost answer is read back (landed)
	err = l.store.Commit(ctx, table.Change{Once: key, Ledger: []table.LedgerEntry{e}})
	if errors.Is(err, errs.ErrOutcomeUnknown) {
		err = env.Landed(key, err)
	}
	if errors.Is(err, errs.ErrInsufficient) {
		return vocab.Reply{}, errs.Errorf(errs.Invalid, "%s's bankroll no longer holds %s chips: check it with `leaderboard` and try again.", who, render.Chips(-n))
	} else if err != nil {
		return vocab.Reply{}, err
	}
	return reply("%s's bankroll is now %s chips.", who, render.Chips(p.Bankroll+n))
}

// verify answers `verify` with how the proof works, and `verify N` with hand N's proof: the public
// cards opened for anyone, the asker's own hole cards opened for the asker alone. Folded and mucked
// cards are never opened.
func (l *ledger) verify(ctx context.Context, _ vocab.Env, cmd vocab.Command, args []string) (vocab.Reply, error) {
	if len(args) == 0 {
		return vocab.Reply{Text: render.VerifyHelp}, nil
	}
	no, err := strconv.ParseInt(strings.TrimPrefix(args[0], "#"), 10, 64)
	if err != nil || no <= 0 {
		return vocab.Reply{}, errs.Errorf(errs.Invalid, "Write `verify 12` with the number of a finished hand at this table.")
	}
	hr, found, err := l.store.Hand(ctx, cmd.TableID(), no)
	if err != nil {
		return vocab.Reply{}, err
	}
	if !found {
		return vocab.Reply{}, errs.Errorf(errs.NotFound, "Hand #%d has not finished at this table: `verify` works for finished hands.", no)
	}
	if hr.Proof != render.ProofVersion {
		return vocab.Reply{}, errs.Errorf(errs.NotFound, "Hand #%d was dealt before card-by-card proofs: its deck cannot be opened without showing folded cards.", no)
	}
	h, err := engine.Replay(hr.Setup(), hr.Actions)
	if err != nil {
		return vocab.Reply{}, fmt.Errorf("replay hand %d: %w", hr.No, err)
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
	return vocab.Reply{Text: render.Proof(v, render.TextCards).Text}, nil
}
