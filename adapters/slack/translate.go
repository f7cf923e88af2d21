package slack

import (
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	slackapi "github.com/slack-go/slack"

	"github.com/dealerbot/dealerbot/bot"
	"github.com/dealerbot/dealerbot/render"
)

// Slack's limits, from the Block Kit reference.
const (
	maxSectionText   = 3000 // characters in one text object
	maxBlocks        = 50   // blocks in one message
	maxActionButtons = 25   // elements in one actions block
	maxButtonText    = 75   // characters on a button
	maxModalTitle    = 24   // characters in a modal's title
)

// Identifiers the adapter puts on the things it sends, so it recognises them when Slack sends them back.
const (
	actionPrefix     = "dealerbot/act/"    // a button that runs its command at once; action_id = prefix + index
	amountPrefix     = "dealerbot/amount/" // a button that asks for an amount first
	amountCallbackID = "dealerbot/amount"  // the amount modal
	linkPrefix       = "dealerbot/link/"   // a link button: its click is Slack's to open, not a command
	amountBlockID    = "amount"
	amountActionID   = "amount"
)

// platform is the bot.Command.Platform value for Slack.
const platform = "slack"

// buttonValue is what a button carries: the command, the bot's token, the table's channel (a button
// in a DM must still act on the table it was made for) and, for amount buttons, the allowed range.
type buttonValue struct {
	Command  string
	Token    string
	Channel  string
	Label    string
	Min, Max int64
	// In an amount form only: the table message the button was on and the click's response_url, so
	// the submission updates that message through the click.
	Msg, Hook string
}

func (v buttonValue) encode() string {
	q := url.Values{}
	q.Set("c", v.Command)
	if v.Token != "" {
		q.Set("t", v.Token)
	}
	if v.Channel != "" {
		q.Set("ch", v.Channel)
	}
	if v.Label != "" {
		q.Set("l", v.Label)
	}
	if v.Min != 0 || v.Max != 0 {
		q.Set("min", strconv.FormatInt(v.Min, 10))
		q.Set("max", strconv.FormatInt(v.Max, 10))
	}
	if v.Msg != "" {
		q.Set("m", v.Msg)
		q.Set("r", v.Hook)
	}
	return q.Encode()
}

func decodeValue(s string) (buttonValue, error) {
	q, err := url.ParseQuery(s)
	if err != nil || q.Get("c") == "" {
		return buttonValue{}, fmt.Errorf("not a dealerbot button value: %q", s)
	}
	v := buttonValue{Command: q.Get("c"), Token: q.Get("t"), Channel: q.Get("ch"), Label: q.Get("l"), Msg: q.Get("m"), Hook: q.Get("r")}
	if q.Has("min") {
		if v.Min, err = strconv.ParseInt(q.Get("min"), 10, 64); err != nil {
			return buttonValue{}, fmt.Errorf("bad min in button value %q", s)
		}
		if v.Max, err = strconv.ParseInt(q.Get("max"), 10, 64); err != nil {
			return buttonValue{}, fmt.Errorf("bad max in button value %q", s)
		}
	}
	return v, nil
}

// mentionRe matches a user mention as Slack escapes it in slash command text: <@U123|name>.
var mentionRe = regexp.MustCompile(`<@([UW][A-Z0-9]+)(\|[^>]*)?>`)

// commandText cleans the text after /poker: spaces collapsed, mentions reduced to <@U123>, and the
// empty command turned into "help" so /poker alone explains itself.
func commandText(s string) string {
	s = mentionRe.ReplaceAllString(s, "<@$1>")
	s = strings.Join(strings.Fields(s), " ")
	if s == "" {
		return "help"
	}
	return s
}

// commandFromSlash turns a /poker slash command into a bot command.
func commandFromSlash(sc slackapi.SlashCommand) bot.Command {
	return bot.Command{
		Platform:  platform,
		Workspace: sc.TeamID,
		Channel:   sc.ChannelID,
		User:      sc.UserID,
		UserName:  sc.UserName,
		Text:      commandText(sc.Text),
	}
}

