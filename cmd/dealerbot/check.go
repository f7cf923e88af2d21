package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/dealerbot/dealerbot/adapters/discord"
	"github.com/dealerbot/dealerbot/adapters/slack"
)

// checkTimeout bounds `dealerbot check` as a whole.
const checkTimeout = 30 * time.Second

// finding is one line of `dealerbot check`.
type finding struct {
	ok   bool
	text string
}

// runCheck answers `dealerbot check`: for each configured chat platform, what works and, in a
// sentence, what is missing and what to click to fix it. It exits 1 when something is missing.
func runCheck(ctx context.Context, env *Env, client *http.Client, out io.Writer) int {
	ctx, cancel := context.WithTimeout(ctx, checkTimeout)
	defer cancel()
	dcfg, derr := discord.ConfigFromEnv(env.Get)
	scfg, serr := slack.ConfigFromEnv(env.Get)
	missing := false
	report := func(platform string, fs []finding) {
		fmt.Fprintf(out, "%s:\n", platform)
		for _, f := range fs {
			mark := "✓"
			if !f.ok {
				mark, missing = "✗", true
			}
			fmt.Fprintf(out, "  %s %s\n", mark, f.text)
		}
	}
	switch {
	case derr != nil:
		report("Discord", []finding{{text: derr.Error()}})
	case dcfg.Enabled():
		var fs []finding
		for _, f := range discord.Check(ctx, dcfg, client) {
			fs = append(fs, finding{f.OK, f.Text})
		}
		report("Discord", fs)
	}
	switch {
	case serr != nil:
		report("Slack", []finding{{text: serr.Error()}})
	case scfg.Mode() != slack.Off:
		var fs []finding
		for _, f := range slack.Check(ctx, scfg, client) {
			fs = append(fs, finding{f.OK, f.Text})
		}
		report("Slack", fs)
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
