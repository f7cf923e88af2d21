package bot_test

import (
	"context"
	"strings"
	"testing"

	"github.com/dealerbot/dealerbot/bot"
	"github.com/dealerbot/dealerbot/bot/table"
)

// in runs a command in channel ch of workspace ws and fails the test when it is refused.
func (r *rig) in(ws, ch, user, text string) bot.Reply {
	r.tb.Helper()
	rep := r.d.Handle(context.Background(), bot.Command{Platform: "test", Workspace: ws, Channel: ch, User: user, UserName: user, Text: text})
	if rep.IsError {
		r.tb.Fatalf("%s in %s/%s: %s: %s", user, ws, ch, text, rep.Text)
	}
	_ = r.d.Flush(context.Background())
	return rep
}

// bankrolls returns the bankroll of every player of a workspace.
func (r *rig) bankrolls(ws string) map[string]int64 {
	r.tb.Helper()
	ps, err := r.db.Players(context.Background(), ws)
	if err != nil {
		r.tb.Fatal(err)
	}
	out := map[string]int64{}
	for _, p := range ps {
		out[p.User] = p.Bankroll
	}
	return out
}

// TestEndCommunity: ending a workspace's tables (its app was removed) closes every open table of
// that workspace at once: a hand in progress is cancelled with every chip back where it was before
// it, then each player is cashed out to their bankroll and the session recorded; the channel is told
// why. Another workspace's table, mid-hand, plays on untouched. Chips are conserved throughout, and
// ending the workspace again does nothing.
func TestEndCommunity(t *testing.T) {
	r := newRig(t, bot.Config{})
	// Workspace "gone": a hand in progress with chips in the pot at "mid", a table between hands at
	// "idle". Workspace "stays": a hand in progress.
	r.in("gone", "mid", "ann", "start timer=off")
	r.in("gone", "mid", "ann", "join 1000")
	r.in("gone", "mid", "ben", "join 800")
	r.in("gone", "mid", "ann", "deal")
	tr := r.table("mid")
	r.in("gone", "mid", tr.Seats[tr.Hand.Seats[firstToAct(t, tr)]].User, "raise 60")
	r.in("gone", "idle", "cat", "start")
	r.in("gone", "idle", "cat", "join 500")
	r.in("stays", "on", "dan", "start timer=off")
	r.in("stays", "on", "dan", "join 1000")
	r.in("stays", "on", "eve", "join 1000")
	r.in("stays", "on", "dan", "deal")

	stacks, inHand := r.seatStacks("mid")
	if !inHand {
		t.Fatal("no hand in progress at mid: the test proves nothing")
	}
	before := r.bankrolls("gone")
	want := map[string]int64{"ann": before["ann"] + stacks["ann"], "ben": before["ben"] + stacks["ben"], "cat": before["cat"] + 500}
	tot := r.balance()
	other := r.table("on")
	otherBankrolls := r.bankrolls("stays")

	if err := r.d.EndCommunity(context.Background(), "test", "gone", "dealerbot was removed from this workspace"); err != nil {
		t.Fatal(err)
	}
	_ = r.d.Flush(context.Background())

	if got := r.bankrolls("gone"); got["ann"] != want["ann"] || got["ben"] != want["ben"] || got["cat"] != want["cat"] {
		t.Errorf("bankrolls after the end %v, want %v (each player's stack from before the hand back)", got, want)
	}
	for _, ch := range []string{"mid", "idle"} {
		if tr := r.table(ch); tr.ID != "" {
			t.Errorf("table %s still open: %+v", ch, tr)
		}
	}
	if !r.chat.saw("mid", "The session is over: dealerbot was removed from this workspace. Hand #1 is cancelled and every chip is back where it was before it.") {
		t.Error("the channel of the hand in progress was not told that it is cancelled and why")
	}
	if !r.chat.saw("idle", "The session is over: dealerbot was removed from this workspace.") {
		t.Error("the channel between hands was not told why its session ended")
	}
	sessions, err := r.db.Sessions(context.Background())
	if err != nil || len(sessions) != 2 {
		t.Errorf("sessions recorded: %d (%v), want the two ended ones", len(sessions), err)
	}
	after := r.balance()
	if after.BroughtIn != tot.BroughtIn || after.Bankrolls+after.OnTables != tot.Bankrolls+tot.OnTables {
		t.Errorf("chips not conserved: %+v -> %+v", tot, after)
	}

	// The other workspace is untouched and plays on.
	if got := r.table("on"); got.Hand == nil || len(got.Hand.Actions) != len(other.Hand.Actions) || chipsAt(got) != chipsAt(other) {
		t.Fatalf("the other workspace's table changed: %+v", got)
	}
	if got := r.bankrolls("stays"); got["dan"] != otherBankrolls["dan"] || got["eve"] != otherBankrolls["eve"] {
		t.Errorf("the other workspace's bankrolls changed: %v -> %v", otherBankrolls, got)
	}
	on := r.table("on")
	r.in("stays", "on", on.Seats[on.Hand.Seats[firstToAct(t, on)]].User, "fold")
	if got := r.table("on"); got.Hand != nil || got.HandNo != 1 {
		t.Errorf("the other workspace's hand did not finish: %+v", got.Hand)
	}

	// Again: nothing left to end, nothing changes.
	mid := r.balance()
	if err := r.d.EndCommunity(context.Background(), "test", "gone", "again"); err != nil {
		t.Fatal(err)
	}
	if got := r.balance(); got != mid {
		t.Errorf("ending an empty workspace changed the chips: %+v -> %+v", mid, got)
	}
	if rep := r.d.Handle(context.Background(), bot.Command{Platform: "test", Workspace: "gone", Channel: "mid", User: "ann", UserName: "ann", Text: "deal"}); !rep.IsError || !strings.Contains(rep.Text, "no game") {
		t.Errorf("deal at an ended table: %q, want the no-game refusal", rep.Text)
	}
}

