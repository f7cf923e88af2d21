package picture

import (
	"bytes"
	"crypto/sha256"
	"flag"
	"fmt"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dealerbot/dealerbot/engine"
	"github.com/dealerbot/dealerbot/render"
)

var update = flag.Bool("update", false, "rewrite the golden PNGs in testdata/ with the current output")

func card(t testing.TB, s string) engine.Card {
	t.Helper()
	c, err := engine.ParseCard(s)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func cards(t testing.TB, s string) []engine.Card {
	t.Helper()
	cs, err := engine.ParseCards(s)
	if err != nil {
		t.Fatal(err)
	}
	return cs
}

func decode(t *testing.T, b []byte) *image.RGBA {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("the PNG does not decode: %v", err)
	}
	out := image.NewRGBA(img.Bounds())
	for y := img.Bounds().Min.Y; y < img.Bounds().Max.Y; y++ {
		for x := img.Bounds().Min.X; x < img.Bounds().Max.X; x++ {
			out.Set(x, y, img.At(x, y))
		}
	}
	return out
}

// golden compares a PNG with testdata/name pixel for pixel (the PNG encoding may differ between Go
// versions; the picture may not), or rewrites it under -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./render/picture -update to write it)", err)
	}
	g, w := decode(t, got), decode(t, want)
	if g.Bounds() != w.Bounds() {
		t.Fatalf("%s: the picture is %v, the golden one %v", name, g.Bounds(), w.Bounds())
	}
	diff, first := 0, image.Point{-1, -1}
	for y := g.Bounds().Min.Y; y < g.Bounds().Max.Y; y++ {
		for x := g.Bounds().Min.X; x < g.Bounds().Max.X; x++ {
			if g.RGBAAt(x, y) != w.RGBAAt(x, y) {
				if diff == 0 {
					first = image.Pt(x, y)
				}
				diff++
			}
		}
	}
	if diff > 0 {
		bad := filepath.Join(t.TempDir(), name)
		_ = os.WriteFile(bad, got, 0o644)
		t.Errorf("%s: %d pixels differ from the golden picture, the first at %v (got %v, want %v); the new picture is %s",
			name, diff, first, g.RGBAAt(first.X, first.Y), w.RGBAAt(first.X, first.Y), bad)
	}
}

func TestGoldenCards(t *testing.T) {
	for _, tc := range []struct {
		name string
		card engine.Card
		col  render.Colours
	}{
		{"card-Kd.png", card(t, "Kd"), render.TwoColour},
		{"card-Tc.png", card(t, "Tc"), render.TwoColour},
		{"card-As.png", card(t, "As"), render.TwoColour},
		{"card-Kd-four.png", card(t, "Kd"), render.FourColour},
		{"card-Tc-four.png", card(t, "Tc"), render.FourColour},
		{"card-back.png", Back, render.TwoColour},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, err := Card(tc.card, tc.col)
			if err != nil {
				t.Fatal(err)
			}
			golden(t, tc.name, b)
		})
	}
}

func showdown(t testing.TB) render.Showdown {
	return render.Showdown{
		Title: "Hand #12 · No-limit 5/10",
		Board: cards(t, "Kd Tc 7h 7s 2c"),
		Hands: []render.Shown{
			{Name: "Alice", Cards: cards(t, "Ks Qh"), Label: "Two pair, kings and sevens", Won: 1250},
			{Name: "Bob the very long named player of cards", Cards: cards(t, "Ah Ad"), Label: "Two pair, aces and sevens", Won: 0},
			{Name: "Carol", Cards: cards(t, "9h 9d"), Label: "Two pair, nines and sevens", Won: 0},
		},
		Pots: []string{"Main pot 900: Alice", "Side pot 350: Alice"},
	}
}

func TestGoldenShowdown(t *testing.T) {
	v := showdown(t)
	b, err := Showdown(v)
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "showdown.png", b)

	v.Colours, v.Board2 = render.FourColour, cards(t, "Kd Tc 7h 3d 3h")
	four, err := Showdown(v)
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "showdown-twice-four.png", four)
}

// Every card and the back, in both colourings, decode as square EmojiSize PNGs under Discord's
// emoji limit, and no two of a deck are the same picture. The same card is drawn the same every time.
func TestDeckWithinDiscordLimits(t *testing.T) {
	for _, col := range []render.Colours{render.TwoColour, render.FourColour} {
		deck, err := Deck(col)
		if err != nil {
			t.Fatal(err)
		}
		seen := map[[32]byte]int{}
		if len(deck.Version) != 6 {
			t.Errorf("version %q, want 6 hex digits", deck.Version)
		}
		if again, _ := Deck(col); again.Version != deck.Version {
			t.Errorf("the same deck has versions %q and %q", deck.Version, again.Version)
		}
		for c, b := range deck.PNG {
			name := engine.Card(c).String()
			if engine.Card(c) == Back {
				name = "back"
			}
			if len(b) == 0 || len(b) > MaxEmojiBytes {
				t.Errorf("colours %d, %s: %d bytes, Discord takes 1 to %d", col, name, len(b), MaxEmojiBytes)
			}
			if len(b) > 16<<10 {
				t.Errorf("colours %d, %s: %d bytes; a card should be a few KiB", col, name, len(b))
			}
			img := decode(t, b)
			if img.Bounds() != image.Rect(0, 0, EmojiSize, EmojiSize) {
				t.Errorf("colours %d, %s: %v, want %dx%d", col, name, img.Bounds(), EmojiSize, EmojiSize)
			}
			sum := sha256.Sum256(img.Pix)
			if prev, ok := seen[sum]; ok {
				t.Errorf("colours %d: %s is drawn the same as %s", col, name, engine.Card(prev))
			}
			seen[sum] = c
			again, err := Card(engine.Card(c), col)
			if err != nil || !bytes.Equal(again, b) {
				t.Errorf("colours %d, %s: drawn twice, the PNGs differ (err %v)", col, name, err)
			}
		}
	}
	two, _ := Card(card(t, "Kd"), render.TwoColour)
	four, _ := Card(card(t, "Kd"), render.FourColour)
	if bytes.Equal(two, four) {
		t.Error("the king of diamonds is the same in both colourings; the four-colour deck has blue diamonds")
	}
	spadesTwo, _ := Card(card(t, "Ks"), render.TwoColour)
	spadesFour, _ := Card(card(t, "Ks"), render.FourColour)
	if !bytes.Equal(spadesTwo, spadesFour) {
		t.Error("the king of spades differs between colourings; spades are black in both")
	}
}

