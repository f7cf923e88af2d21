// Package console is the local adapter: it reads lines like `alice: raise 60` from a reader (a
// terminal or a script), hands them to the dealer as commands from user "alice" in workspace "local",
// channel "console", and prints what the dealer says: channel messages plainly, private messages as
// `[to alice] ...`, buttons as a hint line. It is also the bot's test fake.
package console

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/dealerbot/dealerbot/bot"
	"github.com/dealerbot/dealerbot/render"
)

// The fixed identity of the console.
const (
	Platform  = "console"
	Workspace = "local"
	Channel   = "console"
)

// Chat prints messages to a writer and keeps every message it was given, in order (every version of
// a table message too). It implements bot.Chat. Users listed with BlockDMs get bot.ErrDMBlocked for private messages, as a platform
// whose user refuses DMs would.
type Chat struct {
	mu      sync.Mutex
	out     io.Writer
	log     []bot.Message
	blocked map[string]bool
	next    int // table messages posted
	// keys are the keys of the channel posts printed (bot.Message.Key), the newest maxKeys: a post
	// sent again under one of them is not printed again.
	keys  map[string]bool
	order []string
}

// maxKeys is how many post keys a Chat remembers.
const maxKeys = 1024

// NewChat returns a Chat printing to out.
func NewChat(out io.Writer) *Chat {
	return &Chat{out: out, blocked: map[string]bool{}}
}

// BlockDMs makes private messages to user fail with bot.ErrDMBlocked.
func (c *Chat) BlockDMs(user string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.blocked[user] = true
}

// Send prints m and records it. A channel post with a key it printed before is not printed again.
func (c *Chat) Send(ctx context.Context, m bot.Message) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if m.Private && c.blocked[m.User] {
		return bot.ErrDMBlocked
	}
	if !m.Private && m.Key != "" {
		k := m.Workspace + "/" + m.Channel + "/" + m.Key
		if c.keys[k] {
			return nil
		}
		if c.keys == nil {
			c.keys = map[string]bool{}
		}
		c.keys[k] = true
		c.order = append(c.order, k)
		if len(c.order) > maxKeys {
			delete(c.keys, c.order[0])
			c.order = c.order[1:]
		}
	}
	c.log = append(c.log, m)
	if m.Private {
		c.printf("%s", prefixLines("[to "+m.User+"] ", m.Text))
	} else {
		c.printf("%s", m.Text)
	}
	if h := hintLines(m.Buttons, Width); h != "" {
		c.printf("%s", h)
	}
	return nil
}

var _ bot.Chat = (*Chat)(nil)

// Post draws a new table message and returns its ID. Each hand is one table message, redrawn in full
// whenever it changes, the way Discord and Slack show it: in its box even when it has no buttons (a
// hand that ended without a decision). A turn ping, the one other post, is a line.
func (c *Chat) Post(ctx context.Context, m bot.Message) (string, error) {
	c.mu.Lock()
	c.next++
	id := fmt.Sprintf("msg-%d", c.next)
	c.mu.Unlock()
	if isPing(m) {
		return id, c.Send(ctx, m)
	}
	return id, c.Edit(ctx, m, id)
}

// isPing reports whether a post is a turn ping: a short mention post with no buttons, which the
// dealer begins with a bell (the ping bot's startTurnTimer arms).
func isPing(m bot.Message) bool {
	return len(m.Buttons) == 0 && strings.HasPrefix(m.Text, "🔔")
}

// Delete does nothing: a terminal cannot take a line back, and a turn ping that went is harmless.
func (c *Chat) Delete(context.Context, bot.Message, string) error { return nil }

// Width is the terminal width the console draws for: the table box and the button hints fit in it.
const Width = 80

