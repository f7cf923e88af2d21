package discord

// Answering one interaction: its first response (a deferral, a message, an update of the clicked
// message or a form) and the dealer's reply after it, over the interaction's own token.

import (
	"bytes"
	"context"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/dealerbot/dealerbot/bot"
	"github.com/dealerbot/dealerbot/bot/errs"
	"github.com/dealerbot/dealerbot/render"
)

// responder answers one interaction, remembering whether the first response has been made.
type responder struct {
	a     *Adapter
	ctx   context.Context
	i     *discordgo.Interaction
	first firstResponse // how the first response travels
	// deferAfter is how long the dealer may take to answer before the first response is a deferral
	// and the answer follows over REST; 0 defers at once.
	deferAfter time.Duration
	answered   bool                              // an initial response (deferral, message, update or modal) was sent
	updating   bool                              // the response is an update of the clicked message: replies follow it privately
	kind       discordgo.InteractionResponseType // the initial response's type, once answered
	at         time.Time                         // when the interaction arrived (its token lives 15 minutes from then)
}

func (r *responder) respond(resp *discordgo.InteractionResponse) bool {
	if err := r.first(r.ctx, r.i, resp); err != nil {
		r.a.log.Error("answer interaction", "interaction", r.i.ID, "err", err)
		return false
	}
	if !r.answered {
		r.kind = resp.Type
	}
	r.answered = true
	return true
}

// handle asks the dealer to run cmd. With deferAfter 0 the interaction is answered with deferral
// first. Otherwise the dealer gets deferAfter to answer, so that its reply can be the first response
// itself; a slower answer is deferred, and the reply follows the deferral when it comes. ok is false
// when nothing more can be shown: the deferral was not taken (the user was told the interaction
// failed) or the dealer panicked (logged and apologised for).
func (r *responder) handle(h bot.Handler, cmd bot.Command, deferral *discordgo.InteractionResponse) (rep bot.Reply, ok bool) {
	if r.deferAfter <= 0 {
		if !r.respond(deferral) {
			// Discord did not take the acknowledgement: the user was told the interaction failed, so the
			// command is not run behind their back.
			return bot.Reply{}, false
		}
		return h.Handle(r.ctx, cmd), true
	}
	type answer struct {
		reply    bot.Reply
		panicked bool
	}
	done := make(chan answer, 1) // never blocks, even once nobody waits
	r.a.begin()                  // under this interaction's own count, so Close waits for it too
	go func() {
		defer r.a.end()
		defer func() {
			if p := recover(); p != nil {
				r.a.logPanic(r.i, p)
				done <- answer{panicked: true}
			}
		}()
		done <- answer{reply: h.Handle(r.ctx, cmd)}
	}()
	timer := time.NewTimer(r.deferAfter)
	defer timer.Stop()
	var ans answer
	select {
	case ans = <-done:
	case <-timer.C:
		if !r.respond(deferral) {
			// The dealer goes on with the command (it may be applied, as any other); only its answer
			// cannot be shown through this interaction.
			r.a.log.Warn("the dealer's answer came too late to be shown", "interaction", r.i.ID, "user", cmd.User, "text", cmd.Text)
			return bot.Reply{}, false
		}
		ans = <-done
	}
	if ans.panicked {
		r.apologise()
		return bot.Reply{}, false
	}
	return ans.reply, true
}

// apologise tells the user something broke on our side; it is used after a panic, so a second panic
// while apologising is swallowed.
func (r *responder) apologise() {
	defer func() { _ = recover() }()
	r.fail(errs.Apology)
}

// fail shows text to the user ephemerally, whatever state the interaction is in.
func (r *responder) fail(text string) {
	r.reply(bot.Reply{Text: text, IsError: true})
}

// followup shows the dealer's reply as ephemeral follow-ups, after the interaction was answered as an
// update of its message.
func (r *responder) followup(rep bot.Reply) {
	msgs, err := ReplyMessages(rep)
	if err != nil {
		r.a.log.Warn("reply sent without some buttons", "err", err)
	}
	for _, m := range msgs {
		if _, err := r.a.session.FollowupMessageCreate(r.i, true, m, discordgo.WithContext(r.ctx)); err != nil {
			r.a.log.Error("reply to interaction", "interaction", r.i.ID, "err", err)
			return
		}
	}
	r.files(rep.Files)
}

// reply shows the dealer's reply: as the first response, or in place of the deferral, with any
// further pieces as ephemeral follow-ups.
func (r *responder) reply(rep bot.Reply) {
	if r.updating { // the original response is the table message itself: never overwrite it
		r.followup(rep)
		return
	}
	msgs, err := ReplyMessages(rep)
	if err != nil {
		r.a.log.Warn("reply sent without some buttons", "err", err)
	}
	s := r.a.session
	for n, m := range msgs {
		var err error
		switch {
		case n == 0 && !r.answered:
			ok := r.respond(&discordgo.InteractionResponse{
				Type: discordgo.InteractionResponseChannelMessageWithSource,
				Data: &discordgo.InteractionResponseData{Content: m.Content, Components: m.Components, Flags: m.Flags, AllowedMentions: m.AllowedMentions},
			})
			if !ok {
				return
			}
		case n == 0:
			_, err = s.InteractionResponseEdit(r.i, editFromParams(m), discordgo.WithContext(r.ctx))
		default:
			_, err = s.FollowupMessageCreate(r.i, true, m, discordgo.WithContext(r.ctx))
		}
		if err != nil {
			r.a.log.Error("reply to interaction", "interaction", r.i.ID, "err", err)
			return
		}
	}
	r.files(rep.Files)
}

// files sends private documents (an export of the user's hands) as ephemeral follow-ups.
func (r *responder) files(files []render.File) {
	s := r.a.session
	for _, f := range files {
		// A private document (an export of the user's hands) comes as an ephemeral follow-up.
		p := &discordgo.WebhookParams{Flags: discordgo.MessageFlagsEphemeral, AllowedMentions: usersOnly,
			Files: []*discordgo.File{{Name: f.Name, ContentType: f.ContentType, Reader: bytes.NewReader(f.Data)}}}
		if _, err := s.FollowupMessageCreate(r.i, true, p, discordgo.WithContext(r.ctx)); err != nil {
			r.a.log.Error("send a file to the user", "interaction", r.i.ID, "file", f.Name, "err", err)
		}
	}
}
