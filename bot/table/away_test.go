package table_test

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/dealerbot/dealerbot/bot/table"
	"github.com/dealerbot/dealerbot/engine"
	"github.com/dealerbot/dealerbot/render"
)

// Away from the table and the time bank (RULES.md section 13).

// four seats Alice, Bob, Carol and Dan at blinds 5/10 with opts; the draw gives Alice the button of
// hand 1 (Bob the small blind, Carol the big blind).
func four(t *testing.T, opts ...string) *game {
	g := newGame(t, append([]string{"blinds=5/10"}, opts...)...)
	for _, p := range []table.Caller{alice, bob, carol, dan} {
		g.do(table.State.Join, p)
	}
	g.script("Ah 2c 3d 4s")
	return g
}

// foldOut ends the running hand: everyone to act folds (the last one left wins it).
func (g *game) foldOut() {
	g.t.Helper()
	for g.s.Hand != nil {
		g.do(table.Betting(engine.Fold).Act, g.toAct())
	}
}

// dealtIn reports whether the running hand deals caller in.
func (g *game) dealtIn(c table.Caller) bool { return g.s.InHand(g.s.SeatOf(c.User)) }

// seat is caller's seat record.
func (g *game) seat(c table.Caller) table.SeatRecord { return g.s.Rec.Seats[g.s.SeatOf(c.User)] }

// logText is the running hand's table log as the table message shows it.
func (g *game) logText(st table.Step) string {
	l := table.NewLines(st.View.Deal, st.View.Notes)
	l.Add(st.View, render.CardStyle{Kind: render.CardText})
	return strings.Join(append(l.Notes, l.Log...), "\n")
}