// Edit redraws table message id in full, in one write: its text between rules, each line wrapped
// inside the box, then its buttons' hint wrapped to Width, between buttons where it can.
func (c *Chat) Edit(_ context.Context, m bot.Message, _ string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.log = append(c.log, m)
	var b strings.Builder
	b.WriteString("┌──────────────────────────────────────────────\n")
	for _, l := range strings.Split(m.Text, "\n") {
		for _, w := range Wrap(l, Width-2, "  ") {
			b.WriteString("│ " + w + "\n")
		}
	}
	b.WriteString("└──────────────────────────────────────────────\n")
	if h := hintLines(m.Buttons, Width); h != "" {
		b.WriteString(h + "\n")
	}
	io.WriteString(c.out, b.String())
	return nil
}

// hintLines is the buttons' hint (ButtonHint) wrapped to width (0: one line), between buttons where
// it can, the same under a table message as under any other message or reply (a settle-up's Paid
// and Pay buttons made one line of 259 columns once); empty without buttons.
func hintLines(bs []render.Button, width int) string {
	if len(bs) == 0 {
		return ""
	}
	var parts []string
	token := ""
	for _, b := range bs {
		p := b.Command
		if b.URL != "" {
			p = b.URL // a link button: a chat opens it
		}
		if b.Amount {
			p += fmt.Sprintf(" <%d-%d>", b.Min, b.Max)
		}
		parts = append(parts, fmt.Sprintf("[%s] %s", b.Label, p))
		if b.Token != "" {
			token = b.Token
		}
	}
	h := "  buttons: " + strings.Join(parts, " | ")
	if token != "" {
		h += " (to click, end the line with #" + token + ")"
	}
	if width <= 0 {
		return h
	}
	var lines []string
	cur := ""
	for _, part := range strings.SplitAfter(h, " | ") {
		switch {
		case cur == "":
			cur = part
		case Columns(strings.TrimSuffix(cur+part, " | ")) <= width:
			cur += part
		default:
			lines = append(lines, strings.TrimSuffix(cur, " "))
			cur = "    " + part
		}
	}
	var out []string
	for _, l := range append(lines, cur) {
		out = append(out, Wrap(l, width, "    ")...) // a button wider than a line
	}
	return strings.Join(out, "\n")
}

// Wrap breaks a line into lines at most width columns wide, at spaces only, so a number or a word
// is never split; the lines after the first begin with the line's own indentation and indent. Only a
// word wider than a whole line is cut.
func Wrap(line string, width int, indent string) []string {
	if Columns(line) <= width {
		return []string{line}
	}
	lead := line[:len(line)-len(strings.TrimLeft(line, " "))]
	var out []string
	cur, curW := lead, Columns(lead)
	for _, w := range strings.Fields(line) {
		ww := Columns(w)
		switch {
		case curW > Columns(lead) && curW+1+ww <= width:
			cur, curW = cur+" "+w, curW+1+ww
			continue
		case curW > Columns(lead):
			out = append(out, cur)
			cur, curW = lead+indent, Columns(lead+indent)
		}
		for curW+ww > width && width-curW > 0 { // a word wider than a line: cut it
			head := cut(w, width-curW)
			out = append(out, cur+head)
			w = w[len(head):]
			ww = Columns(w)
			cur, curW = lead+indent, Columns(lead+indent)
		}
		cur, curW = cur+w, curW+ww
	}
	return append(out, cur)
}

// cut is the longest start of s at most n columns wide (at least one rune).
func cut(s string, n int) string {
	w := 0
	for i, r := range s {
		rw := Columns(string(r))
		if w+rw > n && i > 0 {
			return s[:i]
		}
		w += rw
	}
	return s
}

// Columns is how many terminal columns s takes: most characters one, emoji and East Asian wide
// characters two, combining marks and joiners none (an emoji presentation selector widens the
// character before it).
func Columns(s string) int {
	n := 0
	for _, r := range s {
		switch {
		case r == 0x200D || r >= 0x0300 && r <= 0x036F || r >= 0xFE00 && r <= 0xFE0E: // none
		case r == 0xFE0F: // the emoji form of the character before it (♠️): two columns in all
			n++
		case r >= 0x1100 && r <= 0x115F || r >= 0x2E80 && r <= 0xA4CF || r >= 0xAC00 && r <= 0xD7A3 ||
			r >= 0xF900 && r <= 0xFAFF || r >= 0xFF00 && r <= 0xFF60 || r >= 0x1F000:
			n += 2
		default:
			n++
		}
	}
	return n
}

