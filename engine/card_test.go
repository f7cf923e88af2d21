package engine

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

func TestParseCard(t *testing.T) {
	tests := []struct {
		in   string
		want string
		ok   bool
	}{
		{"As", "As", true}, {"td", "Td", true}, {"9c", "9c", true}, {"10h", "Th", true}, {" 2S ", "2s", true},
		{"", "", false}, {"A", "", false}, {"1s", "", false}, {"Ax", "", false}, {"Asd", "", false},
	}
	for _, tt := range tests {
		c, err := ParseCard(tt.in)
		if (err == nil) != tt.ok {
			t.Fatalf("ParseCard(%q) error %v, want ok=%v", tt.in, err, tt.ok)
		}
		if tt.ok && c.String() != tt.want {
			t.Fatalf("ParseCard(%q) = %s, want %s", tt.in, c, tt.want)
		}
	}
	cs, err := ParseCards("AsKd 10h, 2c")
	if err != nil || FormatCards(cs) != "AsKdTh2c" {
		t.Fatalf("ParseCards = %v, %v", cs, err)
	}
}

func FuzzParseCards(f *testing.F) {
	for _, s := range []string{"AsKd", "10h 2c", "", "zz", "Ts,Js"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		cs, err := ParseCards(s)
		if err != nil {
			return
		}
		again, err := ParseCards(FormatCards(cs))
		if err != nil || FormatCards(again) != FormatCards(cs) {
			t.Fatalf("%q: format/parse round trip gave %v, %v", s, again, err)
		}
	})
}

func TestShuffledDeckIsAPermutationAndReplays(t *testing.T) {
	seed := bytes.Repeat([]byte{7, 1, 200, 33}, 1000)
	a, err := ShuffledDeck(bytes.NewReader(seed))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := ShuffledDeck(bytes.NewReader(seed))
	if !a.Valid() || a != b {
		t.Fatal("the same random bytes must give the same valid deck")
	}
	if a == OrderedDeck() {
		t.Fatal("deck not shuffled")
	}
	if _, err := ShuffledDeck(bytes.NewReader(nil)); err == nil {
		t.Fatal("an exhausted source must be an error")
	}
}

// The shuffle is unbiased: every card lands in the first position about equally often.
func TestShuffleIsUniform(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	src := rngReader{r}
	const n = 52 * 2000
	var counts [52]int
	for i := 0; i < n; i++ {
		d, _ := ShuffledDeck(src)
		counts[d[0]]++
	}
	// Chi-square with 51 degrees of freedom: 99.9th percentile is about 90.
	var chi float64
	exp := float64(n) / 52
	for _, c := range counts {
		chi += (float64(c) - exp) * (float64(c) - exp) / exp
	}
	if chi > 90 {
		t.Fatalf("chi-square %.1f: first card not uniform", chi)
	}
}

type rngReader struct{ r *rand.Rand }

func (g rngReader) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = byte(g.r.Uint32())
	}
	return len(p), nil
}

func TestDeckFromRefusesDuplicates(t *testing.T) {
	if _, err := DeckFrom(MustParseCards("AsAs")); err == nil {
		t.Fatal("duplicate card accepted")
	}
	d, err := DeckFrom(MustParseCards("AsKd"))
	if err != nil || d[0].String() != "As" || d[1].String() != "Kd" || !d.Valid() {
		t.Fatalf("DeckFrom: %v %v", d[:2], err)
	}
}
