package discord

// Discord's rules for the request bodies the adapter sends, as its API reference states them
// (application commands, message components, modals, interaction responses). The fake applies them to
// every body it receives and refuses what Discord would refuse (400, 50035 Invalid Form Body), so a
// test over the fake fails where the real service would.

import (
	"encoding/json"
	"fmt"
	"regexp"
	"unicode/utf8"

	"github.com/dealerbot/dealerbot/adapters/discord/discordtest"
)

// commandName is the pattern of a chat command's and option's name: lower case, 1 to 32 characters.
var commandName = regexp.MustCompile(`^[-_\p{Ll}\p{Lo}\p{N}\p{Devanagari}\p{Thai}]{1,32}$`)

// Option types (ApplicationCommandOptionType).
const (
	optTypeSubCommand      = 1
	optTypeSubCommandGroup = 2
)

// checkCommands applies the application command rules to a bulk overwrite (PUT .../commands):
// at most 100 chat commands; each named by the pattern, described in 1 to 100 characters, with at
// most 25 options (subcommand groups hold subcommands, subcommands hold plain options, required
// options before optional ones), at most 25 choices an option, and at most 8,000 characters of
// names, descriptions and choices in all per command.
func checkCommands(raw []byte) string {
	var cmds []map[string]any
	if err := json.Unmarshal(raw, &cmds); err != nil {
		return "the body is not an array of commands: " + err.Error()
	}
	if len(cmds) > 100 {
		return fmt.Sprintf("%d chat commands, more than 100", len(cmds))
	}
	names := map[string]bool{}
	for _, c := range cmds {
		name, _ := c["name"].(string)
		if names[name] {
			return fmt.Sprintf("command %q is registered twice", name)
		}
		names[name] = true
		total := 0
		if why := checkOption(c, 0, &total); why != "" {
			return fmt.Sprintf("command %q: %s", name, why)
		}
		if total > 8000 {
			return fmt.Sprintf("command %q has %d characters of names, descriptions and choices, more than 8,000", name, total)
		}
	}
	return ""
}

// checkOption checks a command (depth 0) or an option, adding its characters to total.
func checkOption(o map[string]any, depth int, total *int) string {
	name, _ := o["name"].(string)
	desc, _ := o["description"].(string)
	switch {
	case !commandName.MatchString(name):
		return fmt.Sprintf("name %q does not match ^[-_\\p{L}\\p{N}]{1,32}$ in lower case", name)
	case utf8.RuneCountInString(desc) < 1 || utf8.RuneCountInString(desc) > 100:
		return fmt.Sprintf("%q: description of %d characters, want 1 to 100", name, utf8.RuneCountInString(desc))
	}
	*total += utf8.RuneCountInString(name) + utf8.RuneCountInString(desc)
	choices, _ := o["choices"].([]any)
	if len(choices) > 25 {
		return fmt.Sprintf("%q: %d choices, more than 25", name, len(choices))
	}
	for _, ch := range choices {
		c, _ := ch.(map[string]any)
		cn, _ := c["name"].(string)
		if n := utf8.RuneCountInString(cn); n < 1 || n > 100 {
			return fmt.Sprintf("%q: a choice name of %d characters, want 1 to 100", name, n)
		}
		*total += utf8.RuneCountInString(cn)
		if v, ok := c["value"].(string); ok {
			if utf8.RuneCountInString(v) > 100 {
				return fmt.Sprintf("%q: a choice value longer than 100", name)
			}
			*total += utf8.RuneCountInString(v)
		}
	}
	opts, _ := o["options"].([]any)
	if len(opts) > 25 {
		return fmt.Sprintf("%q: %d options, more than 25", name, len(opts))
	}
	kind, _ := o["type"].(float64)
	optional := false
	seen := map[string]bool{}
	for _, x := range opts {
		sub, _ := x.(map[string]any)
		st, _ := sub["type"].(float64)
		sn, _ := sub["name"].(string)
		if seen[sn] {
			return fmt.Sprintf("%q: option %q twice", name, sn)
		}
		seen[sn] = true
		switch {
		case depth > 0 && kind == optTypeSubCommandGroup && st != optTypeSubCommand:
			return fmt.Sprintf("%q: a subcommand group may hold subcommands only", name)
		case depth > 0 && kind == optTypeSubCommand && (st == optTypeSubCommand || st == optTypeSubCommandGroup):
			return fmt.Sprintf("%q: a subcommand may not hold subcommands", name)
		case depth > 0 && kind != optTypeSubCommand && kind != optTypeSubCommandGroup:
			return fmt.Sprintf("%q: only subcommands and groups have options", name)
		case depth >= 3:
			return fmt.Sprintf("%q: options nested too deep", name)
		}
		if st != optTypeSubCommand && st != optTypeSubCommandGroup {
			req, _ := sub["required"].(bool)
			if req && optional {
				return fmt.Sprintf("%q: required option %q comes after an optional one", name, sn)
			}
			optional = optional || !req
		}
		if why := checkOption(sub, depth+1, total); why != "" {
			return why
		}
	}
	return ""
}

