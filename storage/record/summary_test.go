package record

import (
	"context"
	"errors"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/dealerbot/dealerbot/bot"
	"github.com/dealerbot/dealerbot/bot/table"
)

// sample is a small snapshot with a record of most kinds and two finished hands.
func sample() Snapshot {
	hands := []RawHand{{Table: "t", No: 1, Rec: []byte{1, 2}}, {Table: "t", No: 1, Kept: 1, Rec: []byte{3}}}
	return Snapshot{
		Players:       []table.PlayerRecord{{Workspace: "w", User: "a", Bankroll: 5}, {Workspace: "w", User: "b"}},
		Ledger:        []LedgerRecord{{Seq: 1, Rec: []byte("x")}, {Seq: 2, Rec: []byte("y")}},
		Tables:        []RawTable{{ID: "t", Community: "console/w", Rec: []byte("{}")}},
		Sessions:      []RawSession{{Seq: 1, Rec: []byte("{}")}},
		RSVPs:         []RawRSVP{{Schedule: 1, Game: 2, User: "a", Rec: []byte("{}")}},
		Money:         []RawMoney{{Community: "console/w", Seq: 1, Rec: []byte("{}")}},
		Installations: []bot.Installation{{Platform: "slack", Workspace: "T1", Installed: time.Date(2026, 1, 2, 3, 4, 5, 6789, time.UTC)}},
		DMChannels:    []DMChannel{{Platform: "discord", User: "1", Channel: "2"}},
		Hands: func(ctx context.Context, fn func(RawHand) error) error {
			for _, h := range hands {
				if err := fn(h); err != nil {
					return err
				}
			}
			return nil
		},
	}
}

// TestSummarize: the same records in another order sum up alike, every kind is listed (empty ones
// too), and a change in any one record is named by SumsDiffer; an error reading the hands is
// returned.
func TestSummarize(t *testing.T) {
	ctx := context.Background()
	a, err := Summarize(ctx, sample(), Counts{Players: 2}, Totals{Bankrolls: 5}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Sums) != len(SumKinds) || a.Sums["players"].N != 2 || a.Sums["finished hands"].N != 2 || a.Sums["results"] != (Sum{}) {
		t.Fatalf("sums %+v", a.Sums)
	}
	if a.Counts.Players != 2 || a.Totals.Bankrolls != 5 {
		t.Fatalf("summary %+v", a)
	}

	s := sample()
	slices.Reverse(s.Players)
	slices.Reverse(s.Ledger)
	// PostgreSQL keeps an installation's time to the microsecond, and no scopes as none.
	s.Installations[0].Installed = s.Installations[0].Installed.Truncate(time.Microsecond)
	s.Installations[0].Scopes = []string{}
	b, err := Summarize(ctx, s, Counts{}, Totals{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if d := SumsDiffer(a, b); d != nil {
		t.Fatalf("the same records in another order differ in %v", d)
	}

	s = sample()
	s.Players[1].Name = "Bob"
	s.DMChannels[0].Channel = "3"
	c, err := Summarize(ctx, s, Counts{}, Totals{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if d := SumsDiffer(a, c); !reflect.DeepEqual(d, []string{"players", "DM channels"}) {
		t.Fatalf("SumsDiffer named %v, want players and DM channels", d)
	}

	s = sample()
	broken := errors.New("the hands cannot be read")
	s.Hands = func(context.Context, func(RawHand) error) error { return broken }
	if _, err := Summarize(ctx, s, Counts{}, Totals{}, nil); !errors.Is(err, broken) {
		t.Fatalf("Summarize with hands that cannot be read: %v", err)
	}
}
