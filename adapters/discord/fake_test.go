package discord

import (
	"bytes"
	"crypto/ed25519"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"image/png"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/dealerbot/dealerbot/adapters/discord/discordtest"
)

// fakeDiscord is an offline Discord: an httptest server answering the REST calls the adapter makes
// (reached through Session.Client, whose transport rewrites https://discord.com to it) and a gateway
// websocket that says HELLO, reads IDENTIFY, says READY, answers heartbeats and delivers interactions.
// Every REST call is recorded.
//
// It enforces what the real platform does under load (../shared/INTEGRATION.md): each channel allows
// postPerWindow message writes (posts, edits, deletes) per window and answers more with 429 and
// retry_after; an interaction must be answered within 3 s, once; content over 2000 characters and
// more than 5 rows of 5 buttons are refused with 400. It keeps what each message shows now.
//
// With an Interactions Endpoint set (useEndpoint), interactions are not sent over the gateway but
// POSTed to the endpoint, signed with the application's key as Discord signs them, and the answer in
// the response body is the interaction's first response, held to the same rules as a callback.
type fakeDiscord struct {
	t     testing.TB
	srv   *httptest.Server
	appID string

	mu        sync.Mutex
	calls     []call
	changed   chan struct{} // closed and replaced whenever something is recorded
	blocked   map[string]bool
	nextID    int
	identify  map[string]any
	heartbeat int

	limits  bool          // enforce the rate limits (on unless a test turns them off)
	window  time.Duration // the channel bucket's window: 5 s as on Discord
	buckets map[string]*bucket
	limited int // channel-bucket 429s answered
	// Every other route has a bucket per route and top-level resource (routeKey): routeLimit
	// requests per routeWindow.
	routes       map[string]*bucket
	routeWindow  time.Duration
	routeLimited int                  // per-route 429s answered
	asked        map[string]time.Time // interaction token -> when it was sent
	kinds        map[string]int       // interaction token -> its interaction type (2 command, 3 component, 5 modal)
	now          func() time.Time     // the fake's clock for interaction deadlines and token expiry
	acked        map[string]bool      // interaction token -> answered
	onMsg        map[string]string    // interaction token -> the message its component was on
	screen       map[string]shown     // message ID -> what it shows now
	nonces       map[string]struct {  // channel/nonce -> the message created with it (enforce_nonce)
		id string
		at time.Time
	}
	who      map[string]asker // interaction token -> who sent the interaction, from which channel
	deferred map[string]bool  // interaction token -> answered "thinking…" (type 5), not yet edited
	gone     map[string]bool  // channels deleted since the bot learnt of them: a message there is 404 10003
	observe  func(c call)     // when set, called with every call as it is recorded (f.mu not held)

	// The application's emojis, by ID. emojiRefusal, when set, answers every upload with it (403
	// for a missing permission, 429 for a rate limit); emojiLimit, when above 0, allows that many
	// uploads per emojiWait window and answers more with 429.
	emojis       map[string]fakeEmoji
	emojiRefusal int
	emojiLimit   int
	emojiWait    time.Duration
	emojiMade    int // uploads in the current window
	// emojiRace, when set, runs (under f.mu) before the first upload is judged: another process
	// uploading the same emojis at that moment.
	emojiRace   func()
	emojiWindow time.Time       // when the current window opened
	refuseFiles bool            // answer messages with files with 413, as Discord does a file too large
	noAttach    map[string]bool // channels where the bot lacks Attach Files: a message with files is 403 50013
	noSend      map[string]bool // channels where the bot lacks Send Messages: any message write is 403 50013
	notIn       map[string]bool // servers the bot was not added to: registering commands there is 403 50001
	frozen      map[string]bool // messages too old to edit again: an edit is 400 30046
	latency     time.Duration   // every REST request is answered this late (a slow network or service)
	globalUntil time.Time       // channel message writes are refused with a global 429 until then
	globalStart time.Time       // the current second of the global limit (50 requests a second)
	globalUsed  int
	globalHits  int          // global 429s answered by the limit
	expired     []string     // interaction tokens answered too late (10062)
	servers     []fakeServer // the servers the bot is in, for the health check
	portalURL   string       // the Interactions Endpoint URL saved on the Developer Portal ("" for none)

	ep         *endpoint                // where interactions are POSTed instead of the gateway, if set
	pending    map[string]chan struct{} // interaction token -> closed once the endpoint's answer is read
	gatewayUse int                      // requests for the gateway's URL and websocket dials

	wmu  sync.Mutex // serialises gateway writes
	gw   *websocket.Conn
	seq  int
	open chan struct{} // closed once READY has been sent
	once sync.Once
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
	At     time.Time         // when the fake received it
	// HTTP marks an interaction's first response read from the endpoint's response body; it is
	// recorded as the callback it stands for (POST /interactions/ID/TOKEN/callback).
	HTTP bool
	// Refused marks a request the fake recorded and refused: a follow-up or edit whose interaction
	// token has expired or is not yet a webhook, or one over the global or a route's limit.
	Refused bool
	// Again marks a message create with enforce_nonce and a nonce the bot used in the channel in the
	// past few minutes: Discord answers with that message and creates none.
	Again bool
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
	for _, x := range discordtest.Buttons(b) {
		out = append(out, button{id: x.CustomID, label: x.Label})
	}
	return out
}

