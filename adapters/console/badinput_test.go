package console_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/dealerbot/dealerbot/adapters/console"
)

// snapshot is everything a refused command must leave as it was: the stored table (stacks, seats,
// hand in progress with its actions), the ledger, the bankrolls, and what the channel was told.
func (g *game) snapshot() string {
	g.t.Helper()
	ctx := context.Background()
	tables, err := g.db.Tables(ctx)
	if err != nil {
		g.t.Fatal(err)
	}
	ledger, err := g.db.Ledger(ctx)
	if err != nil {
		g.t.Fatal(err)
	}
	players, err := g.db.Players(ctx, console.Workspace)
	if err != nil {
		g.t.Fatal(err)
	}
	b, err := json.Marshal([]any{tables, ledger, players, len(g.chat.Messages())})
	if err != nil {
		g.t.Fatal(err)
	}
	return string(b)
}

// TestBadInput sends every kind of bad input and checks the private answer says what to do instead
// and that nothing changed: stacks, hand state, ledger, bankrolls, channel.
func TestBadInput(t *testing.T) {
	// inHand: three players at a full three-seat table, no rebuys; hand 1 is running, alice to act
	// (she has the button; bob and carol posted 5 and 10).
	inHand := func(g *game) {
		g.rnd.drawDeck(t, "As Kd Qh")
		g.must("alice: start seats=3 rebuy=no", "alice: join 1000", "bob: join 1000", "carol: join 1000", "alice: deal")
	}
	// between: the same table between hands.
	between := func(g *game) {
		inHand(g)
		g.must("alice: fold", "bob: fold")
	}
	// rebuys: a table with rebuys between hands; bob's stack (995 after his small blind) has room.
	rebuys := func(g *game) {
		g.rnd.drawDeck(t, "As Kd Qh")
		g.must("alice: start seats=3", "alice: join 1000", "bob: join 1000", "carol: join 1000", "alice: deal", "alice: fold", "bob: fold")
	}
	none := func(g *game) {}
	tests := []struct {
		name  string
		setup func(*game)
		line  string
		want  string
	}{
		{"unknown command", inHand, "alice: dance", `I do not know "dance". Type ` + "`help`"},
		{"empty command", inHand, "alice:", "Type a command, or `help`"},
		{"raise without amount", inHand, "alice: raise", "Say how much: `raise 60` makes your bet 60 in all."},
		{"raise not a number", inHand, "alice: raise lots", `"lots" is not a number of chips`},
		{"raise negative", inHand, "alice: raise -5", "The amount to raise must be more than 0"},
		{"raise zero", inHand, "alice: raise 0", "The amount to raise must be more than 0"},
		{"bet without amount", inHand, "alice: bet", "Say how much: `bet 60`"},
		{"raise below the minimum", inHand, "alice: raise 15", "The smallest raise is to 20."},
		{"raise above the stack", inHand, "alice: raise 5000", "You have only 1000 in all"},
		{"check facing a bet", inHand, "alice: check", "You cannot check: it is 10 to call."},
		{"out of turn", inHand, "bob: call", "It is alice's turn, not yours."},
		{"not seated", inHand, "zoe: call", "You are not seated at this table: type `join` to play."},
		{"stale button", inHand, "alice: call #0.0", "That button is from an earlier turn"},
		{"button of someone else's turn", inHand, "bob: call #1.0", "It is alice's turn, not yours."},
		{"join twice", inHand, "bob: join", "You are already seated at this table"},
		{"join a full table", inHand, "zoe: join", "The table is full (3 seats)"},
		{"buy-in below the limit", inHand, "zoe: join 50", "The buy-in here is between 400 and 2,000 chips"},
		{"buy-in above the limit", inHand, "zoe: join 5000", "The buy-in here is between 400 and 2,000 chips"},
		{"buy-in not a number", inHand, "zoe: join lots", `"lots" is not a number of chips`},
		{"rebuy during the hand", inHand, "carol: rebuy 100", "Rebuys happen between hands"},
		{"rebuy the policy forbids", between, "carol: rebuy 100", "This table does not allow rebuys"},
		{"deal during a hand", inHand, "alice: deal", "Hand #1 is still being played"},
		{"end by a non-host", inHand, "bob: end", "Only the host (alice) or an admin can end the session."},
		{"kick by a non-host", inHand, "bob: kick carol", "Only the host (alice) or an admin can remove a player."},
		{"settings by a non-host", between, "bob: set blinds=10/20", "Only the host (alice) or an admin can change the settings."},
		{"start twice", inHand, "bob: start", "A game is already running here, hosted by alice"},
		{"bad setting", between, "alice: set blinds=ten/20", `The small blind must be a whole number of chips above 0, not "ten".`},
		{"unknown setting", none, "alice: start colour=red", "I do not know the option \"colour\""},
		{"join where no game runs", none, "alice: join", "There is no game in this channel yet: type `start` to open a table."},
		{"act where no game runs", none, "alice: call", "There is no game in this channel yet"},
		{"leave when not seated", inHand, "zoe: leave", "You are not seated at this table"},
		{"cards when not in a hand", between, "alice: cards", "You have no cards"},
		{"history with a bad number", between, "alice: history x", "Write `history` for the last hand"},
		{"show during the hand", inHand, "bob: show", "You can show your cards when this hand is over."},
		{"sitin when playing", inHand, "bob: sitin", "You are already playing"},
		{"rebuy below the smallest buy-in", rebuys, "bob: rebuy 100", "A rebuy is at least 400 chips here, the table's smallest buy-in: try `rebuy 400`."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := newGame(t)
			tt.setup(g)
			before := g.snapshot()
			r := g.say(tt.line)
			if !r.IsError {
				t.Fatalf("%q was accepted: %q", tt.line, r.Text)
			}
			if !strings.Contains(r.Text, tt.want) {
				t.Errorf("%q: reply %q, want it to contain %q", tt.line, r.Text, tt.want)
			}
			if after := g.snapshot(); after != before {
				t.Errorf("%q changed the state:\nbefore %s\nafter  %s", tt.line, before, after)
			}
		})
	}
}
