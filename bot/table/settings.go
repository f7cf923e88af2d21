package table

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/dealerbot/dealerbot/bot/errs"
	"github.com/dealerbot/dealerbot/engine"
	"github.com/dealerbot/dealerbot/render"
)

// Settings are a table's stakes and session rules. Every one has a default (DefaultSettings).
type Settings struct {
	Variant    engine.Variant
	SmallBlind int64
	BigBlind   int64
	Ante       int64
	BuyIn      int64 // the buy-in when `join` names no amount
	MinBuyIn   int64
	MaxBuyIn   int64
	// Rebuys is how many rebuys each player may make: -1 any number, 0 none.
	Rebuys int
	// RebuyLevels, when above 0, allows rebuys only during the first RebuyLevels blind levels.
	RebuyLevels int
	// The blinds rise every LevelMinutes minutes or every LevelHands hands (0: they never rise).
	LevelMinutes int
	LevelHands   int
	Timer        int // seconds a player has to act; 0 means no timer
	Cards        render.CardKind
	NoPictures   bool // pictures=off: no showdown picture on the table message
	Seats        int
	EndMinutes   int  // the session ends this many minutes after the start; 0 means no set end
	Straddle     bool // players may straddle under the gun (`straddle`)
	RunTwice     bool // all-in players are asked to run the board twice
	// Money is what the table plays for (value=, currency=...; money.go); zero: chips only.
	Money Money `json:",omitzero"`
	// Away from the table and the time bank (RULES.md section 13; away.go). MissedPost (missed=post)
	// lets a player who missed the blinds post them to play at once; Away is the orbits a player may
	// sit out before being stood up (0: the default, 3; -1: never); TimeBank is each player's reserve
	// in seconds (0: none), TimeBankAdd seconds coming back every TimeBankHands hands.
	MissedPost    bool `json:",omitempty"`
	Away          int  `json:",omitempty"`
	TimeBank      int  `json:",omitempty"`
	TimeBankAdd   int  `json:",omitempty"`
	TimeBankHands int  `json:",omitempty"`
	// Game is the game dealt (Hold'em, the zero value, for records from before games existed).
	Game engine.Game `json:",omitzero"`
	// Games are a mixed table's games, each with its structure (games.go): a rotation, one orbit
	// each, or with Choice the games the player on the button picks from for each orbit. Empty: the
	// table deals Game alone.
	// (A string of short names, "nlh,plo,o8", so that Settings stay comparable.)
	Games  string `json:",omitempty"`
	Choice bool   `json:",omitzero"`
}

// DefaultSettings is what a bare `start` opens: no-limit 5/10, buy-in 1,000 (400 to 2,000), rebuys
// allowed, no rising blinds, a 60-second turn timer, text cards, nine seats.
func DefaultSettings() Settings {
	s := Settings{
		Variant: engine.NoLimit, SmallBlind: 5, BigBlind: 10,
		Rebuys: -1, Timer: 60, Cards: render.CardText, Seats: 9,
	}
	s.BuyIn, s.MinBuyIn, s.MaxBuyIn = defaultBuyIns(s.BigBlind)
	return s
}

// defaultBuyIns are the buy-in, smallest and largest buy-in of a table whose host names none: 100
// big blinds, 40 to 200, within the chip ceiling (bigBlind <= engine.MaxChips, so 200 of them fit in
// an int64).
func defaultBuyIns(bigBlind int64) (buyIn, least, most int64) {
	at := func(n int64) int64 { return min(n*bigBlind, engine.MaxChips) }
	return at(100), at(40), at(200)
}

// minBuyInBlinds is the fewest big blinds a buy-in may be.
const minBuyInBlinds = 10

// Limits on the numbers a host types, each named in the sentence that refuses a larger one.
const (
	maxLevelMinutes = 24 * 60 // blinds rise at least once a day
	maxLevelHands   = 1000
	maxEndMinutes   = 24 * 60 // a session is at most a day long
	maxRebuys       = 100
	maxRebuyLevels  = 100
	// maxLevel is the last blind level: the schedule below doubles from level 11 on, so by level 40
	// even 1/2 blinds are past the chip ceiling and Rules holds them at the ceiling's level.
	maxLevel = 40
)

