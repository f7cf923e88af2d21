// Package errs is the one error type players read, shared by the dealer, the scheduler and the chat
// adapters, and the one function that turns any error into the sentence a player sees.
//
// Two kinds of error exist (after benbjohnson/wtf): an *Error carries a code and a sentence written
// for players ("It is Bob's turn, not yours"); every other error is internal, reaches the chat only as
// Apology, and is logged with its context by whoever calls Reply. The engine, which imports nothing of
// the project, refuses an action with its own *engine.Error, also written for players: CodeOf and
// Reply read it as the Error of the matching code, so no caller tells the two apart.
package errs

import (
	"errors"
	"fmt"
	"unicode/utf8"

	"github.com/dealerbot/dealerbot/engine"
)

// Code says what kind of refusal an Error is, so callers branch with errors.Is or CodeOf instead of
// matching sentences.
type Code string

// The codes.
const (
	Invalid     Code = "invalid"     // the input cannot be read, or a number is out of range
	Forbidden   Code = "forbidden"   // the user may not do this (host, admin, someone else's button)
	Conflict    Code = "conflict"    // not now: not your turn, a hand is running, already seated
	NotFound    Code = "not_found"   // no such table, schedule, player or hand
	TooMany     Code = "too_many"    // the user sends commands too fast, or a limit on things is reached
	Unavailable Code = "unavailable" // the dealer is busy or shutting down
	Internal    Code = "internal"    // something broke on our side
)

// Error is a refusal a player may read: a code and a sentence saying what to do instead.
type Error struct {
	Code    Code
	Message string
}

func (e *Error) Error() string { return e.Message }

// Is makes errors.Is(err, &Error{Code: c}) match any Error of code c.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Message == "" && t.Code == e.Code
}

// Errorf returns an *Error with the formatted sentence.
func Errorf(code Code, format string, args ...any) error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// E is a sentinel for errors.Is: errors.Is(err, errs.E(errs.Forbidden)).
func E(code Code) error { return &Error{Code: code} }

// CodeOf returns the code of err: Internal for any error that is neither an *Error nor the engine's
// refusal of an action.
func CodeOf(err error) Code {
	if e := player(err); e != nil {
		return e.Code
	}
	return Internal
}

// player returns err as the Error a player reads, or nil for an internal error.
func player(err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	var ee *engine.Error
	if errors.As(err, &ee) {
		code := Invalid // an amount or a player the engine cannot take
		switch ee.Code {
		case engine.ErrNotYourTurn, engine.ErrHandOver, engine.ErrCannotCheck, engine.ErrNothingToCall,
			engine.ErrCannotBet, engine.ErrCannotRaise, engine.ErrRunTwice:
			code = Conflict // not now
		}
		return &Error{Code: code, Message: ee.Message}
	}
	return nil
}

// Apology is what a player sees when something broke on our side; the details go to the log.
const Apology = "Sorry, something went wrong on my side and nothing changed. Please try again in a moment."

// Reply returns the sentence a player sees for err, and whether err is internal (to be logged by the
// caller with its context). Player errors are shown as written, clipped to MaxReply.
func Reply(err error) (text string, internal bool) {
	if e := player(err); e != nil && e.Code != Internal {
		return ClipText(e.Message, MaxReply), false
	}
	return Apology, true
}

// MaxReply is the longest private reply in characters. Discord allows 2,000 per message and Slack
// 3,000 per text object; replies stay below both, with room for the adapter's decoration.
const MaxReply = 1900

// MaxQuote is the most characters of a user's own input a reply repeats back.
const MaxQuote = 40

// Quote returns s quoted for a reply, cut to MaxQuote characters: a refusal names what was typed
// without echoing unbounded input.
func Quote(s string) string {
	return fmt.Sprintf("%q", ClipText(s, MaxQuote))
}

// ClipText cuts s to at most n characters (runes), ending in "…" when it was cut.
func ClipText(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	i, count := 0, 0
	for j := range s {
		if count == n-1 {
			i = j
			break
		}
		count++
	}
	return s[:i] + "…"
}
