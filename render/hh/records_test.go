package hh

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/dealerbot/dealerbot/engine"
)

// Issue 28's record items, each by number.

// Item 12: a player who posted a blind (or straddled) and folded is never "(didn't bet)"; a player
// who put nothing in is.
func TestItem12PostersBet(t *testing.T) {
	hands := goldenHands(t)
	h := hands["fold-out"] // bob posts the small blind and folds; alice folds having put nothing in
	text, err := PokerStarsHand(&h)
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(text, "\n") {
		if strings.Contains(line, "(small blind)") && strings.Contains(line, "didn't bet") {
			t.Errorf("the small blind who folded is written as not having bet: %q", line)
		}
		if strings.HasPrefix(line, "Seat 1: alice") && strings.Contains(line, "folded") && !strings.Contains(line, "folded before Flop (didn't bet)") {
			t.Errorf("alice put nothing in: %q", line)
		}
	}
}

// Item 13: a hand run twice has one summary clause per board, and in OHH a run-twice flag and each
// winner once per pot with the halves summed.
func TestItem13RunTwice(t *testing.T) {
	hands := goldenHands(t)
	h := hands["run-twice"]
	text, err := PokerStarsHand(&h)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"Seat 1: alice (button) showed [As Ah] and won (501) with a pair of Aces, and lost with a pair of Aces",
		"Seat 6: carol (big blind) showed [Ks Kh] and lost with a pair of Kings, and won (500) with three of a kind, Kings",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("summary lacks %q:\n%s", want, text)
		}
	}
	o, err := ToOHH(&h)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(strings.Join(o.OHH.Flags, ","), "Run_It_Twice") {
		t.Errorf("OHH flags %v, want Run_It_Twice", o.OHH.Flags)
	}
	for _, pot := range o.OHH.Pots {
		seen := map[int]bool{}
		var sum int64
		for _, w := range pot.PlayerWins {
			if seen[w.PlayerID] {
				t.Errorf("pot %d lists player %d twice: %+v", pot.Number, w.PlayerID, pot.PlayerWins)
			}
			seen[w.PlayerID] = true
			sum += w.WinAmount
		}
		if sum != pot.Amount {
			t.Errorf("pot %d: wins add up to %d of %d", pot.Number, sum, pot.Amount)
		}
	}
	// alice's aces win both boards: she is listed once in the pot, with both halves.
	deck, err := engine.DeckFrom(engine.MustParseCards("2c Ks As 3d Kh Ah 2s 7c 8d 9h 3s Tc 4h 2h 3h Qd 4c 5s 4d 6h 5d Js"))
	if err != nil {
		t.Fatal(err)
	}
	sr := engine.Setup{Rules: engine.Rules{SmallBlind: 1, BigBlind: 2}, Stacks: []int64{500, 100, 500}, RunItTwice: true, Deck: deck}
	eh, err := engine.NewHand(sr)
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range []engine.Action{{Player: 0, Kind: engine.AllIn}, {Player: 1, Kind: engine.Fold}, {Player: 2, Kind: engine.Call},
		{Player: 2, Kind: engine.RunTwice}, {Player: 0, Kind: engine.RunTwice}} {
		if _, err := eh.Apply(a); err != nil {
			t.Fatal(err)
		}
	}
	both := Hand{Table: "t", No: 8, Time: goldenTime, Setup: sr, Actions: eh.Actions(), Names: []string{"alice", "bob", "carol"}, Hero: -1}
	o, err = ToOHH(&both)
	if err != nil {
		t.Fatal(err)
	}
	if len(o.OHH.Pots) != 1 || len(o.OHH.Pots[0].PlayerWins) != 1 || o.OHH.Pots[0].PlayerWins[0].WinAmount != o.OHH.Pots[0].Amount {
		t.Errorf("alice won both boards: pots %+v, want her once with the whole pot", o.OHH.Pots)
	}
}

// Item 14: in OHH a bomb pot's ante is the ante everyone posted.
func TestItem14BombPotAnte(t *testing.T) {
	deck := engine.OrderedDeck()
	s := engine.Setup{Rules: engine.Rules{Variant: engine.NoLimit, SmallBlind: 5, BigBlind: 10}, Stacks: []int64{1000, 1000, 1000}, Deck: deck, BombPot: 40}
	eh, err := engine.NewHand(s)
	if err != nil {
		t.Fatal(err)
	}
	for !eh.Done() {
		if _, err := eh.Apply(engine.Action{Player: eh.ToAct(), Kind: engine.Check}); err != nil {
			t.Fatal(err)
		}
	}
	h := Hand{Table: "t", No: 1, Time: goldenTime, Setup: s, Actions: eh.Actions(), Names: []string{"a", "b", "c"}, Hero: -1}
	o, err := ToOHH(&h)
	if err != nil {
		t.Fatal(err)
	}
	if o.OHH.AnteAmount != 40 {
		t.Errorf("OHH ante_amount %d for a bomb pot of 40 each", o.OHH.AnteAmount)
	}
}

