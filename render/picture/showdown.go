package picture

import (
	"image"
	"image/color"
	"strings"
	"unicode"

	"github.com/dealerbot/dealerbot/engine"
	"github.com/dealerbot/dealerbot/render"
)

// The showdown picture's layout, in pixels.
const (
	picWidth  = 640
	margin    = 16
	cardW     = 54
	cardH     = 76
	cardGap   = 6
	rowGap    = 12
	nameWidth = 172
	titleSize = 24
	nameSize  = 20
	lineSize  = 17
	maxHands  = engine.MaxPlayers
	maxPots   = engine.MaxPlayers
	maxName   = 24 // characters of a name drawn
)

var (
	felt    = color.RGBA{0x0c, 0x5a, 0x3a, 0xff}
	chalk   = color.RGBA{0xf2, 0xf4, 0xf0, 0xff}
	gold    = color.RGBA{0xff, 0xd5, 0x4f, 0xff}
	muted   = color.RGBA{0xbf, 0xd8, 0xc8, 0xff}
	divider = color.RGBA{0x1c, 0x74, 0x4e, 0xff}
)

// Showdown draws the showdown picture of v as a PNG: a felt-green panel with the title, the board, a
// row per hand shown (name, cards, what they make, what they won in gold) and the pots.
func Showdown(v render.Showdown) ([]byte, error) {
	hands := v.Hands[:min(len(v.Hands), maxHands)]
	pots := v.Pots[:min(len(v.Pots), maxPots)]
	h := margin + titleSize + rowGap
	h += len(boards(v)) * (cardH + rowGap)
	h += len(hands) * (cardH + rowGap)
	h += len(pots)*(lineSize+8) + margin
	p, err := newPainter(picWidth, h)
	if err != nil {
		return nil, err
	}
	p.fill(felt)
	y := margin
	p.text(clean(v.Title, 60), true, titleSize, margin, y+titleSize-4, chalk)
	y += titleSize + rowGap
	for _, b := range boards(v) {
		p.text(b.label, true, nameSize, margin, y+cardH/2+nameSize/3, muted)
		p.cards(b.cards, margin+nameWidth, y, v.Colours)
		y += cardH + rowGap
	}
	for _, s := range hands {
		p.line(margin, y-rowGap/2, picWidth-margin)
		p.text(fit(p, clean(s.Name, maxName), true, nameSize, nameWidth-10), true, nameSize, margin, y+cardH/2+nameSize/3, chalk)
		x := p.cards(s.Cards, margin+nameWidth, y, v.Colours) + 14
		room := picWidth - margin - x
		if s.Label != "" {
			p.text(fit(p, s.Label, false, lineSize, room), false, lineSize, x, y+cardH/2-4, chalk)
		}
		if s.Won > 0 {
			p.text("wins "+render.Chips(s.Won), true, lineSize, x, y+cardH/2+lineSize+2, gold)
		}
		y += cardH + rowGap
	}
	if len(pots) > 0 {
		p.line(margin, y-rowGap/2, picWidth-margin)
	}
	for _, line := range pots {
		y += lineSize + 8
		p.text(fit(p, clean(line, 200), false, lineSize, picWidth-2*margin), false, lineSize, margin, y, muted)
	}
	return p.png()
}

// labelled is a board with its label.
type labelled struct {
	label string
	cards []engine.Card
}

// boards are the boards of v: "Board", or "First board" and "Second board" for a hand run twice.
func boards(v render.Showdown) []labelled {
	if len(v.Board2) == 0 {
		if len(v.Board) == 0 {
			return nil
		}
		return []labelled{{"Board", v.Board}}
	}
	return []labelled{{"First board", v.Board}, {"Second board", v.Board2}}
}

// cards draws cards in a row from (x, y) and returns where the row ends.
func (p *painter) cards(cs []engine.Card, x, y int, col render.Colours) int {
	for i, c := range cs {
		if i > 0 {
			x += cardGap
		}
		p.card(image.Rect(x, y, x+cardW, y+cardH), min(c, Back), col)
		x += cardW
	}
	return x
}

// line draws a thin horizontal rule.
func (p *painter) line(x0, y, x1 int) {
	for x := x0; x < x1; x++ {
		p.dst.SetRGBA(x, y, divider)
	}
}

// clean makes a name drawable: control characters dropped, at most n characters, an ellipsis when cut.
func clean(s string, n int) string {
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || r == unicode.ReplacementChar {
			return -1
		}
		return r
	}, s)
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

// fit cuts s with an ellipsis until it is at most w pixels wide.
func fit(p *painter, s string, bold bool, size float64, w int) string {
	if p.width(s, bold, size) <= w {
		return s
	}
	r := []rune(s)
	for len(r) > 1 && p.width(string(r)+"…", bold, size) > w {
		r = r[:len(r)-1]
	}
	return string(r) + "…"
}

// AltText describes the showdown picture of v for screen readers, naming every card: "Hand #12.
// Board: King of diamonds, ten of clubs, ... Alice: Ace of spades, ace of hearts (a pair of aces),
// wins 1,200. Main pot 1,200: Alice."
func AltText(v render.Showdown) string {
	var parts []string
	if t := clean(v.Title, 60); t != "" {
		parts = append(parts, t+".")
	}
	for _, b := range boards(v) {
		parts = append(parts, b.label+": "+render.CardNames(b.cards)+".")
	}
	for _, s := range v.Hands {
		line := clean(s.Name, maxName) + ": " + render.CardNames(s.Cards)
		if s.Label != "" {
			line += " (" + s.Label + ")"
		}
		if s.Won > 0 {
			line += ", wins " + render.Chips(s.Won)
		}
		parts = append(parts, line+".")
	}
	for _, pot := range v.Pots {
		parts = append(parts, strings.TrimSuffix(clean(pot, 200), ".")+".")
	}
	return strings.Join(parts, " ")
}
