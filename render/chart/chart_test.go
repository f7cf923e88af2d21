package chart

import (
	"bytes"
	"flag"
	"image/png"
	"os"
	"path/filepath"
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
