// Package discordtest is an offline Discord for tests that run whole dealerbot processes: a fake
// REST API that every process on one bot token reaches (DISCORD_REST_PROXY points them at it), and
// the other side of the Interactions Endpoint, which builds interactions as Discord sends them,
// signs them with the application's key and POSTs them to a process.
//
// The fake holds the processes to Discord's limits together, as Discord does (a limit belongs to
// the bot token, not to a process; see the shared INTEGRATION.md): 50 requests a second for the whole
// bot, interaction callbacks and interaction webhooks (follow-ups, edits of a response) exempt; 5
// message writes per 5 s in each channel, with the X-RateLimit headers that let a client wait before
// it hits the limit. Over a limit it answers 429 with retry_after, as Discord does. It records every
// request and keeps what each message shows now, the answers to interactions included.
//
// The package adapters/discord has a fake of its own (fake_test.go) for its tests inside one process:
// a gateway, the schema checks of every body, the health check's reads. This one is what a test of
// several processes needs and nothing more.
package discordtest

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"
)

// Discord's limits, as the fake enforces them.
const (
	GlobalPerSecond = 50              // requests a second for the whole bot token
	ChannelWrites   = 5               // message writes (posts, edits, deletes) per channel per ChannelWindow
	ChannelWindow   = 5 * time.Second // the channel bucket's window
	// AnswerWithin is how long Discord waits for an interaction's first response.
	AnswerWithin = 3 * time.Second
)

// Server is the fake REST API. Create it with NewServer.
type Server struct {
	// URL is the server's base URL, for DISCORD_REST_PROXY.
	URL   string
	App   App
	Token string // the bot token the processes must send (Authorization: Bot <Token>)

	t   testing.TB
	srv *httptest.Server

	mu      sync.Mutex
	calls   []Call
	changed chan struct{} // closed and replaced whenever a call is recorded
	nextID  int64
	faults  []string // requests Discord would refuse that a correct bot never makes

	globalStart time.Time // the current second of the global limit
	globalUsed  int
	globalHits  int // global 429s answered
	buckets     map[string]*bucket
	channelHits int // channel-bucket 429s answered

	screen       map[string]Shown        // message ID -> what it shows now
	interactions map[string]*interaction // interaction token -> its state
	emojis       map[string]string       // application emoji name -> ID
	commands     int                     // command registrations (PUT .../commands)
	nonces       map[string]nonced       // channel/nonce -> the message created with it (enforce_nonce)
}

// nonced is a message created with enforce_nonce: a create with the same nonce in the same channel
// within NonceWindow returns it instead of creating another.
type nonced struct {
	id string
	at time.Time
}

// NonceWindow is how long the fake keeps a message's nonce. Discord documents "the past few
// minutes"; a dealer must not count on more.
const NonceWindow = 3 * time.Minute

// bucket is a channel's message-write budget: a fixed window opened by its first write.
type bucket struct {
	start time.Time
	used  int
}

// interaction is one interaction sent by Deliver, as the fake follows it.
type interaction struct {
	message  string        // the message a component or form was on ("" for a slash command)
	answered chan struct{} // closed once its first response has been read
	first    int           // the type of its first response
	at       time.Time     // when it was sent
}

// Call is one recorded request: to the REST API, or (HTTP set) an interaction's answer read from a
// process's response body, recorded as the callback it stands for.
type Call struct {
	Method string
	Path   string         // without /api/v9
	Body   map[string]any // the JSON body when it is an object (payload_json for a multipart one)
	Raw    string
	Files  []string  // names of the uploaded files
	ID     string    // the ID the fake gave the message it created, if any
	At     time.Time // when the fake received it
	Status int       // what the fake answered
	HTTP   bool      // an interaction's answer from a response body
	// Global marks a request that counts against the bot's global limit.
	Global bool
}

func (c Call) String() string { return fmt.Sprintf("%s %s %d %s", c.Method, c.Path, c.Status, c.Raw) }

