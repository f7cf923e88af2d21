package discord

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/dealerbot/dealerbot/bot"
	"github.com/dealerbot/dealerbot/bot/bottest"
	"github.com/dealerbot/dealerbot/render"
)

// TestOurCommandsPassDiscordsRules: the /poker command as registered passes every registration rule,
// with room to spare under the 8,000-character budget.
func TestOurCommandsPassDiscordsRules(t *testing.T) {
	raw, err := json.Marshal(Commands())
	if err != nil {
		t.Fatal(err)
	}
	if why := checkCommands(raw); why != "" {
		t.Fatalf("/poker breaks a registration rule: %s", why)
	}
	var cmds []map[string]any
	_ = json.Unmarshal(raw, &cmds)
	total := 0
	_ = checkOption(cmds[0], 0, &total)
	t.Logf("/poker uses %d of the 8,000 characters a command may have", total)
}

// TestFakeRefusesWhatDiscordRefuses: the fake's rules (spec_test.go) refuse each body Discord would.
// A fake that accepted them would let a broken adapter pass its tests.
func TestFakeRefusesWhatDiscordRefuses(t *testing.T) {
	cmd := func(mod func(map[string]any)) []byte {
		raw, _ := json.Marshal(Commands())
		var cmds []map[string]any
		_ = json.Unmarshal(raw, &cmds)
		mod(cmds[0])
		out, _ := json.Marshal(cmds)
		return out
	}
	sub := func(c map[string]any, name string) map[string]any {
		for _, o := range c["options"].([]any) {
			if m := o.(map[string]any); m["name"] == name {
				return m
			}
		}
		t.Fatalf("no subcommand %q", name)
		return nil
	}
	button := func(id, label string) map[string]any {
		return map[string]any{"type": 2.0, "style": 1.0, "custom_id": id, "label": label}
	}
	row := func(bs ...map[string]any) map[string]any {
		cs := []any{}
		for _, b := range bs {
			cs = append(cs, b)
		}
		return map[string]any{"type": 1.0, "components": cs}
	}
	modal := func(title, label string) map[string]any {
		return map[string]any{"type": 9.0, "data": map[string]any{"custom_id": "m", "title": title,
			"components": []any{row(map[string]any{"type": 4.0, "style": 1.0, "custom_id": "amount", "label": label})}}}
	}
	tests := []struct {
		name string
		why  string
	}{
		{"upper-case name", checkCommands(cmd(func(c map[string]any) { c["name"] = "Poker" }))},
		{"name of 33 characters", checkCommands(cmd(func(c map[string]any) { c["name"] = strings.Repeat("p", 33) }))},
		{"empty description", checkCommands(cmd(func(c map[string]any) { sub(c, "join")["description"] = "" }))},
		{"26 options", checkCommands(cmd(func(c map[string]any) {
			var os []any
			for i := 0; i < 26; i++ {
				os = append(os, map[string]any{"type": 3.0, "name": fmt.Sprintf("o%d", i), "description": "x"})
			}
			sub(c, "join")["options"] = os
		}))},
		{"required after optional", checkCommands(cmd(func(c map[string]any) {
			sub(c, "join")["options"] = []any{map[string]any{"type": 4.0, "name": "a", "description": "x"},
				map[string]any{"type": 4.0, "name": "b", "description": "x", "required": true}}
		}))},
		{"over 8,000 characters", checkCommands(cmd(func(c map[string]any) {
			for _, o := range c["options"].([]any) {
				o.(map[string]any)["description"] = strings.Repeat("d", 100)
				ps, _ := o.(map[string]any)["options"].([]any)
				for _, p := range ps {
					p.(map[string]any)["description"] = strings.Repeat("d", 100)
				}
			}
			var os []any
			for i := 0; i < 25; i++ {
				os = append(os, map[string]any{"type": 3.0, "name": fmt.Sprintf("o%d", i), "description": strings.Repeat("d", 100)})
			}
			sub(c, "join")["options"] = os
		}))},
		{"a link button without a url", checkMessage(map[string]any{"components": []any{row(map[string]any{"type": 2.0, "style": 5.0, "label": "Pay"})}})},
		{"a link button with a custom_id", checkMessage(map[string]any{"components": []any{row(map[string]any{"type": 2.0, "style": 5.0, "label": "Pay", "url": "https://paypal.me/d/7.00USD", "custom_id": "p"})}})},
		{"a link button to a javascript: url", checkMessage(map[string]any{"components": []any{row(map[string]any{"type": 2.0, "style": 5.0, "label": "Pay", "url": "javascript:alert(1)"})}})},
		{"a link button with a url of 513 characters", checkMessage(map[string]any{"components": []any{row(map[string]any{"type": 2.0, "style": 5.0, "label": "Pay", "url": "https://x.example/" + strings.Repeat("u", 495)})}})},
		{"a command button with a url", checkMessage(map[string]any{"components": []any{row(map[string]any{"type": 2.0, "style": 1.0, "label": "Paid", "custom_id": "p", "url": "https://paypal.me/d"})}})},
		{"a button without a label", checkMessage(map[string]any{"components": []any{row(map[string]any{"type": 2.0, "style": 1.0, "custom_id": "p"})}})},
		{"six action rows", checkMessage(map[string]any{"components": []any{row(button("a", "A")), row(button("b", "B")), row(button("c", "C")), row(button("d", "D")), row(button("e", "E")), row(button("f", "F"))}})},
		{"a custom_id twice", checkMessage(map[string]any{"components": []any{row(button("a", "A"), button("a", "B"))}})},
		{"six buttons in a row", checkMessage(map[string]any{"components": []any{row(button("a", "A"), button("b", "B"), button("c", "C"), button("d", "D"), button("e", "E"), button("f", "F"))}})},
		{"a label of 81 characters", checkMessage(map[string]any{"components": []any{row(button("a", strings.Repeat("L", 81)))}})},
		{"a custom_id of 101 characters", checkMessage(map[string]any{"components": []any{row(button(strings.Repeat("i", 101), "A"))}})},
		{"content of 2,001 characters", checkMessage(map[string]any{"content": strings.Repeat("c", 2001)})},
		{"a modal title of 46 characters", checkCallback(interactionComponent, modal(strings.Repeat("T", 46), "Amount"))},
		{"a text input label of 46 characters", checkCallback(interactionComponent, modal("Raise", strings.Repeat("L", 46)))},
		{"a modal answering a modal", checkCallback(interactionModal, modal("Raise", "Amount"))},
		{"an update answering a slash command", checkCallback(interactionCommand, map[string]any{"type": 7.0})},
	}
	for _, tt := range tests {
		if tt.why == "" {
			t.Errorf("%s: accepted, Discord refuses it", tt.name)
		}
	}
	if why := checkCallback(interactionComponent, modal("Raise", "Amount")); why != "" {
		t.Errorf("a valid modal refused: %s", why)
	}
	link := map[string]any{"type": 2.0, "style": 5.0, "label": "Pay", "url": "https://paypal.me/d/7.00USD"}
	if why := checkMessage(map[string]any{"components": []any{row(button("a", "Paid #1"), link)}}); why != "" {
		t.Errorf("a valid link button refused: %s", why)
	}
}

