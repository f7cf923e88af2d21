package chart

import (
	"bytes"
	"image/png"
	"os"
	"testing"
	"time"
)

func sample() Chart {
	d := func(day int) time.Time { return time.Date(2026, 1, day, 23, 0, 0, 0, time.UTC) }
	return Chart{Title: "Season results", YLabel: "net USD", Series: []Series{
		{Name: "alice", Points: []Point{{d(2), 12.5}, {d(9), 4}, {d(16), 30.25}}},
		{Name: "bob", Points: []Point{{d(2), -12.5}, {d(9), -4}, {d(16), -30.25}}},
	}}
}

// The chart is a valid PNG of the size it says.
func TestPNG(t *testing.T) {
	data, err := PNG(sample())
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
	if os.Getenv("CHART_OUT") != "" {
		_ = os.WriteFile(os.Getenv("CHART_OUT"), data, 0o644)
	}
}

func TestData(t *testing.T) {
	want := "Season results (net USD)\nalice: 2026-01-02=12.5 2026-01-09=4 2026-01-16=30.25\nbob: 2026-01-02=-12.5 2026-01-09=-4 2026-01-16=-30.25\n"
	if got := Data(sample()); got != want {
		t.Fatalf("Data:\n%s\nwant\n%s", got, want)
	}
}
