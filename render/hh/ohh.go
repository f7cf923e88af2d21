package hh

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"

	"github.com/dealerbot/dealerbot/engine"
)

// OHH is one hand in Open Hand History form: {"ohh": {...}}, written one object per line.
type OHH struct {
	OHH OHHHand `json:"ohh"`
}

// OHHHand follows the Open Hand History specification (spec_version 1.4.6). Amounts are whole chips;
// an action's amount is the chips that action puts in (a raise's too), and uncalled bets are left for
// the reader to work out from the actions, as the specification has no action for them.
type OHHHand struct {
	SpecVersion      string             `json:"spec_version"`
	InternalVersion  string             `json:"internal_version"`
	NetworkName      string             `json:"network_name"`
	SiteName         string             `json:"site_name"`
	GameType         string             `json:"game_type"`
	TableName        string             `json:"table_name"`
	TableHandle      string             `json:"table_handle"`
	TableSize        int                `json:"table_size"`
	GameNumber       string             `json:"game_number"`
	StartDateUTC     string             `json:"start_date_utc"`
	Currency         string             `json:"currency"`
	AnteAmount       int64              `json:"ante_amount"`
	SmallBlindAmount int64              `json:"small_blind_amount"`
	BigBlindAmount   int64              `json:"big_blind_amount"`
	BetLimit         OHHBetLimit        `json:"bet_limit"`
	Tournament       bool               `json:"tournament"`
	TournamentInfo   *OHHTournamentInfo `json:"tournament_info,omitempty"`
	Flags            []string           `json:"flags,omitempty"`
	DealerSeat       int                `json:"dealer_seat"`
	HeroPlayerID     *int               `json:"hero_player_id,omitempty"`
	Players          []OHHPlayer        `json:"players"`
	Rounds           []OHHRound         `json:"rounds"`
	Pots             []OHHPot           `json:"pots"`
}

// OHHTournamentInfo is a tournament hand's tournament_info: the tournament, a single-table sit and
// go played in chips, with its starting stack, how fast the blinds rise, and whether it has rebuys.
type OHHTournamentInfo struct {
	TournamentNumber string   `json:"tournament_number"`
	Name             string   `json:"name"`
	StartDateUTC     string   `json:"start_date_utc"`
	Currency         string   `json:"currency"`
	BuyinAmount      int64    `json:"buyin_amount"`
	FeeAmount        int64    `json:"fee_amount"`
	BountyFeeAmount  int64    `json:"bounty_fee_amount"`
	InitialStack     int64    `json:"initial_stack"`
	Type             string   `json:"type"`
	Flags            []string `json:"flags"`
	Speed            OHHSpeed `json:"speed"`
}

// OHHSpeed is how fast a tournament's blinds rise: round_time is the seconds a level lasts (0 when
// levels go by hands).
type OHHSpeed struct {
	Type      string `json:"type"`
	RoundTime int    `json:"round_time"`
}

// OHHBetLimit is the betting structure: NL, PL or FL.
type OHHBetLimit struct {
	BetType string `json:"bet_type"`
	BetCap  int64  `json:"bet_cap"`
}

// OHHPlayer is one player dealt into the hand.
type OHHPlayer struct {
	ID            int    `json:"id"`
	Seat          int    `json:"seat"`
	Name          string `json:"name"`
	Display       string `json:"display"`
	StartingStack int64  `json:"starting_stack"`
}

// OHHRound is one street.
type OHHRound struct {
	ID      int         `json:"id"`
	Street  string      `json:"street"`
	Cards   []string    `json:"cards,omitempty"`
	Actions []OHHAction `json:"actions"`
}

// OHHAction is one action of a round.
type OHHAction struct {
	ActionNumber int      `json:"action_number"`
	PlayerID     int      `json:"player_id"`
	Action       string   `json:"action"`
	Amount       int64    `json:"amount,omitempty"`
	IsAllIn      bool     `json:"is_allin,omitempty"`
	Cards        []string `json:"cards,omitempty"`
}

