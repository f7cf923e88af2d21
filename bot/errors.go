package bot

import (
	"context"
	"errors"
	"fmt"
	"log/slog"

	"github.com/dealerbot/dealerbot/engine"
)

// userError is a refusal a player may read: a sentence saying what to do instead.
type userError struct{ msg string }

func (e *userError) Error() string { return e.msg }

func userErrorf(format string, args ...any) error {
	return &userError{msg: fmt.Sprintf(format, args...)}
}

// apology is what a player sees when something broke on our side; the details go to the log.
const apology = "Sorry, something went wrong on my side and nothing changed. Please try again in a moment."

// errorReply turns any error into the private reply: players' errors as written, internal errors as an
// apology (logged with their context).
func errorReply(log *slog.Logger, err error) Reply {
	var ue *userError
	var ee *engine.Error
	switch {
	case errors.As(err, &ue):
		return Reply{Text: ue.msg, IsError: true}
	case errors.As(err, &ee):
		return Reply{Text: ee.Message, IsError: true}
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return Reply{Text: "The dealer is busy or shutting down and nothing changed: please try again.", IsError: true}
	}
	log.Error("command failed", "err", err)
	return Reply{Text: apology, IsError: true}
}
