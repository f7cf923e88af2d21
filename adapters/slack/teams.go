package slack

import (
	"context"
	"errors"
	"fmt"
	"strings"

	slackapi "github.com/slack-go/slack"

	"github.com/dealerbot/dealerbot/bot"
)

// Many workspaces (OAuth mode): every call to Slack is made with the bot token of the workspace it is
// for, read from the workspace's installation the first time and kept in a client of its own. A
// workspace's token is never used for another: the client is chosen by the workspace of the message or
// command, never by anything else. With SLACK_BOT_TOKEN every call uses that one token.
//
// A workspace stops being served when it removes the app (app_uninstalled), revokes the bot's token
// (tokens_revoked), or Slack refuses its token on a call (invalid_auth, account_inactive,
// token_revoked): its installation is deleted and its tables are ended the way `end` does, once.

// teamClient is the Slack client of one workspace.
type teamClient struct {
	api     *slackapi.Client
	token   string
	botUser string
}

// errNotInstalled is the error of a call for a workspace that has no installation.
var errNotInstalled = errors.New("dealerbot is not installed in this Slack workspace")

// errTokenRefused marks a call Slack refused because of the token itself.
var errTokenRefused = errors.New("Slack refused the bot token")

// communityEnder is what the adapter needs of the dealer when a workspace goes away: its tables
// ended (bot.Dealer has it).
type communityEnder interface {
	EndCommunity(ctx context.Context, platform, workspace, why string) error
}

// client returns the Slack client of a workspace.
func (a *Adapter) client(ctx context.Context, workspace string) (*slackapi.Client, error) {
	if a.cfg.Mode() != OAuthMode {
		return a.api, nil
	}
	tc, err := a.team(ctx, workspace)
	if err != nil {
		return nil, err
	}
	return tc.api, nil
}

// team returns the client of a workspace, made from its stored installation the first time.
func (a *Adapter) team(ctx context.Context, workspace string) (*teamClient, error) {
	if workspace == "" {
		return nil, errors.New("slack: a call without a workspace")
	}
	a.mu.Lock()
	tc, gone, gen := a.teams[workspace], a.gone[workspace], a.gen
	a.mu.Unlock()
	switch {
	case tc != nil:
		return tc, nil
	case gone:
		return nil, fmt.Errorf("slack: workspace %s: %w", workspace, errNotInstalled)
	}
	in, ok, err := a.installs.Installation(ctx, platform, workspace)
	if err != nil {
		return nil, fmt.Errorf("slack: read the installation of workspace %s: %w", workspace, err)
	}
	if !ok {
		return nil, fmt.Errorf("slack: workspace %s: %w", workspace, errNotInstalled)
	}
	token, err := a.sealer.open(workspace, in.Token)
	if err != nil {
		return nil, fmt.Errorf("slack: %w", err)
	}
	tc = &teamClient{api: a.newClient(token), token: token, botUser: in.BotUser}
	a.mu.Lock()
	defer a.mu.Unlock()
	if cur := a.teams[workspace]; cur != nil {
		return cur, nil
	}
	if a.gen == gen { // nothing was installed or removed meanwhile: keep it
		a.teams[workspace] = tc
	}
	return tc, nil
}

// call runs one Web API call for a workspace with that workspace's client, waiting out rate limits
// (retry). A call Slack refuses for its token ends the workspace's service (tokenRefused).
func (a *Adapter) call(ctx context.Context, workspace, method string, f func(api *slackapi.Client) error) error {
	api, err := a.client(ctx, workspace)
	if err != nil {
		return err
	}
	return a.checkToken(workspace, api, a.retry(ctx, method, func() error { return f(api) }))
}

// callOnce is call without retries: for a call whose moment passes (a trigger ID lives 3 seconds).
func (a *Adapter) callOnce(ctx context.Context, workspace string, f func(api *slackapi.Client) error) error {
	api, err := a.client(ctx, workspace)
	if err != nil {
		return err
	}
	return a.checkToken(workspace, api, f(api))
}