// OHHPot is one pot and who won what of it.
type OHHPot struct {
	Number     int            `json:"number"`
	Amount     int64          `json:"amount"`
	Rake       int64          `json:"rake"`
	PlayerWins []OHHPlayerWin `json:"player_wins"`
}

// OHHPlayerWin is a player's share of a pot.
type OHHPlayerWin struct {
	PlayerID        int   `json:"player_id"`
	WinAmount       int64 `json:"win_amount"`
	ContributedRake int64 `json:"contributed_rake"`
}

// WriteOHH writes each hand as one JSON object per line.
func WriteOHH(w io.Writer, hands []Hand) error {
	enc := json.NewEncoder(w)
	for i := range hands {
		o, err := ToOHH(&hands[i])
		if err != nil {
			return err
		}
		if err := enc.Encode(o); err != nil {
			return err
		}
	}
	return nil
}

func cardList(cs []engine.Card) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.String()
	}
	return out
}

// ToOHH converts one hand.
func ToOHH(h *Hand) (OHH, error) {
	eh, err := h.replay()
	if err != nil {
		return OHH{}, err
	}
	r := h.Setup.Rules
	n := len(h.Setup.Stacks)
	o := OHHHand{SpecVersion: "1.4.6", InternalVersion: "dealerbot 1", NetworkName: "dealerbot", SiteName: "dealerbot",
		GameType: ohhGame[r.Game], TableName: tableName(h), TableHandle: h.Table, TableSize: h.maxSeats(),
		GameNumber: fmt.Sprint(HandID(h.Table, h.No)), StartDateUTC: h.Time.UTC().Format("2006-01-02T15:04:05Z"),
		Currency: "Chips", AnteAmount: max(r.Ante, h.Setup.BombPot), SmallBlindAmount: r.SmallBlind, BigBlindAmount: r.BigBlind,
		BetLimit:   OHHBetLimit{BetType: map[engine.Variant]string{engine.NoLimit: "NL", engine.PotLimit: "PL", engine.FixedLimit: "FL"}[r.Variant]},
		DealerSeat: h.seat(h.Setup.Button)}
	if h.Hero >= 0 && h.Hero < n {
		hero := h.Hero
		o.HeroPlayerID = &hero
	}
	if h.Setup.BombPot > 0 {
		o.Flags = append(o.Flags, "Bomb_Pot") // everyone posted the bomb pot's ante (ante_amount)
	}
	if t := h.Tournament; t != nil {
		id := fmt.Sprint(TournamentID(h.Table, t.Began))
		info := &OHHTournamentInfo{TournamentNumber: id, Name: "Tournament #" + id, StartDateUTC: t.Began.UTC().Format("2006-01-02T15:04:05Z"),
			Currency: "Chips", BuyinAmount: t.BuyIn, InitialStack: t.Stack, Type: "STT", Flags: []string{"SNG"},
			Speed: OHHSpeed{Type: "Normal", RoundTime: 60 * t.LevelMinutes}}
		if t.Rebuys {
			info.Flags = append(info.Flags, "Rebuy")
		}
		o.Tournament, o.TournamentInfo = true, info
	}
	for _, p := range seatOrder(h, n) {
		o.Players = append(o.Players, OHHPlayer{ID: p, Seat: h.seat(p), Name: h.name(p), Display: h.name(p), StartingStack: h.Setup.Stacks[p]})
	}
	// Every round lists its actions, [] when there are none (a street dealt with everyone all-in):
	// readers expect an array, never null.
	round := &OHHRound{ID: 0, Street: "Preflop", Actions: []OHHAction{}}
	secondHalves := 0 // second-board awards so far
	num := 0
	add := func(a OHHAction) {
		a.ActionNumber = num
		num++
		round.Actions = append(round.Actions, a)
	}
	flush := func() {
		o.Rounds = append(o.Rounds, *round)
	}
	for _, ev := range eh.Events() {
		p := ev.Player
		switch ev.Kind {
		case engine.EvAnte:
			add(OHHAction{PlayerID: p, Action: "Post Ante", Amount: ev.Amount, IsAllIn: ev.AllIn})
		case engine.EvSmallBlind:
			add(OHHAction{PlayerID: p, Action: "Post SB", Amount: ev.Amount, IsAllIn: ev.AllIn})
		case engine.EvBigBlind:
			add(OHHAction{PlayerID: p, Action: "Post BB", Amount: ev.Amount, IsAllIn: ev.AllIn})
		case engine.EvStraddle:
			add(OHHAction{PlayerID: p, Action: "Straddle", Amount: ev.Amount})
		case engine.EvPost: // missed blinds: the big blind live, the small blind dead
			add(OHHAction{PlayerID: p, Action: "Post BB", Amount: ev.Amount, IsAllIn: ev.AllIn})
		case engine.EvDead:
			add(OHHAction{PlayerID: p, Action: "Post Dead", Amount: ev.Amount, IsAllIn: ev.AllIn})
		case engine.EvHoleCards:
			if p == h.Hero {
				add(OHHAction{PlayerID: p, Action: "Dealt Cards", Cards: cardList(eh.HoleCards(p))})
			}
		case engine.EvFold:
			add(OHHAction{PlayerID: p, Action: "Fold"})
		case engine.EvCheck:
			add(OHHAction{PlayerID: p, Action: "Check"})
		case engine.EvCall:
			add(OHHAction{PlayerID: p, Action: "Call", Amount: ev.Amount, IsAllIn: ev.AllIn})
		case engine.EvBet:
			add(OHHAction{PlayerID: p, Action: "Bet", Amount: ev.Amount, IsAllIn: ev.AllIn})
		case engine.EvRaise:
			add(OHHAction{PlayerID: p, Action: "Raise", Amount: ev.Amount, IsAllIn: ev.AllIn})
		case engine.EvBoard:
			flush()
			round = &OHHRound{ID: len(o.Rounds), Street: streetName(ev.Street), Cards: cardList(ev.Cards), Actions: []OHHAction{}}
		case engine.EvShow, engine.EvMuck:
			if round.Street != "Showdown" {
				flush()
				round = &OHHRound{ID: len(o.Rounds), Street: "Showdown", Actions: []OHHAction{}}
			}
			if ev.Kind == engine.EvShow {
				add(OHHAction{PlayerID: p, Action: "Shows Cards", Cards: cardList(ev.Cards)})
			} else {
				add(OHHAction{PlayerID: p, Action: "Mucks Cards"})
			}
		case engine.EvAward:
			// Awards come main pot first; a hand run twice awards each pot again for the second board,
			// in the same order: that half and its winners join the pot of the first.
			pot := ev.Pots[0]
			if ev.Run != 2 {
				o.Pots = append(o.Pots, OHHPot{Number: len(o.Pots)})
			}
			op := &o.Pots[len(o.Pots)-1]
			if ev.Run == 2 {
				op = &o.Pots[secondHalves]
				secondHalves++
			}
			op.Amount += pot.Amount
			if ev.Run == 2 && !slices.Contains(o.Flags, "Run_It_Twice") {
				o.Flags = append(o.Flags, "Run_It_Twice")
			}
			for i, wnr := range pot.Winners {
				// A player who wins a pot on both boards is listed once, with the halves summed.
				if j := slices.IndexFunc(op.PlayerWins, func(w OHHPlayerWin) bool { return w.PlayerID == wnr }); j >= 0 {
					op.PlayerWins[j].WinAmount += pot.Shares[i]
					continue
				}
				op.PlayerWins = append(op.PlayerWins, OHHPlayerWin{PlayerID: wnr, WinAmount: pot.Shares[i]})
			}
		}
	}
	flush()
	return OHH{OHH: o}, nil
}

// ohhGame is the OHH game_type of each game (the spec's "Holdem", "Omaha", "OmahaHiLo"; five-card
// Omaha is Omaha with five cards dealt).
var ohhGame = map[engine.Game]string{engine.Holdem: "Holdem", engine.Omaha: "Omaha", engine.Omaha5: "Omaha", engine.OmahaHiLo: "OmahaHiLo"}