// levelSteps is how many times the starting blinds each of the first levels' blinds are; later
// levels double.
var levelSteps = [...]int64{1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64}

// levelFactor is how many times the starting blinds a level's blinds are, for 0 <= level <= maxLevel.
func levelFactor(level int) int64 {
	level = min(max(level, 0), maxLevel)
	if level < len(levelSteps) {
		return levelSteps[level]
	}
	return levelSteps[len(levelSteps)-1] << (level - len(levelSteps) + 1) // at most 64<<29 = 2^35
}

// Rules returns the engine rules at a blind level. The blinds stop rising at the last level whose big
// blind and ante stay within engine.MaxChips, so no level, however late, can wrap or wedge the table.
func (s Settings) Rules(level int) engine.Rules {
	level = min(max(level, 0), maxLevel)
	for level > 0 && (s.BigBlind > engine.MaxChips/levelFactor(level) || s.Ante > engine.MaxChips/levelFactor(level)) {
		level--
	}
	f := levelFactor(level)
	return engine.Rules{Variant: s.Variant, Game: s.Game, SmallBlind: s.SmallBlind * f, BigBlind: s.BigBlind * f, Ante: s.Ante * f}
}

// Level returns the blind level after elapsed time and hands dealt, at most maxLevel.
func (s Settings) Level(elapsed time.Duration, hands int64) int {
	level := 0
	if m := min(max(s.LevelMinutes, 0), maxLevelMinutes); m > 0 && elapsed > 0 {
		level = max(level, int(min(elapsed/(time.Duration(m)*time.Minute), maxLevel)))
	}
	if h := int64(min(max(s.LevelHands, 0), maxLevelHands)); h > 0 && hands > 0 {
		level = max(level, int(min(hands/h, maxLevel)))
	}
	return level
}

// Validate checks settings read back from the database against the limits Apply enforces, so a
// record written by an older version cannot wedge a table.
func (s Settings) Validate() error {
	switch {
	case s.Variant > engine.FixedLimit:
		return fmt.Errorf("unknown variant %d", s.Variant)
	case s.Game > engine.OmahaHiLo:
		return fmt.Errorf("unknown game %d", s.Game)
	case !s.validGames():
		return fmt.Errorf("games %v out of range", s.Games)
	case s.SmallBlind <= 0 || s.BigBlind < s.SmallBlind || s.BigBlind > engine.MaxChips:
		return fmt.Errorf("blinds %d/%d out of range", s.SmallBlind, s.BigBlind)
	case s.Ante < 0 || s.Ante > engine.MaxChips:
		return fmt.Errorf("ante %d out of range", s.Ante)
	case s.MinBuyIn <= 0 || s.MinBuyIn > s.BuyIn || s.BuyIn > s.MaxBuyIn || s.MaxBuyIn > engine.MaxChips:
		return fmt.Errorf("buy-ins %d/%d/%d out of range", s.MinBuyIn, s.BuyIn, s.MaxBuyIn)
	case s.Rebuys < -1 || s.Rebuys > maxRebuys || s.RebuyLevels < 0 || s.RebuyLevels > maxRebuyLevels:
		return fmt.Errorf("rebuys %d (levels %d) out of range", s.Rebuys, s.RebuyLevels)
	case s.LevelMinutes < 0 || s.LevelMinutes > maxLevelMinutes || s.LevelHands < 0 || s.LevelHands > maxLevelHands:
		return fmt.Errorf("levels %dm/%dhands out of range", s.LevelMinutes, s.LevelHands)
	case s.Timer != 0 && (s.Timer < 10 || s.Timer > 600):
		return fmt.Errorf("timer %d out of range", s.Timer)
	case s.Seats < 2 || s.Seats > engine.MaxPlayers:
		return fmt.Errorf("%d seats out of range", s.Seats)
	case s.EndMinutes < 0 || s.EndMinutes > maxEndMinutes:
		return fmt.Errorf("end after %d minutes out of range", s.EndMinutes)
	}
	if err := s.validateAway(); err != nil {
		return err
	}
	return s.Money.validate()
}

