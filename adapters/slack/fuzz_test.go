package slack

import (
	"strings"
	"testing"
	"unicode/utf8"

	slackapi "github.com/slack-go/slack"

	"github.com/dealerbot/dealerbot/render"
)

// FuzzButtonValue: whatever Slack sends back as a button value, decoding never panics, and a value
// that decodes encodes to one that decodes the same.
func FuzzButtonValue(f *testing.F) {
	f.Add("c=raise&t=tok&ch=C1&min=40&max=1000&l=Raise%E2%80%A6")
	f.Add("c=fold")
	f.Add("min=1&max=2")
	f.Add("c=x&min=99999999999999999999&max=1")
	f.Fuzz(func(t *testing.T, s string) {
		v, err := decodeValue(s)
		if err != nil {
			return
		}
		again, err := decodeValue(v.encode())
		if err != nil || again != v {
			t.Errorf("round trip of %q: %+v then %+v (%v)", s, v, again, err)
		}
	})
}

// FuzzCommandText: the text after /poker always becomes a non-empty, single-spaced command.
func FuzzCommandText(f *testing.F) {
	for _, s := range []string{"", "raise 60", "kick <@U1|bob>", "  \t join\n1000 "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := commandText(s)
		if got == "" || got != strings.TrimSpace(got) || strings.Contains(got, "  ") {
			t.Errorf("commandText(%q) = %q", s, got)
		}
	})
}

// FuzzPosts: any message text fits Slack's limits and loses nothing but whitespace.
func FuzzPosts(f *testing.F) {
	f.Add(strings.Repeat("Alice & Bob <x> ", 300), 3)
	f.Add(strings.Repeat("♠", 3100), 0)
	f.Add("   leading\n\n\nblank lines", 30)
	f.Add(strings.Repeat("<@U123> ", 500), 1)
	f.Fuzz(func(t *testing.T, text string, buttons int) {
		buttons = max(0, buttons%60)
		m := render.Message{Text: text}
		for i := range buttons {
			m.Buttons = append(m.Buttons, render.Button{Label: "b", Command: "c", Token: strings.Repeat("t", i)})
		}
		var secs []string
		nButtons := 0
		for _, p := range posts(m, "C1") {
			if len(p.Blocks) > maxBlocks || p.Text == "" {
				t.Fatalf("post with %d blocks, fallback %q", len(p.Blocks), p.Text)
			}
			for _, s := range sectionsOf(p) {
				if n := utf8.RuneCountInString(s); n > maxSectionText || strings.TrimSpace(s) == "" {
					t.Fatalf("section of %d characters: %q", n, s)
				}
				secs = append(secs, s)
			}
			for _, b := range p.Blocks {
				if ab, ok := b.(*slackapi.ActionBlock); ok && len(ab.Elements.ElementSet) > maxActionButtons {
					t.Fatalf("actions block with %d buttons", len(ab.Elements.ElementSet))
				}
			}
			nButtons += len(buttonsOf(p))
		}
		squash := func(s string) string { return strings.Join(strings.Fields(s), "") }
		if got, want := squash(strings.Join(secs, "")), squash(escapeText(text)); got != want {
			t.Errorf("text changed: got %d bytes, want %d", len(got), len(want))
		}
		if nButtons != buttons {
			t.Errorf("%d buttons posted, want %d", nButtons, buttons)
		}
	})
}
