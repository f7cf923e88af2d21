package slack

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/gorilla/websocket"
	slackapi "github.com/slack-go/slack"
	"github.com/slack-go/slack/slacktest"

	"github.com/dealerbot/dealerbot/bot"
	"github.com/dealerbot/dealerbot/bot/bottest"
)

// call is one Web API call the fake Slack received.
type call struct {
	Method  string
	Channel string // channel (post, ephemeral, update) or the user of conversations.open
	User    string // chat.postEphemeral's recipient
	Text    string // section texts, unescaped, joined by newlines (views.open: the modal's label)
	Buttons []slackapi.ButtonBlockElement
	View    *slackapi.ModalViewRequest
	Trigger string
	TS      string // the message's timestamp: given by chat.postMessage, named by chat.update
	File    string // files.completeUploadExternal: the uploaded file's name (its content in Text)
	Hook    string // response_url: the URL (one per click); Replace: it replaced the original
	Replace bool
	At      time.Time
}

// fakeSlack is slacktest's server with recording handlers for the methods the adapter calls, a fake
// Socket Mode WebSocket, and knobs for refusals and rate limits.
//
// It enforces Slack's limits (../shared/INTEGRATION.md): chat.postMessage about 1 per second per
// channel (a burst of 3, then 429 with Retry-After), chat.update Tier 3 (50 a minute for the
// workspace), chat.postEphemeral Tier 4 (100 a minute), each response_url 5 times within 30 minutes,
// and views.open only with a trigger_id younger than 3 s; and Slack's rules for what it is sent
// (spec_test.go: Block Kit limits, modals, scopes, uploaded and processed files). It keeps what each
// channel message shows now (posts, updates, replace_original through a click).
type fakeSlack struct {
	t   testing.TB
	srv *slacktest.Server

	mu         sync.Mutex
	calls      []call
	ts         int
	dmRefused  map[string]string // user -> error code of conversations.open
	ephRefused map[string]string // channel -> error code of chat.postEphemeral
	rateLimits map[string]int    // method -> 429 answers still to give
	admins     map[string]bool
	names      map[string]string    // user ID -> user name sent in payloads
	display    map[string]string    // user ID -> display name in users.info
	lookUps    map[string]int       // user ID -> users.info answered (not in calls: most tests count play's calls)
	authFails  bool                 // apps.connections.open answers invalid_auth
	tokenFails bool                 // auth.test answers invalid_auth (a wrong bot token)
	scopes     []string             // the bot token's scopes (X-OAuth-Scopes of auth.test); a method needing another is missing_scope
	now        func() time.Time     // the fake's clock for response_url expiry
	uploads    map[string][2]string // file ID -> name and content
	ready      map[string]time.Time // file ID -> when Slack has processed it (set on completeUploadExternal)
	processing time.Duration        // how long processing an upload takes
	noFiles    bool                 // the app lacks files:write: uploads answer missing_scope
	refuseImgs bool                 // every image block is invalid_blocks (a file the poster cannot see)

	envelopes chan []byte    // to the socket client
	acks      chan socketAck // from the socket client
	connected chan struct{}  // closed on the first WebSocket connection
	once      sync.Once
	ackTimes  map[string]time.Time

	limits     bool                  // enforce the rate limits below (on unless a test turns it off)
	posts      map[string]*tokens    // channel -> chat.postMessage budget
	updates    tokens                // chat.update budget (Tier 3), of the one workspace
	ephemerals tokens                // chat.postEphemeral budget (Tier 4), of the one workspace
	updatesBy  map[string]*tokens    // with teams: each workspace's chat.update budget
	ephsBy     map[string]*tokens    // with teams: each workspace's chat.postEphemeral budget
	hooks      map[string]hook       // response_url path -> the click it belongs to
	triggers   map[string]time.Time  // trigger_id -> when it was issued
	screen     map[string]slackShown // message ts -> what it shows
	limited429 int                   // 429s answered by the limits
	hookSeq    int

	// Several workspaces (OAuth mode; oauthfake_test.go). With no team added every token is taken, as
	// one workspace's fake; once a team is added, every Web API call must carry a token Slack issued
	// (else invalid_auth) and not revoked (token_revoked), and may name only channels, users and
	// triggers of that token's workspace (else channel_not_found or user_not_found).
	teams        map[string]*fakeTeam // team ID -> team
	tokens       map[string]string    // bot token -> team ID
	revoked      map[string]bool      // bot tokens revoked (uninstalled, or revoked by the workspace)
	teamOf       map[string]string    // channel, user, DM channel or trigger ID -> team ID
	uses         []tokenUse           // every Web API call's token, once a team is added
	codes        map[string]*grant    // OAuth codes issued by the authorize page
	clientID     string
	clientSecret string
	oauthSeq     int
}

