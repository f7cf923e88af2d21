package bot

import (
	"regexp"
	"strings"

	"github.com/dealerbot/dealerbot/bot/errs"
	"github.com/dealerbot/dealerbot/bot/money"
	"github.com/dealerbot/dealerbot/bot/schedule"
)

// help answers `help` with every command in a short line each (helpList), and `help VERB` with what explains that one verb: the
// clauses of the list, or of the money commands' (`help money`), that name it as a command ("raise N
// (or raise to N) — raise to N in all"), else the lines that mention it ("help tournament"). A word
// no help knows is refused.
func (d *Dealer) help(args []string) (Reply, error) {
	if len(args) == 0 {
		list := helpList
		if d.sched.Load() != nil {
			list += "\n" + schedule.HelpList
		}
		return Reply{Text: list + "\n" + money.HelpList}, nil
	}
	text := helpText
	if d.sched.Load() != nil {
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
		return Reply{}, errs.Errorf(errs.Invalid, "There is no command %s: `help` lists every command.", errs.Quote(args[0]))
	}
	return Reply{Text: strings.Join(out, "\n")}, nil
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
