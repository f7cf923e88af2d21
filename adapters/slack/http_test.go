package slack

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	slackapi "github.com/slack-go/slack"

	"github.com/dealerbot/dealerbot/render"
)

const secret = "8f742231b10e8888abcd99yyyzzz85a5"

// signature is Slack's v0 request signature of body at ts.
func signature(key string, ts int64, body string) string {
	m := hmac.New(sha256.New, []byte(key))
	fmt.Fprintf(m, "v0:%d:%s", ts, body)
	return "v0=" + hex.EncodeToString(m.Sum(nil))
}

// httpTable is a dealer behind the adapter in HTTP mode, served on a loopback port.
type httpTable struct {
	*desk
	url string
}

// newHTTPTable serves a dealer in HTTP mode on a loopback port; opts adjust the adapter first.
func newHTTPTable(t *testing.T, opts ...func(*Adapter)) *httpTable {
	t.Helper()
	tb := newDealer(t, Config{BotToken: "xoxb-test", SigningSecret: secret, ListenAddr: "127.0.0.1:0"}, 3)
	for _, o := range opts {
		o(tb.a)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- tb.a.serve(ctx, ln) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("serve: %v", err)
		}
		cctx, ccancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer ccancel()
		if err := tb.a.Close(cctx); err != nil {
			t.Error(err)
		}
	})
	return &httpTable{desk: tb, url: "http://" + ln.Addr().String() + "/slack/events"}
}

// post sends body as Slack would, with the given signature headers ("" leaves a header out).
func (ht *httpTable) post(body, sig string, ts int64) (int, string) {
	ht.t.Helper()
	req, err := http.NewRequest(http.MethodPost, ht.url, strings.NewReader(body))
	if err != nil {
		ht.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if sig != "" {
		req.Header.Set("X-Slack-Signature", sig)
	}
	if ts != 0 {
		req.Header.Set("X-Slack-Request-Timestamp", strconv.FormatInt(ts, 10))
	}
	start := time.Now()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		ht.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if d := time.Since(start); d > 3*time.Second {
		ht.t.Errorf("answered after %v; Slack wants an answer within 3s", d)
	}
	return resp.StatusCode, string(b)
}

// signed sends body with a correct, fresh signature.
func (ht *httpTable) signed(body string) (int, string) {
	ts := time.Now().Unix()
	return ht.post(body, signature(secret, ts, body), ts)
}

func slashBody(user, text string) string {
	return url.Values{
		"command": {"/poker"}, "text": {text}, "team_id": {"T1"}, "channel_id": {"CGAME"},
		"user_id": {user}, "user_name": {strings.ToLower(strings.TrimPrefix(user, "U"))},
		"trigger_id": {"trig"}, "response_url": {"https://hooks.slack.test/x"},
	}.Encode()
}

func interactionBody(t *testing.T, ic *slackapi.InteractionCallback) string {
	b, err := json.Marshal(ic)
	if err != nil {
		t.Fatal(err)
	}
	return url.Values{"payload": {string(b)}}.Encode()
}

func TestHTTPModeSignedSlashCommand(t *testing.T) {
	ht := newHTTPTable(t)
	n := len(ht.snapshot())
	status, _ := ht.signed(slashBody("UALICE", "start"))
	if status != http.StatusOK {
		t.Fatalf("signed slash command: status %d, want 200", status)
	}
	reply := ht.waitCall(n, "chat.postEphemeral", func(c call) bool { return c.User == "UALICE" })
	if !strings.Contains(reply.Text, "host") {
		t.Errorf("reply %q, want the bot's confirmation", reply.Text)
	}
	if r := ht.record(); r.Host != "UALICE" || r.Channel != "CGAME" {
		t.Errorf("table %+v, want one hosted by UALICE in CGAME", r)
	}
}

func TestHTTPModeRefusesUnverifiedRequests(t *testing.T) {
	ht := newHTTPTable(t)
	body := slashBody("UMALLORY", "start")
	now := time.Now().Unix()
	old := time.Now().Add(-10 * time.Minute).Unix()
	replayed := slashBody("UALICE", "start")
	replayedSig := signature(secret, now, replayed)
	if status, _ := ht.post(replayed, replayedSig, now); status != http.StatusOK {
		t.Fatalf("first delivery of a signed request: status %d", status)
	}
	ht.waitCall(0, "chat.postEphemeral", nil)
	ht.flush() // the table's opening post goes out in the background
	before := ht.record()
	calls := len(ht.snapshot())

	tests := []struct {
		name string
		body string
		sig  string
		ts   int64
	}{
		{"unsigned", body, "", 0},
		{"no timestamp", body, signature(secret, now, body), 0},
		{"signed with another secret", body, signature("not-the-secret", now, body), now},
		{"signature of another body", body + "&text=end", signature(secret, now, body), now},
		{"garbage signature", body, "v0=zz", now},
		{"old timestamp (replay)", body, signature(secret, old, body), old},
		{"timestamp from the future", body, signature(secret, now+600, body), now + 600},
		{"same signed request again (replay)", replayed, replayedSig, now},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, text := ht.post(tt.body, tt.sig, tt.ts)
			if status != http.StatusUnauthorized {
				t.Errorf("status %d, want 401", status)
			}
			if !strings.Contains(text, "signature") {
				t.Errorf("body %q, want a sentence about the signature", text)
			}
		})
	}
	ht.settle() // anything wrongly dispatched has reached Slack by now
	ht.flush()
	if got := ht.snapshot()[calls:]; len(got) != 0 {
		t.Errorf("refused requests reached Slack:\n%s", dump(got))
	}
	if after := ht.record(); after.Host != before.Host || len(after.Seats) != len(before.Seats) || after.HandNo != before.HandNo {
		t.Errorf("refused requests changed the table: %+v", after)
	}
}

