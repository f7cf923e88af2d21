package table

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

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
	most := min(s.Seats, s.Game.MaxPlayers())
	for _, p := range s.Picks() {
		most = min(most, p.Game.MaxPlayers())
	}
	return most
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
		g, v := set.Game, set.Variant
		for _, p := range set.Picks() { // a mixed table: the game of its list that seats fewest
			if p.Game.MaxPlayers() == most {
				g, v = p.Game, p.Variant
			}
		}
		return errs.Errorf(errs.Invalid, "The table is full: %s deals to at most %d players (one deck holds no more hole cards); wait for a player to leave.",
			render.Stakes(g, v, false), most)
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

// Pick is one game of a mixed table with the structure it is dealt with.
type Pick struct {
	Game    engine.Game    `json:",omitzero"`
	Variant engine.Variant `json:",omitzero"`
}

// Short is the game's short name, in capitals as the table shows it: "PLO", "O8".
func (p Pick) Short() string { return strings.ToUpper(GameShort(p.Game, p.Variant)) }

// maxGames is the most games a mixed table lists.
const maxGames = 8

// defaultChoice is what game=choice offers when the table names no games: the three a home game deals
// most.
var defaultChoice = []Pick{{engine.Holdem, engine.NoLimit}, {engine.Omaha, engine.PotLimit}, {engine.OmahaHiLo, engine.FixedLimit}}

// mixArgs are the game options of one `start` or `set`, resolved together once all are read.
type mixArgs struct {
	choice, rotation, single bool
	games                    []Pick
}

// add reads game=choice, game=rotation and games=...; handled is false for any other option.
func (m *mixArgs) add(key, val string) (handled bool, err error) {
	switch {
	case key == "game" && (val == "choice" || val == "dealers-choice" || val == "dealer's-choice"):
		m.choice = true
	case key == "game" && val == "rotation":
		m.rotation = true
	case key == "games":
		m.games = nil
		for _, name := range strings.Split(val, ",") {
			g, v, ok := parseGame(name)
			if !ok {
				return true, errs.Errorf(errs.Invalid, "%s is not a game: list games from nlh, plo, plo5, plo8 and o8, for example games=nlh,plo,o8.", errs.Quote(name))
			}
			m.games = append(m.games, Pick{g, v})
		}
		if len(m.games) < 2 || len(m.games) > maxGames {
			return true, errs.Errorf(errs.Invalid, "List 2 to %d games, for example games=nlh,plo (a rotation, an orbit each) or game=choice games=nlh,plo,o8 (dealer's choice).", maxGames)
		}
	default:
		return false, nil
	}
	return true, nil
}

// apply makes n a table of one game, a rotation or dealer's choice, as the options said: games=
// alone is a rotation (or changes the list of a dealer's-choice table), game=choice and
// game=rotation say which with the table's games (for choice, NLH, PLO and O8 when it has none), and
// one game (game=plo) ends a mix. The game dealt now is the list's first when it is not on it.
func (m mixArgs) apply(n *Settings) error {
	mixed := m.choice || m.rotation || m.games != nil
	switch {
	case !mixed:
		if m.single {
			n.Games, n.Choice = "", false
		}
		return nil
	case m.single:
		return errs.Errorf(errs.Invalid, "Give one game (game=plo) or several (games=nlh,plo, or game=choice games=nlh,plo,o8), not both.")
	case m.choice && m.rotation:
		return errs.Errorf(errs.Invalid, "A table is either dealer's choice (game=choice) or a rotation (game=rotation), not both.")
	}
	list := m.games
	if list == nil {
		list = n.Picks()
	}
	if list == nil {
		if m.rotation {
			return errs.Errorf(errs.Invalid, "Name the games of the rotation: games=nlh,plo (an orbit each).")
		}
		list = defaultChoice
	}
	names := make([]string, len(list))
	for i, p := range list {
		names[i] = GameShort(p.Game, p.Variant)
	}
	n.Games = strings.Join(names, ",")
	n.Choice = m.choice || !m.rotation && m.games != nil && n.Choice
	if !slices.Contains(list, Pick{n.Game, n.Variant}) {
		n.Game, n.Variant = list[0].Game, list[0].Variant
	}
	return nil
}

