package record

// Summary is how `dealerbot migrate` (bbolt into PostgreSQL) and `dealerbot backup` (PostgreSQL
// into a bbolt file) check a copy: the counts and chip totals each store reads its own way, and a
// checksum of every record of each kind, which any difference in any record changes.

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"time"

	"github.com/dealerbot/dealerbot/bot"
)

// Summary sums up a database for comparison with its copy.
type Summary struct {
	Counts  Counts
	Totals  Totals
	Balance error // what Balance said of the ledger; nil when it balances
	// Sums holds, for each kind of record (SumKinds), how many there are and the sum of their
	// checksums: the same records in any order give the same sum.
	Sums map[string]Sum
}

// Sum is the number of records of one kind and the sum of their checksums.
type Sum struct {
	N    int
	Hash uint64
}

// SumKinds are the kinds of record Summary.Sums holds, in the order a report lists them.
var SumKinds = []string{"players", "ledger entries", "open tables", "action logs", "finished hands", "sessions",
	"schedules", "RSVPs", "results", "money events", "payment handles", "installations", "DM channels"}

// summer adds up the checksums of the records of a kind.
type summer struct {
	sums map[string]Sum
	buf  []byte
}

// add adds one record, given as its key and value fields.
func (m *summer) add(kind string, fields ...any) {
	m.buf = m.buf[:0]
	for _, f := range fields {
		switch v := f.(type) {
		case string:
			m.buf = binary.AppendUvarint(m.buf, uint64(len(v)))
			m.buf = append(m.buf, v...)
		case []byte:
			m.buf = binary.AppendUvarint(m.buf, uint64(len(v)))
			m.buf = append(m.buf, v...)
		case uint64:
			m.buf = binary.BigEndian.AppendUint64(m.buf, v)
		case int64:
			m.buf = binary.BigEndian.AppendUint64(m.buf, uint64(v))
		default:
			panic(fmt.Sprintf("summer: a field of type %T", f))
		}
	}
	h := fnv.New64a()
	h.Write(m.buf)
	s := m.sums[kind]
	s.N++
	s.Hash += h.Sum64()
	m.sums[kind] = s
}

// Summarize sums up s (reading its hands) with the counts and totals its store read.
func Summarize(ctx context.Context, s Snapshot, n Counts, t Totals, balance error) (Summary, error) {
	m := &summer{sums: map[string]Sum{}}
	for _, k := range SumKinds {
		m.sums[k] = Sum{}
	}
	for _, p := range s.Players {
		data, err := json.Marshal(p) // players are rows of columns in PostgreSQL: compare their values
		if err != nil {
			return Summary{}, err
		}
		m.add("players", p.Workspace, p.User, data)
	}
	for _, r := range s.Ledger {
		m.add("ledger entries", r.Seq, r.Rec)
	}
	for _, r := range s.Tables {
		m.add("open tables", r.ID, r.Community, r.Rec)
	}
	for _, r := range s.Actions {
		m.add("action logs", r.Table, r.Rec)
	}
	for _, r := range s.Sessions {
		m.add("sessions", r.Seq, r.Rec)
	}
	for _, r := range s.Schedules {
		m.add("schedules", r.ID, r.Community, r.Rec)
	}
	for _, r := range s.RSVPs {
		m.add("RSVPs", r.Schedule, r.Game, r.User, r.Rec)
	}
	for _, r := range s.Results {
		m.add("results", r.Schedule, r.Game, r.Rec)
	}
	for _, r := range s.Money {
		m.add("money events", r.Community, r.Seq, r.Rec)
	}
	for _, r := range s.Handles {
		m.add("payment handles", r.Community, r.User, r.Rec)
	}
	for _, in := range s.Installations {
		data, err := json.Marshal(asStored(in))
		if err != nil {
			return Summary{}, err
		}
		m.add("installations", in.Platform, in.Workspace, data)
	}
	for _, dm := range s.DMChannels {
		m.add("DM channels", dm.Platform, dm.User, dm.Channel)
	}
	if s.Hands != nil {
		err := s.Hands(ctx, func(h RawHand) error {
			m.add("finished hands", h.Table, h.No, int64(h.Kept), h.Rec)
			return nil
		})
		if err != nil {
			return Summary{}, err
		}
	}
	return Summary{Counts: n, Totals: t, Balance: balance, Sums: m.sums}, nil
}

// asStored is an installation as both stores keep it: PostgreSQL keeps its time to the
// microsecond, and no scopes as none.
func asStored(in bot.Installation) bot.Installation {
	in.Installed = in.Installed.UTC().Truncate(time.Microsecond)
	if len(in.Scopes) == 0 {
		in.Scopes = nil
	}
	return in
}

// SumsDiffer names the kinds of record whose sums differ between two summaries.
func SumsDiffer(a, b Summary) []string {
	var out []string
	for _, k := range SumKinds {
		if a.Sums[k] != b.Sums[k] {
			out = append(out, k)
		}
	}
	return out
}