func chipsAt(tr table.TableRecord) int64 {
	var n int64
	for _, s := range tr.Seats {
		n += s.Stack
	}
	return n
}

// TestEndCommunitySharedStore: two dealers share a store and A serves a workspace with a hand in
// play. On PostgreSQL, B's EndCommunity (the app was uninstalled, and Slack told B) is handed to A
// through the inbox and A closes the table with every chip back; on bbolt (no inbox) B is refused,
// nothing changes, and A's own EndCommunity closes it.
func TestEndCommunitySharedStore(t *testing.T) {
	for _, st := range sharedStores {
		t.Run(st.name, func(t *testing.T) {
			db := st.open(t)
			t.Cleanup(func() { db.Close() }) // after the dealers' (cleanups run last first): they renew leases until closed
			ctx := context.Background()
			start := func(owner string) *bot.Dealer { return startShared(t, db, owner, &schedChat{}, nil) }
			a := start("A")
			do := func(user, text string) {
				t.Helper()
				if r := a.Handle(ctx, bot.Command{Platform: "slack", Workspace: "T9", Channel: "c1", User: user, UserName: user, Text: text}); r.IsError {
					t.Fatalf("%s: %s: %s", user, text, r.Text)
				}
			}
			do("ann", "start timer=off")
			do("ann", "join 1000")
			do("ben", "join 1000")
			do("ann", "deal")
			b := start("B")
			err := b.EndCommunity(ctx, "slack", "T9", "dealerbot was removed from this workspace")
			if _, inbox := any(db).(bot.Inbox); inbox {
				// B hands the request to A, which serves the community, through the inbox.
				if err != nil {
					t.Fatalf("B could not have A end its community: %v", err)
				}
			} else {
				// Without an inbox B cannot reach A: refused, and nothing changed; A ends them.
				if err == nil || !strings.Contains(err.Error(), "another dealer process serves this community") {
					t.Fatalf("B ended A's community: %v", err)
				}
				if recs, _ := db.Tables(ctx); len(recs) != 1 || recs[0].Hand == nil {
					t.Fatalf("B's refused end changed the table: %+v", recs)
				}
				if err := a.EndCommunity(ctx, "slack", "T9", "dealerbot was removed from this workspace"); err != nil {
					t.Fatal(err)
				}
			}
			if recs, _ := db.Tables(ctx); len(recs) != 0 {
				t.Fatalf("tables left after the end: %+v", recs)
			}
			for _, u := range []string{"ann", "ben"} {
				if p, _, _ := db.Player(ctx, "T9", u); p.Bankroll != 10000 || p.OnTable != 0 {
					t.Errorf("%s after the end: %+v, want every chip back in the bankroll", u, p)
				}
			}
		})
	}
}