// TestR29MissedBlinds: four players, blinds 5/10; Dan sits out in the hand where he would post the
// big blind and sits in two hands later. With missed=post he posts 10 live and 5 dead before the
// deal, beside the hand's own blinds, and may check when the action reaches him unraised; the 5 is
// in the pot and counts toward nobody's call. With missed=wait he is dealt in only when the big blind
// reaches his seat.
func TestR29MissedBlinds(t *testing.T) {
	for _, mode := range []string{"post", "wait"} {
		t.Run(mode, func(t *testing.T) {
			g := four(t, "missed="+mode)
			g.deal() // hand 1: button Alice, small blind Bob, big blind Carol; Dan under the gun
			g.foldOut()
			g.do(table.State.SitOut, dan) // hand 2 would have him post the big blind
			g.deal()
			if g.dealtIn(dan) {
				t.Fatal("dan is dealt into hand 2 while sitting out")
			}
			if _, _, big := g.positions(); big != "Alice" {
				t.Fatalf("hand 2's big blind is %s, want Alice (the first dealt in after Carol)", big)
			}
			if st := g.seat(dan); st.Owes != table.OwesMissed {
				t.Fatalf("the big blind passed dan while he sat out: owes %d, want %d", st.Owes, table.OwesMissed)
			}
			g.foldOut()
			g.deal() // hand 3
			g.foldOut()
			g.check("after hand 3")
			if mode == "wait" {
				if _, err := g.try(table.State.SitIn, dan, "post"); err == nil || !strings.Contains(err.Error(), "missed=wait") {
					t.Fatalf("sitin post at a missed=wait table: %v", err)
				}
				st := g.do(table.State.SitIn, dan)
				if !strings.Contains(st.Reply, "when the big blind reaches you") {
					t.Errorf("the reply to sitin says he waits for the big blind: %q", st.Reply)
				}
				g.deal() // hand 4: the big blind is Carol's
				if g.dealtIn(dan) {
					t.Fatal("with missed=wait dan is dealt in before the big blind reaches him")
				}
				g.foldOut()
				g.deal() // hand 5: the big blind reaches Dan
				if _, _, big := g.positions(); !g.dealtIn(dan) || big != "Dan" {
					t.Fatalf("hand 5: dan dealt in %v, big blind %s; want dan in the big blind", g.dealtIn(dan), big)
				}
				if g.s.Rec.Hand.Posts != nil || g.seat(dan).Owes != 0 {
					t.Fatalf("dan in the big blind posts nothing more: posts %v, owes %d", g.s.Rec.Hand.Posts, g.seat(dan).Owes)
				}
				g.foldOut()
				g.check("after hand 5")
				return
			}
			g.do(table.State.SitIn, dan, "post")
			st := g.deal() // hand 4: button Alice, small blind Bob, big blind Carol, Dan under the gun
			if !g.dealtIn(dan) {
				t.Fatal("dan, posting, is not dealt into hand 4")
			}
			if b, s, bb := g.positions(); b != "Alice" || s != "Bob" || bb != "Carol" {
				t.Fatalf("hand 4: button, small, big %s %s %s; want Alice Bob Carol", b, s, bb)
			}
			p := g.s.PlayerOf(g.s.SeatOf(dan.User))
			if got, want := g.s.Rec.Hand.Posts[p], (engine.Post{Live: 10, Dead: 5}); got != want {
				t.Fatalf("dan posts %+v, want %+v", got, want)
			}
			if got := g.logText(st); !strings.Contains(got, "Dan posts 10 and 5 dead") {
				t.Errorf("the table log does not say dan's post:\n%s", got)
			}
			if got, want := g.s.Hand.Pot(), int64(30); got != want {
				t.Errorf("the pot before the action is %d, want %d", got, want)
			}
			if g.toAct() != dan {
				t.Fatalf("%s acts first, want dan under the gun", g.toAct().Name)
			}
			if o, _ := g.s.Hand.Options(); !o.CanCheck {
				t.Fatalf("dan's options %+v: his 10 is live, he may check", o)
			}
			g.do(table.Betting(engine.Check).Act, dan)
			if o, _ := g.s.Hand.Options(); o.ToCall != 10 {
				t.Errorf("alice owes %d, want 10: the dead 5 counts toward nobody's call", o.ToCall)
			}
			g.foldOut()
			g.check("after hand 4")
			if st := g.seat(dan); st.Owes != 0 || st.Posts {
				t.Errorf("dan owes nothing after posting: %+v", st)
			}
		})
	}
}

