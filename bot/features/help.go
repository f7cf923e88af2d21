package features

import (
	"context"
	"regexp"
	"strings"

	"github.com/dealerbot/dealerbot/bot/errs"
	"github.com/dealerbot/dealerbot/bot/money"
	"github.com/dealerbot/dealerbot/bot/schedule"
	"github.com/dealerbot/dealerbot/bot/table"
	"github.com/dealerbot/dealerbot/bot/vocab"
)

// helpVerbs are `help` and `help COMMAND`: what every verb does, the schedule's only while a scheduler
// runs (desk).
func helpVerbs(desk *schedule.Desk) vocab.Verbs {
	return vocab.Verbs{"help": {Need: vocab.Anyone, Runner: vocab.Func(func(_ context.Context, _ vocab.Env, _ vocab.Command, args []string) (vocab.Reply, error) {
		return help(desk, args)
	})}}
}

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

// helpText explains every command in a line each, for `help COMMAND` (help finds the clauses
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

// help answers `help` with every command in a short line each (helpList), and `help VERB` with what explains that one verb: the
// clauses of the list, or of the money commands' (`help money`), that name it as a command ("raise N
// (or raise to N) — raise to N in all"), else the lines that mention it ("help tournament"). A word
// no help knows is refused.
func help(desk *schedule.Desk, args []string) (vocab.Reply, error) {
	if len(args) == 0 {
		list := helpList
		if desk.Manager() != nil {
			list += "\n" + schedule.HelpList
		}
		return vocab.Reply{Text: list + "\n" + money.HelpList}, nil
	}
	text := helpText
	if desk.Manager() != nil {
		text += "\n" + schedule.Help
	}
	text += "\n" + money.HelpLine + "\n" + money.Help
	word := strings.ToLower(strings.TrimLeft(args[0], "/!`"))
	word = strings.TrimRight(word, "`")
	if word == "all-in" {
		word = "allin"
	}
	lines := strings.Split(text, "\n")[1:] // after "Commands:"
	var out []string
	command := regexp.MustCompile(`(^|, | / |\(or )` + regexp.QuoteMeta(word) + `( |$|,|\))`)
	for _, l := range lines {
		for _, c := range helpClauses(l) {
			if name, _, _ := strings.Cut(c, " — "); command.MatchString(name) {
				out = append(out, c)
			}
		}
	}
	if len(out) == 0 {
		mention := regexp.MustCompile(`\b` + regexp.QuoteMeta(word) + `\b`)
		for _, l := range lines {
			if word != "" && mention.MatchString(l) {
				out = append(out, l)
			}
		}
	}
	if len(out) == 0 {
		return vocab.Reply{}, errs.Errorf(errs.Invalid, "There is no command %s: `help` lists every command.", errs.Quote(args[0]))
	}
	return vocab.Reply{Text: strings.Join(out, "\n")}, nil
}

// helpClauses splits a line of the help into the clauses that each explain a command ("bet N — ...",
// "raise N ... — ...", "allin — ..."); a "; " that does not begin another command stays in its clause.
func helpClauses(line string) []string {
	var out []string
	for _, part := range strings.Split(line, "; ") {
		if n := len(out); n > 0 && !strings.Contains(part, " — ") {
			out[n-1] += "; " + part
			continue
		}
		out = append(out, part)
	}
	return out
}
