package console_test

import (
	"context"
	"strings"
	"testing"

	"github.com/dealerbot/dealerbot/adapters/console"
)

// TestLiveConsoleRedrawsTheTable: the terminal table (cmd/dealerbot's console) shows each hand as one
// table message, redrawn in full on every change, with no line per action; hole cards stay private
// until the showdown, and the chips add up.
func TestLiveConsoleRedrawsTheTable(t *testing.T) {
	g := newGame(t)
	g.must("alice: start timer=0", "alice: join 1000", "bob: join 1000", "alice: deal")
	for i := 0; g.table().Hand != nil; i++ {
		if i > 40 {
			t.Fatalf("the hand did not end:\n%s", g.out.String())
		}
		for _, p := range []string{"alice", "bob"} {
			if r := g.say(p + ": check"); r.IsError {
				if r := g.say(p + ": call"); !r.IsError && r.Text != "" {
					t.Fatalf("an action at a live table answered %q; the table changing is the answer", r.Text)
				}
			} else if r.Text != "" {
				t.Fatalf("an action at a live table answered %q", r.Text)
			}
		}
	}
	if err := g.d.Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	var draws []string
	for _, m := range g.chat.Messages() {
		switch {
		case m.Private:
		case strings.HasPrefix(m.Text, "Hand #1 ·"):
			draws = append(draws, m.Text)
		case strings.Contains(m.Text, " checks") || strings.Contains(m.Text, " calls"):
			t.Errorf("an action was narrated as its own post: %q", m.Text)
		}
	}
	if len(draws) < 4 {
		t.Fatalf("the table was drawn %d times, want once per change:\n%s", len(draws), g.out.String())
	}
	last := draws[len(draws)-1]
	if !strings.Contains(last, " wins ") && !strings.Contains(last, " split") {
		t.Errorf("the last drawing shows no award:\n%s", last)
	}
	if !strings.Contains(g.out.String(), "│ ▶ ") || !strings.Contains(g.out.String(), "buttons: [") {
		t.Errorf("the console shows no table with its turn and buttons:\n%s", g.out.String())
	}
	for _, d := range draws[:len(draws)-1] {
		if strings.Contains(d, "your cards") || strings.Contains(d, " shows ") {
			t.Errorf("cards on the table before the end:\n%s", d)
		}
	}
	if tot := g.balance(); tot.Bankrolls+tot.OnTables != 2*10000 {
		t.Errorf("chips: %+v, want 20,000 in all", tot)
	}
}

// TestBareHelp: a newcomer's first line at the console is often a bare `help`: it is answered with
// the commands, not refused for lacking a name; any other line without a name says how to write it.
func TestBareHelp(t *testing.T) {
	g := newGame(t)
	if err := console.Run(context.Background(), g.d, g.chat, strings.NewReader("help\njoin 1000\n"), g.opts); err != nil {
		t.Fatal(err)
	}
	out := g.out.String()
	if !strings.Contains(out, "[to you] ") || !strings.Contains(out, "join") || strings.Count(out, "write a line as `name: command`") != 1 {
		t.Fatalf("bare help and a nameless line:\n%s", out)
	}
	if strings.Index(out, "write a line as") < strings.Index(out, "[to you] ") {
		t.Fatalf("help was refused:\n%s", out)
	}
}