// validGames checks a mixed table's games read back from the database.
func (s Settings) validGames() bool {
	if s.Games == "" {
		return true
	}
	var m mixArgs
	_, err := m.add("games", s.Games)
	return err == nil && len(m.games) == len(s.Picks())
}

// Picks are a mixed table's games in order; nil for a table of one game.
func (s Settings) Picks() []Pick {
	if s.Games == "" {
		return nil
	}
	var ps []Pick
	for _, name := range strings.Split(s.Games, ",") {
		if g, v, ok := parseGame(name); ok {
			ps = append(ps, Pick{g, v})
		}
	}
	return ps
}

// MixLine says what a mixed table deals, for the table message: "dealer's choice: NLH, PLO, O8" or
// "rotation: NLH → PLO, an orbit each"; empty for a table of one game.
func (s Settings) MixLine() string {
	picks := s.Picks()
	if len(picks) < 2 {
		return ""
	}
	names := make([]string, len(picks))
	for i, p := range picks {
		names[i] = p.Short()
	}
	if s.Choice {
		return "dealer's choice: " + strings.Join(names, ", ")
	}
	return "rotation: " + strings.Join(names, " → ") + ", an orbit each"
}

// Orbit is where a mixed table is in its orbit (RULES.md section 12), kept in the table's record so
// a restart keeps it.
type Orbit struct {
	// Left is the number of hands left in the orbit: 0 when the next deal begins one. An orbit is as
	// many hands as players were dealt in at its first hand.
	Left int `json:",omitzero"`
	// Next is the index in Settings.Games of the next orbit's game in a rotation.
	Next int `json:",omitzero"`
	// Chooser (ChooserName) is the player on the button asked to choose the orbit's game, until By;
	// Placed says the button of the hand waiting for the choice is already placed (or drawn).
	Chooser     string    `json:",omitempty"`
	ChooserName string    `json:",omitempty"`
	By          time.Time `json:",omitzero"`
	Placed      bool      `json:",omitzero"`
	// Chosen is set between a choice and the deal it lets go on.
	Chosen bool `json:",omitzero"`
}

// chooseWait is how long the button has to choose at a table without a turn timer.
const chooseWait = 60 * time.Second

// orbitGame settles the game of the hand about to be dealt at table n (its button placed) among the
// players seats: at a mixed table's first hand of an orbit a rotation moves on to its next game, and
// at dealer's choice the player on the button is asked to choose (asks: the step that asks, which
// deals nothing; the deal comes with their answer, `choose`, or when their time is up, with the game
// unchanged). notes gets what the hand's table message says of it.
func (s State) orbitGame(now time.Time, n *TableRecord, seats []int, notes *[]string) (st Step, asks bool) {
	set, o := &n.Settings, &n.Orbit
	games := set.Picks()
	if len(games) < 2 {
		n.Orbit = Orbit{}
		return Step{}, false
	}
	if o.Left > 0 && o.Chooser == "" && !o.Chosen {
		o.Left--
		return Step{}, false
	}
	button := n.Seats[n.Button]
	game := Pick{set.Game, set.Variant}
	switch {
	case !set.Choice:
		p := games[o.Next%len(games)]
		set.Game, set.Variant, o.Next = p.Game, p.Variant, (o.Next+1)%len(games)
		*notes = append(*notes, fmt.Sprintf("This orbit deals %s (%s).", render.Stakes(p.Game, p.Variant, true), set.MixLine()))
	case o.Chosen:
		*notes = append(*notes, fmt.Sprintf("%s chose %s for this orbit.", o.ChooserName, render.Stakes(set.Game, set.Variant, true)))
	case o.Chooser == "":
		wait := time.Duration(set.Timer) * time.Second
		if wait <= 0 {
			wait = chooseWait
		}
		o.Chooser, o.ChooserName, o.By, o.Placed = button.User, button.Name, now.Add(wait), true
		next := s
		next.Rec = *n
		st := Step{Change: Change{Table: &next.Rec}, Next: &next, Timers: Timers{Deal: true}}
		for _, note := range *notes {
			st.post("%s", note) // the draw for the button, a level: said now, the hand comes later
		}
		st.Posts = append(st.Posts, s.choicePrompt(*n, game, wait))
		return st, true
	default: // the chooser's time is up (a `deal` before it is refused by Deal's caller, choose)
		*notes = append(*notes, fmt.Sprintf("%s did not choose: this orbit deals %s again.", o.ChooserName, render.Stakes(set.Game, set.Variant, true)))
	}
	n.Orbit = Orbit{Left: len(seats) - 1, Next: o.Next}
	return Step{}, false
}

