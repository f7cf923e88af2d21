package slack

import (
	"bytes"
	"context"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dealerbot/dealerbot/bot"
	"github.com/dealerbot/dealerbot/bot/features"
	"github.com/dealerbot/dealerbot/bot/table"
	"github.com/dealerbot/dealerbot/engine"
	"github.com/dealerbot/dealerbot/storage"
)

// Many workspaces (OAuth mode), end to end: a dealer on a bbolt file serving the fake Slack's
// workspaces T1 ("Home game": alice and bob in CHOME) and T2 ("Office": dan and erin in COFFICE) over
// HTTP, each installed through /slack/install and answered with its own token.

const (
	testClientID     = "1234.5678"
	testClientSecret = "the-client-secret"
)

var testKey = bytes.Repeat([]byte{0x42}, 32)

// world is the dealer in OAuth mode, served on a loopback port.
type world struct {
	*harness
	t    *testing.T
	db   *storage.DB
	path string
	d    *bot.Dealer
	base string       // http://127.0.0.1:PORT
	skew atomic.Int64 // added to the adapter's clock (expired install links)
	web  *http.Client // a browser that does not follow redirects
}

func newWorld(t *testing.T) *world {
	t.Helper()
	w := &world{t: t, path: filepath.Join(t.TempDir(), "dealer.db"),
		web: &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
	db, err := storage.Open(w.path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	w.db = db
	cfg := Config{ClientID: testClientID, ClientSecret: testClientSecret, SigningSecret: secret, ListenAddr: "127.0.0.1:0", SecretKey: testKey}
	w.harness = newHarness(t, cfg, WithInstallations(db))
	w.a.now = func() time.Time { return time.Now().Add(time.Duration(w.skew.Load())) }
	w.app(testClientID, testClientSecret)
	w.addTeam("T1", "Home game", "UBOT1", []string{"UALICE", "UBOB"}, []string{"CHOME"})
	w.addTeam("T2", "Office", "UBOT2", []string{"UDAN", "UERIN"}, []string{"COFFICE"})
	w.mu.Lock()
	w.names["UDAN"], w.names["UERIN"] = "dan", "erin"
	w.mu.Unlock()

	d, err := bot.New(db, w.a, features.With(db, bot.Config{Rand: rand.NewChaCha8([32]byte{5}),
		AfterFunc: func(time.Duration, func()) bot.Timer { return stoppedTimer{} }}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := d.Close(ctx); err != nil {
			t.Error(err)
		}
	})
	w.d = d
	w.a.SetDealer(d)

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- w.a.serve(ctx, ln) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("serve: %v", err)
		}
		cctx, ccancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer ccancel()
		if err := w.a.Close(cctx); err != nil {
			t.Error(err)
		}
	})
	w.base = "http://" + ln.Addr().String()
	return w
}

