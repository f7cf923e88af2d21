package discord

// Interactions coming in: a slash command, a button click or a submitted amount form, from the
// gateway (onInteraction) or the Interactions Endpoint (http.go), is translated into a bot.Command
// (commands.go, payloads.go) and run by the dealer; a responder (responder.go) answers it.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"runtime/debug"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/dealerbot/dealerbot/bot"
	"github.com/dealerbot/dealerbot/bot/errs"
)

// An interaction token lives 15 minutes; a command still running after this long gives up.
const interactionTimeout = 14 * time.Minute

// probeTimeout is how long a click on an amount button (Raise…) waits for the dealer to say whether
// the user may act before the form opens anyway. The form must be the first response (it cannot
// follow a deferral) and Discord wants that within 3 s of the click; a second of probing leaves the
// rest for a slow network. The submitted form is checked by the dealer in any case.
const probeTimeout = time.Second

// onInteraction is discordgo's handler for interactions that arrive over the gateway. Their first
// response is a REST call of its own (callback), made after the event may have waited in the
// websocket, so the answer is deferred at once (deferAfter 0) and the reply follows over REST.
func (a *Adapter) onInteraction(_ *discordgo.Session, ev *discordgo.InteractionCreate) {
	if ev == nil || ev.Interaction == nil {
		return
	}
	a.interact(ev.Interaction, a.callback, 0)
}

// firstResponse makes an interaction's first response: a REST callback for one that came over the
// gateway, the HTTP response's body for one that came to the Interactions Endpoint.
type firstResponse func(ctx context.Context, i *discordgo.Interaction, resp *discordgo.InteractionResponse) error

// callback makes an interaction's first response. Discord wants it within 3 s and does not count it
// toward the bot's global rate limit, so a response without files is sent straight, not through
// discordgo's rate limiter, which would hold it while another route waits out a global 429.
func (a *Adapter) callback(ctx context.Context, i *discordgo.Interaction, resp *discordgo.InteractionResponse) error {
	if resp.Data != nil && len(resp.Data.Files) > 0 {
		return a.session.InteractionRespond(i, resp, discordgo.WithContext(ctx))
	}
	body, err := json.Marshal(resp)
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, discordgo.EndpointInteractionResponse(i.ID, i.Token), bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", a.session.UserAgent)
	req.Header.Set("Authorization", a.session.Token) // not needed (the token is in the URL); discordgo sends it too
	res, err := a.session.Client.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	msg, _ := io.ReadAll(io.LimitReader(res.Body, 4096))
	if res.StatusCode/100 != 2 {
		re := &discordgo.RESTError{Request: req, Response: res, ResponseBody: msg}
		var m discordgo.APIErrorMessage
		if json.Unmarshal(msg, &m) == nil && m.Code != 0 {
			re.Message = &m
		}
		return re
	}
	return nil
}

// interact handles one interaction, whichever way it arrived: the same translation and the same
// dealer call compute its responses, and first delivers the first of them. deferAfter is how long the
// dealer may take before that first response is a deferral (0: at once). It returns false, having
// done nothing, when the adapter is closing.
//
// discordgo runs each handler in its own goroutine without recover, so a panic here would end the
// process: it is recovered, logged, and the user gets an apology.
func (a *Adapter) interact(i *discordgo.Interaction, first firstResponse, deferAfter time.Duration) bool {
	a.mu.Lock()
	if a.closing {
		a.mu.Unlock()
		return false
	}
	a.begin()
	a.mu.Unlock()
	defer a.end()

	ctx, cancel := context.WithTimeout(a.base, interactionTimeout)
	defer cancel()
	r := &responder{a: a, ctx: ctx, i: i, first: first, deferAfter: deferAfter, at: a.now()}
	defer func() {
		if p := recover(); p != nil {
			a.logPanic(i, p)
			r.apologise()
		}
	}()
	a.dispatch(r)
	a.remember(r)
	return true
}

// logPanic logs a recovered panic with the stack of the goroutine that recovered it.
func (a *Adapter) logPanic(i *discordgo.Interaction, p any) {
	a.log.Error("panic while handling an interaction", "interaction", i.ID, "type", i.Type.String(),
		"panic", fmt.Sprint(p), "stack", string(debug.Stack()))
}

func (a *Adapter) dispatch(r *responder) {
	i := r.i
	switch i.Type {
	case discordgo.InteractionApplicationCommand:
		cmd, err := SlashCommand(i)
		if err != nil {
			r.fail(a.userText(err))
			return
		}
		a.run(r, delivery(cmd, i))
	case discordgo.InteractionMessageComponent:
		cmd, modal, err := ComponentClick(i)
		switch {
		case err != nil:
			r.fail(a.userText(err))
		case modal != nil:
			a.openForm(r, delivery(cmd, i), modal)
		default:
			a.runClick(r, delivery(cmd, i))
		}
	case discordgo.InteractionModalSubmit:
		cmd, err := ModalSubmit(i)
		if err != nil {
			r.fail(a.userText(err))
			return
		}
		a.runClick(r, delivery(cmd, i))
	default:
		a.log.Debug("ignored interaction", "type", i.Type.String())
	}
}

// delivery gives cmd the interaction's ID as its delivery ID: the same interaction arriving twice
// (a load balancer's retry, at this process or another) is applied once, the second answered with
// "already done". It also carries the interaction's token (Command.Followup), for the process that
// owns the table when this one forwards the command there.
func delivery(cmd bot.Command, i *discordgo.Interaction) bot.Command {
	if i.ID != "" {
		cmd.ID = "discord/" + i.ID
	}
	cmd.Followup = followup(cmd, i)
	return cmd
}

