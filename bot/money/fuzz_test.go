package money

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// The parsers never panic, refuse with a sentence or accept something within their bounds.
func FuzzParseAmount(f *testing.F) {
	for _, s := range []string{"30", "30.00", "-1", "1e9", "1,000,000.00", "0.001", "", "."} {
		f.Add(s, "USD")
	}
	f.Add("5", "JPY")
	f.Fuzz(func(t *testing.T, s, cur string) {
		if _, ok := Digits(cur); !ok {
			return
		}
		n, err := ParseAmount(s, cur)
		if err == nil && (n <= 0 || n > MaxAmount*1_0000) {
			t.Fatalf("ParseAmount(%q, %s) = %d", s, cur, n)
		}
	})
}

func FuzzParseHandle(f *testing.F) {
	for _, s := range []string{"venmo @alice-w", "cashapp $bob", "paypal x", "zelle a@b.co", "other cash please", "other <@123>"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		words := strings.Fields(s)
		if len(words) == 0 {
			return
		}
		h, err := ParseHandle(words[0], words[1:])
		if err != nil {
			return
		}
		if utf8.RuneCountInString(h.Name) > 101 || strings.ContainsAny(h.Name, "<>`*|\n") {
			t.Fatalf("accepted handle %+v", h)
		}
	})
}

func FuzzParseValue(f *testing.F) {
	for _, s := range []string{"0.01", "1000", "0.000001", "1e3"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, err := ParseValue(s)
		if err == nil && (v.Units <= 0 || v.Scale > MaxValueScale) {
			t.Fatalf("ParseValue(%q) = %+v", s, v)
		}
	})
}
