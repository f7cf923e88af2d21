package slack

// Slack's rules for what the adapter sends, as the Block Kit reference and the method docs state
// them. The fake applies them to every message, response_url post and modal it receives and refuses
// what Slack would refuse (invalid_blocks, missing_scope, expired_url), so a test over the fake fails
// where the real service would.

import (
	"encoding/json"
	"fmt"
	"unicode/utf8"
)

// methodScope is the bot token scope each Web API method the adapter calls needs.
var methodScope = map[string]string{
	"chat.postMessage": "chat:write", "chat.update": "chat:write", "chat.delete": "chat:write", "chat.postEphemeral": "chat:write",
	"conversations.open": "im:write", "users.info": "users:read",
	"files.getUploadURLExternal": "files:write", "files.completeUploadExternal": "files:write",
}

// responseURLLife is how long a response_url may be used: 30 minutes (and 5 times).
const responseURLLife = 30 * 60 // seconds

func runes(s string) int { return utf8.RuneCountInString(s) }

// checkBlocks applies the Block Kit rules to a blocks value: at most 50 blocks in a message (100 in
// a modal), block_ids unique and at most 255 characters; a section's text at most 3,000; an actions
// block of 1 to 25 elements; a button's text (plain_text) at most 75, its action_id at most 255 and
// unique in the message, its value at most 2,000, its style primary or danger; a context of at most
// 10 elements; a header at most 150; an image's alt_text at most 2,000.
func checkBlocks(raw string, modal bool) string {
	if raw == "" {
		return ""
	}
	var blocks []map[string]any
	if err := json.Unmarshal([]byte(raw), &blocks); err != nil {
		return "blocks are not a JSON array: " + err.Error()
	}
	most := 50
	if modal {
		most = 100
	}
	if len(blocks) > most {
		return fmt.Sprintf("%d blocks, more than %d", len(blocks), most)
	}
	blockIDs, actionIDs := map[string]bool{}, map[string]bool{}
	text := func(v any) (string, string) {
		m, _ := v.(map[string]any)
		t, _ := m["type"].(string)
		s, _ := m["text"].(string)
		return t, s
	}
	for _, b := range blocks {
		if id, _ := b["block_id"].(string); id != "" {
			if blockIDs[id] || runes(id) > 255 {
				return fmt.Sprintf("block_id %q repeated or longer than 255", id)
			}
			blockIDs[id] = true
		}
		switch b["type"] {
		case "section":
			if _, s := text(b["text"]); runes(s) > 3000 {
				return fmt.Sprintf("section text of %d characters, more than 3,000", runes(s))
			}
		case "header":
			if _, s := text(b["text"]); runes(s) > 150 {
				return "header text longer than 150"
			}
		case "context":
			if els, _ := b["elements"].([]any); len(els) > 10 {
				return fmt.Sprintf("a context of %d elements, more than 10", len(els))
			}
		case "image":
			if alt, _ := b["alt_text"].(string); runes(alt) > 2000 {
				return "image alt_text longer than 2,000"
			}
		case "actions":
			els, _ := b["elements"].([]any)
			if len(els) < 1 || len(els) > 25 {
				return fmt.Sprintf("an actions block of %d elements, want 1 to 25", len(els))
			}
			for _, e := range els {
				el, _ := e.(map[string]any)
				if el["type"] != "button" {
					continue
				}
				kind, label := text(el["text"])
				id, _ := el["action_id"].(string)
				value, _ := el["value"].(string)
				style, hasStyle := el["style"].(string)
				switch {
				case kind != "plain_text":
					return "a button's text must be plain_text"
				case label == "" || runes(label) > 75:
					return fmt.Sprintf("button text of %d characters, want 1 to 75", runes(label))
				case runes(id) > 255 || id != "" && actionIDs[id]:
					return fmt.Sprintf("action_id %q repeated in the message or longer than 255", id)
				case runes(value) > 2000:
					return "button value longer than 2,000"
				case hasStyle && style != "primary" && style != "danger":
					return fmt.Sprintf("button style %q, want primary or danger", style)
				}
				if id != "" {
					actionIDs[id] = true
				}
			}
		}
	}
	return ""
}

// checkView applies the modal rules of views.open: a title of at most 24 characters (plain_text),
// submit and close likewise, a callback_id of at most 255, private_metadata of at most 3,000, and
// blocks as checkBlocks for a modal.
func checkView(view map[string]any) string {
	for _, k := range []string{"title", "submit", "close"} {
		m, _ := view[k].(map[string]any)
		if m == nil {
			if k == "title" {
				return "a modal without a title"
			}
			continue
		}
		if s, _ := m["text"].(string); runes(s) > 24 || m["type"] != "plain_text" {
			return fmt.Sprintf("modal %s must be plain_text of at most 24 characters, not %q", k, s)
		}
	}
	if id, _ := view["callback_id"].(string); runes(id) > 255 {
		return "callback_id longer than 255"
	}
	if pm, _ := view["private_metadata"].(string); runes(pm) > 3000 {
		return "private_metadata longer than 3,000"
	}
	raw, _ := json.Marshal(view["blocks"])
	return checkBlocks(string(raw), true)
}
