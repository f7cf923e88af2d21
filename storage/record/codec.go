package record

import (
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/dealerbot/dealerbot/bot/table"
	"github.com/dealerbot/dealerbot/engine"
)

// Finished hands and ledger entries are most of what a database holds after a year, so they are
// stored in a compact binary form instead of JSON: a hand is its setup and action list (the deck as
// 52 bytes, amounts as varints), a few hundred bytes; a hand's result entries share one ledger record.
// Everything else a hand shows (PHH, exports, the narration) is rendered from it by replay. Records
// written as JSON by earlier versions are still read (the bbolt store converts its old hands when it
// opens a file).

const (
	formatHand      = 0x01 // a binary hand record; JSON records begin with '{'
	formatLedger    = 0x01 // a binary ledger record of one entry
	formatLedgerSet = 0x02 // a binary ledger record of entries that share time, kind, table and hand
)

// formatHandTournament is a binary hand record of a tournament hand: a formatHand record's fields
// followed by the tournament's (writeTournament). A cash-game hand is still written as formatHand,
// byte for byte as before, and every record of either form reads back.
const formatHandTournament = 0x02

// ErrCorrupt is wrapped in the error of a record, or a key, whose bytes cannot be read.
var ErrCorrupt = errors.New("a stored record cannot be read")

type writer struct{ b []byte }

func (w *writer) u(v uint64) { w.b = binary.AppendUvarint(w.b, v) }
func (w *writer) i(v int64)  { w.b = binary.AppendVarint(w.b, v) }
func (w *writer) s(v string) { w.u(uint64(len(v))); w.b = append(w.b, v...) }

type reader struct {
	b   []byte
	err error
}

func (r *reader) u() uint64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.err = ErrCorrupt
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *reader) i() int64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Varint(r.b)
	if n <= 0 {
		r.err = ErrCorrupt
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *reader) raw(n int) []byte {
	if r.err != nil || n < 0 || n > len(r.b) {
		r.err = ErrCorrupt
		return nil
	}
	p := r.b[:n]
	r.b = r.b[n:]
	return p
}

func (r *reader) s() string { return string(r.raw(int(min(r.u(), uint64(len(r.b)+1))))) }

// count reads a length that must fit in what is left, so a damaged record cannot ask for a huge slice.
func (r *reader) count(each int) int {
	n := r.u()
	if r.err == nil && n > uint64(len(r.b)/max(each, 1)) {
		r.err = ErrCorrupt
	}
	if r.err != nil {
		return 0
	}
	return int(n)
}

// EncodeHand writes a hand compactly. The table and hand number are not written: each store keeps
// them in the record's key (bbolt) or columns (PostgreSQL).
func EncodeHand(h table.HandRecord) []byte {
	w := &writer{b: make([]byte, 0, 320)}
	if h.Tournament != nil {
		w.b = append(w.b, formatHandTournament)
	} else {
		w.b = append(w.b, formatHand)
	}
	w.i(h.Time.UnixNano())
	n := len(h.Stacks)
	w.u(uint64(n))
	at := func(s []string, p int) string {
		if p < len(s) {
			return s[p]
		}
		return ""
	}
	for p := 0; p < n; p++ {
		w.s(at(h.Names, p))
		w.s(at(h.Users, p))
		seat := 0
		if p < len(h.Seats) {
			seat = h.Seats[p]
		}
		w.u(uint64(seat))
		w.i(h.Stacks[p])
		var final int64
		if p < len(h.Final) {
			final = h.Final[p]
		}
		w.i(final)
	}
	r := h.Rules
	flags := uint64(0)
	for bit, on := range []bool{r.BigBlindAnte, h.Straddle, h.RunTwice, len(h.Posts) > 0} {
		if on {
			flags |= 1 << bit
		}
	}
	// The game shares the variant's number (its bits 4 and up): Hold'em, game 0, writes what it
	// wrote before games existed, and records written then read as Hold'em.
	w.u(uint64(r.Variant) | uint64(r.Game)<<4)
	w.u(flags)
	for _, v := range []int64{r.SmallBlind, r.BigBlind, r.Ante, r.MinBet, r.SmallBet, r.BigBet, r.Chip} {
		w.i(v)
	}
	w.u(uint64(h.Button))
	w.u(uint64(h.Size))
	for _, c := range h.Deck {
		w.b = append(w.b, byte(c))
	}
	if salt, err := hex.DecodeString(h.Salt); err == nil && hex.EncodeToString(salt) == h.Salt {
		w.u(1)
		w.s(string(salt))
	} else {
		w.u(0)
		w.s(h.Salt)
	}
	w.u(uint64(h.Proof))
	w.i(h.BombPot)
	if len(h.Posts) > 0 { // flag 8: missed blinds posted, one live and dead pair per player
		for p := 0; p < n; p++ {
			var po engine.Post
			if p < len(h.Posts) {
				po = h.Posts[p]
			}
			w.i(po.Live)
			w.i(po.Dead)
		}
	}
	w.u(uint64(len(h.Actions)))
	for _, a := range h.Actions {
		w.u(uint64(a.Player)<<3 | uint64(a.Kind))
		w.i(a.Amount)
	}
	if t := h.Tournament; t != nil {
		writeTournament(w, t)
	}
	return w.b
}

