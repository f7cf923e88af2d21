package record

import (
	"math/rand/v2"
	"reflect"
	"testing"
	"time"

	"github.com/dealerbot/dealerbot/bot/table"
	"github.com/dealerbot/dealerbot/engine"
	"github.com/dealerbot/dealerbot/storage/internal/handgen"
)

// TestHandCodecPosts: a hand in which players posted missed blinds (RULES.md section 13) keeps its
// posts, cash or tournament, read back exactly and refused when cut short; a hand without posts is
// written as before (TestItem11TournamentHandCodec checks an old record byte for byte).
func TestHandCodecPosts(t *testing.T) {
	r := rand.New(rand.NewPCG(29, 13))
	for i := 0; i < 300; i++ {
		h := handgen.Played(r, "discord/1/2", int64(i+1))
		h.Posts = make([]engine.Post, len(h.Stacks))
		h.Posts[i%len(h.Stacks)] = engine.Post{Live: h.Rules.BigBlind, Dead: h.Rules.SmallBlind}
		if i%2 == 1 {
			h.Tournament = &table.TournamentHand{Began: time.Unix(1795440000, 0).UTC(), BuyIn: 100, Stack: 1500, Level: 1}
		}
		v := EncodeHand(h)
		got, err := DecodeHand(h.Table, h.No, v)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, h) {
			t.Fatalf("hand with posts read back differs:\n got %+v\nwant %+v", got.Posts, h.Posts)
		}
		for cut := 1; cut < len(v); cut++ {
			if _, err := DecodeHand(h.Table, h.No, v[:cut]); err == nil {
				t.Fatalf("a hand with posts cut to %d of %d bytes was read without error", cut, len(v))
			}
		}
	}
}