type button struct{ id, label string }

// shown is a message as it is on screen.
type shown struct {
	content string
	buttons []button
	files   []attachment
}

// attachment is a file shown with a message: its name, alt text and bytes.
type attachment struct {
	name, alt string
	data      []byte
}

// fakeEmoji is one of the application's emojis.
type fakeEmoji struct {
	id, name string
	png      []byte
}

// validEmojiName is what Discord takes as an emoji name.
var validEmojiName = regexp.MustCompile(`^[A-Za-z0-9_]{2,32}$`)

// maxAppEmojis is how many emojis an application may own.
const maxAppEmojis = 2000

// bucket is one channel's message-write budget: a fixed window opened by its first write.
type bucket struct {
	start time.Time
	used  int
}

// The channel bucket: 5 writes per 5 s.
const postPerWindow = 5

// rateLimit spends one write of channel's budget, or reports how long to wait.
func (f *fakeDiscord) rateLimit(channel string, now time.Time) (remaining int, resetAfter time.Duration, ok bool) {
	return f.spend(f.buckets, channel, postPerWindow, f.window, &f.limited, now)
}

// spend takes one request from the fixed-window bucket key of m (limit per window, the window opened
// by its first request), or reports how long to wait and counts the refusal in refused.
func (f *fakeDiscord) spend(m map[string]*bucket, key string, limit int, window time.Duration, refused *int, now time.Time) (remaining int, resetAfter time.Duration, ok bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	b := m[key]
	if b == nil || now.Sub(b.start) >= window {
		b = &bucket{start: now}
		m[key] = b
	}
	resetAfter = window - now.Sub(b.start)
	if b.used >= limit && f.limits {
		*refused++
		return 0, resetAfter, false
	}
	b.used++
	return max(limit-b.used, 0), resetAfter, true
}

// routeLimit is how many requests a route's bucket allows per routeWindow. Discord publishes no
// figures ("rate limits should not be hard coded": a client must read the X-RateLimit headers), so
// the fake gives every route a tight bucket of its own and the headers that describe it.
const routeLimit = 5

// routeKey is the per-route bucket a request counts against (docs.discord.com, Topics > Rate
// Limits): the method and the route, with the top-level resource's ID kept (a channel, a guild, a
// webhook with its token) and every other ID replaced, so /channels/1 and /channels/2 have buckets
// of their own while two messages of one channel share one. ok is false for requests limited
// otherwise: channel message writes (the channel bucket), interaction callbacks (free of the
// limits) and emoji uploads (emojiLimit).
func routeKey(method string, parts []string) (key string, ok bool) {
	switch {
	case parts[0] == "interactions":
		return "", false
	case parts[0] == "applications" && len(parts) >= 3 && parts[2] == "emojis":
		return "", false
	case parts[0] == "channels" && len(parts) >= 3 && parts[2] == "messages" && method != "GET":
		return "", false
	}
	top := 0
	switch parts[0] {
	case "channels", "guilds":
		top = 1
	case "webhooks":
		top = 2 // the webhook ID and its token
	}
	var b strings.Builder
	b.WriteString(method)
	for i, p := range parts {
		b.WriteString("/")
		if i > top && p != "" && strings.Trim(p, "0123456789") == "" {
			p = ":id"
		}
		b.WriteString(p)
	}
	return b.String(), true
}

// routeBucket spends one request of a route's bucket, or reports how long to wait.
func (f *fakeDiscord) routeBucket(key string, now time.Time) (remaining int, resetAfter time.Duration, ok bool) {
	return f.spend(f.routes, key, routeLimit, f.routeWindow, &f.routeLimited, now)
}

// knobs is the refusal a test asked for, as Discord answers it: a missing permission (Attach Files,
// 50013), a file too large (40005), a message too old to edit (30046), a server the bot is not in
// (50001). status is 0 when the request goes through.
func (f *fakeDiscord) knobs(method string, parts []string, files bool) (status, code int, msg string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	switch {
	case parts[0] == "channels" && len(parts) >= 3 && parts[2] == "messages" && method != "GET" && f.noSend[parts[1]]:
		return http.StatusForbidden, 50013, "Missing Permissions"
	case files && len(parts) > 1 && f.noAttach[parts[1]]:
		return http.StatusForbidden, 50013, "Missing Permissions"
	case files && f.refuseFiles:
		return http.StatusRequestEntityTooLarge, 40005, "Request entity too large"
	case parts[0] == "channels" && len(parts) >= 2 && f.gone[parts[1]]:
		return http.StatusNotFound, 10003, "Unknown Channel"
	case method == "PATCH" && len(parts) == 4 && parts[0] == "channels" && f.frozen[parts[3]]:
		return http.StatusBadRequest, 30046, "Maximum number of edits to messages older than 1 hour reached. Try again later"
	case len(parts) >= 4 && parts[0] == "applications" && parts[2] == "guilds" && f.notIn[parts[3]]:
		return http.StatusForbidden, 50001, "Missing Access"
	}
	return 0, 0, ""
}

