package table

import (
	"fmt"
	"time"

	"github.com/dealerbot/dealerbot/engine"
	"github.com/dealerbot/dealerbot/render"
)

// The table as the `table` command shows it, and the notes the hand's table message carries.

// Table shows the caller the table privately (`table`).
func (s State) Table(now time.Time, _ Caller, _ []string, in Inputs) (Step, error) {
	return Step{Reply: render.Table(s.View(now), in.Style).Text}, nil
}

// View is the table as render.Table shows it.
func (s State) View(now time.Time) render.TableView {
	r := s.Rec.Settings.Rules(s.Rec.Level)
	v := render.TableView{Title: "Table", Variant: r.Variant, SmallBlind: r.SmallBlind, BigBlind: r.BigBlind, Ante: r.Ante,
		Notes: s.Notes(), Tournament: TournamentView(s.Rec, now)}
	if s.Rec.Tournament != nil {
		v.Title = "Tournament table"
	}
	var bets, stacks []int64
	if s.Hand != nil {
		v.HandNo = s.Rec.Hand.No
		v.Board = s.Hand.Board()
		v.Pots = s.Hand.CollectedPots()
		v.PotNames = s.Names()
		v.Board2 = s.Hand.Board2()
		bets, stacks = s.Hand.Bets(), s.Hand.Stacks()
	}
	for i, st := range s.Rec.Seats {
		if st.User == "" {
			continue
		}
		sv := render.SeatView{Seat: i, Name: st.Name, Stack: st.Stack, SittingOut: st.SittingOut, Button: i == s.Rec.Button}
		if p := s.PlayerOf(i); p >= 0 && s.Hand != nil {
			sv.Stack, sv.Bet = stacks[p], bets[p]
			sv.Folded, sv.AllIn, sv.ToAct = s.Hand.Folded(p), s.Hand.IsAllIn(p), s.Hand.ToAct() == p
		}
		v.Seats = append(v.Seats, sv)
	}
	return v
}

// Notes are the table view's lines about this hand's or the next hand's home-game options.
func (s State) Notes() []string {
	var out []string
	if hs := s.Rec.Hand; hs != nil && s.Hand != nil {
		out = HandNotes(hs, s.Names())
	}
	return append(out, s.nextNotes()...)
}

// HandNotes are the lines about hand hs's home-game options (a bomb pot, a straddle), its players
// named names. The hand's table message shows them from its deal to its end, once.
func HandNotes(hs *HandState, names render.Names) []string {
	switch {
	case hs.BombPot > 0:
		return []string{fmt.Sprintf("Bomb pot: %s from everyone, no blinds.", render.Chips(hs.BombPot))}
	case hs.Straddle:
		p := engine.UnderTheGun(len(hs.Seats), hs.Button)
		return []string{fmt.Sprintf("Straddle: %s %s.", names.Name(p), render.Chips(hs.Rules.StraddleAmount()))}
	}
	return nil
}

// nextNotes are the lines about the next hand's home-game options.
func (s State) nextNotes() []string {
	var out []string
	if s.Rec.BombPot > 0 {
		out = append(out, fmt.Sprintf("Next hand: a bomb pot of %s each.", render.Chips(s.Rec.BombPot)))
	}
	for _, st := range s.Rec.Seats {
		if st.User != "" && st.Straddle {
			out = append(out, fmt.Sprintf("Next hand: %s straddles.", st.Name))
		}
	}
	return out
}
