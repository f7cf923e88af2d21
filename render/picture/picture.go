// Package picture draws cards and showdowns as PNG images: the card faces and back that Discord shows
// as the application's emojis, and the picture of a hand's showdown attached to its table message.
//
// It is pure and self-contained: the letters and suit signs come from the Go fonts and the shapes from
// the vector rasterizer of golang.org/x/image, nothing is read from disk or the network, and the same
// input always gives the same bytes.
package picture

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"sync"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"
	"golang.org/x/image/vector"

	"github.com/dealerbot/dealerbot/engine"
	"github.com/dealerbot/dealerbot/render"
)

// Back stands for the card back where a card is expected (Card, Deck).
const Back engine.Card = 52

// EmojiSize is the width and height of a card emoji in pixels.
const EmojiSize = 128

// MaxEmojiBytes is the largest image Discord takes as an emoji.
const MaxEmojiBytes = 256 << 10

var (
	white   = color.RGBA{0xff, 0xff, 0xff, 0xff}
	edge    = color.RGBA{0x7a, 0x80, 0x8a, 0xff}
	black   = color.RGBA{0x14, 0x14, 0x18, 0xff}
	red     = color.RGBA{0xd0, 0x1c, 0x24, 0xff}
	green   = color.RGBA{0x0f, 0x84, 0x3c, 0xff}
	blue    = color.RGBA{0x12, 0x5c, 0xc8, 0xff}
	navy    = color.RGBA{0x1d, 0x33, 0x7a, 0xff}
	lattice = color.RGBA{0x4a, 0x66, 0xb8, 0xff}
)

// ink is the colour a suit is drawn in.
func ink(s engine.Suit, c render.Colours) color.RGBA {
	switch {
	case s == engine.Hearts:
		return red
	case s == engine.Diamonds && c == render.FourColour:
		return blue
	case s == engine.Diamonds:
		return red
	case s == engine.Clubs && c == render.FourColour:
		return green
	}
	return black
}

var suitSigns = [4]string{engine.Clubs: "♣", engine.Diamonds: "♦", engine.Hearts: "♥", engine.Spades: "♠"}

// fonts are the Go Bold and Go Regular fonts, parsed once.
var fonts = sync.OnceValues(func() ([2]*opentype.Font, error) {
	var out [2]*opentype.Font
	for i, ttf := range [][]byte{gobold.TTF, goregular.TTF} {
		f, err := opentype.Parse(ttf)
		if err != nil {
			return out, err
		}
		out[i] = f
	}
	return out, nil
})

// painter draws on one image. It is not safe for concurrent use: its faces are not.
type painter struct {
	dst   *image.RGBA
	z     *vector.Rasterizer
	bold  *opentype.Font
	reg   *opentype.Font
	faces map[faceKey]font.Face
}

type faceKey struct {
	bold bool
	size float64
}

func newPainter(w, h int) (*painter, error) {
	fs, err := fonts()
	if err != nil {
		return nil, err
	}
	return &painter{
		dst:   image.NewRGBA(image.Rect(0, 0, w, h)),
		z:     vector.NewRasterizer(w, h),
		bold:  fs[0],
		reg:   fs[1],
		faces: map[faceKey]font.Face{},
	}, nil
}

func (p *painter) face(bold bool, size float64) font.Face {
	k := faceKey{bold, size}
	if f, ok := p.faces[k]; ok {
		return f
	}
	fnt := p.reg
	if bold {
		fnt = p.bold
	}
	f, err := opentype.NewFace(fnt, &opentype.FaceOptions{Size: size, DPI: 72, Hinting: font.HintingNone})
	if err != nil {
		// NewFace fails only for a size of zero or less, which no caller asks for.
		panic(err)
	}
	p.faces[k] = f
	return f
}

// roundRect fills a rectangle with rounded corners of radius rad with src. The rasterizer covers
// only the rectangle, so a small card on a large picture costs only its own pixels.
func (p *painter) roundRect(x0, y0, x1, y1, rad float32, src image.Image) {
	const k = 0.5523 // a quarter circle as one cubic Bézier
	r := image.Rect(int(x0), int(y0), int(x1+0.999), int(y1+0.999)).Intersect(p.dst.Bounds())
	if r.Empty() {
		return
	}
	ox, oy := float32(r.Min.X), float32(r.Min.Y)
	x0, y0, x1, y1 = x0-ox, y0-oy, x1-ox, y1-oy
	p.z.Reset(r.Dx(), r.Dy())
	rad = min(rad, (x1-x0)/2, (y1-y0)/2)
	p.z.MoveTo(x0+rad, y0)
	p.z.LineTo(x1-rad, y0)
	p.z.CubeTo(x1-rad+k*rad, y0, x1, y0+rad-k*rad, x1, y0+rad)
	p.z.LineTo(x1, y1-rad)
	p.z.CubeTo(x1, y1-rad+k*rad, x1-rad+k*rad, y1, x1-rad, y1)
	p.z.LineTo(x0+rad, y1)
	p.z.CubeTo(x0+rad-k*rad, y1, x0, y1-rad+k*rad, x0, y1-rad)
	p.z.LineTo(x0, y0+rad)
	p.z.CubeTo(x0, y0+rad-k*rad, x0+rad-k*rad, y0, x0+rad, y0)
	p.z.ClosePath()
	p.z.Draw(p.dst, r, src, r.Min)
}

