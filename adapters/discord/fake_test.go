package discord

import (
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

// fakeDiscord is an offline Discord: an httptest server answering the REST calls the adapter makes
// (reached through Session.Client, whose transport rewrites https://discord.com to it) and a gateway
// websocket that says HELLO, reads IDENTIFY, says READY, answers heartbeats and delivers interactions.
// Every REST call is recorded.
type fakeDiscord struct {
	t     *testing.T
	srv   *httptest.Server
	appID string

	mu        sync.Mutex
	calls     []call
	changed   chan struct{} // closed and replaced whenever something is recorded
	blocked   map[string]bool
	nextID    int
	identify  map[string]any
	heartbeat int

	wmu  sync.Mutex // serialises gateway writes
	gw   *websocket.Conn
	seq  int
	open chan struct{} // closed once READY has been sent
}

// call is one recorded REST request.
type call struct {
	Method string
	Path   string // without the /api/v9 prefix
	Query  url.Values
	Body   map[string]any // the JSON body when it is an object
	Raw    string
	ID     string            // the ID the fake gave the message it created, if any
	Files  map[string]string // multipart uploads: file name -> content
}

func (c call) String() string {
	return fmt.Sprintf("%s %s %s", c.Method, c.Path, c.Raw)
}

// content is the message text a call carries: a post, an edit, a follow-up or an interaction callback.
func (c call) content() string {
	if d, ok := c.Body["data"].(map[string]any); ok {
		s, _ := d["content"].(string)
		return s
	}
	s, _ := c.Body["content"].(string)
	return s
}

func (c call) flags() int {
	b := c.Body
	if d, ok := c.Body["data"].(map[string]any); ok {
		b = d
	}
	f, _ := b["flags"].(float64)
	return int(f)
}

// components returns the buttons a call carries as custom_id -> label, in order.
func (c call) buttons() []button {
	b := c.Body
	if d, ok := c.Body["data"].(map[string]any); ok {
		b = d
	}
	var out []button
	rows, _ := b["components"].([]any)
	for _, r := range rows {
		row, _ := r.(map[string]any)
		inner, _ := row["components"].([]any)
		for _, x := range inner {
			m, _ := x.(map[string]any)
			id, _ := m["custom_id"].(string)
			label, _ := m["label"].(string)
			out = append(out, button{id: id, label: label})
		}
	}
	return out
}

type button struct{ id, label string }

const dmPrefix = "dm-" // DM channel IDs are dm-<user>

func newFakeDiscord(t *testing.T, appID string) *fakeDiscord {
	f := &fakeDiscord{t: t, appID: appID, changed: make(chan struct{}), blocked: map[string]bool{}, open: make(chan struct{})}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.srv.Close)
	return f
}

// client is the http.Client the adapter's session uses: every request goes to the fake.
func (f *fakeDiscord) client() *http.Client {
	target, _ := url.Parse(f.srv.URL)
	return &http.Client{Timeout: 10 * time.Second, Transport: rewrite{target: target, next: http.DefaultTransport}}
}

type rewrite struct {
	target *url.URL
	next   http.RoundTripper
}

func (r rewrite) RoundTrip(req *http.Request) (*http.Response, error) {
	req = req.Clone(req.Context())
	req.URL.Scheme, req.URL.Host, req.Host = r.target.Scheme, r.target.Host, r.target.Host
	return r.next.RoundTrip(req)
}

func (f *fakeDiscord) record(c call) {
	f.mu.Lock()
	f.calls = append(f.calls, c)
	close(f.changed)
	f.changed = make(chan struct{})
	f.mu.Unlock()
}