// A newcomer to a table already playing waits for the big blind, or posts one big blind (live) to
// play at once; a newcomer whose seat the big blind reaches next is dealt in as it.
func TestMissedNewcomer(t *testing.T) {
	for _, mode := range []string{"post", "wait"} {
		t.Run(mode, func(t *testing.T) {
			g := newGame(t, "blinds=5/10", "missed="+mode)
			for _, p := range []table.Caller{alice, bob, carol} {
				g.do(table.State.Join, p)
			}
			g.script("Ah 2c 3d")
			g.deal() // hand 1: button Alice, small blind Bob, big blind Carol
			g.foldOut()
			g.deal() // hand 2: button Bob, small blind Carol, big blind Alice
			g.foldOut()
			st := g.do(table.State.Join, dan) // seat 4, after Carol: the big blind reaches him in hand 4
			if g.seat(dan).Owes != table.OwesNew || !strings.Contains(st.Reply, "when the big blind reaches you") {
				t.Fatalf("dan, new at a running table, owes %d; reply %q", g.seat(dan).Owes, st.Reply)
			}
			if txt := render.Table(g.s.View(g.now), render.CardStyle{Kind: render.CardText}).Text; !strings.Contains(txt, "4. Dan 1,000 · waits for the big blind") {
				t.Errorf("the table does not show dan waiting for the big blind:\n%s", txt)
			}
			if mode == "wait" {
				if _, err := g.try(table.State.SitIn, dan, "post"); err == nil {
					t.Fatal("a newcomer posts at a missed=wait table")
				}
				g.deal() // hand 3: the big blind is Bob's
				if g.dealtIn(dan) {
					t.Fatal("the newcomer is dealt in before the big blind reaches him")
				}
				g.foldOut()
				g.deal() // hand 4: Carol
				g.foldOut()
				g.deal() // hand 5: Dan
				if _, _, big := g.positions(); big != "Dan" || g.s.Rec.Hand.Posts != nil {
					t.Fatalf("hand 5: big blind %s, posts %v; want Dan in the big blind posting nothing more", big, g.s.Rec.Hand.Posts)
				}
				g.foldOut()
				g.check("after hand 5")
				return
			}
			g.do(table.State.SitIn, dan, "post")
			g.deal() // hand 3
			if !g.dealtIn(dan) {
				t.Fatal("the newcomer posting is not dealt in")
			}
			p := g.s.PlayerOf(g.s.SeatOf(dan.User))
			if got, want := g.s.Rec.Hand.Posts[p], (engine.Post{Live: 10}); got != want {
				t.Fatalf("the newcomer posts %+v, want one big blind live %+v", got, want)
			}
			g.foldOut()
			g.check("after hand 3")
		})
	}
	// A newcomer who sits down right after the last big blind is dealt in as the next big blind.
	g := newGame(t, "blinds=5/10")
	for _, p := range []table.Caller{alice, bob, carol} {
		g.do(table.State.Join, p)
	}
	g.script("Ah 2c 3d")
	g.deal() // big blind Carol, seat 3
	g.foldOut()
	g.do(table.State.Join, dan) // seat 4
	g.deal()
	if _, _, big := g.positions(); big != "Dan" || g.s.Rec.Hand.Posts != nil {
		t.Fatalf("the newcomer after the big blind: big blind %s, posts %v; want Dan in the big blind", big, g.s.Rec.Hand.Posts)
	}
	g.foldOut()
	g.check("after hand 2")
}

// `sitout bb`: the player plays until the big blind would reach them and sits out then, without
// posting it; they have missed it. `sitin` before then cancels it.
func TestSitOutBigBlind(t *testing.T) {
	g := four(t)
	g.do(table.State.SitOut, dan, "bb")
	g.deal() // hand 1: Carol's big blind; Dan plays
	if !g.dealtIn(dan) {
		t.Fatal("dan plays until his big blind")
	}
	g.foldOut()
	st := g.deal() // hand 2 would be Dan's big blind
	if g.dealtIn(dan) {
		t.Fatal("dan is dealt in at his big blind after `sitout bb`")
	}
	if _, _, big := g.positions(); big != "Alice" {
		t.Errorf("hand 2's big blind is %s, want Alice", big)
	}
	if s := g.seat(dan); !s.SittingOut || s.SitOutBB || s.Owes != table.OwesMissed {
		t.Errorf("dan after his big blind passed: %+v; want sitting out, owing the missed blinds", s)
	}
	if got := g.logText(st); !strings.Contains(got, "Dan sits out at the big blind.") {
		t.Errorf("the table does not say dan sits out:\n%s", got)
	}
	g.foldOut()
	g.check("after hand 2")

	// Cancelled by sitin, and refused where it makes no sense.
	g.do(table.State.SitOut, carol, "bb")
	if st := g.do(table.State.SitIn, carol); g.seat(carol).SitOutBB || !strings.Contains(st.Reply, "play on") {
		t.Errorf("sitin does not cancel sitout bb: %+v, %q", g.seat(carol), st.Reply)
	}
	for _, r := range []refusal{
		{"sitout bb when out", table.State.SitOut, dan, []string{"bb"}, "already sitting out"},
		{"sitout xyz", table.State.SitOut, alice, []string{"xyz"}, "`sitout bb`"},
		{"sitin xyz", table.State.SitIn, alice, []string{"xyz"}, "`sitin post` or `sitin wait`"},
		{"sitin post owing nothing", table.State.SitIn, alice, []string{"post"}, "owe no blinds"},
	} {
		before := snapshot(g.s)
		if _, err := r.v(g.s, g.now, r.by, r.args, g.inputs(r.by)); err == nil || !strings.Contains(err.Error(), r.want) {
			t.Errorf("%s: %v, want a refusal containing %q", r.name, err, r.want)
		}
		if after := snapshot(g.s); !reflect.DeepEqual(before, after) {
			t.Errorf("%s changed the table", r.name)
		}
	}
}

