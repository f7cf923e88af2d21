package console_test

import (
	"bufio"
	"bytes"
	"context"
	"github.com/dealerbot/dealerbot/storage/storetest"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dealerbot/dealerbot/adapters/console"
	"github.com/dealerbot/dealerbot/bot"
	"github.com/dealerbot/dealerbot/bot/bottest"
	"github.com/dealerbot/dealerbot/bot/features"
	"github.com/dealerbot/dealerbot/render"
)

// Issue 28 item 9: the console.

// TestItem9TimerShowsItsSeconds: with timer=10 the turn shows 10 seconds left, not the 15 a dealer
// back from a restart grants, however little time passes between the step and the drawing.
func TestItem9TimerShowsItsSeconds(t *testing.T) {
	var mu sync.Mutex
	now := time.Date(2026, 11, 20, 20, 0, 0, 0, time.UTC)
	clock := func() time.Time { // time passes a little at every reading, as it does for real
		mu.Lock()
		defer mu.Unlock()
		now = now.Add(time.Millisecond)
		return now
	}
	var out bytes.Buffer
	chat := console.NewChat(&out)
	db := storetest.OpenDB(t)
	d, err := bot.New(db, chat, features.With(db, bot.Config{Now: clock, AfterFunc: bottest.NoTimer, RateLimit: bot.RateLimit{Off: true}}))
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close(context.Background())
	in := strings.NewReader("alice: start timer=10\nalice: join\nbob: join\nalice: deal\n")
	if err := console.Run(context.Background(), d, chat, in, console.Options{Flush: d.Flush}); err != nil {
		t.Fatal(err)
	}
	if text := out.String(); !strings.Contains(text, " 10s left.") || strings.Contains(text, " 15s left.") {
		t.Errorf("the turn does not show 10 seconds left:\n%s", text)
	}
}

// TestItem9HandWithoutADecisionInTheBox: a hand that ends without a decision (the blinds put both
// players all-in) is drawn in the table box like every other hand; a turn ping stays a line.
func TestItem9HandWithoutADecisionInTheBox(t *testing.T) {
	g := newGame(t)
	g.rnd.drawDeck(t, "As Kd")
	g.must("alice: start", "alice: join 400", "bob: join 400", "alice: set blinds=400/800", "alice: deal")
	if tr := g.table(); tr.Hand != nil || tr.HandNo != 1 {
		t.Fatalf("hand #1 did not end at once: %+v", tr.Hand)
	}
	out := g.out.String()
	i := strings.Index(out, "Hand #1 · ")
	if i < 0 || !strings.HasSuffix(out[:i], "┌──────────────────────────────────────────────\n│ ") {
		t.Errorf("hand #1 is not drawn in the box:\n%s", out)
	}
	var ping bytes.Buffer
	c := console.NewChat(&ping)
	if _, err := c.Post(context.Background(), bot.Message{Message: render.Message{Text: "🔔 @bob, it is your turn in hand #2."}}); err != nil {
		t.Fatal(err)
	}
	if got := ping.String(); got != "🔔 @bob, it is your turn in hand #2.\n" {
		t.Errorf("a ping is drawn as %q, want a line", got)
	}
}

// TestItem9BoxFitsEightyColumns: the table box and the button hints fit 80 columns: long lines wrap
// inside the box at spaces, so a number is never split across two lines.
func TestItem9BoxFitsEightyColumns(t *testing.T) {
	g := newGame(t)
	names := []string{"alexandra", "bartholomew", "cassiopeia", "demetrius"}
	g.must("alexandra: start blinds=10/20 timer=30")
	for _, n := range names {
		g.must(n + ": join 1234")
	}
	g.must("alexandra: deal")
	for i := 0; i < 12 && g.table().Hand != nil; i++ {
		for _, n := range names {
			g.say(n + ": raise 432")
			g.say(n + ": call")
		}
	}
	lines := strings.Split(g.out.String(), "\n")
	boxed, hint := 0, false
	for i, l := range lines {
		hint = strings.HasPrefix(l, "  buttons: ") || hint && strings.HasPrefix(l, "    ")
		if w := console.Columns(l); w > console.Width && (hint || strings.ContainsAny(l[:min(len(l), 3)], "│┌└")) {
			t.Errorf("line %d is %d columns wide: %q", i+1, w, l)
		}
		if !strings.HasPrefix(l, "│ ") {
			continue
		}
		boxed++
		if i+1 < len(lines) && strings.HasPrefix(lines[i+1], "│   ") {
			end := strings.TrimRight(l, " ")
			next := strings.TrimLeft(strings.TrimPrefix(lines[i+1], "│"), " ")
			if isDigitOrComma(end[len(end)-1]) && len(next) > 0 && isDigitOrComma(next[0]) {
				t.Errorf("a number split between lines %d and %d:\n%s\n%s", i+1, i+2, l, lines[i+1])
			}
		}
	}
	if boxed == 0 || !strings.Contains(g.out.String(), "│   ") {
		t.Fatalf("no wrapped line in the box:\n%s", g.out.String())
	}
}