// data is the message part of a call's body: "data" of an interaction response, else the body.
func (c Call) data() map[string]any {
	if d, ok := c.Body["data"].(map[string]any); ok {
		return d
	}
	return c.Body
}

// Content is the message text the call carries.
func (c Call) Content() string {
	s, _ := c.data()["content"].(string)
	return s
}

// Flags are the message flags the call carries (64: ephemeral).
func (c Call) Flags() int {
	f, _ := c.data()["flags"].(float64)
	return int(f)
}

// Type is an interaction response's type (4 message, 5 deferred message, 6 deferred update,
// 7 update, 9 form), 0 for other calls.
func (c Call) Type() int {
	t, _ := c.Body["type"].(float64)
	return int(t)
}

// Buttons are the buttons the call carries, in order.
func (c Call) Buttons() []Button { return Buttons(c.data()) }

// Webhook returns the interaction token of a follow-up or an edit of an interaction's response.
func (c Call) Webhook() (token string, ok bool) {
	parts := strings.Split(strings.Trim(c.Path, "/"), "/")
	if len(parts) >= 3 && parts[0] == "webhooks" {
		return parts[2], true
	}
	return "", false
}

// Button is a message button: its custom_id and label.
type Button struct{ CustomID, Label string }

// Buttons reads the buttons of a message body (its action rows of components).
func Buttons(d map[string]any) []Button {
	var out []Button
	rows, _ := d["components"].([]any)
	for _, r := range rows {
		row, _ := r.(map[string]any)
		inner, _ := row["components"].([]any)
		for _, x := range inner {
			m, _ := x.(map[string]any)
			id, _ := m["custom_id"].(string)
			label, _ := m["label"].(string)
			out = append(out, Button{CustomID: id, Label: label})
		}
	}
	return out
}

// CheckComponents applies Discord's rules for a message's components to a body's "components" and
// returns why Discord would refuse them, or "": at most 5 action rows of 1 to 5 buttons (25 in all:
// a settle-up sends up to 13); a button has a style from 1 to 5, a label or an emoji, a label of at
// most 80 characters; a link button (style 5) has a url (http, https or discord, at most 512
// characters) and no custom_id; any other button has a custom_id of 1 to 100 characters, unique in
// the message, and no url.
func CheckComponents(body map[string]any) string {
	rows, _ := body["components"].([]any)
	if len(rows) > 5 {
		return fmt.Sprintf("%d action rows, more than 5", len(rows))
	}
	ids := map[string]bool{}
	for _, r := range rows {
		row, _ := r.(map[string]any)
		if t, _ := row["type"].(float64); t != 1 {
			return fmt.Sprintf("a top-level component of type %v, want action rows (1)", row["type"])
		}
		inner, _ := row["components"].([]any)
		if len(inner) < 1 || len(inner) > 5 {
			return fmt.Sprintf("an action row of %d components, want 1 to 5", len(inner))
		}
		for _, x := range inner {
			c, _ := x.(map[string]any)
			if t, _ := c["type"].(float64); t != 2 {
				return fmt.Sprintf("a component of type %v in a message row, want buttons (2)", c["type"])
			}
			style, _ := c["style"].(float64)
			label, _ := c["label"].(string)
			id, hasID := c["custom_id"].(string)
			link, hasURL := c["url"].(string)
			_, hasEmoji := c["emoji"].(map[string]any)
			switch {
			case style < 1 || style > 5:
				return fmt.Sprintf("button style %v, want 1 to 5", c["style"])
			case label == "" && !hasEmoji:
				return "a button with neither a label nor an emoji"
			case utf8.RuneCountInString(label) > 80:
				return fmt.Sprintf("button label of %d characters, more than 80", utf8.RuneCountInString(label))
			case style == 5 && hasID && id != "":
				return fmt.Sprintf("a link button with a custom_id (%q): a link has a url only", id)
			case style == 5 && (!hasURL || link == ""):
				return fmt.Sprintf("a link button %q without a url", label)
			case style == 5 && len(link) > 512:
				return fmt.Sprintf("a link button's url of %d characters, more than 512", len(link))
			case style == 5 && !strings.HasPrefix(link, "https://") && !strings.HasPrefix(link, "http://") && !strings.HasPrefix(link, "discord://"):
				return fmt.Sprintf("a link button's url %q is not http, https or discord", link)
			case style == 5:
				continue
			case hasURL && link != "":
				return fmt.Sprintf("button %q of style %v with a url: only a link (style 5) has one", label, style)
			case id == "" || utf8.RuneCountInString(id) > 100:
				return fmt.Sprintf("button custom_id of %d characters, want 1 to 100", utf8.RuneCountInString(id))
			case ids[id]:
				return fmt.Sprintf("custom_id %q twice in one message", id)
			}
			ids[id] = true
		}
	}
	return ""
}

