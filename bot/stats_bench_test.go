package bot_test

import (
	"context"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dealerbot/dealerbot/bot"
	"github.com/dealerbot/dealerbot/bot/money"
	"github.com/dealerbot/dealerbot/bot/stats"
	"github.com/dealerbot/dealerbot/bot/table"
	"github.com/dealerbot/dealerbot/engine"
	"github.com/dealerbot/dealerbot/storage"
)

// playedHands plays n hands between some of players with random legal actions, for stores to hold.
// About one decision in 150 (when a raise or a call is open) goes all-in; the random players call
// often, so 73 of the benchmark's pool of 1,000 hands are run out after an all-in, 57 of them between
// more than two players and 37 before the flop: far more, and dearer to deal, than at a home game.
func playedHands(r *rand.Rand, n int, players []string) []table.HandRecord {
	var out []table.HandRecord
	for len(out) < n {
		k := 2 + r.IntN(len(players)-1)
		perm := r.Perm(len(players))[:k]
		s := engine.Setup{Rules: engine.Rules{Variant: engine.NoLimit, SmallBlind: 5, BigBlind: 10}, Button: r.IntN(k)}
		var users []string
		for _, i := range perm {
			s.Stacks = append(s.Stacks, 200+r.Int64N(2000))
			users = append(users, players[i])
		}
		deck := engine.OrderedDeck()
		r.Shuffle(52, func(i, j int) { deck[i], deck[j] = deck[j], deck[i] })
		s.Deck = deck
		h, err := engine.NewHand(s)
		if err != nil {
			continue
		}
		var acts []engine.Action
		for !h.Done() {
			o, ok := h.Options()
			if !ok {
				break
			}
			a := engine.Action{Player: o.Player, Kind: engine.Fold}
			switch x := r.IntN(10); {
			case (o.CanRaise || o.CanBet || o.CanCall) && r.IntN(150) == 0:
				a.Kind = engine.AllIn
			case o.CanCheck && x < 6:
				a.Kind = engine.Check
			case o.CanCall && x < 6:
				a.Kind = engine.Call
			case (o.CanBet || o.CanRaise) && x < 8:
				a.Kind, a.Amount = engine.Raise, o.MinTo
				if o.CanBet {
					a.Kind = engine.Bet
				}
			case o.CanCheck:
				a.Kind = engine.Check
			}
			if _, err := h.Apply(a); err != nil {
				break
			}
			acts = append(acts, a)
		}
		if !h.Done() {
			continue
		}
		out = append(out, table.HandRecord{Names: users, Users: users, Rules: s.Rules, Stacks: s.Stacks, Button: s.Button,
			Deck: s.Deck, Actions: acts, Final: h.Stacks(), Size: 10})
	}
	return out
}

// BenchmarkStatsSeason answers `stats season` and `stats chart season` for one of 10 players at a
// channel whose season is 50 scheduled sessions of 1,000 hands each (50,000 stored hands, bbolt,
// 3,650 of them run out after an all-in), played for money. Targets: stats at most 300 ms,
// the chart at most 100 ms, both with the all-in adjusted results.
//
// The stats feature works out a finished session's figures once (package stats' tallyCache): stats and chart are
// what every answer but the first costs. The first answer of a dealer just started reads every hand
// and deals every all-in's equity: its time is logged ("first answer"), once per run.
func BenchmarkStatsSeason(b *testing.B) {
	db, err := storage.Open(filepath.Join(b.TempDir(), "season.db"))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	ctx := context.Background()
	players := []string{"alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi", "ivan", "judy"}
	r := rand.New(rand.NewPCG(5, 5))
	pool := playedHands(r, 1000, players)
	const sessions, perSession = 50, 1000
	id := "bench/w/c"
	start := time.Date(2026, 1, 2, 20, 0, 0, 0, time.UTC)
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	sem := make(chan struct{}, 64) // commits in flight share transactions (group commit)
	for s := 0; s < sessions; s++ {
		began := start.AddDate(0, 0, 7*s)
		for i := 0; i < perSession; i++ {
			h := pool[(s*perSession+i)%len(pool)]
			h.Table, h.No, h.Time = id, int64(s*perSession+i+1), began.Add(time.Duration(i)*10*time.Second)
			wg.Add(1)
			sem <- struct{}{}
			go func() {
				defer wg.Done()
				defer func() { <-sem }()
				if err := db.Commit(ctx, table.Change{Hand: &h}); err != nil {
					select {
					case errs <- err:
					default:
					}
				}
			}()
		}
	}
	wg.Wait()
	select {
	case err := <-errs:
		b.Fatal(err)
	default:
	}
	// The sessions, each with its standings and its results in money.
	for s := 0; s < sessions; s++ {
		began := start.AddDate(0, 0, 7*s)
		sess := table.SessionRecord{Table: id, Schedule: "1", Started: began, Ended: began.Add(3 * time.Hour),
			HandBase: int64(s * perSession), HandNo: int64((s + 1) * perSession)}
		ev := money.Event{Time: sess.Ended, Kind: money.KindSession, Community: "bench/w", Table: id, Started: began,
			Currency: "USD", Value: money.Value{Units: 1, Scale: 2}}
		for j, p := range players {
			net := int64(100 * (j - 4))
			if s%2 == 1 {
				net = -net
			}
			sess.Standings = append(sess.Standings, table.Standing{User: p, Name: p, BoughtIn: 1000, CashedOut: 1000 + net})
			ev.Shares = append(ev.Shares, money.Share{User: p, Name: p, Chips: net, Amount: net})
		}
		if err := db.Commit(ctx, table.Change{Session: &sess, Money: []money.Event{ev}, MoneyAfter: uint64(s)}); err != nil {
			b.Fatal(err)
		}
	}
	runOut, multi, preflop := 0, 0, 0
	for _, h := range pool {
		if w, err := stats.Walk(h.Setup(), h.Actions); err == nil && w.RunOut {
			runOut++
			live := 0
			for _, st := range w.Seats {
				live += map[bool]int{true: 1}[st.Showdown]
			}
			if live > 2 {
				multi++
			}
			if w.Known == 0 {
				preflop++
			}
		}
	}
	b.Logf("%d of the pool's %d hands are run out after an all-in (%d before the flop, %d between more than two players)", runOut, len(pool), preflop, multi)
	d, _ := newBenchDealerOn(b, db, bot.Config{})
	for _, text := range []string{"stats season", "stats chart season"} {
		began := time.Now()
		r := d.Handle(ctx, bot.Command{Platform: "bench", Workspace: "w", Channel: "c", User: "alice", UserName: "alice", Text: text})
		if r.IsError {
			b.Fatal(r.Text)
		}
		b.Logf("first answer to %s: %v\n%s", text, time.Since(began), r.Text)
	}
	for _, bc := range []struct{ name, text, want string }{
		{"stats", "stats season", "Stats of alice"},
		{"chart", "stats chart season", "Cumulative results over 50 sessions"},
	} {
		b.Run(bc.name, func(b *testing.B) {
			cmd := bot.Command{Platform: "bench", Workspace: "w", Channel: "c", User: "alice", UserName: "alice", Text: bc.text}
			for i := 0; i < b.N; i++ {
				r := d.Handle(ctx, cmd)
				if r.IsError || !strings.Contains(r.Text, bc.want) {
					b.Fatalf("%s: %s", bc.text, r.Text)
				}
			}
		})
	}
}
