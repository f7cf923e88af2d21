package table_test

import (
	"encoding/hex"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dealerbot/dealerbot/bot/errs"
	"github.com/dealerbot/dealerbot/bot/table"
	"github.com/dealerbot/dealerbot/engine"
	"github.com/dealerbot/dealerbot/render"
)

// The core is tested on its own, without a store or a chat: each verb is a function of the state.

var t0 = time.Date(2026, 11, 25, 20, 0, 0, 0, time.UTC)

// seeded is a deterministic table.Random.
type seeded struct{ r *rand.ChaCha8 }

func newSeeded(seed uint64) seeded {
	var s [32]byte
	s[0], s[1] = byte(seed), byte(seed>>8)
	return seeded{rand.NewChaCha8(s)}
}

func (s seeded) Deck() (engine.Deck, error) { return engine.ShuffledDeck(s.r) }
func (s seeded) Salt() (string, error) {
	b := make([]byte, 16)
	_, _ = s.r.Read(b)
	return hex.EncodeToString(b), nil
}

type verbFunc func(table.State, time.Time, table.Caller, []string, table.Inputs) (table.Step, error)

// game is a table driven through the core alone: each step's Next becomes the state, as the shell
// does once the step's Change is committed. Bankrolls are kept from the steps' ledger entries.
type game struct {
	t        *testing.T
	s        table.State
	now      time.Time
	rand     table.Random
	bankroll map[string]int64
	granted  int64 // chips brought in by grants
	onTable  int64 // the ledger's OnTable, summed
}

func newGame(t *testing.T, opts ...string) *game {
	g := &game{t: t, now: t0, rand: newSeeded(1), bankroll: map[string]int64{}}
	g.do(table.State.Start, host, opts...)
	return g
}

var (
	host  = table.Caller{User: "U0", Name: "Hana"}
	alice = table.Caller{User: "U1", Name: "Alice"}
	bob   = table.Caller{User: "U2", Name: "Bob"}
	carol = table.Caller{User: "U3", Name: "Carol"}
)

func (g *game) inputs(by table.Caller) table.Inputs {
	bank, known := g.bankroll[by.User]
	return table.Inputs{Player: table.PlayerRecord{User: by.User, Bankroll: bank}, Known: known, StartingBankroll: 10000,
		Where: table.TableRecord{ID: "console:w:c", Platform: "console", Workspace: "w", Channel: "c"},
		Style: render.CardStyle{Kind: render.CardText}, Rand: g.rand}
}

// try runs a verb and carries out its step; it returns the verb's error.
func (g *game) try(v verbFunc, by table.Caller, args ...string) (table.Step, error) {
	g.t.Helper()
	st, err := v(g.s, g.now, by, args, g.inputs(by))
	if err != nil {
		return st, err
	}
	g.take(st)
	return st, nil
}

func (g *game) do(v verbFunc, by table.Caller, args ...string) table.Step {
	g.t.Helper()
	st, err := g.try(v, by, args...)
	if err != nil {
		g.t.Fatalf("%s %v: %v", by.Name, args, err)
	}
	return st
}

// take carries out a step: its ledger into the bankrolls, its next state.
func (g *game) take(st table.Step) {
	for _, e := range st.Change.Ledger {
		if e.Kind == table.KindGrant {
			g.granted += e.Bankroll
		}
		g.bankroll[e.User] += e.Bankroll
		g.onTable += e.OnTable
	}
	if st.Next != nil {
		g.s = *st.Next
	}
}

// deal deals the next hand.
func (g *game) deal() table.Step {
	g.t.Helper()
	st, err := g.s.Deal(g.now, host, nil, g.inputs(host))
	if err != nil {
		g.t.Fatalf("deal: %v", err)
	}
	g.take(st)
	return st
}

// stacks adds up the chips at the table: the seats' stacks between hands, the hand's stacks and pot
// during one.
func (g *game) stacks() int64 {
	var sum int64
	for i, st := range g.s.Rec.Seats {
		if p := g.s.PlayerOf(i); p >= 0 && g.s.Hand != nil {
			continue
		}
		sum += st.Stack
	}
	if g.s.Hand != nil {
		for _, v := range g.s.Hand.Stacks() {
			sum += v
		}
		sum += g.s.Hand.Pot()
	}
	return sum
}

