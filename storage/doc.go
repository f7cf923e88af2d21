// Package storage keeps the dealer's state in one bbolt file: it implements bot.Store.
//
// # Basics
//
// Open the file with Open; a second process (or a second Open in this one) waits at most
// OpenTimeout for the file lock and then fails instead of hanging. Every method is one bbolt
// transaction: Commit applies a whole table.Change (table state, ledger entries, a finished hand, a
// finished session) or none of it. A commit is on disk (fsync) when Commit returns.
//
// Buckets: "players" (workspace\x00user -> JSON table.PlayerRecord), "ledger" (big-endian sequence ->
// one event's entries in the binary form of package storage/record, append-only), "tables" (table ID
// -> JSON table.TableRecord, including the hand in progress), "actions" (table ID -> JSON
// table.ActionLog, the running hand's actions, rewritten on each action so that an action writes a
// few bytes rather than the whole table), "hands" (table ID\x00big-endian hand number -> the hand in
// record's binary form) and "sessions" (sequence -> JSON table.SessionRecord). Hands and ledger
// events that older versions wrote as JSON still read.
//
// Backup writes a consistent copy of the whole file while the dealer keeps running.
//
// Snapshot reads every record as stored, as a record.Snapshot (the form both stores share), for
// copying into another store (`dealerbot migrate` into PostgreSQL); Import writes one into an empty
// file (`dealerbot backup` from PostgreSQL). Summary sums a store up (counts, chip totals, a checksum
// of every record of each kind, record.Summarize), so that a copy is compared with its original
// whichever way it goes.
//
// # Caveats
//
// Commits are written by one goroutine: a change that arrives while the disk is idle is written at
// once; changes that arrive while a transaction is being synced are written together in the next one
// (group commit, like bbolt's DB.Batch but without its fixed delay, which under steady load closed
// batches of one or two). When one change of a group fails (ErrInsufficient), the group is rolled
// back and each change is written alone, so a change may be applied twice in rolled-back
// transactions; apply only writes inside its transaction, so that is harmless.
//
// The file is opened with a 256 MiB initial memory map (growing the map blocks every transaction).
// The free list is synced with every commit: not syncing it would save a little per commit but make
// every open walk the whole file to rebuild it (1.2 s for a million hands).
//
// The ledger balances by construction: Commit refuses a change that would take a bankroll below
// zero, and only grants and adjustments add chips. Balance checks the invariant over the whole file
// (record.Tally, which judges the PostgreSQL store alike).
package storage