// refusal is why Discord would refuse a request body (spec_test.go), or "".
func (f *fakeDiscord) refusal(method string, parts []string, c call) string {
	if strings.TrimSpace(c.Raw) != "" {
		if why := checkSchema(method, parts, c.Raw); why != "" {
			return why
		}
	}
	switch {
	case method == "PUT" && parts[0] == "applications" && parts[len(parts)-1] == "commands":
		return checkCommands([]byte(c.Raw))
	case method == "POST" && parts[0] == "interactions" && len(parts) == 4:
		f.mu.Lock()
		kind := f.kinds[parts[2]]
		f.mu.Unlock()
		return checkCallback(kind, c.Body)
	case (method == "POST" || method == "PATCH") && (parts[0] == "webhooks" || parts[0] == "channels" && len(parts) >= 3 && parts[2] == "messages"):
		return checkMessage(c.Body)
	}
	return ""
}

const dmPrefix = "dm-" // DM channel IDs are dm-<user>

func newFakeDiscord(t testing.TB, appID string) *fakeDiscord {
	f := &fakeDiscord{t: t, appID: appID, changed: make(chan struct{}), blocked: map[string]bool{}, open: make(chan struct{}),
		limits: true, window: 5 * time.Second, buckets: map[string]*bucket{}, routes: map[string]*bucket{}, routeWindow: time.Second, asked: map[string]time.Time{},
		acked: map[string]bool{}, onMsg: map[string]string{}, screen: map[string]shown{}, emojis: map[string]fakeEmoji{},
		kinds: map[string]int{}, now: time.Now, pending: map[string]chan struct{}{}, who: map[string]asker{}, deferred: map[string]bool{},
		gone: map[string]bool{}}
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
	observe := f.observe
	f.mu.Unlock()
	if observe != nil {
		observe(c)
	}
}

// asker is who sent an interaction, and from which channel.
type asker struct{ user, channel string }