// check asserts that no chip was made or lost: the table holds what the ledger put on it, and the
// bankrolls plus the table hold what grants brought in.
func (g *game) check(when string) {
	g.t.Helper()
	var banks int64
	for _, b := range g.bankroll {
		banks += b
	}
	if got := g.stacks(); got != g.onTable {
		g.t.Fatalf("%s: the table holds %d chips, the ledger put %d on it", when, got, g.onTable)
	}
	if banks+g.onTable != g.granted {
		g.t.Fatalf("%s: bankrolls %d + table %d != %d granted", when, banks, g.onTable, g.granted)
	}
}

// snapshot is a deep copy of everything a step could touch, to prove a refusal touched none of it.
func snapshot(s table.State) any {
	var acts []engine.Action
	if s.Hand != nil {
		acts = s.Hand.Actions()
	}
	return []any{s.Open, s.Rec.Clone(), acts}
}

// refusal is a verb run that must be refused with a sentence containing want.
type refusal struct {
	name string
	v    verbFunc
	by   table.Caller
	args []string
	want string
}

func TestRefusedStepChangesNothing(t *testing.T) {
	g := newGame(t, "rebuy=1")
	g.do(table.State.Join, alice)
	g.do(table.State.Join, bob, "500")
	tests := []refusal{
		{"join twice", table.State.Join, alice, nil, "already seated"},
		{"join abc", table.State.Join, carol, []string{"abc"}, "not a number"},
		{"join too much", table.State.Join, carol, []string{"99999999999999999999"}, "at most"},
		{"join below the minimum", table.State.Join, carol, []string{"10"}, "between 400 and 2,000"},
		{"rebuy past the largest stack", table.State.Rebuy, alice, []string{"1500"}, "at most 1,000"},
		{"rebuy below the smallest", table.State.Rebuy, bob, []string{"5"}, "at least 400"},
		{"kick nobody", table.State.Kick, host, []string{"@nobody"}, "not seated"},
		{"set nonsense", table.State.Set, host, []string{"blinds=20/10"}, "small blind"},
		{"act with no hand", table.Betting(engine.Call).Act, alice, nil, "No hand"},
		{"start again", table.State.Start, carol, nil, "already running"},
		{"sitin while playing", table.State.SitIn, alice, nil, "already playing"},
		{"show with no hand over", table.State.Show, alice, nil, "no finished hand"},
		// The shell's gate refuses these for a caller who is not seated; called directly, the core
		// refuses too, and touches no seat.
		{"leave unseated", table.State.Leave, carol, nil, "not seated"},
		{"sitout unseated", table.State.SitOut, carol, nil, "not seated"},
		{"sitin unseated", table.State.SitIn, carol, nil, "not seated"},
		{"rebuy unseated", table.State.Rebuy, carol, nil, "not seated"},
		{"straddle unseated", table.State.Straddle, carol, nil, "not seated"},
		{"act unseated", table.Betting(engine.Fold).Act, carol, nil, "not seated"},
	}
	run := func(t *testing.T, r refusal) {
		name, want := r.name, r.want
		before := snapshot(g.s)
		st, err := r.v(g.s, g.now, r.by, r.args, g.inputs(r.by))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Fatalf("%s: got %v, want a refusal containing %q", name, err, want)
		}
		if errs.CodeOf(err) == errs.Internal {
			t.Errorf("%s: %v is an internal error, not a sentence for the player", name, err)
		}
		if !reflect.DeepEqual(st, table.Step{}) {
			t.Errorf("%s: a refused verb returned a step: %+v", name, st)
		}
		if after := snapshot(g.s); !reflect.DeepEqual(before, after) {
			t.Errorf("%s: the state changed:\n%+v\n%+v", name, before, after)
		}
	}
	for _, tc := range tests {
		run(t, tc)
	}

	// During a hand: out of turn, too small a raise, a bet where a raise is due, `raise abc`.
	g.deal()
	toAct := g.s.Names()[g.s.Hand.ToAct()]
	first, second := alice, bob
	if toAct != "Alice" {
		first, second = bob, alice
	}
	hand := []refusal{
		{"out of turn", table.Betting(engine.Call).Act, second, nil, "turn, not yours"},
		{"raise too little", table.Betting(engine.Raise).Act, first, []string{"11"}, "smallest raise is to 20"},
		{"raise abc", table.Betting(engine.Raise).Act, first, []string{"abc"}, "not a number"},
		{"raise nothing", table.Betting(engine.Raise).Act, first, nil, "Say how much"},
		{"runtwice maybe", table.Betting(engine.RunTwice).Act, first, []string{"maybe"}, "runtwice yes"},
		{"rebuy in the hand", table.State.Rebuy, first, nil, "between hands"},
		{"cards of a watcher", table.State.Cards, carol, nil, "no cards"},
		{"deal during a hand", table.State.Deal, first, nil, "still being played"},
	}
	for _, tc := range hand {
		run(t, tc)
	}
}

