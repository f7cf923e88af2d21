package postgres

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/dealerbot/dealerbot/bot/money"
	"github.com/dealerbot/dealerbot/bot/table"
	"github.com/dealerbot/dealerbot/storage/record"
)

// encodeMoney marshals events for money_events; their Seq is the row's.
func encodeMoney(community string, evs []money.Event) ([][]byte, error) {
	out := make([][]byte, len(evs))
	for i, e := range evs {
		if e.Community != community {
			return nil, fmt.Errorf("money event for %q in the book of %q", e.Community, community)
		}
		e.Seq = 0
		data, err := json.Marshal(e)
		if err != nil {
			return nil, err
		}
		out[i] = data
	}
	return out, nil
}

// insertMoney numbers recs on from the head the UPDATE ... RETURNING in its WITH gives.
const insertMoney = `INSERT INTO money_events (community, seq, rec)
	SELECT $1, h.base + t.ord, t.rec FROM h, unnest($3::bytea[]) WITH ORDINALITY AS t(rec, ord)`

// queueMoney queues a Change's money events, which fail the transaction (bot.ErrMoneyMoved) unless
// their book's newest event is still after.
func queueMoney(b *pgx.Batch, evs []money.Event, after uint64) error {
	if len(evs) == 0 {
		return nil
	}
	community := evs[0].Community
	recs, err := encodeMoney(community, evs)
	if err != nil {
		return err
	}
	b.Queue("SELECT dealerbot_money_head($1, $2)", community, int64(after))
	b.Queue(`WITH h AS (UPDATE money_heads SET seq = seq + $2 WHERE community = $1 RETURNING seq - $2 AS base) `+insertMoney,
		community, int64(len(recs)), recs)
	return nil
}

// AppendMoney appends evs to community's book when its newest event is after.
func (d *DB) AppendMoney(ctx context.Context, community string, after uint64, evs []money.Event) error {
	if len(evs) == 0 {
		return nil
	}
	recs, err := encodeMoney(community, evs)
	if err != nil {
		return err
	}
	// One batch, one round trip: the book's head is checked and moved, the request's key recorded
	// (applied once), the events written.
	var b pgx.Batch
	b.Queue("SELECT dealerbot_money_head($1, $2)", community, int64(after))
	queueOnce(&b, evs[0].Key)
	b.Queue(`WITH h AS (UPDATE money_heads SET seq = seq + $2 WHERE community = $1 RETURNING seq - $2 AS base) `+insertMoney,
		community, int64(len(recs)), recs)
	br := d.pool.SendBatch(ctx, &b)
	var tag pgconn.CommandTag
	for i := 0; i < b.Len() && err == nil; i++ {
		tag, err = br.Exec()
	}
	if cerr := br.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return d.wrapWrite("append money", err)
	}
	if tag.RowsAffected() != int64(len(recs)) {
		return fmt.Errorf("append money: %d of %d events written", tag.RowsAffected(), len(recs))
	}
	return nil
}

// MoneyBook returns community's book in order.
func (d *DB) MoneyBook(ctx context.Context, community string) ([]money.Event, error) {
	rows, err := d.pool.Query(ctx, "SELECT seq, rec FROM money_events WHERE community = $1 ORDER BY seq", community)
	if err != nil {
		return nil, d.wrap("load the money book", err)
	}
	defer rows.Close()
	var out []money.Event
	for rows.Next() {
		var seq int64
		var rec []byte
		if err := rows.Scan(&seq, &rec); err != nil {
			return nil, d.wrap("load the money book", err)
		}
		var e money.Event
		if err := json.Unmarshal(rec, &e); err != nil {
			return nil, fmt.Errorf("money event %s/%d: %w", community, seq, err)
		}
		e.Seq = uint64(seq)
		out = append(out, e)
	}
	return out, d.wrap("load the money book", rows.Err())
}

// MoneyCommunities returns the communities with a book.
func (d *DB) MoneyCommunities(ctx context.Context) ([]string, error) {
	rows, err := d.pool.Query(ctx, "SELECT community FROM money_heads WHERE seq > 0 ORDER BY community")
	if err != nil {
		return nil, d.wrap("load money communities", err)
	}
	out, err := pgx.CollectRows(rows, pgx.RowTo[string])
	return out, d.wrap("load money communities", err)
}

// SetHandle saves or (zero h) removes a player's payment handle.
func (d *DB) SetHandle(ctx context.Context, community, user string, h money.Handle) error {
	if h.IsZero() {
		_, err := d.pool.Exec(ctx, "DELETE FROM payment_handles WHERE community = $1 AND user_id = $2", community, user)
		return d.wrapWrite("clear payment handle", err)
	}
	data, err := json.Marshal(h)
	if err != nil {
		return err
	}
	_, err = d.pool.Exec(ctx, `INSERT INTO payment_handles (community, user_id, rec) VALUES ($1, $2, $3)
		ON CONFLICT (community, user_id) DO UPDATE SET rec = excluded.rec`, community, user, data)
	return d.wrapWrite("save payment handle", err)
}

// Handles returns a community's payment handles by user.
func (d *DB) Handles(ctx context.Context, community string) (map[string]money.Handle, error) {
	rows, err := d.pool.Query(ctx, "SELECT user_id, rec FROM payment_handles WHERE community = $1", community)
	if err != nil {
		return nil, d.wrap("load payment handles", err)
	}
	defer rows.Close()
	out := map[string]money.Handle{}
	for rows.Next() {
		var user string
		var rec []byte
		if err := rows.Scan(&user, &rec); err != nil {
			return nil, d.wrap("load payment handles", err)
		}
		var h money.Handle
		if err := json.Unmarshal(rec, &h); err != nil {
			return nil, fmt.Errorf("payment handle %s/%s: %w", community, user, err)
		}
		out[user] = h
	}
	return out, d.wrap("load payment handles", rows.Err())
}

// EachHandOf calls fn with every finished hand of the tables whose ID starts with prefix, table by
// table in hand order, read in batches.
func (d *DB) EachHandOf(ctx context.Context, prefix string, fn func(table.HandRecord) error) error {
	return d.eachHand(ctx, prefix, fn)
}

// copyMoney copies the money books (with each book's newest number) and the payment handles.
func (d *DB) copyMoney(ctx context.Context, tx pgx.Tx, s record.Snapshot) error {
	var rows [][]any
	heads := map[string]int64{}
	var order []string
	for _, m := range s.Money {
		seq, err := signed("money event", m.Seq)
		if err != nil {
			return err
		}
		rows = append(rows, []any{m.Community, seq, m.Rec})
		if _, ok := heads[m.Community]; !ok {
			order = append(order, m.Community)
		}
		heads[m.Community] = max(heads[m.Community], seq)
	}
	if err := d.copyRows(ctx, tx, "money_events", []string{"community", "seq", "rec"}, rows); err != nil {
		return err
	}
	rows = rows[:0]
	for _, c := range order {
		rows = append(rows, []any{c, heads[c]})
	}
	if err := d.copyRows(ctx, tx, "money_heads", []string{"community", "seq"}, rows); err != nil {
		return err
	}
	rows = rows[:0]
	for _, h := range s.Handles {
		rows = append(rows, []any{h.Community, h.User, h.Rec})
	}
	return d.copyRows(ctx, tx, "payment_handles", []string{"community", "user_id", "rec"}, rows)
}