// hook is a click's response_url: the message it was on, when it was issued and how often it was used.
type hook struct {
	channel, ts string
	issued      time.Time
	uses        int
}

// slackShown is a message as it is on screen.
type slackShown struct {
	Text    string
	Buttons []slackapi.ButtonBlockElement
	Images  []slackImage
}

// slackImage is an image block showing an uploaded file: its name, content and alt text.
type slackImage struct {
	Name, Data, Alt string
}

// images are the image blocks of a blocks JSON value, with the uploaded files they show. As Slack
// does, a block is refused (invalid_blocks, the reason returned) when it names a file never uploaded
// or not processed yet, or has alt text over 2,000 characters. f.mu is held.
func (f *fakeSlack) images(raw string) ([]slackImage, string) {
	if raw == "" {
		return nil, ""
	}
	var blocks slackapi.Blocks
	if err := json.Unmarshal([]byte(raw), &blocks); err != nil {
		return nil, ""
	}
	var out []slackImage
	for _, b := range blocks.BlockSet {
		img, ok := b.(*slackapi.ImageBlock)
		if !ok {
			continue
		}
		switch {
		case img.SlackFile == nil:
			f.t.Errorf("an image block without slack_file: a self-hosted bot has no public image_url")
			continue
		case f.refuseImgs:
			return nil, "invalid slack file"
		case utf8.RuneCountInString(img.AltText) > 2000:
			return nil, "alt_text must be at most 2000 characters"
		}
		u, ok := f.uploads[img.SlackFile.ID]
		ready, done := f.ready[img.SlackFile.ID]
		if !ok || u[1] == "" || !done {
			return nil, fmt.Sprintf("file %s was never uploaded", img.SlackFile.ID)
		}
		if time.Now().Before(ready) {
			return nil, "invalid slack file: " + img.SlackFile.ID + " is still being processed"
		}
		out = append(out, slackImage{Name: u[0], Data: u[1], Alt: img.AltText})
	}
	return out, ""
}

// tokens is a token bucket: up to burst calls at once, refilled at rate per second.
type tokens struct {
	left  float64
	at    time.Time
	burst float64
	rate  float64
}

// take spends a token, or says how long until one is there.
func (b *tokens) take(now time.Time) (time.Duration, bool) {
	if b.at.IsZero() {
		b.left, b.at = b.burst, now
	}
	b.left = min(b.burst, b.left+now.Sub(b.at).Seconds()*b.rate)
	b.at = now
	if b.left >= 1 {
		b.left--
		return 0, true
	}
	return time.Duration((1 - b.left) / b.rate * float64(time.Second)), false
}

// throttle applies the rate limit of method (in channel) and answers 429 when it is spent.
func (f *fakeSlack) throttle(method, channel string, w http.ResponseWriter) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	if !f.limits {
		return false
	}
	var b *tokens
	switch method {
	case "chat.postMessage":
		if strings.HasPrefix(channel, "D") {
			return false // DMs are other channels, each with its own budget; the tests send few
		}
		if b = f.posts[channel]; b == nil {
			b = &tokens{burst: 3, rate: 1}
			f.posts[channel] = b
		}
	case "chat.update":
		b = f.budget(f.updatesBy, &f.updates, channel, 50, 50.0/60)
	case "chat.postEphemeral":
		b = f.budget(f.ephsBy, &f.ephemerals, channel, 100, 100.0/60)
	default:
		return false
	}
	wait, ok := b.take(time.Now())
	if ok {
		return false
	}
	f.limited429++
	f.calls = append(f.calls, call{Method: method + " (429)", Channel: channel, At: time.Now()})
	w.Header().Set("Retry-After", fmt.Sprint(int(wait.Seconds())+1))
	w.WriteHeader(http.StatusTooManyRequests)
	return true
}

type socketAck struct {
	EnvelopeID string          `json:"envelope_id"`
	Payload    json.RawMessage `json:"payload"`
}