// userOf fills the platform, workspace and user of a command from an interaction payload.
func userOf(ic *slackapi.InteractionCallback) bot.Command {
	ws := ic.Team.ID
	if ws == "" {
		ws = ic.User.TeamID
	}
	if ws == "" {
		ws = ic.View.TeamID
	}
	name := ic.User.Name
	if name == "" {
		name = ic.User.Profile.DisplayName
	}
	return bot.Command{Platform: platform, Workspace: ws, User: ic.User.ID, UserName: name}
}

// errNotOurs marks an interaction the adapter did not create (another app's button, an old format).
var errNotOurs = errors.New("not a dealerbot interaction")

// click is what a button press asks for: run a command now, or open the amount modal first.
type click struct {
	Cmd    bot.Command
	Amount bool        // open the modal
	Value  buttonValue // for the modal

	ResponseURL string // where to answer when an ephemeral message cannot be posted
}

// clickFromAction translates one block action of a block_actions payload.
func clickFromAction(ic *slackapi.InteractionCallback, act *slackapi.BlockAction) (click, error) {
	amount := strings.HasPrefix(act.ActionID, amountPrefix)
	if !amount && !strings.HasPrefix(act.ActionID, actionPrefix) {
		return click{}, errNotOurs
	}
	v, err := decodeValue(act.Value)
	if err != nil {
		return click{}, fmt.Errorf("%w: %v", errNotOurs, err)
	}
	cmd := userOf(ic)
	cmd.Channel = v.Channel
	if cmd.Channel == "" {
		cmd.Channel = ic.Channel.ID
	}
	if cmd.Channel == "" {
		cmd.Channel = ic.Container.ChannelID
	}
	cmd.Text = v.Command
	cmd.Token = v.Token
	if ts := ic.Container.MessageTs; v.Token != "" && ts != "" && !ic.Container.IsEphemeral && cmd.Channel == ic.Container.ChannelID {
		// A turn button on the table message: the dealer answers with the message's new version,
		// shown through this click's response_url.
		cmd.Message = ts
		v.Msg, v.Hook = ts, ic.ResponseURL
	}
	if v.Channel == "" {
		v.Channel = cmd.Channel
	}
	return click{Cmd: cmd, Amount: amount, Value: v}, nil
}

// amountModal is the modal an amount button opens: one number field limited to [Min, Max]. The button's
// value travels in private_metadata so the submission can be turned back into the command.
func amountModal(v buttonValue) slackapi.ModalViewRequest {
	title := strings.TrimRight(strings.TrimSpace(v.Label), "….")
	if title == "" {
		title = upperFirst(v.Command)
	}
	title = clipRunes(title, maxModalTitle)
	word := "Amount"
	switch v.Command {
	case "raise":
		word = "Raise to"
	case "bet":
		word = "Bet"
	}
	label := fmt.Sprintf("%s (%s to %s)", word, render.Chips(v.Min), render.Chips(v.Max))
	input := slackapi.NewNumberInputBlockElement(
		slackapi.NewTextBlockObject(slackapi.PlainTextType, fmt.Sprintf("%d–%d", v.Min, v.Max), false, false),
		amountActionID, false).
		WithMinValue(strconv.FormatInt(v.Min, 10)).
		WithMaxValue(strconv.FormatInt(v.Max, 10)).
		WithInitialValue(strconv.FormatInt(v.Min, 10))
	block := slackapi.NewInputBlock(amountBlockID,
		slackapi.NewTextBlockObject(slackapi.PlainTextType, label, false, false), nil, input)
	return slackapi.ModalViewRequest{
		Type:            slackapi.VTModal,
		Title:           slackapi.NewTextBlockObject(slackapi.PlainTextType, title, false, false),
		Submit:          slackapi.NewTextBlockObject(slackapi.PlainTextType, clipRunes(title, maxModalTitle), false, false),
		Close:           slackapi.NewTextBlockObject(slackapi.PlainTextType, "Cancel", false, false),
		Blocks:          slackapi.Blocks{BlockSet: []slackapi.Block{block}},
		CallbackID:      amountCallbackID,
		PrivateMetadata: v.encode(),
	}
}

