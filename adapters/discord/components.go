package discord

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"

	"github.com/dealerbot/dealerbot/render"
)

// Discord's limits on what a message may carry.
const (
	maxContent     = 2000 // characters of message content
	maxRows        = 5    // action rows per message
	maxRowButtons  = 5    // buttons per action row
	maxCustomID    = 100  // characters of a component's custom_id
	maxButtonLabel = 80
	maxModalTitle  = 45
	maxInputLabel  = 45
)

// Custom IDs carry everything a click needs, so the adapter keeps no state per message:
//
//	pk1|b|<token>|<command>              a button that runs command
//	pk1|a|<min>|<max>|<token>|<command>  a button that asks for an amount first (opens a modal)
//	pk1|m|<min>|<max>|<token>|<command>  the modal; its text input holds the amount
//
// The command comes last and may contain anything; "%" and "|" in the token are escaped.
const (
	idPrefix    = "pk1"
	amountInput = "amount"
)

// click is a decoded custom ID.
type click struct {
	kind     byte // 'b', 'a' or 'm'
	command  string
	token    string
	min, max int64
}

var tokenEscaper = strings.NewReplacer("%", "%25", "|", "%7C")
var tokenUnescaper = strings.NewReplacer("%25", "%", "%7C", "|")

func (c click) customID() (string, error) {
	var id string
	switch c.kind {
	case 'b':
		id = fmt.Sprintf("%s|b|%s|%s", idPrefix, tokenEscaper.Replace(c.token), c.command)
	case 'a', 'm':
		id = fmt.Sprintf("%s|%c|%d|%d|%s|%s", idPrefix, c.kind, c.min, c.max, tokenEscaper.Replace(c.token), c.command)
	default:
		return "", fmt.Errorf("unknown click kind %q", c.kind)
	}
	if c.command == "" {
		return "", fmt.Errorf("button has no command")
	}
	if len(id) > maxCustomID {
		return "", fmt.Errorf("custom_id for %q is %d characters, Discord allows %d", c.command, len(id), maxCustomID)
	}
	return id, nil
}

// parseCustomID decodes a custom ID made by customID.
func parseCustomID(id string) (click, error) {
	bad := inputError(fmt.Sprintf("That button is not one I understand (perhaps from an older version of me); use /%s instead.", CommandName))
	parts := strings.SplitN(id, "|", 3)
	if len(parts) != 3 || parts[0] != idPrefix || len(parts[1]) != 1 {
		return click{}, bad
	}
	c := click{kind: parts[1][0]}
	rest := parts[2]
	switch c.kind {
	case 'b':
	case 'a', 'm':
		f := strings.SplitN(rest, "|", 3)
		if len(f) != 3 {
			return click{}, bad
		}
		var err1, err2 error
		c.min, err1 = strconv.ParseInt(f[0], 10, 64)
		c.max, err2 = strconv.ParseInt(f[1], 10, 64)
		if err1 != nil || err2 != nil {
			return click{}, bad
		}
		rest = f[2]
	default:
		return click{}, bad
	}
	tok, cmd, ok := strings.Cut(rest, "|")
	if !ok || cmd == "" {
		return click{}, bad
	}
	c.token, c.command = tokenUnescaper.Replace(tok), cmd
	return c, nil
}

var buttonStyles = map[render.Style]discordgo.ButtonStyle{
	render.Secondary: discordgo.SecondaryButton,
	render.Primary:   discordgo.PrimaryButton,
	render.Success:   discordgo.SuccessButton,
	render.Danger:    discordgo.DangerButton,
}

// Components lays buttons out in action rows of five, at most five rows. Buttons that do not fit or
// cannot be encoded are left out and reported in the error (the message is still worth sending: every
// button has a /poker equivalent).
func Components(buttons []render.Button) ([]discordgo.MessageComponent, error) {
	var rows []discordgo.MessageComponent
	var row []discordgo.MessageComponent
	var problems []string
	for n, b := range buttons {
		if n >= maxRows*maxRowButtons {
			problems = append(problems, fmt.Sprintf("%d buttons do not fit (Discord allows %d)", len(buttons)-n, maxRows*maxRowButtons))
			break
		}
		if b.URL != "" { // a link button: no custom_id, nothing comes back
			row = append(row, discordgo.Button{Label: truncate(b.Label, maxButtonLabel), Style: discordgo.LinkButton, URL: b.URL})
			if len(row) == maxRowButtons {
				rows = append(rows, discordgo.ActionsRow{Components: row})
				row = nil
			}
			continue
		}
		c := click{kind: 'b', command: b.Command, token: b.Token}
		if b.Amount {
			c.kind, c.min, c.max = 'a', b.Min, b.Max
		}
		id, err := c.customID()
		if err != nil {
			problems = append(problems, err.Error())
			continue
		}
		style, ok := buttonStyles[b.Style]
		if !ok {
			style = discordgo.SecondaryButton
		}
		label := b.Label
		if label == "" {
			label = b.Command
		}
		row = append(row, discordgo.Button{Label: truncate(label, maxButtonLabel), Style: style, CustomID: id})
		if len(row) == maxRowButtons {
			rows = append(rows, discordgo.ActionsRow{Components: row})
			row = nil
		}
	}
	if len(row) > 0 {
		rows = append(rows, discordgo.ActionsRow{Components: row})
	}
	if problems != nil {
		return rows, fmt.Errorf("buttons left out: %s", strings.Join(problems, "; "))
	}
	return rows, nil
}

