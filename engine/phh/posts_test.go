package phh

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/dealerbot/dealerbot/engine"
)

// TestPostsRoundTrip: hands in which a player posted missed blinds (RULES.md section 13) are written
// with their posts (dealerbot_posts) and replay to the same stacks.
func TestPostsRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(29, 30))
	src := rand.NewChaCha8([32]byte{29})
	for i := 0; i < 200; i++ {
		n := 3 + r.IntN(engine.MaxPlayers-2)
		s := engine.Setup{Rules: engine.Rules{Variant: engine.Variant(r.IntN(3)), SmallBlind: 5, BigBlind: 10},
			Stacks: make([]int64, n), Button: r.IntN(n), Posts: make([]engine.Post, n)}
		for p := range s.Stacks {
			s.Stacks[p] = 1 + r.Int64N(400)
		}
		s.Posts[(s.Button+3+r.IntN(n-2))%n] = engine.Post{Live: 10, Dead: 5}
		d, err := engine.ShuffledDeck(src)
		if err != nil {
			t.Fatal(err)
		}
		s.Deck = d
		hand := playRandom(t, r, s)
		out, err := FromHand(hand, nil).Marshal()
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(out), postsKey) {
			t.Fatalf("hand %d: no %s in the history:\n%s", i, postsKey, out)
		}
		back, err := Parse(bytes.NewReader(out))
		if err != nil {
			t.Fatalf("hand %d: %v\n%s", i, err, out)
		}
		again, err := Replay(back)
		if err != nil {
			t.Fatalf("hand %d: written history does not replay: %v\n%s", i, err, out)
		}
		final := hand.Stacks()
		for j := 0; j < n; j++ {
			if got, want := again.Stacks()[j], final[(s.Button+1+j)%n]; got != want {
				t.Fatalf("hand %d: p%d ends with %d after the round trip, %d in the hand\n%s", i, j+1, got, want, out)
			}
		}
	}
}