// Messages returns a copy of every message sent so far.
func (c *Chat) Messages() []bot.Message {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]bot.Message(nil), c.log...)
}

// printf writes one block followed by a newline, in one write (a line editor redraws the line being
// typed after each write); c.mu is held.
func (c *Chat) printf(format string, args ...any) {
	io.WriteString(c.out, fmt.Sprintf(format, args...)+"\n")
}

// Print writes a block under the same lock as messages, so lines never interleave.
func (c *Chat) Print(text string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.printf("%s", text)
}

func prefixLines(prefix, text string) string {
	lines := strings.Split(text, "\n")
	for i := range lines {
		lines[i] = prefix + lines[i]
	}
	return strings.Join(lines, "\n")
}

// wrapLines wraps each line of text to Width (Wrap), the lines after the first of each indented.
func wrapLines(text string) string {
	var out []string
	for _, l := range strings.Split(text, "\n") {
		out = append(out, Wrap(l, Width, "    ")...)
	}
	return strings.Join(out, "\n")
}

// ButtonHint describes buttons as a line of commands to type, such as
// `  buttons: [Fold] fold | [Call 40] call | [Raise…] raise <80-1000> (to click, end the line with #5.2)`.
// The console prints it wrapped to Width (hintLines).
func ButtonHint(bs []render.Button) string { return hintLines(bs, 0) }

// Options configure Run.
type Options struct {
	// Admins are the users who act as chat admins (Command.Admin). Everyone else has only the
	// host's powers at tables they started.
	Admins []string
	// Flush, when set, waits until the dealer has written the channel messages a command caused
	// (bot.Dealer.Flush): with a Live chat they are written in the background.
	Flush func(ctx context.Context, channels ...bot.Command) error
	// FileDir is where files sent to a player (a stats chart, an export, the money CSV) are
	// written, their paths printed; the working directory when empty.
	FileDir string
}

// ParseLine reads `name: command [#token]` into a command from the console's fixed workspace and
// channel. ok is false for blank lines and comments (#). A bare `help` needs no name.
func ParseLine(line string, opts Options) (cmd bot.Command, ok bool, err error) {
	line = strings.TrimSpace(line)
	if line == "" || strings.HasPrefix(line, "#") {
		return bot.Command{}, false, nil
	}
	name, text, found := strings.Cut(line, ":")
	name = strings.TrimSpace(name)
	if f := strings.Fields(line); !found && strings.EqualFold(f[0], "help") {
		// help speaks for no player: a newcomer types it before knowing the `name: command` form.
		name, text, found = "you", line, true
	}
	if !found || name == "" || strings.ContainsAny(name, " \t") {
		return bot.Command{}, false, fmt.Errorf("write a line as `name: command`, for example `alice: join 1000`")
	}
	// A name may not hold control or formatting characters, among them the marks that turn text right to
	// left (U+202E) and the zero-width ones.
	for _, r := range name {
		if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || unicode.Is(unicode.Zl, r) || unicode.Is(unicode.Zp, r) ||
			r == utf8.RuneError {
			return bot.Command{}, false, fmt.Errorf("a name may not hold control or right-to-left characters: write it in plain letters, for example `alice: join 1000`")
		}
	}
	text = strings.TrimSpace(text)
	token := ""
	if i := strings.LastIndex(text, " #"); i >= 0 && !strings.Contains(text[i+2:], " ") {
		token = text[i+2:]
		text = strings.TrimSpace(text[:i])
	}
	// The name is the player: BOB is bob, so the user ID is the name in lower case; the name shows
	// as typed.
	cmd = bot.Command{Platform: Platform, Workspace: Workspace, Channel: Channel, User: strings.ToLower(name), UserName: name,
		Text: text, Token: token}
	for _, a := range opts.Admins {
		if strings.EqualFold(a, name) {
			cmd.Admin = true
		}
	}
	return cmd, true, nil
}

