package bot_test

import (
	"context"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/dealerbot/dealerbot/bot"
	"github.com/dealerbot/dealerbot/bot/table"
	"github.com/dealerbot/dealerbot/engine"
)

// keptHands returns the numbers of every hand kept for channel ch, newest first.
func (r *rig) keptHands(ch string) []int64 {
	r.tb.Helper()
	hands, err := r.db.Hands(context.Background(), "test/w/"+ch, 1000)
	if err != nil {
		r.tb.Fatal(err)
	}
	var nos []int64
	for _, h := range hands {
		nos = append(nos, h.No)
	}
	return nos
}

func eqNos(t *testing.T, what string, got, want []int64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %v, want %v", what, got, want)
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("%s: %v, want %v", what, got, want)
		}
	}
}

var psHandID = regexp.MustCompile(`PokerStars Hand #(\d+):`)

// TestHandRecordsKeptAcrossSessions: a second session in a channel numbers its hands after the first
// one's, so every finished hand is kept under its own number: history, export, export session and
// verify see each hand once, also right after `end`.
func TestHandRecordsKeptAcrossSessions(t *testing.T) {
	r := newRig(t, bot.Config{})
	r.must("c1", "ann", "start timer=off")
	r.must("c1", "ann", "join 1000")
	r.must("c1", "ben", "join 1000")
	for i := 0; i < 2; i++ {
		r.must("c1", "ann", "deal")
		r.playOut("c1", "ann", "ben")
	}
	r.must("c1", "ann", "end")

	// Right after `end` the channel's hands are still there.
	if rep := r.must("c1", "ben", "history"); !strings.HasPrefix(rep.Text, "Hand #2 ") {
		t.Fatalf("history after end: %q", rep.Text)
	}
	if rep := r.must("c1", "ann", "export session"); strings.Count(string(rep.Files[0].Data), "PokerStars Hand #") != 2 {
		t.Fatalf("export session after end holds %d hands, want 2", strings.Count(string(rep.Files[0].Data), "PokerStars Hand #"))
	}

	r.advance(time.Minute)
	r.must("c1", "ann", "start timer=off")
	r.must("c1", "ann", "join 1000")
	r.must("c1", "ben", "join 1000")
	if rep := r.must("c1", "ann", "deal"); rep.Text != "Dealt hand #3." {
		t.Fatalf("the new session's first hand: %q, want hand #3", rep.Text)
	}
	r.playOut("c1", "ann", "ben")
	eqNos(t, "hands kept", r.keptHands("c1"), []int64{3, 2, 1})

	if rep := r.must("c1", "ben", "history"); !strings.HasPrefix(rep.Text, "Hand #3 ") {
		t.Fatalf("history: %q, want hand #3 first", rep.Text)
	}
	if rep := r.must("c1", "ben", "history last 3"); !strings.HasPrefix(rep.Text, "Hand #1 ") {
		t.Fatalf("history last 3: %q, want hand #1", rep.Text)
	}
	rep := r.must("c1", "ann", "export")
	ids := psHandID.FindAllStringSubmatch(string(rep.Files[0].Data), -1)
	if len(ids) != 3 {
		t.Fatalf("export holds %d hands, want 3", len(ids))
	}
	seen := map[string]bool{}
	for _, id := range ids {
		if seen[id[1]] {
			t.Fatalf("hand id %s is exported twice", id[1])
		}
		seen[id[1]] = true
	}
	if rep := r.must("c1", "ann", "export session"); strings.Count(string(rep.Files[0].Data), "PokerStars Hand #") != 1 {
		t.Fatal("export session of the second session does not hold exactly its one hand")
	}

	// Hand #4 is in play: verify 4 must not open another hand #4.
	r.must("c1", "ann", "deal")
	r.refused("c1", "zed", "verify 4", "Hand #4 has not finished")
	if rep := r.must("c1", "zed", "verify 1"); !strings.Contains(rep.Text, "Hand #1:") {
		t.Fatalf("verify 1: %q", rep.Text)
	}
	r.playOut("c1", "ann", "ben")
	r.must("c1", "ann", "end")
	if tot := r.balance(); tot.OnTables != 0 || tot.Bankrolls != tot.BroughtIn {
		t.Fatalf("chips after both sessions: %+v", tot)
	}
}