// userText is the sentence a user sees for err: inputErrors are written for them, anything else is
// logged and replaced by an apology.
func (a *Adapter) userText(err error) string {
	text, internal := errs.Reply(err)
	if internal {
		a.log.Error("interaction failed", "err", err)
	}
	return text
}

// run lets the dealer handle the command and shows the reply ephemerally: as the first response when
// the dealer answers within the responder's deferAfter, otherwise in place of a deferral ("thinking…").
func (a *Adapter) run(r *responder, cmd bot.Command) {
	h := a.dealer(r)
	if h == nil {
		return
	}
	a.log.Debug("command", "user", cmd.User, "channel", cmd.Channel, "text", cmd.Text)
	rep, ok := r.handle(h, cmd, &discordgo.InteractionResponse{
		Type: discordgo.InteractionResponseDeferredChannelMessageWithSource,
		Data: &discordgo.InteractionResponseData{Flags: discordgo.MessageFlagsEphemeral},
	})
	if !ok {
		return
	}
	r.reply(rep)
}

// dealer is the handler commands go to; until SetDealer, nil, and the user is told to try again.
func (a *Adapter) dealer(r *responder) bot.Handler {
	a.mu.Lock()
	h := a.handler
	a.mu.Unlock()
	if h == nil {
		r.fail("The dealer is still starting; try again in a moment.")
	}
	return h
}

// runClick runs a click on a button tied to a turn (it has a token) of a message in the channel, or
// the form such a button opened. When the dealer answers with the message's new version, that is the
// response: an update of the message (type 7) when the dealer answered within deferAfter, otherwise
// an edit through the interaction's own token after a deferred update (type 6). Neither costs any of
// the channel's rate limit. Anything else the dealer says (an error, cards) is shown privately. Other
// clicks run like commands.
func (a *Adapter) runClick(r *responder, cmd bot.Command) {
	m := r.i.Message
	if cmd.Token == "" || m == nil || m.ID == "" || m.Flags&discordgo.MessageFlagsEphemeral != 0 {
		a.run(r, cmd)
		return
	}
	h := a.dealer(r)
	if h == nil {
		return
	}
	cmd.Message = m.ID
	a.log.Debug("click", "user", cmd.User, "channel", cmd.Channel, "text", cmd.Text, "message", m.ID)
	rep, ok := r.handle(h, cmd, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredMessageUpdate})
	if !ok {
		return
	}
	// Once deferred as an update, the response is the clicked message itself: replies follow it privately.
	r.updating = r.answered
	if rep.Update != nil {
		send, err := TableMessage(*rep.Update)
		if err != nil {
			a.log.Warn("table message sent without some buttons", "err", err)
		}
		if r.answered {
			edit := &discordgo.WebhookEdit{Content: &send.Content, Components: &send.Components, AllowedMentions: send.AllowedMentions}
			if _, err := a.session.InteractionResponseEdit(r.i, edit, discordgo.WithContext(r.ctx)); err != nil {
				a.log.Error("update the table through the click", "interaction", r.i.ID, "err", err)
			}
		} else if !r.respond(&discordgo.InteractionResponse{Type: discordgo.InteractionResponseUpdateMessage,
			Data: &discordgo.InteractionResponseData{Content: send.Content, Components: send.Components, AllowedMentions: send.AllowedMentions}}) {
			return
		}
		r.updating = true
	}
	rep.Update = nil
	switch {
	case strings.TrimSpace(rep.Text) != "" || rep.IsError || len(rep.Extra) > 0 || len(rep.Files) > 0 || len(rep.Buttons) > 0:
		r.reply(rep)
	case !r.answered:
		// Nothing to show: the click is acknowledged and the message stays as it is.
		r.respond(&discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredMessageUpdate})
	}
}

// openForm answers a click on an amount button: the dealer settles first whether the form opens
// (bot.ProbeForm), so that anyone but the player to act, or a click on an old button, gets the
// dealer's refusal ephemerally instead of a form. The form must be the first response, so nothing is
// deferred: a dealer that has not answered within probeWait does not hold it up. A panic in the
// probe is logged and apologised for, like any other.
func (a *Adapter) openForm(r *responder, probe bot.Command, modal *discordgo.InteractionResponseData) {
	a.mu.Lock()
	h, wait := a.handler, a.probeWait
	a.mu.Unlock()
	if h == nil {
		r.fail("The dealer is still starting; try again in a moment.")
		return
	}
	a.log.Debug("probe", "user", probe.User, "channel", probe.Channel, "text", probe.Text)
	f := bot.ProbeForm(r.ctx, h, probe, wait)
	switch {
	case f.Panic != nil:
		a.log.Error("panic while handling an interaction", "interaction", r.i.ID, "type", r.i.Type.String(), "panic", f.Panic.Error())
	case f.Late:
		a.log.Debug("the dealer did not answer the probe in time; opening the form", "user", probe.User,
			"channel", probe.Channel, "text", probe.Text, "waited", wait)
	}
	if !f.Open {
		if f.Refusal.Text != "" {
			r.reply(f.Refusal)
		}
		return
	}
	r.respond(&discordgo.InteractionResponse{Type: discordgo.InteractionResponseModal, Data: modal})
}
