package slack

// Inbound: a request Slack has acknowledged (a slash command, a click, an amount form) becomes a
// bot.Command, its sender identified, and goes to the dealer; the dealer's answer goes back through
// the outbound side (adapter.go).

import (
	"context"
	"strings"
	"time"

	slackapi "github.com/slack-go/slack"

	"github.com/dealerbot/dealerbot/bot"
)

// adminJudge is the dealer's optional answer to whether being an admin can decide a command
// (bot.Dealer has it): the permission rules live there, once.
type adminJudge interface {
	AdminMatters(text string) bool
}

// startingUp answers a command that arrives before SetDealer.
const startingUp = "The dealer is still starting up. Try again in a moment."

// dispatch hands cmd to the dealer in the background (Slack has already been acknowledged) and shows
// the reply to the sender ephemerally. responseURL, when Slack sent one, is the way back to the sender
// when chat.postEphemeral cannot reach them (the bot is not in the channel).
func (a *Adapter) dispatch(cmd bot.Command, responseURL string) {
	a.spawn(func(ctx context.Context) {
		a.mu.Lock()
		d := a.dealer
		a.mu.Unlock()
		var r bot.Reply
		if d == nil {
			r = bot.Reply{Text: startingUp, IsError: true}
		} else {
			a.identify(ctx, &cmd)
			r = d.Handle(ctx, cmd)
		}
		if r.Update != nil && cmd.Message != "" {
			a.replace(ctx, cmd, *r.Update, responseURL)
		}
		a.reply(ctx, cmd, r, responseURL)
	})
}

// userTTL is how long a user's admin flag and display name are used without asking Slack again.
const userTTL = 10 * time.Minute

// userEntry is what users.info said of a user, and when.
type userEntry struct {
	admin bool
	name  string // display name, "" when the profile has none
	at    time.Time
}

// identify fills in whether the sender administers the workspace and the name they show, which reads
// better at the table than the account name in the payload, from users.info. The round trip is made
// where it matters and nowhere else:
//   - a command that an admin's rights could decide (the dealer says which: bot.Dealer.AdminMatters)
//     asks Slack afresh, so a demoted admin loses those rights at once;
//   - a user seen for the first time is asked about before the command runs;
//   - any other command (play: a click, a fold) runs at once with what is known, and a user known
//     for longer than userTTL is asked about again in the background, for their next command.
//
// When Slack cannot say, the sender is a regular player under the payload's name.
func (a *Adapter) identify(ctx context.Context, cmd *bot.Command) {
	key := cmd.Workspace + "/" + cmd.User
	a.mu.Lock()
	e, known := a.users[key]
	a.mu.Unlock()
	switch {
	case !known || a.adminMatters(cmd.Text):
		fresh, err := a.lookUp(ctx, cmd.Workspace, cmd.User)
		if err != nil {
			a.log.Warn("slack: users.info failed; treating the user as a player", "user", cmd.User, "err", err)
			return
		}
		e = fresh
	case a.now().Sub(e.at) >= userTTL:
		a.refresh(cmd.Workspace, cmd.User)
	}
	cmd.Admin = e.admin
	if e.name != "" {
		cmd.UserName = e.name
	}
}

// lookUp asks Slack about a user (users.info) and keeps the answer.
func (a *Adapter) lookUp(ctx context.Context, workspace, user string) (userEntry, error) {
	var u *slackapi.User
	err := a.call(ctx, workspace, "users.info", func(api *slackapi.Client) (err error) {
		u, err = api.GetUserInfoContext(ctx, user)
		return err
	})
	if err != nil {
		return userEntry{}, err
	}
	e := userEntry{admin: u.IsAdmin || u.IsOwner || u.IsPrimaryOwner, at: a.now()}
	if e.name = strings.TrimSpace(u.Profile.DisplayName); e.name == "" {
		e.name = strings.TrimSpace(u.Profile.RealName)
	}
	a.mu.Lock()
	a.users[workspace+"/"+user] = e
	a.mu.Unlock()
	return e, nil
}

