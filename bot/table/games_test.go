package table_test

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

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

// A full table of Omaha all-in before the flop fits Discord's 2,000 characters with every hole card
// turned up as card pictures (the longest card text, "<:c_Kd_...:id>"), every seat still listed and
// the awards said: ten seats of PLO and eight of five-card PLO, with the longest names.
func TestOmahaShowdownFitsDiscord(t *testing.T) {
	var faces render.Faces
	for c := range faces {
		faces[c] = fmt.Sprintf("<:c_%02d_1a2b3c4d:123456789012345678%d>", c, c%10)
	}
	style := render.ImageCards(&faces)
	for _, tc := range []struct {
		game    string
		players int
		long    bool // 32-character names: the side pots' lines may be cut, the message never too long
	}{{"plo", 10, false}, {"plo5", 8, false}, {"o8", 10, false}, {"plo", 10, true}, {"plo5", 8, true}, {"o8", 10, true}} {
		t.Run(fmt.Sprint(tc.game, tc.long), func(t *testing.T) {
			g := newGame(t, "game="+tc.game, "seats=10", "timer=off")
			for i := range tc.players {
				name := fmt.Sprintf("Player%02d", i)
				if tc.long {
					name += "_with_a_long_name_xyzw" // 32 characters, Discord's longest
				}
				g.do(table.State.Join, table.Caller{User: fmt.Sprintf("U%d", i+1), Name: name}, fmt.Sprint(1000+100*i))
			}
			st := g.deal()
			lines := table.NewLines(st.View.Deal, st.View.Notes)
			lines.Add(st.View, style)
			final := st.View
			for g.s.Hand != nil {
				step := g.shove()
				lines.Add(step.View, style)
				final = step.View
			}
			g.check("after the hand")
			msg := render.HandTable(g.s.HandView(lines, final.Hand, final.State, final.Names, g.now, time.Time{}), style)
			n := render.Length(msg.Text)
			t.Logf("%s, %d seats, long names %v, picture cards, all in: the showdown's table message is %d characters, %d buttons, cut %v",
				tc.game, tc.players, tc.long, n, len(msg.Buttons), strings.Contains(msg.Text, "more lines"))
			if !tc.long && !strings.Contains(msg.Text, "\nStacks: ") {
				t.Errorf("an award or the stacks after them cut:\n%s", msg.Text) // only the busted players' lines may be
			}
			if n > render.MaxText {
				t.Fatalf("%d characters:\n%s", n, msg.Text)
			}
			for i := range tc.players {
				if !strings.Contains(msg.Text, fmt.Sprintf("Player%02d", i)) {
					t.Errorf("seat of Player%02d missing:\n%s", i, msg.Text)
				}
			}
			if !strings.Contains(msg.Text, " win") && !strings.Contains(msg.Text, " scoops ") && !strings.Contains(msg.Text, " split ") {
				t.Errorf("no award in:\n%s", msg.Text)
			}
			if len(msg.Buttons) > 25 {
				t.Errorf("%d buttons", len(msg.Buttons))
			}
		})
	}
}

// shove has the player to act put in as much as the game lets them: the largest raise (pot-limit,
// fixed-limit), else a bet, a call or a check; then everyone calls it down.
func (g *game) shove() table.Step {
	g.t.Helper()
	c, o := g.toAct(), g.s.Hand.Public().Turn
	switch {
	case o.CanRaise || o.CanBet:
		kind := engine.Raise
		if o.CanBet {
			kind = engine.Bet
		}
		return g.do(table.Betting(kind).Act, c, fmt.Sprint(o.MaxTo))
	case o.CanCall:
		return g.do(table.Betting(engine.Call).Act, c)
	}
	return g.do(table.Betting(engine.Check).Act, c)
}