// Shown is a message as it is on screen.
type Shown struct {
	Channel string
	Content string
	Buttons []Button
}

// NewServer starts a fake Discord for app's bot token, closed when the test ends.
func NewServer(t testing.TB, app App, token string) *Server {
	s := &Server{App: app, Token: token, t: t, changed: make(chan struct{}), buckets: map[string]*bucket{},
		screen: map[string]Shown{}, interactions: map[string]*interaction{}, emojis: map[string]string{}, nextID: 1 << 40}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	s.URL = s.srv.URL
	t.Cleanup(s.srv.Close)
	return s
}

// Calls returns the calls recorded from index n on.
func (s *Server) Calls(n int) []Call {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Call(nil), s.calls[min(n, len(s.calls)):]...)
}

// Count is how many calls have been recorded.
func (s *Server) Count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.calls)
}

// Changed returns a channel closed at the next call recorded.
func (s *Server) Changed() <-chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.changed
}

// WaitFor waits up to d for a call recorded from index n on that satisfies ok.
func (s *Server) WaitFor(n int, d time.Duration, ok func(Call) bool) (Call, bool) {
	deadline := time.NewTimer(d)
	defer deadline.Stop()
	for {
		s.mu.Lock()
		for _, c := range s.calls[min(n, len(s.calls)):] {
			if ok(c) {
				s.mu.Unlock()
				return c, true
			}
		}
		n = len(s.calls)
		ch := s.changed
		s.mu.Unlock()
		select {
		case <-ch:
		case <-deadline.C:
			return Call{}, false
		}
	}
}

// Screen is what message id shows now.
func (s *Server) Screen(id string) (Shown, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	m, ok := s.screen[id]
	return m, ok
}

// Faults are the requests the fake saw that Discord would refuse and a correct bot never makes
// (a wrong token, an unknown route, a follow-up on an interaction that was never answered).
func (s *Server) Faults() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.faults...)
}

// Limited reports the 429s answered: over the global limit, and over a channel's bucket.
func (s *Server) Limited() (global, channel int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.globalHits, s.channelHits
}

// Emojis is how many application emojis exist.
func (s *Server) Emojis() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.emojis)
}

// Registrations is how many times the application's commands were registered (PUT .../commands).
func (s *Server) Registrations() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.commands
}

func (s *Server) fault(format string, args ...any) {
	s.mu.Lock()
	s.faults = append(s.faults, fmt.Sprintf(format, args...))
	s.mu.Unlock()
}

func (s *Server) record(c Call) {
	s.mu.Lock()
	s.calls = append(s.calls, c)
	close(s.changed)
	s.changed = make(chan struct{})
	s.mu.Unlock()
}

func (s *Server) id() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.nextID++
	return strconv.FormatInt(s.nextID, 10)
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// limited answers 429 with Discord's headers and body.
func limited(w http.ResponseWriter, after time.Duration, global bool) {
	secs := fmt.Sprintf("%.3f", after.Seconds())
	w.Header().Set("Retry-After", secs)
	w.Header().Set("X-RateLimit-Reset-After", secs)
	if global {
		w.Header().Set("X-RateLimit-Global", "true")
		w.Header().Set("X-RateLimit-Scope", "global")
	} else {
		w.Header().Set("X-RateLimit-Scope", "shared")
	}
	writeJSON(w, http.StatusTooManyRequests, map[string]any{"message": "You are being rate limited.", "retry_after": after.Seconds(), "global": global})
}