// tokenRefusal reports whether Slack refused a call because of the token itself.
func tokenRefusal(err error) bool {
	var se slackapi.SlackErrorResponse
	if !errors.As(err, &se) {
		return false
	}
	switch se.Err {
	case "invalid_auth", "account_inactive", "token_revoked":
		return true
	}
	return false
}

// checkToken returns err, marked errTokenRefused when Slack refused the token; in OAuth mode the
// workspace whose client api is is then no longer served.
func (a *Adapter) checkToken(workspace string, api *slackapi.Client, err error) error {
	if !tokenRefusal(err) {
		return err
	}
	if a.cfg.Mode() == OAuthMode {
		a.tokenRefused(workspace, api, err)
	}
	return fmt.Errorf("%w: %w", errTokenRefused, err)
}

// tokenRefused stops serving a workspace whose token Slack refuses: once, however many calls were
// refused together, and only if api is still the workspace's client.
func (a *Adapter) tokenRefused(workspace string, api *slackapi.Client, err error) {
	a.mu.Lock()
	tc := a.teams[workspace]
	if tc == nil || tc.api != api {
		a.mu.Unlock()
		return // handled already, or the workspace installed the app again meanwhile
	}
	a.forgetLocked(workspace)
	a.mu.Unlock()
	a.log.Warn("slack: Slack refuses the bot token of a workspace: its installation is removed and its tables are ended",
		"team", workspace, "err", err)
	token := tc.token
	a.spawn(func(ctx context.Context) {
		a.uninstall(ctx, workspace, token, "Slack no longer accepts dealerbot's token for this workspace")
	})
}

// forgetLocked drops a workspace's client and what is remembered of it, and makes no client for it
// until uninstall is done. a.mu is held.
func (a *Adapter) forgetLocked(workspace string) {
	delete(a.teams, workspace)
	a.gone[workspace] = true
	a.gen++
	prefix := workspace + "/"
	for k := range a.dms {
		if strings.HasPrefix(k, prefix) {
			delete(a.dms, k)
		}
	}
	for k := range a.users {
		if strings.HasPrefix(k, prefix) {
			delete(a.users, k)
		}
	}
}

// uninstall deletes a workspace's installation and ends its tables. refused, when set, is the token
// Slack refused: an installation holding another token (the app was installed again since) stays.
// The caller has called forgetLocked.
func (a *Adapter) uninstall(ctx context.Context, workspace, refused, why string) {
	defer func() {
		a.mu.Lock()
		delete(a.gone, workspace)
		a.mu.Unlock()
	}()
	if refused != "" {
		in, ok, err := a.installs.Installation(ctx, platform, workspace)
		if err == nil && ok {
			if token, err := a.sealer.open(workspace, in.Token); err == nil && token != refused {
				a.log.Info("slack: the workspace installed the app again meanwhile; its new token is kept", "team", workspace)
				return
			}
		}
	}
	if err := a.installs.DeleteInstallation(ctx, platform, workspace); err != nil {
		a.log.Error("slack: could not delete the installation of a workspace", "team", workspace, "err", err)
	}
	a.mu.Lock()
	d := a.dealer
	a.mu.Unlock()
	e, ok := d.(communityEnder)
	if !ok {
		a.log.Warn("slack: the dealer cannot end a workspace's tables", "team", workspace)
		return
	}
	if err := e.EndCommunity(ctx, platform, workspace, why); err != nil {
		a.log.Error("slack: could not end the tables of a workspace", "team", workspace, "err", err)
	}
}

// installed puts a workspace's new installation in place: its client from now on.
func (a *Adapter) installed(in bot.Installation, token string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.forgetLocked(in.Workspace)
	delete(a.gone, in.Workspace)
	a.teams[in.Workspace] = &teamClient{api: a.newClient(token), token: token, botUser: in.BotUser}
}
