// Package record is what the two stores share of their records: the bbolt store (package storage)
// and the PostgreSQL store (storage/postgres) both import it, and it imports neither, so each store
// links only its own database.
//
// It holds the compact binary form of finished hands and ledger events (EncodeHand, DecodeHand,
// EncodeLedger, DecodeLedger), the tally that judges whether a store's chips balance (Tally, Totals,
// ErrOverflow), and a whole store's records as stored (Snapshot, Counts), which `dealerbot migrate`
// and `dealerbot backup` copy from one store into the other and check with a Summary.
package record
