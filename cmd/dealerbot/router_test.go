package main

import (
	"context"
	"testing"

	"github.com/dealerbot/dealerbot/bot"
	"github.com/dealerbot/dealerbot/render"
)

// liveChat is a chat that keeps what it was asked to post, edit and delete.
type liveChat struct {
	name  string
	calls []string
	faces *render.Faces
}

func (c *liveChat) Send(_ context.Context, m bot.Message) error {
	c.calls = append(c.calls, "send "+m.Text)
	return nil
}
func (c *liveChat) Post(_ context.Context, m bot.Message) (string, error) {
	c.calls = append(c.calls, "post "+m.Text)
	return c.name + "-1", nil
}
func (c *liveChat) Edit(_ context.Context, m bot.Message, id string) error {
	c.calls = append(c.calls, "edit "+id+" "+m.Text)
	return nil
}
func (c *liveChat) Delete(_ context.Context, _ bot.Message, id string) error {
	c.calls = append(c.calls, "delete "+id)
	return nil
}

type pictureChat struct{ liveChat }

func (c *pictureChat) CardFaces(string, bool) (*render.Faces, bool) { return c.faces, true }
func (c *pictureChat) ShowsPictures(string) bool                    { return true }

// A process serving Discord and Slack hands each table's message edits to the chat of the table's
// platform, and asks that chat for card pictures: the router is what the dealer sees, so without
// this the binary would narrate every action as a new post.
func TestRouterKeepsTheLiveTable(t *testing.T) {
	ctx := context.Background()
	faces := &render.Faces{}
	faces[0] = "<:c_2c:1>"
	d := &pictureChat{liveChat{name: "discord", faces: faces}}
	s := &liveChat{name: "slack"}
	r := &router{chats: map[string]bot.Chat{"discord": d, "slack": s}}

	id, err := r.Post(ctx, bot.Message{Platform: "slack", Message: render.Message{Text: "table"}})
	if err != nil || id != "slack-1" {
		t.Fatalf("Post on slack = %q, %v", id, err)
	}
	if err := r.Edit(ctx, bot.Message{Platform: "discord", Message: render.Message{Text: "new"}}, "m1"); err != nil {
		t.Fatal(err)
	}
	if err := r.Delete(ctx, bot.Message{Platform: "discord"}, "m2"); err != nil {
		t.Fatal(err)
	}
	if got := s.calls; len(got) != 1 || got[0] != "post table" {
		t.Errorf("slack got %q", got)
	}
	if got := d.calls; len(got) != 2 || got[0] != "edit m1 new" || got[1] != "delete m2" {
		t.Errorf("discord got %q", got)
	}
	if f, ok := r.CardFaces("discord", false); !ok || f != faces {
		t.Errorf("discord card faces = %v, %v", f, ok)
	}
	if f, ok := r.CardFaces("slack", false); ok || f != nil {
		t.Errorf("slack has card faces %v, %v; it has none", f, ok)
	}
	if !r.ShowsPictures("discord") || r.ShowsPictures("slack") || r.ShowsPictures("irc") {
		t.Error("ShowsPictures does not follow the platform's chat")
	}
	if _, err := r.Post(ctx, bot.Message{Platform: "irc"}); err == nil {
		t.Error("a post for a platform the process does not serve went somewhere")
	}
}
