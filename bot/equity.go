package bot

import (
	"github.com/dealerbot/dealerbot/engine"
	"github.com/dealerbot/dealerbot/render"
)

// equityMessage tells the channel each turned-up hand's exact chance to win (engine.Equity deals
// every remaining board), before the rest of the board is dealt.
func equityMessage(ev engine.Event, names render.Names, style render.CardStyle) (render.Message, bool) {
	if len(ev.Hands) < 2 {
		return render.Message{}, false
	}
	hands := make([][2]engine.Card, len(ev.Hands))
	for i, h := range ev.Hands {
		hands[i] = h.Cards
	}
	res, err := engine.Equity(hands, ev.Board)
	if err != nil {
		return render.Message{}, false
	}
	return render.Equity(render.EquityView{Names: names, Hands: ev.Hands, Board: ev.Board, Results: res}, style), true
}