// text draws s with its left edge at x and its baseline at y, and returns its width.
func (p *painter) text(s string, bold bool, size float64, x, y int, c color.Color) int {
	d := font.Drawer{Dst: p.dst, Src: image.NewUniform(c), Face: p.face(bold, size), Dot: fixed.P(x, y)}
	d.DrawString(s)
	return (d.Dot.X - fixed.I(x)).Ceil()
}

// width is how wide s is drawn.
func (p *painter) width(s string, bold bool, size float64) int {
	return font.MeasureString(p.face(bold, size), s).Ceil()
}

// glyphs draws s centred on cx, its inked top at top (when top >= 0) or its inked bottom at -bottom,
// at the largest size up to size whose ink is at most maxW wide.
func (p *painter) glyphs(s string, size float64, cx, maxW float64, top, bottom float64, c color.Color) {
	f := p.face(true, size)
	bounds, _ := font.BoundString(f, s)
	if w := float64(bounds.Max.X-bounds.Min.X) / 64; w > maxW {
		size = float64(int(size*maxW/w*4)) / 4 // quarter points, so the result stays exact
		f = p.face(true, size)
		bounds, _ = font.BoundString(f, s)
	}
	inkW := float64(bounds.Max.X-bounds.Min.X) / 64
	x := cx - inkW/2 - float64(bounds.Min.X)/64
	var y float64
	if top >= 0 {
		y = top - float64(bounds.Min.Y)/64
	} else {
		y = bottom - float64(bounds.Max.Y)/64
	}
	d := font.Drawer{Dst: p.dst, Src: image.NewUniform(c), Face: f,
		Dot: fixed.Point26_6{X: fixed.Int26_6(x * 64), Y: fixed.Int26_6(y * 64)}}
	d.DrawString(s)
}

// card draws card c (or Back) filling r: a white card with a grey edge, the rank large in the top
// half and the suit large in the bottom half, both in the suit's colour.
func (p *painter) card(r image.Rectangle, c engine.Card, col render.Colours) {
	x0, y0, x1, y1 := float32(r.Min.X), float32(r.Min.Y), float32(r.Max.X), float32(r.Max.Y)
	w, h := x1-x0, y1-y0
	rad := w * 0.12
	bw := max(1.5, w/48)
	p.roundRect(x0, y0, x1, y1, rad, image.NewUniform(edge))
	p.roundRect(x0+bw, y0+bw, x1-bw, y1-bw, rad-bw, image.NewUniform(white))
	if c > 51 {
		in := w * 0.09
		p.roundRect(x0+in, y0+in, x1-in, y1-in, rad-in/2, backPattern{int(w / 8)})
		return
	}
	rank := c.Rank().String()
	if c.Rank() == engine.Ten {
		rank = "10"
	}
	fg := ink(c.Suit(), col)
	cx := float64(x0+x1) / 2
	fw, fh := float64(w), float64(h)
	p.glyphs(rank, fh*0.56, cx, fw*0.84, float64(y0)+fh*0.07, 0, fg)
	p.glyphs(suitSigns[c.Suit()], fh*0.62, cx, fw*0.78, -1, float64(y1)-fh*0.07, fg)
}

// backPattern is the card back: a light diamond lattice on navy, cell pixels wide.
type backPattern struct{ cell int }

func (backPattern) ColorModel() color.Model { return color.RGBAModel }
func (backPattern) Bounds() image.Rectangle {
	return image.Rect(-1e9, -1e9, 1e9, 1e9)
}
func (b backPattern) At(x, y int) color.Color {
	n := max(b.cell, 4)
	u, v := (x+y)%n, (x-y+4*n*1000)%n
	if u == 0 || v == 0 {
		return lattice
	}
	return navy
}

// png encodes the picture at the default compression: the best compression takes ten times as long
// for a few percent.
func (p *painter) png() ([]byte, error) {
	var buf bytes.Buffer
	var enc png.Encoder
	if err := enc.Encode(&buf, p.dst); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// Card draws card c, or the back for Back, as a square EmojiSize PNG: a portrait card centred on a
// transparent background, readable at the size chat shows an emoji.
func Card(c engine.Card, col render.Colours) ([]byte, error) {
	p, err := cardPainter(c, col)
	if err != nil {
		return nil, err
	}
	return p.png()
}

func cardPainter(c engine.Card, col render.Colours) (*painter, error) {
	p, err := newPainter(EmojiSize, EmojiSize)
	if err != nil {
		return nil, err
	}
	const side = EmojiSize / 16 // the card is 112x128
	p.card(image.Rect(side, 0, EmojiSize-side, EmojiSize), min(c, Back), col)
	return p, nil
}

// DeckImages are a deck's card images: PNG[c] is card c and PNG[Back] the back. Version names the
// design: it is a digest of the pixels, so it changes when any card is drawn differently and not when
// only the PNG encoding does.
type DeckImages struct {
	PNG     [53][]byte
	Version string
}

// Deck draws the 52 faces and the back.
func Deck(col render.Colours) (DeckImages, error) {
	var out DeckImages
	h := sha256.New()
	for c := range out.PNG {
		p, err := cardPainter(engine.Card(c), col)
		if err != nil {
			return out, err
		}
		h.Write(p.dst.Pix)
		if out.PNG[c], err = p.png(); err != nil {
			return out, err
		}
	}
	out.Version = hex.EncodeToString(h.Sum(nil))[:6]
	return out, nil
}

// fill paints the whole image.
func (p *painter) fill(c color.Color) {
	draw.Draw(p.dst, p.dst.Bounds(), image.NewUniform(c), image.Point{}, draw.Src)
}
