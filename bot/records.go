package bot

import "github.com/dealerbot/dealerbot/bot/table"

// The records the Store keeps and the table core (package table) works on. They are defined with the
// core; the names here are the ones storage, the adapters and the tests have always used.
type (
	Change       = table.Change
	LedgerEntry  = table.LedgerEntry
	PlayerRecord = table.PlayerRecord
	SeatRecord   = table.SeatRecord
	HandState    = table.HandState
	ActionLog    = table.ActionLog
	Standing     = table.Standing
	TableRecord  = table.TableRecord
	Tournament   = table.Tournament
	Entry        = table.Entry
	HandRecord   = table.HandRecord
	// TournamentHand and Finish are a tournament hand's record of its tournament.
	TournamentHand = table.TournamentHand
	Finish         = table.Finish
	SessionRecord  = table.SessionRecord
	Screen         = table.Screen
	Settings       = table.Settings
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
