package console

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"strings"
	"sync"

	"github.com/dealerbot/dealerbot/bot"
)

// ServeLines is the console's headless form, for scripted load and for tests that drive real
// processes: it accepts connections on ln and reads lines `[id=ID] WORKSPACE CHANNEL USER COMMAND...`,
// each a console command from USER in that workspace (a community of its own) and channel (ID, when
// given, is the delivery's ID, as a platform's interaction ID: the same ID twice counts once), and answers
// each line with one JSON object {"text": ..., "error": true|false} on the same connection, in
// order. A line that is not of that form is answered with an error and changes nothing. It returns
// when ctx ends (closing ln) or ln fails.
func ServeLines(ctx context.Context, ln net.Listener, d Handler) error {
	var wg sync.WaitGroup
	defer wg.Wait()
	stop := context.AfterFunc(ctx, func() { ln.Close() })
	defer stop()
	for {
		conn, err := ln.Accept()
		if err != nil {
			if ctx.Err() != nil || errors.Is(err, net.ErrClosed) {
				return ctx.Err()
			}
			return err
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer conn.Close()
			serveLineConn(ctx, conn, d)
		}()
	}
}

// LineReply is ServeLines' answer to one line.
type LineReply struct {
	Text  string `json:"text"`
	Error bool   `json:"error"`
}

// maxLine bounds one line; a longer one ends the connection.
const maxLine = 4096

func serveLineConn(ctx context.Context, conn net.Conn, d Handler) {
	stop := context.AfterFunc(ctx, func() { conn.Close() })
	defer stop()
	sc := bufio.NewScanner(conn)
	sc.Buffer(make([]byte, 0, 512), maxLine)
	enc := json.NewEncoder(conn)
	for sc.Scan() {
		var r LineReply
		if cmd, err := parseServedLine(sc.Text()); err != nil {
			r = LineReply{Text: err.Error(), Error: true}
		} else {
			rep := d.Handle(ctx, cmd)
			r = LineReply{Text: rep.Text, Error: rep.IsError}
		}
		if err := enc.Encode(r); err != nil {
			return
		}
	}
}

func parseServedLine(line string) (bot.Command, error) {
	f := strings.Fields(line)
	var id string
	if len(f) > 0 && strings.HasPrefix(f[0], "id=") {
		id, f = strings.TrimPrefix(f[0], "id="), f[1:]
		if id == "" || len(id) > 100 {
			return bot.Command{}, fmt.Errorf("An id= is 1 to 100 characters.")
		}
	}
	if len(f) < 4 {
		return bot.Command{}, fmt.Errorf("Write WORKSPACE CHANNEL USER COMMAND, such as `w1 c1 alice call`.")
	}
	for _, s := range f[:3] {
		if len(s) > 64 || strings.Contains(s, "/") {
			return bot.Command{}, fmt.Errorf("Workspace, channel and user are at most 64 characters, without a slash.")
		}
	}
	return bot.Command{Platform: Platform, Workspace: f[0], Channel: f[1], User: f[2], UserName: f[2],
		Text: strings.Join(f[3:], " "), ID: id}, nil
}
