// Package features lists what the dealer does beside its tables, each feature's verbs from its own
// package, for the dealer's one registry. The dealer knows no feature by name: cmd/dealerbot wires
// this list into bot.New (With), and the tests wire the same list.
package features

import (
	"github.com/dealerbot/dealerbot/bot"
	"github.com/dealerbot/dealerbot/bot/money"
	"github.com/dealerbot/dealerbot/bot/vocab"
)

// Verbs returns every feature's verbs, for a dealer on store configured by cfg.
func Verbs(store bot.Store, cfg bot.Config) []vocab.Verbs {
	return []vocab.Verbs{
		money.Verbs(store, moneyTables{store}), // payment, debts, paid, expense, export money, set, help money
	}
}

// With returns cfg with every feature's verbs (Verbs) added to its own.
func With(store bot.Store, cfg bot.Config) bot.Config {
	cfg.Verbs = append(Verbs(store, cfg), cfg.Verbs...)
	return cfg
}
