package hh

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/dealerbot/dealerbot/engine"
)

// Hands in which a player posted missed blinds (RULES.md section 13) export to PokerStars text and
// OHH with the posts, and read back to the same actions and final stacks.
func TestPostsExport(t *testing.T) {
	r := rand.New(rand.NewPCG(29, 3))
	tried, exported := 0, 0
	for i := 0; tried < 300 && i < 5000; i++ {
		h := randomHand(r, int64(i+1))
		n := len(h.Setup.Stacks)
		if n < 3 || h.Setup.BombPot > 0 || h.Setup.Straddle {
			continue
		}
		tried++
		// Replay the same actions with a post by the player under the gun where they stay legal.
		s := h.Setup
		s.Posts = make([]engine.Post, n)
		s.Posts[engine.UnderTheGun(n, s.Button)] = engine.Post{Live: s.Rules.BigBlind, Dead: s.Rules.SmallBlind}
		if _, err := engine.Replay(s, h.Actions); err != nil {
			continue
		}
		h.Setup = s
		exported++
		text, err := PokerStarsHand(&h)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(text, ": posts big blind") {
			t.Fatalf("no post in:\n%s", text)
		}
		checkRoundTrip(t, h, text)
		checkOHHRoundTrip(t, h)
		checkPHHRoundTrip(t, h)
	}
	if exported < 50 {
		t.Fatalf("only %d hands with posts exported", exported)
	}
}
