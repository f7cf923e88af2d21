package discord

import (
	"errors"
	"fmt"
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/dealerbot/dealerbot/bot"
	"github.com/dealerbot/dealerbot/render"
)

// Text sent in place of an empty reply: Discord refuses an empty message.
const emptyReply = "Done."

// usersOnly lets a message ping the users it mentions and nobody else, so a player named
// "@everyone" cannot ping the whole server through the dealer.
var usersOnly = &discordgo.MessageAllowedMentions{Parse: []discordgo.AllowedMentionType{discordgo.AllowedMentionTypeUsers}}

// piece is one Discord message's worth of a platform-neutral message.
type piece struct {
	content    string
	components []discordgo.MessageComponent
}

// pieces splits a message into pieces that fit Discord's limits, with the buttons on the last one.
// The error reports buttons that had to be left out; the pieces are still usable.
func pieces(text string, buttons []render.Button) ([]piece, error) {
	var out []piece
	for _, s := range SplitContent(text) {
		out = append(out, piece{content: s})
	}
	comps, err := Components(buttons)
	if len(comps) > 0 {
		if len(out) == 0 {
			out = append(out, piece{})
		}
		out[len(out)-1].components = comps
	}
	return out, err
}

// ChannelMessages translates a public message into the channel posts that carry it. Empty text
// without buttons gives none.
func ChannelMessages(m render.Message) ([]*discordgo.MessageSend, error) {
	ps, err := pieces(m.Text, m.Buttons)
	var out []*discordgo.MessageSend
	for _, p := range ps {
		out = append(out, &discordgo.MessageSend{Content: p.content, Components: p.components, AllowedMentions: usersOnly})
	}
	return out, err
}

// TableMessage translates a hand's table message into one Discord message: it is edited in place,
// so it cannot be split; text past Discord's limit is cut (a table never comes near it).
func TableMessage(m render.Message) (*discordgo.MessageSend, error) {
	comps, err := Components(m.Buttons)
	if comps == nil {
		comps = []discordgo.MessageComponent{}
	}
	return &discordgo.MessageSend{Content: truncate(m.Text, maxContent), Components: comps, AllowedMentions: usersOnly}, err
}

// ReplyMessages translates the dealer's reply to a command into ephemeral interaction messages: the
// first replaces the deferred "thinking" response, the rest are follow-ups. Reply.Extra (private
// messages the dealer could not DM, such as hole cards) come after the reply text, each its own message.
func ReplyMessages(r bot.Reply) ([]*discordgo.WebhookParams, error) {
	text := r.Text
	if strings.TrimSpace(text) == "" && len(r.Buttons) == 0 {
		text = emptyReply
	}
	var errs []error
	ps, err := pieces(text, r.Buttons)
	errs = append(errs, err)
	for _, m := range r.Extra {
		more, err := pieces(m.Text, m.Buttons)
		ps = append(ps, more...)
		errs = append(errs, err)
	}
	var out []*discordgo.WebhookParams
	for _, p := range ps {
		out = append(out, &discordgo.WebhookParams{
			Content:         p.content,
			Components:      p.components,
			AllowedMentions: usersOnly,
			Flags:           discordgo.MessageFlagsEphemeral,
		})
	}
	return out, errors.Join(errs...)
}

// editFromParams turns the first reply message into the edit of the deferred response.
func editFromParams(p *discordgo.WebhookParams) *discordgo.WebhookEdit {
	content := p.Content
	comps := p.Components
	if comps == nil {
		comps = []discordgo.MessageComponent{}
	}
	return &discordgo.WebhookEdit{Content: &content, Components: &comps, AllowedMentions: p.AllowedMentions}
}

// ComponentClick translates a button click into a dealer command, or, for a button that asks for an
// amount, returns the modal to open instead, with the probe to send the dealer before opening it (the
// button's command and token with Probe set: it asks whether the user may act, and changes nothing).
func ComponentClick(i *discordgo.Interaction) (bot.Command, *discordgo.InteractionResponseData, error) {
	if i.Type != discordgo.InteractionMessageComponent {
		return bot.Command{}, nil, fmt.Errorf("interaction type %v is not a component", i.Type)
	}
	c, err := baseCommand(i)
	if err != nil {
		return bot.Command{}, nil, err
	}
	d, ok := i.Data.(discordgo.MessageComponentInteractionData)
	if !ok {
		return bot.Command{}, nil, inputError(fmt.Sprintf("That click arrived garbled; try again or use /%s.", CommandName))
	}
	cl, err := parseCustomID(d.CustomID)
	if err != nil {
		return bot.Command{}, nil, err
	}
	switch cl.kind {
	case 'b':
		c.Text, c.Token = cl.command, cl.token
		return c, nil, nil
	case 'a':
		modal, err := amountModal(cl, titleCase(cl.command))
		if err != nil {
			return bot.Command{}, nil, err
		}
		c.Text, c.Token, c.Probe = cl.command, cl.token, true
		return c, modal, nil
	}
	return bot.Command{}, nil, inputError(fmt.Sprintf("That button is not one I understand; use /%s instead.", CommandName))
}

// ModalSubmit translates the amount form into a dealer command: the button's command followed by the
// amount, with the button's token.
func ModalSubmit(i *discordgo.Interaction) (bot.Command, error) {
	if i.Type != discordgo.InteractionModalSubmit {
		return bot.Command{}, fmt.Errorf("interaction type %v is not a modal submit", i.Type)
	}
	c, err := baseCommand(i)
	if err != nil {
		return bot.Command{}, err
	}
	d, ok := i.Data.(discordgo.ModalSubmitInteractionData)
	if !ok {
		return bot.Command{}, inputError(fmt.Sprintf("That form arrived garbled; try again or use /%s.", CommandName))
	}
	cl, err := parseCustomID(d.CustomID)
	if err != nil {
		return bot.Command{}, err
	}
	if cl.kind != 'm' {
		return bot.Command{}, inputError(fmt.Sprintf("That form is not one I understand; use /%s instead.", CommandName))
	}
	n, err := modalAmount(d.Components)
	if err != nil {
		return bot.Command{}, err
	}
	c.Text, c.Token = fmt.Sprintf("%s %d", cl.command, n), cl.token
	return c, nil
}

func titleCase(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