// TestSettleUpButtonsPassDiscordsRules (issue 37): a settle-up of seven payments, six of them to
// players with a payment app (13 buttons: a Paid button each and six link buttons), is laid out in
// action rows Discord accepts, every link button with its url and no custom_id.
func TestSettleUpButtonsPassDiscordsRules(t *testing.T) {
	var bs []render.Button
	for i := 1; i <= 7; i++ {
		bs = append(bs, render.Button{Label: fmt.Sprintf("Paid #%d", i), Command: fmt.Sprintf("paid %d", i), Style: render.Success})
		if i <= 6 {
			bs = append(bs, render.Button{Label: fmt.Sprintf("Pay player%d 12.00 USD (PayPal)", i), URL: fmt.Sprintf("https://paypal.me/player%d/12.00USD", i)})
		}
	}
	comps, err := Components(bs)
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := json.Marshal(map[string]any{"content": "Settle-up", "components": comps})
	var body map[string]any
	_ = json.Unmarshal(raw, &body)
	if why := checkMessage(body); why != "" {
		t.Fatalf("Discord would refuse the settle-up's 13 buttons: %s", why)
	}
	links := 0
	for _, r := range body["components"].([]any) {
		for _, c := range r.(map[string]any)["components"].([]any) {
			if b := c.(map[string]any); b["style"] == 5.0 {
				links++
			}
		}
	}
	if links != 6 {
		t.Errorf("%d link buttons, want 6", links)
	}
}

