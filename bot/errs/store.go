package errs

import "errors"

// The store's conditions that a feature's verbs, outside package bot, branch on. Package bot keeps
// its names for them (bot.ErrOutcomeUnknown, bot.ErrInsufficient), so the stores and their callers
// need no change.
var (
	// ErrOutcomeUnknown is wrapped by a write's error when the change may have landed although the
	// call failed: the request reached the database and its answer was lost (the connection broke
	// around COMMIT, or the wait was cut short while the database worked). Nobody may be told
	// "nothing changed" on it: the writer reads back first (vocab.Env.Landed).
	ErrOutcomeUnknown = errors.New("the database's answer to a write was lost")
	// ErrInsufficient is returned by a store's Commit when a bankroll would go below zero.
	ErrInsufficient = errors.New("not enough chips in the bankroll")
)
