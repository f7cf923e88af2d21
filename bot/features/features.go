// Package features lists what the dealer does beside its tables, each feature's verbs from its own
// package, for the dealer's one registry. The dealer knows no feature by name: cmd/dealerbot wires
// this list into bot.New (With), and the tests wire the same list.
package features

import (
	"context"
	"log/slog"

	"github.com/dealerbot/dealerbot/bot"
	"github.com/dealerbot/dealerbot/bot/ledger"
	"github.com/dealerbot/dealerbot/bot/money"
	"github.com/dealerbot/dealerbot/bot/schedule"
	"github.com/dealerbot/dealerbot/bot/stats"
	"github.com/dealerbot/dealerbot/bot/vocab"
)

// Store is what the features keep their records in and read the dealer's from: the dealer's store,
// the hands the stats read, and the schedules. Both stores (storage and storage/postgres) are one.
type Store interface {
	bot.Store
	stats.Store
	schedule.Store
}

// With returns cfg with every feature's verbs added to its own (Config.Verbs), the channels' time
// zones their schedules' (Config.Zone), and a claimed community's due schedules fired at once
// (Config.Claimed). A new feature is one line in build.
func With(store Store, cfg bot.Config) bot.Config {
	verbs, desk := build(store, cfg)
	cfg.Verbs = append(verbs, cfg.Verbs...)
	if cfg.Zone == nil {
		cfg.Zone = desk.Zone
	}
	if cfg.Claimed == nil {
		log := cfg.Logger
		if log == nil {
			log = slog.New(slog.DiscardHandler)
		}
		// Schedules of a community that fell due while nobody served it are handled as soon as this
		// process serves it, as after a restart, not at the next minute's sweep.
		cfg.Claimed = func(community string) {
			if m := desk.Manager(); m != nil {
				go func() {
					if err := m.Tick(context.Background()); err != nil {
						log.Error("schedule tick after a claim", "community", community, "err", err)
					}
				}()
			}
		}
	}
	return cfg
}

// build makes every feature's verbs, and the schedule's desk that NewScheduler's manager serves: the
// one list of what the dealer does beside its tables.
func build(store Store, cfg bot.Config) ([]vocab.Verbs, *schedule.Desk) {
	desk := &schedule.Desk{}
	st := stats.New(store) // one cache of the finished sessions' figures for stats and the season's chart
	return []vocab.Verbs{
		ledger.Verbs(store, cfg.NewBankroll()),
		money.Verbs(store, moneyTables{store}), // payment, debts, paid, expense, export money, set, help money
		st.Verbs(),
		desk.Verbs(st.SeasonChart),
		helpVerbs(desk),
	}, desk
}
