package bot

import (
	"fmt"
	"strconv"
	"strings"
	"time"

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
	Cards        render.CardStyle
	Seats        int
	EndMinutes   int // the session ends this many minutes after the start; 0 means no set end
}

// DefaultSettings is what a bare `start` opens: no-limit 5/10, buy-in 1,000 (400 to 2,000), rebuys
// allowed, no rising blinds, a 60-second turn timer, text cards, nine seats.
func DefaultSettings() Settings {
	return Settings{
		Variant: engine.NoLimit, SmallBlind: 5, BigBlind: 10,
		BuyIn: 1000, MinBuyIn: 400, MaxBuyIn: 2000,
		Rebuys: -1, Timer: 60, Cards: render.TextCards, Seats: 9,
	}
}

// levelFactor is how many times the starting blinds a level's blinds are.
func levelFactor(level int) int64 {
	steps := []int64{1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64}
	if level < len(steps) {
		return steps[level]
	}
	return steps[len(steps)-1] << (level - len(steps) + 1)
}

// Rules returns the engine rules at a blind level.
func (s Settings) Rules(level int) engine.Rules {
	f := levelFactor(level)
	return engine.Rules{Variant: s.Variant, SmallBlind: s.SmallBlind * f, BigBlind: s.BigBlind * f, Ante: s.Ante * f}
}

// Level returns the blind level after elapsed time and hands dealt.
func (s Settings) Level(elapsed time.Duration, hands int64) int {
	level := 0
	if s.LevelMinutes > 0 {
		level = max(level, int(elapsed/(time.Duration(s.LevelMinutes)*time.Minute)))
	}
	if s.LevelHands > 0 {
		level = max(level, int(hands/int64(s.LevelHands)))
	}
	return level
}

// Describe is the one-line summary of the settings.
func (s Settings) Describe() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s/%s", s.Variant, render.Chips(s.SmallBlind), render.Chips(s.BigBlind))
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
		fmt.Fprintf(&b, ", up to %d rebuys", s.Rebuys)
	}
	if s.RebuyLevels > 0 {
		fmt.Fprintf(&b, " in the first %d levels", s.RebuyLevels)
	}
	if s.LevelMinutes > 0 {
		fmt.Fprintf(&b, ", blinds rise every %d minutes", s.LevelMinutes)
	}
	if s.LevelHands > 0 {
		fmt.Fprintf(&b, ", blinds rise every %d hands", s.LevelHands)
	}
	if s.Timer > 0 {
		fmt.Fprintf(&b, ", %d s to act", s.Timer)
	} else {
		b.WriteString(", no turn timer")
	}
	if s.EndMinutes > 0 {
		fmt.Fprintf(&b, ", ends after %d minutes", s.EndMinutes)
	}
	fmt.Fprintf(&b, ", %d seats", s.Seats)
	return b.String()
}

// settingsHelp lists the options `start` and `set` take.
const settingsHelp = "variant=no-limit|pot-limit|fixed-limit blinds=5/10 ante=1 buyin=1000 min=400 max=2000 " +
	"rebuy=yes|no|N rebuylevels=N levels=10m|20hands timer=60|off cards=text|emoji seats=2-10 end=90m|2h"