// away=N: a player sitting out while the big blind passes them N times is stood up and their stack
// goes back to their bankroll, with a line on the table; away=off never.
func TestAwayTooLong(t *testing.T) {
	for _, tc := range []struct {
		opt   string
		after int // hands dealt before dan is stood up; 0: never
	}{{"away=2", 5}, {"", 8}, {"away=off", 0}} { // the big blind passes dan in hands 2, 5, 8, 11, 14
		t.Run(tc.opt, func(t *testing.T) {
			var opts []string
			if tc.opt != "" {
				opts = append(opts, tc.opt)
			}
			g := four(t, opts...)
			g.deal()
			g.foldOut()
			g.do(table.State.SitOut, dan)
			for hand := 2; hand <= 14; hand++ {
				st := g.deal()
				g.foldOut()
				g.check("after a hand")
				gone := g.s.SeatOf(dan.User) < 0
				if want := tc.after > 0 && hand >= tc.after; gone != want {
					t.Fatalf("after hand %d dan is stood up: %v, want %v", hand, gone, want)
				}
				if tc.after > 0 && hand == tc.after {
					if got := g.logText(st); !strings.Contains(got, "Dan sat out") || !strings.Contains(got, "1,000 chips went back to the bankroll") {
						t.Errorf("no line says dan is stood up:\n%s", got)
					}
					if got := g.bankroll[dan.User]; got != 10000 {
						t.Errorf("dan's bankroll is %d after his 1,000 came back, want 10,000", got)
					}
				}
			}
		})
	}
}

// A player whose time runs out two hands in a row is sat out; acting in between starts the count
// again.
func TestTwoTimeoutsSitOut(t *testing.T) {
	g := newGame(t, "blinds=5/10", "timer=30")
	for _, p := range []table.Caller{alice, bob, carol} {
		g.do(table.State.Join, p)
	}
	g.script("Ah 2c 3d")
	timeOut := func(who table.Caller) { // the hand runs with who's clock running out each turn
		for g.s.Hand != nil {
			if g.toAct() == who {
				g.clock()
			} else if o, _ := g.s.Hand.Options(); o.ToCall > 0 {
				g.do(table.Betting(engine.Call).Act, g.toAct())
			} else {
				g.do(table.Betting(engine.Check).Act, g.toAct())
			}
		}
	}
	g.deal() // the others call and check: alice has a turn, and her clock runs out
	timeOut(alice)
	if s := g.seat(alice); s.TimedOut != 1 || s.SittingOut {
		t.Fatalf("after one timeout: %+v", s)
	}
	g.deal()
	timeOut(alice)
	if s := g.seat(alice); !s.SittingOut {
		t.Fatalf("alice timed out two hands in a row and still plays: %+v", s)
	}
	g.check("after two timeouts")
}