// commandFromSubmission turns the amount modal's submission into the command with its amount. What
// is not a whole number gives fieldErr, a sentence for the field in the modal, and no command. The
// range is the dealer's to judge, like that of a typed `raise`: the modal only shows the bounds the
// dealer put on the button (Slack's number field keeps a player within them), and a submission
// outside them is refused by the dealer with its own sentence.
func commandFromSubmission(ic *slackapi.InteractionCallback) (cmd bot.Command, fieldErr string, err error) {
	if ic.View.CallbackID != amountCallbackID {
		return bot.Command{}, "", errNotOurs
	}
	v, err := decodeValue(ic.View.PrivateMetadata)
	if err != nil {
		return bot.Command{}, "", fmt.Errorf("%w: %v", errNotOurs, err)
	}
	raw := ""
	if ic.View.State != nil {
		raw = strings.TrimSpace(ic.View.State.Values[amountBlockID][amountActionID].Value)
	}
	n, perr := strconv.ParseInt(strings.ReplaceAll(raw, ",", ""), 10, 64)
	if perr != nil {
		return bot.Command{}, fmt.Sprintf("Enter a whole number of chips from %d to %d.", v.Min, v.Max), nil
	}
	// The range is the one the dealer put on the button when the form opened: outside it the form
	// says so and stays open (response_action errors), instead of closing on a refusal sent as a
	// message of its own and a player who must click again. The dealer still judges what passes.
	if v.Max > 0 && (n < v.Min || n > v.Max) {
		return bot.Command{}, fmt.Sprintf("%s is not in the range: enter a whole number of chips from %d to %d.", strconv.FormatInt(n, 10), v.Min, v.Max), nil
	}
	cmd = userOf(ic)
	cmd.Channel = v.Channel
	cmd.Text = v.Command + " " + strconv.FormatInt(n, 10)
	cmd.Token = v.Token
	cmd.Message = v.Msg
	return cmd, "", nil
}

// tablePost lays out the hand's table message as one Slack message, to be edited in place: its blocks
// are kept to Slack's 50 (a table message never comes near it).
func tablePost(m render.Message, channel string) post {
	ps := posts(m, channel)
	if len(ps) == 0 {
		return post{Text: " "}
	}
	p := ps[0]
	for _, more := range ps[1:] {
		p.Blocks = append(p.Blocks, more.Blocks...)
	}
	if len(p.Blocks) > maxBlocks {
		p.Blocks = append(p.Blocks[:maxBlocks-1], p.Blocks[len(p.Blocks)-1]) // the buttons stay
	}
	return p
}

// post is one Slack message: fallback text (for notifications) and blocks.
type post struct {
	Text   string
	Blocks []slackapi.Block
}

// posts lays a render.Message out as Block Kit: the text as mrkdwn sections of at most 3000 characters,
// then the buttons in actions blocks of at most 25. A message needing more than 50 blocks becomes
// several posts, the buttons on the last. channel is the table the buttons act on.
func posts(m render.Message, channel string) []post {
	var blocks []slackapi.Block
	var first []string // the first text of each post, for its fallback
	for _, piece := range splitText(escapeText(m.Text), maxSectionText) {
		blocks = append(blocks, slackapi.NewSectionBlock(
			slackapi.NewTextBlockObject(slackapi.MarkdownType, piece, false, false), nil, nil))
		first = append(first, piece)
	}
	for i := 0; i < len(m.Buttons); i += maxActionButtons {
		end := min(i+maxActionButtons, len(m.Buttons))
		var els []slackapi.BlockElement
		for j := i; j < end; j++ {
			els = append(els, buttonElement(m.Buttons[j], j, channel))
		}
		blocks = append(blocks, slackapi.NewActionBlock(fmt.Sprintf("dealerbot-actions-%d", i/maxActionButtons), els...))
	}
	if len(blocks) == 0 {
		return nil
	}
	var out []post
	for i := 0; i < len(blocks); i += maxBlocks {
		end := min(i+maxBlocks, len(blocks))
		p := post{Blocks: blocks[i:end]}
		if i < len(first) {
			p.Text = first[i]
		} else {
			p.Text = "Choose an action."
		}
		out = append(out, p)
	}
	return out
}

