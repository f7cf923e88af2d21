// Package chart draws the stats charts as PNG: cumulative results over a period's sessions, one line
// per player, with axes, dates and a legend. It draws with gonum.org/v1/plot and is pure: data in,
// PNG bytes out.
package chart

import (
	"bytes"
	"cmp"
	"fmt"
	"image/color"
	"slices"
	"strings"
	"time"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// Point is a player's cumulative result after one session: Session indexes Chart.Sessions.
type Point struct {
	Session int
	Y       float64
}

// Series is one player's line, and their all-in adjusted line (drawn dashed in the same colour; none
// when nil).
type Series struct {
	Name     string
	Points   []Point
	Adjusted []Point
}

// Chart is what to draw: the sessions, oldest first (the x axis has one tick on each, labelled with
// its date and time as given), and a line per player.
type Chart struct {
	Title    string
	YLabel   string // "net chips" or "net USD"
	Sessions []time.Time
	Series   []Series
}

// Size of the PNG, in pixels.
const (
	Width  = 960
	Height = 540
	dpi    = 96
)

// palette has distinguishable colours for up to ten players; more repeat them.
var palette = []color.RGBA{
	{0x1f, 0x77, 0xb4, 0xff}, {0xff, 0x7f, 0x0e, 0xff}, {0x2c, 0xa0, 0x2c, 0xff}, {0xd6, 0x27, 0x28, 0xff}, {0x94, 0x67, 0xbd, 0xff},
	{0x8c, 0x56, 0x4b, 0xff}, {0xe3, 0x77, 0xc2, 0xff}, {0x7f, 0x7f, 0x7f, 0xff}, {0xbc, 0xbd, 0x22, 0xff}, {0x17, 0xbe, 0xcf, 0xff},
}

// glyphs mark each player's points with a shape of their own, so that players whose lines meet
// are told apart by the marks too.
var glyphs = []draw.GlyphDrawer{draw.CircleGlyph{}, draw.SquareGlyph{}, draw.TriangleGlyph{}, draw.PyramidGlyph{},
	draw.CrossGlyph{}, draw.PlusGlyph{}, draw.RingGlyph{}, draw.BoxGlyph{}}

// Colour is the colour of the i-th series' line.
func Colour(i int) color.RGBA { return palette[i%len(palette)] }

// maxLabels is the most session labels under the x axis: with more sessions, every k-th is
// labelled (the others keep a tick without a label).
const maxLabels = 10

// dodge is how far apart, in pixels, the lines of players tied after a session (the same result,
// or within a pixel) are drawn there: side by side around their common value instead of one hidden
// under the other.
const dodge = 4

// spread returns where each series' points are drawn: at their values, except that points of one
// session closer than dodge pixels are spread dodge pixels apart around their middle, in the order
// of the series. perPixel is the y value one pixel stands for.
func spread(series [][]Point, sessions int, perPixel float64) [][]float64 {
	out := make([][]float64, len(series))
	type at struct{ s, j int }
	bySession := make([][]at, sessions)
	for s, pts := range series {
		out[s] = make([]float64, len(pts))
		for j, pt := range pts {
			out[s][j] = pt.Y
			if pt.Session >= 0 && pt.Session < sessions {
				bySession[pt.Session] = append(bySession[pt.Session], at{s, j})
			}
		}
	}
	for _, pts := range bySession {
		slices.SortStableFunc(pts, func(a, b at) int { return cmp.Compare(series[a.s][a.j].Y, series[b.s][b.j].Y) })
		for i := 0; i < len(pts); {
			k := i + 1
			for k < len(pts) && series[pts[k].s][pts[k].j].Y-series[pts[k-1].s][pts[k-1].j].Y < dodge*perPixel {
				k++
			}
			if k-i > 1 {
				group := slices.Clone(pts[i:k])
				slices.SortFunc(group, func(a, b at) int { return cmp.Compare(a.s, b.s) })
				var mid float64
				for _, g := range group {
					mid += series[g.s][g.j].Y
				}
				mid /= float64(len(group))
				for n, g := range group {
					out[g.s][g.j] = mid + (float64(len(group)-1)/2-float64(n))*dodge*perPixel
				}
			}
			i = k
		}
	}
	return out
}

// sessionTicks puts a tick on each session, every k-th labelled with its date and time (the year
// too when the sessions span more than one).
type sessionTicks []time.Time

func (s sessionTicks) Ticks(lo, hi float64) []plot.Tick {
	layout := "Mon 2 Jan\n15:04"
	if len(s) > 0 && s[0].Year() != s[len(s)-1].Year() {
		layout = "2 Jan 2006\n15:04"
	}
	every := (len(s) + maxLabels - 1) / maxLabels
	ticks := make([]plot.Tick, len(s))
	for i, t := range s {
		ticks[i].Value = float64(i)
		if i%every == 0 {
			ticks[i].Label = t.Format(layout)
		}
	}
	return ticks
}

// PNG draws c as a Width × Height PNG.
func PNG(c Chart) ([]byte, error) {
	p := plot.New()
	p.Title.Text = c.Title
	p.X.Label.Text = "session"
	p.Y.Label.Text = c.YLabel
	p.X.Tick.Marker = sessionTicks(c.Sessions)
	p.X.Min, p.X.Max = -0.5, float64(len(c.Sessions))-0.5
	p.Legend.Top = true
	p.Legend.Left = true
	p.Add(plotter.NewGrid())
	zero := plotter.NewFunction(func(float64) float64 { return 0 })
	zero.Color = color.Gray{Y: 0x80}
	zero.Dashes = []vg.Length{vg.Points(4), vg.Points(4)}
	p.Add(zero)
	// The y range, for how much a pixel is worth: the lines' own, padded below.
	lo, hi := 0.0, 0.0
	var mains, adjs [][]Point
	for _, sr := range c.Series {
		mains, adjs = append(mains, sr.Points), append(adjs, sr.Adjusted)
		for _, pt := range slices.Concat(sr.Points, sr.Adjusted) {
			lo, hi = min(lo, pt.Y), max(hi, pt.Y)
		}
	}
	perPixel := (hi - lo) * 1.12 / (Height * 0.8)
	mainY, adjY := spread(mains, len(c.Sessions), perPixel), spread(adjs, len(c.Sessions), perPixel)
	xys := func(pts []Point, ys []float64) plotter.XYs {
		out := make(plotter.XYs, len(pts))
		for j, pt := range pts {
			out[j] = plotter.XY{X: float64(pt.Session), Y: ys[j]}
		}
		return out
	}
	adjusted := false
	for i, s := range c.Series {
		col := Colour(i)
		if len(s.Adjusted) > 0 {
			adjusted = true
			l, err := plotter.NewLine(xys(s.Adjusted, adjY[i]))
			if err != nil {
				return nil, fmt.Errorf("series %s: %w", s.Name, err)
			}
			l.Color, l.Width = col, vg.Points(1.2)
			l.Dashes = []vg.Length{vg.Points(5), vg.Points(3)}
			p.Add(l)
		}
		line, points, err := plotter.NewLinePoints(xys(s.Points, mainY[i]))
		if err != nil {
			return nil, fmt.Errorf("series %s: %w", s.Name, err)
		}
		line.Color, line.Width = col, vg.Points(2)
		points.Color, points.Shape, points.Radius = col, glyphs[i%len(glyphs)], vg.Points(3.5)
		p.Add(line, points)
		p.Legend.Add(s.Name, line, points)
	}
	if adjusted {
		l, err := plotter.NewLine(plotter.XYs{{X: 0, Y: 0}})
		if err == nil {
			l.Color, l.Width = color.Gray{Y: 0x50}, vg.Points(1.2)
			l.Dashes = []vg.Length{vg.Points(5), vg.Points(3)}
			p.Legend.Add("dashed: all-in adjusted", l)
		}
	}
	// A little room above and below the lines, so the highest and lowest points are not on the frame.
	if pad := (p.Y.Max - p.Y.Min) * 0.06; pad > 0 {
		p.Y.Min, p.Y.Max = p.Y.Min-pad, p.Y.Max+pad
	}
	p.X.Min, p.X.Max = -0.5, float64(len(c.Sessions))-0.5
	canvas := vgimg.NewWith(vgimg.UseWH(vg.Length(Width)*vg.Inch/dpi, vg.Length(Height)*vg.Inch/dpi), vgimg.UseDPI(dpi))
	p.Draw(draw.New(canvas))
	var buf bytes.Buffer
	if _, err := (vgimg.PngCanvas{Canvas: canvas}).WriteTo(&buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// Data writes the chart's series as text, one line per player: what the golden test compares.
func Data(c Chart) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s (%s)\n", c.Title, c.YLabel)
	for _, s := range c.Series {
		fmt.Fprintf(&b, "%s:", s.Name)
		for _, p := range s.Points {
			fmt.Fprintf(&b, " %s=%g", c.Sessions[p.Session].Format("2006-01-02 15:04"), p.Y)
		}
		b.WriteString("\n")
		if len(s.Adjusted) > 0 {
			fmt.Fprintf(&b, "%s all-in adjusted:", s.Name)
			for _, p := range s.Adjusted {
				fmt.Fprintf(&b, " %s=%g", c.Sessions[p.Session].Format("2006-01-02 15:04"), p.Y)
			}
			b.WriteString("\n")
		}
	}
	return b.String()
}