func newFakeSlack(t testing.TB) *fakeSlack {
	t.Helper()
	f := &fakeSlack{
		t:          t,
		dmRefused:  map[string]string{},
		ephRefused: map[string]string{},
		rateLimits: map[string]int{},
		admins:     map[string]bool{},
		names:      map[string]string{"UALICE": "alice", "UBOB": "bob", "UCAROL": "carol"},
		display:    map[string]string{},
		envelopes:  make(chan []byte, 16),
		acks:       make(chan socketAck, 16),
		connected:  make(chan struct{}),
		ackTimes:   map[string]time.Time{},
		limits:     true,
		posts:      map[string]*tokens{},
		updates:    tokens{burst: 50, rate: 50.0 / 60},
		ephemerals: tokens{burst: 100, rate: 100.0 / 60},
		hooks:      map[string]hook{},
		triggers:   map[string]time.Time{},
		screen:     map[string]slackShown{},
		processing: 150 * time.Millisecond,
		scopes:     append([]string(nil), Scopes...),
		now:        time.Now,
		teams:      map[string]*fakeTeam{},
		tokens:     map[string]string{},
		revoked:    map[string]bool{},
		teamOf:     map[string]string{},
		codes:      map[string]*grant{},
		updatesBy:  map[string]*tokens{},
		ephsBy:     map[string]*tokens{},
	}
	f.srv = slacktest.NewTestServer(func(c slacktest.Customize) {
		c.Handle("/chat.postMessage", f.authed(f.record("chat.postMessage")))
		c.Handle("/chat.postEphemeral", f.authed(f.ephemeral))
		c.Handle("/response", f.response)
		c.Handle("/response/", f.response)
		c.Handle("/chat.update", f.authed(f.record("chat.update")))
		c.Handle("/chat.delete", f.authed(f.chatDelete))
		c.Handle("/conversations.open", f.authed(f.conversationsOpen))
		c.Handle("/views.open", f.authed(f.viewsOpen))
		c.Handle("/users.info", f.authed(f.usersInfo))
		c.Handle("/apps.connections.open", f.connectionsOpen)
		c.Handle("/auth.test", f.authed(f.authTest))
		c.Handle("/files.getUploadURLExternal", f.authed(f.uploadURL))
		c.Handle("/upload/", f.upload)
		c.Handle("/files.completeUploadExternal", f.authed(f.completeUpload))
		c.Handle("/oauth.v2.access", f.oauthAccess)
		c.Handle("/socket", slacktest.Websocket(f.socket))
	})
	f.srv.Start()
	t.Cleanup(f.srv.Stop)
	return f
}

func (f *fakeSlack) json(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}

// limited answers 429 while the method still has rate limits to give.
func (f *fakeSlack) limited(method string, w http.ResponseWriter) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	if need := methodScope[method]; need != "" && !slices.Contains(f.scopes, need) {
		f.calls = append(f.calls, call{Method: method + " (missing_scope)"})
		f.json(w, map[string]any{"ok": false, "error": "missing_scope", "needed": need})
		return true
	}
	if f.rateLimits[method] > 0 {
		f.rateLimits[method]--
		f.calls = append(f.calls, call{Method: method + " (429)"})
		w.Header().Set("Retry-After", "2")
		w.WriteHeader(http.StatusTooManyRequests)
		return true
	}
	return false
}

func form(r *http.Request) url.Values {
	body, _ := io.ReadAll(r.Body)
	v, _ := url.ParseQuery(string(body))
	return v
}

// blockContent pulls the section text and buttons out of a blocks JSON value.
func blockContent(t testing.TB, raw string) (string, []slackapi.ButtonBlockElement) {
	if raw == "" {
		return "", nil
	}
	var blocks slackapi.Blocks
	if err := json.Unmarshal([]byte(raw), &blocks); err != nil {
		t.Errorf("blocks are not valid Block Kit JSON: %v", err)
		return "", nil
	}
	var texts []string
	var buttons []slackapi.ButtonBlockElement
	for _, b := range blocks.BlockSet {
		switch b := b.(type) {
		case *slackapi.SectionBlock:
			texts = append(texts, unescape(b.Text.Text))
		case *slackapi.ActionBlock:
			for _, el := range b.Elements.ElementSet {
				buttons = append(buttons, *el.(*slackapi.ButtonBlockElement))
			}
		}
	}
	return strings.Join(texts, "\n"), buttons
}

func unescape(s string) string {
	return strings.NewReplacer("&amp;", "&", "&lt;", "<", "&gt;", ">").Replace(s)
}

