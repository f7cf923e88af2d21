package bot

import (
	"context"
	"errors"
	"log/slog"

	"github.com/dealerbot/dealerbot/bot/errs"
	"github.com/dealerbot/dealerbot/engine"
)

// Error is the one error type players read, in the bot, the scheduler and the adapters.
type Error = errs.Error

// userErrorf is a refusal of input: a sentence saying what to do instead.
func userErrorf(format string, args ...any) error { return errs.Errorf(errs.Invalid, format, args...) }

// refusef is a refusal with its own code (not allowed, not now, too many).
func refusef(code errs.Code, format string, args ...any) error {
	return errs.Errorf(code, format, args...)
}

// apology is what a player sees when something broke on our side; the details go to the log.
const apology = errs.Apology

// errorReply turns any error into the private reply: players' errors as written, internal errors as an
// apology (logged with their context). It is the one place an error becomes a reply.
func errorReply(log *slog.Logger, err error) Reply {
	var ee *engine.Error
	switch {
	case errors.As(err, &ee):
		return Reply{Text: errs.ClipText(ee.Message, errs.MaxReply), IsError: true}
	case errors.Is(err, ErrStoreUnreachable):
		log.Warn("command failed: database out of reach", "err", err)
		return Reply{Text: "The dealer cannot reach its database, so nothing changed: please try again in a moment.", IsError: true}
	case errors.Is(err, ErrApplied):
		return Reply{Text: "That was already done: the same click or command arrived twice, and it counts once.", IsError: true}
	case errors.Is(err, ErrNotOwner), errors.Is(err, errNotServed):
		log.Info("command for a community this process does not serve", "err", err)
		return Reply{Text: "This server's tables are being moved to another dealer process, so nothing changed: please try again in a few seconds.", IsError: true}
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return Reply{Text: "The dealer is busy or shutting down and nothing changed: please try again.", IsError: true}
	}
	text, internal := errs.Reply(err)
	if internal {
		log.Error("command failed", "err", err)
	}
	return Reply{Text: text, IsError: true}
}
