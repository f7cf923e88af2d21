package money

import (
	"math/rand/v2"
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

// square applies ps to bs and returns what is left of each balance, by user.
func square(tb testing.TB, bs []Balance, ps []Payment) map[string]int64 {
	tb.Helper()
	left := map[string]int64{}
	for _, b := range bs {
		left[b.User] += b.Net
	}
	for _, p := range ps {
		if p.Amount <= 0 {
			tb.Fatalf("payment %v is not positive", p)
		}
		if _, ok := left[p.From.User]; !ok {
			tb.Fatalf("payment from unknown player %v", p)
		}
		left[p.From.User] += p.Amount
		left[p.To.User] -= p.Amount
	}
	return left
}

func TestSettleUp(t *testing.T) {
	tests := []struct {
		name string
		in   []Balance
		want string
	}{
		{"one loser one winner", balances("Alice", 350, "Bob", -350), "Bob pays Alice 350"},
		{"nobody played", nil, ""},
		{"everyone even", balances("Alice", 0, "Bob", 0), ""},
		{"loser pays two winners", balances("Alice", 600, "Carol", 400, "Bob", -1000),
			"Bob pays Alice 600|Bob pays Carol 400"},
		// Chips that do not divide evenly: 1,001 lost by one player is won unevenly by three.
		{"uneven three ways", balances("Alice", 334, "Bob", 334, "Carol", 333, "Dave", -1001),
			"Dave pays Alice 334|Dave pays Bob 334|Dave pays Carol 333"},
		{"odd amounts both sides", balances("Alice", 1337, "Bob", -667, "Carol", -671, "Dave", 1),
			"Carol pays Alice 671|Bob pays Alice 666|Bob pays Dave 1"},
		// Two separate zero-sum pairs need two payments, not three.
		{"two pairs", balances("Alice", 500, "Bob", -300, "Carol", 300, "Dave", -500),
			"Dave pays Alice 500|Bob pays Carol 300"},
		{"pair and triple", balances("A", 70, "B", -70, "C", 50, "D", 25, "E", -75),
			"E pays C 50|E pays D 25|B pays A 70"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ps, err := SettleUp(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, p := range ps {
				got = append(got, p.String())
			}
			if g := strings.Join(got, "|"); g != tt.want {
				t.Errorf("payments = %q, want %q", g, tt.want)
			}
			for u, v := range square(t, tt.in, ps) {
				if v != 0 {
					t.Errorf("%s is left with %d after the payments", u, v)
				}
			}
		})
	}
}

func TestSettleUpUnbalanced(t *testing.T) {
	ps, err := SettleUp(balances("Alice", 350, "Bob", -349))
	if err == nil || !strings.Contains(err.Error(), "off by 1 chips") {
		t.Errorf("error = %v, want one saying the results are off by 1", err)
	}
	if ps != nil {
		t.Errorf("payments = %v, want none", ps)
	}
}

// TestSettleUpProperty: for random nights of 2 to 12 players (and some of 20, beyond the exact
// search), the payments square every balance, number at most players-1, and never exceed what the
// payer lost or the payee won.
func TestSettleUpProperty(t *testing.T) {
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	r := rand.New(rand.NewPCG(seed, 7))
	for iter := 0; iter < 3000; iter++ {
		n := 2 + r.IntN(11)
		if iter%100 == 0 {
			n = 20
		}
		bs := make([]Balance, n)
		var sum int64
		for i := range bs {
			bs[i] = Balance{User: string(rune('a' + i)), Name: string(rune('A' + i))}
			if i < n-1 {
				// Small ranges make zero-sum subgroups common, so the grouping is exercised.
				bs[i].Net = int64(r.IntN(11)-5) * []int64{1, 7, 100}[r.IntN(3)]
				sum += bs[i].Net
			}
		}
		bs[n-1].Net = -sum
		ps, err := SettleUp(bs)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		nonzero := 0
		for _, b := range bs {
			if b.Net != 0 {
				nonzero++
			}
		}
		if len(ps) > max(0, nonzero-1) {
			t.Fatalf("seed %d: %d payments for %d players with a balance: %v", seed, len(ps), nonzero, bs)
		}
		for u, v := range square(t, bs, ps) {
			if v != 0 {
				t.Fatalf("seed %d: %s left with %d; balances %v payments %v", seed, u, v, bs, ps)
			}
		}
		for _, p := range ps {
			if p.From.Net >= 0 || p.To.Net <= 0 || p.Amount > -p.From.Net || p.Amount > p.To.Net {
				t.Fatalf("seed %d: payment %v goes the wrong way or too far", seed, p)
			}
		}
	}
}

// TestSettleUpFewest compares against brute force on small nights: no split into zero-sum groups
// could save a payment.
func TestSettleUpFewest(t *testing.T) {
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	r := rand.New(rand.NewPCG(seed, 11))
	for iter := 0; iter < 500; iter++ {
		n := 2 + r.IntN(7)
		bs := make([]Balance, n)
		var sum int64
		for i := range bs {
			bs[i] = Balance{User: string(rune('a' + i)), Name: string(rune('A' + i))}
			if i < n-1 {
				bs[i].Net = int64(r.IntN(7) - 3)
				sum += bs[i].Net
			}
		}
		bs[n-1].Net = -sum
		ps, err := SettleUp(bs)
		if err != nil {
			t.Fatal(err)
		}
		if want := fewest(bs); len(ps) != want {
			t.Fatalf("seed %d: %d payments for %v, brute force needs %d", seed, len(ps), bs, want)
		}
	}
}

// fewest is the brute-force minimum: non-zero players minus the most zero-sum groups, found by
// trying every way to peel off a zero-sum subset containing the first player.
func fewest(bs []Balance) int {
	var live []int64
	for _, b := range bs {
		if b.Net != 0 {
			live = append(live, b.Net)
		}
	}
	var groups func(v []int64) int
	groups = func(v []int64) int {
		if len(v) == 0 {
			return 0
		}
		best := 0
		rest := v[1:]
		for m := 0; m < 1<<len(rest); m++ {
			sum := v[0]
			var left []int64
			for i, x := range rest {
				if m&(1<<i) != 0 {
					sum += x
				} else {
					left = append(left, x)
				}
			}
			if sum == 0 {
				best = max(best, 1+groups(left))
			}
		}
		return best
	}
	return len(live) - groups(live)
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
