package render

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/dealerbot/dealerbot/engine"
)

// SeatView is one seat as the table summary shows it. Seat is the table's seat index, counted from 0
// as engine.Table counts it; it is shown counted from 1.
type SeatView struct {
	Seat       int
	Name       string
	Stack, Bet int64
	Folded     bool
	AllIn      bool
	SittingOut bool
	Button     bool
	ToAct      bool
	Waiting    bool // missed the blinds (or new): waits for the big blind, or posts to play
}

// TableView is a table between or during hands. HandNo is 0 when no hand is running. PotNames are the
// names of the hand's players by hand index, for the players eligible for each pot.
type TableView struct {
	Title                      string
	Variant                    engine.Variant
	Game                       engine.Game // the game dealt now (Hold'em, the zero value, says no more than before)
	Mixed                      string      // a table of several games: "dealer's choice of NLH, PLO, O8" or "rotation NLH, PLO"
	SmallBlind, BigBlind, Ante int64
	HandNo                     int64
	Seats                      []SeatView
	Board                      []engine.Card
	Pots                       []engine.Pot
	PotNames                   Names
	Board2                     []engine.Card // the second board of a hand run twice
	Notes                      []string      // a straddle, a bomb pot, what the next hand will be
	Tournament                 *TournamentView
}

// TournamentView is a tournament's progress: the level (from 1), the next level's blinds and how far
// off they are ("in 7 min", "from hand #12"; empty when blinds do not rise), players left and places paid.
type TournamentView struct {
	Level                int
	NextSmall, NextBig   int64
	NextAnte             int64
	NextIn               string
	Left, Entrants, Paid int
	Pool                 int64
	RebuyIn              string // the countdown of the time to rebuy ("Carol may rebuy: 25 s left"), if running
}

// line is the tournament's progress under the stakes. It does not say "Tournament": the title
// above it does ("Tournament table", "Tournament · Hand #12").
func (v TournamentView) line() string {
	parts := []string{fmt.Sprintf("Level %d", v.Level)}
	if v.NextIn != "" {
		next := "next " + Chips(v.NextSmall) + "/" + Chips(v.NextBig)
		if v.NextAnte > 0 {
			next += " ante " + Chips(v.NextAnte)
		}
		parts = append(parts, next+" "+v.NextIn)
	}
	paid := "places paid"
	if v.Paid == 1 {
		paid = "place paid"
	}
	parts = append(parts, fmt.Sprintf("%d of %d left", v.Left, v.Entrants), fmt.Sprintf("%d %s", v.Paid, paid), "prize pool "+Chips(v.Pool))
	if v.RebuyIn != "" {
		parts = append(parts, v.RebuyIn)
	}
	return strings.Join(parts, " · ")
}

// Table is a compact summary, one line per seat:
//
//	Friday game · hand #12
//	No-limit 5/10, ante 1
//	Board: 7♦ 5♥ 9♦ · pot 300
//	• 1. Alice 1,250 · button
//	▶ 2. Bob 980 · bet 20 · to act
func Table(v TableView, style CardStyle) Message {
	head := strings.TrimSpace(v.Title)
	if head == "" {
		head = "Table"
	}
	if v.HandNo > 0 {
		head += fmt.Sprintf(" · hand #%d", v.HandNo)
	} else {
		head += " · between hands"
	}
	stakes := Stakes(v.Game, v.Variant, v.Mixed != "") + " " + Chips(v.SmallBlind) + "/" + Chips(v.BigBlind)
	if v.Ante > 0 {
		stakes += ", ante " + Chips(v.Ante)
	}
	if v.Mixed != "" {
		stakes += " · " + v.Mixed
	}
	top := []string{head, stakes}
	text := strings.Join(append(top, v.body(style, true)...), "\n")
	if Length(text) > MaxText && len(v.Pots) > 1 {
		// Ten long names in nine side pots do not fit: count the players of each pot instead, so
		// that every seat still shows.
		text = strings.Join(append(top, v.body(style, false)...), "\n")
	}
	return Message{Text: clip(text)}
}

