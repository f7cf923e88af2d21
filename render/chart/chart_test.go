package chart

import (
	"bytes"
	"flag"
	"fmt"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func sample() Chart {
	d := func(day int) time.Time { return time.Date(2026, 1, day, 23, 0, 0, 0, time.UTC) }
	return Chart{Title: "Season results", YLabel: "net USD", Sessions: []time.Time{d(2), d(9), d(16)}, Series: []Series{
		{Name: "alice", Points: []Point{{0, 12.5}, {1, 4}, {2, 30.25}}, Adjusted: []Point{{0, 6}, {1, 0}, {2, 20}}},
		{Name: "bob", Points: []Point{{0, -12.5}, {1, -4}, {2, -30.25}}, Adjusted: []Point{{0, -6}, {1, 0}, {2, -20}}},
	}}
}

var drawn int

func mustPNG(t *testing.T, c Chart) image.Image {
	t.Helper()
	data, err := PNG(c)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("not a PNG: %v", err)
	}
	if b := img.Bounds(); b.Dx() != Width || b.Dy() != Height {
		t.Fatalf("PNG is %dx%d, want %dx%d", b.Dx(), b.Dy(), Width, Height)
	}
	if out := os.Getenv("CHART_OUT"); out != "" {
		drawn++
		_ = os.WriteFile(filepath.Join(out, fmt.Sprintf("%s-%d.png", t.Name(), drawn)), data, 0o644)
	}
	return img
}

// The chart is a valid PNG of the size it says.
func TestPNG(t *testing.T) {
	mustPNG(t, sample())
}

// colourPixels counts the pixels of exactly colour i's shade in the rows from y0 down.
func colourPixels(img image.Image, i, y0 int) int {
	want := Colour(i)
	n := 0
	b := img.Bounds()
	for y := y0; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			if uint8(r>>8) == want.R && uint8(g>>8) == want.G && uint8(bl>>8) == want.B {
				n++
			}
		}
	}
	return n
}

// TestTiesVisible: players with the same results after every session (bob and carol here, the
// second and third lines) are both on the chart, drawn side by side, not one hidden under the
// other. The lines run downward, below the legend (top left), so the pixels counted are the
// lines' and their marks'.
func TestTiesVisible(t *testing.T) {
	d := func(day int) time.Time { return time.Date(2026, 1, day, 20, 0, 0, 0, time.UTC) }
	tied := []Point{{0, -10}, {1, -40}, {2, -80}, {3, -120}}
	c := Chart{Title: "ties", YLabel: "net chips", Sessions: []time.Time{d(2), d(9), d(16), d(23)}, Series: []Series{
		{Name: "alice", Points: []Point{{0, 20}, {1, 80}, {2, 160}, {3, 240}}},
		{Name: "bob", Points: tied},
		{Name: "carol", Points: tied},
	}}
	img := mustPNG(t, c)
	lower := Height / 2
	bob, carol := colourPixels(img, 1, lower), colourPixels(img, 2, lower)
	if bob < 200 || carol < 200 {
		t.Fatalf("in the lower half %d pixels are bob's and %d carol's: a tied player is hidden", bob, carol)
	}
	// Drawn alone, carol's line is about as visible as when tied with bob: the tie hides little of it.
	alone := c
	alone.Series = []Series{c.Series[0], {Name: "x", Points: []Point{{0, 1000}}}, c.Series[2]}
	if solo := colourPixels(mustPNG(t, alone), 2, lower); carol < solo/3 {
		t.Fatalf("carol has %d pixels tied with bob, %d alone", carol, solo)
	}
}

var update = flag.Bool("update", false, "rewrite the golden files")

// TestData: the chart's data series, against testdata/season.golden (go test -update rewrites it).
func TestData(t *testing.T) {
	got := Data(sample())
	path := filepath.Join("testdata", "season.golden")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to write it)", err)
	}
	if got != string(want) {
		t.Fatalf("chart data differs from %s:\ngot:\n%s\nwant:\n%s", path, got, want)
	}
}