// buttonElement makes a Block Kit button. The action_id says whether the click asks for an amount; the
// value carries the command, token and table.
func buttonElement(b render.Button, i int, channel string) *slackapi.ButtonBlockElement {
	v := buttonValue{Command: b.Command, Token: b.Token, Channel: channel}
	id := actionPrefix + strconv.Itoa(i)
	if b.Amount {
		id = amountPrefix + strconv.Itoa(i)
		v.Min, v.Max, v.Label = b.Min, b.Max, b.Label
	}
	label := clipRunes(b.Label, maxButtonText)
	if label == "" {
		label = upperFirst(b.Command)
	}
	if b.URL != "" { // a link button: Slack still reports the click, under an action_id not ours
		el := slackapi.NewButtonBlockElement(linkPrefix+strconv.Itoa(i), "link",
			slackapi.NewTextBlockObject(slackapi.PlainTextType, label, true, false))
		el.URL = b.URL
		return el
	}
	el := slackapi.NewButtonBlockElement(id, v.encode(),
		slackapi.NewTextBlockObject(slackapi.PlainTextType, label, true, false))
	switch b.Style {
	case render.Primary, render.Success:
		el = el.WithStyle(slackapi.StylePrimary)
	case render.Danger:
		el = el.WithStyle(slackapi.StyleDanger)
	}
	return el
}

// keepRe matches what Slack mrkdwn must see unescaped: user, channel and special mentions.
var keepRe = regexp.MustCompile(`<[@#!][A-Za-z0-9^|_.-]+>`)

// escapeText escapes &, < and > for mrkdwn, keeping mentions such as <@U123> working.
func escapeText(s string) string {
	var b strings.Builder
	last := 0
	for _, loc := range keepRe.FindAllStringIndex(s, -1) {
		b.WriteString(escapePlain(s[last:loc[0]]))
		b.WriteString(s[loc[0]:loc[1]])
		last = loc[1]
	}
	b.WriteString(escapePlain(s[last:]))
	return b.String()
}

var mrkdwnEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;")

func escapePlain(s string) string { return mrkdwnEscaper.Replace(s) }

// splitText cuts s into pieces of at most max characters: at a line break where it can, else at a
// space, else anywhere outside an escape (&amp;) or a mention. Blank text gives no pieces.
func splitText(s string, max int) []string {
	var out []string
	for strings.TrimSpace(s) != "" {
		if utf8.RuneCountInString(s) <= max {
			out = append(out, s)
			break
		}
		cut := byteIndexOfRune(s, max) // s[:cut] holds max runes
		head := s[:cut]
		switch i := strings.LastIndexByte(head, '\n'); {
		case s[cut] == '\n' || s[cut] == ' ':
			// the piece ends exactly at a break
		case i > 0:
			cut = i
		default:
			if j := strings.LastIndexByte(head, ' '); j > 0 {
				cut = j
			} else {
				cut = safeCut(s, cut)
			}
		}
		if piece := s[:cut]; strings.TrimSpace(piece) != "" {
			out = append(out, piece)
		}
		s = strings.TrimLeft(s[cut:], "\n ")
	}
	return out
}

// byteIndexOfRune returns the byte offset of the n-th rune of s.
func byteIndexOfRune(s string, n int) int {
	for i := range s {
		if n == 0 {
			return i
		}
		n--
	}
	return len(s)
}

// safeCut moves a cut at byte i of s back so it does not fall inside "&amp;" or "<@U123>".
func safeCut(s string, i int) int {
	head := s[:i]
	if a := strings.LastIndexByte(head, '&'); a >= 0 && !strings.Contains(head[a:], ";") && i-a < 6 && a > 0 {
		i = a
	}
	head = s[:i]
	if a := strings.LastIndexByte(head, '<'); a > 0 && !strings.Contains(head[a:], ">") {
		i = a
	}
	return i
}

func clipRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n-1]) + "…"
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	r, n := utf8.DecodeRuneInString(s)
	return strings.ToUpper(string(r)) + s[n:]
}