// TestInteractionTokenExpires: an interaction token lives 15 minutes; the fake refuses a follow-up
// after that, as Discord does (401, 50027).
func TestInteractionTokenExpires(t *testing.T) {
	f := newFakeDiscord(t, testApp)
	logs, clock := &bottest.Buffer{}, bottest.NewClock(time.Now())
	a := openAdapterWith(t, f, logs, clock, testConfig())
	a.SetDealer(&scripted{reply: func(c bot.Command) bot.Reply { return bot.Reply{Text: "ok"} }})
	n := f.count()
	tok := f.slash(player{"111", "alice"}, "C1", "chips")
	f.answer(n, tok)
	late := time.Now().Add(16 * time.Minute)
	f.mu.Lock()
	f.now = func() time.Time { return late }
	f.mu.Unlock()
	req, _ := http.NewRequestWithContext(context.Background(), "POST", "https://discord.com/api/v9/webhooks/"+testApp+"/"+tok, strings.NewReader(`{"content":"late"}`))
	req.Header.Set("Authorization", "Bot test-token")
	req.Header.Set("Content-Type", "application/json")
	res, err := f.client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusUnauthorized {
		t.Fatalf("a follow-up 16 minutes after the interaction: %s, want 401 (50027)", res.Status)
	}
}

// TestFollowupBeforeTheAnswer: an interaction's token takes follow-ups and edits only once the
// interaction has been answered; before that the fake refuses them as Discord does (404, 10015).
func TestFollowupBeforeTheAnswer(t *testing.T) {
	f := newFakeDiscord(t, testApp)
	f.mu.Lock()
	f.asked["itok-unanswered"] = f.now()
	f.mu.Unlock()
	for _, r := range []struct{ method, path string }{
		{"POST", "/webhooks/" + testApp + "/itok-unanswered"},
		{"PATCH", "/webhooks/" + testApp + "/itok-unanswered/messages/@original"},
	} {
		req, _ := http.NewRequestWithContext(context.Background(), r.method, "https://discord.com/api/v9"+r.path, strings.NewReader(`{"content":"early"}`))
		req.Header.Set("Authorization", "Bot test-token")
		req.Header.Set("Content-Type", "application/json")
		res, err := f.client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != http.StatusNotFound {
			t.Errorf("%s %s before the interaction was answered: %s, want 404 (10015)", r.method, r.path, res.Status)
		}
	}
}

// TestFakeGlobalLimit: the fake holds the bot to Discord's global limit, 50 requests a second across
// all routes (interaction callbacks and their follow-ups and edits aside), and answers more with a
// global 429.
func TestFakeGlobalLimit(t *testing.T) {
	f := newFakeDiscord(t, testApp)
	client := f.client()
	limited := 0
	for i := 0; i < 60; i++ {
		req, _ := http.NewRequest("GET", "https://discord.com/api/v9/users/@me", nil)
		req.Header.Set("Authorization", "Bot test-token")
		res, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode == http.StatusTooManyRequests && res.Header.Get("X-RateLimit-Global") == "true" {
			limited++
		}
	}
	if limited == 0 {
		t.Fatal("60 requests at once were all answered: the fake does not enforce the global limit")
	}
}