func (f *fakeSlack) record(method string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if f.limited(method, w) {
			return
		}
		v := form(r)
		if f.throttle(method, v.Get("channel"), w) {
			return
		}
		if why := checkBlocks(v.Get("blocks"), false); why != "" {
			f.t.Errorf("fake Slack: %s refused: %s", method, why)
			f.json(w, map[string]any{"ok": false, "error": "invalid_blocks", "errors": []string{why}})
			return
		}
		text, buttons := blockContent(f.t, v.Get("blocks"))
		f.mu.Lock()
		images, bad := f.images(v.Get("blocks"))
		if bad != "" && method != "chat.postEphemeral" {
			f.calls = append(f.calls, call{Method: method + " (invalid_blocks)", Channel: v.Get("channel"), Text: bad, At: time.Now()})
			f.mu.Unlock()
			f.json(w, map[string]any{"ok": false, "error": "invalid_blocks", "errors": []string{bad}})
			return
		}
		f.ts++
		ts := fmt.Sprintf("1700000000.%06d", f.ts)
		if method == "chat.update" {
			ts = v.Get("ts")
		}
		if method != "chat.postEphemeral" {
			f.screen[ts] = slackShown{Text: text, Buttons: buttons, Images: images}
		}
		f.calls = append(f.calls, call{Method: method, Channel: v.Get("channel"), User: v.Get("user"), Text: text, Buttons: buttons, TS: ts, At: time.Now()})
		f.mu.Unlock()
		f.json(w, map[string]any{"ok": true, "channel": v.Get("channel"), "ts": ts, "message_ts": ts})
	}
}