// Handler answers commands: the *bot.Dealer, or a test's script of one.
type Handler interface {
	Handle(ctx context.Context, cmd bot.Command) bot.Reply
}

// Run feeds every line of in to the handler d, in order, and prints each private reply through
// chat as `[to name] ...`. It returns at the end of in, or when ctx is cancelled.
func Run(ctx context.Context, d Handler, chat *Chat, in io.Reader, opts Options) error {
	sc := bufio.NewScanner(in)
	for sc.Scan() {
		if err := ctx.Err(); err != nil {
			return err
		}
		cmd, ok, err := ParseLine(sc.Text(), opts)
		if err != nil {
			chat.Print(err.Error())
			continue
		}
		if !ok {
			continue
		}
		r := d.Handle(ctx, cmd)
		if opts.Flush != nil {
			_ = opts.Flush(ctx) // the table's redraw comes before the reply, as a player would see it
		}
		// An empty reply (an action at a Live table, where the table changing is the answer) prints
		// nothing.
		if r.Text != "" || len(r.Extra) > 0 || len(r.Buttons) > 0 || len(r.Files) > 0 {
			chat.Print(FormatReplyIn(cmd.User, r, opts.FileDir))
		}
	}
	return sc.Err()
}

// FormatReplyIn prints a private reply that has something to show (Run prints nothing for an empty
// one, an action at a Live table, where the table changing is the answer): `[to alice] text`, then
// its extra messages and button hint.
// The reply's pictures (image/* files, such as a stats chart) are written as files in dir (the
// system's temporary directory when empty) and their paths printed, where a chat would show them;
// text files are printed.
func FormatReplyIn(user string, r bot.Reply, dir string) string {
	var b strings.Builder
	text := r.Text
	if r.IsError {
		text = "! " + text
	}
	// A reply is wrapped to the terminal's Width like the table (`help start` explains every option
	// in one long line of the platforms' text).
	b.WriteString(wrapLines(prefixLines("[to "+user+"] ", text)))
	for _, m := range r.Extra {
		b.WriteString("\n")
		b.WriteString(wrapLines(prefixLines("[to "+user+"] ", m.Text)))
	}
	if h := hintLines(r.Buttons, Width); h != "" {
		b.WriteString("\n")
		b.WriteString(h)
	}
	for _, f := range r.Files {
		// A file a chat would attach (a chart, an export, the money CSV) is written where the
		// player can open it, not poured into the terminal: its path is printed.
		what := "file"
		if strings.HasPrefix(f.ContentType, "image/") {
			what = "picture"
		}
		path, err := writeFile(dir, f)
		if err != nil {
			fmt.Fprintf(&b, "\n[to %s] ! the %s %s could not be written: %v", user, what, f.Name, err)
		} else {
			fmt.Fprintf(&b, "\n[to %s] %s %s (%d bytes) written to %s", user, what, f.Name, len(f.Data), path)
		}
	}
	return b.String()
}

// writeFile writes f to a new file in dir (the working directory when empty) named after it
// ("dealerbot-stats-123.png", never overwriting one there) and returns its absolute path.
func writeFile(dir string, f render.File) (string, error) {
	if dir == "" {
		dir = "."
	}
	ext := filepath.Ext(f.Name)
	out, err := os.CreateTemp(dir, strings.TrimSuffix(filepath.Base(f.Name), ext)+"-*"+ext)
	if err != nil {
		return "", err
	}
	if _, err := out.Write(f.Data); err != nil {
		out.Close()
		return "", err
	}
	if err := out.Close(); err != nil {
		return "", err
	}
	return filepath.Abs(out.Name())
}
