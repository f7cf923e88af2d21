// Package storage keeps the dealer's state in one bbolt file: it implements bot.Store.
//
// # Basics
//
// Open the file with Open; a second process (or a second Open in this one) waits at most
// OpenTimeout for the file lock and then fails instead of hanging. Every method is one bbolt
// transaction: Commit applies a whole bot.Change (table state, ledger entries, a finished hand, a
// finished session) or none of it. A commit is on disk (fsync) when Commit returns.
//
// Buckets: "players" (workspace\x00user -> JSON bot.PlayerRecord), "ledger" (big-endian sequence ->
// JSON bot.LedgerEntry, append-only), "tables" (table ID -> JSON bot.TableRecord, including the hand in
// progress), "hands" (table ID\x00big-endian hand number -> JSON bot.HandRecord) and "sessions"
// (sequence -> JSON bot.SessionRecord).
//
// Backup writes a consistent copy of the whole file while the dealer keeps running.
//
// # Caveats
//
// When several goroutines commit at once (many tables), commits are coalesced with bbolt's
// DB.Batch, which may run a change twice; Commit's function only writes inside the transaction, so a
// rerun is harmless. A lone commit uses DB.Update and does not wait for company.
//
// The ledger balances by construction: Commit refuses a change that would take a bankroll below
// zero, and only grants and adjustments add chips. Balance checks the invariant over the whole file.
package storage