func (f *fakeSlack) ephemeral(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	v, _ := url.ParseQuery(string(body))
	f.mu.Lock()
	code, refused := f.ephRefused[v.Get("channel")]
	if refused {
		f.calls = append(f.calls, call{Method: "chat.postEphemeral (" + code + ")", Channel: v.Get("channel"), User: v.Get("user")})
	}
	f.mu.Unlock()
	if refused {
		f.json(w, map[string]any{"ok": false, "error": code})
		return
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	f.record("chat.postEphemeral")(w, r)
}

// chatDelete takes a channel message down.
func (f *fakeSlack) chatDelete(w http.ResponseWriter, r *http.Request) {
	if f.limited("chat.delete", w) {
		return
	}
	v := form(r)
	f.mu.Lock()
	_, ok := f.screen[v.Get("ts")]
	delete(f.screen, v.Get("ts"))
	f.calls = append(f.calls, call{Method: "chat.delete", Channel: v.Get("channel"), TS: v.Get("ts"), At: time.Now()})
	f.mu.Unlock()
	if !ok {
		f.json(w, map[string]any{"ok": false, "error": "message_not_found"})
		return
	}
	f.json(w, map[string]any{"ok": true, "channel": v.Get("channel"), "ts": v.Get("ts")})
}

// response records a post to a response_url (JSON, as Slack's webhooks take it).
func (f *fakeSlack) response(w http.ResponseWriter, r *http.Request) {
	var m struct {
		ResponseType    string          `json:"response_type"`
		Blocks          json.RawMessage `json:"blocks"`
		ReplaceOriginal bool            `json:"replace_original"`
	}
	if err := json.NewDecoder(r.Body).Decode(&m); err != nil {
		f.t.Errorf("response_url body: %v", err)
	}
	if why := checkBlocks(string(m.Blocks), false); why != "" {
		f.t.Errorf("fake Slack: response_url refused: %s", why)
		w.WriteHeader(http.StatusBadRequest)
		_, _ = w.Write([]byte("invalid_blocks"))
		return
	}
	text, buttons := blockContent(f.t, string(m.Blocks))
	f.mu.Lock()
	defer f.mu.Unlock()
	h, known := f.hooks[r.URL.Path]
	if known && f.now().Sub(h.issued) > responseURLLife*time.Second {
		f.calls = append(f.calls, call{Method: "response_url (expired_url)", Hook: r.URL.Path, At: time.Now()})
		w.WriteHeader(http.StatusNotFound)
		_, _ = w.Write([]byte("expired_url"))
		return
	}
	if known {
		h.uses++
		f.hooks[r.URL.Path] = h
		if h.uses > 5 && f.limits {
			f.calls = append(f.calls, call{Method: "response_url (used_url)", Hook: r.URL.Path, At: time.Now()})
			w.WriteHeader(http.StatusNotFound)
			_, _ = w.Write([]byte("used_url"))
			return
		}
		if m.ReplaceOriginal {
			images, bad := f.images(string(m.Blocks))
			if bad != "" {
				f.calls = append(f.calls, call{Method: "response_url (invalid_blocks)", Hook: r.URL.Path, Text: bad, At: time.Now()})
				w.WriteHeader(http.StatusBadRequest)
				_, _ = w.Write([]byte("invalid_blocks"))
				return
			}
			f.screen[h.ts] = slackShown{Text: text, Buttons: buttons, Images: images}
		}
	}
	f.calls = append(f.calls, call{Method: "response_url", User: m.ResponseType, Text: text, Buttons: buttons, Hook: r.URL.Path,
		Replace: m.ReplaceOriginal, TS: h.ts, Channel: h.channel, At: time.Now()})
	_, _ = w.Write([]byte("ok"))
}

func (f *fakeSlack) conversationsOpen(w http.ResponseWriter, r *http.Request) {
	if f.limited("conversations.open", w) {
		return
	}
	user := form(r).Get("users")
	f.mu.Lock()
	code, refused := f.dmRefused[user]
	f.calls = append(f.calls, call{Method: "conversations.open", Channel: user})
	f.mu.Unlock()
	if refused {
		f.json(w, map[string]any{"ok": false, "error": code})
		return
	}
	f.json(w, map[string]any{"ok": true, "channel": map[string]any{"id": "D" + user}})
}

func (f *fakeSlack) viewsOpen(w http.ResponseWriter, r *http.Request) {
	if f.limited("views.open", w) {
		return
	}
	var req struct {
		TriggerID string                    `json:"trigger_id"`
		View      slackapi.ModalViewRequest `json:"view"`
	}
	body, _ := io.ReadAll(r.Body)
	if err := json.Unmarshal(body, &req); err != nil {
		f.t.Errorf("views.open body: %v", err)
	}
	var raw struct {
		View map[string]any `json:"view"`
	}
	_ = json.Unmarshal(body, &raw)
	if why := checkView(raw.View); why != "" {
		f.t.Errorf("fake Slack: views.open refused: %s", why)
		f.json(w, map[string]any{"ok": false, "error": "invalid_arguments", "response_metadata": map[string]any{"messages": []string{why}}})
		return
	}
	label := ""
	if len(req.View.Blocks.BlockSet) > 0 {
		if in, ok := req.View.Blocks.BlockSet[0].(*slackapi.InputBlock); ok {
			label = in.Label.Text
		}
	}
	f.mu.Lock()
	issued, known := f.triggers[req.TriggerID]
	expired := known && time.Since(issued) > 3*time.Second && f.limits
	method := "views.open"
	if expired {
		method = "views.open (expired_trigger_id)"
	}
	f.calls = append(f.calls, call{Method: method, Trigger: req.TriggerID, View: &req.View, Text: label, At: time.Now()})
	f.mu.Unlock()
	if expired {
		f.json(w, map[string]any{"ok": false, "error": "expired_trigger_id"})
		return
	}
	f.json(w, map[string]any{"ok": true, "view": map[string]any{"id": "V1"}})
}

func (f *fakeSlack) usersInfo(w http.ResponseWriter, r *http.Request) {
	if f.limited("users.info", w) {
		return
	}
	user := form(r).Get("user")
	f.mu.Lock()
	admin, display := f.admins[user], f.display[user]
	if f.lookUps == nil {
		f.lookUps = map[string]int{}
	}
	f.lookUps[user]++
	f.mu.Unlock()
	f.json(w, map[string]any{"ok": true, "user": map[string]any{"id": user, "name": user, "is_admin": admin,
		"profile": map[string]any{"display_name": display}}})
}

func (f *fakeSlack) authTest(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	fails := f.tokenFails
	f.calls = append(f.calls, call{Method: "auth.test"})
	w.Header().Set("X-OAuth-Scopes", strings.Join(f.scopes, ","))
	f.mu.Unlock()
	if fails {
		f.json(w, map[string]any{"ok": false, "error": "invalid_auth"})
		return
	}
	f.json(w, map[string]any{"ok": true, "team": "Home game", "user": "dealerbot", "team_id": "T1", "user_id": "UBOT"})
}

// The files upload flow: an upload URL, the upload itself (multipart), then the share.
func (f *fakeSlack) uploadURL(w http.ResponseWriter, r *http.Request) {
	if f.limited("files.getUploadURLExternal", w) {
		return
	}
	v := form(r)
	f.mu.Lock()
	if f.noFiles {
		f.calls = append(f.calls, call{Method: "files.getUploadURLExternal (missing_scope)"})
		f.mu.Unlock()
		f.json(w, map[string]any{"ok": false, "error": "missing_scope", "needed": "files:write"})
		return
	}
	if alt := v.Get("alt_txt"); utf8.RuneCountInString(alt) > 1000 {
		f.calls = append(f.calls, call{Method: "files.getUploadURLExternal (invalid_arguments)", Text: alt})
		f.mu.Unlock()
		f.json(w, map[string]any{"ok": false, "error": "invalid_arguments", "response_metadata": map[string]any{"messages": []string{"[ERROR] alt_txt must be at most 1000 characters"}}})
		return
	}
	f.ts++
	id := fmt.Sprintf("F%d", f.ts)
	if f.uploads == nil {
		f.uploads = map[string][2]string{}
	}
	f.uploads[id] = [2]string{v.Get("filename")}
	f.mu.Unlock()
	f.json(w, map[string]any{"ok": true, "upload_url": "http://" + f.srv.ServerAddr + "/upload/" + id, "file_id": id})
}

func (f *fakeSlack) upload(w http.ResponseWriter, r *http.Request) {
	id := strings.TrimPrefix(r.URL.Path, "/upload/")
	file, _, err := r.FormFile("file")
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	data, _ := io.ReadAll(file)
	f.mu.Lock()
	u := f.uploads[id]
	u[1] = string(data)
	f.uploads[id] = u
	f.mu.Unlock()
	w.WriteHeader(http.StatusOK)
}

func (f *fakeSlack) completeUpload(w http.ResponseWriter, r *http.Request) {
	if f.limited("files.completeUploadExternal", w) {
		return
	}
	v := form(r)
	var files []struct {
		ID string `json:"id"`
	}
	_ = json.Unmarshal([]byte(v.Get("files")), &files)
	f.mu.Lock()
	var done []map[string]any
	for _, fl := range files {
		u := f.uploads[fl.ID]
		if f.ready == nil {
			f.ready = map[string]time.Time{}
		}
		f.ready[fl.ID] = time.Now().Add(f.processing) // Slack processes the file after answering
		f.calls = append(f.calls, call{Method: "files.completeUploadExternal", Channel: v.Get("channel_id"), File: u[0], Text: u[1]})
		done = append(done, map[string]any{"id": fl.ID, "title": u[0]})
	}
	f.mu.Unlock()
	f.json(w, map[string]any{"ok": true, "files": done})
}

func (f *fakeSlack) connectionsOpen(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	fails := f.authFails
	f.mu.Unlock()
	if fails {
		f.json(w, map[string]any{"ok": false, "error": "invalid_auth"})
		return
	}
	f.json(w, map[string]any{"ok": true, "url": "ws://" + f.srv.ServerAddr + "/socket"})
}

// socket plays Slack's side of Socket Mode: hello, then envelopes; acks are read back.
func (f *fakeSlack) socket(c *websocket.Conn) {
	if err := c.WriteJSON(map[string]any{"type": "hello", "num_connections": 1}); err != nil {
		return
	}
	f.once.Do(func() { close(f.connected) })
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			var a socketAck
			if err := c.ReadJSON(&a); err != nil {
				return
			}
			f.mu.Lock()
			f.ackTimes[a.EnvelopeID] = time.Now()
			f.mu.Unlock()
			f.acks <- a
		}
	}()
	ping := time.NewTicker(time.Second)
	defer ping.Stop()
	for {
		select {
		case <-done:
			return
		case env := <-f.envelopes:
			if err := c.WriteMessage(websocket.TextMessage, env); err != nil {
				return
			}
		case <-ping.C:
			_ = c.WriteControl(websocket.PingMessage, []byte("p"), time.Now().Add(time.Second))
		}
	}
}

