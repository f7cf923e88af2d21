package render

import (
	"fmt"
	"strings"

	"github.com/dealerbot/dealerbot/engine"
)

// HandView is everything the hand's table message shows: the table (stakes, board, pots, seats), the
// turn with its buttons, the hand's last few public lines, the deck commitment and, once the hand is
// over, its showdown and awards. The message is rendered whole from it every time the hand changes,
// and edited in place of the previous version.
type HandView struct {
	TableView
	Turn       *TurnView // the player to act; nil between turns and when the hand is over
	Log        []string  // the hand's public lines so far, oldest first
	Commitment string    // the deck commitment (hex); the message shows its first 16 digits
	Result     []string  // the showdown and awards, when the hand is over
	Over       bool
	Showdown   bool // hands were turned up; without, the hand was won by everyone else folding
}

// recentLines is how many of the hand's lines the table message shows while the hand is played.
const recentLines = 4

// MyCards is the button anyone seated can click at any time to see their hole cards privately.
var MyCards = Button{Label: "My cards", Command: "cards", Style: Secondary}

// HandTable is the hand's table message:
//
//	Hand #12 · No-limit 5/10 · deck 1a2b3c4d5e6f7a8b
//	Board: 7♦ 5♥ 9♦ · pot 300
//	• 1. Alice 1,250 · button
//	• 2. Bob 980 · bet 20
//	▶ 3. Carol 500 · to act
//	Last: Bob calls 20 · Carol raises to 60
//	▶ Carol to act on the flop — 40 to call. Raise to 100–500. 45s left.
//
// with the turn's buttons and "My cards" while the hand is played. Hole cards never appear in it
// before they are shown.
func HandTable(v HandView, style CardStyle) Message {
	tv := v.TableView
	head := fmt.Sprintf("Hand #%d · %s %s/%s", tv.HandNo, capitalize(tv.Variant.String()), Chips(tv.SmallBlind), Chips(tv.BigBlind))
	if tv.Ante > 0 {
		head += ", ante " + Chips(tv.Ante)
	}
	if t := strings.TrimSpace(tv.Title); t != "" && t != "Table" {
		head = t + " · " + head
	}
	if len(v.Commitment) >= 16 {
		head += " · deck " + v.Commitment[:16]
	}
	lines := append([]string{head}, tv.extra()...)
	build := func(withNames bool, recent int) string {
		out := append(append([]string(nil), lines...), tv.body(style, withNames)...)
		switch {
		case v.Over:
			if !v.Showdown && len(v.Log) > 0 && recent > 0 {
				// Won by folds: the last actions (and any uncalled bet) that ended it, then who won.
				from := max(0, len(v.Log)-recent)
				out = append(out, "Last: "+strings.Join(v.Log[from:], " · "))
			}
			out = append(out, v.Result...)
		case len(v.Log) > 0 && recent > 0:
			from := max(0, len(v.Log)-recent)
			out = append(out, "Last: "+strings.Join(v.Log[from:], " · "))
		}
		if v.Turn != nil && !v.Over {
			out = append(out, "▶ "+turn(*v.Turn, style).Text)
		}
		return strings.Join(out, "\n")
	}
	text := build(true, recentLines)
	if Length(text) > MaxText && style.Kind >= CardImages && style.Faces != nil {
		// A card picture takes some 30 characters: a long showdown is drawn with emoji cards instead of
		// being cut.
		return HandTable(v.withoutPictures(style.Faces), EmojiCards)
	}
	for recent := recentLines - 1; Length(text) > MaxText && recent >= 0; recent-- {
		text = build(false, recent)
	}
	m := Message{Text: clip(text)}
	if v.Turn != nil && !v.Over {
		m.Buttons = append(turn(*v.Turn, style).Buttons, MyCards)
	}
	return m
}

// withoutPictures is the view with the card pictures in its prepared lines (the hand's log, result and
// notes) drawn as emoji cards.
func (v HandView) withoutPictures(f *Faces) HandView {
	pairs := make([]string, 0, 2*len(f))
	for c, face := range f {
		if face != "" && c < 52 {
			pairs = append(pairs, face, Card(engine.Card(c), EmojiCards))
		}
	}
	r := strings.NewReplacer(pairs...)
	redo := func(lines []string) []string {
		out := make([]string, len(lines))
		for i, l := range lines {
			out[i] = r.Replace(l)
		}
		return out
	}
	v.Log, v.Result, v.Notes = redo(v.Log), redo(v.Result), redo(v.Notes)
	return v
}
