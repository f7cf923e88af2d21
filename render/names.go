package render

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

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

func cleanName(s string, p int) string {
	if needsCleaning(s) {
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

// needsCleaning reports whether s has leading, trailing, repeated or non-space white space.
func needsCleaning(s string) bool {
	prevSpace := true
	for _, r := range s {
		space := unicode.IsSpace(r)
		if space && (prevSpace || r != ' ') {
			return true
		}
		prevSpace = space
	}
	return prevSpace
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