// At a tournament under way too, the verbs that need a seat refuse a caller without one and change
// nothing (the shell's gate refuses them first).
func TestUnseatedAtTournament(t *testing.T) {
	g := newGame(t, "tournament", "buyin=100", "stack=1000", "rebuy=1")
	g.do(table.State.Join, alice)
	g.do(table.State.Join, bob)
	g.deal()
	for name, v := range map[string]verbFunc{"rebuy": table.State.Rebuy, "leave": table.State.Leave,
		"sitout": table.State.SitOut, "sitin": table.State.SitIn, "straddle": table.State.Straddle} {
		before := snapshot(g.s)
		st, err := v(g.s, g.now, carol, nil, g.inputs(carol))
		if err == nil || !strings.Contains(err.Error(), "not seated") || errs.CodeOf(err) != errs.Forbidden {
			t.Errorf("%s by a watcher: %v, want a refusal saying they are not seated", name, err)
		}
		if !reflect.DeepEqual(st, table.Step{}) || !reflect.DeepEqual(before, snapshot(g.s)) {
			t.Errorf("%s by a watcher changed something: %+v", name, st)
		}
	}
}

// A step plays on its own copy of the hand: the state it was given still holds the hand as it was,
// so a step whose commit fails leaves the table exactly as before.
func TestStepPlaysOnItsOwnHand(t *testing.T) {
	g := newGame(t)
	g.do(table.State.Join, alice)
	g.do(table.State.Join, bob)
	g.deal()
	before := g.s
	acts := len(before.Hand.Actions())
	by := alice
	if g.s.Names()[g.s.Hand.ToAct()] != "Alice" {
		by = bob
	}
	st, err := table.Betting(engine.Fold).Act(before, g.now, by, nil, g.inputs(by))
	if err != nil {
		t.Fatal(err)
	}
	if got := len(before.Hand.Actions()); got != acts || before.Hand.Done() {
		t.Fatalf("the given hand changed: %d actions (was %d), done %v", got, acts, before.Hand.Done())
	}
	if st.Next == nil || st.Next.Hand != nil || st.Change.Hand == nil || st.View == nil || !st.View.Hand.Done() {
		t.Fatalf("a fold heads-up ends the hand: next %+v, change %+v", st.Next, st.Change)
	}
	if len(st.View.Result) != 0 || !st.Timers.Deal || st.Ends {
		t.Errorf("the next hand is dealt after a pause: %+v", st)
	}
}

// A step that goes on with the hand shares the table's seats with the state it was given, never the
// hand's log: that state is as it was after a player's call and after the clock's folds, so a step
// whose commit fails is tried again from it afresh.
func TestStepKeepsTheGivenRecord(t *testing.T) {
	g := newGame(t, "timer=30")
	for _, p := range []table.Caller{alice, bob, carol, dave} {
		g.do(table.State.Join, p)
	}
	g.deal()
	for _, what := range []string{"call", "timeout", "timeout"} {
		before := g.s
		snap := snapshot(before)
		var st table.Step
		var err error
		if by := g.toAct(); what == "call" {
			st, err = table.Betting(engine.Call).Act(before, g.now, by, nil, g.inputs(by))
		} else {
			st, err = before.Timeout(g.now)
		}
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		if after := snapshot(before); !reflect.DeepEqual(snap, after) {
			t.Fatalf("the %s changed the state it was given:\n%+v\n%+v", what, snap, after)
		}
		if st.Next == nil || st.Next.Hand == nil || st.Change.Actions == nil {
			t.Fatalf("the %s does not go on with the hand: %+v", what, st)
		}
		g.take(st)
	}
	if got := len(g.s.Rec.Hand.TimedOut); got != 2 {
		t.Errorf("%d players ran out of time, want 2", got)
	}
	g.check("after the clock's folds")
}

