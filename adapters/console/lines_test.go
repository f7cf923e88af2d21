package console_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"github.com/dealerbot/dealerbot/storage/storetest"
	"net"
	"strings"
	"testing"

	"github.com/dealerbot/dealerbot/adapters/console"
	"github.com/dealerbot/dealerbot/bot"
	"github.com/dealerbot/dealerbot/bot/bottest"
	"github.com/dealerbot/dealerbot/bot/features"
)

// The line server answers every line with one JSON reply, in order: a malformed line is refused
// with a sentence that says what to write and changes nothing, a good one plays, and a line longer
// than the limit ends the connection without a reply.
func TestServeLines(t *testing.T) {
	db := storetest.OpenDB(t)
	d, err := bot.New(db, console.NewChat(&bottest.Buffer{}), features.With(db, bot.Config{AfterFunc: bottest.NoTimer, RateLimit: bot.RateLimit{Off: true}}))
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close(context.Background())
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	go console.ServeLines(ctx, ln, d)

	conn, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	in := bufio.NewReader(conn)
	ask := func(line string) console.LineReply {
		t.Helper()
		fmt.Fprintln(conn, line)
		var r console.LineReply
		raw, err := in.ReadBytes('\n')
		if err != nil {
			t.Fatalf("%q: no reply: %v", line, err)
		}
		if err := json.Unmarshal(raw, &r); err != nil {
			t.Fatalf("%q: reply %q: %v", line, raw, err)
		}
		return r
	}
	for _, tc := range []struct{ line, want string }{
		{"", "Write WORKSPACE CHANNEL USER COMMAND"},
		{"w1 c1 alice", "Write WORKSPACE CHANNEL USER COMMAND"},
		{"w/1 c1 alice start", "without a slash"},
		{strings.Repeat("w", 65) + " c1 alice start", "at most 64 characters"},
		{"id= w1 c1 alice start", "1 to 100 characters"},
		{"id=" + strings.Repeat("x", 101) + " w1 c1 alice start", "1 to 100 characters"},
		{"w1 c1 alice raise abc", "There is no game in this channel"},
	} {
		if r := ask(tc.line); !r.Error || !strings.Contains(r.Text, tc.want) {
			t.Errorf("%q: %+v, want a refusal with %q", tc.line, r, tc.want)
		}
	}
	if ts, _ := db.Tables(ctx); len(ts) != 0 {
		t.Fatalf("refused lines opened %d tables", len(ts))
	}
	if r := ask("id=a1 w1 c1 alice start"); r.Error {
		t.Fatalf("start: %s", r.Text)
	}
	if ts, _ := db.Tables(ctx); len(ts) != 1 || ts[0].Workspace != "w1" {
		t.Fatalf("after start: %+v", ts)
	}
	fmt.Fprintln(conn, strings.Repeat("x", 5000))
	if _, err := in.ReadBytes('\n'); err == nil {
		t.Error("a line over the limit was answered; want the connection ended")
	}
}
