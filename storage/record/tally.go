package record

// Tally is the one judge of whether a store's chips balance: each store reads its ledger records,
// players and tables in one transaction of its own and hands them here.

import (
	"errors"
	"fmt"

	"github.com/dealerbot/dealerbot/bot/table"
)

// ErrOverflow is returned when a chip sum would leave int64's range. The dealer's chip ceiling
// (engine.MaxChips) keeps every real sum far below it; a sum that wraps is refused, never stored.
var ErrOverflow = errors.New("a chip sum is out of range")

// AddChips returns a+b and whether the sum is exact (did not wrap).
func AddChips(a, b int64) (int64, bool) {
	s := a + b
	return s, (s > a) == (b > 0)
}

// Totals are the chip sums Tally adds up, which each store's Balance returns.
type Totals struct {
	BroughtIn int64 // grants and adjustments in the ledger
	Bankrolls int64 // sum of bankrolls
	OnTables  int64 // sum of players' chips on tables
	Stacks    int64 // sum of stacks over cash table records and of prize pools over tournaments
	LedgerSum int64 // sum of every entry's bankroll and table changes
}

// LedgerRecord is one stored ledger record (one event's entries, in the binary form) and its
// sequence number, as Tally reads it.
type LedgerRecord struct {
	Seq uint64
	Rec []byte
}

// Tally adds up a store's chips and reports an error when they do not balance: bankrolls + chips on
// tables must equal the chips brought in (grants and adjustments), the ledger's entries must add up
// to the same, and the tables must hold exactly the chips the ledger says each player has on them.
// Every store reads its records in one snapshot and hands them here, so both stores judge alike.
func Tally(ledger []LedgerRecord, players []table.PlayerRecord, tables []table.TableRecord) (Totals, error) {
	var t Totals
	exact := true
	add := func(sum *int64, v int64) {
		var ok bool
		*sum, ok = AddChips(*sum, v)
		exact = exact && ok
	}
	for _, r := range ledger {
		es, err := DecodeLedger(r.Seq, r.Rec)
		if err != nil {
			return t, err
		}
		for _, e := range es {
			if e.Kind == table.KindGrant || e.Kind == table.KindAdjust {
				add(&t.BroughtIn, e.Bankroll)
			}
			add(&t.LedgerSum, e.Bankroll)
			add(&t.LedgerSum, e.OnTable)
		}
	}
	for _, p := range players {
		add(&t.Bankrolls, p.Bankroll)
		add(&t.OnTables, p.OnTable)
		if p.Bankroll < 0 || p.OnTable < 0 {
			return t, fmt.Errorf("player %s/%s holds a negative amount: %+v", p.Workspace, p.User, p)
		}
	}
	// Each player's chips on tables, as the tables hold them: a step applied twice can leave the
	// totals even (a hand's results counted twice add up to nothing) but never each player's.
	held := map[[2]string]int64{}
	hold := func(workspace, user string, v int64) {
		k := [2]string{workspace, user}
		var ok bool
		held[k], ok = AddChips(held[k], v)
		exact = exact && ok
		add(&t.Stacks, v)
	}
	for _, tr := range tables {
		// During a hand the seats keep their stacks from before it; the hand's result lands with
		// its end, so the seats always hold the chips the ledger has on the table.
		for _, s := range tr.Seats {
			if s.Stack < 0 {
				return t, fmt.Errorf("table %s: a negative stack %d", tr.ID, s.Stack)
			}
			if tr.Tournament == nil {
				hold(tr.Workspace, s.User, s.Stack)
			}
		}
		// A tournament's seats hold tournament chips; the ledger's chips there are the prize pool.
		if tr.Tournament != nil {
			for _, e := range tr.Tournament.Entries {
				hold(tr.Workspace, e.User, e.Paid)
			}
		}
	}
	for _, p := range players {
		k := [2]string{p.Workspace, p.User}
		if p.OnTable != held[k] {
			return t, fmt.Errorf("ledger does not balance: %s/%s has %d chips on tables by the ledger, and the tables hold %d of theirs", p.Workspace, p.User, p.OnTable, held[k])
		}
		delete(held, k)
	}
	for k, v := range held {
		if v != 0 {
			return t, fmt.Errorf("ledger does not balance: %s/%s holds %d chips on tables and has no account", k[0], k[1], v)
		}
	}
	if !exact {
		return t, fmt.Errorf("ledger does not balance: %w (%+v)", ErrOverflow, t)
	}
	inPlay, ok := AddChips(t.Bankrolls, t.OnTables)
	if !ok || inPlay != t.BroughtIn || t.LedgerSum != t.BroughtIn || t.OnTables != t.Stacks {
		return t, fmt.Errorf("ledger does not balance: %+v", t)
	}
	return t, nil
}