// TestFakeRouteBuckets: every route other than a channel's message writes (which share the channel
// bucket) has a bucket of its own per top-level resource, described by the X-RateLimit headers, and
// more requests than it allows are answered with a 429 that is not global.
func TestFakeRouteBuckets(t *testing.T) {
	keys := []struct {
		a, b []string
		same bool
	}{
		{[]string{"GET", "channels/1/messages/7"}, []string{"GET", "channels/1/messages/8"}, true},
		{[]string{"GET", "channels/1/messages/7"}, []string{"GET", "channels/2/messages/7"}, false},
		{[]string{"GET", "guilds/1/channels"}, []string{"GET", "guilds/2/channels"}, false},
		{[]string{"PATCH", "webhooks/9/tok1/messages/@original"}, []string{"PATCH", "webhooks/9/tok2/messages/@original"}, false},
		{[]string{"PUT", "applications/5/guilds/1/commands"}, []string{"PUT", "applications/5/guilds/2/commands"}, true},
		{[]string{"GET", "guilds/1/channels"}, []string{"POST", "guilds/1/channels"}, false},
	}
	for _, k := range keys {
		ka, _ := routeKey(k.a[0], strings.Split(k.a[1], "/"))
		kb, _ := routeKey(k.b[0], strings.Split(k.b[1], "/"))
		if (ka == kb) != k.same {
			t.Errorf("%v and %v: keys %q and %q, want same=%v", k.a, k.b, ka, kb, k.same)
		}
	}
	for _, free := range [][]string{{"POST", "interactions/1/tok/callback"}, {"POST", "channels/1/messages"}, {"POST", "applications/5/emojis"}} {
		if key, ok := routeKey(free[0], strings.Split(free[1], "/")); ok {
			t.Errorf("%v counted against route bucket %q; it is limited otherwise", free, key)
		}
	}

	f := newFakeDiscord(t, testApp)
	client := f.client()
	get := func(path string) *http.Response {
		req, _ := http.NewRequest("GET", "https://discord.com/api/v9"+path, nil)
		req.Header.Set("Authorization", "Bot test-token")
		res, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res
	}
	for i := range routeLimit {
		res := get("/guilds/G1/channels")
		if res.StatusCode == http.StatusTooManyRequests || res.Header.Get("X-RateLimit-Bucket") == "" ||
			res.Header.Get("X-RateLimit-Remaining") != fmt.Sprint(routeLimit-1-i) {
			t.Fatalf("request %d: %s, remaining %q, bucket %q", i+1, res.Status, res.Header.Get("X-RateLimit-Remaining"), res.Header.Get("X-RateLimit-Bucket"))
		}
	}
	res := get("/guilds/G1/channels")
	if res.StatusCode != http.StatusTooManyRequests || res.Header.Get("X-RateLimit-Global") != "" || res.Header.Get("Retry-After") == "" {
		t.Fatalf("request %d of one route at once: %s (global %q), want a per-route 429 with Retry-After", routeLimit+1, res.Status, res.Header.Get("X-RateLimit-Global"))
	}
	if res := get("/guilds/G2/channels"); res.StatusCode == http.StatusTooManyRequests {
		t.Fatal("another guild's route was limited by the first guild's bucket")
	}
}

// TestDMsWithinRouteBuckets: hole cards to more players than the DM-channel route allows at once
// all arrive; discordgo reads the route's headers and waits for its bucket rather than losing one.
func TestDMsWithinRouteBuckets(t *testing.T) {
	f := newFakeDiscord(t, testApp)
	logs := &bottest.Buffer{}
	a := connect(t, f, logs, bottest.NewClock(time.Date(2026, 11, 20, 20, 0, 0, 0, time.UTC)))
	defer a.Close(context.Background())
	ctx := context.Background()
	const players = 2*routeLimit + 1
	n := f.count()
	start := time.Now()
	for i := range players {
		user := fmt.Sprintf("%d", 700+i)
		if err := a.Send(ctx, bot.Message{User: user, Message: render.Message{Text: "Your cards: A♠ A♥", Private: true}}); err != nil {
			t.Fatalf("DM %d: %v", i+1, err)
		}
	}
	took := time.Since(start)
	var opened, sent []call
	for _, c := range f.since(n) {
		switch {
		case c.Method == "POST" && c.Path == "/users/@me/channels":
			opened = append(opened, c)
		case c.Method == "POST" && strings.HasPrefix(c.Path, "/channels/"+dmPrefix):
			sent = append(sent, c)
		}
	}
	if len(sent) != players {
		t.Fatalf("%d of %d DMs sent:\n%s", len(sent), players, f.dump(n))
	}
	// Eleven DM channels opened through one route of 5 a second take two windows at least.
	if took < 2*f.routeWindow*9/10 {
		t.Errorf("%d DM channels opened in %v: the route's bucket did not hold them", len(opened), took)
	}
	t.Logf("%d DMs in %v, %d per-route 429s", players, took, f.routeLimited)
}