// Describe is the one-line summary of the settings.
func (s Settings) Describe() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s/%s", strings.ToLower(render.Stakes(s.Game, s.Variant, s.Games != "")), render.Chips(s.SmallBlind), render.Chips(s.BigBlind))
	if m := s.MixLine(); m != "" {
		b.WriteString(" (" + m + ")")
	}
	if s.Ante > 0 {
		fmt.Fprintf(&b, ", ante %s", render.Chips(s.Ante))
	}
	fmt.Fprintf(&b, ", buy-in %s (%s to %s)", render.Chips(s.BuyIn), render.Chips(s.MinBuyIn), render.Chips(s.MaxBuyIn))
	switch {
	case s.Rebuys < 0:
		b.WriteString(", rebuys allowed")
	case s.Rebuys == 0:
		b.WriteString(", no rebuys")
	default:
		fmt.Fprintf(&b, ", up to %s", count(s.Rebuys, "rebuy", "rebuys"))
	}
	if s.RebuyLevels > 0 {
		fmt.Fprintf(&b, " in the first %s", count(s.RebuyLevels, "level", "levels"))
	}
	if s.LevelMinutes > 0 {
		fmt.Fprintf(&b, ", blinds rise every %s", count(s.LevelMinutes, "minute", "minutes"))
	}
	if s.LevelHands > 0 {
		fmt.Fprintf(&b, ", blinds rise every %s", count(s.LevelHands, "hand", "hands"))
	}
	if s.Timer > 0 {
		fmt.Fprintf(&b, ", %d s to act", s.Timer)
	} else {
		b.WriteString(", no turn timer")
	}
	if s.EndMinutes > 0 {
		fmt.Fprintf(&b, ", ends after %s", count(s.EndMinutes, "minute", "minutes"))
	}
	if s.Straddle {
		b.WriteString(", straddles allowed")
	}
	if s.RunTwice {
		b.WriteString(", run it twice offered")
	}
	b.WriteString(s.describeAway())
	b.WriteString(s.Money.describe())
	fmt.Fprintf(&b, ", %d seats", s.Seats)
	return b.String()
}

// SettingsHelp lists the options `start` and `set` take.
const SettingsHelp = "game=nlh|plo|plo5|plo8|o8|choice games=nlh,plo,o8 variant=no-limit|pot-limit|fixed-limit blinds=5/10 (or sb=5 bb=10) ante=1 buyin=1000 min=400 max=2000 " +
	"rebuy=yes|no|N rebuylevels=N levels=10m|20hands timer=60|off cards=text|emoji|images|images4 pictures=on|off seats=2-10 end=90m|2h " +
	"straddle=on|off runtwice=on|off " +
	"(buy-ins default to 100 big blinds, 40 to 200, and are at least 10; chips up to 1,000,000,000,000; levels up to a day or 1000 hands; end up to 24h)"