// countsGlobally reports whether a request (path parts without /api/v9) counts against the bot's
// global limit: everything but interaction callbacks and interaction webhooks.
func countsGlobally(parts []string) bool {
	return parts[0] != "interactions" && parts[0] != "webhooks"
}

// spendGlobal takes one request of the bot's global limit, or says how long to wait.
func (s *Server) spendGlobal(now time.Time) (time.Duration, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if now.Sub(s.globalStart) >= time.Second {
		s.globalStart, s.globalUsed = now, 0
	}
	if s.globalUsed >= GlobalPerSecond {
		s.globalHits++
		return time.Second - now.Sub(s.globalStart), false
	}
	s.globalUsed++
	return 0, true
}

// spendChannel takes one message write of channel's bucket, or reports how long to wait.
func (s *Server) spendChannel(channel string, now time.Time) (remaining int, after time.Duration, ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	b := s.buckets[channel]
	if b == nil || now.Sub(b.start) >= ChannelWindow {
		b = &bucket{start: now}
		s.buckets[channel] = b
	}
	after = ChannelWindow - now.Sub(b.start)
	if b.used >= ChannelWrites {
		s.channelHits++
		return 0, after, false
	}
	b.used++
	return ChannelWrites - b.used, after, true
}

// Upload is a file sent in a multipart request.
type Upload struct {
	Name string
	Data []byte
}