// choicePrompt is the channel's message asking the button to choose, with a button per game.
func (s State) choicePrompt(n TableRecord, now Pick, wait time.Duration) render.Message {
	o := n.Orbit
	m := render.Message{Text: fmt.Sprintf("Dealer's choice: %s has the button and chooses the game for this orbit (%s; no answer keeps %s). Type `choose %s` or click:",
		Mention(n.Platform, o.Chooser, o.ChooserName), Seconds(wait), now.Short(), strings.ToLower(n.Settings.Picks()[0].Short()))}
	for _, p := range n.Settings.Picks() {
		style := render.Secondary
		if p == now {
			style = render.Primary
		}
		m.Buttons = append(m.Buttons, render.Button{Label: p.Short(), Command: "choose " + strings.ToLower(p.Short()), Style: style})
	}
	return m
}

// Choose is the button's choice of the game for the orbit (`choose plo`), which deals its first
// hand. The caller is seated (the gate's need).
func (s State) Choose(now time.Time, by Caller, args []string, in Inputs) (Step, error) {
	o, set := s.Rec.Orbit, s.Rec.Settings
	switch {
	case o.Chooser == "" || s.Hand != nil:
		return Step{}, errs.Errorf(errs.Conflict, "Nobody is choosing a game now: at dealer's choice (game=choice) the player on the button chooses at the start of each orbit.")
	case o.Chooser != by.User:
		return Step{}, errs.Errorf(errs.Forbidden, "It is %s's choice: they have the button.", o.ChooserName)
	case len(args) != 1:
		return Step{}, errs.Errorf(errs.Invalid, "Choose one game: %s.", s.choices())
	}
	g, v, ok := parseGame(args[0])
	if !ok || !slices.Contains(set.Picks(), Pick{g, v}) {
		return Step{}, errs.Errorf(errs.Invalid, "%s is not one of this table's games: %s.", errs.Quote(args[0]), s.choices())
	}
	n := s.Rec.Clone()
	n.Settings.Game, n.Settings.Variant = g, v
	n.Orbit.Chooser, n.Orbit.ChooserName, n.Orbit.By, n.Orbit.Chosen = "", by.Name, time.Time{}, true
	if seated, most := len(s.Playing()), n.Settings.MaxSeated(); seated > most {
		return Step{}, errs.Errorf(errs.Invalid, "%s deals to at most %d players and %d are playing: choose another game.", render.Stakes(g, v, true), most, seated)
	}
	next := s
	next.Rec = n
	st, err := next.NextHand(now, in)
	if err != nil {
		return Step{}, err
	}
	st.Reply = fmt.Sprintf("You chose %s.", render.Stakes(g, v, true))
	return st, nil
}

// choices lists the table's games as `choose` takes them.
func (s State) choices() string {
	var cs []string
	for _, p := range s.Rec.Settings.Picks() {
		cs = append(cs, "`choose "+strings.ToLower(p.Short())+"`")
	}
	return strings.Join(cs, ", ")
}