// Apply reads key=value options into s. On error s is unchanged and the error is a sentence for players.
func (s *Settings) Apply(opts []string) error {
	n := *s
	buyinSet, minSet, maxSet := false, false, false
	var pair blindPair // sb= and bb=, given apart
	var mix mixArgs    // game=choice, game=rotation, games= and a single game, resolved together (games.go)
	for _, o := range opts {
		key, val, ok := strings.Cut(o, "=")
		if !ok || val == "" {
			return errs.Errorf(errs.Invalid, "%s is not an option: write key=value, for example blinds=10/20; `help` lists the options.", errs.Quote(o))
		}
		key = strings.ToLower(key)
		val = strings.ToLower(val)
		var err error
		switch key {
		case "games", "game", "variant":
			if handled, merr := mix.add(key, val); handled || merr != nil {
				err = merr
				break
			}
			// A game's short name sets the game and the structure it implies (game=plo is pot-limit
			// Omaha); a structure alone (variant=pot-limit, and game= as it was before games) keeps
			// the game.
			if g, v, ok := parseGame(val); ok {
				n.Game, n.Variant = g, v
				mix.single = true
				break
			}
			if n.Variant, err = engine.ParseVariant(val); err != nil {
				return errGame(val)
			}
		case "blinds":
			sb, bb, ok := strings.Cut(val, "/")
			if !ok {
				return errs.Errorf(errs.Invalid, "Write the blinds as small/big, for example blinds=10/20.")
			}
			if n.SmallBlind, err = chipsArg(sb, "small blind", "blinds=10/20"); err != nil {
				return err
			}
			if n.BigBlind, err = chipsArg(bb, "big blind", "blinds=10/20"); err != nil {
				return err
			}
			if n.SmallBlind > n.BigBlind {
				return errs.Errorf(errs.Invalid, "The small blind must not be larger than the big blind: for example blinds=10/20.")
			}
			pair.together = true
		case "sb", "smallblind", "small_blind", "bb", "bigblind", "big_blind":
			err = pair.add(key, val)
		case "ante":
			if val == "0" || val == "off" || val == "no" {
				n.Ante = 0
				break
			}
			if strings.HasPrefix(val, "-") {
				return errs.Errorf(errs.Invalid, "The ante must be a whole number of chips, 0 or more: for example ante=2.")
			}
			n.Ante, err = chipsArg(val, "ante", "ante=2")
		case "buyin", "buy-in":
			n.BuyIn, err = chipsArg(val, "buy-in", "buyin=1000")
			buyinSet = true
		case "min", "minbuyin":
			n.MinBuyIn, err = chipsArg(val, "smallest buy-in", "min=400")
			minSet = true
		case "max", "maxbuyin":
			n.MaxBuyIn, err = chipsArg(val, "largest buy-in", "max=2000")
			maxSet = true
		case "rebuy", "rebuys":
			switch val {
			case "yes", "on", "unlimited":
				n.Rebuys = -1
			case "no", "off", "0":
				n.Rebuys = 0
			default:
				r, perr := strconv.Atoi(val)
				if perr != nil || r < 0 || r > maxRebuys {
					return errs.Errorf(errs.Invalid, "Write rebuy=yes, rebuy=no or the number of rebuys each player may make, from 1 to %d, like rebuy=2.", maxRebuys)
				}
				n.Rebuys = r
			}
		case "rebuylevels":
			r, perr := strconv.Atoi(val)
			if perr != nil || r < 0 || r > maxRebuyLevels {
				return errs.Errorf(errs.Invalid, "Write rebuylevels=N with N from 0 to %d: rebuys are allowed during the first N blind levels (0 for always).", maxRebuyLevels)
			}
			n.RebuyLevels = r
		case "levels":
			n.LevelMinutes, n.LevelHands = 0, 0
			switch {
			case val == "off" || val == "no" || val == "0":
			case strings.HasSuffix(val, "hands"):
				n.LevelHands, err = bounded(strings.TrimSuffix(val, "hands"), 1, maxLevelHands, fmt.Sprintf("Blinds rise every 1 to %d hands", maxLevelHands), "levels=20hands")
			case strings.HasSuffix(val, "m"):
				n.LevelMinutes, err = bounded(strings.TrimSuffix(val, "m"), 1, maxLevelMinutes, fmt.Sprintf("Blinds rise every 1 to %d minutes (a day)", maxLevelMinutes), "levels=10m")
			default:
				return errs.Errorf(errs.Invalid, "Write levels=10m for blinds rising every 10 minutes or levels=20hands for every 20 hands.")
			}
		case "timer":
			if val == "off" || val == "0" {
				n.Timer = 0
				break
			}
			n.Timer, err = bounded(strings.TrimSuffix(val, "s"), 10, 600, "The turn timer must be between 10 and 600 seconds, or timer=off", "timer=60")
		case "straddle", "runtwice":
			on := false
			switch val {
			case "on", "yes":
				on = true
			case "off", "no":
			default:
				return errs.Errorf(errs.Invalid, "Write %s=on or %s=off.", key, key)
			}
			if key == "straddle" {
				n.Straddle = on
			} else {
				n.RunTwice = on
			}
		case "cards":
			switch val {
			case "text":
				n.Cards = render.CardText
			case "emoji":
				n.Cards = render.CardEmoji
			case "images", "pictures":
				n.Cards = render.CardImages
			case "images4", "fourcolour", "fourcolor":
				n.Cards = render.CardImages4
			default:
				return errs.Errorf(errs.Invalid, "Write cards=text, cards=emoji, cards=images (card pictures, Discord) or cards=images4 (four-colour pictures).")
			}
		case "pictures":
			switch val {
			case "on", "yes":
				n.NoPictures = false
			case "off", "no":
				n.NoPictures = true
			default:
				return errs.Errorf(errs.Invalid, "Write pictures=on or pictures=off.")
			}
		case "seats":
			n.Seats, err = bounded(val, 2, engine.MaxPlayers, fmt.Sprintf("A table has 2 to %d seats", engine.MaxPlayers), "seats=6")
		case "end":
			switch {
			case val == "off" || val == "no":
				n.EndMinutes = 0
			case strings.HasSuffix(val, "h"):
				var h int
				h, err = bounded(strings.TrimSuffix(val, "h"), 1, maxEndMinutes/60, fmt.Sprintf("A session ends 1 to %d hours after it starts", maxEndMinutes/60), "end=2h")
				n.EndMinutes = 60 * h
			default:
				n.EndMinutes, err = bounded(strings.TrimSuffix(val, "m"), 1, maxEndMinutes, fmt.Sprintf("A session ends 1 to %d minutes after it starts", maxEndMinutes), "end=90m")
			}
		case "value", "currency", "remind", "settle": // money.go
			err = n.Money.apply(key, val)
		case "missed", "away", "timebank": // away.go
			err = n.applyAway(key, val)
		default:
			return errs.Errorf(errs.Invalid, "I do not know the option %s: `help` lists the options.", errs.Quote(key))
		}
		if err != nil {
			return err
		}
	}
	if err := pair.apply(&n); err != nil {
		return err
	}
	if err := mix.apply(&n); err != nil {
		return err
	}
	tenBlinds := minBuyInBlinds * n.BigBlind // BigBlind <= MaxChips: no wrap
	if buyinSet && !minSet && !maxSet {
		// BuyIn <= MaxChips: no wrap. The smallest buy-in is 40% of the buy-in, and 10 big blinds at least.
		n.MinBuyIn, n.MaxBuyIn = min(max(1, n.BuyIn*2/5, tenBlinds), n.BuyIn), min(n.BuyIn*2, engine.MaxChips)
	} else {
		// A buy-in, smallest or largest the host never chose (still the old blinds' default) follows
		// the blinds; a followed buy-in stays within the smallest and largest the host chose.
		b, lo, hi := defaultBuyIns(s.BigBlind)
		nb, nlo, nhi := defaultBuyIns(n.BigBlind)
		if !minSet && s.MinBuyIn == lo {
			n.MinBuyIn = nlo
		}
		if !maxSet && s.MaxBuyIn == hi {
			n.MaxBuyIn = nhi
		}
		if !buyinSet && s.BuyIn == b && n.MinBuyIn <= n.MaxBuyIn {
			n.BuyIn = min(max(nb, n.MinBuyIn), n.MaxBuyIn)
		}
	}
	if tenBlinds > engine.MaxChips {
		return errs.Errorf(errs.Invalid, "Blinds of %s/%s leave no room for a buy-in of %d big blinds (a stack holds at most %s chips): choose smaller blinds.",
			render.Chips(n.SmallBlind), render.Chips(n.BigBlind), minBuyInBlinds, render.Chips(engine.MaxChips))
	}
	if err := n.Money.check(); err != nil {
		return err
	}
	if n.MinBuyIn > n.MaxBuyIn {
		return errs.Errorf(errs.Invalid, "The smallest buy-in (%s) is above the largest (%s): set min= below max=.", render.Chips(n.MinBuyIn), render.Chips(n.MaxBuyIn))
	}
	if n.BuyIn < n.MinBuyIn || n.BuyIn > n.MaxBuyIn {
		return errs.Errorf(errs.Invalid, "The buy-in must be between min (%s) and max (%s).", render.Chips(n.MinBuyIn), render.Chips(n.MaxBuyIn))
	}
	if n.MinBuyIn < tenBlinds {
		what, v := "smallest buy-in", n.MinBuyIn
		if buyinSet && n.BuyIn < tenBlinds { // name the number the host typed
			what, v = "buy-in", n.BuyIn
		}
		return errs.Errorf(errs.Invalid, "The %s (%s) is less than %d big blinds at blinds %s/%s: make it at least %s.",
			what, render.Chips(v), minBuyInBlinds, render.Chips(n.SmallBlind), render.Chips(n.BigBlind), render.Chips(tenBlinds))
	}
	*s = n
	return nil
}

