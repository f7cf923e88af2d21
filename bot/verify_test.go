package bot_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/dealerbot/dealerbot/bot"
	"github.com/dealerbot/dealerbot/engine"
	"github.com/dealerbot/dealerbot/render"
)

// TestVerifyLeaksNoFoldedCard plays many hands with folds, then asks `verify N` for each as an
// onlooker and as each player. The opened cards verify against the commitment posted before the
// hand; a folded player's cards are opened to nobody but that player; and no public message or
// onlooker's proof holds the salt of a card that was not opened, the hand's secret or its deck order.
func TestVerifyLeaksNoFoldedCard(t *testing.T) {
	r := newRig(t, bot.Config{})
	players := []string{"ann", "ben", "cid"}
	r.must("c1", "ann", "start timer=off")
	for _, p := range players {
		r.must("c1", p, "join 1000")
	}
	rnd := rand.New(rand.NewPCG(1, 2))
	for hand := 0; hand < 30; hand++ {
		if rep := r.cmd("c1", "ann", "deal"); rep.IsError {
			for _, p := range players {
				r.cmd("c1", p, "rebuy")
			}
			r.must("c1", "ann", "deal")
		}
		for step := 0; step < 60; step++ {
			_, inHand := r.seatStacks("c1")
			if !inHand {
				break
			}
			for _, p := range players {
				verbs := []string{"call", "check", "fold", "fold", "raise 40", "allin"}
				r.cmd("c1", p, verbs[rnd.IntN(len(verbs))])
			}
		}
	}
	ctx := context.Background()
	hands, err := r.db.Hands(ctx, "test/w/c1", 100)
	if err != nil || len(hands) < 20 {
		t.Fatalf("%d hands, %v", len(hands), err)
	}
	var public strings.Builder
	for _, m := range r.chat.all() {
		if !m.Private {
			public.WriteString(m.Text + "\n")
		}
	}
	folds := 0
	for _, hr := range hands {
		h, err := engine.Replay(hr.Setup(), hr.Actions)
		if err != nil {
			t.Fatal(err)
		}
		// The hand's table message carries the commitment's first 16 digits from its first version.
		commitment := render.DeckCommitment(hr.Deck, hr.Salt)
		if !strings.Contains(public.String(), fmt.Sprintf("Hand #%d · No-limit 5/10 · deck %s\n", hr.No, commitment[:16])) {
			t.Fatalf("hand %d: its commitment is not on its table message", hr.No)
		}
		onlooker := r.must("c1", "zed", fmt.Sprintf("verify %d", hr.No)).Text
		proofs := map[string]string{"zed": onlooker}
		for p, u := range hr.Users {
			proofs[u] = r.must("c1", u, fmt.Sprintf("verify %d", hr.No)).Text
			if h.Folded(p) {
				folds++
			}
		}
		leaked := public.String() + onlooker
		if strings.Contains(leaked, hr.Salt) || strings.Contains(leaked, engine.FormatCards(hr.Deck[:])) {
			t.Fatalf("hand %d: the secret or the deck order is public", hr.No)
		}
		shown := map[engine.Card]bool{}
		for _, ev := range h.Events() {
			if ev.Kind == engine.EvBoard || ev.Kind == engine.EvShow {
				for _, c := range ev.Cards {
					shown[c] = true
				}
			}
			if ev.Kind == engine.EvReveal {
				for _, rv := range ev.Hands {
					shown[rv.Cards[0]], shown[rv.Cards[1]] = true, true
				}
			}
		}
		for pos, c := range hr.Deck {
			salt := render.CardSalt(hr.Salt, pos)
			if shown[c] != strings.Contains(onlooker, salt) {
				t.Fatalf("hand %d: card %s (position %d) public %v, opened to an onlooker %v", hr.No, c, pos, shown[c], !shown[c])
			}
			if !shown[c] && strings.Contains(public.String(), salt) {
				t.Fatalf("hand %d: the salt of unshown card %s is in a channel message", hr.No, c)
			}
			if shown[c] && !render.VerifyOpening(commitment, render.Leaves(hr.Deck, hr.Salt), render.Opening{Pos: pos, Card: c, Salt: salt}) {
				t.Fatalf("hand %d: opened card %s does not verify", hr.No, c)
			}
		}
		for p, u := range hr.Users {
			for _, c := range h.Hole(p) {
				if shown[c] {
					continue
				}
				salt := render.CardSalt(hr.Salt, indexOf(hr.Deck, c))
				for asker, proof := range proofs {
					if strings.Contains(proof, salt) != (asker == u) {
						t.Fatalf("hand %d: %s's unshown card %s opened to %s: %v", hr.No, u, c, asker, asker != u)
					}
				}
			}
		}
	}
	if folds == 0 {
		t.Fatal("no player folded: the test proves nothing")
	}
	r.refused("c1", "zed", "verify 999", "Hand #999 has not finished")
	r.refused("c1", "zed", "verify x", "Write `verify 12`")
	if rep := r.must("c1", "zed", "verify"); !strings.Contains(rep.Text, "does not show that the shuffle was random") {
		t.Fatalf("verify help: %q", rep.Text)
	}
}

