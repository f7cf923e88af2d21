package money

import (
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/dealerbot/dealerbot/bot/errs"
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

// remind= reads whole minutes, hours or days from 1m to 30d, or off; what it accepts formats back to
// the same delay.
func FuzzParseRemind(f *testing.F) {
	for _, s := range []string{"2d", "12h", "90m", "off", "5m", "30d", "31d", "0m", "12", "-3h", "1e3m", "99999999999999999999d"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d, err := ParseRemind(s)
		switch {
		case err != nil:
			if d != 0 || errs.CodeOf(err) != errs.Invalid {
				t.Fatalf("ParseRemind(%q) refused with %v, %v", s, d, err)
			}
		case d == 0:
			if !strings.EqualFold(s, "off") && !strings.EqualFold(s, "no") && !strings.EqualFold(s, "never") {
				t.Fatalf("ParseRemind(%q) = off", s)
			}
		case d < time.Minute || d > MaxRemind:
			t.Fatalf("ParseRemind(%q) = %v, out of bounds", s, d)
		default:
			if back, err := ParseRemind(FormatRemind(d)); err != nil || back != d {
				t.Fatalf("ParseRemind(%q) = %v, formatted %q read back as %v, %v", s, d, FormatRemind(d), back, err)
			}
		}
	})
}

func TestParseRemind(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want time.Duration
		ok   bool
	}{
		{"2d", 48 * time.Hour, true}, {"12h", 12 * time.Hour, true}, {"90m", 90 * time.Minute, true}, {"5m", 5 * time.Minute, true},
		{"off", 0, true}, {"30d", 30 * 24 * time.Hour, true},
		{"31d", 0, false}, {"0m", 0, false}, {"12", 0, false}, {"-3h", 0, false}, {"3w", 0, false}, {"", 0, false}, {"h", 0, false},
	} {
		d, err := ParseRemind(tt.in)
		if (err == nil) != tt.ok || d != tt.want {
			t.Errorf("ParseRemind(%q) = %v, %v; want %v, ok %v", tt.in, d, err, tt.want, tt.ok)
		}
		if err != nil && !strings.Contains(err.Error(), "for example remind=2d") {
			t.Errorf("ParseRemind(%q) refusal %q does not give the one example", tt.in, err)
		}
	}
}