// body is what a table shows under its stakes, top to bottom: the tournament's line and the notes,
// the board and the pots (with the names of who can win each, or their number), and a line per seat.
//
// While a street is in play the pots are the chips collected from the streets before it
// (TableView.Pots), and the bets in front of the players are counted apart ("pot 60 + bets 800"):
// side pots appear when the street closes.
func (v TableView) body(style CardStyle, withNames bool) []string {
	var lines []string
	if v.Tournament != nil {
		lines = append(lines, v.Tournament.line())
	}
	for _, n := range v.Notes {
		lines = append(lines, strings.Join(strings.Fields(n), " "))
	}

	var collected, bets int64
	for _, p := range v.Pots {
		collected += p.Amount // a hand's chips: at most engine.MaxChips
	}
	for _, s := range v.Seats {
		bets += s.Bet
	}
	if len(v.Board) > 0 || collected > 0 || bets > 0 {
		var parts []string
		if len(v.Board) > 0 {
			label := "Board: "
			if len(v.Board2) > 0 {
				label = "First board: "
			}
			parts = append(parts, label+Cards(v.Board, style))
		}
		var pot []string
		if len(v.Pots) == 1 && collected > 0 {
			pot = append(pot, "pot "+Chips(collected))
		}
		if bets > 0 {
			pot = append(pot, "bets "+Chips(bets))
		}
		if len(pot) > 0 {
			parts = append(parts, strings.Join(pot, " + "))
		}
		lines = append(lines, capitalize(strings.Join(parts, " · ")))
		if len(v.Board2) > 0 {
			lines = append(lines, "Second board: "+Cards(v.Board2, style))
		}
		if len(v.Pots) > 1 {
			lines = append(lines, potLines(v.Pots, v.PotNames, withNames)...)
		}
	}

	for _, s := range v.Seats {
		mark := "• "
		if s.ToAct {
			mark = "▶ "
		}
		line := mark + strconv.Itoa(s.Seat+1) + ". " + cleanName(s.Name, s.Seat) + " " + Chips(s.Stack)
		var tags []string
		if s.Bet > 0 {
			tags = append(tags, "bet "+Chips(s.Bet))
		}
		if s.Button {
			tags = append(tags, "button")
		}
		switch {
		case s.SittingOut:
			tags = append(tags, "sitting out")
		case s.Folded:
			tags = append(tags, "folded")
		case s.AllIn:
			tags = append(tags, "all-in")
		case s.Stack == 0:
			tags = append(tags, "no chips")
		case s.Waiting:
			tags = append(tags, "waits for the big blind")
		}
		if s.ToAct {
			tags = append(tags, "to act")
		}
		if len(tags) > 0 {
			line += " · " + strings.Join(tags, " · ")
		}
		lines = append(lines, line)
	}
	return lines
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// --- the hand's table message ---------------------------------------------------------------------

// HandView is everything the hand's table message shows: the table (stakes, board, pots, seats), the
// turn with its buttons, the hand's last few public lines, the deck commitment and, once the hand is
// over, its showdown and awards. The message is rendered whole from it every time the hand changes,
// and edited in place of the previous version.
type HandView struct {
	TableView
	Turn       *TurnView // the player to act; nil between turns and when the hand is over
	Log        []string  // the hand's public lines so far, oldest first
	Commitment string    // the deck commitment (hex); the message shows its first 16 digits
	Result     []string  // the showdown and awards, when the hand is over
	Over       bool
	Showdown   bool // hands were turned up; without, the hand was won by everyone else folding
}

// recentLines is how many of the hand's lines the table message shows while the hand is played.
const recentLines = 4

// MyCards is the button anyone seated can click at any time to see their hole cards privately.
var MyCards = Button{Label: "My cards", Command: "cards", Style: Secondary}

// HandTable is the hand's table message:
//
//	Hand #12 · No-limit 5/10 · deck 1a2b3c4d5e6f7a8b
//	Board: 7♦ 5♥ 9♦ · pot 300
//	• 1. Alice 1,250 · button
//	• 2. Bob 980 · bet 20
//	▶ 3. Carol 500 · to act
//	Last: Bob calls 20 · Carol raises to 60
//	▶ Carol to act on the flop — 40 to call. Raise to 100–500. 45s left.
//
// with the turn's buttons and "My cards" while the hand is played. Hole cards never appear in it
// before they are shown.
func HandTable(v HandView, style CardStyle) Message {
	tv := v.TableView
	game := capitalize(tv.Variant.String()) // Hold'em at a table of one game: as before games (the call path's functions)
	if tv.Game != engine.Holdem || tv.Mixed != "" {
		game = Stakes(tv.Game, tv.Variant, tv.Mixed != "")
	}
	head := fmt.Sprintf("Hand #%d · %s %s/%s", tv.HandNo, game, Chips(tv.SmallBlind), Chips(tv.BigBlind))
	if tv.Ante > 0 {
		head += ", ante " + Chips(tv.Ante)
	}
	if tv.Mixed != "" {
		head += " (" + tv.Mixed + ")"
	}
	if t := strings.TrimSpace(tv.Title); t != "" && t != "Table" {
		head = t + " · " + head
	}
	if len(v.Commitment) >= 16 {
		head += " · deck " + v.Commitment[:16]
	}
	playing := v.Turn != nil && !v.Over
	var next Message // the turn: its sentence under the table, its buttons
	if playing {
		next = turn(*v.Turn)
	}
	build := func(withNames bool, recent int) string {
		out := append([]string{head}, tv.body(style, withNames)...)
		switch {
		case v.Over:
			if !v.Showdown && len(v.Log) > 0 && recent > 0 {
				// Won by folds: the last actions (and any uncalled bet) that ended it, then who won.
				from := max(0, len(v.Log)-recent)
				out = append(out, "Last: "+strings.Join(v.Log[from:], " · "))
			}
			out = append(out, v.Result...)
		case len(v.Log) > 0 && recent > 0:
			from := max(0, len(v.Log)-recent)
			out = append(out, "Last: "+strings.Join(v.Log[from:], " · "))
		}
		if playing {
			out = append(out, "▶ "+next.Text)
		}
		return strings.Join(out, "\n")
	}
	text := build(true, recentLines)
	if len(text) > MaxText && Length(text) > MaxText { // in bytes it is most often far shorter: see clip
		if style.Kind >= CardImages && style.Faces != nil {
			// A card picture takes some 30 characters: a long showdown is drawn with emoji cards
			// instead of being cut.
			return HandTable(v.withoutPictures(style.Faces), EmojiCards)
		}
		if w := v.withoutPreviews(); v.Over && len(w.Result) < len(v.Result) {
			// Ten Omaha hands turned up twice (the all-in and the showdown) do not fit: the showdown
			// alone says every card.
			return HandTable(w, style)
		}
		for recent := recentLines - 1; Length(text) > MaxText && recent >= 0; recent-- {
			text = build(false, recent)
		}
	}
	m := Message{Text: clip(text)}
	if playing {
		m.Buttons = append(next.Buttons, MyCards)
	}
	return m
}

// withoutPictures is the view with the card pictures in its prepared lines (the hand's log, result and
// notes) drawn as emoji cards.
func (v HandView) withoutPictures(f *Faces) HandView {
	pairs := make([]string, 0, 2*len(f))
	for c, face := range f {
		if face != "" && c < 52 {
			pairs = append(pairs, face, Card(engine.Card(c), EmojiCards))
		}
	}
	r := strings.NewReplacer(pairs...)
	redo := func(lines []string) []string {
		out := make([]string, len(lines))
		for i, l := range lines {
			out[i] = r.Replace(l)
		}
		return out
	}
	v.Log, v.Result, v.Notes = redo(v.Log), redo(v.Result), redo(v.Notes)
	return v
}

// --- the turn: whose it is, what they may do, their buttons ---------------------------------------

// HoleCards is the private message with a player's hole cards: two, four or five.
func HoleCards(cards []engine.Card, handNo int64, style CardStyle) Message {
	return Message{
		Text:    fmt.Sprintf("Hand #%d — your cards: %s", handNo, Cards(cards, style)),
		Private: true,
	}
}

// TurnView is what the channel is told when a player is to act.
type TurnView struct {
	Name        string
	Options     engine.Options
	SecondsLeft int // 0 when there is no turn timer
	Token       string
	Street      engine.Street
}

// streetPhrases say where a turn is: "Carol to act pre-flop", "... on the flop", "... at showdown".
var streetPhrases = [...]string{engine.Preflop: "pre-flop", engine.Flop: "on the flop", engine.Turn: "on the turn",
	engine.River: "on the river", engine.Showdown: "at showdown"}

// turn is the table message's part for the player to act, with one button per choice in a fixed order:
// Fold, only when something is owed (a fold when checking is free is never a click away: RULES.md
// section 11); Check or Call; Bet…/Raise… (asks for an amount) when a raise short of all-in is possible;
// All-in when the player may put in every chip. Button labels show the chips the click adds ("Call
// 40", "All-in 980"); the text and the amount prompt speak of totals ("Raise to 80–1,000"), as the
// raise command does. In fixed-limit the one legal size needs no prompt: the button runs "raise 40".
func turn(v TurnView) Message {
	o := v.Options
	name := cleanName(v.Name, o.Player)
	if o.RunItTwice {
		text := name + ": betting is over with players all-in. Run the rest of the board twice? Everyone still in must say yes; no answer is no."
		if v.SecondsLeft > 0 {
			text += fmt.Sprintf(" %ds left.", v.SecondsLeft)
		}
		return Message{Text: text, Buttons: []Button{
			{Label: "Run it twice", Command: "runtwice yes", Token: v.Token, Style: Primary},
			{Label: "Once", Command: "runtwice no", Token: v.Token, Style: Secondary},
		}}
	}
	all := o.Bet + o.Stack
	canRaise := (o.CanBet || o.CanRaise) && o.Stack > 0
	callAllIn := o.CanCall && o.ToCall >= o.Stack
	raiseMax := min(o.MaxTo, all)
	raiseShort := canRaise && o.MinTo < all // a bet or raise that keeps chips behind
	allIn := o.Stack > 0 && (callAllIn || canRaise && raiseMax >= all)

	// amount starts an amount the way the commands read: "Bet 20", "Raise to 80".
	word, cmd, amount := "Raise", "raise", "Raise to "
	if o.CanBet {
		word, cmd, amount = "Bet", "bet", "Bet "
	}

	var parts []string
	switch {
	case o.CanCheck:
		parts = append(parts, "nothing to call")
	case callAllIn:
		parts = append(parts, Chips(o.ToCall)+" to call (all-in)")
	case o.CanCall:
		parts = append(parts, Chips(o.ToCall)+" to call")
	}
	head := fmt.Sprintf("%s to act %s — %s.", name, streetPhrases[min(v.Street, engine.Showdown)], strings.Join(parts, ""))
	sentences := []string{head}
	switch {
	case raiseShort && o.MinTo < raiseMax:
		sentences = append(sentences, fmt.Sprintf("%s%s–%s.", amount, Chips(o.MinTo), Chips(raiseMax)))
	case raiseShort:
		sentences = append(sentences, fmt.Sprintf("%s%s.", amount, Chips(o.MinTo)))
	case canRaise:
		sentences = append(sentences, fmt.Sprintf("A %s can only be all-in (%s%s).", cmd, strings.ToLower(amount), Chips(all)))
	}
	if v.SecondsLeft > 0 {
		sentences = append(sentences, fmt.Sprintf("%ds left.", v.SecondsLeft))
	}

	b := func(label, command string, st Style) Button {
		return Button{Label: label, Command: command, Token: v.Token, Style: st}
	}
	var buttons []Button
	if !o.CanCheck {
		buttons = append(buttons, b("Fold", "fold", Danger)) // never a Fold button when checking is free
	}
	switch {
	case o.CanCheck:
		buttons = append(buttons, b("Check", "check", Primary))
	case o.CanCall && !callAllIn:
		buttons = append(buttons, b("Call "+Chips(o.ToCall), "call", Primary))
	}
	if raiseShort {
		r := b(word+"…", cmd, Secondary)
		if o.MinTo < raiseMax {
			r.Amount, r.Min, r.Max = true, o.MinTo, raiseMax
		} else {
			// Only one size is legal (fixed-limit, or pot-limit capped at the minimum): no prompt.
			r.Label = amount + Chips(o.MinTo)
			r.Command = fmt.Sprintf("%s %d", cmd, o.MinTo)
			r.Min, r.Max = o.MinTo, o.MinTo
		}
		buttons = append(buttons, r)
	}
	if allIn {
		buttons = append(buttons, b("All-in "+Chips(o.Stack), "allin", Danger))
	}
	return Message{Text: clip(strings.Join(sentences, " ")), Buttons: buttons}
}