// Deal takes its randomness from Inputs.Rand only: the same shuffler deals the same hand, hole cards
// go privately to each player dealt in and never into the channel's posts.
func TestDealIsAFunctionOfItsInputs(t *testing.T) {
	deal := func() table.Step {
		g := newGame(t)
		g.do(table.State.Join, alice)
		g.do(table.State.Join, bob)
		g.do(table.State.Join, carol)
		return g.deal()
	}
	a, b := deal(), deal()
	if !reflect.DeepEqual(a.Private, b.Private) || !reflect.DeepEqual(a.Change.Table.Hand, b.Change.Table.Hand) {
		t.Fatal("the same shuffler dealt two different hands")
	}
	if len(a.Private) != 3 || !a.Timers.Turn || a.View == nil || a.View.Deal == nil {
		t.Fatalf("three players get their cards and the first to act is asked: %+v", a)
	}
	for _, p := range a.Private {
		for _, post := range a.Posts {
			if strings.Contains(post.Text, p.Message.Text) {
				t.Errorf("hole cards %q in a channel post", p.Message.Text)
			}
		}
	}
	if strings.Join(a.View.Notes, " ") == "" || !strings.Contains(a.View.Notes[0], "Draw for the button") {
		t.Errorf("the first hand draws for the button on its table message: %q", a.View.Notes)
	}
}

// Random play through the core alone, cash game with rebuys, leaves and joins: after every step the
// chips at the table are those the ledger put there, and bankrolls plus table equal the grants.
func TestCoreConservesChips(t *testing.T) {
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	r := rand.New(rand.NewPCG(seed, 7))
	g := newGame(t, "blinds=5/10", "timer=off")
	players := []table.Caller{alice, bob, carol, {User: "U4", Name: "Dan"}}
	for _, p := range players {
		g.do(table.State.Join, p, "1000")
	}
	g.check("after the buy-ins")
	hands := 0
	for step := 0; step < 4000 && hands < 150; step++ {
		g.now = g.now.Add(time.Second)
		if g.s.Hand == nil {
			// Between hands: someone may leave, come back, rebuy; then deal.
			p := players[r.IntN(len(players))]
			switch r.IntN(6) {
			case 0:
				_, _ = g.try(table.State.Leave, p)
			case 1:
				_, _ = g.try(table.State.Join, p, "800")
			case 2:
				_, _ = g.try(table.State.Rebuy, p)
			}
			g.check("between hands")
			if len(g.s.Playing()) < 2 {
				for _, q := range players {
					_, _ = g.try(table.State.Join, q, "500")
				}
			}
			if len(g.s.Playing()) < 2 {
				continue
			}
			g.deal()
			hands++
			g.check("after the deal")
			continue
		}
		by := g.s.Rec.Seats[g.s.Rec.Hand.Seats[g.s.Hand.ToAct()]]
		caller := table.Caller{User: by.User, Name: by.Name}
		verbs := []verbFunc{table.Betting(engine.Fold).Act, table.Betting(engine.Check).Act, table.Betting(engine.Call).Act, table.Betting(engine.AllIn).Act, table.Betting(engine.Raise).Act, table.Betting(engine.Bet).Act}
		v := verbs[r.IntN(len(verbs))]
		args := []string{"40"}
		if r.IntN(3) == 0 {
			args = []string{"x"}
		}
		before := snapshot(g.s)
		if _, err := g.try(v, caller, args...); err != nil {
			if errs.CodeOf(err) == errs.Internal {
				t.Fatalf("step %d: internal error %v", step, err)
			}
			if !reflect.DeepEqual(before, snapshot(g.s)) {
				t.Fatalf("step %d: a refused action changed the table", step)
			}
		}
		if r.IntN(20) == 0 && g.s.Hand != nil {
			st, err := g.s.Timeout(g.now)
			if err != nil {
				t.Fatal(err)
			}
			g.take(st)
		}
		g.check("during a hand")
	}
	if hands < 20 {
		t.Fatalf("only %d hands were dealt", hands)
	}
	for g.s.Hand != nil { // the clock plays out the running hand
		st, err := g.s.Timeout(g.now)
		if err != nil {
			t.Fatal(err)
		}
		g.take(st)
		g.check("timing out the last hand")
	}
	g.take(g.s.EndSession(g.now))
	if g.onTable != 0 {
		t.Fatalf("after the end %d chips are still on the table", g.onTable)
	}
	g.check("after the end")
}

