package table

import (
	"time"

	"github.com/dealerbot/dealerbot/bot/vocab"
	"github.com/dealerbot/dealerbot/engine"
)

// Do is a verb of the core: it decides a step on the table's state, or refuses and changes nothing.
type Do func(s State, now time.Time, by Caller, args []string, in Inputs) (Step, error)

// Reads is what a verb needs read from the store before it runs (Inputs).
type Reads uint8

const (
	ReadsPlayer   Reads = 1 << iota // the caller's account (Inputs.Player)
	ReadsLastHand                   // the channel's newest kept hand (Inputs.LastHand)
	ReadsDeal                       // a deal's: the shuffler and the hand numbers kept before a restore
)

// Verb is a verb of the core as the registry lists it: what it needs of the user and the channel,
// the refusal for one who lacks it, what it reads first and the step it decides.
type Verb struct {
	Need    vocab.Need
	Refusal string
	Reads   Reads
	Do      Do
}

// SetVerb names the core's `set` in the registry: a name nobody types (a NUL byte), reached only
// through the workspace-wide `set` (which also sets a finished game's reminders), so that the gate's
// host check and the step run as for any verb of the core.
const SetVerb = "\x00set"

// Verbs are the table's verbs by name, each alias an entry: what a player types at a table.
func Verbs() map[string]Verb {
	play := func(k engine.ActionKind) Verb {
		return Verb{Need: vocab.Seat, Refusal: "type `join` to play.", Do: Betting(k).Act}
	}
	return map[string]Verb{
		"start":    {Need: vocab.Table, Do: State.Start, Reads: ReadsLastHand},
		"join":     {Need: vocab.Open, Do: State.Join, Reads: ReadsPlayer},
		"leave":    {Need: vocab.Seat, Refusal: "there is nothing to leave.", Do: State.Leave, Reads: ReadsDeal}, // a tournament player out of chips who leaves may be the last answer the deal waits for
		"kick":     {Need: vocab.Host, Refusal: "remove a player", Do: State.Kick},
		"sitout":   {Need: vocab.Seat, Refusal: "type `join` to sit down.", Do: State.SitOut},
		"sitin":    {Need: vocab.Seat, Refusal: "type `join` to sit down.", Do: State.SitIn},
		"rebuy":    {Need: vocab.Seat, Refusal: "type `join` to buy in.", Do: State.Rebuy, Reads: ReadsPlayer | ReadsDeal}, // the last answer to a rebuy offer deals
		"deal":     {Need: vocab.SeatOrHost, Refusal: "deal: `join` first.", Do: State.Deal, Reads: ReadsDeal},
		"cards":    {Need: vocab.Open, Do: State.Cards},
		"table":    {Need: vocab.Open, Do: State.Table},
		"show":     {Need: vocab.Open, Do: State.Show},
		SetVerb:    {Need: vocab.Host, Refusal: "change the settings", Do: State.Set},
		"end":      {Need: vocab.Host, Refusal: "end the session", Do: State.End},
		"straddle": {Need: vocab.Seat, Refusal: "type `join` to play.", Do: State.Straddle},
		"bombpot":  {Need: vocab.Host, Refusal: "call a bomb pot", Do: State.BombPot},
		"choose":   {Need: vocab.Seat, Refusal: "type `join` to play.", Do: State.Choose, Reads: ReadsDeal}, // dealer's choice: the button picks the orbit's game, which deals
		"fold":     play(engine.Fold),
		"check":    play(engine.Check),
		"call":     play(engine.Call),
		"bet":      play(engine.Bet),
		"raise":    play(engine.Raise),
		"allin":    play(engine.AllIn),
		"all-in":   play(engine.AllIn),
		"runtwice": play(engine.RunTwice),
	}
}