func (f *fakeDiscord) id() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.nextID++
	return fmt.Sprintf("%d", 900000+f.nextID)
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func (f *fakeDiscord) serve(w http.ResponseWriter, r *http.Request) {
	if strings.HasPrefix(r.URL.Path, "/ws") {
		f.serveGateway(w, r)
		return
	}
	path, ok := strings.CutPrefix(r.URL.Path, "/api/v9")
	if !ok {
		http.NotFound(w, r)
		return
	}
	if r.Header.Get("Authorization") != "Bot test-token" {
		writeJSON(w, http.StatusUnauthorized, map[string]any{"code": 0, "message": "401: Unauthorized"})
		return
	}
	var raw []byte
	var files map[string]string
	if mt, params, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt == "multipart/form-data" {
		// A message with attachments: the JSON in payload_json, each file in its own part.
		files = map[string]string{}
		mr := multipart.NewReader(r.Body, params["boundary"])
		for {
			part, err := mr.NextPart()
			if err != nil {
				break
			}
			data, _ := io.ReadAll(part)
			if part.FormName() == "payload_json" {
				raw = data
			} else {
				files[part.FileName()] = string(data)
			}
		}
	} else {
		raw, _ = io.ReadAll(r.Body)
	}
	c := call{Method: r.Method, Path: path, Query: r.URL.Query(), Raw: string(raw), Files: files}
	if len(raw) > 0 {
		var v any
		if err := json.Unmarshal(raw, &v); err != nil {
			f.t.Errorf("%s %s: body is not JSON: %v", r.Method, path, err)
		}
		c.Body, _ = v.(map[string]any)
	}
	parts := strings.Split(strings.Trim(path, "/"), "/")
	if r.Method == "POST" && (parts[0] == "webhooks" || parts[0] == "channels") {
		c.ID = f.id()
	}
	if path != "/gateway" {
		f.record(c)
	}
	switch {
	case r.Method == "GET" && path == "/gateway":
		writeJSON(w, 200, map[string]any{"url": "ws" + strings.TrimPrefix(f.srv.URL, "http") + "/ws"})
	case r.Method == "PUT" && parts[0] == "applications":
		var cmds []any
		_ = json.Unmarshal(raw, &cmds)
		writeJSON(w, 200, cmds)
	case r.Method == "POST" && parts[0] == "interactions" && len(parts) == 4 && parts[3] == "callback":
		w.WriteHeader(http.StatusNoContent)
	case parts[0] == "webhooks": // PATCH .../messages/@original or POST follow-up
		writeJSON(w, 200, map[string]any{"id": c.ID, "channel_id": "0", "content": c.content()})
	case r.Method == "POST" && path == "/users/@me/channels":
		user, _ := c.Body["recipient_id"].(string)
		writeJSON(w, 200, map[string]any{"id": dmPrefix + user, "type": 1})
	case r.Method == "POST" && parts[0] == "channels" && len(parts) == 3 && parts[2] == "messages":
		if user, ok := strings.CutPrefix(parts[1], dmPrefix); ok && f.isBlocked(user) {
			writeJSON(w, http.StatusForbidden, map[string]any{"code": 50007, "message": "Cannot send messages to this user"})
			return
		}
		writeJSON(w, 200, map[string]any{"id": c.ID, "channel_id": parts[1], "content": c.content()})
	case r.Method == "PATCH" && parts[0] == "channels" && len(parts) == 4 && parts[2] == "messages":
		writeJSON(w, 200, map[string]any{"id": parts[3], "channel_id": parts[1], "content": c.content()})
	default:
		f.t.Errorf("fake Discord: unexpected call %s", c)
		writeJSON(w, 404, map[string]any{"code": 10000, "message": "Unknown"})
	}
}

func (f *fakeDiscord) isBlocked(user string) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.blocked[user]
}

func (f *fakeDiscord) block(user string) {
	f.mu.Lock()
	f.blocked[user] = true
	f.mu.Unlock()
}

var upgrader = websocket.Upgrader{}

func (f *fakeDiscord) serveGateway(w http.ResponseWriter, r *http.Request) {
	if r.URL.Query().Get("v") != "9" || r.URL.Query().Get("encoding") != "json" {
		f.t.Errorf("gateway dialled with %q, want v=9&encoding=json", r.URL.RawQuery)
	}
	c, err := upgrader.Upgrade(w, r, nil)
	if err != nil {
		f.t.Errorf("gateway upgrade: %v", err)
		return
	}
	defer c.Close()
	f.wmu.Lock()
	f.gw = c
	err = c.WriteJSON(map[string]any{"op": 10, "d": map[string]any{"heartbeat_interval": 500}})
	f.wmu.Unlock()
	if err != nil {
		return
	}
	for ready := false; ; {
		var m struct {
			Op int             `json:"op"`
			D  json.RawMessage `json:"d"`
		}
		if err := c.ReadJSON(&m); err != nil {
			return // the client closed the connection
		}
		switch m.Op {
		case 1:
			f.mu.Lock()
			f.heartbeat++
			f.mu.Unlock()
			f.wmu.Lock()
			_ = c.WriteJSON(map[string]any{"op": 11})
			f.wmu.Unlock()
		case 2:
			var id map[string]any
			_ = json.Unmarshal(m.D, &id)
			f.mu.Lock()
			f.identify = id
			f.mu.Unlock()
			if !ready {
				ready = true
				f.dispatch("READY", map[string]any{
					"v": 9, "session_id": "fake-session", "resume_gateway_url": "ws" + strings.TrimPrefix(f.srv.URL, "http") + "/ws",
					"user":        map[string]any{"id": "1000", "username": "dealerbot", "bot": true},
					"application": map[string]any{"id": f.appID}, "guilds": []any{},
				})
				close(f.open)
			}
		default:
			f.t.Logf("fake gateway: ignoring op %d", m.Op)
		}
	}
}

