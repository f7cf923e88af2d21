package stats

import (
	"strings"
	"testing"

	"github.com/dealerbot/dealerbot/bot/table"
	"github.com/dealerbot/dealerbot/engine"
)

func act(p int, k engine.ActionKind, amount ...int64) engine.Action {
	a := engine.Action{Player: p, Kind: k}
	if len(amount) > 0 {
		a.Amount = amount[0]
	}
	return a
}

// knownHands are three hands of alice (0), bob (1) and carol (2) whose stats are worked out by hand
// in TestKnownAnswers.
func knownHands() []table.HandRecord {
	rules := engine.Rules{Variant: engine.NoLimit, SmallBlind: 5, BigBlind: 10}
	base := table.HandRecord{Table: "console/local/console", Rules: rules, Stacks: []int64{1000, 1000, 1000},
		Users: []string{"alice", "bob", "carol"}, Names: []string{"alice", "bob", "carol"}}
	a, b, c := base, base, base
	// A: alice (button) opens to 30, bob (small blind) 3-bets to 90, carol folds, alice calls; bob
	// bets the flop, alice calls; alice bets the turn, bob calls; both check the river; alice wins
	// the 790 pot.
	a.No, a.Button = 1, 0
	a.Actions = []engine.Action{act(0, engine.Raise, 30), act(1, engine.Raise, 90), act(2, engine.Fold), act(0, engine.Call),
		act(1, engine.Bet, 100), act(0, engine.Call), act(1, engine.Check), act(0, engine.Bet, 200), act(1, engine.Call),
		act(1, engine.Check), act(0, engine.Check)}
	a.Final = []int64{1400, 610, 990}
	// B: bob (button) folds, carol (small blind) completes, alice checks her big blind; alice bets
	// the flop and carol folds.
	b.No, b.Button = 2, 1
	b.Actions = []engine.Action{act(1, engine.Fold), act(2, engine.Call), act(0, engine.Check), act(2, engine.Check), act(0, engine.Bet, 20), act(2, engine.Fold)}
	b.Final = []int64{1010, 1000, 990}
	// C: a bomb pot of 20 each; carol bets 40 on the flop, alice folds, bob calls; carol wins 140 at
	// the showdown.
	c.No, c.Button, c.BombPot = 3, 0, 20
	c.Actions = []engine.Action{act(1, engine.Check), act(2, engine.Bet, 40), act(0, engine.Fold), act(1, engine.Call),
		act(1, engine.Check), act(2, engine.Check), act(1, engine.Check), act(2, engine.Check)}
	c.Final = []int64{980, 940, 1080}
	return []table.HandRecord{a, b, c}
}

func TestKnownAnswers(t *testing.T) {
	tl := NewTally()
	for _, h := range knownHands() {
		tl.Add(&h, nil)
	}
	if tl.Skipped != 0 || tl.Hands != 3 {
		t.Fatalf("%d hands, %d skipped", tl.Hands, tl.Skipped)
	}
	want := map[string]string{
		"alice": "Cash games: 3 hands · net +390 chips · 1300.0 bb/100\nAll-in adjusted: the same (no board was run out after an all-in)\nVPIP 50% · PFR 50% · 3-bet — · WTSD 33% · W$SD 100% · AF 2.0 · biggest pot won 790",
		"bob":   "Cash games: 3 hands · net -450 chips · -1500.0 bb/100\nAll-in adjusted: the same (no board was run out after an all-in)\nVPIP 50% · PFR 50% · 3-bet 100% · WTSD 100% · W$SD 0% · AF 0.5 · biggest pot won 0",
		"carol": "Cash games: 3 hands · net +60 chips · 200.0 bb/100\nAll-in adjusted: the same (no board was run out after an all-in)\nVPIP 50% · PFR 0% · 3-bet — · WTSD 50% · W$SD 100% · AF ∞ · biggest pot won 140",
	}
	for user, w := range want {
		if got := tl.Lines[user].Text(); got != w {
			t.Errorf("%s:\n got %s\nwant %s", user, got, w)
		}
	}
	// A log the rules do not allow is left out, and counted.
	bad := knownHands()[0]
	bad.Actions = bad.Actions[:3]
	tl.Add(&bad, nil)
	if tl.Skipped != 1 || tl.Lines["alice"].Hands != 3 {
		t.Errorf("an unfinished hand was counted: %d skipped, alice has %d hands", tl.Skipped, tl.Lines["alice"].Hands)
	}
	if !strings.Contains(Definitions, "VPIP") {
		t.Error("the definitions do not define VPIP")
	}
}
