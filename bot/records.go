package bot

import "github.com/dealerbot/dealerbot/bot/table"

// The records the Store keeps and the table core (package table) works on. They are defined with the
// core; the names here are the ones storage, the adapters and the tests have always used.
type (
	Change        = table.Change
	LedgerEntry   = table.LedgerEntry
	PlayerRecord  = table.PlayerRecord
	SeatRecord    = table.SeatRecord
	HandState     = table.HandState
	ActionLog     = table.ActionLog
	Standing      = table.Standing
	TableRecord   = table.TableRecord
	Tournament    = table.Tournament
	Entry         = table.Entry
	HandRecord    = table.HandRecord
	SessionRecord = table.SessionRecord
	Screen        = table.Screen
	Settings      = table.Settings
	Eliminated    = table.Eliminated
	Placing       = table.Placing
)

// Ledger entry kinds (table.KindGrant and the others).
const (
	KindGrant   = table.KindGrant
	KindAdjust  = table.KindAdjust
	KindBuyIn   = table.KindBuyIn
	KindRebuy   = table.KindRebuy
	KindResult  = table.KindResult
	KindCashOut = table.KindCashOut
	KindPrize   = table.KindPrize
)

// DefaultSettings is what a bare `start` opens (table.DefaultSettings).
func DefaultSettings() Settings { return table.DefaultSettings() }

// DefaultPayouts are the prize percentages by entrants (table.DefaultPayouts).
func DefaultPayouts(entrants int) []int { return table.DefaultPayouts(entrants) }

// Prizes splits a pool by percentages (table.Prizes).
func Prizes(pool int64, percents []int) ([]int64, error) { return table.Prizes(pool, percents) }

// PlaceEliminated places the players eliminated in one hand (table.PlaceEliminated).
func PlaceEliminated(prizes []int64, best int, out []Eliminated) []Placing {
	return table.PlaceEliminated(prizes, best, out)
}