// startInstall opens /slack/install as a browser: it returns where the browser is sent (Slack's
// authorize page) and the cookie it keeps.
func (w *world) startInstall() (*url.URL, *http.Cookie) {
	w.t.Helper()
	resp, err := w.web.Get(w.base + "/slack/install")
	if err != nil {
		w.t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusFound {
		w.t.Fatalf("/slack/install: status %d, want a redirect to Slack", resp.StatusCode)
	}
	loc, err := url.Parse(resp.Header.Get("Location"))
	if err != nil {
		w.t.Fatal(err)
	}
	for _, c := range resp.Cookies() {
		if c.Name == stateCookie {
			if !c.HttpOnly || !c.Secure || c.MaxAge <= 0 || c.MaxAge > 600 {
				w.t.Errorf("state cookie %+v: want HttpOnly, Secure, at most 10 minutes", c)
			}
			return loc, c
		}
	}
	w.t.Fatal("/slack/install set no state cookie")
	return nil, nil
}

// finish is the browser coming back from Slack to the callback with q, carrying cookie (nil: none).
func (w *world) finish(q url.Values, cookie *http.Cookie) (int, string) {
	w.t.Helper()
	req, _ := http.NewRequest(http.MethodGet, w.base+"/slack/oauth/callback?"+q.Encode(), nil)
	if cookie != nil {
		req.AddCookie(&http.Cookie{Name: cookie.Name, Value: cookie.Value})
	}
	resp, err := w.web.Do(req)
	if err != nil {
		w.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// install installs the app in team, as installer, the whole way through.
func (w *world) install(team, installer string) {
	w.t.Helper()
	loc, cookie := w.startInstall()
	status, page := w.finish(w.approve(loc, team, installer), cookie)
	if status != http.StatusOK || !strings.Contains(page, "dealerbot is installed in") {
		w.t.Fatalf("install in %s: status %d, page %q", team, status, page)
	}
}

// installation is what the store keeps for team.
func (w *world) installation(team string) (bot.Installation, bool) {
	w.t.Helper()
	in, ok, err := w.db.Installation(context.Background(), "slack", team)
	if err != nil {
		w.t.Fatal(err)
	}
	return in, ok
}

// post sends body to /slack/events with a correct, fresh signature.
func (w *world) post(body, contentType string) (int, string) {
	w.t.Helper()
	return w.postAt(body, contentType, time.Now().Unix())
}

// postAt sends body signed at ts.
func (w *world) postAt(body, contentType string, ts int64) (int, string) {
	w.t.Helper()
	req, _ := http.NewRequest(http.MethodPost, w.base+"/slack/events", strings.NewReader(body))
	req.Header.Set("Content-Type", contentType)
	req.Header.Set("X-Slack-Request-Timestamp", strconv.FormatInt(ts, 10))
	req.Header.Set("X-Slack-Signature", signature(secret, ts, body))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		w.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// event delivers an Events API event.
func (w *world) event(body string) {
	w.t.Helper()
	if status, text := w.post(body, "application/json"); status != http.StatusOK {
		w.t.Fatalf("event: status %d %q", status, text)
	}
}

// slash sends /poker text from user in channel of team and returns Slack's answer to the request.
func (w *world) slash(team, channel, user, text string) (int, string) {
	w.t.Helper()
	return w.post(url.Values{"command": {"/poker"}, "text": {text}, "team_id": {team}, "channel_id": {channel},
		"user_id": {user}, "user_name": {w.name(user)}, "trigger_id": {"trig"},
		"response_url": {"http://" + w.srv.ServerAddr + "/response"}}.Encode(), "application/x-www-form-urlencoded")
}

// do sends /poker text and returns the dealer's reply to user (after the public messages it caused).
func (w *world) do(team, channel, user, text string) string {
	w.t.Helper()
	n := len(w.snapshot())
	if status, body := w.slash(team, channel, user, text); status != http.StatusOK || body != "" {
		w.t.Fatalf("/poker %s in %s: status %d, answer %q", text, team, status, body)
	}
	return w.waitCall(n, "chat.postEphemeral", func(c call) bool { return c.User == user && c.Channel == channel }).Text
}

// act has the player to act at team's channel take an action (a verb without an amount) and waits
// until it is committed. Actions have no reply of their own: the table message shows them.
func (w *world) act(team, channel, verb string) {
	w.t.Helper()
	before := w.table(team, channel)
	if status, body := w.slash(team, channel, w.toAct(team, channel), verb); status != http.StatusOK || body != "" {
		w.t.Fatalf("/poker %s in %s: status %d, answer %q", verb, team, status, body)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		r := w.table(team, channel)
		if r.Hand == nil || r.Hand.No != before.Hand.No || len(r.Hand.Actions) > len(before.Hand.Actions) {
			return
		}
		if time.Now().After(deadline) {
			w.t.Fatalf("%s in %s was not applied:\n%s", verb, team, dump(w.snapshot()))
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// table is team's table in channel as committed; zero when there is none.
func (w *world) table(team, channel string) table.TableRecord {
	w.t.Helper()
	recs, err := w.db.Tables(context.Background())
	if err != nil {
		w.t.Fatal(err)
	}
	for _, r := range recs {
		if r.Workspace == team && r.Channel == channel {
			return r
		}
	}
	return table.TableRecord{}
}

// toAct is the player to act in the hand in progress at team's channel.
func (w *world) toAct(team, channel string) string {
	w.t.Helper()
	r := w.table(team, channel)
	if r.Hand == nil {
		w.t.Fatalf("no hand in progress in %s/%s", team, channel)
	}
	h, err := engine.Replay(r.Hand.Setup(), r.Hand.Actions)
	if err != nil {
		w.t.Fatal(err)
	}
	return r.Seats[r.Hand.Seats[h.ToAct()]].User
}

// chips are every chip of team's players: their bankrolls and their stacks on team's tables.
func (w *world) chips(team string) (total int64, bankrolls map[string]int64) {
	w.t.Helper()
	ps, err := w.db.Players(context.Background(), team)
	if err != nil {
		w.t.Fatal(err)
	}
	bankrolls = map[string]int64{}
	for _, p := range ps {
		bankrolls[p.User] = p.Bankroll
		total += p.Bankroll
	}
	recs, _ := w.db.Tables(context.Background())
	for _, r := range recs {
		if r.Workspace == team {
			total += chipsOnTable(r)
		}
	}
	return total, bankrolls
}

// balanced checks the store's books: every chip brought in is in a bankroll or on a table.
func (w *world) balanced() {
	w.t.Helper()
	tot, err := w.db.Balance(context.Background())
	if err != nil {
		w.t.Fatalf("the chips do not balance: %v", err)
	}
	if tot.Bankrolls+tot.OnTables != tot.BroughtIn {
		w.t.Fatalf("chips %+v: bankrolls and tables do not add up to what was brought in", tot)
	}
}

// open seats alice and bob (T1) or dan and erin (T2) with 1,000 each and deals a hand.
func (w *world) open(team, channel, host, guest string) {
	w.t.Helper()
	w.do(team, channel, host, "start timer=off")
	w.do(team, channel, host, "join 1000")
	w.do(team, channel, guest, "join 1000")
	w.do(team, channel, host, "deal")
	w.flush()
}

func (w *world) flush() {
	w.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := w.d.Flush(ctx); err != nil {
		w.t.Fatal(err)
	}
}

// waitGone waits until team has neither an installation nor an open table.
func (w *world) waitGone(team string) {
	w.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		_, installed := w.installation(team)
		recs, _ := w.db.Tables(context.Background())
		open := 0
		for _, r := range recs {
			if r.Workspace == team {
				open++
			}
		}
		if !installed && open == 0 {
			return
		}
		if time.Now().After(deadline) {
			w.t.Fatalf("%s still installed (%v) or with %d open tables", team, installed, open)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestOAuthTwoWorkspaces: two workspaces install the app and each plays a hand, every call answered
// with that workspace's own token (the fake refuses a token used for another workspace, and the test
// checks every call's token); one workspace removes the app in the middle of a hand: its tables are
// ended with every chip back in its players' bankrolls, its later requests are answered that the app
// is not installed, and the other workspace plays on.
func TestOAuthTwoWorkspaces(t *testing.T) {
	t.Parallel() // the fake's rate limits make it wait for seconds
	w := newWorld(t)
	w.install("T1", "UALICE")
	w.install("T2", "UDAN")
	if w.token("T1") == w.token("T2") || w.token("T1") == "" {
		t.Fatalf("the fake gave the workspaces tokens %q and %q", w.token("T1"), w.token("T2"))
	}
	for _, team := range []string{"T1", "T2"} {
		in, ok := w.installation(team)
		if !ok || in.Name == "" || in.BotUser == "" || len(in.Scopes) != len(Scopes) {
			t.Fatalf("installation of %s: %+v (found %v)", team, in, ok)
		}
	}

	// A hand in each workspace: T1's is played to its end, T2's is left in the middle with chips in the pot.
	w.open("T1", "CHOME", "UALICE", "UBOB")
	w.open("T2", "COFFICE", "UDAN", "UERIN")
	w.act("T1", "CHOME", "fold")
	if r := w.table("T1", "CHOME"); r.Hand != nil || r.HandNo != 1 {
		t.Fatalf("T1's hand #1 is not over: %+v", r.Hand)
	}
	w.act("T2", "COFFICE", "call")
	if r := w.table("T2", "COFFICE"); r.Hand == nil || len(r.Hand.Actions) == 0 {
		t.Fatal("T2's hand is not in progress: the uninstall would prove nothing")
	}
	w.flush()
	w.balanced()
	t1chips, _ := w.chips("T1")
	t2chips, _ := w.chips("T2")
	if t1chips != 20000 || t2chips != 20000 {
		t.Fatalf("chips of T1 %d and T2 %d, want 20,000 each (two starting bankrolls)", t1chips, t2chips)
	}

	// T2 removes the app mid-hand.
	w.event(w.uninstalled("T2"))
	w.waitGone("T2")
	w.flush()
	total, bankrolls := w.chips("T2")
	if total != 20000 || bankrolls["UDAN"] != 10000 || bankrolls["UERIN"] != 10000 {
		t.Errorf("T2 after the uninstall: %d chips, bankrolls %v; want every chip back: 10,000 each", total, bankrolls)
	}
	w.balanced()
	if !strings.Contains(w.logs.String(), "dealerbot was removed from this workspace") {
		t.Error("the log does not say that T2 removed the app")
	}
	// T2's requests are now answered that the app is not installed, and change nothing.
	status, body := w.slash("T2", "COFFICE", "UDAN", "start")
	if status != http.StatusOK || !strings.Contains(body, "not installed in this workspace") || !strings.Contains(body, "/slack/install") {
		t.Errorf("a command from the uninstalled workspace: status %d, answer %q", status, body)
	}
	w.settle()
	w.flush()
	if r := w.table("T2", "COFFICE"); r.ID != "" {
		t.Errorf("a command from the uninstalled workspace opened a table: %+v", r)
	}

	// T1 plays on.
	w.do("T1", "CHOME", "UALICE", "deal")
	w.act("T1", "CHOME", "fold")
	if r := w.table("T1", "CHOME"); r.Hand != nil || r.HandNo != 2 {
		t.Fatalf("T1's hand #2 is not over: %+v", r)
	}
	w.flush()
	if total, _ := w.chips("T1"); total != 20000 {
		t.Errorf("T1's chips %d, want 20,000", total)
	}
	w.balanced()

	// Every call carried the token of the workspace it was for, and Slack refused none.
	used := map[string]int{}
	for _, u := range w.tokenUses() {
		if u.Refused != "" || (u.Target != "" && u.Target != u.Team) {
			t.Errorf("%s with %s's token for %s: refused %q", u.Method, u.Team, u.Target, u.Refused)
		}
		if u.Target != "" {
			used[u.Team]++
		}
	}
	if used["T1"] == 0 || used["T2"] == 0 {
		t.Errorf("calls per workspace %v: both workspaces should have been answered", used)
	}
}

// TestOAuthInstallRefusesBadState: a callback whose state is not one this dealer made, was changed,
// is too old, was used already, or comes back without the browser's cookie (or with another install's)
// is refused with a sentence; the code is not exchanged and nothing is stored.
func TestOAuthInstallRefusesBadState(t *testing.T) {
	w := newWorld(t)
	// A complete install whose callback is then replayed.
	loc, cookie := w.startInstall()
	used := w.approve(loc, "T1", "UALICE")
	if status, page := w.finish(used, cookie); status != http.StatusOK {
		t.Fatalf("first install: %d %q", status, page)
	}
	if err := w.db.DeleteInstallation(context.Background(), "slack", "T1"); err != nil {
		t.Fatal(err)
	}

	tests := []struct {
		name string
		// callback returns what the browser comes back with: the query (code and state) and the cookie.
		callback func() (url.Values, *http.Cookie)
		want     string
	}{
		{"state changed", func() (url.Values, *http.Cookie) {
			loc, c := w.startInstall()
			q := w.approve(loc, "T1", "UALICE")
			s := []byte(q.Get("state"))
			s[3] ^= 1
			q.Set("state", string(s))
			return q, c
		}, "not valid"},
		{"state made up", func() (url.Values, *http.Cookie) {
			loc, c := w.startInstall()
			q := w.approve(loc, "T1", "UALICE")
			q.Set("state", strings.Repeat("A", len(q.Get("state"))))
			return q, c
		}, "not valid"},
		{"no state", func() (url.Values, *http.Cookie) {
			loc, c := w.startInstall()
			q := w.approve(loc, "T1", "UALICE")
			q.Del("state")
			return q, c
		}, "not valid"},
		{"state used already", func() (url.Values, *http.Cookie) {
			q := w.approve(loc, "T1", "UALICE") // the first install's state again, with a new code
			return q, cookie
		}, "used already"},
		{"state too old", func() (url.Values, *http.Cookie) {
			loc, c := w.startInstall()
			q := w.approve(loc, "T1", "UALICE")
			w.skew.Store(int64(11 * time.Minute))
			return q, c
		}, "expired"},
		{"no cookie", func() (url.Values, *http.Cookie) {
			loc, _ := w.startInstall()
			return w.approve(loc, "T1", "UALICE"), nil
		}, "another browser"},
		{"another install's cookie", func() (url.Values, *http.Cookie) {
			loc, _ := w.startInstall()
			_, other := w.startInstall()
			return w.approve(loc, "T1", "UALICE"), other
		}, "another browser"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			defer w.skew.Store(0)
			q, c := tt.callback()
			n := len(w.snapshot())
			status, page := w.finish(q, c)
			if status != http.StatusBadRequest || !strings.Contains(page, tt.want) || !strings.Contains(page, "Nothing was installed") {
				t.Errorf("status %d, page %q; want 400 saying %q and that nothing was installed", status, page, tt.want)
			}
			for _, cl := range w.snapshot()[n:] {
				if strings.HasPrefix(cl.Method, "oauth.v2.access") {
					t.Errorf("the code was exchanged (%s) for a refused state", cl.Method)
				}
			}
			if in, ok := w.installation("T1"); ok {
				t.Errorf("an installation was stored: %+v", in)
			}
		})
	}

	// The workspace's admin declining the app is no install either.
	loc, cookie = w.startInstall()
	q := url.Values{"error": {"access_denied"}, "state": {w.approve(loc, "T1", "UALICE").Get("state")}}
	if status, page := w.finish(q, cookie); status != http.StatusOK || !strings.Contains(page, "not installed") {
		t.Errorf("declined: status %d, page %q", status, page)
	}
	if _, ok := w.installation("T1"); ok {
		t.Error("a declined install stored an installation")
	}
}

// TestOAuthTokenSealed: the store keeps the bot token sealed: neither the installation record nor
// the database file holds it, the right key opens it, and an adapter with another DEALERBOT_SECRET_KEY
// cannot: it says so in the log and answers the workspace's commands with a sentence, doing nothing.
func TestOAuthTokenSealed(t *testing.T) {
	w := newWorld(t)
	w.install("T1", "UALICE")
	token := w.token("T1")
	in, ok := w.installation("T1")
	if !ok {
		t.Fatal("no installation stored")
	}
	if bytes.Contains(in.Token, []byte(token)) || bytes.Contains(in.Token, []byte(token[5:])) {
		t.Fatalf("the stored installation holds the token in the clear: %q", in.Token)
	}
	raw, err := os.ReadFile(w.path)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(raw, []byte(token[5:])) {
		t.Fatal("the database file holds the bot token in the clear")
	}
	s, _ := newSealer(testKey)
	if got, err := s.open("T1", in.Token); err != nil || got != token {
		t.Fatalf("the right key opens %q, %v; want the token", got, err)
	}

	// Another key: the token does not open, the log says which setting is wrong, the workspace is
	// told, and nothing happens.
	other := bytes.Repeat([]byte{0x17}, 32)
	h := newHarness(t, Config{ClientID: testClientID, ClientSecret: testClientSecret, SigningSecret: secret, ListenAddr: ":0", SecretKey: other},
		WithInstallations(w.db))
	dealer := &fakeDealer{}
	h.a.SetDealer(dealer)
	if _, err := h.a.client(context.Background(), "T1"); err == nil || !strings.Contains(err.Error(), "does not open with DEALERBOT_SECRET_KEY") {
		t.Errorf("client with another key: %v, want an error naming DEALERBOT_SECRET_KEY", err)
	}
	body := url.Values{"command": {"/poker"}, "text": {"start"}, "team_id": {"T1"}, "channel_id": {"CHOME"}, "user_id": {"UALICE"}}.Encode()
	ts := time.Now().Unix()
	req, _ := http.NewRequest(http.MethodPost, "/slack/events", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("X-Slack-Request-Timestamp", strconv.FormatInt(ts, 10))
	req.Header.Set("X-Slack-Signature", signature(secret, ts, body))
	rec := httptest.NewRecorder()
	h.a.ServeHTTP(rec, req)
	if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), "cannot use its installation in this workspace") {
		t.Errorf("a command with the wrong key: status %d, answer %q", rec.Code, rec.Body.String())
	}
	if !strings.Contains(h.logs.String(), "DEALERBOT_SECRET_KEY") {
		t.Errorf("the log does not name DEALERBOT_SECRET_KEY:\n%s", h.logs.String())
	}
	if len(dealer.commands()) != 0 {
		t.Errorf("the dealer got %d commands from a workspace it cannot answer", len(dealer.commands()))
	}
	if _, ok := w.installation("T1"); !ok {
		t.Error("a key that does not open the token removed the installation")
	}
}

// TestOAuthTokensRevoked: a tokens_revoked event for the app's bot ends the workspace's service like an
// uninstall (a hand in progress cancelled with every chip back); one for another bot changes nothing.
func TestOAuthTokensRevoked(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.install("T1", "UALICE")
	w.open("T1", "CHOME", "UALICE", "UBOB")
	w.event(w.tokensRevoked("T1", "UOTHERBOT"))
	w.settle() // the event is handled (in the background, after its ack)
	if _, ok := w.installation("T1"); !ok {
		t.Fatal("a revoked token of another bot removed the installation")
	}
	if w.table("T1", "CHOME").Hand == nil {
		t.Fatal("a revoked token of another bot ended the hand")
	}
	w.event(w.tokensRevoked("T1", "UBOT1"))
	w.waitGone("T1")
	w.flush()
	if total, bankrolls := w.chips("T1"); total != 20000 || bankrolls["UALICE"] != 10000 || bankrolls["UBOB"] != 10000 {
		t.Errorf("after the revocation: %d chips, bankrolls %v; want 10,000 each", total, bankrolls)
	}
	w.balanced()
}

// TestOAuthRefusedTokenEndsTheWorkspaceOnce: when Slack refuses a workspace's token on a call (here:
// revoked without an event reaching the dealer), the workspace's installation is removed and its
// tables ended once, with one log line, however many calls were refused; the other workspace is
// untouched.
func TestOAuthRefusedTokenEndsTheWorkspaceOnce(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.install("T1", "UALICE")
	w.install("T2", "UDAN")
	w.open("T1", "CHOME", "UALICE", "UBOB")
	w.do("T2", "COFFICE", "UDAN", "start")
	w.revoke("T1")
	// Several calls with the refused token at once: the replies to two commands, and the table
	// message the first one changes.
	w.slash("T1", "CHOME", "UALICE", "chips")
	w.slash("T1", "CHOME", w.toAct("T1", "CHOME"), "call")
	w.waitGone("T1")
	w.flush()
	if n := strings.Count(w.logs.String(), "Slack refuses the bot token of a workspace"); n != 1 {
		t.Errorf("the refused token was logged %d times, want once:\n%s", n, w.logs.String())
	}
	if total, bankrolls := w.chips("T1"); total != 20000 || bankrolls["UALICE"] != 10000 || bankrolls["UBOB"] != 10000 {
		t.Errorf("after the refusal: %d chips, bankrolls %v; want 10,000 each", total, bankrolls)
	}
	w.balanced()
	if _, ok := w.installation("T2"); !ok || w.table("T2", "COFFICE").ID == "" {
		t.Error("the other workspace was touched")
	}
}

// TestOAuthEvents: events are signed like every other request (an unsigned or forged app_uninstalled
// is refused and removes nothing), the URL check is answered with its challenge, and an event Slack
// delivers again is handled once.
func TestOAuthEvents(t *testing.T) {
	w := newWorld(t)
	w.install("T1", "UALICE")

	forged := w.eventBody("T1", map[string]any{"type": "app_uninstalled"})
	ts := time.Now().Unix()
	for _, sig := range []string{"", signature("not-the-secret", ts, forged)} {
		req, _ := http.NewRequest(http.MethodPost, w.base+"/slack/events", strings.NewReader(forged))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("X-Slack-Request-Timestamp", strconv.FormatInt(ts, 10))
		if sig != "" {
			req.Header.Set("X-Slack-Signature", sig)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusUnauthorized {
			t.Errorf("forged app_uninstalled (signature %q): status %d, want 401", sig, resp.StatusCode)
		}
	}
	w.settle()
	if _, ok := w.installation("T1"); !ok {
		t.Fatal("a forged event removed the installation")
	}

	status, body := w.post(`{"token":"x","challenge":"3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P","type":"url_verification"}`, "application/json")
	if status != http.StatusOK || body != "3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P" {
		t.Errorf("url_verification: status %d, body %q; want the challenge", status, body)
	}
	for _, typ := range []string{"reaction_added", "an_event_slack_go_does_not_know"} {
		if status, _ := w.post(`{"type":"event_callback","team_id":"T1","event_id":"Ev-`+typ+`","event":{"type":"`+typ+`"}}`, "application/json"); status != http.StatusOK {
			t.Errorf("an event dealerbot does not handle (%s): status %d, want 200 (else Slack retries it)", typ, status)
		}
	}
	if status, _ := w.post(`{"type":"event_callback",`, "application/json"); status != http.StatusBadRequest {
		t.Errorf("a malformed event: status %d, want 400", status)
	}
	if _, ok := w.installation("T1"); !ok {
		t.Fatal("other events removed the installation")
	}

	// The same uninstall twice (Slack retrying): handled once.
	ev := w.uninstalled("T1")
	w.event(ev)
	w.waitGone("T1")
	w.install("T1", "UALICE")
	if status, _ := w.postAt(ev, "application/json", time.Now().Unix()+1); status != http.StatusOK { // a retry is signed anew
		t.Fatalf("the redelivered event: status %d", status)
	}
	w.settle()
	if _, ok := w.installation("T1"); !ok {
		t.Error("the redelivered uninstall removed the new installation")
	}
}