func isDigitOrComma(b byte) bool { return b >= '0' && b <= '9' || b == ',' }

// TestWrap: lines wrap at spaces, continuation lines keep the line's indentation plus the indent,
// and only a word wider than a line is cut.
func TestWrap(t *testing.T) {
	tests := []struct {
		name  string
		line  string
		width int
		want  []string
	}{
		{"fits", "Pot 1,000", 10, []string{"Pot 1,000"}},
		{"at a space", "Last: alice raises to 1,234,567 · bob calls", 24, []string{"Last: alice raises to", "  1,234,567 · bob calls"}},
		{"indented", "  buttons: [Fold] fold | [Call 10] call", 20, []string{"  buttons: [Fold]", "    fold | [Call 10]", "    call"}},
		{"a long word", "deck 0123456789abcdef0123", 10, []string{"deck", "  01234567", "  89abcdef", "  0123"}},
		{"cards", "Board: 10♠ J♠ Q♠ K♠ A♠", 12, []string{"Board: 10♠", "  J♠ Q♠ K♠", "  A♠"}},
		{"wide", "🂡🂡🂡🂡 ok", 6, []string{"🂡🂡🂡", "  🂡", "  ok"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := console.Wrap(tt.line, tt.width, "  ")
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("Wrap(%q, %d) = %q, want %q", tt.line, tt.width, got, tt.want)
			}
			for _, l := range got {
				if w := console.Columns(l); w > tt.width {
					t.Errorf("%q is %d columns", l, w)
				}
			}
		})
	}
}

// TestItem9NamesWithoutCase: BOB is bob at the console (the name shows as first typed), and a name
// with control or right-to-left characters is refused with a sentence, changing nothing.
func TestItem9NamesWithoutCase(t *testing.T) {
	g := newGame(t)
	g.must("alice: start", "bob: join 1000")
	g.refuse("BOB: join 1000", "already seated")
	g.must("Bob: sitout")
	if st := g.table().Seats[0]; st.User != "bob" || !st.SittingOut || st.Name != "bob" {
		t.Errorf("Bob's sitout did not reach bob's seat: %+v", st)
	}
	cmd, ok, err := console.ParseLine("ADMIN: adjust @bob 5", console.Options{Admins: []string{"admin"}})
	if err != nil || !ok || !cmd.Admin || cmd.User != "admin" || cmd.UserName != "ADMIN" {
		t.Errorf("ADMIN parsed to %+v (%v): want the admin, named as typed", cmd, err)
	}
	for _, name := range []string{"ev\u202eil", "bo\u0007b", "zero\u200bwidth", "l\u2028ine", "\u2067bob"} {
		before := g.out.Len()
		if _, ok, err := console.ParseLine(name+": join", console.Options{}); err == nil || ok ||
			!strings.Contains(err.Error(), "control or right-to-left characters") {
			t.Errorf("name %q: ok %v, err %v; want a refusal naming the characters", name, ok, err)
		}
		if g.out.Len() != before {
			t.Errorf("name %q printed something", name)
		}
	}
}

// TestItem9HelpAtTheConsole: `help raise`, typed without a name, explains raise alone.
func TestItem9HelpAtTheConsole(t *testing.T) {
	g := newGame(t)
	if r := g.say("help raise"); r.IsError || r.Text != "raise N (or raise to N) — raise to N in all" {
		t.Errorf("help raise: %+v", r)
	}
}

// syncBuffer is a bytes.Buffer for a writer and a reader on two goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestItem9InputLineIntact: at a terminal, a message printed while a player is typing goes above the
// line being typed, which is drawn again after it, and the command typed reaches the dealer whole.
func TestItem9InputLineIntact(t *testing.T) {
	pr, pw := io.Pipe()
	screen := &syncBuffer{}
	e := console.NewEditor(struct {
		io.Reader
		io.Writer
	}{pr, screen})
	lines := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(e)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	pw.Write([]byte("alice: ra"))
	for deadline := time.Now().Add(5 * time.Second); !strings.Contains(screen.String(), "> alice: ra"); {
		if time.Now().After(deadline) {
			t.Fatalf("the typed keys are not echoed: %q", screen.String())
		}
		time.Sleep(time.Millisecond)
	}
	chat := console.NewChat(e)
	chat.Print("🔔 @alice, it is your turn in hand #3.")
	pw.Write([]byte("ise 60\r"))
	if got := <-lines; got != "alice: raise 60" {
		t.Errorf("the line read is %q, want alice: raise 60", got)
	}
	out := screen.String()
	ping := strings.Index(out, "🔔 @alice, it is your turn in hand #3.\r\n")
	if ping < 0 || !strings.Contains(out[ping:], "> alice: ra") {
		t.Errorf("the ping is not on a line of its own above the line being typed, drawn again:\n%q", out)
	}
	pw.Close()
}
