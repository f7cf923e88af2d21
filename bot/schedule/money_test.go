package schedule

import (
	"strings"
	"testing"
	"time"
)

// A game played for money had its settle-up posted in money by the dealer: the results message
// leaves the chip settle-up out and says where it is.
func TestResultMessageForMoney(t *testing.T) {
	r := Result{Game: time.Date(2026, 3, 6, 20, 0, 0, 0, time.UTC), Players: balances("alice", 300, "bob", -300)}
	if got := ResultMessage(r, time.UTC); !strings.Contains(got, "• bob pays alice 300") {
		t.Fatalf("a chip game's results: %s", got)
	}
	r.Money = true
	got := ResultMessage(r, time.UTC)
	if strings.Contains(got, "pays") || !strings.Contains(got, "Settle-up: posted in money") || !strings.Contains(got, "1. alice +300") {
		t.Fatalf("a money game's results: %s", got)
	}
	if !forMoney([]string{"blinds=5/10", "value=0.01", "currency=USD"}) || forMoney([]string{"value=off"}) || forMoney(nil) {
		t.Error("forMoney misreads the options")
	}
}
