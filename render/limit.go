package render

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// MaxText is the longest message text any function here returns: Discord refuses messages over 2000
// characters, and Slack's limits are higher. Length is counted in UTF-16 code units, as Discord
// counts, so an emoji outside the Basic Multilingual Plane counts twice.
const MaxText = 2000

// Length returns the length of s as Discord counts it (UTF-16 code units).
func Length(s string) int {
	n := 0
	for _, r := range s {
		if r > 0xFFFF {
			n += 2
		} else {
			n++
		}
	}
	return n
}

// Split cuts text into pieces of at most MaxText, at line breaks where it can. The bot may use it for
// any long text of its own (help, history).
func Split(text string) []string {
	if Length(text) <= MaxText {
		return []string{text}
	}
	var out []string
	var cur strings.Builder
	curLen := 0
	flush := func() {
		if curLen > 0 || cur.Len() > 0 {
			out = append(out, cur.String())
			cur.Reset()
			curLen = 0
		}
	}
	for _, line := range strings.Split(text, "\n") {
		for _, piece := range cutLine(line) {
			l := Length(piece)
			if cur.Len() > 0 && curLen+1+l > MaxText {
				flush()
			}
			if cur.Len() > 0 {
				cur.WriteByte('\n')
				curLen++
			}
			cur.WriteString(piece)
			curLen += l
		}
	}
	flush()
	return out
}

// cutLine cuts one line longer than MaxText into pieces at rune boundaries.
func cutLine(line string) []string {
	if Length(line) <= MaxText {
		return []string{line}
	}
	var out []string
	start, n := 0, 0
	for i, r := range line {
		w := 1
		if r > 0xFFFF {
			w = 2
		}
		if n+w > MaxText {
			out = append(out, line[start:i])
			start, n = i, 0
		}
		n += w
	}
	return append(out, line[start:])
}

// clip shortens text to MaxText for functions that must return one message; it cuts at a line break
// where it can and says how many lines were left out.
func clip(text string) string {
	// No character takes more UTF-16 units than UTF-8 bytes: a text of at most MaxText bytes, most
	// messages, fits without being measured.
	if len(text) <= MaxText || Length(text) <= MaxText {
		return text
	}
	lines := strings.Split(text, "\n")
	// Keep the longest run of whole lines that fits with the note; the note is at most 30 characters.
	used, k := 0, 0
	for k < len(lines) {
		l := Length(lines[k])
		if k > 0 {
			l++
		}
		if used+l > MaxText-30 {
			break
		}
		used += l
		k++
	}
	if k == 0 {
		return cutLine(text)[0]
	}
	return strings.Join(lines[:k], "\n") + "\n… and " + strconv.Itoa(len(lines)-k) + " more lines"
}

// --- names: cut to fit a one-line message -----------------------------------------------------------

// Names holds the display name of each player of a hand, by the player's index in the hand.
type Names []string

// maxName is the most characters of a display name a message shows. Discord allows 32; Slack allows
// longer names, which would let ten players push a message past the 2000-character limit.
const maxName = 32

// Name returns player p's display name cleaned for a one-line message: line breaks become spaces and
// long names are cut with "…". A missing or empty name becomes "Player N" (N counting from 1).
func (ns Names) Name(p int) string {
	if p < 0 {
		return "Someone" // events about no one player carry -1; they should never be named
	}
	if p >= len(ns) {
		return "Player " + strconv.Itoa(p+1)
	}
	return cleanName(ns[p], p)
}

// cleanName is s cleaned for a one-line message (see Names.Name), p the player's index.
func cleanName(s string, p int) string {
	// Only a name with leading, trailing, repeated or non-space white space is rebuilt; most names
	// are used as they are.
	messy, space := false, true // space: the rune before was white space, or there was none
	for _, r := range s {
		before := space
		space = unicode.IsSpace(r)
		if space && (before || r != ' ') {
			messy = true
			break
		}
	}
	if messy || space {
		s = strings.Join(strings.Fields(s), " ")
	}
	if s == "" {
		return "Player " + strconv.Itoa(p+1)
	}
	n := 0
	for i := range s {
		if n == maxName-1 && utf8.RuneCountInString(s[i:]) > 1 {
			return s[:i] + "…"
		}
		n++
	}
	return s
}

// list joins names the way a sentence does: "Alice", "Alice and Bob", "Alice, Bob and Carol".
func list(items []string) string {
	switch len(items) {
	case 0:
		return ""
	case 1:
		return items[0]
	}
	return strings.Join(items[:len(items)-1], ", ") + " and " + items[len(items)-1]
}

func (ns Names) of(players []int) []string {
	out := make([]string, len(players))
	for i, p := range players {
		out[i] = ns.Name(p)
	}
	return out
}
