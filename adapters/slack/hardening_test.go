package slack

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	slackapi "github.com/slack-go/slack"

	"github.com/dealerbot/dealerbot/bot"
	"github.com/dealerbot/dealerbot/render"
)

// TestHTTPSlowBodyIsCutOff: clients that send their body slowly are disconnected by the server's
// read timeout instead of holding a connection each (reproduction 4 held 50 for 24 s and more).
func TestHTTPSlowBodyIsCutOff(t *testing.T) {
	ht := newHTTPTable(t, func(a *Adapter) { a.readTimeout = 300 * time.Millisecond })
	addr := strings.TrimSuffix(strings.TrimPrefix(ht.url, "http://"), "/slack/events")

	const clients = 50
	conns := make([]net.Conn, clients)
	for i := range conns {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		fmt.Fprintf(c, "POST /slack/events HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 1000\r\n\r\ncommand=")
		conns[i] = c
	}
	// Each client keeps trickling its body; the server must close every connection on its own.
	for i, c := range conns {
		c.SetReadDeadline(time.Now().Add(10 * time.Second))
		closed := make(chan error, 1)
		go func() { _, err := io.ReadAll(c); closed <- err }()
		stop := time.NewTicker(50 * time.Millisecond)
	trickle:
		for {
			select {
			case err := <-closed:
				if ne, ok := err.(net.Error); ok && ne.Timeout() {
					t.Fatalf("client %d: still connected after 10 s of a slow body", i)
				}
				break trickle
			case <-stop.C:
				c.Write([]byte("x"))
			}
		}
		stop.Stop()
	}
}

// TestHTTPReplayInAnyCase: the same signed request with its signature in upper-case hex is a replay.
func TestHTTPReplayInAnyCase(t *testing.T) {
	ht := newHTTPTable(t)
	body := slashBody("UALICE", "start")
	now := time.Now().Unix()
	sig := signature(secret, now, body)
	if status, _ := ht.post(body, sig, now); status != http.StatusOK {
		t.Fatalf("first delivery: status %d", status)
	}
	ht.waitCall(0, "chat.postEphemeral", nil)
	ht.flush() // the table's opening post goes out in the background
	calls := len(ht.snapshot())
	for _, s := range []string{"v0=" + strings.ToUpper(strings.TrimPrefix(sig, "v0=")), sig} {
		if status, _ := ht.post(body, s, now); status != http.StatusUnauthorized {
			t.Fatalf("replay with signature %.12s…: status %d, want 401", s, status)
		}
	}
	ht.settle() // anything wrongly dispatched has reached Slack by now
	ht.flush()
	if got := ht.snapshot()[calls:]; len(got) != 0 {
		t.Fatalf("a replay reached Slack:\n%s", dump(got))
	}
}

// TestSocketRedeliveryHandledOnce: an envelope sent again (same envelope_id, retry_attempt 1) is
// acknowledged again but reaches the dealer once, so the player gets one answer.
func TestSocketRedeliveryHandledOnce(t *testing.T) {
	h := newHarness(t, socketConfig())
	d := &fakeDealer{}
	h.a.SetDealer(d)
	h.runSocket(t)
	payload, _ := json.Marshal(slackapi.SlashCommand{TeamID: "T1", ChannelID: "CGAME", UserID: "UBOB", UserName: "bob",
		Command: "/poker", Text: "call", ResponseURL: "http://" + h.srv.ServerAddr + "/response"})
	for attempt := 0; attempt < 3; attempt++ {
		env, _ := json.Marshal(map[string]any{"type": "slash_commands", "envelope_id": "env-redelivered",
			"payload": json.RawMessage(payload), "accepts_response_payload": true, "retry_attempt": attempt, "retry_reason": "timeout"})
		h.envelopes <- env
		select {
		case a := <-h.acks:
			if a.EnvelopeID != "env-redelivered" {
				t.Fatalf("ack for %s", a.EnvelopeID)
			}
		case <-time.After(3 * time.Second):
			t.Fatalf("delivery %d was not acknowledged", attempt+1)
		}
	}
	h.waitCall(0, "chat.postEphemeral", nil)
	h.settle() // a second handling has reached the dealer by now: each delivery is taken before its ack
	if n := len(d.commands()); n != 1 {
		t.Fatalf("the dealer handled the envelope %d times, want 1", n)
	}
	if n := countCalls(h.snapshot(), "chat.postEphemeral"); n != 1 {
		t.Fatalf("the player got %d replies, want 1", n)
	}
}

// TestWrongBotTokenAtStart: auth.test at start turns a wrong token into a sentence, before anything
// is posted.
func TestWrongBotTokenAtStart(t *testing.T) {
	for _, cfg := range []Config{socketConfig(), {BotToken: "xoxb-wrong", SigningSecret: secret, ListenAddr: "127.0.0.1:0"}} {
		h := newHarness(t, cfg)
		h.mu.Lock()
		h.tokenFails = true
		h.mu.Unlock()
		h.a.SetDealer(&fakeDealer{})
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		err := h.a.Run(ctx)
		cancel()
		if err == nil || !strings.Contains(err.Error(), "SLACK_BOT_TOKEN") || !strings.Contains(err.Error(), "invalid_auth") {
			t.Fatalf("Run with a wrong token: %v, want a sentence naming SLACK_BOT_TOKEN", err)
		}
		if strings.Contains(err.Error(), "xoxb-") && strings.Contains(err.Error(), "wrong") {
			t.Fatalf("the error shows the token: %v", err)
		}
	}
}