func indexOf(d engine.Deck, c engine.Card) int {
	for i, x := range d {
		if x == c {
			return i
		}
	}
	return -1
}

// TestExportInChat: `export` sends the asker a file of their own hands with their own hole cards and
// nobody else's unshown ones; `export N ohh` sends JSON; bad arguments are refused with a sentence.
func TestExportInChat(t *testing.T) {
	r := newRig(t, bot.Config{})
	r.must("c1", "ann", "start timer=off")
	r.must("c1", "ann", "join 1000")
	r.must("c1", "ben", "join 1000")
	for i := 0; i < 6; i++ {
		r.must("c1", "ann", "deal")
		for step := 0; step < 20; step++ {
			if _, inHand := r.seatStacks("c1"); !inHand {
				break
			}
			for _, u := range []string{"ann", "ben"} {
				r.cmd("c1", u, "call")
				r.cmd("c1", u, "check")
			}
		}
	}
	rep := r.must("c1", "ann", "export")
	if len(rep.Files) != 1 || !strings.HasSuffix(rep.Files[0].Name, ".txt") {
		t.Fatalf("export: %+v", rep)
	}
	text := string(rep.Files[0].Data)
	if got := strings.Count(text, "PokerStars Hand #"); got != 6 || strings.Count(text, "Dealt to ann [") != 6 || strings.Contains(text, "Dealt to ben") {
		t.Fatalf("ann's export holds %d hands:\n%s", got, text)
	}
	hands, _ := r.db.Hands(context.Background(), "test/w/c1", 10)
	for _, hr := range hands {
		h, _ := engine.Replay(hr.Setup(), hr.Actions)
		for p, u := range hr.Users {
			shown := false
			for _, ev := range h.Events() {
				shown = shown || ev.Kind == engine.EvShow && ev.Player == p
			}
			hole := h.Hole(p)
			if u == "ben" && !shown && strings.Contains(text, "["+hole[0].String()+" "+hole[1].String()+"]") {
				t.Fatalf("ben's unshown cards of hand %d are in ann's export", hr.No)
			}
		}
	}
	rep = r.must("c1", "ben", "export 2 ohh")
	if len(rep.Files) != 1 || strings.Count(string(rep.Files[0].Data), "\n") != 2 || !strings.HasSuffix(rep.Files[0].Name, ".json") {
		t.Fatalf("export 2 ohh: %+v", rep.Files)
	}
	if rep := r.must("c1", "ann", "export 1"); !strings.HasPrefix(rep.Text, "Your 1 hand from this table,") {
		t.Fatalf("export 1: %q, want one hand in the singular", rep.Text)
	}
	if rep := r.must("c1", "ann", "export session"); strings.Count(string(rep.Files[0].Data), "PokerStars Hand #") != 6 {
		t.Fatal("export session does not hold the session's hands")
	}
	r.refused("c1", "zed", "export", "You have no finished hands at this table")
	r.refused("c1", "ann", "export lots", "Write `export`")
	r.refused("c1", "ann", "export 99999", "up to 1000")
	r.refused("c2", "ann", "export session", "This channel has had no session with a hand yet")
}