// refresh asks Slack about a user again in the background, once at a time per user; the entry kept
// serves meanwhile, and still does when Slack cannot say.
func (a *Adapter) refresh(workspace, user string) {
	key := workspace + "/" + user
	if _, busy := a.refreshing.LoadOrStore(key, true); busy {
		return
	}
	a.spawn(func(ctx context.Context) {
		defer a.refreshing.Delete(key)
		if _, err := a.lookUp(ctx, workspace, user); err != nil {
			a.log.Warn("slack: users.info failed; the user's name and admin flag stay as they were", "user", user, "err", err)
		}
	})
}

// adminMatters asks the dealer whether being an admin can decide a command; a dealer that cannot
// say gets the sender's status asked afresh every time.
func (a *Adapter) adminMatters(text string) bool {
	a.mu.Lock()
	d := a.dealer
	a.mu.Unlock()
	if j, ok := d.(adminJudge); ok {
		return j.AdminMatters(text)
	}
	return true
}

// interact handles one interaction payload and returns what to acknowledge it with: nil for a plain
// ack, or a view-submission response that shows an error in the modal.
func (a *Adapter) interact(ic slackapi.InteractionCallback) any {
	switch ic.Type {
	case slackapi.InteractionTypeBlockActions:
		for _, act := range ic.ActionCallback.BlockActions {
			c, err := clickFromAction(&ic, act)
			if err != nil {
				a.log.Debug("slack: ignoring an action", "action_id", act.ActionID, "err", err)
				continue
			}
			c.ResponseURL = ic.ResponseURL
			if c.Amount {
				trigger := ic.TriggerID
				a.spawn(func(ctx context.Context) { a.amount(ctx, trigger, c) })
				continue
			}
			a.dispatch(c.Cmd, ic.ResponseURL)
		}
	case slackapi.InteractionTypeViewSubmission:
		cmd, fieldErr, err := commandFromSubmission(&ic)
		switch {
		case err != nil:
			a.log.Debug("slack: ignoring a view submission", "callback_id", ic.View.CallbackID, "err", err)
		case fieldErr != "":
			return slackapi.NewErrorsViewSubmissionResponse(map[string]string{amountBlockID: fieldErr})
		default:
			v, _ := decodeValue(ic.View.PrivateMetadata)
			a.dispatch(cmd, v.Hook) // the response_url of the click that opened the form
		}
	}
	return nil
}

// amount answers a click on an amount button (Raise…, Bet…): the dealer settles first whether the
// form opens (bot.ProbeForm), so that anyone but the player to act, and anyone clicking an old
// button, gets the dealer's refusal privately instead of the form. A dealer that does not answer
// within probeWait does not hold the form up: it opens while the trigger is still valid, and the
// submission is refused then if it must be. The sender is not looked up (users.info): whether it is
// someone's turn depends only on the user ID, and the trigger's seconds are few.
func (a *Adapter) amount(ctx context.Context, trigger string, c click) {
	a.mu.Lock()
	d := a.dealer
	a.mu.Unlock()
	if d == nil {
		a.reply(ctx, c.Cmd, bot.Reply{Text: startingUp, IsError: true}, c.ResponseURL)
		return
	}
	f := bot.ProbeForm(ctx, d, c.Cmd, a.probeWait)
	switch {
	case ctx.Err() != nil:
		return // shutting down: the trigger is of no use now
	case f.Panic != nil:
		a.log.Error("slack: panic while handling a request", "panic", f.Panic.Error())
	case f.Late:
		a.log.Warn("slack: the dealer did not answer a probe in time; opening the amount window anyway",
			"channel", c.Cmd.Channel, "user", c.Cmd.User, "wait", a.probeWait)
	}
	if !f.Open {
		a.reply(ctx, c.Cmd, f.Refusal, c.ResponseURL)
		return
	}
	a.openAmount(ctx, trigger, c)
}
