package schedule

import (
	"testing"
	"time"
)

// BenchmarkNext: one next-game computation. Target: under 20 µs (a `schedule add` reply computes
// three; a tick computes one per schedule that moves on).
func BenchmarkNext(b *testing.B) {
	s := mustParse(b, "every tue,thu 21:00", "America/New_York")
	t := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	for b.Loop() {
		t = s.Next(t)
	}
}

// BenchmarkSettleUp10: the settle-up of a full ten-player table, exact search. Target: under 1 ms.
func BenchmarkSettleUp10(b *testing.B) {
	bs := balances("A", 1200, "B", -300, "C", 450, "D", -75, "E", -1000, "F", 333, "G", -333, "H", 25, "I", -150, "J", -150)
	for b.Loop() {
		if _, err := SettleUp(bs); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSettleUp16: the largest night settled exactly (16 players). Target: under 100 ms.
func BenchmarkSettleUp16(b *testing.B) {
	var bs []Balance
	var sum int64
	for i := range 15 {
		n := int64((i*37)%11-5) * 100
		bs = append(bs, Balance{User: string(rune('a' + i)), Name: string(rune('A' + i)), Net: n})
		sum += n
	}
	bs = append(bs, Balance{User: "p", Name: "P", Net: -sum})
	for b.Loop() {
		if _, err := SettleUp(bs); err != nil {
			b.Fatal(err)
		}
	}
}
