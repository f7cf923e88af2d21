// Package features lists what the dealer does beside its tables, each feature's verbs from its own
// package, for the dealer's one registry. The dealer knows no feature by name: cmd/dealerbot wires
// this list into bot.New (With), and the tests wire the same list.
package features

import (
	"github.com/dealerbot/dealerbot/bot"
	"github.com/dealerbot/dealerbot/bot/ledger"
	"github.com/dealerbot/dealerbot/bot/schedule"
	"github.com/dealerbot/dealerbot/bot/stats"
	"github.com/dealerbot/dealerbot/bot/vocab"
)

// Verbs returns every feature's verbs, for a dealer on store configured by cfg.
func Verbs(store bot.Store, cfg bot.Config) []vocab.Verbs {
	desk := &schedule.Desk{} // served by NewScheduler's manager
	st := stats.New(store)   // one cache of the finished sessions' figures for stats and the season's chart
	return []vocab.Verbs{
		ledger.Verbs(store, cfg.NewBankroll()),
		st.Verbs(),
		desk.Verbs(st.SeasonChart),
	}
}

// With returns cfg with every feature's verbs (Verbs) added to its own.
func With(store bot.Store, cfg bot.Config) bot.Config {
	cfg.Verbs = append(Verbs(store, cfg), cfg.Verbs...)
	return cfg
}
