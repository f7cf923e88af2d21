package console

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/dealerbot/dealerbot/bot"
	"github.com/dealerbot/dealerbot/render"
)

// TestKeyedPostPrintsOnce: a channel post sent again under its key (a schedule's announcement after
// a crash) prints once; without a key, or in another channel, it prints each time; the Chat forgets
// the oldest keys past maxKeys.
func TestKeyedPostPrintsOnce(t *testing.T) {
	var out bytes.Buffer
	c := NewChat(&out)
	ctx := context.Background()
	ann := bot.Message{Platform: Platform, Workspace: Workspace, Channel: Channel, Key: "s1a1764961200", Message: render.Message{Text: "🃏 Home game"}}
	elsewhere := ann
	elsewhere.Channel = "other"
	plain := bot.Message{Platform: Platform, Workspace: Workspace, Channel: Channel, Message: render.Message{Text: "alice opened a table"}}
	for _, m := range []bot.Message{ann, ann, elsewhere, plain, plain} {
		if err := c.Send(ctx, m); err != nil {
			t.Fatal(err)
		}
	}
	if got := strings.Count(out.String(), "🃏 Home game"); got != 2 {
		t.Errorf("announcement printed %d times, want once in each of two channels:\n%s", got, out.String())
	}
	if got := strings.Count(out.String(), "alice opened"); got != 2 {
		t.Errorf("a post without a key printed %d times, want 2", got)
	}
	for i := range maxKeys {
		c.Send(ctx, bot.Message{Workspace: Workspace, Channel: Channel, Key: fmt.Sprint("k", i), Message: render.Message{Text: "filler"}})
	}
	out.Reset()
	c.Send(ctx, ann)
	if !strings.Contains(out.String(), "🃏 Home game") {
		t.Errorf("a key older than the newest %d was kept", maxKeys)
	}
	if len(c.keys) != maxKeys || len(c.order) != maxKeys {
		t.Errorf("keys kept: %d, %d; want %d", len(c.keys), len(c.order), maxKeys)
	}
}