// TestCollidedHandKeysMigrated: a database written before hand numbers went on across sessions may
// hold an earlier session's hands numbered at or above the running session's. Nothing kept is
// overwritten: the hand in play is kept beside the older hand of its number, and the next hand is
// numbered above every kept one.
func TestCollidedHandKeysMigrated(t *testing.T) {
	r := newRig(t, bot.Config{})
	r.must("c1", "ann", "start timer=off")
	r.must("c1", "ann", "join 1000")
	r.must("c1", "ben", "join 1000")
	r.must("c1", "ann", "deal")
	r.playOut("c1", "ann", "ben")
	r.must("c1", "ann", "deal") // hand #2 in play

	// An older session's hands #2 to #5, as the old version left them.
	old := r.mustHand("c1", 1)
	for no := int64(2); no <= 5; no++ {
		h := old
		h.No, h.Time = no, old.Time.Add(-time.Hour)
		if err := r.db.Commit(context.Background(), table.Change{Hand: &h}); err != nil {
			t.Fatal(err)
		}
	}
	r.restart()
	r.playOut("c1", "ann", "ben")
	eqNos(t, "hands kept", r.keptHands("c1"), []int64{5, 4, 3, 2, 2, 1})
	if h := r.mustHand("c1", 2); !h.Time.Equal(r.clock()) {
		t.Fatalf("hand #2 reads the older hand (%v), want the one just played", h.Time)
	}
	if rep := r.must("c1", "ann", "deal"); rep.Text != "Dealt hand #6." {
		t.Fatalf("next hand: %q, want hand #6", rep.Text)
	}
	r.playOut("c1", "ann", "ben")
	eqNos(t, "hands kept", r.keptHands("c1"), []int64{6, 5, 4, 3, 2, 2, 1})
	for _, no := range []int64{2, 6} {
		h := r.mustHand("c1", no)
		if _, err := engine.Replay(h.Setup(), h.Actions); err != nil {
			t.Fatalf("hand #%d does not replay: %v", no, err)
		}
	}
}

func (r *rig) mustHand(ch string, no int64) table.HandRecord {
	r.tb.Helper()
	h, ok, err := r.db.Hand(context.Background(), "test/w/"+ch, no)
	if err != nil || !ok {
		r.tb.Fatalf("hand #%d of %s: %v %v", no, ch, ok, err)
	}
	return h
}

// TestRefusalsWithoutTableOrScheduler: history in a channel that never had a game, a bad history
// number after `end`, and the schedule commands where no scheduler runs are each refused with a
// sentence and change nothing.
func TestRefusalsWithoutTableOrScheduler(t *testing.T) {
	r := newRig(t, bot.Config{})
	r.refused("c9", "ann", "history", "There is no game in this channel yet")
	r.refused("c9", "ann", "history 3", "There is no game in this channel yet")
	r.refused("c9", "ann", "schedule list", "Scheduled games are not available here.")
	r.refused("c9", "ann", "rsvp yes", "Scheduled games are not available here.")
	r.refused("c9", "ann", "leaderboard season", "Scheduled games are not available here.")
	if rep := r.must("c9", "ann", "help"); strings.Contains(rep.Text, "schedule add") {
		t.Fatalf("help lists the schedule commands where no scheduler runs:\n%s", rep.Text)
	}
	r.must("c1", "ann", "start timer=off")
	r.must("c1", "ann", "join 1000")
	r.must("c1", "ben", "join 1000")
	r.must("c1", "ann", "deal")
	r.playOut("c1", "ann", "ben")
	r.must("c1", "ann", "end")
	r.refused("c1", "ben", "history x", "Write `history` for the last hand")
	r.refused("c1", "ben", "history last 101", "Write `history` for the last hand")
	r.refused("c1", "ben", "history 2", "Hand #2 has not finished in this channel: the latest is #1 (`history 1`).")
	r.refused("c1", "ben", "history last 2", "This channel has only 1 finished hand: ask for `history last 1` or less.")
	if rep := r.must("c1", "ben", "history 1"); !strings.HasPrefix(rep.Text, "Hand #1 ") {
		t.Fatalf("history 1 after end: %q", rep.Text)
	}
}