var envelopeSeq struct {
	sync.Mutex
	n int
}

// send delivers one Socket Mode envelope and waits for its ack, failing the test unless the ack comes
// within Slack's 3 seconds. It returns the ack's payload.
func (f *fakeSlack) send(typ string, payload any) json.RawMessage {
	f.t.Helper()
	envelopeSeq.Lock()
	envelopeSeq.n++
	id := fmt.Sprintf("env-%d", envelopeSeq.n)
	envelopeSeq.Unlock()
	p, err := json.Marshal(payload)
	if err != nil {
		f.t.Fatal(err)
	}
	env, _ := json.Marshal(map[string]any{"type": typ, "envelope_id": id, "payload": json.RawMessage(p), "accepts_response_payload": typ != "interactive"})
	sent := time.Now()
	f.envelopes <- env
	for {
		select {
		case a := <-f.acks:
			if a.EnvelopeID != id {
				f.t.Errorf("ack for %s while waiting for %s", a.EnvelopeID, id)
				continue
			}
			if d := time.Since(sent); d > 3*time.Second {
				f.t.Errorf("ack after %v; Slack wants it within 3s", d)
			}
			return a.Payload
		case <-time.After(3 * time.Second):
			f.t.Fatalf("no ack for %s envelope %s within 3s", typ, id)
		}
	}
}

func (f *fakeSlack) name(user string) string {
	if n, ok := f.names[user]; ok {
		return n
	}
	return user
}

// slash sends /poker text from user in channel.
func (f *fakeSlack) slash(channel, user, text string) {
	f.t.Helper()
	f.send("slash_commands", slackapi.SlashCommand{
		TeamID: "T1", ChannelID: channel, UserID: user, UserName: f.name(user), Command: "/poker", Text: text,
		TriggerID: "trig-slash", ResponseURL: "http://" + f.srv.ServerAddr + "/response",
	})
}

