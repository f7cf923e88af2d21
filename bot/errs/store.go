package errs

import "errors"

// The stores' sentinels that a feature's writes meet as well as the dealer's (a money append under a
// request's key, an adjustment of a bankroll): package bot keeps them under their old names, so the
// stores and their callers need no change.
var (
	// ErrApplied is returned by a write whose request key (a Change's Once ID, a money append's key)
	// was already applied: the delivery it came from arrived twice, and the second time changes
	// nothing.
	ErrApplied = errors.New("that was already applied")
	// ErrOutcomeUnknown is wrapped by a write's error when the write may have landed although the
	// call failed: the request reached the database and its answer was lost (the connection broke
	// around COMMIT, or the wait was cut short while the database worked). Nobody may be told
	// "nothing changed" on it: the writer reads it back first (vocab.Env.Landed, the dealer's
	// actor.settle).
	ErrOutcomeUnknown = errors.New("the database's answer to a write was lost")
	// ErrInsufficient is returned by a store's Commit when a bankroll would go below zero.
	ErrInsufficient = errors.New("not enough chips in the bankroll")
)
