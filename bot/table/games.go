package table

import (
	"math/rand/v2"
	"strings"

	"github.com/dealerbot/dealerbot/bot/errs"
	"github.com/dealerbot/dealerbot/engine"
	"github.com/dealerbot/dealerbot/render"
)

// The games a table deals (RULES.md section 12), by the short names players type in `game=`:
// each names a game and the betting structure it is dealt with, as home games say them.
var gameNames = []struct {
	name    string
	game    engine.Game
	variant engine.Variant
}{
	{"nlh", engine.Holdem, engine.NoLimit},
	{"plh", engine.Holdem, engine.PotLimit},
	{"lhe", engine.Holdem, engine.FixedLimit},
	{"plo", engine.Omaha, engine.PotLimit},
	{"plo5", engine.Omaha5, engine.PotLimit},
	{"plo8", engine.OmahaHiLo, engine.PotLimit},
	{"o8", engine.OmahaHiLo, engine.FixedLimit},
}

// gameAliases are other spellings of the short names.
var gameAliases = map[string]string{
	"holdem": "nlh", "hold'em": "nlh", "texas": "nlh", "flh": "lhe", "limit-holdem": "lhe",
	"omaha": "plo", "omaha5": "plo5", "5-card-omaha": "plo5", "plo-hilo": "plo8", "omaha-hilo": "o8", "omaha8": "o8", "hilo": "o8",
}

// GameHelp lists the names `game=` takes.
const GameHelp = "nlh (no-limit hold'em), plo (pot-limit Omaha), plo5 (five-card pot-limit Omaha, 8 players at most), " +
	"plo8 (pot-limit Omaha hi-lo), o8 (fixed-limit Omaha hi-lo); also plh, lhe"

// parseGame reads a game's short name: the game and the betting structure it implies.
func parseGame(val string) (engine.Game, engine.Variant, bool) {
	val = strings.ToLower(strings.TrimSpace(val))
	if a, ok := gameAliases[val]; ok {
		val = a
	}
	for _, g := range gameNames {
		if g.name == val {
			return g.game, g.variant, true
		}
	}
	return 0, 0, false
}

// GameShort is the short name of a game dealt with a structure ("plo", "o8"); a pairing with no
// short name of its own (no-limit Omaha) is named by its structure and game.
func GameShort(g engine.Game, v engine.Variant) string {
	for _, n := range gameNames {
		if n.game == g && n.variant == v {
			return n.name
		}
	}
	return v.String() + " " + g.String()
}

// errGame is the refusal of a `game=` (or `variant=`) that names neither a game nor a structure.
func errGame(val string) error {
	return errs.Errorf(errs.Invalid, "%s is not a variant or a game: choose game=nlh, plo, plo5, plo8 or o8 (%s), or a betting structure, variant=no-limit, pot-limit or fixed-limit.",
		errs.Quote(val), "`help start` says what each is")
}

// MaxSeated is the most players who may sit at the table: its seats, and 8 when it deals five-card
// Omaha (one deck holds no more hole cards).
func (s Settings) MaxSeated() int {
	return min(s.Seats, s.Game.MaxPlayers())
}

// seatedCount is the number of players seated.
func (s State) seatedCount() int {
	n := 0
	for _, st := range s.Rec.Seats {
		if st.User != "" {
			n++
		}
	}
	return n
}

// gameRoom refuses one more player at a table whose game deals to no more than are seated (five-card
// Omaha: 8), before the seats run out.
func (s State) gameRoom() error {
	set := s.Rec.Settings
	if most := set.MaxSeated(); most < len(s.Rec.Seats) && s.seatedCount() >= most {
		return errs.Errorf(errs.Invalid, "The table is full: %s deals to at most %d players (one deck holds no more hole cards); wait for a player to leave.",
			render.Stakes(set.Game, set.Variant, false), most)
	}
	return nil
}

// omahaBoards is the most boards omahaEquity deals: exact below it (a two-way all-in on the flop has
// 990 runouts), a sample of that many above it, a few milliseconds either way.
const omahaBoards = 4000

// omahaEquity is equity for Omaha (engine.OmahaEquity): exact when the remaining boards are few,
// otherwise a sample from a fixed seed, so the same all-in always shows the same figures, marked "~".
func omahaEquity(ev engine.Event, game engine.Game, names render.Names, style render.CardStyle) (render.Message, bool) {
	hands := make([][]engine.Card, len(ev.Hands))
	for i, h := range ev.Hands {
		hands[i] = h.Hole
	}
	est, err := engine.OmahaEquity(game, hands, ev.Board, omahaBoards, rand.NewPCG(1, 2))
	if err != nil {
		return render.Message{}, false
	}
	return render.Equity(render.EquityView{Names: names, Hands: ev.Hands, Board: ev.Board, Results: est.Results,
		Sampled: !est.Exact, Shares: game.HiLo()}, style), true
}