// Component types.
const (
	compActionRow = 1
	compButton    = 2
	compTextInput = 4
)

// checkComponents applies the message component rules, written once for both fakes
// (discordtest.CheckComponents): at most 5 action rows of 1 to 5 buttons; a link button (style 5)
// has a url and no custom_id, any other a custom_id of 1 to 100 characters, unique in the message.
func checkComponents(body map[string]any) string { return discordtest.CheckComponents(body) }

// checkModal applies the modal rules: a custom_id of 1 to 100 characters, a title of 1 to 45, 1 to 5
// rows each holding one text input (custom_id 1 to 100, label 1 to 45, style 1 or 2, lengths within
// 0 to 4,000, a placeholder of at most 100).
func checkModal(data map[string]any) string {
	id, _ := data["custom_id"].(string)
	title, _ := data["title"].(string)
	rows, _ := data["components"].([]any)
	switch {
	case id == "" || utf8.RuneCountInString(id) > 100:
		return fmt.Sprintf("modal custom_id of %d characters, want 1 to 100", utf8.RuneCountInString(id))
	case title == "" || utf8.RuneCountInString(title) > 45:
		return fmt.Sprintf("modal title of %d characters, want 1 to 45", utf8.RuneCountInString(title))
	case len(rows) < 1 || len(rows) > 5:
		return fmt.Sprintf("a modal of %d rows, want 1 to 5", len(rows))
	}
	for _, r := range rows {
		row, _ := r.(map[string]any)
		inner, _ := row["components"].([]any)
		if len(inner) != 1 {
			return fmt.Sprintf("a modal row of %d components, want one text input", len(inner))
		}
		c, _ := inner[0].(map[string]any)
		t, _ := c["type"].(float64)
		style, _ := c["style"].(float64)
		cid, _ := c["custom_id"].(string)
		label, _ := c["label"].(string)
		ph, _ := c["placeholder"].(string)
		minLen, _ := c["min_length"].(float64)
		maxLen, hasMax := c["max_length"].(float64)
		switch {
		case t != compTextInput:
			return fmt.Sprintf("a modal component of type %v, want a text input (4)", c["type"])
		case style != 1 && style != 2:
			return fmt.Sprintf("text input style %v, want 1 or 2", c["style"])
		case cid == "" || utf8.RuneCountInString(cid) > 100:
			return "text input custom_id not 1 to 100 characters"
		case label == "" || utf8.RuneCountInString(label) > 45:
			return fmt.Sprintf("text input label of %d characters, want 1 to 45", utf8.RuneCountInString(label))
		case utf8.RuneCountInString(ph) > 100:
			return "text input placeholder longer than 100"
		case minLen < 0 || minLen > 4000 || hasMax && (maxLen < 1 || maxLen > 4000 || maxLen < minLen):
			return "text input lengths out of 0 to 4,000"
		}
	}
	return ""
}

// Interaction types, as the fake sends them.
const (
	interactionCommand   = 2
	interactionComponent = 3
	interactionModal     = 5
)

// checkCallback applies the interaction response rules: the response types an interaction of kind
// may be answered with (a modal cannot answer a modal submission; only a component's or a modal's
// message can be updated), and the rules of the data the type carries.
func checkCallback(kind int, body map[string]any) string {
	t, _ := body["type"].(float64)
	allowed := map[int][]float64{
		interactionCommand:   {4, 5, 9},
		interactionComponent: {4, 5, 6, 7, 9},
		interactionModal:     {4, 5, 6, 7},
	}[kind]
	ok := false
	for _, a := range allowed {
		ok = ok || a == t
	}
	if !ok {
		return fmt.Sprintf("response type %v does not answer an interaction of type %d", body["type"], kind)
	}
	data, _ := body["data"].(map[string]any)
	switch t {
	case 9:
		if data == nil {
			return "a modal response without data"
		}
		return checkModal(data)
	case 4, 7:
		if data == nil {
			return ""
		}
		if c, _ := data["content"].(string); utf16Len(c) > maxContent {
			return "content is longer than 2000"
		}
		return checkComponents(data)
	}
	return ""
}

// checkMessage applies the message rules to a body (create, edit, webhook follow-up and edit):
// content of at most 2,000 characters, components as checkComponents. Fields Discord does not know
// are ignored, as Discord ignores them (its schemas allow additional properties): discordgo's
// MessageEdit, for one, sends its ID and Channel in the body.
func checkMessage(body map[string]any) string {
	if c, _ := body["content"].(string); utf16Len(c) > maxContent {
		return "content is longer than 2000"
	}
	return checkComponents(body)
}
