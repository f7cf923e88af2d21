// Package chart draws the stats charts as PNG: cumulative results over a period's sessions, one line
// per player, with axes, dates and a legend. It draws with gonum.org/v1/plot and is pure: data in,
// PNG bytes out.
package chart

import (
	"bytes"
	"fmt"
	"image/color"
	"strings"
	"time"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// Point is one session's end: its time and the player's cumulative result after it.
type Point struct {
	At time.Time
	Y  float64
}

// Series is one player's line.
type Series struct {
	Name   string
	Points []Point
}

// Chart is what to draw.
type Chart struct {
	Title  string
	YLabel string // "net chips" or "net USD"
	Series []Series
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

// PNG draws c as a Width × Height PNG.
func PNG(c Chart) ([]byte, error) {
	p := plot.New()
	p.Title.Text = c.Title
	p.X.Label.Text = "session"
	p.Y.Label.Text = c.YLabel
	p.X.Tick.Marker = plot.TimeTicks{Format: "2 Jan\n2006", Time: func(t float64) time.Time { return time.Unix(int64(t), 0).UTC() }}
	p.Legend.Top = true
	p.Legend.Left = true
	p.Add(plotter.NewGrid())
	zero := plotter.NewFunction(func(float64) float64 { return 0 })
	zero.Color = color.Gray{Y: 0x80}
	zero.Dashes = []vg.Length{vg.Points(4), vg.Points(4)}
	p.Add(zero)
	for i, s := range c.Series {
		xys := make(plotter.XYs, len(s.Points))
		for j, pt := range s.Points {
			xys[j] = plotter.XY{X: float64(pt.At.Unix()), Y: pt.Y}
		}
		line, points, err := plotter.NewLinePoints(xys)
		if err != nil {
			return nil, fmt.Errorf("series %s: %w", s.Name, err)
		}
		col := palette[i%len(palette)]
		line.Color, line.Width = col, vg.Points(2)
		points.Color, points.Shape = col, draw.CircleGlyph{}
		p.Add(line, points)
		p.Legend.Add(s.Name, line, points)
	}
	// A little room above and below the lines, so the highest and lowest points are not on the frame.
	if pad := (p.Y.Max - p.Y.Min) * 0.06; pad > 0 {
		p.Y.Min, p.Y.Max = p.Y.Min-pad, p.Y.Max+pad
	}
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
			fmt.Fprintf(&b, " %s=%g", p.At.UTC().Format("2006-01-02"), p.Y)
		}
		b.WriteString("\n")
	}
	return b.String()
}
