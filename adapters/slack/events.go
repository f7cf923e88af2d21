package slack

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"time"

	"github.com/slack-go/slack/slackevents"
)

// The Events API (JSON bodies at /slack/events, signed like every other request): the URL check Slack
// makes when the Request URL is saved, and the two events that end a workspace's service in OAuth
// mode: app_uninstalled (the workspace removed the app) and tokens_revoked (it revoked the bot's
// token). Each is acknowledged at once and handled in the background; an event Slack delivers again
// (its retries carry the same event_id) is acknowledged and not handled twice. Other events are
// acknowledged and ignored.

// eventTTL is how long a handled event ID is remembered: Slack retries an event three times within
// about an hour and a half.
const eventTTL = 2 * time.Hour

// event answers an Events API request whose signature has been checked.
func (a *Adapter) event(w http.ResponseWriter, body []byte) {
	ev, err := slackevents.ParseEvent(json.RawMessage(body), slackevents.OptionNoVerifyToken()) // the signature stands for the old token
	switch {
	case err == nil:
	case json.Valid(body): // an event slack-go does not know: not one of ours; acknowledged, or Slack retries it
		a.log.Debug("slack: an event dealerbot does not handle", "err", err)
		w.WriteHeader(http.StatusOK)
		return
	default:
		http.Error(w, "malformed event", http.StatusBadRequest)
		return
	}
	switch ev.Type {
	case slackevents.URLVerification:
		v, ok := ev.Data.(*slackevents.EventsAPIURLVerificationEvent)
		if !ok {
			http.Error(w, "malformed url_verification", http.StatusBadRequest)
			return
		}
		w.Header().Set("Content-Type", "text/plain")
		_, _ = w.Write([]byte(v.Challenge))
		return
	case slackevents.CallbackEvent:
	default:
		w.WriteHeader(http.StatusOK)
		return
	}
	outer, _ := ev.Data.(*slackevents.EventsAPICallbackEvent)
	w.WriteHeader(http.StatusOK)
	if outer != nil && outer.EventID != "" {
		now := a.now()
		a.mu.Lock()
		first := firstSight(a.events, outer.EventID, now, now.Add(eventTTL))
		a.mu.Unlock()
		if !first {
			a.log.Info("slack: event delivered again, not handled twice", "event", outer.EventID)
			return
		}
	}
	team := ev.TeamID
	switch inner := ev.InnerEvent.Data.(type) {
	case *slackevents.AppUninstalledEvent:
		a.workspaceGone(team, "dealerbot was removed from this workspace")
	case *slackevents.TokensRevokedEvent:
		if len(inner.Tokens.Bot) > 0 {
			a.workspaceGone(team, "this workspace revoked dealerbot's token", inner.Tokens.Bot...)
		}
	}
}

// workspaceGone stops serving a workspace that removed the app or revoked its bot token: its
// installation is deleted and its tables are ended. With bots given, only if the installation's bot
// user is among them (tokens_revoked names the bot users whose tokens went). With SLACK_BOT_TOKEN
// (one workspace) it is only logged: the operator replaces the token.
func (a *Adapter) workspaceGone(team, why string, bots ...string) {
	if team == "" {
		return
	}
	if a.cfg.Mode() != OAuthMode {
		a.log.Warn("slack: "+why+": SLACK_BOT_TOKEN no longer works there", "team", team)
		return
	}
	a.spawn(func(ctx context.Context) {
		if len(bots) > 0 {
			in, ok, err := a.installs.Installation(ctx, platform, team)
			if err != nil {
				a.log.Error("slack: read the installation of a workspace", "team", team, "err", err)
				return
			}
			if !ok || in.BotUser != "" && !slices.Contains(bots, in.BotUser) {
				return // another bot's token, or nothing installed: nothing of ours went
			}
		}
		a.mu.Lock()
		a.forgetLocked(team)
		a.mu.Unlock()
		a.log.Warn("slack: "+why+": its installation is removed and its tables are ended", "team", team)
		a.uninstall(ctx, team, "", why)
	})
}