// TestSchemaRefusesBrokenBodies: the fake's body schemas (testdata/bodies.schema.json) accept the
// shapes the adapter sends and refuse, for each route, what Discord's reference refuses.
func TestSchemaRefusesBrokenBodies(t *testing.T) {
	long := func(n int) string { return strings.Repeat("x", n) }
	tests := []struct {
		name, method, path, body string
		want                     string // "" when the body is valid
	}{
		{"message", "POST", "channels/1/messages", `{"content":"hi","tts":false,"components":null,"embeds":null,"allowed_mentions":{"parse":["users"]}}`, ""},
		{"message too long", "POST", "channels/1/messages", `{"content":"` + long(2001) + `"}`, "body.content has 2001 characters"},
		{"flags not a number", "POST", "channels/1/messages", `{"content":"hi","flags":"64"}`, "body.flags must be integer"},
		{"mention kind unknown", "POST", "channels/1/messages", `{"allowed_mentions":{"parse":["nobody"]}}`, "body.allowed_mentions.parse[0] is nobody"},
		{"eleven embeds", "POST", "channels/1/messages", `{"embeds":[{},{},{},{},{},{},{},{},{},{},{}]}`, "body.embeds has 11 items"},
		{"component without a type", "PATCH", "channels/1/messages/2", `{"components":[{"components":[]}]}`, "body.components[0].type is required"},
		{"button label too long", "PATCH", "channels/1/messages/2", `{"components":[{"type":1,"components":[{"type":2,"style":1,"label":"` + long(81) + `","custom_id":"a"}]}]}`, "label has 81 characters"},
		{"attachment id not an ID", "PATCH", "channels/1/messages/2", `{"attachments":[{"id":"pic"}]}`, "not an ID"},
		{"callback", "POST", "interactions/1/tok/callback", `{"type":7,"data":{"content":"table"}}`, ""},
		{"callback type unknown", "POST", "interactions/1/tok/callback", `{"type":3}`, "body.type is 3"},
		{"callback without type", "POST", "interactions/1/tok/callback", `{"data":{}}`, "body.type is required"},
		{"modal title too long", "POST", "interactions/1/tok/callback", `{"type":9,"data":{"custom_id":"m","title":"` + long(46) + `"}}`, "body.data.title has 46 characters"},
		{"follow-up", "POST", "webhooks/1/tok", `{"content":"only you","flags":64}`, ""},
		{"follow-up name too long", "POST", "webhooks/1/tok", `{"username":"` + long(81) + `"}`, "body.username has 81 characters"},
		{"DM channel", "POST", "users/@me/channels", `{"recipient_id":"111"}`, ""},
		{"DM channel for nobody", "POST", "users/@me/channels", `{}`, "body.recipient_id is required"},
		{"emoji name too short", "POST", "applications/1/emojis", `{"name":"a","image":"data:image/png;base64,AA=="}`, "body.name has 1 characters"},
		{"command option type unknown", "PUT", "applications/1/guilds/2/commands", `[{"name":"poker","description":"d","options":[{"type":12,"name":"x","description":"d"}]}]`, "body[0].options[0].type is 12"},
		{"command option without description", "PUT", "applications/1/commands", `[{"name":"poker","options":[{"type":3,"name":"x"}]}]`, "body[0].options[0].description is required"},
		{"a route without a schema", "POST", "guilds/1/channels", `{"name":"poker"}`, "no schema describes a body for POST /guilds/1/channels"},
		{"not JSON", "POST", "channels/1/messages", `{"content":`, "not JSON"},
	}
	for _, tc := range tests {
		got := checkSchema(tc.method, strings.Split(tc.path, "/"), tc.body)
		switch {
		case tc.want == "" && got != "":
			t.Errorf("%s: refused a valid body: %s", tc.name, got)
		case tc.want != "" && !strings.Contains(got, tc.want):
			t.Errorf("%s: got %q, want a refusal containing %q", tc.name, got, tc.want)
		}
	}
}
