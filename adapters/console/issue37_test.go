package console_test

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/dealerbot/dealerbot/adapters/console"
	"github.com/dealerbot/dealerbot/bot/features"
)

// checkWidth fails for every line of out wider than the console's 80 columns, measured in display
// columns (an em dash or a card suit is one column, an emoji two), not bytes.
func checkWidth(t *testing.T, what, out string) {
	t.Helper()
	for _, l := range strings.Split(out, "\n") {
		if w := console.Columns(l); w > console.Width {
			t.Errorf("%s: a line of %d columns:\n%s", what, w, l)
		}
	}
}

// TestHelpFits80Columns (issue 37 item 6): `help` as the console prints it, behind "[to name] ",
// fits 80 columns, every line of it; so does `help COMMAND` for every command it lists, the details
// wrapped like the table (`help start` explains every option in one line of the platforms' text).
func TestHelpFits80Columns(t *testing.T) {
	g := newGame(t)
	if _, err := features.NewScheduler(g.d, g.db, features.ScheduleConfig{}); err != nil {
		t.Fatal(err)
	}
	r := g.say("alexandra: help")
	if r.IsError || !strings.Contains(r.Text, "help COMMAND") {
		t.Fatalf("help: %q", r.Text)
	}
	out := console.FormatReplyIn("alexandra", r, t.TempDir())
	if got, want := strings.Count(out, "\n")+1, strings.Count(r.Text, "\n")+1; got != want {
		t.Errorf("help printed in %d lines, want its %d lines unwrapped:\n%s", got, want, out)
	}
	checkWidth(t, "help", out)
	words := map[string]bool{}
	for _, l := range strings.Split(r.Text, "\n")[1:] {
		name, _, _ := strings.Cut(l, " — ")
		words[strings.Fields(strings.NewReplacer(",", " ", "/", " ").Replace(name))[0]] = true
	}
	for _, w := range []string{"start", "tournament", "money", "stats", "schedule", "set", "remind", "raise", "rebuy"} {
		words[w] = true
	}
	for w := range words {
		r := g.say("alexandra: help " + w)
		if r.IsError {
			t.Errorf("help %s: %q", w, r.Text)
			continue
		}
		checkWidth(t, "help "+w, console.FormatReplyIn("alexandra", r, t.TempDir()))
	}
}

// TestConsoleWritesFiles (issue 37 item 6): `export session` and `export money` write their file
// into the directory (the working directory when none is set) and print its path, as `stats chart`
// does with its picture, instead of pouring the file into the terminal; the file holds exactly what
// a chat would attach.
func TestConsoleWritesFiles(t *testing.T) {
	g := newGame(t)
	g.rnd.drawDeck(t, "As Kd Qh Jc")
	g.rnd.hand(t, 0, []string{"Kc Kh", "3c 2d", "Qc Qd", "Ac Ad"}, "2s 7d 9h 4s Jc")
	g.must("alice: start value=0.1 currency=USD", "alice: join 1000", "bob: join 1000", "carol: join 1000", "dave: join 1000", "alice: deal")
	g.must(moneyHand...)
	g.must("alice: end")
	dir := t.TempDir()
	for _, line := range []string{"alice: export session", "alice: export money", "alice: export 5 ohh"} {
		r := g.say(line)
		if r.IsError || len(r.Files) != 1 {
			t.Fatalf("%s: %+v", line, r)
		}
		out := console.FormatReplyIn("alice", r, dir)
		_, path, found := strings.Cut(out, " written to ")
		if !found || strings.Contains(out, string(r.Files[0].Data[:min(40, len(r.Files[0].Data))])) {
			t.Fatalf("%s: printed %q, want the file's path and not its text", line, out)
		}
		data, err := os.ReadFile(strings.TrimSpace(path))
		if err != nil || !bytes.Equal(data, r.Files[0].Data) {
			t.Fatalf("%s: the file at %s: %v, %d bytes, want %d", line, path, err, len(data), len(r.Files[0].Data))
		}
		if !strings.HasPrefix(strings.TrimSpace(path), dir) {
			t.Errorf("%s: written to %s, not into %s", line, path, dir)
		}
		checkWidth(t, line, strings.Split(out, " written to ")[0])
	}
	// Without a directory: the working directory.
	wd := t.TempDir()
	t.Chdir(wd)
	out := console.FormatReplyIn("alice", g.say("alice: export money"), "")
	if _, path, _ := strings.Cut(out, " written to "); !strings.HasPrefix(strings.TrimSpace(path), wd) {
		t.Errorf("without a directory the CSV went to %q, want the working directory %s", path, wd)
	}
}

// TestButtonLinesWrapped (issue 37 item 6): every buttons' line the console prints, under a message
// or a reply as under the table, is wrapped to 80 columns between buttons: the settle-up's Paid and
// Pay buttons (once one line of 259 columns) and the debts' buttons.
func TestButtonLinesWrapped(t *testing.T) {
	g := newGame(t)
	g.must("dave: payment paypal daveb", "bob: payment zelle bob@example.com", "alice: payment venmo @alice-w", "carol: payment cashapp $carolc")
	g.rnd.drawDeck(t, "As Kd Qh Jc")
	g.rnd.hand(t, 0, []string{"Kc Kh", "3c 2d", "Qc Qd", "Ac Ad"}, "2s 7d 9h 4s Jc")
	g.must("alice: start value=0.1 currency=USD", "alice: join 1000", "bob: join 1000", "carol: join 1000", "dave: join 1000", "alice: deal")
	g.must(moneyHand...)
	g.must("alice: end")
	settle := g.lastPublic()
	if len(settle.Buttons) < 4 || len(console.ButtonHint(settle.Buttons)) <= console.Width {
		t.Fatalf("the settle-up has %d buttons (%d columns unwrapped): the test needs a long line", len(settle.Buttons), len(console.ButtonHint(settle.Buttons)))
	}
	var hints []string
	for _, l := range strings.Split(g.out.String(), "\n") {
		if strings.HasPrefix(l, "  buttons:") || strings.HasPrefix(l, "    [") {
			hints = append(hints, l)
		}
	}
	if len(hints) == 0 {
		t.Fatal("no buttons printed")
	}
	checkWidth(t, "the channel's buttons", strings.Join(hints, "\n"))
	if !strings.Contains(g.out.String(), "https://paypal.me/daveb/") {
		t.Error("the settle-up's link buttons are not printed")
	}
	checkWidth(t, "bob's debts", console.FormatReplyIn("bob", g.say("bob: debts"), t.TempDir()))
}