// ReadBody reads a request's body as Discord takes it: JSON, or a multipart message whose JSON is
// the payload_json part and whose files are the other parts, in order.
func ReadBody(r *http.Request) (raw []byte, files []Upload) {
	mt, params, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if mt != "multipart/form-data" {
		raw, _ = io.ReadAll(r.Body)
		return raw, nil
	}
	mr := multipart.NewReader(r.Body, params["boundary"])
	for {
		part, err := mr.NextPart()
		if err != nil {
			return raw, files
		}
		data, _ := io.ReadAll(part)
		if part.FormName() == "payload_json" {
			raw = data
		} else {
			files = append(files, Upload{Name: part.FileName(), Data: data})
		}
	}
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	path, ok := strings.CutPrefix(r.URL.Path, "/api/v9")
	if !ok || path == "" {
		s.fault("%s %s: not Discord's API", r.Method, r.URL.Path)
		writeJSON(w, http.StatusNotFound, map[string]any{"code": 0, "message": "404: Not Found"})
		return
	}
	raw, uploads := ReadBody(r)
	var files []string
	for _, u := range uploads {
		files = append(files, u.Name)
	}
	c := Call{Method: r.Method, Path: path, Raw: string(raw), Files: files, At: time.Now()}
	parts := strings.Split(strings.Trim(path, "/"), "/")
	if len(raw) > 0 {
		var v any
		if err := json.Unmarshal(raw, &v); err != nil {
			s.fault("%s %s: the body is not JSON: %v", r.Method, path, err)
		}
		c.Body, _ = v.(map[string]any)
	}
	answer := func(status int, v any) {
		c.Status = status
		s.record(c)
		if v == nil {
			w.WriteHeader(status)
			return
		}
		writeJSON(w, status, v)
	}
	if r.Header.Get("Authorization") != "Bot "+s.Token {
		s.fault("%s %s: Authorization %q, not the bot's token", r.Method, path, r.Header.Get("Authorization"))
		answer(http.StatusUnauthorized, map[string]any{"code": 0, "message": "401: Unauthorized"})
		return
	}
	now := time.Now()
	if countsGlobally(parts) {
		c.Global = true
		if after, ok := s.spendGlobal(now); !ok {
			c.Status = http.StatusTooManyRequests
			s.record(c)
			limited(w, after, true)
			return
		}
	}
	if parts[0] == "channels" && len(parts) >= 3 && parts[2] == "messages" && r.Method != "GET" {
		remaining, after, ok := s.spendChannel(parts[1], now)
		w.Header().Set("X-RateLimit-Limit", strconv.Itoa(ChannelWrites))
		w.Header().Set("X-RateLimit-Remaining", strconv.Itoa(remaining))
		w.Header().Set("X-RateLimit-Reset-After", fmt.Sprintf("%.3f", after.Seconds()))
		w.Header().Set("X-RateLimit-Bucket", "channel-"+parts[1])
		if !ok {
			c.Status = http.StatusTooManyRequests
			s.record(c)
			limited(w, after, false)
			return
		}
	}
	switch {
	case parts[0] == "applications" && len(parts) >= 3 && parts[len(parts)-1] == "commands" && r.Method == "PUT":
		if parts[1] != s.App.ID {
			s.fault("commands registered for application %s, not %s", parts[1], s.App.ID)
		}
		var cmds []any
		if err := json.Unmarshal(raw, &cmds); err != nil {
			s.fault("commands: the body is not a JSON array: %v", err)
		}
		s.mu.Lock()
		s.commands++
		s.mu.Unlock()
		c.Status = http.StatusOK
		s.record(c)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusOK)
		w.Write(raw)
	case parts[0] == "applications" && len(parts) >= 3 && parts[2] == "emojis":
		status, v := s.emoji(r.Method, parts, c)
		answer(status, v)
	case r.Method == "POST" && path == "/users/@me/channels":
		user, _ := c.Body["recipient_id"].(string)
		answer(http.StatusOK, map[string]any{"id": "dm" + user, "type": 1})
	case parts[0] == "channels" && len(parts) >= 3 && parts[2] == "messages" && r.Method != "GET" && r.Method != "DELETE" && CheckComponents(c.data()) != "":
		// Discord refuses a message whose components break its rules (50035, Invalid Form Body).
		why := CheckComponents(c.data())
		s.fault("%s %s: %s", r.Method, path, why)
		answer(http.StatusBadRequest, map[string]any{"code": 50035, "message": "Invalid Form Body: " + why})
	case parts[0] == "webhooks" && len(parts) >= 3 && (r.Method == "POST" || r.Method == "PATCH") && CheckComponents(c.data()) != "":
		why := CheckComponents(c.data())
		s.fault("%s %s: %s", r.Method, path, why)
		answer(http.StatusBadRequest, map[string]any{"code": 50035, "message": "Invalid Form Body: " + why})
	case parts[0] == "channels" && len(parts) == 3 && parts[2] == "messages" && r.Method == "POST":
		nonce, _ := c.Body["nonce"].(string)
		enforce, _ := c.Body["enforce_nonce"].(bool)
		if len(nonce) > 25 {
			s.fault("POST %s: nonce %q is longer than 25 characters", path, nonce)
			answer(http.StatusBadRequest, map[string]any{"code": 50035, "message": "Invalid Form Body: nonce"})
			return
		}
		c.ID = s.id()
		if enforce && nonce != "" {
			// One step under the lock, as on Discord: two creates with one nonce make one message.
			s.mu.Lock()
			prev, seen := s.nonces[parts[1]+"/"+nonce]
			if !seen || now.Sub(prev.at) >= NonceWindow {
				if s.nonces == nil {
					s.nonces = map[string]nonced{}
				}
				s.nonces[parts[1]+"/"+nonce] = nonced{id: c.ID, at: now}
			}
			s.mu.Unlock()
			if seen && now.Sub(prev.at) < NonceWindow {
				// The message created with this nonce is returned; none is created.
				c.ID = prev.id
				answer(http.StatusOK, map[string]any{"id": prev.id, "channel_id": parts[1], "content": c.Content(), "nonce": nonce})
				return
			}
		}
		s.show(c.ID, parts[1], c.data())
		answer(http.StatusOK, map[string]any{"id": c.ID, "channel_id": parts[1], "content": c.Content()})
	case parts[0] == "channels" && len(parts) == 4 && parts[2] == "messages" && r.Method == "PATCH":
		s.show(parts[3], parts[1], c.data())
		answer(http.StatusOK, map[string]any{"id": parts[3], "channel_id": parts[1], "content": c.Content()})
	case parts[0] == "channels" && len(parts) == 4 && parts[2] == "messages" && r.Method == "DELETE":
		s.mu.Lock()
		delete(s.screen, parts[3])
		s.mu.Unlock()
		answer(http.StatusNoContent, nil)
	case parts[0] == "webhooks" && len(parts) >= 3:
		s.webhook(r.Method, parts, c, answer)
	case parts[0] == "interactions" && len(parts) == 4 && parts[3] == "callback":
		// Interactions sent to an Interactions Endpoint are answered in the response body.
		s.fault("a REST callback for interaction %s, which came to an Interactions Endpoint: the answer belongs in the response body", parts[2])
		answer(http.StatusBadRequest, map[string]any{"code": 40060, "message": "Interaction has already been acknowledged."})
	default:
		s.fault("unexpected request %s %s", r.Method, path)
		answer(http.StatusNotFound, map[string]any{"code": 10000, "message": "Unknown"})
	}
}

