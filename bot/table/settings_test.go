package table_test

import (
	"strings"
	"testing"
	"time"

	"github.com/dealerbot/dealerbot/bot/table"
	"github.com/dealerbot/dealerbot/engine"
	"github.com/dealerbot/dealerbot/render"
)

func TestSettingsApply(t *testing.T) {
	tests := []struct {
		name  string
		opts  string
		check func(table.Settings) bool
		err   string
	}{
		{"defaults", "", func(s table.Settings) bool { return s == table.DefaultSettings() }, ""},
		{"full line", "variant=pot-limit blinds=10/20 buyin=1000 timer=60 cards=emoji levels=10m",
			func(s table.Settings) bool {
				return s.Variant == engine.PotLimit && s.SmallBlind == 10 && s.BigBlind == 20 && s.Timer == 60 &&
					s.Cards == render.CardEmoji && s.LevelMinutes == 10
			}, ""},
		{"buy-in sets the limits", "buyin=500", func(s table.Settings) bool { return s.MinBuyIn == 200 && s.MaxBuyIn == 1000 }, ""},
		{"levels by hands", "levels=20hands", func(s table.Settings) bool { return s.LevelHands == 20 && s.LevelMinutes == 0 }, ""},
		{"rebuy count", "rebuy=2", func(s table.Settings) bool { return s.Rebuys == 2 }, ""},
		{"no rebuys", "rebuy=no", func(s table.Settings) bool { return s.Rebuys == 0 }, ""},
		{"end in hours", "end=2h", func(s table.Settings) bool { return s.EndMinutes == 120 }, ""},
		{"timer off", "timer=off", func(s table.Settings) bool { return s.Timer == 0 }, ""},
		{"home-game options", "straddle=on runtwice=yes", func(s table.Settings) bool { return s.Straddle && s.RunTwice }, ""},
		{"home-game options off", "straddle=off runtwice=no", func(s table.Settings) bool { return !s.Straddle && !s.RunTwice }, ""},
		{"straddle neither on nor off", "straddle=maybe", nil, "Write straddle=on or straddle=off."},
		{"runtwice a number", "runtwice=5", nil, "Write runtwice=on or runtwice=off."},
		{"no equals", "blinds", nil, "write key=value"},
		{"unknown key", "speed=fast", nil, "I do not know the option \"speed\""},
		{"bad variant", "variant=stud", nil, `"stud" is not a variant`},
		// Games (RULES.md section 12): a short name sets the game and the structure it implies.
		{"plo", "game=plo", func(s table.Settings) bool { return s.Game == engine.Omaha && s.Variant == engine.PotLimit }, ""},
		{"plo5", "game=plo5", func(s table.Settings) bool { return s.Game == engine.Omaha5 && s.Variant == engine.PotLimit }, ""},
		{"plo8", "game=plo8", func(s table.Settings) bool { return s.Game == engine.OmahaHiLo && s.Variant == engine.PotLimit }, ""},
		{"o8", "game=O8", func(s table.Settings) bool { return s.Game == engine.OmahaHiLo && s.Variant == engine.FixedLimit }, ""},
		{"variant takes a game", "variant=plo", func(s table.Settings) bool { return s.Game == engine.Omaha && s.Variant == engine.PotLimit }, ""},
		{"game then structure", "game=plo variant=no-limit", func(s table.Settings) bool { return s.Game == engine.Omaha && s.Variant == engine.NoLimit }, ""},
		{"game= as a structure, as before", "game=pot-limit", func(s table.Settings) bool { return s.Game == engine.Holdem && s.Variant == engine.PotLimit }, ""},
		{"back to hold'em", "game=o8 game=nlh", func(s table.Settings) bool { return s.Game == engine.Holdem && s.Variant == engine.NoLimit }, ""},
		{"bad game", "game=razz", nil, `"razz" is not a variant or a game: choose game=nlh, plo, plo5, plo8 or o8`},
		{"blinds without slash", "blinds=10", nil, "small/big"},
		{"small above big", "blinds=20/10", nil, "must not be larger"},
		{"zero big blind", "blinds=0/0", nil, "above 0"},
		// The blinds given apart (Discord's small_blind and big_blind options) count together, once.
		{"blinds apart", "bb=20 sb=10", func(s table.Settings) bool { return s.SmallBlind == 10 && s.BigBlind == 20 && s.BuyIn == 2000 }, ""},
		{"blinds apart as Discord names them", "small_blind=25 big_blind=50", func(s table.Settings) bool { return s.SmallBlind == 25 && s.BigBlind == 50 }, ""},
		{"the small blind alone", "sb=10", nil, `"sb" names the small blind only: give the big blind too, for example sb=5 bb=10 (or blinds=5/10).`},
		{"the big blind alone, as Discord names it", "big_blind=20", nil, `"big_blind" names the big blind only: give the small blind too, for example small_blind=5 big_blind=10 (or blinds=5/10).`},
		{"the blinds twice", "blinds=5/10 sb=10 bb=20", nil, "Give the blinds once: blinds=5/10, or sb=5 bb=10, not both."},
		{"small above big, apart", "sb=20 bb=10", nil, "The small blind must not be larger than the big blind: for example sb=10 bb=20."},
		{"a blind apart not a number", "sb=ten bb=20", nil, `The small blind must be a whole number of chips above 0, not "ten".`},
		{"negative ante", "ante=-1", nil, "0 or more"},
		{"min above max", "min=2000 max=1000", nil, "is above the largest"},
		{"buy-in outside limits", "buyin=5000 min=400 max=2000", nil, "between min"},
		{"timer too short", "timer=3", nil, "between 10 and 600"},
		{"too many seats", "seats=11", nil, "2 to 10 seats"},
		{"card pictures", "cards=images", func(s table.Settings) bool { return s.Cards == render.CardImages }, ""},
		{"four-colour card pictures", "cards=images4", func(s table.Settings) bool { return s.Cards == render.CardImages4 }, ""},
		{"no showdown pictures", "pictures=off", func(s table.Settings) bool { return s.NoPictures }, ""},
		{"showdown pictures", "pictures=off pictures=on", func(s table.Settings) bool { return !s.NoPictures }, ""},
		{"bad pictures", "pictures=maybe", nil, "Write pictures=on or pictures=off."},
		{"bad cards", "cards=cartoon", nil, "cards=text, cards=emoji, cards=images"},
		{"bad levels", "levels=often", nil, "levels=10m"},
		// Buy-ins follow the blinds: 100 big blinds (40 to 200) unless buyin=, min= or max= say otherwise.
		{"buy-in follows the blinds", "blinds=500/1000",
			func(s table.Settings) bool {
				return s.BuyIn == 100_000 && s.MinBuyIn == 40_000 && s.MaxBuyIn == 200_000
			}, ""},
		{"buy-in follows blinds 10/15", "blinds=10/15",
			func(s table.Settings) bool { return s.BuyIn == 1500 && s.MinBuyIn == 600 && s.MaxBuyIn == 3000 }, ""},
		{"a buy-in named stays", "blinds=50/100 buyin=5000",
			func(s table.Settings) bool { return s.BuyIn == 5000 && s.MinBuyIn == 2000 && s.MaxBuyIn == 10000 }, ""},
		{"a short buy-in's smallest is 10 big blinds", "blinds=50/100 buyin=1500",
			func(s table.Settings) bool { return s.BuyIn == 1500 && s.MinBuyIn == 1000 && s.MaxBuyIn == 3000 }, ""},
		{"huge blinds stay within the chip ceiling", "blinds=10000000000/20000000000",
			func(s table.Settings) bool {
				return s.BuyIn == engine.MaxChips && s.MinBuyIn == 800_000_000_000 && s.MaxBuyIn == engine.MaxChips
			}, ""},
		{"buy-in below 10 big blinds", "blinds=500/1000 buyin=1000", nil,
			"The buy-in (1,000) is less than 10 big blinds at blinds 500/1,000: make it at least 10,000."},
		{"smallest buy-in below 10 big blinds", "min=50", nil,
			"The smallest buy-in (50) is less than 10 big blinds at blinds 5/10: make it at least 100."},
		{"the buy-in follows the blinds within the host's limits", "blinds=400/800 min=8000 max=50000",
			func(s table.Settings) bool { return s.BuyIn == 50000 && s.MinBuyIn == 8000 && s.MaxBuyIn == 50000 }, ""},
		{"the smallest follows the blinds when only the buy-in and largest are named", "blinds=1000/2000 buyin=300000 max=1000000",
			func(s table.Settings) bool { return s.BuyIn == 300000 && s.MinBuyIn == 80000 && s.MaxBuyIn == 1000000 }, ""},
		{"a short smallest with big blinds", "blinds=400/800 min=100 max=5000", nil,
			"The smallest buy-in (100) is less than 10 big blinds at blinds 400/800: make it at least 8,000."},
		{"no room for 10 big blinds", "blinds=1000000000000/1000000000000", nil,
			"Blinds of 1,000,000,000,000/1,000,000,000,000 leave no room for a buy-in of 10 big blinds"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := table.DefaultSettings()
			err := s.Apply(strings.Fields(tt.opts))
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("Apply(%q) error %v, want one containing %q", tt.opts, err, tt.err)
				}
				if s != table.DefaultSettings() {
					t.Fatalf("a refused Apply changed the settings: %+v", s)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !tt.check(s) {
				t.Fatalf("Apply(%q) = %+v", tt.opts, s)
			}
		})
	}
}