// TestDemotedAdminLosesAdminVerbs: the user cache serves names, but admin verbs ask Slack afresh.
func TestDemotedAdminLosesAdminVerbs(t *testing.T) {
	h := newHarness(t, socketConfig())
	d := &fakeDealer{}
	h.a.SetDealer(d)
	h.setAdmin("UALICE")
	h.runSocket(t)
	h.slash("CGAME", "UALICE", "chips")
	h.waitCall(0, "chat.postEphemeral", nil)
	h.unsetAdmin("UALICE")
	n := len(h.snapshot())
	h.slash("CGAME", "UALICE", "adjust UBOB 500")
	h.waitCall(n, "chat.postEphemeral", nil)
	cmds := d.commands()
	if len(cmds) != 2 || !cmds[0].Admin || cmds[1].Admin {
		t.Fatalf("commands %+v: want chips as an admin, then adjust as a demoted admin (not admin)", cmds)
	}
}

// TestExportFileGoesToTheDM: a reply's file is uploaded with the files upload flow into the user's
// DM with the bot, never into the game channel.
func TestExportFileGoesToTheDM(t *testing.T) {
	h := newHarness(t, socketConfig())
	d := &fakeDealer{reply: func(c bot.Command) bot.Reply {
		if c.Text == "export 5" {
			return bot.Reply{Text: "Your 5 hands.", Files: []render.File{{Name: "dealerbot-hands-1-5.txt",
				ContentType: "text/plain; charset=utf-8", Data: []byte("PokerStars Hand #1:  Hold'em No Limit (5/10)")}}}
		}
		return bot.Reply{Text: "ok"}
	}}
	h.a.SetDealer(d)
	h.runSocket(t)
	h.slash("CGAME", "UALICE", "export 5")
	up := h.waitCall(0, "files.completeUploadExternal", nil)
	open := h.waitCall(0, "conversations.open", nil)
	if up.File != "dealerbot-hands-1-5.txt" || !strings.HasPrefix(up.Text, "PokerStars Hand #1") || up.Channel == "CGAME" || up.Channel == "" || open.Channel != "UALICE" {
		t.Fatalf("upload %+v (DM opened for %q), want the export in UALICE's DM", up, open.Channel)
	}
}

// judgedDealer is a fakeDealer that says, as bot.Dealer does, which commands an admin's rights decide.
type judgedDealer struct {
	*fakeDealer
	matters func(text string) bool
}

func (d judgedDealer) AdminMatters(text string) bool { return d.matters(text) }

// TestUserLookedUpWhereItMatters: users.info is asked for a user's first command and for every
// command an admin's rights could decide; play after that runs at once with what is known, and a
// user known for longer than userTTL is asked about again in the background, for the next command.
func TestUserLookedUpWhereItMatters(t *testing.T) {
	h := newHarness(t, socketConfig())
	var skew atomic.Int64
	h.a.now = func() time.Time { return time.Now().Add(time.Duration(skew.Load())) }
	fd := &fakeDealer{}
	h.a.SetDealer(judgedDealer{fd, func(text string) bool { return strings.HasPrefix(text, "adjust") }})
	h.mu.Lock()
	h.display["UBOB"] = "Bobby"
	h.mu.Unlock()
	h.runSocket(t)
	lookUps := func() int {
		h.settle() // a look-up in the background has been answered
		h.mu.Lock()
		defer h.mu.Unlock()
		return h.lookUps["UBOB"]
	}
	step := func(text string, wantName string, wantLookUps int) {
		t.Helper()
		n := len(fd.commands())
		h.slash("CGAME", "UBOB", text)
		h.waitFor(text, func([]call) bool { return len(fd.commands()) > n })
		if got := fd.commands()[n]; got.UserName != wantName {
			t.Errorf("%s ran as %q, want %q", text, got.UserName, wantName)
		}
		if got := lookUps(); got != wantLookUps {
			t.Errorf("after %s: %d users.info, want %d", text, got, wantLookUps)
		}
	}
	step("chips", "Bobby", 1) // first seen: asked before the command runs
	step("call", "Bobby", 1)  // known: no round trip
	h.mu.Lock()
	h.display["UBOB"] = "Robert"
	h.mu.Unlock()
	skew.Store(int64(userTTL + time.Minute))
	step("call", "Bobby", 2)             // known a while: runs at once as known, asked again behind it
	step("call", "Robert", 2)            // the answer serves the next command
	step("adjust UALICE 5", "Robert", 3) // an admin's right: asked afresh every time
}