// click presses button b of a message as user.
func (f *fakeSlack) click(channel, user string, b slackapi.ButtonBlockElement) {
	f.t.Helper()
	f.clickOn(channel, user, "", b)
}

// clickOn presses button b of channel message ts as user; each click has its own trigger_id and
// response_url, returned.
func (f *fakeSlack) clickOn(channel, user, ts string, b slackapi.ButtonBlockElement) string {
	f.t.Helper()
	ic, path := f.clickPayload("T1", channel, user, ts, b)
	f.send("interactive", ic)
	return path
}

// clickPayload is the block_actions payload of a press of button b of message ts in channel of team,
// with its own trigger_id and response_url (returned).
func (f *fakeSlack) clickPayload(team, channel, user, ts string, b slackapi.ButtonBlockElement) (*slackapi.InteractionCallback, string) {
	f.mu.Lock()
	f.hookSeq++
	path := fmt.Sprintf("/response/%d", f.hookSeq)
	trigger := fmt.Sprintf("trig-%d-%s", f.hookSeq, b.ActionID)
	if team == "T1" && len(f.teams) == 0 {
		trigger = "trig-" + b.ActionID // as the one workspace's tests expect
	}
	f.hooks[path] = hook{channel: channel, ts: ts, issued: f.now()}
	f.triggers[trigger] = time.Now()
	f.teamOf[trigger] = team
	f.mu.Unlock()
	return &slackapi.InteractionCallback{
		Type:        slackapi.InteractionTypeBlockActions,
		TriggerID:   trigger,
		ResponseURL: "http://" + f.srv.ServerAddr + path,
		Container:   slackapi.Container{Type: "message", MessageTs: ts, ChannelID: channel},
		Team:        slackapi.Team{ID: team},
		User:        slackapi.User{ID: user, Name: f.name(user)},
		Channel:     slackapi.Channel{GroupConversation: slackapi.GroupConversation{Conversation: slackapi.Conversation{ID: channel}}},
		ActionCallback: slackapi.ActionCallbacks{BlockActions: []*slackapi.BlockAction{
			{ActionID: b.ActionID, BlockID: "b", Value: b.Value, Type: "button"},
		}},
	}, path
}

// onScreen is what channel message ts shows now.
func (f *fakeSlack) onScreen(ts string) slackShown {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.screen[ts]
}

// submit sends the amount modal v back with value typed in, and returns the ack payload.
func (f *fakeSlack) submit(user string, v *slackapi.ModalViewRequest, value string) json.RawMessage {
	f.t.Helper()
	ic := &slackapi.InteractionCallback{
		Type: slackapi.InteractionTypeViewSubmission,
		Team: slackapi.Team{ID: "T1"},
		User: slackapi.User{ID: user, Name: f.name(user)},
		View: slackapi.View{ID: "V1", CallbackID: v.CallbackID, PrivateMetadata: v.PrivateMetadata,
			State: &slackapi.ViewState{Values: map[string]map[string]slackapi.BlockAction{
				amountBlockID: {amountActionID: {Type: "number_input", Value: value}}}}},
	}
	return f.send("interactive", ic)
}

// limit makes the next n calls of method answer 429.
func (f *fakeSlack) limit(method string, n int) {
	f.mu.Lock()
	f.rateLimits[method] = n
	f.mu.Unlock()
}

// refuseEphemeral makes chat.postEphemeral in channel fail with code.
func (f *fakeSlack) refuseEphemeral(channel, code string) {
	f.mu.Lock()
	f.ephRefused[channel] = code
	f.mu.Unlock()
}

// refuseDM makes conversations.open with user fail with code.
func (f *fakeSlack) refuseDM(user, code string) {
	f.mu.Lock()
	f.dmRefused[user] = code
	f.mu.Unlock()
}

func (f *fakeSlack) setAdmin(user string) {
	f.mu.Lock()
	f.admins[user] = true
	f.mu.Unlock()
}

func (f *fakeSlack) unsetAdmin(user string) {
	f.mu.Lock()
	delete(f.admins, user)
	f.mu.Unlock()
}

// snapshot returns the calls so far.
func (f *fakeSlack) snapshot() []call {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]call(nil), f.calls...)
}