// Changing the blinds with `set` moves the buy-ins along when they were the old blinds' defaults,
// and keeps buy-ins the host chose.
func TestBuyInsFollowSetBlinds(t *testing.T) {
	s := table.DefaultSettings()
	if err := s.Apply([]string{"blinds=25/50"}); err != nil {
		t.Fatal(err)
	}
	if s.BuyIn != 5000 || s.MinBuyIn != 2000 || s.MaxBuyIn != 10000 {
		t.Fatalf("after blinds=25/50 the buy-ins are %d (%d to %d), want 5,000 (2,000 to 10,000)", s.BuyIn, s.MinBuyIn, s.MaxBuyIn)
	}
	if err := s.Apply([]string{"buyin=4000"}); err != nil {
		t.Fatal(err)
	}
	if err := s.Apply([]string{"blinds=50/100"}); err != nil {
		t.Fatal(err)
	}
	if s.BuyIn != 4000 || s.MinBuyIn != 1600 || s.MaxBuyIn != 8000 {
		t.Fatalf("a buy-in the host chose moved with the blinds: %d (%d to %d)", s.BuyIn, s.MinBuyIn, s.MaxBuyIn)
	}
	before := s
	err := s.Apply([]string{"blinds=500/1000"})
	if err == nil || err.Error() != "The smallest buy-in (1,600) is less than 10 big blinds at blinds 500/1,000: make it at least 10,000." {
		t.Fatalf("blinds that make the chosen buy-ins short: %v", err)
	}
	if s != before {
		t.Fatal("the refused blinds changed the settings")
	}
}

