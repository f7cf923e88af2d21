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