// TestR30TimeBank: timer 30 s, timebank=60: alice thinks 50 s in her first decision: 20 s of bank
// used, 40 s left; in a later decision her timer and 40 s of bank run out: she is checked or folded
// and her bank is 0.
func TestR30TimeBank(t *testing.T) {
	g := newGame(t, "blinds=5/10", "timer=30", "timebank=60")
	g.do(table.State.Join, alice)
	g.do(table.State.Join, bob)
	g.script("Ah 2c")
	g.deal() // heads-up: Alice has the button and the small blind, and acts first
	if g.toAct() != alice {
		t.Fatalf("%s acts first", g.toAct().Name)
	}
	bank := func() time.Duration {
		set := g.s.Rec.Settings
		i := table.StandingIndex(g.s.Rec.Standings, alice.User)
		return time.Duration(set.TimeBank)*time.Second - g.s.Rec.Standings[i].BankUsed
	}
	if got := g.s.Chores(g.now, table.Timers{Turn: true}).Wait; got != 30*time.Second {
		t.Fatalf("the turn's wait is %v, want the timer's 30 s", got)
	}
	g.now = g.now.Add(30 * time.Second)
	st := g.clock() // the timer runs out: the bank starts instead of the check or fold
	if g.toAct() != alice || st.View == nil || st.View.Bank != "Alice is using the time bank: 60 s" {
		t.Fatalf("the timeout does not start alice's bank: to act %s, view %+v", g.toAct().Name, st.View)
	}
	if st.Change.Table == nil || st.Change.Table.Hand.BankFrom != g.now {
		t.Fatal("the running bank is not in the table's record")
	}
	if got := g.s.Chores(g.now, table.Timers{Turn: true}).Wait; got != 60*time.Second {
		t.Fatalf("with the bank running the wait is %v, want 60 s", got)
	}
	g.now = g.now.Add(20 * time.Second) // 50 s in all
	st = g.do(table.Betting(engine.Call).Act, alice)
	if got := bank(); got != 40*time.Second {
		t.Fatalf("alice's bank after thinking 50 s: %v left, want 40 s", got)
	}
	if st.Change.Table == nil || st.Change.Table.Hand.BankFrom != (time.Time{}) {
		t.Fatal("the bank's end is not written with the table")
	}
	g.do(table.Betting(engine.Check).Act, bob) // the big blind's option; on the flop he acts first
	g.do(table.Betting(engine.Check).Act, bob)
	// Alice's later decision: the timer and 40 s of bank run out.
	g.now = g.now.Add(30 * time.Second)
	g.clock()
	if got := g.s.Chores(g.now, table.Timers{Turn: true}).Wait; got != 40*time.Second {
		t.Fatalf("the bank's wait is %v, want the 40 s left", got)
	}
	g.now = g.now.Add(40 * time.Second)
	st = g.clock()
	if st.View == nil || st.View.RanOut != "Alice" || lastAction(g.s.Hand) != engine.Check {
		t.Fatalf("when the bank is gone alice is checked for: %+v", st.View)
	}
	if got := bank(); got != 0 {
		t.Fatalf("alice's bank is %v, want 0", got)
	}
	// With no bank left the timer's end checks or folds at once.
	for g.s.Hand != nil {
		g.clock()
	}
	g.check("after the hand")
}

// The time bank comes back A seconds every H hands (timebank=60+5/10), up to its size.
func TestTimeBankRefills(t *testing.T) {
	g := newGame(t, "blinds=5/10", "timer=30", "timebank=60+5/10")
	g.do(table.State.Join, alice)
	g.do(table.State.Join, bob)
	g.script("Ah 2c")
	used := func(c table.Caller) time.Duration {
		return g.s.Rec.Standings[table.StandingIndex(g.s.Rec.Standings, c.User)].BankUsed
	}
	for hand := 1; hand <= 30; hand++ {
		g.deal()
		if hand == 1 {
			// Alice uses 40 s of her bank in hand 1; Bob 3 s.
			g.now = g.now.Add(30 * time.Second)
			g.clock()
			g.now = g.now.Add(40 * time.Second)
			g.do(table.Betting(engine.Call).Act, alice)
			g.now = g.now.Add(30 * time.Second)
			g.clock()
			g.now = g.now.Add(3 * time.Second)
			g.do(table.Betting(engine.Check).Act, bob)
		}
		g.foldOut()
		want := map[int]time.Duration{1: 40 * time.Second, 9: 40 * time.Second, 10: 35 * time.Second, 19: 35 * time.Second,
			20: 30 * time.Second, 30: 25 * time.Second}
		if w, ok := want[hand]; ok && used(alice) != w {
			t.Fatalf("after hand %d alice has used %v of her bank, want %v", hand, used(alice), w)
		}
		if hand >= 10 && used(bob) != 0 {
			t.Fatalf("after hand %d bob has used %v, want 0: a refill never goes past the bank", hand, used(bob))
		}
	}
	g.check("after 30 hands")
}