// TestBlindsChangeOnlyBetweenHands: blinds set during a hand leave the running hand's stakes alone
// and take effect at the next deal.
func TestBlindsChangeOnlyBetweenHands(t *testing.T) {
	g := newGame(t, "blinds=5/10")
	g.do(table.State.Join, alice)
	g.do(table.State.Join, bob)
	g.deal()
	g.do(table.State.Set, host, "blinds=10/20")
	if g.s.Rec.Hand.Rules.BigBlind != 10 || g.s.Hand.Setup().Rules.BigBlind != 10 {
		t.Fatal("new blinds applied inside the running hand")
	}
	for g.s.Hand != nil {
		g.do(table.Betting(engine.Fold).Act, g.toAct())
	}
	g.deal()
	if got, hand := g.s.Rec.Hand.Rules.BigBlind, g.s.Hand.Setup().Rules.BigBlind; got != 20 || hand != 20 {
		t.Fatalf("next hand's big blind %d (the engine's hand: %d), want 20", got, hand)
	}
}

func TestBlindLevels(t *testing.T) {
	s := table.DefaultSettings()
	prev := int64(0)
	for level := 0; level < 20; level++ {
		r := s.Rules(level)
		if r.BigBlind <= prev || r.Validate() != nil {
			t.Fatalf("level %d: %+v does not rise from %d", level, r, prev)
		}
		prev = r.BigBlind
	}
}