// A quarantined table (after a fault) is not dealt automatically; a player's deal lifts the
// quarantine, a refused deal does not. (A watcher's deal never reaches the core: the shell's gate
// refuses it.)
func TestDealLiftsQuarantine(t *testing.T) {
	g := newGame(t)
	g.do(table.State.Join, alice)
	g.s.Quarantined = true
	if _, err := g.try(table.State.Deal, alice); err == nil || !strings.Contains(err.Error(), "two players") {
		t.Fatalf("a deal with one player: %v", err)
	}
	if !g.s.Quarantined {
		t.Fatal("a refused deal lifted the quarantine")
	}
	g.do(table.State.Join, bob)
	if !g.s.Quarantined {
		t.Fatal("a join lifted the quarantine")
	}
	st := g.do(table.State.Deal, bob)
	if g.s.Quarantined || g.s.Hand == nil || st.Reply != "Dealt hand #1." {
		t.Fatalf("bob's deal: quarantined %v, reply %q", g.s.Quarantined, st.Reply)
	}
}

// A folded hand never reaches the table message, its lines or the showdown picture; the hands that
// went to showdown do, with the result.
func TestFoldedCardsNeverShown(t *testing.T) {
	g := newGame(t, "timer=off")
	for _, p := range []table.Caller{alice, bob, carol} {
		g.do(table.State.Join, p)
	}
	st := g.deal()
	lines := table.NewLines(st.View.Deal, st.View.Notes)
	style := render.CardStyle{Kind: render.CardText}
	lines.Add(st.View, style)
	hole := map[string]string{}
	for _, p := range st.Private {
		hole[p.User] = p.Message.Text
	}
	var final *table.View
	for g.s.Hand != nil {
		by := g.s.Rec.Seats[g.s.Rec.Hand.Seats[g.s.Hand.ToAct()]]
		c := table.Caller{User: by.User, Name: by.Name}
		var step table.Step
		if by.User == carol.User {
			if step = g.do(table.Betting(engine.Fold).Act, c); step.View == nil {
				step = g.do(table.Betting(engine.Fold).Act, c) // reminded that checking is free: fold anyway
			}
		} else if s, err := g.try(table.Betting(engine.Call).Act, c); err == nil {
			step = s
		} else {
			step = g.do(table.Betting(engine.Check).Act, c)
		}
		lines.Add(step.View, style)
		final = step.View
	}
	if !lines.Showdown || len(lines.Result) == 0 {
		t.Fatalf("alice and bob went to showdown: %+v", lines)
	}
	h := g.s.Last.Hand
	carolCards := h.Hole(slices.IndexFunc(g.s.Last.Seats, func(s table.SeatRecord) bool { return s.User == carol.User }))
	msg := render.HandTable(g.s.HandView(lines, h, final.State, final.Names, g.now, time.Time{}), style).Text
	pair := render.Cards(carolCards[:], style)
	for _, text := range append(append([]string{msg}, lines.Log...), lines.Result...) {
		if strings.Contains(text, pair) {
			t.Errorf("carol's folded %s is shown: %q", pair, text)
		}
	}
	pic := g.s.Picture(lines, h, final.Names)
	if pic == nil || len(pic.Hands) == 0 {
		t.Fatalf("the picture shows the hands turned up: %+v", pic)
	}
	for _, sh := range pic.Hands {
		if sh.Name == "Carol" {
			t.Errorf("the picture shows carol's folded hand")
		}
	}
}
