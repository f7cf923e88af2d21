/*
Package engine is dealerbot's rules engine for Texas Hold'em and Omaha: cards and decks, the hand
evaluators, all-in equity, one hand as a state machine, and the table between hands. It follows the project's
rulebook (RULES.md) exactly and uses only the standard library: no I/O, no clocks, no goroutines.

# Basics

A hand starts from a Setup (rules, stacks of the players dealt in, the button, the deck order):

	h, err := engine.NewHand(engine.Setup{Rules: rules, Stacks: stacks, Button: 0, Deck: deck})

NewHand posts antes and blinds and deals the hole cards. Then, while !h.Done(), the player h.ToAct()
acts through h.Apply(engine.Action{...}). Options describes what that player may do (check or the
amount to call, the smallest and largest total to raise to, whether raising is allowed at all), and
Validate says whether an action would be accepted. Apply either succeeds and returns the events it
caused (dealing, the run-out when players are all-in, the showdown and the award of each pot happen
inside the action that closes the betting) or returns an *Error written for players and changes
nothing. Bet and Raise amounts are totals: Raise to 60 makes the player's bet this street 60.
Public reads in one call what everyone at the table sees of the hand (stacks, bets, boards, pots and
the turn's options), as a table view needs it.

Rules.Game picks the game (RULES.md section 12): Holdem (the zero value), Omaha, Omaha5 or OmahaHiLo,
each with any betting structure (Variant). Omaha deals four or five hole cards (HoleCards) and values
a hand as exactly two of them with three board cards (EvaluateOmaha, BestOmaha); OmahaHiLo also finds
each hand's eight-or-better low (EvaluateLow, BestLow) and splits every pot whose players make one:
its EvAward events say which half they pay (Event.Half), a high half with Value, a low half with Low.
OmahaEquity is Equity for Omaha: exact when the remaining boards are few, otherwise a seeded sample
with its standard error.

A hand is fully described by its Setup and its action log: Replay(h.Setup(), h.Actions()) rebuilds
an identical hand. Table carries stacks and the button from hand to hand and applies new blind levels
only between hands.

# Caveats

Players in a Hand are indices 0..n-1 in clockwise order; the Table maps them to seats. Events share
the hand's card storage and must be treated as read-only. Hole cards appear in EvHoleCards events,
which are private to their player: whoever publishes events must never show them before EvReveal or
EvShow. Hole and Revealed.Cards hold the first two hole cards only; HoleCards and Revealed.Hole hold
all of them. In Omaha the board may be run twice only when the deck still holds a second board with
its burns (five-card Omaha at 8 seats all-in before the flop does not): the hand then runs once and
its EvRuns event gives the Reason. The evaluator's tables are built once, on first use.
*/
package engine
