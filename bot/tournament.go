package bot

import (
	"fmt"

	"github.com/dealerbot/dealerbot/engine"
	"github.com/dealerbot/dealerbot/render"
)

// notes are the table view's lines about this hand's or the next hand's home-game options.
func (t *actor) notes() []string {
	var out []string
	if hs := t.st.Rec.Hand; hs != nil && t.st.Hand != nil {
		switch {
		case hs.BombPot > 0:
			out = append(out, fmt.Sprintf("Bomb pot: %s from everyone, no blinds.", render.Chips(hs.BombPot)))
		case hs.Straddle:
			p := engine.UnderTheGun(len(hs.Seats), hs.Button)
			out = append(out, fmt.Sprintf("Straddle: %s %s.", t.st.Names().Name(p), render.Chips(hs.Rules.StraddleAmount())))
		}
	}
	if t.st.Rec.BombPot > 0 {
		out = append(out, fmt.Sprintf("Next hand: a bomb pot of %s each.", render.Chips(t.st.Rec.BombPot)))
	}
	for _, s := range t.st.Rec.Seats {
		if s.User != "" && s.Straddle {
			out = append(out, fmt.Sprintf("Next hand: %s straddles.", s.Name))
		}
	}
	return out
}
