package stats

import (
	"errors"
	"math/rand/v2"
	"slices"

	"github.com/dealerbot/dealerbot/engine"
)

// ErrNoEquity is Expected's error for a hand whose pots do not add up to what the players put in
// (a hand the engine replays differently from the walk): its all-in adjusted result is its real one.
var ErrNoEquity = errors.New("the hand's pots do not match its contributions")

// Expected is each player's all-in adjusted result in a hand Walk read as run out (w.RunOut): what
// the player would have won had every pot been paid by equity at the moment the betting closed,
// less what they put in. A pot's equity is the exact share of each player who can win it over
// every way the rest of the board could come, from the cards out at that moment (w.Known) and with
// every live hand turned up (so a side pot's equity knows the cards of the player all-in for less);
// a pot only one player can win is theirs. The results add up to 0 over the players, like the real
// ones.
//
// When every contested pot is contested by all the live hands (the common case) engine.Equity
// deals the boards: about 7 ms for two hands all-in before the flop, microseconds on the turn. A
// side pot between some of them deals the boards here, with engine.Evaluate7 (about 0.1 s for
// three hands before the flop). Callers keep the results they worked out.
func Expected(s engine.Setup, actions []engine.Action, w Hand) ([]float64, error) {
	h, err := engine.Replay(s, actions)
	if err != nil {
		return nil, err
	}
	pots := h.Pots()
	var total int64
	for _, p := range pots {
		total += p.Amount
	}
	board := h.Board()
	if total != w.Pot || len(board) < w.Known {
		return nil, ErrNoEquity
	}
	board = board[:w.Known]
	var live []int
	for p := range w.Seats {
		if !h.Folded(p) {
			live = append(live, p)
		}
	}
	ev := make([]float64, len(w.Seats))
	allLive := true
	for _, pot := range pots {
		if len(pot.Eligible) > 1 && len(pot.Eligible) != len(live) {
			allLive = false
		}
	}
	var shares [][]float64 // by pot, by eligible player
	if g := s.Rules.Game; g != engine.Holdem {
		// Omaha: engine.OmahaEquity, exact when the boards are few, else a fixed sample (hi-lo
		// halves counted). Side pots between only some of the live hands are not valued yet.
		if !allLive {
			return nil, ErrNoEquity
		}
		hands := make([][]engine.Card, len(live))
		for i, p := range live {
			hands[i] = h.HoleCards(p)
		}
		est, err := engine.OmahaEquity(g, hands, board, sampledBoards, rand.NewPCG(uint64(len(actions)), 0x6c75636b))
		if err != nil {
			return nil, err
		}
		shares = potShares(pots, live, func(i int) float64 { return est.Results[i].Share })
	} else if allLive && len(board) >= 3 { // from the flop on: every board, exactly
		hands := make([][2]engine.Card, len(live))
		for i, p := range live {
			hands[i] = h.Hole(p)
		}
		eq, err := engine.Equity(hands, board)
		if err != nil {
			return nil, err
		}
		shares = potShares(pots, live, func(i int) float64 { return eq[i].Share })
	} else {
		shares = dealShares(h, live, board, pots, uint64(s.Deck[0])<<8|uint64(len(actions)))
	}
	for k, pot := range pots {
		for i, p := range pot.Eligible {
			ev[p] += float64(pot.Amount) * shares[k][i]
		}
	}
	for p := range ev {
		ev[p] -= float64(w.Seats[p].Contrib)
	}
	return ev, nil
}

// potShares gives each pot's eligible players their share (share(i) for live[i]); a pot only one
// player can win is theirs.
func potShares(pots []engine.Pot, live []int, share func(i int) float64) [][]float64 {
	var out [][]float64
	for _, pot := range pots {
		sh := make([]float64, len(pot.Eligible))
		for i, p := range pot.Eligible {
			sh[i] = 1
			if len(pot.Eligible) > 1 {
				sh[i] = share(slices.Index(live, p))
			}
		}
		out = append(out, sh)
	}
	return out
}

// sampledBoards is how many boards dealShares deals when completing the board every way would take
// more (an all-in before the flop: 1.5 million boards or so): a fixed sample, the same for the same
// hand, whose shares are within about half a percent of the pot of the exact ones. It keeps a
// season's first `stats` to about a millisecond an all-in, where every board took 7 to 100 ms.
const sampledBoards = 10000

// dealShares deals the boards that can complete board, the live hands' cards out of the deck, and
// returns each pot's eligible players' expected shares of it: on each board the best hand among a
// pot's players takes it, a tie shares it. Every board when there are at most sampledBoards of them,
// else sampledBoards drawn from a generator seeded with seed.
func dealShares(h *engine.Hand, live []int, board []engine.Card, pots []engine.Pot, seed uint64) [][]float64 {
	var used [52]bool
	hole := make([][2]engine.Card, h.NumPlayers())
	for _, p := range live {
		hole[p] = h.Hole(p)
		used[hole[p][0]], used[hole[p][1]] = true, true
	}
	for _, c := range board {
		used[c] = true
	}
	var rest []engine.Card
	for c := engine.Card(0); c < 52; c++ {
		if !used[c] {
			rest = append(rest, c)
		}
	}
	wins := make([][]float64, len(pots))
	for k, pot := range pots {
		wins[k] = make([]float64, len(pot.Eligible))
	}
	full := make([]engine.Card, 5)
	copy(full, board)
	rank := make([]engine.HandRank, h.NumPlayers())
	boards := 0
	var seven [7]engine.Card
	score := func() {
		boards++
		copy(seven[2:], full)
		for _, p := range live {
			seven[0], seven[1] = hole[p][0], hole[p][1]
			rank[p] = engine.Evaluate7(&seven)
		}
		for k, pot := range pots {
			if len(pot.Eligible) == 1 {
				continue
			}
			best, ways := engine.HandRank(0), 0
			for _, p := range pot.Eligible {
				switch r := rank[p]; {
				case r > best:
					best, ways = r, 1
				case r == best:
					ways++
				}
			}
			for i, p := range pot.Eligible {
				if rank[p] == best {
					wins[k][i] += 1 / float64(ways)
				}
			}
		}
	}
	var deal func(at, from int)
	deal = func(at, from int) {
		if at == 5 {
			score()
			return
		}
		for i := from; i < len(rest); i++ {
			full[at] = rest[i]
			deal(at+1, i+1)
		}
	}
	if ways := combinations(len(rest), 5-len(board)); ways <= sampledBoards {
		deal(len(board), 0)
	} else {
		r := rand.New(rand.NewPCG(seed, 0x6c75636b)) // "luck"
		for range sampledBoards {
			for at := len(board); at < 5; at++ { // a partial shuffle: the board's cards from rest
				j := at - len(board) + r.IntN(len(rest)-(at-len(board)))
				rest[at-len(board)], rest[j] = rest[j], rest[at-len(board)]
				full[at] = rest[at-len(board)]
			}
			score()
		}
	}
	for k, pot := range pots {
		for i := range pot.Eligible {
			if len(pot.Eligible) == 1 {
				wins[k][i] = 1
			} else {
				wins[k][i] /= float64(boards)
			}
		}
	}
	return wins
}

// combinations is n choose k, for the small n and k of a board (at most 52 choose 5).
func combinations(n, k int) int {
	c := 1
	for i := 0; i < k; i++ {
		c = c * (n - i) / (i + 1)
	}
	return c
}