// track follows the state of an interaction's original response: a deferral (type 5) shows
// "thinking…" until the response is edited. Discord turns a follow-up sent in that state into the
// edit of the "thinking…" message, ignoring its ephemeral flag ("Create Followup Message", kept for
// backwards compatibility): the adapter must never rely on that, so the fake fails the test.
func (f *fakeDiscord) track(c call, parts []string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	switch {
	case c.Method == "POST" && parts[0] == "interactions" && len(parts) == 4 && c.Body["type"] == 5.0:
		f.deferred[parts[2]] = true
	case c.Method == "PATCH" && parts[0] == "webhooks" && len(parts) == 5 && parts[4] == "@original":
		delete(f.deferred, parts[2])
	case c.Method == "POST" && parts[0] == "webhooks" && len(parts) == 3 && f.deferred[parts[2]]:
		f.t.Errorf("fake Discord: a follow-up on %s before its deferred response was edited: Discord makes it the edit of the "+
			"\"thinking…\" message, not an ephemeral message of its own", parts[2])
	}
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
	if strings.HasPrefix(r.URL.Path, "/ws") || r.URL.Path == "/api/v9/gateway" {
		f.mu.Lock()
		f.gatewayUse++
		f.mu.Unlock()
	}
	if strings.HasPrefix(r.URL.Path, "/ws") {
		f.serveGateway(w, r)
		return
	}
	path, ok := strings.CutPrefix(r.URL.Path, "/api/v9")
	if !ok {
		http.NotFound(w, r)
		return
	}
	f.mu.Lock()
	slow := f.latency
	f.mu.Unlock()
	time.Sleep(slow)
	if r.Header.Get("Authorization") != "Bot test-token" {
		writeJSON(w, http.StatusUnauthorized, map[string]any{"code": 0, "message": "401: Unauthorized"})
		return
	}
	raw, uploads := discordtest.ReadBody(r)
	var files map[string]string // a message with attachments: its files by name
	for _, u := range uploads {
		if files == nil {
			files = map[string]string{}
		}
		files[u.Name] = string(u.Data)
	}
	c := call{Method: r.Method, Path: path, Query: r.URL.Query(), Raw: string(raw), Files: files, At: time.Now()}
	parts := strings.Split(strings.Trim(path, "/"), "/")
	if status, code, msg := f.knobs(r.Method, parts, len(files) > 0); status != 0 {
		f.record(c)
		writeJSON(w, status, map[string]any{"code": code, "message": msg})
		return
	}
	if len(raw) > 0 {
		var v any
		if err := json.Unmarshal(raw, &v); err != nil {
			f.t.Errorf("%s %s: body is not JSON: %v", r.Method, path, err)
		}
		c.Body, _ = v.(map[string]any)
	}
	if r.Method == "POST" && (parts[0] == "webhooks" || parts[0] == "channels") {
		c.ID = f.id()
	}
	if why := f.refusal(r.Method, parts, c); why != "" {
		f.record(c)
		f.t.Errorf("fake Discord: %s refused: %s", c, why)
		writeJSON(w, http.StatusBadRequest, map[string]any{"code": 50035, "message": "Invalid Form Body: " + why})
		return
	}
	f.mu.Lock()
	global := time.Until(f.globalUntil)
	if parts[0] != "interactions" && parts[0] != "webhooks" && f.limits { // interaction responses do not count toward it
		now := time.Now()
		if now.Sub(f.globalStart) >= time.Second {
			f.globalStart, f.globalUsed = now, 0
		}
		f.globalUsed++
		if f.globalUsed > 50 {
			f.globalHits++
			f.mu.Unlock()
			c.Refused = true
			f.record(c)
			after := time.Second - now.Sub(f.globalStart)
			w.Header().Set("X-RateLimit-Global", "true")
			w.Header().Set("X-RateLimit-Scope", "global")
			w.Header().Set("X-RateLimit-Reset-After", fmt.Sprintf("%.3f", after.Seconds()))
			w.Header().Set("Retry-After", fmt.Sprintf("%.3f", after.Seconds()))
			writeJSON(w, http.StatusTooManyRequests, map[string]any{"message": "You are being rate limited.", "retry_after": after.Seconds(), "global": true})
			return
		}
	}
	f.mu.Unlock()
	if parts[0] == "channels" && len(parts) >= 3 && parts[2] == "messages" && r.Method != "GET" && global > 0 {
		// The bot's global limit: discordgo then holds every request of its own until it passes.
		c.Refused = true
		f.record(c)
		w.Header().Set("X-RateLimit-Global", "true")
		w.Header().Set("X-RateLimit-Reset-After", fmt.Sprintf("%.3f", global.Seconds()))
		w.Header().Set("Retry-After", fmt.Sprintf("%.3f", global.Seconds()))
		writeJSON(w, http.StatusTooManyRequests, map[string]any{"message": "You are being rate limited.", "retry_after": global.Seconds(), "global": true})
		return
	}
	if parts[0] == "channels" && len(parts) >= 3 && parts[2] == "messages" && r.Method != "GET" {
		remaining, after, ok := f.rateLimit(parts[1], time.Now())
		secs := fmt.Sprintf("%.3f", after.Seconds())
		w.Header().Set("X-RateLimit-Limit", fmt.Sprint(postPerWindow))
		w.Header().Set("X-RateLimit-Remaining", fmt.Sprint(remaining))
		w.Header().Set("X-RateLimit-Reset-After", secs)
		w.Header().Set("X-RateLimit-Bucket", "channel-"+parts[1])
		if !ok {
			w.Header().Set("Retry-After", secs)
			w.Header().Set("X-RateLimit-Scope", "shared")
			writeJSON(w, http.StatusTooManyRequests, map[string]any{"message": "You are being rate limited.", "retry_after": after.Seconds(), "global": false})
			return
		}
	}
	if key, ok := routeKey(r.Method, parts); ok {
		remaining, after, ok := f.routeBucket(key, time.Now())
		secs := fmt.Sprintf("%.3f", after.Seconds())
		w.Header().Set("X-RateLimit-Limit", fmt.Sprint(routeLimit))
		w.Header().Set("X-RateLimit-Remaining", fmt.Sprint(remaining))
		w.Header().Set("X-RateLimit-Reset-After", secs)
		w.Header().Set("X-RateLimit-Bucket", fmt.Sprintf("route-%x", key))
		if !ok {
			c.Refused = true
			f.record(c)
			w.Header().Set("Retry-After", secs)
			w.Header().Set("X-RateLimit-Scope", "user")
			writeJSON(w, http.StatusTooManyRequests, map[string]any{"message": "You are being rate limited.", "retry_after": after.Seconds(), "global": false})
			return
		}
	}
	if parts[0] == "webhooks" && len(parts) >= 3 {
		f.mu.Lock()
		sent, known := f.asked[parts[2]]
		reading := f.pending[parts[2]]
		f.mu.Unlock()
		if reading != nil {
			// The bot wrote its answer in the response body before it sent this request, so Discord has
			// it; the fake's client may still be reading it. A request that came first waits in vain.
			select {
			case <-reading:
			case <-time.After(time.Second):
			}
		}
		if known && f.now().Sub(sent) > 15*time.Minute {
			// An interaction token lives 15 minutes; after that its follow-ups and edits are refused.
			c.Refused = true
			f.record(c)
			writeJSON(w, http.StatusUnauthorized, map[string]any{"code": 50027, "message": "Invalid Webhook Token"})
			return
		}
		if known && !f.answered(parts[2]) {
			// The token becomes a webhook only once the interaction is answered.
			c.Refused = true
			f.record(c)
			writeJSON(w, http.StatusNotFound, map[string]any{"code": 10015, "message": "Unknown Webhook"})
			return
		}
	}
	if r.Method == "POST" && parts[0] == "interactions" && len(parts) == 4 && parts[3] == "callback" {
		f.mu.Lock()
		sent, known := f.asked[parts[2]]
		again := f.acked[parts[2]]
		f.acked[parts[2]] = true
		f.mu.Unlock()
		switch {
		case !known || f.now().Sub(sent) > 3*time.Second:
			f.mu.Lock()
			f.expired = append(f.expired, parts[2])
			f.mu.Unlock()
			f.record(c)
			writeJSON(w, http.StatusNotFound, map[string]any{"code": 10062, "message": "Unknown interaction"})
			return
		case again:
			f.record(c)
			writeJSON(w, http.StatusBadRequest, map[string]any{"code": 40060, "message": "Interaction has already been acknowledged."})
			return
		}
	}
	if r.Method == "POST" && parts[0] == "channels" && len(parts) == 3 && parts[2] == "messages" {
		if id, again := f.nonced(parts[1], c); again {
			c.ID, c.Again = id, true
			f.record(c)
			writeJSON(w, 200, map[string]any{"id": id, "channel_id": parts[1], "content": c.content()})
			return
		}
	}
	f.show(c, parts)
	f.track(c, parts)
	if path != "/gateway" {
		f.record(c)
	}
	if f.serveCheck(w, r.Method, parts) {
		f.record(c)
		return
	}
	switch {
	case r.Method == "GET" && path == "/gateway":
		writeJSON(w, 200, map[string]any{"url": "ws" + strings.TrimPrefix(f.srv.URL, "http") + "/ws"})
	case parts[0] == "applications" && len(parts) >= 3 && parts[2] == "emojis":
		f.serveEmoji(w, r.Method, parts, c)
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
	case r.Method == "DELETE" && parts[0] == "channels" && len(parts) == 4 && parts[2] == "messages":
		f.mu.Lock()
		delete(f.screen, parts[3])
		f.mu.Unlock()
		w.WriteHeader(http.StatusNoContent)
	default:
		f.t.Errorf("fake Discord: unexpected call %s", c)
		writeJSON(w, 404, map[string]any{"code": 10000, "message": "Unknown"})
	}
}