// show keeps what message id in channel shows after a write with message data d (content and
// components; a write without components keeps the buttons).
func (s *Server) show(id, channel string, d map[string]any) {
	s.mu.Lock()
	defer s.mu.Unlock()
	m := s.screen[id]
	m.Channel = channel
	if v, ok := d["content"].(string); ok {
		m.Content = v
	}
	if _, ok := d["components"]; ok {
		m.Buttons = Buttons(d)
	}
	s.screen[id] = m
}

// webhook answers an interaction webhook: a follow-up (POST /webhooks/APP/TOKEN) or an edit of the
// response (PATCH .../messages/@original). A token becomes a webhook once its interaction is
// answered: a request before that is refused as Discord refuses it (10015), after waiting a moment in
// case the test's client is still reading the answer the process wrote first.
func (s *Server) webhook(method string, parts []string, c Call, answer func(int, any)) {
	token := parts[2]
	s.mu.Lock()
	in := s.interactions[token]
	s.mu.Unlock()
	if parts[1] != s.App.ID || in == nil {
		s.fault("%s %s: no interaction of this application has this token", method, c.Path)
		answer(http.StatusNotFound, map[string]any{"code": 10015, "message": "Unknown Webhook"})
		return
	}
	select {
	case <-in.answered:
	case <-time.After(time.Second):
		answer(http.StatusNotFound, map[string]any{"code": 10015, "message": "Unknown Webhook"})
		return
	}
	if time.Since(in.at) > 15*time.Minute {
		answer(http.StatusUnauthorized, map[string]any{"code": 50027, "message": "Invalid Webhook Token"})
		return
	}
	switch {
	case method == "POST" && len(parts) == 3:
		c.ID = s.id()
		answer(http.StatusOK, map[string]any{"id": c.ID, "content": c.Content(), "flags": c.Flags()})
	case method == "PATCH" && len(parts) == 5 && parts[3] == "messages" && parts[4] == "@original":
		s.mu.Lock()
		first := in.first
		s.mu.Unlock()
		if first == 6 && in.message != "" {
			// A click acknowledged as an update of its message: the edit is the message's.
			m, _ := s.Screen(in.message)
			s.show(in.message, m.Channel, c.data())
		}
		answer(http.StatusOK, map[string]any{"id": in.message, "content": c.Content()})
	default:
		s.fault("unexpected webhook request %s %s", method, c.Path)
		answer(http.StatusNotFound, map[string]any{"code": 10000, "message": "Unknown"})
	}
}

