package slack

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/dealerbot/dealerbot/bot"
	"github.com/dealerbot/dealerbot/render"
)

// TestFakeRefusesWhatSlackRefuses: the fake's Block Kit and modal rules (spec_test.go) refuse each
// body Slack would, and pass the adapter's own table message and raise form.
func TestFakeRefusesWhatSlackRefuses(t *testing.T) {
	button := func(id, text, style string) map[string]any {
		b := map[string]any{"type": "button", "action_id": id, "text": map[string]any{"type": "plain_text", "text": text}}
		if style != "" {
			b["style"] = style
		}
		return b
	}
	actions := func(els ...map[string]any) map[string]any {
		list := []any{}
		for _, e := range els {
			list = append(list, e)
		}
		return map[string]any{"type": "actions", "elements": list}
	}
	section := func(text string) map[string]any {
		return map[string]any{"type": "section", "text": map[string]any{"type": "mrkdwn", "text": text}}
	}
	js := func(blocks ...map[string]any) string {
		raw, _ := json.Marshal(blocks)
		return string(raw)
	}
	many := make([]map[string]any, 51)
	for i := range many {
		many[i] = section("x")
	}
	tests := []struct{ name, why string }{
		{"51 blocks", checkBlocks(js(many...), false)},
		{"a section of 3,001 characters", checkBlocks(js(section(strings.Repeat("s", 3001))), false)},
		{"a button text of 76 characters", checkBlocks(js(actions(button("a", strings.Repeat("b", 76), ""))), false)},
		{"an action_id twice", checkBlocks(js(actions(button("a", "Fold", "")), actions(button("a", "Call", ""))), false)},
		{"a button style of secondary", checkBlocks(js(actions(button("a", "Fold", "secondary"))), false)},
		{"an empty actions block", checkBlocks(js(actions()), false)},
		{"a modal title of 25 characters", checkView(map[string]any{"type": "modal", "title": map[string]any{"type": "plain_text", "text": strings.Repeat("t", 25)}})},
		{"a modal without a title", checkView(map[string]any{"type": "modal"})},
	}
	for _, tt := range tests {
		if tt.why == "" {
			t.Errorf("%s: accepted, Slack refuses it", tt.name)
		}
	}
	// The adapter's own table message and raise form pass.
	m := render.Message{Text: "Hand #1 · No-limit 5/10\n▶ alice to act", Buttons: []render.Button{
		{Label: "Fold", Command: "fold", Token: "1.0", Style: render.Danger}, {Label: "Call 10", Command: "call", Token: "1.0", Style: render.Primary},
		{Label: "Raise…", Command: "raise", Token: "1.0", Style: render.Secondary, Amount: true, Min: 20, Max: 1000},
		{Label: "All-in 1,000", Command: "allin", Token: "1.0", Style: render.Danger}, render.MyCards}}
	raw, _ := json.Marshal(tablePost(m, "CGAME").Blocks)
	if why := checkBlocks(string(raw), false); why != "" {
		t.Errorf("the adapter's table message is refused: %s", why)
	}
}

// TestResponseURLExpires: a click's response_url may be used for 30 minutes; the fake refuses it
// after that (expired_url), as Slack does, and the adapter then brings the table up to date by
// chat.update.
func TestResponseURLExpires(t *testing.T) {
	h := newHarness(t, socketConfig())
	ctx := context.Background()
	ts, err := h.a.Post(ctx, bot.Message{Workspace: "T1", Channel: "CGAME", Message: render.Message{Text: "Hand #1 · to act",
		Buttons: []render.Button{{Label: "Fold", Command: "fold", Token: "1.0"}}}})
	if err != nil {
		t.Fatal(err)
	}
	h.mu.Lock()
	h.hookSeq++
	path := fmt.Sprintf("/response/%d", h.hookSeq)
	h.hooks[path] = hook{channel: "CGAME", ts: ts, issued: time.Now()}
	late := time.Now().Add(31 * time.Minute)
	h.now = func() time.Time { return late }
	h.mu.Unlock()
	h.a.replace(ctx, bot.Command{Channel: "CGAME", Message: ts}, render.Message{Text: "Hand #1 · later"}, "http://"+h.srv.ServerAddr+path)
	expired, updated := false, false
	for _, c := range h.snapshot() {
		expired = expired || c.Method == "response_url (expired_url)"
		updated = updated || c.Method == "chat.update" && c.TS == ts
	}
	if !expired || !updated {
		t.Fatalf("a response_url 31 minutes old: refused %v, table updated by chat.update %v; want both", expired, updated)
	}
	if got := h.onScreen(ts); !strings.Contains(got.Text, "Hand #1 · later") {
		t.Fatalf("the table shows %q", got.Text)
	}
}

// TestMissingScopes: the fake refuses a method whose scope the app was not granted (missing_scope).
// Without im:write no DM can be opened: hole cards are shown ephemerally in the channel instead.
func TestMissingScopes(t *testing.T) {
	h := newHarness(t, socketConfig())
	h.mu.Lock()
	h.scopes = []string{"commands", "chat:write", "users:read"}
	h.mu.Unlock()
	hole := bot.Message{Workspace: "T1", Channel: "CGAME", User: "UCAROL", Message: render.Message{Text: "Hand #3 — your cards: Q♦ Q♣", Private: true}}
	err := h.a.Send(context.Background(), hole)
	if !errors.Is(err, bot.ErrDMBlocked) {
		t.Fatalf("a DM without im:write: %v, want bot.ErrDMBlocked (the bot then shows the cards ephemerally)", err)
	}
	refused := false
	for _, c := range h.snapshot() {
		refused = refused || c.Method == "conversations.open (missing_scope)"
	}
	if !refused {
		t.Fatal("the fake did not refuse conversations.open without im:write")
	}
}
