package slack

import (
	"context"
	"errors"
	"fmt"
	"time"

	slackapi "github.com/slack-go/slack"
	"github.com/slack-go/slack/socketmode"
)

// runSocket connects with Socket Mode and acknowledges every request as it arrives; the work itself
// (the dealer's answer, posts, modals) continues in the background, so Slack always gets its ack
// within its 3 seconds.
func (a *Adapter) runSocket(ctx context.Context) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	if err := a.checkAuth(ctx); err != nil {
		return err
	}
	sm := socketmode.New(a.api)
	errc := make(chan error, 1)
	go func() { errc <- sm.RunContext(ctx) }()
	for {
		select {
		case <-ctx.Done():
			return nil
		case err := <-errc:
			if ctx.Err() != nil || errors.Is(err, context.Canceled) {
				return nil
			}
			return fmt.Errorf("slack socket mode stopped (check SLACK_APP_TOKEN and that Socket Mode is enabled for the app): %w", err)
		case evt := <-sm.Events:
			if err := a.socketEvent(ctx, sm, evt); err != nil {
				return err
			}
		}
	}
}

// envelopeTTL is how long a handled envelope ID is remembered. Slack redelivers an envelope it saw
// no ack for within seconds to a few minutes.
const envelopeTTL = 10 * time.Minute

// firstDelivery reports whether an envelope is new; a redelivery (the same envelope_id, with
// retry_attempt >= 1 when our ack was late or lost) is acknowledged again but not handled twice.
func (a *Adapter) firstDelivery(req *socketmode.Request) bool {
	if req == nil || req.EnvelopeID == "" {
		return true
	}
	now := a.now()
	a.mu.Lock()
	defer a.mu.Unlock()
	return firstSight(a.envs, req.EnvelopeID, now, now.Add(envelopeTTL))
}

// firstSight records key in seen until expires and reports whether it was new; keys whose time has
// passed are dropped first, so the set stays as small as the traffic of its window. The caller
// holds a.mu.
func firstSight(seen map[string]time.Time, key string, now, expires time.Time) bool {
	for k, exp := range seen {
		if now.After(exp) {
			delete(seen, k)
		}
	}
	if _, dup := seen[key]; dup {
		return false
	}
	seen[key] = expires
	return true
}

// socketEvent handles one Socket Mode event.
func (a *Adapter) socketEvent(ctx context.Context, sm *socketmode.Client, evt socketmode.Event) error {
	switch evt.Type {
	case socketmode.EventTypeSlashCommand, socketmode.EventTypeInteractive:
		if !a.firstDelivery(evt.Request) {
			a.log.Info("slack: redelivered envelope acknowledged again, not handled twice", "envelope", evt.Request.EnvelopeID,
				"retry", evt.Request.RetryAttempt)
			a.ack(ctx, sm, evt.Request, nil)
			return nil
		}
	}
	switch evt.Type {
	case socketmode.EventTypeConnected:
		a.log.Info("slack: connected (socket mode)")
	case socketmode.EventTypeConnectionError:
		a.log.Warn("slack: connection error, retrying", "err", evt.Data)
	case socketmode.EventTypeInvalidAuth:
		return errors.New("slack refused the app-level token: create a new xapp- token with connections:write under Basic Information > App-Level Tokens and set SLACK_APP_TOKEN")
	case socketmode.EventTypeSlashCommand:
		// Taken (counted for Close) before the ack, so that nothing Slack was told is received can be
		// missed; dispatch itself only starts the work.
		if sc, ok := evt.Data.(slackapi.SlashCommand); ok {
			a.dispatch(commandFromSlash(sc), sc.ResponseURL)
		}
		a.ack(ctx, sm, evt.Request, nil)
	case socketmode.EventTypeInteractive:
		ic, ok := evt.Data.(slackapi.InteractionCallback)
		var payload any
		if ok {
			payload = a.interact(ic)
		}
		a.ack(ctx, sm, evt.Request, payload)
	case socketmode.EventTypeEventsAPI:
		a.ack(ctx, sm, evt.Request, nil) // the app subscribes to no events; ack so Slack does not retry
	}
	return nil
}

func (a *Adapter) ack(ctx context.Context, sm *socketmode.Client, req *socketmode.Request, payload any) {
	if req == nil || req.EnvelopeID == "" {
		return
	}
	if err := sm.AckCtx(ctx, req.EnvelopeID, payload); err != nil {
		a.log.Error("slack: ack failed", "envelope", req.EnvelopeID, "err", err)
	}
}

// checkAuth calls auth.test so a wrong or revoked bot token stops the start with a sentence, instead
// of being noticed at the first post in the middle of a hand. When Slack cannot be reached at all the
// start goes on (the connection is retried like any other call) and the log says so.
func (a *Adapter) checkAuth(ctx context.Context) error {
	resp, err := a.api.AuthTestContext(ctx)
	var se slackapi.SlackErrorResponse
	switch {
	case err == nil:
		a.log.Info("slack: signed in", "team", resp.Team, "bot", resp.User)
		return nil
	case errors.As(err, &se): // Slack answered: invalid_auth, token_revoked, account_inactive…
		return fmt.Errorf("slack refused the bot token (auth.test: %s): copy the Bot User OAuth Token (xoxb-…) from OAuth & Permissions into SLACK_BOT_TOKEN", err)
	}
	a.log.Warn("slack: could not check the bot token at start (auth.test); going on", "err", err)
	return nil
}