// Mixed tables: game= and games= set one game, a rotation or dealer's choice; bad lists are refused.
func TestMixedSettings(t *testing.T) {
	for _, tc := range []struct {
		opts   []string
		games  string
		choice bool
		game   engine.Game
		err    string
	}{
		{[]string{"game=choice"}, "nlh,plo,o8", true, engine.Holdem, ""},
		{[]string{"game=choice", "games=plo,o8"}, "plo,o8", true, engine.Omaha, ""},
		{[]string{"games=nlh,plo"}, "nlh,plo", false, engine.Holdem, ""},
		{[]string{"games=o8,plo5", "game=rotation"}, "o8,plo5", false, engine.OmahaHiLo, ""},
		{[]string{"game=rotation"}, "", false, 0, "Name the games of the rotation"},
		{[]string{"games=nlh"}, "", false, 0, "List 2 to 8 games"},
		{[]string{"games=nlh,razz"}, "", false, 0, `"razz" is not a game`},
		{[]string{"games=nlh,plo", "game=plo"}, "", false, 0, "Give one game (game=plo) or several"},
		{[]string{"game=choice", "game=rotation"}, "", false, 0, "either dealer's choice"},
	} {
		s := table.DefaultSettings()
		err := s.Apply(tc.opts)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) || s != table.DefaultSettings() {
				t.Errorf("%v: %v, want %q and nothing changed", tc.opts, err, tc.err)
			}
			continue
		}
		if err != nil || s.Games != tc.games || s.Choice != tc.choice || s.Game != tc.game || s.Validate() != nil {
			t.Errorf("%v: %v, games %q choice %v game %v", tc.opts, err, s.Games, s.Choice, s.Game)
		}
	}
	s := table.DefaultSettings()
	_ = s.Apply([]string{"game=choice", "games=nlh,plo"})
	if err := s.Apply([]string{"game=o8"}); err != nil || s.Games != "" || s.Choice || s.Game != engine.OmahaHiLo {
		t.Errorf("one game after a mix: %v %+v", err, s)
	}
	if got := table.DefaultSettings(); got.MixLine() != "" {
		t.Errorf("a table of one game has a mix line %q", got.MixLine())
	}
}

// playOut plays the running hand to its end, every player calling or checking.
func (g *game) playOut() {
	g.t.Helper()
	for g.s.Hand != nil {
		c, o := g.toAct(), g.s.Hand.Public().Turn
		if o.CanCall {
			g.do(table.Betting(engine.Call).Act, c)
		} else {
			g.do(table.Betting(engine.Check).Act, c)
		}
	}
}

// A rotation deals each game for an orbit (as many hands as players), in order, and says so.
func TestRotationOrbits(t *testing.T) {
	g := newGame(t, "games=nlh,plo,o8", "timer=off")
	for _, p := range []table.Caller{alice, bob, carol} {
		g.do(table.State.Join, p)
	}
	var got []engine.Game
	for range 10 {
		st := g.deal()
		got = append(got, g.s.Hand.Game())
		if len(got)%3 == 1 && !strings.Contains(strings.Join(st.View.Notes, " "), "This orbit deals") {
			t.Errorf("hand %d: notes %q do not say the orbit's game", len(got), st.View.Notes)
		}
		g.playOut()
		g.check("after a hand")
	}
	want := []engine.Game{0, 0, 0, 1, 1, 1, 3, 3, 3, 0}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("games dealt %v, want %v", got, want)
	}
}

