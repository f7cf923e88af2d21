package slack

import (
	"context"
	"errors"
	"fmt"

	slackapi "github.com/slack-go/slack"
	"github.com/slack-go/slack/socketmode"
)

// runSocket connects with Socket Mode and acknowledges every request as it arrives; the work itself
// (the dealer's answer, posts, modals) continues in the background, so Slack always gets its ack
// within its 3 seconds.
func (a *Adapter) runSocket(ctx context.Context) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
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

// socketEvent handles one Socket Mode event.
func (a *Adapter) socketEvent(ctx context.Context, sm *socketmode.Client, evt socketmode.Event) error {
	switch evt.Type {
	case socketmode.EventTypeConnected:
		a.log.Info("slack: connected (socket mode)")
	case socketmode.EventTypeConnectionError:
		a.log.Warn("slack: connection error, retrying", "err", evt.Data)
	case socketmode.EventTypeInvalidAuth:
		return errors.New("slack refused the app-level token: create a new xapp- token with connections:write under Basic Information > App-Level Tokens and set SLACK_APP_TOKEN")
	case socketmode.EventTypeSlashCommand:
		sc, ok := evt.Data.(slackapi.SlashCommand)
		a.ack(ctx, sm, evt.Request, nil)
		if ok {
			a.dispatch(commandFromSlash(sc), sc.ResponseURL)
		}
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
