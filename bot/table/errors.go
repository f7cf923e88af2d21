package table

import "github.com/dealerbot/dealerbot/bot/errs"

// userErrorf is a refusal of what a player typed: errs.Invalid with a sentence for players.
func userErrorf(format string, args ...any) error { return errs.Errorf(errs.Invalid, format, args...) }

// refusef is a refusal with its own code (conflict, forbidden, not found).
func refusef(code errs.Code, format string, args ...any) error {
	return errs.Errorf(code, format, args...)
}