// A restart while a time bank runs resumes it: the record holds when it began and when it runs out,
// and the turn's wait is what is left of it.
func TestTimeBankResumes(t *testing.T) {
	g := newGame(t, "blinds=5/10", "timer=30", "timebank=60")
	g.do(table.State.Join, alice)
	g.do(table.State.Join, bob)
	g.script("Ah 2c")
	g.deal()
	g.now = g.now.Add(30 * time.Second)
	st := g.clock()
	// A restart: the table comes back from its record, 25 s later.
	rec := st.Change.Table.Clone()
	h, err := engine.Replay(rec.Hand.Setup(), rec.Hand.Actions)
	if err != nil {
		t.Fatal(err)
	}
	back := table.State{Open: true, Rec: rec, Hand: h}
	g.now = g.now.Add(25 * time.Second)
	if got := back.Chores(g.now, table.Timers{Turn: true}).Wait; got != 35*time.Second {
		t.Fatalf("after the restart the bank's wait is %v, want the 35 s left", got)
	}
	g.s = back
	g.now = g.now.Add(35 * time.Second)
	g.clock()
	if i := table.StandingIndex(g.s.Rec.Standings, alice.User); g.s.Rec.Standings[i].BankUsed != 60*time.Second {
		t.Fatalf("alice's bank used after it ran out across the restart: %v, want 60 s", g.s.Rec.Standings[i].BankUsed)
	}
}

// A tournament never lets blinds be missed: a player away is dealt in and blinded, owes nothing,
// and neither `sitout bb` nor `sitin post` applies.
func TestTournamentNeverMissesBlinds(t *testing.T) {
	g := newGame(t, "tournament", "buyin=100", "stack=1000", "blinds=5/10")
	for _, p := range []table.Caller{alice, bob, carol, dan} {
		g.do(table.State.Join, p)
	}
	g.script("Ah 2c 3d 4s")
	g.deal()
	g.foldOut()
	g.do(table.State.SitOut, dan)
	for hand := 2; hand <= 9; hand++ {
		g.deal()
		if !g.dealtIn(dan) {
			t.Fatalf("hand %d: dan, away at a tournament, is not dealt in", hand)
		}
		if g.s.Rec.Hand.Posts != nil {
			t.Fatalf("hand %d: posts %v at a tournament", hand, g.s.Rec.Hand.Posts)
		}
		for g.s.Hand != nil {
			if g.absent() {
				g.take(must(g.s.Forfeit(g.now)))
			} else {
				g.do(table.Betting(engine.Fold).Act, g.toAct())
			}
		}
		if s := g.seat(dan); s.Owes != 0 || s.Orbits != 0 {
			t.Fatalf("hand %d: dan owes %d after %d orbits at a tournament", hand, s.Owes, s.Orbits)
		}
	}
	for _, r := range []refusal{
		{"sitout bb", table.State.SitOut, alice, []string{"bb"}, "never missed"},
		{"sitin post", table.State.SitIn, dan, []string{"post"}, "no missed blinds"},
	} {
		if _, err := r.v(g.s, g.now, r.by, r.args, g.inputs(r.by)); err == nil || !strings.Contains(err.Error(), r.want) {
			t.Errorf("%s: %v, want a refusal containing %q", r.name, err, r.want)
		}
	}
	var chips int64
	for _, st := range g.s.Rec.Seats {
		chips += st.Stack
	}
	if chips != 4000 {
		t.Fatalf("the tournament holds %d chips, want 4,000", chips)
	}
}