// Item 15: PokerStars writes the hour without a leading zero.
func TestItem15HourWithoutLeadingZero(t *testing.T) {
	hands := goldenHands(t)
	h := hands["fold-out"]
	h.Time = time.Date(2026, 11, 20, 8, 50, 0, 0, time.UTC) // 3:50 ET
	text, err := PokerStarsHand(&h)
	if err != nil {
		t.Fatal(err)
	}
	first := strings.SplitN(text, "\n", 2)[0]
	if !strings.HasSuffix(first, "2026/11/20 3:50:00 ET") {
		t.Errorf("header %q, want the time written 2026/11/20 3:50:00 ET", first)
	}
	h.Time = time.Date(2026, 11, 20, 21, 5, 9, 0, time.UTC) // 16:05:09 ET
	text, _ = PokerStarsHand(&h)
	if first := strings.SplitN(text, "\n", 2)[0]; !strings.HasSuffix(first, "2026/11/20 16:05:09 ET") {
		t.Errorf("header %q, want 16:05:09", first)
	}
}

// Item 11: a tournament hand is written as a tournament hand: in PokerStars text the tournament's
// number, buy-in and level in roman numerals in the header, the table named after the tournament
// (not "Play Money"), tournament chips without a currency and the finishing lines; in OHH
// tournament: true with its tournament_info.
func TestItem11TournamentHands(t *testing.T) {
	h := goldenHands(t)["side-pot-showdown"] // alice, bob and carol all-in
	began := time.Date(2026, 11, 20, 20, 0, 0, 0, time.UTC)
	h.Tournament = &Tournament{Began: began, BuyIn: 100, Stack: 1500, Level: 4, LevelMinutes: 15, Rebuys: true,
		Finishes: []Finish{{Player: 0, Place: 1, Prize: 600}, {Player: 2, Place: 3, Prize: 150}, {Player: 1, Place: 4}}}
	id := TournamentID(h.Table, began)
	if id < 1_000_000_000 || id >= 10_000_000_000 || TournamentID(h.Table, began.Add(time.Second)) == id || TournamentID("other", began) == id {
		t.Errorf("tournament number %d: want ten digits, another for another tournament", id)
	}
	text, err := PokerStarsHand(&h)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(text, "\n")
	header := fmt.Sprintf("PokerStars Hand #%d: Tournament #%d, 100+0 Hold'em No Limit - Level IV (5/10) - 2026/11/20 16:30:00 ET", HandID(h.Table, h.No), id)
	if lines[0] != header {
		t.Errorf("header\n%q, want\n%q", lines[0], header)
	}
	if want := fmt.Sprintf("Table '%d 1' 9-max Seat #1 is the button", id); lines[1] != want {
		t.Errorf("table line %q, want %q", lines[1], want)
	}
	summary := strings.Index(text, "*** SUMMARY ***")
	for _, want := range []string{
		"bob finished the tournament in 4th place\n",
		"carol finished the tournament in 3rd place and received 150.\n",
		"alice wins the tournament and receives 600 - congratulations!\n",
	} {
		if i := strings.Index(text, want); i < 0 || i > summary {
			t.Errorf("no %q before the summary:\n%s", want, text)
		}
	}
	if strings.Contains(text, "Play Money") || strings.Contains(text, "$") {
		t.Errorf("a tournament hand is written with a currency:\n%s", text)
	}
	checkRoundTrip(t, h, text)
	ps, err := parsePokerStars(text)
	if err != nil || ps[0].Tournament != fmt.Sprint(id) || ps[0].Level != "IV" || len(ps[0].Finishes) != 3 {
		t.Errorf("read back as tournament %q level %q finishes %q (%v)", ps[0].Tournament, ps[0].Level, ps[0].Finishes, err)
	}
	for n, want := range map[int]string{1: "I", 2: "II", 9: "IX", 14: "XIV", 40: "XL", 1994: "MCMXCIV"} {
		if got := roman(n); got != want {
			t.Errorf("level %d written %s, want %s", n, got, want)
		}
	}

	o, err := ToOHH(&h)
	if err != nil {
		t.Fatal(err)
	}
	info := o.OHH.TournamentInfo
	if !o.OHH.Tournament || info == nil {
		t.Fatalf("OHH tournament %v, tournament_info %+v", o.OHH.Tournament, info)
	}
	want := OHHTournamentInfo{TournamentNumber: fmt.Sprint(id), Name: fmt.Sprintf("Tournament #%d", id), StartDateUTC: "2026-11-20T20:00:00Z",
		Currency: "Chips", BuyinAmount: 100, InitialStack: 1500, Type: "STT", Flags: []string{"SNG", "Rebuy"}, Speed: OHHSpeed{Type: "Normal", RoundTime: 900}}
	if !reflect.DeepEqual(*info, want) {
		t.Errorf("tournament_info %+v, want %+v", *info, want)
	}
	cash := goldenHands(t)["side-pot-showdown"]
	if o, _ := ToOHH(&cash); o.OHH.Tournament || o.OHH.TournamentInfo != nil {
		t.Errorf("a cash-game hand is written as a tournament hand: %+v", o.OHH)
	}
}