// Apply reads key=value options into s. On error s is unchanged and the error is a sentence for players.
func (s *Settings) Apply(opts []string) error {
	n := *s
	buyinSet, minSet, maxSet := false, false, false
	for _, o := range opts {
		key, val, ok := strings.Cut(o, "=")
		if !ok || val == "" {
			return userErrorf("`%s` is not an option: write key=value, for example blinds=10/20. Options: %s", o, settingsHelp)
		}
		key = strings.ToLower(key)
		val = strings.ToLower(val)
		var err error
		switch key {
		case "variant", "game":
			n.Variant, err = engine.ParseVariant(val)
			if err != nil {
				return userErrorf("%s is not a variant: choose variant=no-limit, pot-limit or fixed-limit.", val)
			}
		case "blinds":
			sb, bb, ok := strings.Cut(val, "/")
			if !ok {
				return userErrorf("Write the blinds as small/big, for example blinds=10/20.")
			}
			if n.SmallBlind, err = positive(sb, "small blind"); err != nil {
				return err
			}
			if n.BigBlind, err = positive(bb, "big blind"); err != nil {
				return err
			}
			if n.SmallBlind > n.BigBlind {
				return userErrorf("The small blind must not be larger than the big blind: for example blinds=10/20.")
			}
		case "ante":
			if n.Ante, err = strconv.ParseInt(val, 10, 64); err != nil || n.Ante < 0 {
				return userErrorf("The ante must be a whole number of chips, 0 or more: for example ante=2.")
			}
		case "buyin", "buy-in":
			n.BuyIn, err = positive(val, "buy-in")
			buyinSet = true
		case "min", "minbuyin":
			n.MinBuyIn, err = positive(val, "smallest buy-in")
			minSet = true
		case "max", "maxbuyin":
			n.MaxBuyIn, err = positive(val, "largest buy-in")
			maxSet = true
		case "rebuy", "rebuys":
			switch val {
			case "yes", "on", "unlimited":
				n.Rebuys = -1
			case "no", "off", "0":
				n.Rebuys = 0
			default:
				r, perr := strconv.Atoi(val)
				if perr != nil || r < 0 {
					return userErrorf("Write rebuy=yes, rebuy=no or the number of rebuys each player may make, like rebuy=2.")
				}
				n.Rebuys = r
			}
		case "rebuylevels":
			r, perr := strconv.Atoi(val)
			if perr != nil || r < 0 {
				return userErrorf("Write rebuylevels=N: rebuys are allowed during the first N blind levels (0 for always).")
			}
			n.RebuyLevels = r
		case "levels":
			n.LevelMinutes, n.LevelHands = 0, 0
			switch {
			case val == "off" || val == "no" || val == "0":
			case strings.HasSuffix(val, "hands"):
				n.LevelHands, err = count(strings.TrimSuffix(val, "hands"), "levels=20hands")
			case strings.HasSuffix(val, "m"):
				n.LevelMinutes, err = count(strings.TrimSuffix(val, "m"), "levels=10m")
			default:
				return userErrorf("Write levels=10m for blinds rising every 10 minutes or levels=20hands for every 20 hands.")
			}
		case "timer":
			if val == "off" || val == "0" {
				n.Timer = 0
				break
			}
			n.Timer, err = count(strings.TrimSuffix(val, "s"), "timer=60")
			if err == nil && (n.Timer < 10 || n.Timer > 600) {
				return userErrorf("The turn timer must be between 10 and 600 seconds, or timer=off.")
			}
		case "cards":
			switch val {
			case "text":
				n.Cards = render.TextCards
			case "emoji":
				n.Cards = render.EmojiCards
			default:
				return userErrorf("Write cards=text or cards=emoji.")
			}
		case "seats":
			n.Seats, err = count(val, "seats=6")
			if err == nil && (n.Seats < 2 || n.Seats > engine.MaxPlayers) {
				return userErrorf("A table has 2 to %d seats: for example seats=6.", engine.MaxPlayers)
			}
		case "end":
			switch {
			case val == "off" || val == "no":
				n.EndMinutes = 0
			case strings.HasSuffix(val, "h"):
				var h int
				h, err = count(strings.TrimSuffix(val, "h"), "end=2h")
				n.EndMinutes = 60 * h
			default:
				n.EndMinutes, err = count(strings.TrimSuffix(val, "m"), "end=90m")
			}
		default:
			return userErrorf("I do not know the option `%s`. Options: %s", key, settingsHelp)
		}
		if err != nil {
			return err
		}
	}
	if buyinSet && !minSet && !maxSet {
		n.MinBuyIn, n.MaxBuyIn = max(1, n.BuyIn*2/5), n.BuyIn*2
	}
	if n.MinBuyIn > n.MaxBuyIn {
		return userErrorf("The smallest buy-in (%s) is above the largest (%s): set min= below max=.", render.Chips(n.MinBuyIn), render.Chips(n.MaxBuyIn))
	}
	if n.BuyIn < n.MinBuyIn || n.BuyIn > n.MaxBuyIn {
		return userErrorf("The buy-in must be between min (%s) and max (%s).", render.Chips(n.MinBuyIn), render.Chips(n.MaxBuyIn))
	}
	*s = n
	return nil
}

func positive(s, what string) (int64, error) {
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil || v <= 0 {
		return 0, userErrorf("The %s must be a whole number of chips above 0, not %q.", what, s)
	}
	return v, nil
}

func count(s, example string) (int, error) {
	v, err := strconv.Atoi(s)
	if err != nil || v <= 0 {
		return 0, userErrorf("%q is not a whole number above 0: for example %s.", s, example)
	}
	return v, nil
}
