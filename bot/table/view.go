package table

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/dealerbot/dealerbot/engine"
	"github.com/dealerbot/dealerbot/render"
)

// What the table shows: the table as the `table` command shows it, and the hand's table message (its
// notes, its lines, its view and the token its buttons carry).

// Table shows the caller the table privately (`table`).
func (s State) Table(now time.Time, _ Caller, _ []string, in Inputs) (Step, error) {
	return Step{Reply: render.Table(s.View(now), in.Style).Text}, nil
}

// View is the table as render.Table shows it.
func (s State) View(now time.Time) render.TableView {
	r := s.Rec.Settings.Rules(s.Rec.Level)
	v := render.TableView{Title: "Table", Variant: r.Variant, Game: r.Game, Mixed: s.Rec.Settings.MixLine(), SmallBlind: r.SmallBlind, BigBlind: r.BigBlind, Ante: r.Ante,
		Notes: s.Notes(), Tournament: TournamentView(s.Rec, now)}
	if s.Rec.Tournament != nil {
		v.Title = "Tournament table"
	}
	var pub engine.Public
	if s.Hand != nil {
		pub = s.Hand.Public()
		v.HandNo, v.Board, v.Board2, v.Pots, v.PotNames = s.Rec.Hand.No, pub.Board, pub.Board2, pub.Pots, s.Names()
	}
	for i, st := range s.Rec.Seats {
		if st.User == "" {
			continue
		}
		sv := render.SeatView{Seat: i, Name: st.Name, Stack: st.Stack, SittingOut: st.SittingOut, Button: i == s.Rec.Button,
			Waiting: st.Owes != 0 && !st.Posts && !s.InHand(i)}
		if p := s.PlayerOf(i); p >= 0 && s.Hand != nil {
			sv.Stack, sv.Bet = pub.Stacks[p], pub.Bets[p]
			sv.Folded, sv.AllIn, sv.ToAct = pub.Folded[p], pub.AllIn[p], pub.ToAct == p
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

// --- the hand's table message: its lines, its view, its buttons' token ------------------------------

// Lines are what a hand's table message says besides the table itself: the hand's action lines,
// its result, the deal's notes and the deck commitment, and what the showdown picture shows. The
// shell keeps a hand's Lines while its message is on screen; each step's View adds to them (Add),
// and HandView draws the message from them and the state.
type Lines struct {
	No         int64
	Log        []string // the hand's action lines, oldest first
	Result     []string // from the reveal or showdown on
	Commitment string
	Notes      []string // what the deal said: the button draw, a level change, a bomb pot...
	Showdown   bool
	// What the showdown picture shows: the hands turned up, in the order shown, with what each makes
	// and won at the showdown, and the awards as narrated.
	Shown  []ShownHand
	Awards []string

	narr *render.Narrator
}

// ShownHand is a hand turned up: by hand index, as the picture shows it (Name is filled in when the
// picture is made).
type ShownHand struct {
	Player int
	render.Shown
}

// NewLines starts the lines of hand hs, whose deal said notes.
func NewLines(hs *HandState, notes []string) *Lines {
	return &Lines{No: hs.No, Commitment: render.DeckCommitment(hs.Deck, hs.Salt), Notes: notes}
}

// Add puts what a step did (v) into the lines, cards drawn in style: the hand's home-game options
// with the deal's notes, who ran out of time, the events narrated (the board and pots only once the
// hands are turned up: the table shows them itself), an all-in's chances after the hands are turned
// up, and when the hand is over what it means for the table.
func (l *Lines) Add(v *View, style render.CardStyle) {
	if l.narr == nil {
		l.narr = &render.Narrator{Names: v.Names, Style: style}
		if v.Hand != nil {
			l.narr.HiLo = v.Hand.Game().HiLo()
		}
	}
	if v.Deal != nil {
		// They do not change during the hand: said once here, shown from the deal to the end.
		l.Notes = append(HandNotes(v.Deal, v.Names), l.Notes...)
	}
	if v.RanOut != "" {
		l.Log = append(l.Log, v.RanOut+" ran out of time")
	}
	if v.Bank != "" {
		l.Log = append(l.Log, v.Bank)
	}
	for i, ev := range v.Events {
		text, ok := l.narr.Line(ev)
		if ev.Kind == engine.EvDead && i > 0 && v.Events[i-1].Kind == engine.EvPost && v.Events[i-1].Player == ev.Player && len(l.Log) > 0 {
			// Missed blinds read as one line: "dave posts 10 and 5 dead".
			l.Log[len(l.Log)-1] += " and " + strings.TrimPrefix(text, v.Names.Name(ev.Player)+" posts ")
			continue
		}
		if ev.Kind == engine.EvReveal || ev.Kind == engine.EvShow || ev.Kind == engine.EvMuck || ev.Kind == engine.EvAward && ev.Street == engine.Showdown {
			l.Showdown = true
			l.collect(ev, text)
		}
		if !ok {
			continue
		}
		if !l.Showdown && (ev.Kind == engine.EvPots || ev.Kind == engine.EvBoard || ev.Kind == engine.EvEnd) {
			continue // the table message shows the board and pots itself
		}
		for _, line := range strings.Split(text, "\n") {
			if l.Showdown || ev.Kind == engine.EvAward {
				l.Result = append(l.Result, line)
			} else {
				l.Log = append(l.Log, line)
			}
		}
		if ev.Kind == engine.EvReveal {
			game := engine.Holdem
			if v.Hand != nil {
				game = v.Hand.Game()
			}
			if eq, ok := equity(ev, game, v.Names, style); ok {
				l.Result = append(l.Result, eq.Text)
			}
		}
	}
	if v.Hand != nil && v.Hand.Done() {
		l.Result = append(l.Result, v.Result...)
	}
}

// equity is each turned-up hand's exact chance to win (engine.Equity deals every remaining board),
// told before the rest of the board is dealt.
func equity(ev engine.Event, game engine.Game, names render.Names, style render.CardStyle) (render.Message, bool) {
	if len(ev.Hands) < 2 {
		return render.Message{}, false
	}
	if game != engine.Holdem {
		return omahaEquity(ev, game, names, style)
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

// collect keeps what the showdown picture shows from a showdown event: hands turned up (never a
// folded or mucked one), what they make, what they win and the awards as narrated (line).
func (l *Lines) collect(ev engine.Event, line string) {
	hand := func(p int) *ShownHand {
		for i := range l.Shown {
			if l.Shown[i].Player == p {
				return &l.Shown[i]
			}
		}
		l.Shown = append(l.Shown, ShownHand{Player: p})
		return &l.Shown[len(l.Shown)-1]
	}
	switch ev.Kind {
	case engine.EvReveal:
		for _, h := range ev.Hands {
			hand(h.Player).Cards = append([]engine.Card(nil), h.Hole...) // every hole card
		}
	case engine.EvShow:
		h := hand(ev.Player)
		h.Cards = append([]engine.Card(nil), ev.Cards...)
		if ev.Value != nil && h.Label == "" {
			h.Label = ev.Value.Description
		}
	case engine.EvAward:
		if len(l.Shown) == 0 {
			return
		}
		switch pot := ev.Pots; {
		case len(pot) > 0 && len(pot[0].Shares) == len(pot[0].Winners) && len(pot[0].Winners) > 0:
			for i, w := range pot[0].Winners {
				hand(w).Won += pot[0].Shares[i]
			}
		case ev.Player >= 0:
			hand(ev.Player).Won += ev.Amount
		}
		if line != "" {
			l.Awards = append(l.Awards, line)
		}
	}
}

// Picture is the showdown picture of finished hand h, or nil when no hand was turned up or the table
// has pictures=off. The shell draws it only where the platform shows pictures.
func (s State) Picture(l *Lines, h *engine.Hand, names render.Names) *render.Showdown {
	if l == nil || !h.Done() || len(l.Shown) == 0 || s.Rec.Settings.NoPictures {
		return nil
	}
	v := &render.Showdown{Title: fmt.Sprintf("Hand #%d", l.No), Board: h.Board(), Board2: h.Board2(), Pots: l.Awards}
	if k := s.Rec.Settings.Cards; k == render.CardImages4 || k == render.CardEmoji {
		v.Colours = render.FourColour // the table plays with a four-colour deck
	}
	for _, sh := range l.Shown {
		if len(sh.Cards) == 0 {
			continue // a winner whose cards were not turned up is not drawn
		}
		sh.Name = names.Name(sh.Player)
		v.Hands = append(v.Hands, sh.Shown)
	}
	return v
}

// HandView is the hand's table message for engine hand h (dealt from hs to the players names), with
// its lines l, at now; deadline is when the turn shown runs out (zero: no timer).
func (s State) HandView(l *Lines, h *engine.Hand, hs *HandState, names render.Names, now, deadline time.Time) render.HandView {
	r, pub := hs.Rules, h.Public()
	v := render.HandView{TableView: render.TableView{Title: "Table", Variant: r.Variant, Game: r.Game, SmallBlind: r.SmallBlind, BigBlind: r.BigBlind,
		Ante: r.Ante, HandNo: hs.No, Board: pub.Board, Board2: pub.Board2, PotNames: names, Notes: slices.Concat(l.Notes, s.nextNotes())},
		Log: l.Log, Result: l.Result, Commitment: l.Commitment, Over: pub.Done, Showdown: l.Showdown}
	if s.Rec.Settings.Games != "" {
		v.Mixed = s.Rec.Settings.MixLine()
	}
	if s.Rec.Tournament != nil {
		v.Title, v.Tournament = "Tournament", TournamentView(s.Rec, now)
	}
	if !pub.Done {
		v.Pots = pub.Pots
	}
	for p, st := range hs.Seats {
		v.Seats = append(v.Seats, render.SeatView{Seat: st, Name: names.Name(p), Stack: pub.Stacks[p], Bet: pub.Bets[p],
			Folded: pub.Folded[p], AllIn: pub.AllIn[p] && !pub.Done, Button: p == pub.Button, ToAct: pub.ToAct == p})
	}
	if o := pub.Turn; o != nil {
		secs := 0
		if !deadline.IsZero() {
			secs = int((deadline.Sub(now) + time.Second - 1) / time.Second)
		}
		v.Turn = &render.TurnView{Name: names.Name(o.Player), Options: *o, SecondsLeft: max(secs, 0), Token: s.Token(), Street: pub.Street}
	}
	return v
}

// Token is the running turn's button token: the hand and the number of actions so far. A click
// carrying another token is from an earlier turn.
func (s State) Token() string {
	if s.Hand == nil || s.Rec.Hand == nil {
		return ""
	}
	return fmt.Sprintf("%d.%d", s.Rec.Hand.No, len(s.Rec.Hand.Actions))
}
