package record

import (
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/dealerbot/dealerbot/bot/table"
)

// TestTally: chips granted, bought in and held by a table balance; a table holding chips the ledger
// does not put there, a negative bankroll and a sum out of int64's range are each refused.
func TestTally(t *testing.T) {
	at := time.Date(2026, 12, 1, 20, 0, 0, 0, time.UTC)
	ledger := []LedgerRecord{
		{Seq: 1, Rec: EncodeLedger([]table.LedgerEntry{{Time: at, Kind: table.KindGrant, Workspace: "w", User: "a", Bankroll: 1000}})},
		{Seq: 2, Rec: EncodeLedger([]table.LedgerEntry{{Time: at, Kind: table.KindBuyIn, Workspace: "w", User: "a", Table: "t", Bankroll: -400, OnTable: 400}})},
	}
	players := []table.PlayerRecord{{Workspace: "w", User: "a", Bankroll: 600, OnTable: 400, Granted: 1000}}
	tables := []table.TableRecord{{ID: "t", Workspace: "w", Seats: []table.SeatRecord{{User: "a", Stack: 400}}}}
	got, err := Tally(ledger, players, tables)
	if want := (Totals{BroughtIn: 1000, Bankrolls: 600, OnTables: 400, Stacks: 400, LedgerSum: 1000}); err != nil || got != want {
		t.Fatalf("Tally: %+v, %v; want %+v", got, err, want)
	}

	more := []table.TableRecord{tables[0], {ID: "u", Workspace: "w", Seats: []table.SeatRecord{{User: "a", Stack: 50}}}}
	if _, err := Tally(ledger, players, more); err == nil || !strings.Contains(err.Error(), "does not balance") {
		t.Fatalf("a table holding chips the ledger did not put there: %v", err)
	}
	negative := []table.PlayerRecord{{Workspace: "w", User: "a", Bankroll: -1, OnTable: 400}}
	if _, err := Tally(ledger, negative, tables); err == nil {
		t.Fatal("a negative bankroll was let through")
	}
	huge := append(ledger, LedgerRecord{Seq: 3, Rec: EncodeLedger([]table.LedgerEntry{{Time: at, Kind: table.KindGrant, Workspace: "w", User: "a", Bankroll: math.MaxInt64}})})
	if _, err := Tally(huge, players, tables); !errors.Is(err, ErrOverflow) {
		t.Fatalf("a sum beyond int64: %v, want ErrOverflow", err)
	}
	if _, err := Tally([]LedgerRecord{{Seq: 1, Rec: []byte{0x7f}}}, nil, nil); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("an unreadable ledger record: %v, want ErrCorrupt", err)
	}
}