// FuzzSettings: any option line either applies to valid settings or is refused, changing nothing.
func FuzzSettings(f *testing.F) {
	f.Add("variant=pot-limit blinds=10/20 buyin=1000 timer=60 cards=emoji levels=10m", int64(0), int64(0))
	f.Add("blinds=5/5 ante=1 min=1 max=1 buyin=1 rebuy=3 end=1h seats=2", int64(3600e9), int64(7))
	// The extremes of the hardening issue: each must be refused or stay within the chip ceiling.
	f.Add("levels=9007199254740992m", int64(1<<62), int64(1<<62))
	f.Add("blinds=4611686018427387904/4611686018427387904 levels=1hands", int64(0), int64(1<<40))
	f.Add("max=9223372036854775807 buyin=1000000000000 end=9223372036854775807h", int64(-1), int64(-1))
	f.Add("blinds=1000000000000/1000000000000 ante=1000000000000 levels=1m", int64(1<<63-1), int64(1<<63-1))
	f.Fuzz(func(t *testing.T, line string, elapsed, hands int64) {
		s := table.DefaultSettings()
		if err := s.Apply(strings.Fields(line)); err != nil {
			if s != table.DefaultSettings() {
				t.Fatalf("refused %q but changed the settings", line)
			}
			if len(err.Error()) > 300 {
				t.Fatalf("refusal of %d characters for %q", len(err.Error()), line)
			}
			return
		}
		if err := s.Validate(); err != nil {
			t.Fatalf("%q was accepted but does not validate: %v", line, err)
		}
		if s.MinBuyIn > s.BuyIn || s.BuyIn > s.MaxBuyIn || s.Seats < 2 || s.Seats > engine.MaxPlayers {
			t.Fatalf("%q gave inconsistent settings %+v", line, s)
		}
		level := s.Level(time.Duration(elapsed), hands)
		for _, lv := range []int{0, level, level + 1, 1 << 30} {
			r := s.Rules(lv)
			if err := r.Validate(); err != nil {
				t.Fatalf("%q at level %d: unplayable rules: %v", line, lv, err)
			}
		}
	})
}

// One of a thing is written in the singular: "1 hand", not "1 hands".
func TestDescribeOneOfEach(t *testing.T) {
	for _, tc := range []struct {
		opts string
		want []string
	}{
		{"levels=1hands rebuy=1 rebuylevels=1 end=1m", []string{"blinds rise every 1 hand,", "up to 1 rebuy in the first 1 level,", "ends after 1 minute,"}},
		{"levels=1m", []string{"blinds rise every 1 minute,"}},
		{"levels=2hands rebuy=2 rebuylevels=2 end=2m", []string{"blinds rise every 2 hands,", "up to 2 rebuys in the first 2 levels,", "ends after 2 minutes,"}},
	} {
		s := table.DefaultSettings()
		if err := s.Apply(strings.Fields(tc.opts)); err != nil {
			t.Fatal(err)
		}
		got := s.Describe()
		for _, w := range tc.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: %q lacks %q", tc.opts, got, w)
			}
		}
		set, tr, err := table.ParseTournament(table.DefaultSettings(), strings.Fields(tc.opts))
		if err != nil {
			t.Fatal(err)
		}
		desc := tr.Describe(set)
		for _, bad := range []string{" 1 hands", " 1 minutes", " 1 rebuys", " 1 levels"} {
			if strings.Contains(desc, bad) {
				t.Errorf("tournament %s: %q says %q", tc.opts, desc, bad)
			}
		}
	}
}