// The suit colour is where the ink is: a red king of diamonds, a blue one in four colours, a green
// ten of clubs in four colours.
func TestSuitColours(t *testing.T) {
	for _, tc := range []struct {
		card string
		col  render.Colours
		want string
	}{
		{"Kd", render.TwoColour, "red"}, {"Kd", render.FourColour, "blue"}, {"Tc", render.FourColour, "green"},
		{"Tc", render.TwoColour, "black"}, {"Qh", render.FourColour, "red"}, {"As", render.FourColour, "black"},
	} {
		b, err := Card(card(t, tc.card), tc.col)
		if err != nil {
			t.Fatal(err)
		}
		img := decode(t, b)
		counts := map[string]int{}
		for i := 0; i < len(img.Pix); i += 4 {
			r, g, bl, a := img.Pix[i], img.Pix[i+1], img.Pix[i+2], img.Pix[i+3]
			if a != 0xff {
				continue
			}
			switch {
			case r > 0xb0 && g < 0x40 && bl < 0x40:
				counts["red"]++
			case bl > 0xa0 && r < 0x40 && g < 0x80:
				counts["blue"]++
			case g > 0x70 && r < 0x30 && bl < 0x60:
				counts["green"]++
			case r < 0x30 && g < 0x30 && bl < 0x30:
				counts["black"]++
			}
		}
		best, n := "", 0
		for k, v := range counts {
			if v > n {
				best, n = k, v
			}
		}
		if best != tc.want || n < 1000 {
			t.Errorf("%s in colouring %d is inked %s (%d pixels; all %v), want %s", tc.card, tc.col, best, n, counts, tc.want)
		}
	}
}

func TestShowdownAltTextNamesEveryCard(t *testing.T) {
	v := showdown(t)
	got := AltText(v)
	for _, want := range []string{
		"Hand #12 · No-limit 5/10.",
		"Board: King of diamonds, ten of clubs, seven of hearts, seven of spades, two of clubs.",
		"Alice: King of spades, queen of hearts (Two pair, kings and sevens), wins 1,250.",
		"Carol: Nine of hearts, nine of diamonds (Two pair, nines and sevens).",
		"Main pot 900: Alice. Side pot 350: Alice.",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("alt text lacks %q:\n%s", want, got)
		}
	}
}

// Names are user input: control characters, a thousand characters or a name of only emoji neither
// break the picture nor make it larger than its rows need.
func TestShowdownHostileNames(t *testing.T) {
	v := showdown(t)
	v.Hands[0].Name = strings.Repeat("W", 1000)
	v.Hands[1].Name = "\x00\x1b[31mEvil\u202e\n"
	v.Hands[2].Name = "🂡🂱🃁🃑"
	b, err := Showdown(v)
	if err != nil {
		t.Fatal(err)
	}
	plain, _ := Showdown(showdown(t))
	if g, w := decode(t, b).Bounds(), decode(t, plain).Bounds(); g != w {
		t.Errorf("hostile names change the picture's size: %v, want %v", g, w)
	}
	if alt := AltText(v); strings.ContainsAny(alt, "\x00\x1b\n") || len(alt) > 2000 {
		t.Errorf("alt text keeps control characters or runs long: %q", alt)
	}
}

func BenchmarkCardImages(b *testing.B) {
	var size int
	for b.Loop() {
		deck, err := Deck(render.TwoColour)
		if err != nil {
			b.Fatal(err)
		}
		size = 0
		for _, p := range deck.PNG {
			size += len(p)
		}
	}
	b.ReportMetric(float64(size), "bytes/deck")
	b.ReportMetric(float64(size)/53, "bytes/card")
}

func BenchmarkShowdownPicture(b *testing.B) {
	v := showdown(b)
	var size int
	for b.Loop() {
		p, err := Showdown(v)
		if err != nil {
			b.Fatal(err)
		}
		size = len(p)
	}
	b.ReportMetric(float64(size), "bytes/picture")
}

func ExampleAltText() {
	v := render.Showdown{Title: "Hand #3", Board: []engine.Card{engine.NewCard(engine.King, engine.Diamonds)},
		Hands: []render.Shown{{Name: "Ann", Cards: []engine.Card{engine.NewCard(engine.Ten, engine.Clubs), engine.NewCard(engine.Two, engine.Hearts)}, Won: 40}}}
	fmt.Println(AltText(v))
	// Output: Hand #3. Board: King of diamonds. Ann: Ten of clubs, two of hearts, wins 40.
}
