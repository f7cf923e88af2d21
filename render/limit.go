package render

import (
	"strconv"
	"strings"
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
	if Length(text) <= MaxText {
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