// Dealer's choice: at each orbit's first hand the button is asked (buttons), nothing is dealt until
// they choose; only they may choose, only a game of the table; with no answer in time the game stays.
func TestDealersChoice(t *testing.T) {
	g := newGame(t, "game=choice", "games=nlh,plo,o8", "timer=30")
	for _, p := range []table.Caller{alice, bob, carol} {
		g.do(table.State.Join, p)
	}
	byUser := map[string]table.Caller{alice.User: alice, bob.User: bob, carol.User: carol}
	var dealt []engine.Game
	for orbit, pick := range []string{"plo", "o8", "", "nlh"} {
		st := g.deal()
		if g.s.Hand != nil {
			t.Fatalf("orbit %d: dealt before the button chose", orbit)
		}
		prompt := st.Posts[len(st.Posts)-1]
		if len(prompt.Buttons) != 3 || prompt.Buttons[1].Command != "choose plo" || !strings.Contains(prompt.Text, "chooses the game for this orbit") {
			t.Fatalf("orbit %d: prompt %+v", orbit, prompt)
		}
		if ch := g.s.Chores(g.now, table.Timers{Deal: true}); !ch.Deal || ch.Pause != 30*time.Second {
			t.Fatalf("orbit %d: chores %+v, want the deal in 30 s", orbit, ch)
		}
		chooser := byUser[g.s.Rec.Orbit.Chooser]
		if chooser.User != g.s.Rec.Seats[g.s.Rec.Button].User {
			t.Fatalf("the chooser is not on the button")
		}
		other := alice
		if chooser == alice {
			other = bob
		}
		before := snapshot(g.s)
		for _, bad := range []struct {
			by   table.Caller
			args []string
			want string
		}{
			{other, []string{"plo"}, "It is " + chooser.Name + "'s choice"},
			{chooser, []string{"plo5"}, `"plo5" is not one of this table's games: ` + "`choose nlh`, `choose plo`, `choose o8`"},
			{chooser, nil, "Choose one game"},
		} {
			if _, err := g.s.Choose(g.now, bad.by, bad.args, g.inputs(bad.by)); err == nil || !strings.Contains(err.Error(), bad.want) {
				t.Errorf("choose %v by %s: %v, want %q", bad.args, bad.by.Name, err, bad.want)
			}
		}
		if _, err := g.s.Deal(g.now, host, nil, g.inputs(host)); err == nil || !strings.Contains(err.Error(), "is choosing the game for this orbit, 30 s left") {
			t.Errorf("deal while choosing: %v", err)
		}
		if !reflect.DeepEqual(before, snapshot(g.s)) {
			t.Fatalf("a refusal changed something")
		}
		if pick == "" {
			g.now = g.now.Add(30 * time.Second) // no answer: the deal timer deals the same game
			st = g.deal()
			if !strings.Contains(strings.Join(st.View.Notes, " "), "did not choose") {
				t.Errorf("notes %q", st.View.Notes)
			}
		} else {
			st = g.do(table.State.Choose, chooser, pick)
			if !strings.Contains(strings.Join(st.View.Notes, " "), "chose") {
				t.Errorf("notes %q", st.View.Notes)
			}
		}
		for h := range 3 {
			if h > 0 {
				g.deal()
			}
			dealt = append(dealt, g.s.Hand.Game())
			g.playOut()
			g.check("after a hand")
		}
	}
	want := []engine.Game{1, 1, 1, 3, 3, 3, 3, 3, 3, 0, 0, 0}
	if !reflect.DeepEqual(dealt, want) {
		t.Fatalf("games dealt %v, want %v", dealt, want)
	}
}

// A tournament may deal one game or a rotation; setting one game while the button chooses ends the
// wait, and the hand is dealt at once.
func TestTournamentGamesAndSetDuringChoice(t *testing.T) {
	g := newGame(t, "tournament", "buyin=100", "stack=1000", "games=plo,o8")
	g.do(table.State.Join, alice)
	g.do(table.State.Join, bob)
	g.deal()
	if got := g.s.Hand.Game(); got != engine.Omaha {
		t.Fatalf("the rotation's first orbit deals %v", got)
	}

	c := newGame(t, "game=choice", "timer=30")
	c.do(table.State.Join, alice)
	c.do(table.State.Join, bob)
	c.deal()
	if c.s.Rec.Orbit.Chooser == "" {
		t.Fatal("nobody asked to choose")
	}
	button := c.s.Rec.Button
	c.do(table.State.Set, host, "game=plo")
	if c.s.Rec.Orbit.Chooser != "" {
		t.Fatalf("a table of one game still waits for a choice: %+v", c.s.Rec.Orbit)
	}
	c.deal()
	if c.s.Hand == nil || c.s.Hand.Game() != engine.Omaha || c.s.Rec.Button != button {
		t.Fatalf("after set game=plo: hand %v, button %d (was %d)", c.s.Hand != nil, c.s.Rec.Button, button)
	}
}