// emoji answers the application emoji endpoints: list, create (a name must be new: Discord refuses
// a second emoji of the same name) and delete.
func (s *Server) emoji(method string, parts []string, c Call) (int, any) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case method == "GET" && len(parts) == 3:
		items := []map[string]any{}
		for name, id := range s.emojis {
			items = append(items, map[string]any{"id": id, "name": name, "available": true})
		}
		return http.StatusOK, map[string]any{"items": items}
	case method == "POST" && len(parts) == 3:
		name, _ := c.Body["name"].(string)
		if _, ok := s.emojis[name]; ok {
			return http.StatusBadRequest, map[string]any{"code": 50035, "message": "Invalid Form Body: name: an emoji with this name already exists"}
		}
		s.nextID++
		id := strconv.FormatInt(s.nextID, 10)
		s.emojis[name] = id
		return http.StatusCreated, map[string]any{"id": id, "name": name, "available": true}
	case method == "DELETE" && len(parts) == 4:
		for name, id := range s.emojis {
			if id == parts[3] {
				delete(s.emojis, name)
				return http.StatusNoContent, nil
			}
		}
		return http.StatusNotFound, map[string]any{"code": 10014, "message": "Unknown Emoji"}
	}
	s.faults = append(s.faults, "unexpected emoji request "+method+" "+c.Path)
	return http.StatusNotFound, map[string]any{"code": 10000, "message": "Unknown"}
}

// App is a Discord application as Discord knows it: its ID and the key it signs interactions with.
type App struct {
	ID  string
	key ed25519.PrivateKey
}

// NewApp is the application id with a signing key derived from its ID (the same in every run).
func NewApp(id string) App {
	seed := sha256.Sum256([]byte("discordtest " + id))
	return App{ID: id, key: ed25519.NewKeyFromSeed(seed[:])}
}

// PublicKey is the application's public key in hex, for DISCORD_PUBLIC_KEY.
func (a App) PublicKey() string { return hex.EncodeToString(a.key.Public().(ed25519.PublicKey)) }

// Sign returns the headers Discord sends with body at time at: the Ed25519 signature of the
// timestamp (Unix seconds) followed by the body, in hex.
func (a App) Sign(body []byte, at time.Time) http.Header {
	stamp := strconv.FormatInt(at.Unix(), 10)
	h := http.Header{}
	h.Set("Content-Type", "application/json")
	h.Set("User-Agent", "Discord-Interactions/1.0 (+https://discord.com)")
	h.Set("X-Signature-Ed25519", hex.EncodeToString(ed25519.Sign(a.key, append([]byte(stamp), body...))))
	h.Set("X-Signature-Timestamp", stamp)
	return h
}

// User is a member of a server.
type User struct{ ID, Name string }

// Interaction is an interaction as Discord sends it, signed: the same one may be delivered to
// several processes (a load balancer's retry), as the same bytes.
type Interaction struct {
	ID, Token string
	Message   string // the message a component or form was on, if any
	Body      []byte
	header    http.Header
}

// Interaction types and component types of the payloads.
const (
	TypeCommand   = 2
	TypeComponent = 3
	TypeSubmit    = 5
)

// NewInteraction makes an interaction of type typ from u in guild's channel, on message msg ("" for
// none), with data; the fake follows its token from then on.
func (s *Server) NewInteraction(typ int, guild, channel string, u User, msg string, data map[string]any) Interaction {
	id := s.id()
	token := "itok" + id
	ev := map[string]any{
		"id": id, "application_id": s.App.ID, "type": typ, "token": token, "version": 1,
		"guild_id": guild, "channel_id": channel,
		"member": map[string]any{"user": map[string]any{"id": u.ID, "username": u.Name}, "nick": nil, "permissions": "0"},
		"data":   data,
	}
	if msg != "" {
		ev["message"] = map[string]any{"id": msg, "channel_id": channel, "flags": 0}
	}
	body, err := json.Marshal(ev)
	if err != nil {
		s.t.Fatalf("interaction payload: %v", err)
	}
	now := time.Now()
	s.mu.Lock()
	s.interactions[token] = &interaction{message: msg, answered: make(chan struct{}), at: now}
	s.mu.Unlock()
	return Interaction{ID: id, Token: token, Message: msg, Body: body, header: s.App.Sign(body, now)}
}