// writeTournament writes a tournament hand's tournament fields, after the hand's own.
func writeTournament(w *writer, t *table.TournamentHand) {
	w.i(t.Began.UnixNano())
	w.i(t.BuyIn)
	w.i(t.Stack)
	w.u(uint64(t.Level))
	w.u(uint64(t.LevelMinutes))
	rebuys := uint64(0)
	if t.Rebuys {
		rebuys = 1
	}
	w.u(rebuys)
	w.u(uint64(len(t.Finishes)))
	for _, f := range t.Finishes {
		w.u(uint64(f.Player))
		w.u(uint64(f.Place))
		w.i(f.Prize)
	}
}

// readTournament reads what writeTournament wrote.
func readTournament(r *reader) *table.TournamentHand {
	t := &table.TournamentHand{Began: time.Unix(0, r.i()).UTC(), BuyIn: r.i(), Stack: r.i(), Level: int(r.u()), LevelMinutes: int(r.u())}
	t.Rebuys = r.u() == 1
	n := r.count(3)
	if n > 0 {
		t.Finishes = make([]table.Finish, n)
	}
	for i := range t.Finishes {
		t.Finishes[i] = table.Finish{Player: int(r.u()), Place: int(r.u()), Prize: r.i()}
	}
	return t
}

// DecodeHand reads a hand stored by EncodeHand, or as JSON by an earlier version.
func DecodeHand(tableID string, no int64, v []byte) (table.HandRecord, error) {
	var h table.HandRecord
	if len(v) > 0 && v[0] == '{' {
		err := json.Unmarshal(v, &h)
		return h, err
	}
	if len(v) == 0 || v[0] != formatHand && v[0] != formatHandTournament {
		return h, ErrCorrupt
	}
	r := &reader{b: v[1:]}
	h.Table, h.No = tableID, no
	h.Time = time.Unix(0, r.i()).UTC()
	n := r.count(5)
	if n > engine.MaxPlayers {
		return h, ErrCorrupt
	}
	h.Names, h.Users, h.Seats = make([]string, n), make([]string, n), make([]int, n)
	h.Stacks, h.Final = make([]int64, n), make([]int64, n)
	for p := 0; p < n; p++ {
		h.Names[p], h.Users[p] = r.s(), r.s()
		h.Seats[p] = int(r.u())
		h.Stacks[p], h.Final[p] = r.i(), r.i()
	}
	vg := r.u()
	h.Rules.Variant, h.Rules.Game = engine.Variant(vg&15), engine.Game(vg>>4)
	flags := r.u()
	h.Rules.BigBlindAnte, h.Straddle, h.RunTwice = flags&1 != 0, flags&2 != 0, flags&4 != 0
	for _, f := range []*int64{&h.Rules.SmallBlind, &h.Rules.BigBlind, &h.Rules.Ante, &h.Rules.MinBet, &h.Rules.SmallBet, &h.Rules.BigBet, &h.Rules.Chip} {
		*f = r.i()
	}
	h.Button = int(r.u())
	h.Size = int(r.u())
	for i, c := range r.raw(52) {
		h.Deck[i] = engine.Card(c)
	}
	if r.u() == 1 {
		h.Salt = hex.EncodeToString([]byte(r.s()))
	} else {
		h.Salt = r.s()
	}
	h.Proof = int(r.u())
	h.BombPot = r.i()
	if flags&8 != 0 {
		h.Posts = make([]engine.Post, n)
		for p := range h.Posts {
			h.Posts[p] = engine.Post{Live: r.i(), Dead: r.i()}
		}
	}
	acts := r.count(2)
	h.Actions = make([]engine.Action, acts)
	for i := range h.Actions {
		pk := r.u()
		h.Actions[i] = engine.Action{Player: int(pk >> 3), Kind: engine.ActionKind(pk & 7), Amount: r.i()}
	}
	if v[0] == formatHandTournament {
		h.Tournament = readTournament(r)
	}
	if r.err != nil {
		return h, fmt.Errorf("hand %d of %s: %w", no, tableID, r.err)
	}
	return h, nil
}