// The away settings are bounded where they are read, with a sentence naming the limit; a refused
// line changes nothing.
func TestAwaySettings(t *testing.T) {
	for _, tc := range []struct {
		opts string
		ok   func(table.Settings) bool
		err  string
	}{
		{"missed=post", func(s table.Settings) bool { return s.MissedPost }, ""},
		{"missed=wait", func(s table.Settings) bool { return !s.MissedPost }, ""},
		{"away=5", func(s table.Settings) bool { return s.Away == 5 }, ""},
		{"away=off", func(s table.Settings) bool { return s.Away == -1 }, ""},
		{"timebank=60", func(s table.Settings) bool { return s.TimeBank == 60 && s.TimeBankHands == 0 }, ""},
		{"timebank=60+5/10", func(s table.Settings) bool { return s.TimeBank == 60 && s.TimeBankAdd == 5 && s.TimeBankHands == 10 }, ""},
		{"timebank=off", func(s table.Settings) bool { return s.TimeBank == 0 }, ""},
		{"missed=maybe", nil, "missed=wait"},
		{"away=101", nil, "1 to 100 orbits"},
		{"away=-2", nil, "1 to 100 orbits"},
		{"away=abc", nil, "not a whole number"},
		{"timebank=4", nil, "5 to 3600 seconds"},
		{"timebank=99999999999999999999", nil, "5 to 3600 seconds"},
		{"timebank=60+5", nil, "seconds/hands"},
		{"timebank=60+0/10", nil, "1 to 60 seconds"},
		{"timebank=60+61/10", nil, "1 to 60 seconds"},
		{"timebank=60+5/0", nil, "every 1 to 1000 hands"},
		{"timebank=60+5/1001", nil, "every 1 to 1000 hands"},
	} {
		s := table.DefaultSettings()
		err := s.Apply(strings.Fields(tc.opts))
		switch {
		case tc.err == "" && (err != nil || !tc.ok(s) || s.Validate() != nil):
			t.Errorf("%s: %v, settings %+v", tc.opts, err, s)
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%s: %v, want a refusal containing %q", tc.opts, err, tc.err)
		case tc.err != "" && s != table.DefaultSettings():
			t.Errorf("%s was refused but changed the settings", tc.opts)
		}
	}
	s := table.DefaultSettings()
	if err := s.Apply([]string{"missed=post", "away=5", "timebank=60+5/10"}); err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"missed blinds may be posted", "stood up after 5 orbits sitting out", "time bank 60 s (+5 s every 10 hands)"} {
		if !strings.Contains(s.Describe(), w) {
			t.Errorf("%q lacks %q", s.Describe(), w)
		}
	}
	// At the table: `set` with a bad value changes nothing.
	g := newGame(t)
	before := snapshot(g.s)
	if _, err := g.try(table.State.Set, host, "timebank=60", "away=0x"); err == nil {
		t.Fatal("set away=0x was accepted")
	}
	if !reflect.DeepEqual(before, snapshot(g.s)) {
		t.Fatal("a refused set changed the table")
	}
}

// A choice to post ends when the player sits out again: coming back, they wait unless they choose to
// post again.
func TestPostChoiceEndsWithSitOut(t *testing.T) {
	g := four(t, "missed=post")
	g.deal()
	g.foldOut()
	g.do(table.State.SitOut, dan)
	g.deal() // the big blind passes dan
	g.foldOut()
	g.do(table.State.SitIn, dan, "post")
	g.do(table.State.SitOut, dan)
	g.do(table.State.SitIn, dan)
	g.deal()
	if g.dealtIn(dan) || g.s.Rec.Hand.Posts != nil {
		t.Fatalf("dan posts after sitting out again: dealt in %v, posts %v", g.dealtIn(dan), g.s.Rec.Hand.Posts)
	}
	g.foldOut()
	g.check("after hand 3")
}