// Option is a slash command option: name, Discord's option type, value.
type Option struct {
	Name  string
	Type  int // 3 string, 4 integer, 6 user
	Value any
}

// Slash is the data of /name sub with options.
func Slash(name, sub string, opts ...Option) map[string]any {
	os := []any{}
	for _, o := range opts {
		os = append(os, map[string]any{"name": o.Name, "type": o.Type, "value": o.Value})
	}
	return map[string]any{"id": "3000", "name": name, "type": 1,
		"options": []any{map[string]any{"name": sub, "type": 1, "options": os}}}
}

// Click is the data of a click on the button customID.
func Click(customID string) map[string]any {
	return map[string]any{"custom_id": customID, "component_type": 2}
}

// Submit is the data of a form submitted with one text input, input, holding value.
func Submit(formID, input, value string) map[string]any {
	return map[string]any{"custom_id": formID, "components": []any{
		map[string]any{"type": 1, "components": []any{map[string]any{"type": 4, "custom_id": input, "value": value}}},
	}}
}

// Answer is what a process answered an interaction with.
type Answer struct {
	Call          // the answer as the callback it stands for (Status 0 when none came)
	Err     error // no answer: the connection failed, or none within AnswerWithin
	Took    time.Duration
	FormID  string // a form's custom_id (type 9)
	Ignored bool   // a later answer to an interaction already answered: Discord ignores it
}

// Deliver POSTs in to the Interactions Endpoint at url as Discord does and reads the answer,
// waiting at most AnswerWithin. The first answer to an interaction is its response: it is
// recorded, and an update (type 7) changes the message the component was on.
func (s *Server) Deliver(ctx context.Context, url string, in Interaction) Answer {
	ctx, cancel := context.WithTimeout(ctx, AnswerWithin)
	defer cancel()
	began := time.Now()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(in.Body))
	if err != nil {
		return Answer{Err: err}
	}
	req.Header = in.header.Clone()
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return Answer{Err: err, Took: time.Since(began)}
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	a := Answer{Call: Call{Method: "POST", Path: "/interactions/" + in.ID + "/" + in.Token + "/callback", Raw: string(raw),
		At: time.Now(), Status: res.StatusCode, HTTP: true}, Took: time.Since(began)}
	if err != nil {
		a.Err = err
		return a
	}
	if res.StatusCode != http.StatusOK {
		a.Err = fmt.Errorf("the endpoint answered %s: %s", res.Status, bytes.TrimSpace(raw))
		return a
	}
	if err := json.Unmarshal(raw, &a.Body); err != nil || a.Body == nil {
		a.Err = fmt.Errorf("the endpoint's answer is not a JSON object: %s", raw)
		return a
	}
	if a.Type() == 9 {
		a.FormID, _ = a.data()["custom_id"].(string)
	}
	if t := a.Type(); t == 4 || t == 7 {
		if why := CheckComponents(a.data()); why != "" {
			// Discord refuses the answer; the interaction fails on the player's screen.
			s.fault("the answer to interaction %s: %s", in.ID, why)
			a.Err = fmt.Errorf("Discord refuses the answer: %s", why)
			return a
		}
	}
	s.mu.Lock()
	st := s.interactions[in.Token]
	first := st != nil && st.first == 0
	if first {
		st.first = a.Type()
	}
	s.mu.Unlock()
	a.Ignored = !first
	if first {
		if a.Type() == 7 && in.Message != "" {
			m, _ := s.Screen(in.Message)
			s.show(in.Message, m.Channel, a.data())
		}
		close(st.answered)
		s.record(a.Call)
	}
	return a
}
