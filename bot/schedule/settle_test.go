package schedule

import (
	"strconv"
	"strings"
	"testing"
	"time"
)

func balances(pairs ...any) []Balance {
	var out []Balance
	for i := 0; i < len(pairs); i += 2 {
		name := pairs[i].(string)
		out = append(out, Balance{User: "U" + name, Name: name, Net: int64(pairs[i+1].(int))})
	}
	return out
}

func TestSeason(t *testing.T) {
	night := func(day int, pairs ...any) Result {
		return Result{Schedule: "1", Game: time.Date(2026, 11, day, 19, 0, 0, 0, time.UTC), Players: balances(pairs...)}
	}
	got := Season([]Result{
		night(6, "Alice", 500, "Bob", -300, "Carol", -200),
		night(13, "Alice", -100, "Bob", 400, "Dave", -300),
		night(20, "Bob", -50, "Carol", 250, "Dave", -200),
	})
	var lines []string
	for _, s := range got {
		lines = append(lines, strings.Join([]string{s.Name, itoa(s.Net), itoa(int64(s.Games)), itoa(int64(s.Wins)), itoa(s.Best)}, " "))
	}
	want := []string{"Alice 400 2 1 500", "Carol 50 2 1 250", "Bob 50 3 1 400", "Dave -500 2 0 -200"}
	if g, w := strings.Join(lines, "|"), strings.Join(want, "|"); g != w {
		t.Errorf("season = %q, want %q", g, w)
	}
	var total int64
	for _, s := range got {
		total += s.Net
	}
	if total != 0 {
		t.Errorf("season nets sum to %d, want 0 (chips only move between players)", total)
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