// blindPair gathers the blinds given apart, sb=5 bb=10 (or small_blind= and big_blind=, as Discord's
// options are named): they count only together, as blinds=5/10 does, and not beside it.
type blindPair struct {
	small, big       int64
	smallKey, bigKey string // as the player wrote them, for the sentences
	together         bool   // blinds= was given
}

// partner names the other blind's key in the spelling of key: sb and bb, small_blind and big_blind.
var partner = map[string]string{"sb": "bb", "bb": "sb", "smallblind": "bigblind", "bigblind": "smallblind",
	"small_blind": "big_blind", "big_blind": "small_blind"}

func (p *blindPair) add(key, val string) error {
	switch key {
	case "sb", "smallblind", "small_blind":
		v, err := chipsArg(val, "small blind", key+"=5 "+partner[key]+"=10")
		p.small, p.smallKey = v, key
		return err
	default:
		v, err := chipsArg(val, "big blind", partner[key]+"=5 "+key+"=10")
		p.big, p.bigKey = v, key
		return err
	}
}

// apply sets the blinds given apart, when they were, into s.
func (p blindPair) apply(s *Settings) error {
	switch {
	case p.smallKey == "" && p.bigKey == "":
		return nil
	case p.together:
		return errs.Errorf(errs.Invalid, "Give the blinds once: blinds=5/10, or sb=5 bb=10, not both.")
	case p.bigKey == "":
		return errs.Errorf(errs.Invalid, "%s names the small blind only: give the big blind too, for example %s=5 %s=10 (or blinds=5/10).",
			errs.Quote(p.smallKey), p.smallKey, partner[p.smallKey])
	case p.smallKey == "":
		return errs.Errorf(errs.Invalid, "%s names the big blind only: give the small blind too, for example %s=5 %s=10 (or blinds=5/10).",
			errs.Quote(p.bigKey), partner[p.bigKey], p.bigKey)
	case p.small > p.big:
		return errs.Errorf(errs.Invalid, "The small blind must not be larger than the big blind: for example %s=10 %s=20.", p.smallKey, p.bigKey)
	}
	s.SmallBlind, s.BigBlind = p.small, p.big
	return nil
}

// chipsArg reads a number of chips from 1 to engine.MaxChips.
func chipsArg(s, what, example string) (int64, error) {
	v, err := strconv.ParseInt(strings.ReplaceAll(s, ",", ""), 10, 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) || err == nil && v <= 0 {
		return 0, errs.Errorf(errs.Invalid, "The %s must be a whole number of chips above 0, not %s.", what, errs.Quote(s))
	}
	if err != nil || v > engine.MaxChips {
		return 0, errs.Errorf(errs.Invalid, "The %s can be at most %s chips, the most any stack may hold: for example %s.", what, render.Chips(engine.MaxChips), example)
	}
	return v, nil
}

// bounded reads a whole number from lo to hi; rule is the sentence that states the range.
func bounded(s string, lo, hi int, rule, example string) (int, error) {
	v, err := strconv.Atoi(s)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return 0, errs.Errorf(errs.Invalid, "%s is not a whole number: for example %s.", errs.Quote(s), example)
	}
	if err != nil || v < lo || v > hi {
		return 0, errs.Errorf(errs.Invalid, "%s: for example %s.", rule, example)
	}
	return v, nil
}
