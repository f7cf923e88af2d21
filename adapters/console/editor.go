package console

import (
	"io"
	"os"
	"sync"

	"golang.org/x/term"
)

// Editor is the console's input line at a terminal, golang.org/x/term's line editor: what the dealer
// prints while a player is typing (a turn ping, the table redrawn by a timer) goes above the line
// being typed, which is drawn again after it, so a message never lands in the middle of a command.
// Lines typed are read from it (Read); messages are written to it (Write). Ctrl-D on an empty line
// and Ctrl-C end the input.
type Editor struct {
	t   *term.Terminal
	mu  sync.Mutex // guards buf
	buf []byte     // the rest of the line typed, for Read
}

// NewEditor makes a line editor over rw, a terminal in raw mode (Terminal), or a test's pipe.
func NewEditor(rw io.ReadWriter) *Editor { return &Editor{t: term.NewTerminal(rw, "> ")} }

// Write prints p above the line being typed.
func (e *Editor) Write(p []byte) (int, error) { return e.t.Write(p) }

// Read returns what was typed, a line at a time, each ended with "\n".
func (e *Editor) Read(p []byte) (int, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if len(e.buf) == 0 {
		line, err := e.t.ReadLine()
		if err != nil {
			return 0, err
		}
		e.buf = append([]byte(line), '\n')
	}
	n := copy(p, e.buf)
	e.buf = e.buf[n:]
	return n, nil
}

// Terminal makes in and out, standard input and output, a line-editing terminal: in is put in raw
// mode until restore is called. ok is false when they are not both a terminal (a script piped in, a
// file): the console then reads and prints plain lines.
func Terminal(in, out *os.File) (e *Editor, restore func(), ok bool) {
	if !term.IsTerminal(int(in.Fd())) || !term.IsTerminal(int(out.Fd())) {
		return nil, nil, false
	}
	old, err := term.MakeRaw(int(in.Fd()))
	if err != nil {
		return nil, nil, false
	}
	e = NewEditor(struct {
		io.Reader
		io.Writer
	}{in, out})
	if w, h, err := term.GetSize(int(out.Fd())); err == nil && w > 0 && h > 0 {
		e.t.SetSize(w, h)
	}
	return e, func() { term.Restore(int(in.Fd()), old) }, true
}