// amountModal is the form an Amount button opens: one short text field for a whole number in the
// allowed range, which the label and placeholder both state.
func amountModal(c click, title string) (*discordgo.InteractionResponseData, error) {
	c.kind = 'm'
	id, err := c.customID()
	if err != nil {
		return nil, err
	}
	title = strings.TrimRight(strings.TrimSpace(title), ".…")
	if title == "" {
		title = "Amount"
	}
	label := fmt.Sprintf("Amount, %d to %d", c.min, c.max)
	if utf8.RuneCountInString(label) > maxInputLabel {
		label = "Amount in chips"
	}
	return &discordgo.InteractionResponseData{
		CustomID: id,
		Title:    truncate(title, maxModalTitle),
		Components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			discordgo.TextInput{
				CustomID:    amountInput,
				Label:       label,
				Style:       discordgo.TextInputShort,
				Placeholder: fmt.Sprintf("A whole number from %d to %d", c.min, c.max),
				Required:    true,
				MinLength:   1,
				MaxLength:   20,
			},
		}}},
	}, nil
}

// modalAmount finds the amount typed into the modal and reads it as a whole number. Whether it is
// large enough, or too large, is the dealer's to judge (as for a typed `raise`), since it alone knows
// the current range: the modal only shows the bounds the dealer put on the button.
func modalAmount(components []discordgo.MessageComponent) (int64, error) {
	var raw string
	found := false
	// Decoded interactions hold pointers; accept values too.
	for _, c := range components {
		var inner []discordgo.MessageComponent
		switch row := c.(type) {
		case *discordgo.ActionsRow:
			inner = row.Components
		case discordgo.ActionsRow:
			inner = row.Components
		}
		for _, in := range inner {
			var ti *discordgo.TextInput
			switch v := in.(type) {
			case *discordgo.TextInput:
				ti = v
			case discordgo.TextInput:
				ti = &v
			}
			if ti != nil && ti.CustomID == amountInput {
				raw, found = ti.Value, true
			}
		}
	}
	if !found {
		return 0, inputError("The amount did not arrive; click the button again and type a number.")
	}
	clean := strings.NewReplacer(",", "", "_", "", " ", "", "'", "").Replace(strings.TrimSpace(raw))
	n, err := strconv.ParseInt(clean, 10, 64)
	if err != nil {
		return 0, inputError("Type the amount as a whole number of chips, such as 60; click the button again to retry.")
	}
	return n, nil
}

// utf16Len counts characters the way Discord's limits do (JavaScript string length), which is never
// less than the number of code points, so a split by this count is always safe.
func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		n += utf16.RuneLen(r)
	}
	return n
}

func truncate(s string, max int) string {
	if utf16Len(s) <= max {
		return s
	}
	n := 0
	for i, r := range s {
		if n+utf16.RuneLen(r) > max-1 {
			return s[:i] + "…"
		}
		n += utf16.RuneLen(r)
	}
	return s
}

// SplitContent splits text into pieces Discord accepts (at most 2000 characters each), breaking at
// the last line break, else the last space, before the limit; a single overlong word is cut. Empty
// text gives no pieces.
func SplitContent(text string) []string {
	var out []string
	for utf16Len(text) > maxContent {
		// Find the byte offset where the limit is reached.
		cut, n := 0, 0
		for i, r := range text {
			if n+utf16.RuneLen(r) > maxContent {
				cut = i
				break
			}
			n += utf16.RuneLen(r)
		}
		head := text[:cut]
		brk := strings.LastIndex(head, "\n")
		if brk <= 0 {
			brk = strings.LastIndex(head, " ")
		}
		if brk > 0 {
			out = append(out, head[:brk])
			text = text[brk+1:]
		} else {
			out = append(out, head)
			text = text[cut:]
		}
	}
	if strings.TrimSpace(text) != "" {
		out = append(out, text)
	}
	return out
}