// waitFor waits until cond holds for the calls made so far and returns them.
func (f *fakeSlack) waitFor(what string, cond func([]call) bool) []call {
	f.t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		cs := f.snapshot()
		if cond(cs) {
			return cs
		}
		if time.Now().After(deadline) {
			f.t.Fatalf("timed out waiting for %s; calls:\n%s", what, dump(cs))
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// waitCall waits for a call with method (after the first `after` calls) matching match and returns it.
func (f *fakeSlack) waitCall(after int, method string, match func(call) bool) call {
	f.t.Helper()
	var got call
	f.waitFor(method, func(cs []call) bool {
		for _, c := range cs[min(after, len(cs)):] {
			if c.Method == method && (match == nil || match(c)) {
				got = c
				return true
			}
		}
		return false
	})
	return got
}

func dump(cs []call) string {
	var b strings.Builder
	for i, c := range cs {
		fmt.Fprintf(&b, "%3d %-20s ch=%s user=%s %q", i, c.Method, c.Channel, c.User, c.Text)
		for _, bt := range c.Buttons {
			fmt.Fprintf(&b, " [%s]", bt.Text.Text)
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// harness is an adapter connected to a fake Slack.
type harness struct {
	*fakeSlack
	a     *Adapter
	logs  *bottest.Buffer
	waits *[]time.Duration
}

// newHarness builds an adapter against the fake Slack (not yet running), with opts; waits records the
// rate-limit pauses instead of sleeping.
func newHarness(t testing.TB, cfg Config, opts ...Option) *harness {
	t.Helper()
	f := newFakeSlack(t)
	cfg.APIURL = f.srv.GetAPIURL()
	logs := &bottest.Buffer{}
	opts = append([]Option{WithLogger(slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug})))}, opts...)
	a, err := New(cfg, opts...)
	if err != nil {
		t.Fatal(err)
	}
	a.trusted = func(u string) bool { return strings.HasPrefix(u, "http://"+f.srv.ServerAddr+"/") }
	a.pictureWait = 2 * f.processing // the fake processes an upload in a fraction of Slack's time
	var mu sync.Mutex
	waits := &[]time.Duration{}
	a.wait = func(ctx context.Context, d time.Duration) error {
		mu.Lock()
		*waits = append(*waits, d)
		mu.Unlock()
		return sleep(ctx, d) // the fake's limits hold for real: waiting less would only be refused again
	}
	return &harness{fakeSlack: f, a: a, logs: logs, waits: waits}
}

// settle waits until the adapter has finished handling every request it has taken (each one's answer,
// posts and modals are made): what a test checks did not happen would have happened by then. A request
// is taken before its ack (or HTTP answer), which the tests wait for.
func (h *harness) settle() {
	h.t.Helper()
	for deadline := time.Now().Add(10 * time.Second); h.a.busy.Load() != 0; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			h.t.Fatalf("the adapter is still handling %d requests", h.a.busy.Load())
		}
	}
}

// runSocket starts the adapter in Socket Mode and stops it when the test ends.
func (h *harness) runSocket(t testing.TB) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- h.a.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("Run: %v", err)
			}
		case <-time.After(5 * time.Second):
			t.Error("Run did not return after cancel")
		}
		cctx, ccancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer ccancel()
		if err := h.a.Close(cctx); err != nil {
			t.Error(err)
		}
	})
	select {
	case <-h.connected:
	case err := <-done:
		t.Fatalf("Run returned before connecting: %v", err)
	case <-time.After(5 * time.Second):
		t.Fatal("socket mode did not connect to the fake Slack")
	}
}

func socketConfig() Config { return Config{BotToken: "xoxb-test", AppToken: "xapp-test"} }

// fakeDealer answers commands with a scripted reply and records them. Probes (an amount button asking
// before its form opens) are recorded apart and allowed unless probe says otherwise.
type fakeDealer struct {
	mu     sync.Mutex
	cmds   []bot.Command
	probes []bot.Command
	reply  func(bot.Command) bot.Reply
	probe  func(context.Context, bot.Command) bot.Reply
}

func (d *fakeDealer) Handle(ctx context.Context, cmd bot.Command) bot.Reply {
	if cmd.Probe {
		d.mu.Lock()
		d.probes = append(d.probes, cmd)
		d.mu.Unlock()
		if d.probe == nil {
			return bot.Reply{}
		}
		return d.probe(ctx, cmd)
	}
	d.mu.Lock()
	d.cmds = append(d.cmds, cmd)
	d.mu.Unlock()
	if d.reply == nil {
		return bot.Reply{Text: "ok: " + cmd.Text}
	}
	return d.reply(cmd)
}

func (d *fakeDealer) commands() []bot.Command {
	d.mu.Lock()
	defer d.mu.Unlock()
	return append([]bot.Command(nil), d.cmds...)
}

func (d *fakeDealer) probed() []bot.Command {
	d.mu.Lock()
	defer d.mu.Unlock()
	return append([]bot.Command(nil), d.probes...)
}
