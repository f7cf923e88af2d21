package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/dealerbot/dealerbot/adapters/discord"
	"github.com/dealerbot/dealerbot/adapters/slack"
	"github.com/dealerbot/dealerbot/bot"
)

// checkTimeout bounds `dealerbot check` as a whole.
const checkTimeout = 30 * time.Second

// runCheck answers `dealerbot check`: for each configured chat platform, what works and, in a
// sentence, what is missing and what to click to fix it. It exits 1 when something is missing.
func runCheck(ctx context.Context, env *Env, client *http.Client, out io.Writer) int {
	ctx, cancel := context.WithTimeout(ctx, checkTimeout)
	defer cancel()
	dcfg, derr := discord.ConfigFromEnv(env.Get)
	scfg, serr := slack.ConfigFromEnv(env.Get)
	missing := false
	report := func(platform string, fs []bot.Finding) {
		fmt.Fprintf(out, "%s:\n", platform)
		for _, f := range fs {
			mark := "✓"
			if !f.OK {
				mark, missing = "✗", true
			}
			fmt.Fprintf(out, "  %s %s\n", mark, f.Text)
		}
	}
	switch {
	case derr != nil:
		report("Discord", []bot.Finding{{Text: derr.Error()}})
	case dcfg.Enabled():
		report("Discord", discord.Check(ctx, dcfg, client))
	}
	switch {
	case serr != nil:
		report("Slack", []bot.Finding{{Text: serr.Error()}})
	case scfg.Mode() != slack.Off:
		report("Slack", slack.Check(ctx, scfg, client))
	}
	if derr == nil && serr == nil && !dcfg.Enabled() && scfg.Mode() == slack.Off {
		fmt.Fprintln(out, "No chat platform is configured, so dealerbot opens the console table. To connect Discord set DISCORD_TOKEN and DISCORD_APP_ID; "+
			"for Slack set SLACK_BOT_TOKEN and SLACK_APP_TOKEN (README.md, \"Playing on Discord\" and \"Playing on Slack\").")
	}
	if missing {
		return 1
	}
	return 0
}
