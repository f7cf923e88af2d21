package render

import (
	"fmt"
	"strings"

	"github.com/dealerbot/dealerbot/engine"
)

// HoleCards is the private message with a player's two cards.
func HoleCards(cards [2]engine.Card, handNo int64, style CardStyle) Message {
	return Message{
		Text:    fmt.Sprintf("Hand #%d — your cards: %s", handNo, Cards(cards[:], style)),
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

// turn is the table message's part for the player to act, with one button per choice in a fixed order:
// Fold, only when something is owed (a fold when checking is free is never a click away: RULES.md
// section 11); Check or Call; Bet…/Raise… (asks for an amount) when a raise short of all-in is possible;
// All-in when the player may put in every chip. Button labels show the chips the click adds ("Call
// 40", "All-in 980"); the text and the amount prompt speak of totals ("Raise to 80–1,000"), as the
// raise command does. In fixed-limit the one legal size needs no prompt: the button runs "raise 40".
func turn(v TurnView, style CardStyle) Message {
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

	word, cmd := "Raise", "raise"
	if o.CanBet {
		word, cmd = "Bet", "bet"
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
	head := fmt.Sprintf("%s to act %s — %s.", name, streetPhrase(v.Street), strings.Join(parts, ""))
	sentences := []string{head}
	switch {
	case raiseShort && o.MinTo < raiseMax:
		sentences = append(sentences, fmt.Sprintf("%s%s–%s.", amountWord(o), Chips(o.MinTo), Chips(raiseMax)))
	case raiseShort:
		sentences = append(sentences, fmt.Sprintf("%s%s.", amountWord(o), Chips(o.MinTo)))
	case canRaise:
		sentences = append(sentences, fmt.Sprintf("A %s can only be all-in (%s%s).", cmd, strings.ToLower(amountWord(o)), Chips(all)))
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
			r.Label = amountWord(o) + Chips(o.MinTo)
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

// amountWord starts an amount the way the commands read: "Bet 20", "Raise to 80".
func amountWord(o engine.Options) string {
	if o.CanBet {
		return "Bet "
	}
	return "Raise to "
}

func streetPhrase(s engine.Street) string {
	switch s {
	case engine.Preflop:
		return "pre-flop"
	case engine.Flop, engine.Turn, engine.River:
		return "on the " + s.String()
	}
	return "at showdown"
}