func TestHTTPModeInteractions(t *testing.T) {
	ht := newHTTPTable(t)
	ht.signed(slashBody("UALICE", "start"))
	ht.waitCall(0, "chat.postEphemeral", nil)

	// A button click is acknowledged at once and reaches the dealer (here: a stale token).
	b := buttonElement(renderButton("fold", "old-token"), 0, "CGAME")
	n := len(ht.snapshot())
	status, _ := ht.signed(interactionBody(t, &slackapi.InteractionCallback{
		Type: slackapi.InteractionTypeBlockActions, Team: slackapi.Team{ID: "T1"}, User: slackapi.User{ID: "UALICE", Name: "alice"},
		TriggerID: "trig", ActionCallback: slackapi.ActionCallbacks{BlockActions: []*slackapi.BlockAction{{ActionID: b.ActionID, Value: b.Value}}},
	}))
	if status != http.StatusOK {
		t.Fatalf("click: status %d", status)
	}
	if got := ht.waitCall(n, "chat.postEphemeral", nil).Text; !strings.Contains(got, "earlier turn") {
		t.Errorf("stale click answered %q", got)
	}

	// A modal submission whose amount is not a number is answered with the field error in the response body.
	v := buttonValue{Command: "raise", Token: "t", Channel: "CGAME", Min: 40, Max: 1000}
	status, body := ht.signed(interactionBody(t, &slackapi.InteractionCallback{
		Type: slackapi.InteractionTypeViewSubmission, Team: slackapi.Team{ID: "T1"}, User: slackapi.User{ID: "UALICE"},
		View: slackapi.View{CallbackID: amountCallbackID, PrivateMetadata: v.encode(), State: &slackapi.ViewState{
			Values: map[string]map[string]slackapi.BlockAction{amountBlockID: {amountActionID: {Value: "nine"}}}}},
	}))
	var resp slackapi.ViewSubmissionResponse
	if err := json.Unmarshal([]byte(body), &resp); status != http.StatusOK || err != nil || resp.ResponseAction != slackapi.RAErrors {
		t.Errorf("bad amount: status %d body %q, want 200 with a field error", status, body)
	}

	// An amount outside the range the dealer gave when the form opened (40 to 1000) is answered the
	// same way, the range error inside the form (issue 37 item 8), and reaches no dealer.
	// The table's own posts (its opening) are written in the background: they are out before the
	// count, so that only what the submissions cause is counted.
	if err := ht.d.Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	ht.settle()
	for _, typed := range []string{"20", "1001"} {
		n := len(ht.snapshot())
		status, body = ht.signed(interactionBody(t, &slackapi.InteractionCallback{
			Type: slackapi.InteractionTypeViewSubmission, Team: slackapi.Team{ID: "T1"}, User: slackapi.User{ID: "UALICE"},
			View: slackapi.View{CallbackID: amountCallbackID, PrivateMetadata: v.encode(), State: &slackapi.ViewState{
				Values: map[string]map[string]slackapi.BlockAction{amountBlockID: {amountActionID: {Value: typed}}}}},
		}))
		resp = slackapi.ViewSubmissionResponse{}
		if err := json.Unmarshal([]byte(body), &resp); status != http.StatusOK || err != nil || resp.ResponseAction != slackapi.RAErrors ||
			resp.Errors[amountBlockID] != typed+" is not in the range: enter a whole number of chips from 40 to 1000." {
			t.Errorf("amount %s out of range: status %d body %q, want 200 with the range error in the form", typed, status, body)
		}
		ht.settle()
		if got := ht.snapshot()[n:]; countCalls(got, "chat.postEphemeral")+countCalls(got, "chat.postMessage") != 0 {
			t.Errorf("amount %s out of range: the dealer answered besides the form: %+v", typed, got)
		}
	}
}

func renderButton(command, token string) render.Button {
	return render.Button{Label: command, Command: command, Token: token}
}

func TestHTTPModeRunNamesABusyAddress(t *testing.T) {
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	a, err := New(Config{BotToken: "xoxb-test", SigningSecret: secret, ListenAddr: busy.Addr().String()})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := a.Run(ctx); err == nil || !strings.Contains(err.Error(), "SLACK_LISTEN_ADDR") {
		t.Errorf("Run on a busy address: %v, want an error naming SLACK_LISTEN_ADDR", err)
	}
}

func TestHTTPModeRunServesUntilCancelled(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // free the port for Run
	a, err := New(Config{BotToken: "xoxb-test", SigningSecret: secret, ListenAddr: addr})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- a.Run(ctx) }()
	var resp *http.Response
	for range 100 {
		if resp, err = http.Post("http://"+addr+"/slack/events", "application/x-www-form-urlencoded", strings.NewReader("command=/poker")); err == nil {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("unsigned request to Run's server: %d, want 401", resp.StatusCode)
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("Run after cancel: %v, want nil", err)
	}
}
