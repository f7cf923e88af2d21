package bot

import (
	"context"
	"errors"
	"log/slog"

	"github.com/dealerbot/dealerbot/bot/errs"
	"github.com/dealerbot/dealerbot/bot/own"
)

// errorReply turns any error into the private reply: players' errors (errs.Error, and the engine's
// refusals) as written, the dealer's own conditions (no database, a repeated click, a community
// moving, shutting down) as their sentence, and internal errors as errs.Apology, logged with their
// context. It is the one place an error becomes a reply.
func errorReply(log *slog.Logger, err error) Reply {
	switch {
	case errors.Is(err, ErrOutcomeUnknown):
		log.Warn("command's outcome unknown: the database's reply was lost", "err", err)
		return Reply{Text: "I lost the database's reply, so I cannot tell yet whether that went through: type `table` in a moment to see, before you try again.", IsError: true}
	case errors.Is(err, ErrStoreUnreachable):
		log.Warn("command failed: database out of reach", "err", err)
		return Reply{Text: "The dealer cannot reach its database, so nothing changed: please try again in a moment.", IsError: true}
	case errors.Is(err, ErrStale):
		return Reply{Text: "Something changed while that was on its way, so nothing changed: type `table` to see where things stand, and try again.", IsError: true}
	case errors.Is(err, ErrApplied):
		return Reply{Text: "That was already done: the same click or command arrived twice, and it counts once.", IsError: true}
	case errors.Is(err, ErrNotOwner), errors.Is(err, own.ErrNotServed):
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