// ledger kinds by number, for the binary form.
var ledgerKinds = []string{table.KindGrant, table.KindAdjust, table.KindBuyIn, table.KindRebuy, table.KindResult, table.KindCashOut}

func kindNo(k string) uint64 {
	for i, name := range ledgerKinds {
		if name == k {
			return uint64(i)
		}
	}
	return uint64(len(ledgerKinds)) // unknown: written out by name
}

// SameEvent reports whether two entries can share a ledger record.
func SameEvent(a, b table.LedgerEntry) bool {
	return a.Time.Equal(b.Time) && a.Kind == b.Kind && a.Workspace == b.Workspace && a.Table == b.Table && a.HandNo == b.HandNo
}

// EncodeLedger writes entries that share time, kind, workspace, table and hand as one record.
func EncodeLedger(es []table.LedgerEntry) []byte {
	w := &writer{b: make([]byte, 0, 64+32*len(es))}
	first := es[0]
	if len(es) == 1 {
		w.b = append(w.b, formatLedger)
	} else {
		w.b = append(w.b, formatLedgerSet)
	}
	w.i(first.Time.UnixNano())
	k := kindNo(first.Kind)
	w.u(k)
	if k == uint64(len(ledgerKinds)) {
		w.s(first.Kind)
	}
	w.s(first.Workspace)
	w.s(first.Table)
	w.i(first.HandNo)
	if len(es) > 1 {
		w.u(uint64(len(es)))
	}
	for _, e := range es {
		w.s(e.User)
		w.s(e.Name)
		w.i(e.Bankroll)
		w.i(e.OnTable)
	}
	return w.b
}

// DecodeLedger reads a ledger record: one entry or several (binary), or one JSON entry.
func DecodeLedger(seq uint64, v []byte) ([]table.LedgerEntry, error) {
	if len(v) > 0 && v[0] == '{' {
		var e table.LedgerEntry
		err := json.Unmarshal(v, &e)
		return []table.LedgerEntry{e}, err
	}
	if len(v) == 0 || (v[0] != formatLedger && v[0] != formatLedgerSet) {
		return nil, ErrCorrupt
	}
	r := &reader{b: v[1:]}
	head := table.LedgerEntry{Seq: seq, Time: time.Unix(0, r.i()).UTC()}
	if k := r.u(); k < uint64(len(ledgerKinds)) {
		head.Kind = ledgerKinds[k]
	} else {
		head.Kind = r.s()
	}
	head.Workspace, head.Table, head.HandNo = r.s(), r.s(), r.i()
	n := 1
	if v[0] == formatLedgerSet {
		n = r.count(4)
	}
	out := make([]table.LedgerEntry, n)
	for i := range out {
		e := head
		e.User, e.Name, e.Bankroll, e.OnTable = r.s(), r.s(), r.i(), r.i()
		out[i] = e
	}
	if r.err != nil {
		return nil, fmt.Errorf("ledger record %d: %w", seq, r.err)
	}
	return out, nil
}