// dispatch sends one op 0 event over the gateway.
func (f *fakeDiscord) dispatch(event string, d any) {
	f.wmu.Lock()
	defer f.wmu.Unlock()
	f.seq++
	if err := f.gw.WriteJSON(map[string]any{"op": 0, "t": event, "s": f.seq, "d": d}); err != nil {
		f.t.Errorf("gateway write %s: %v", event, err)
	}
}

// since returns the calls recorded from index n on.
func (f *fakeDiscord) since(n int) []call {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]call(nil), f.calls[n:]...)
}

func (f *fakeDiscord) count() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.calls)
}

// waitFor waits until a call recorded from index n on satisfies ok, and returns it.
func (f *fakeDiscord) waitFor(n int, what string, ok func(call) bool) call {
	f.t.Helper()
	deadline := time.After(10 * time.Second)
	for {
		f.mu.Lock()
		for _, c := range f.calls[n:] {
			if ok(c) {
				f.mu.Unlock()
				return c
			}
		}
		ch := f.changed
		f.mu.Unlock()
		select {
		case <-ch:
		case <-deadline:
			f.t.Fatalf("timed out waiting for %s; calls since %d:\n%s", what, n, f.dump(n))
		}
	}
}

func (f *fakeDiscord) dump(n int) string {
	var b strings.Builder
	for _, c := range f.since(n) {
		fmt.Fprintf(&b, "  %s\n", c)
	}
	return b.String()
}

// interaction payloads, shaped as Discord sends them over the gateway.

type player struct{ id, name string }

var interactionSeq struct {
	sync.Mutex
	n int
}

func (f *fakeDiscord) interaction(typ int, p player, guild, channel string, data map[string]any, perms string) (id, token string) {
	interactionSeq.Lock()
	interactionSeq.n++
	n := interactionSeq.n
	interactionSeq.Unlock()
	id, token = fmt.Sprintf("%d", 500000+n), fmt.Sprintf("itok%d", n)
	if perms == "" {
		perms = "0"
	}
	f.dispatch("INTERACTION_CREATE", map[string]any{
		"id": id, "application_id": f.appID, "type": typ, "token": token, "version": 1,
		"guild_id": guild, "channel_id": channel,
		"member": map[string]any{"user": map[string]any{"id": p.id, "username": p.name}, "nick": nil, "permissions": perms},
		"data":   data,
	})
	return id, token
}

// slash sends /poker <sub> with options given as name, type, value triples.
func (f *fakeDiscord) slash(p player, channel, sub string, opts ...any) string {
	var os []any
	for i := 0; i+2 < len(opts); i += 3 {
		os = append(os, map[string]any{"name": opts[i], "type": opts[i+1], "value": opts[i+2]})
	}
	_, tok := f.interaction(2, p, "7000", channel, map[string]any{
		"id": "3000", "name": "poker", "type": 1,
		"options": []any{map[string]any{"name": sub, "type": 1, "options": os}},
	}, "")
	return tok
}

func (f *fakeDiscord) click(p player, channel, customID string) string {
	_, tok := f.interaction(3, p, "7000", channel, map[string]any{"custom_id": customID, "component_type": 2}, "")
	return tok
}

func (f *fakeDiscord) submit(p player, channel, modalID, typed string) string {
	_, tok := f.interaction(5, p, "7000", channel, map[string]any{"custom_id": modalID, "components": []any{
		map[string]any{"type": 1, "components": []any{map[string]any{"type": 4, "custom_id": amountInput, "value": typed}}},
	}}, "")
	return tok
}

// answer waits for what the user sees for the interaction with this token: an immediate message or
// modal, or the edit of the deferred response. It returns that call and, for a deferral, the
// deferral too.
func (f *fakeDiscord) answer(n int, token string) (first, final call) {
	f.t.Helper()
	first = f.waitFor(n, "the answer to "+token, func(c call) bool {
		return c.Method == "POST" && strings.HasPrefix(c.Path, "/interactions/") && strings.Contains(c.Path, "/"+token+"/")
	})
	if t, _ := first.Body["type"].(float64); t != 5 {
		return first, first
	}
	final = f.waitFor(n, "the reply to "+token, func(c call) bool {
		return c.Method == "PATCH" && c.Path == "/webhooks/"+f.appID+"/"+token+"/messages/@original"
	})
	return first, final
}