// fakeServer is a server the bot is in: its @everyone permissions, the permissions of the bot's own
// role, and its channels, each with overwrites that deny permissions to the bot's role.
type fakeServer struct {
	id, name          string
	everyone, botRole int64
	channels          []fakeChannel
}

type fakeChannel struct {
	id, name string
	kind     int
	deny     int64 // denied to the bot's role in this channel
}

// fakeBotUser is the bot's user ID in the fake.
const fakeBotUser = "999"

// serveCheck answers the read-only calls of the health check; ok is false for any other call.
func (f *fakeDiscord) serveCheck(w http.ResponseWriter, method string, parts []string) bool {
	if method != "GET" {
		return false
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	server := func(id string) *fakeServer {
		for i := range f.servers {
			if f.servers[i].id == id {
				return &f.servers[i]
			}
		}
		return nil
	}
	switch {
	case len(parts) == 2 && parts[0] == "users" && parts[1] == "@me":
		writeJSON(w, 200, map[string]any{"id": fakeBotUser, "username": "dealerbot", "bot": true})
	case len(parts) == 3 && parts[0] == "oauth2" && parts[1] == "applications" && parts[2] == "@me":
		writeJSON(w, 200, map[string]any{"id": f.appID, "name": "dealerbot", "verify_key": testPublicKey, "interactions_endpoint_url": f.portalURL})
	case len(parts) == 3 && parts[0] == "users" && parts[1] == "@me" && parts[2] == "guilds":
		list := []any{}
		for _, s := range f.servers {
			list = append(list, map[string]any{"id": s.id, "name": s.name})
		}
		writeJSON(w, 200, list)
	case parts[0] == "guilds" && len(parts) >= 2:
		s := server(parts[1])
		if s == nil {
			writeJSON(w, http.StatusForbidden, map[string]any{"code": 50001, "message": "Missing Access"})
			return true
		}
		switch {
		case len(parts) == 2:
			writeJSON(w, 200, map[string]any{"id": s.id, "name": s.name, "owner_id": "1",
				"roles": []any{map[string]any{"id": s.id, "name": "@everyone", "permissions": fmt.Sprint(s.everyone)},
					map[string]any{"id": "r" + s.id, "name": "dealerbot", "permissions": fmt.Sprint(s.botRole)}}})
		case len(parts) == 3 && parts[2] == "channels":
			list := []any{}
			for _, c := range s.channels {
				list = append(list, fakeChannelJSON(s, c))
			}
			writeJSON(w, 200, list)
		case len(parts) == 4 && parts[2] == "members":
			writeJSON(w, 200, map[string]any{"user": map[string]any{"id": parts[3]}, "roles": []string{"r" + s.id}})
		default:
			return false
		}
	case len(parts) == 2 && parts[0] == "channels":
		for _, s := range f.servers {
			for _, c := range s.channels {
				if c.id == parts[1] {
					writeJSON(w, 200, fakeChannelJSON(&s, c))
					return true
				}
			}
		}
		writeJSON(w, 404, map[string]any{"code": 10003, "message": "Unknown Channel"})
	default:
		return false
	}
	return true
}

func fakeChannelJSON(s *fakeServer, c fakeChannel) map[string]any {
	ow := []any{}
	if c.deny != 0 {
		ow = append(ow, map[string]any{"id": "r" + s.id, "type": 0, "allow": "0", "deny": fmt.Sprint(c.deny)})
	}
	return map[string]any{"id": c.id, "name": c.name, "type": c.kind, "guild_id": s.id, "permission_overwrites": ow}
}

// nonced keeps the nonce of a message create with enforce_nonce, and reports whether the bot used it
// in the channel within the past three minutes ("the past few minutes", Discord says), with the
// message it created then.
func (f *fakeDiscord) nonced(channel string, c call) (string, bool) {
	nonce, _ := c.Body["nonce"].(string)
	if enforce, _ := c.Body["enforce_nonce"].(bool); !enforce || nonce == "" {
		return "", false
	}
	if len(nonce) > 25 {
		f.t.Errorf("fake Discord: nonce %q is longer than 25 characters", nonce)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	key := channel + "/" + nonce
	if prev, ok := f.nonces[key]; ok && time.Since(prev.at) < 3*time.Minute {
		return prev.id, true
	}
	if f.nonces == nil {
		f.nonces = map[string]struct {
			id string
			at time.Time
		}{}
	}
	f.nonces[key] = struct {
		id string
		at time.Time
	}{c.ID, time.Now()}
	return "", false
}

// show keeps what each channel message shows after a post, an edit or an update through a click.
func (f *fakeDiscord) show(c call, parts []string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	id := ""
	switch {
	case c.Method == "POST" && parts[0] == "channels" && len(parts) == 3:
		id = c.ID
	case c.Method == "PATCH" && parts[0] == "channels" && len(parts) == 4:
		id = parts[3]
	case c.Method == "PATCH" && parts[0] == "webhooks" && len(parts) == 5 && parts[4] == "@original":
		id = f.onMsg[parts[2]] // only a click's deferred update edits the message it was on
	case c.Method == "POST" && parts[0] == "interactions" && len(parts) == 4 && c.Body["type"] == 7.0:
		id = f.onMsg[parts[2]] // a click answered with an update of its message
	}
	if id == "" {
		return
	}
	if c.Method == "PATCH" && parts[0] == "webhooks" && !f.updating(parts[2]) {
		return
	}
	now := shown{content: c.content(), buttons: c.buttons(), files: f.screen[id].files}
	if list, ok := c.Body["attachments"].([]any); ok {
		// The attachment list replaces the message's files: new ones by upload index.
		now.files = nil
		for _, x := range list {
			m, _ := x.(map[string]any)
			idx, _ := m["id"].(float64)
			name, _ := m["filename"].(string)
			alt, _ := m["description"].(string)
			data, ok := c.Files[name]
			if !ok {
				f.t.Errorf("fake Discord: attachment %v (%q) names no uploaded file", idx, name)
			}
			now.files = append(now.files, attachment{name: name, alt: alt, data: []byte(data)})
		}
	}
	f.screen[id] = now
}

// serveEmoji answers the application emoji endpoints: list, create (checked as Discord checks it:
// name, PNG data URI of at most 256 KiB, unique name, 2,000 at most) and delete.
func (f *fakeDiscord) serveEmoji(w http.ResponseWriter, method string, parts []string, c call) {
	if parts[1] != f.appID {
		writeJSON(w, http.StatusForbidden, map[string]any{"code": 50001, "message": "Missing Access"})
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	switch {
	case method == "GET" && len(parts) == 3:
		items := []map[string]any{}
		for _, e := range f.emojis {
			items = append(items, map[string]any{"id": e.id, "name": e.name, "available": true})
		}
		writeJSON(w, 200, map[string]any{"items": items})
	case method == "POST" && len(parts) == 3:
		if now := time.Now(); now.Sub(f.emojiWindow) >= f.emojiWait {
			f.emojiWindow, f.emojiMade = now, 0
		}
		switch {
		case f.emojiRefusal == http.StatusForbidden:
			writeJSON(w, http.StatusForbidden, map[string]any{"code": 50013, "message": "Missing Permissions"})
			return
		case f.emojiRefusal == http.StatusTooManyRequests || f.emojiLimit > 0 && f.emojiMade >= f.emojiLimit:
			f.limited++
			wait := f.emojiWait - time.Since(f.emojiWindow)
			secs := fmt.Sprintf("%.3f", wait.Seconds())
			w.Header().Set("Retry-After", secs)
			writeJSON(w, http.StatusTooManyRequests, map[string]any{"message": "You are being rate limited.", "retry_after": wait.Seconds(), "global": false})
			return
		}
		name, _ := c.Body["name"].(string)
		img, _ := c.Body["image"].(string)
		if race := f.emojiRace; race != nil {
			f.emojiRace = nil
			race()
			for _, e := range f.emojis {
				if e.name == name { // taken by the other process: what Discord answers then
					writeJSON(w, http.StatusBadRequest, map[string]any{"code": 50035, "message": "Invalid Form Body: name: an emoji with this name already exists"})
					return
				}
			}
		}
		data, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(img, "data:image/png;base64,"))
		why := ""
		switch {
		case !validEmojiName.MatchString(name):
			why = "name must be 2-32 characters of A-Z, a-z, 0-9 and _"
		case !strings.HasPrefix(img, "data:image/png;base64,") || err != nil:
			why = "image must be a data URI of a base64 PNG"
		case len(data) > 256<<10:
			why = "image is larger than 256 KiB"
		case len(f.emojis) >= maxAppEmojis:
			why = "maximum number of emojis reached (2000)"
		}
		if _, err := png.DecodeConfig(bytes.NewReader(data)); why == "" && err != nil {
			why = "image is not a PNG: " + err.Error()
		}
		for _, e := range f.emojis {
			if e.name == name {
				why = "an emoji with this name exists"
			}
		}
		if why != "" {
			f.t.Errorf("fake Discord: emoji %q refused: %s", name, why)
			writeJSON(w, http.StatusBadRequest, map[string]any{"code": 50035, "message": "Invalid Form Body: " + why})
			return
		}
		f.nextID++
		e := fakeEmoji{id: fmt.Sprintf("%d", 5000000+f.nextID), name: name, png: data}
		f.emojis[e.id] = e
		f.emojiMade++
		writeJSON(w, http.StatusCreated, map[string]any{"id": e.id, "name": e.name, "available": true})
	case method == "DELETE" && len(parts) == 4:
		if _, ok := f.emojis[parts[3]]; !ok {
			writeJSON(w, http.StatusNotFound, map[string]any{"code": 10014, "message": "Unknown Emoji"})
			return
		}
		delete(f.emojis, parts[3])
		w.WriteHeader(http.StatusNoContent)
	default:
		f.t.Errorf("fake Discord: unexpected emoji call %s", c)
		writeJSON(w, 404, map[string]any{"code": 10000, "message": "Unknown"})
	}
}

// updating reports whether the interaction was acknowledged as an update of its message (type 6).
func (f *fakeDiscord) updating(token string) bool {
	for _, c := range f.calls {
		if c.Method == "POST" && strings.Contains(c.Path, "/"+token+"/callback") {
			t, _ := c.Body["type"].(float64)
			return t == 6 || t == 7
		}
	}
	return false
}

// answered reports whether the interaction of token has had its first response.
func (f *fakeDiscord) answered(token string) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.acked[token]
}

// onScreen is what message id shows now.
func (f *fakeDiscord) onScreen(id string) shown {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.screen[id]
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
				f.once.Do(func() { close(f.open) })
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
	return f.interactionOn(typ, p, guild, channel, "", data, perms)
}

// interactionOn sends an interaction from a component of channel message msg (none when "").
func (f *fakeDiscord) interactionOn(typ int, p player, guild, channel, msg string, data map[string]any, perms string) (id, token string) {
	id, token, ev := f.event(typ, p, guild, channel, msg, data, perms)
	f.deliver(id, token, ev)
	return id, token
}

// event makes an interaction as Discord sends it, and expects its answer, without sending it.
func (f *fakeDiscord) event(typ int, p player, guild, channel, msg string, data map[string]any, perms string) (id, token string, ev map[string]any) {
	interactionSeq.Lock()
	interactionSeq.n++
	n := interactionSeq.n
	interactionSeq.Unlock()
	id, token = fmt.Sprintf("%d", 500000+n), fmt.Sprintf("itok%d", n)
	if perms == "" {
		perms = "0"
	}
	ev = map[string]any{
		"id": id, "application_id": f.appID, "type": typ, "token": token, "version": 1,
		"guild_id": guild, "channel_id": channel,
		"member": map[string]any{"user": map[string]any{"id": p.id, "username": p.name}, "nick": nil, "permissions": perms},
		"data":   data,
	}
	if msg != "" {
		ev["message"] = map[string]any{"id": msg, "channel_id": channel, "flags": 0}
	}
	f.mu.Lock()
	f.asked[token] = f.now()
	f.kinds[token] = typ
	f.who[token] = asker{user: p.id, channel: channel}
	if msg != "" {
		f.onMsg[token] = msg
	}
	f.mu.Unlock()
	return id, token, ev
}

// deliver sends an interaction to the bot: over the gateway, or, with an endpoint set, as a signed
// POST to it, in the background as the gateway's delivery is.
func (f *fakeDiscord) deliver(id, token string, ev map[string]any) {
	f.mu.Lock()
	ep := f.ep
	read := make(chan struct{})
	if ep != nil {
		f.pending[token] = read
	}
	f.mu.Unlock()
	if ep == nil {
		f.dispatch("INTERACTION_CREATE", ev)
		return
	}
	body, err := json.Marshal(ev)
	if err != nil {
		f.t.Fatalf("interaction payload: %v", err)
	}
	go func() {
		defer close(read)
		f.postInteraction(id, token, body)
	}()
}

// endpoint is the application's Interactions Endpoint URL as Discord knows it, and the key it signs
// with.
type endpoint struct {
	url string
	key ed25519.PrivateKey
	now func() time.Time // Discord's clock, for the timestamps: in step with the bot's
}

// The application's key pair in tests: the adapter is configured with testPublicKey.
var (
	testKey       = ed25519.NewKeyFromSeed(bytes.Repeat([]byte{42}, ed25519.SeedSize))
	testPublicKey = hex.EncodeToString(testKey.Public().(ed25519.PublicKey))
)

// useEndpoint sends every interaction from now on to url, signed with key at now's time.
func (f *fakeDiscord) useEndpoint(url string, key ed25519.PrivateKey, now func() time.Time) {
	f.mu.Lock()
	f.ep = &endpoint{url: url, key: key, now: now}
	f.mu.Unlock()
}

// signed is the headers Discord sends with body at time at: the Ed25519 signature of the timestamp
// (Unix seconds) followed by the body, in hex.
func signed(key ed25519.PrivateKey, body []byte, at time.Time) http.Header {
	stamp := strconv.FormatInt(at.Unix(), 10)
	h := http.Header{}
	h.Set("Content-Type", "application/json")
	h.Set("User-Agent", "Discord-Interactions/1.0 (+https://discord.com)")
	h.Set("X-Signature-Ed25519", hex.EncodeToString(ed25519.Sign(key, append([]byte(stamp), body...))))
	h.Set("X-Signature-Timestamp", stamp)
	return h
}

// endpointTimeout is how long Discord waits for the endpoint's answer.
const endpointTimeout = 3 * time.Second

// post sends one request to the endpoint with headers h and returns its status and body. err is set
// when no answer came within endpointTimeout.
func (f *fakeDiscord) post(method string, h http.Header, body []byte) (status int, answer []byte, ctype string, err error) {
	f.mu.Lock()
	ep := f.ep
	f.mu.Unlock()
	req, err := http.NewRequest(method, ep.url, bytes.NewReader(body))
	if err != nil {
		return 0, nil, "", err
	}
	req.Header = h
	res, err := (&http.Client{Timeout: endpointTimeout}).Do(req)
	if err != nil {
		return 0, nil, "", err
	}
	defer res.Body.Close()
	answer, err = io.ReadAll(res.Body)
	return res.StatusCode, answer, res.Header.Get("Content-Type"), err
}

// postInteraction POSTs an interaction to the endpoint, signed, and takes the answer as Discord does:
// 200 with a JSON interaction response within 3 s, held to the rules of a callback. An answer too late
// fails the interaction (recorded in expired); any other fault is a test error.
func (f *fakeDiscord) postInteraction(id, token string, body []byte) {
	f.mu.Lock()
	ep := f.ep
	f.mu.Unlock()
	status, answer, ctype, err := f.post("POST", signed(ep.key, body, ep.now()), body)
	c := call{Method: "POST", Path: "/interactions/" + id + "/" + token + "/callback", Raw: string(answer), At: time.Now(), HTTP: true}
	parts := strings.Split(strings.Trim(c.Path, "/"), "/")
	switch {
	case err != nil:
		f.mu.Lock()
		f.expired = append(f.expired, token)
		f.mu.Unlock()
		f.t.Logf("fake Discord: no answer to interaction %s: %v", token, err)
		return
	case status != http.StatusOK:
		f.t.Errorf("fake Discord: the endpoint answered interaction %s with %d %s", token, status, answer)
		return
	case ctype != "application/json":
		f.t.Errorf("fake Discord: the endpoint answered interaction %s with Content-Type %q, want application/json", token, ctype)
		return
	}
	if err := json.Unmarshal(answer, &c.Body); err != nil || c.Body == nil {
		f.t.Errorf("fake Discord: the endpoint's answer to %s is not a JSON object: %s", token, answer)
		return
	}
	if why := f.refusal("POST", parts, c); why != "" {
		f.record(c)
		f.t.Errorf("fake Discord: the answer to %s refused: %s", token, why)
		return
	}
	f.mu.Lock()
	again := f.acked[token]
	f.acked[token] = true
	f.mu.Unlock()
	if again {
		f.t.Errorf("fake Discord: interaction %s answered in the body after it was answered over REST", token)
	}
	f.show(c, parts)
	f.track(c, parts)
	f.record(c)
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
	return f.clickOn(p, channel, "", customID)
}

// clickOn clicks a button of channel message msg.
func (f *fakeDiscord) clickOn(p player, channel, msg, customID string) string {
	_, tok := f.interactionOn(3, p, "7000", channel, msg, map[string]any{"custom_id": customID, "component_type": 2}, "")
	return tok
}

func (f *fakeDiscord) submit(p player, channel, modalID, typed string) string {
	return f.submitOn(p, channel, "", modalID, typed)
}

// submitOn submits the amount form a button of channel message msg opened.
func (f *fakeDiscord) submitOn(p player, channel, msg, modalID, typed string) string {
	_, tok := f.interactionOn(5, p, "7000", channel, msg, map[string]any{"custom_id": modalID, "components": []any{
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
	if t, _ := first.Body["type"].(float64); t != 5 && t != 6 {
		return first, first
	}
	final = f.waitFor(n, "the reply to "+token, func(c call) bool {
		return c.Method == "PATCH" && c.Path == "/webhooks/"+f.appID+"/"+token+"/messages/@original"
	})
	return first, final
}
