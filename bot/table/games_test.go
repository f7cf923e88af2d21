package table_test

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/dealerbot/dealerbot/bot/table"
	"github.com/dealerbot/dealerbot/engine"
	"github.com/dealerbot/dealerbot/render"
)

// Five-card Omaha deals to 8 players at most (RULES.md section 12): a 9th join is refused in words,
// and so is switching a table with 9 seated to it; neither refusal changes anything.
func TestFiveCardOmahaSeatsEight(t *testing.T) {
	g := newGame(t, "game=plo5", "seats=10")
	for i := 1; i <= 8; i++ {
		g.do(table.State.Join, table.Caller{User: fmt.Sprintf("U%d", i), Name: fmt.Sprintf("P%d", i)})
	}
	before := snapshot(g.s)
	st, err := g.s.Join(g.now, table.Caller{User: "U9", Name: "P9"}, nil, g.inputs(table.Caller{User: "U9"}))
	if err == nil || !strings.Contains(err.Error(), "Pot-limit 5-card Omaha deals to at most 8 players") {
		t.Fatalf("9th join at plo5: %v, want the 8-player limit", err)
	}
	if !reflect.DeepEqual(st, table.Step{}) || !reflect.DeepEqual(before, snapshot(g.s)) {
		t.Fatalf("the refused join changed something")
	}
	g.do(table.State.Set, host, "game=plo")
	g.do(table.State.Join, table.Caller{User: "U9", Name: "P9"})
	before = snapshot(g.s)
	_, err = g.s.Set(g.now, host, []string{"game=plo5"}, g.inputs(host))
	if err == nil || !strings.Contains(err.Error(), "at most 8 players and 9 are seated: 1 must leave") {
		t.Fatalf("switching to plo5 with 9 seated: %v", err)
	}
	if !reflect.DeepEqual(before, snapshot(g.s)) {
		t.Fatalf("the refused set changed something")
	}
	st = g.deal()
	if got := g.s.Hand.Game(); got != engine.Omaha {
		t.Fatalf("dealt %v, want omaha", got)
	}
	for _, p := range st.Private {
		if got := strings.Count(p.Message.Text, " "); got < 4+4 {
			t.Errorf("hole cards %q: want four cards", p.Message.Text)
		}
	}
	g.check("after the deal")
}

// A table record stored before games existed has no Game: it loads as Hold'em, and the table's
// message says what it said before.
func TestOldSettingsAreHoldem(t *testing.T) {
	old := `{"Variant":0,"SmallBlind":5,"BigBlind":10,"BuyIn":1000,"MinBuyIn":400,"MaxBuyIn":2000,"Rebuys":-1,"Timer":60,"Seats":9}`
	var s table.Settings
	if err := json.Unmarshal([]byte(old), &s); err != nil {
		t.Fatal(err)
	}
	if err := s.Validate(); err != nil || s.Game != engine.Holdem || s.Rules(0).Game != engine.Holdem {
		t.Fatalf("old settings: %v, game %v", err, s.Game)
	}
	if got, want := s.Describe()[:15], "no-limit 5/10, "; got != want {
		t.Errorf("Describe = %q, want it to begin %q", got, want)
	}
	b, _ := json.Marshal(table.DefaultSettings())
	if strings.Contains(string(b), `"Game"`) {
		t.Errorf("a Hold'em table's record names its game: %s", b)
	}
	s.Game = 9
	if err := s.Validate(); err == nil {
		t.Errorf("game 9 validated")
	}
}

// The table message and the settings line say the game.
func TestTableSaysTheGame(t *testing.T) {
	for _, tc := range []struct{ opt, want string }{
		{"game=plo", "Pot-limit Omaha 5/10"},
		{"game=o8", "Fixed-limit Omaha hi-lo 5/10"},
		{"game=plo5", "Pot-limit 5-card Omaha 5/10"},
		{"game=nlh", "No-limit 5/10"},
	} {
		g := newGame(t, tc.opt)
		if got := g.s.View(g.now); !strings.Contains(renderTable(got), tc.want) {
			t.Errorf("%s: table %q, want %q", tc.opt, renderTable(got), tc.want)
		}
		if got := g.s.Rec.Settings.Describe(); !strings.HasPrefix(got, strings.ToLower(tc.want)) {
			t.Errorf("%s: settings %q", tc.opt, got)
		}
	}
}

func renderTable(v render.TableView) string { return render.Table(v, render.TextCards).Text }
