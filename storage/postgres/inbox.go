package postgres

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/dealerbot/dealerbot/bot"
	"github.com/dealerbot/dealerbot/bot/table"
)

// The inbox: a process that receives a command for a community another process owns writes it here
// and waits for the owner's reply; NOTIFY dealerbot_inbox rings the owners' doorbell (a doorbell
// only: an owner that missed it finds the command at its next look). Commands keep their delivery
// ID, so one that arrives twice, at one process or two, is queued once (and applied once: Once).

var _ bot.Inbox = (*DB)(nil)

// Forward queues cmd (which must carry an ID) for the owner of community and waits until the owner
// answers or ctx ends (bot.ErrNoReply: the command stays queued and will still be applied).
func (d *DB) Forward(ctx context.Context, community string, cmd bot.Command) (bot.Reply, error) {
	if cmd.ID == "" {
		return bot.Reply{}, errors.New("forward a command without an ID")
	}
	data, err := json.Marshal(cmd)
	if err != nil {
		return bot.Reply{}, err
	}
	var seq int64
	err = d.pool.QueryRow(ctx, `WITH ins AS (
			INSERT INTO inbox (id, community, cmd) VALUES ($1, $2, $3) ON CONFLICT (id) DO NOTHING RETURNING seq)
		SELECT seq FROM ins UNION ALL SELECT seq FROM inbox WHERE id = $1 LIMIT 1`, cmd.ID, community, data).Scan(&seq)
	if errors.Is(err, pgx.ErrNoRows) {
		// The same delivery was queued by a transaction that committed after this statement began:
		// a new statement sees it.
		err = d.pool.QueryRow(ctx, "SELECT seq FROM inbox WHERE id = $1", cmd.ID).Scan(&seq)
	}
	if err != nil {
		return bot.Reply{}, d.wrap("forward", err)
	}
	if _, err := d.pool.Exec(ctx, "SELECT pg_notify('dealerbot_inbox', $1)", community); err != nil {
		return bot.Reply{}, d.wrap("ring the inbox", err)
	}
	wait := 2 * time.Millisecond
	var early time.Time // when a reply its step wrote was first seen
	for {
		var reply []byte
		var inCommit bool
		err := d.pool.QueryRow(ctx, "SELECT reply, in_commit FROM inbox WHERE seq = $1", seq).Scan(&reply, &inCommit)
		if err == nil && reply != nil && inCommit && (early.IsZero() || time.Since(early) < fullerReply) {
			// The step wrote its reply; the owner's fuller one (the clicked message's update, private
			// extras) follows at once unless the owner died: wait for it a little.
			if early.IsZero() {
				early = time.Now()
			}
			reply = nil
		}
		switch {
		case errors.Is(err, pgx.ErrNoRows):
			return bot.Reply{}, errors.New("the forwarded command is gone from the inbox")
		case err != nil && ctx.Err() == nil:
			return bot.Reply{}, d.wrap("wait for the owner", err)
		case err == nil && reply != nil:
			var r bot.Reply
			if err := json.Unmarshal(reply, &r); err != nil {
				return bot.Reply{}, err
			}
			return r, nil
		}
		select {
		case <-ctx.Done():
			return bot.Reply{}, bot.ErrNoReply
		case <-time.After(wait):
		}
		wait = min(2*wait, 20*time.Millisecond)
	}
}

// Pending returns the unanswered commands for the given communities, oldest first.
func (d *DB) Pending(ctx context.Context, communities []string) ([]bot.Forwarded, error) {
	if len(communities) == 0 {
		return nil, nil
	}
	rows, err := d.pool.Query(ctx, `SELECT seq, cmd, extract(epoch FROM now() - created_at) FROM inbox
		WHERE reply IS NULL AND community = ANY($1) ORDER BY seq LIMIT 500`, communities)
	if err != nil {
		return nil, d.wrap("read the inbox", err)
	}
	defer rows.Close()
	var out []bot.Forwarded
	for rows.Next() {
		var f bot.Forwarded
		var data []byte
		var age float64
		if err := rows.Scan(&f.Seq, &data, &age); err != nil {
			return nil, d.wrap("read the inbox", err)
		}
		f.Age = time.Duration(age * float64(time.Second))
		if err := json.Unmarshal(data, &f.Cmd); err != nil {
			return nil, err
		}
		out = append(out, f)
	}
	return out, d.wrap("read the inbox", rows.Err())
}

// Answer stores the owner's reply to a forwarded command, under the fence ctx carries, and drops the
// command's interaction token (Followup): nothing needs it once the command is answered.
func (d *DB) Answer(ctx context.Context, seq int64, r bot.Reply) error {
	data, err := json.Marshal(r)
	if err != nil {
		return err
	}
	var b pgx.Batch
	queueFence(&b, table.FenceFrom(ctx))
	b.Queue(answerSQL+answerReplaces, seq, data, false) // a reply its step wrote may be replaced by the fuller one
	return d.wrap("answer", d.pool.SendBatch(ctx, &b).Close())
}

// fullerReply is how long a sender that found the reply a step wrote waits for the owner's fuller one.
const fullerReply = time.Second

// answerSQL stores a reply ($2) to inbox row $1, unanswered so far, and drops its interaction
// token; in_commit ($3) marks a reply written with the step it reports. The owner's own answer is
// answerSQL+answerReplaces: it may replace such a reply with its fuller one.
const (
	answerSQL = `UPDATE inbox SET reply = $2, answered_at = now(), in_commit = $3,
		cmd = convert_to((convert_from(cmd, 'UTF8')::jsonb - 'Followup')::text, 'UTF8')
	WHERE seq = $1 AND (reply IS NULL`
	answerReplaces = " OR in_commit)"
)

// expireUnanswered is how long an unanswered command stays in the inbox: an interaction's token
// stops working after 15 minutes, and the owners answer expired commands "too late" before then.
const expireUnanswered = 15 * time.Minute

// Prune forgets answered commands and applied delivery IDs older than keep (platforms stop
// retrying a delivery within minutes), and commands nobody answered within expireUnanswered,
// with their tokens.
func (d *DB) Prune(ctx context.Context, keep time.Duration) error {
	var b pgx.Batch
	b.Queue("DELETE FROM inbox WHERE answered_at < now() - $1::interval", interval(keep))
	b.Queue("DELETE FROM inbox WHERE reply IS NULL AND created_at < now() - $1::interval", interval(expireUnanswered+time.Minute))
	b.Queue("DELETE FROM applied WHERE at < now() - $1::interval", interval(keep))
	return d.wrap("prune the inbox", d.pool.SendBatch(ctx, &b).Close())
}

// Doorbell returns a channel that receives (without blocking the sender: rings coalesce) when a
// command is forwarded, until ctx ends. It keeps one connection of its own listening, and connects
// again after a failure.
func (d *DB) Doorbell(ctx context.Context) <-chan struct{} {
	ring := make(chan struct{}, 1)
	notify := func() {
		select {
		case ring <- struct{}{}:
		default:
		}
	}
	go func() {
		for ctx.Err() == nil {
			c, err := d.pool.Acquire(ctx)
			if err != nil {
				sleepCtx(ctx, time.Second)
				continue
			}
			conn := c.Hijack() // a listening connection must not go back to the pool
			if _, err := conn.Exec(ctx, "LISTEN dealerbot_inbox"); err == nil {
				notify() // commands may have come while nobody listened
				for {
					if _, err := conn.WaitForNotification(ctx); err != nil {
						break
					}
					notify()
				}
			}
			conn.Close(context.Background())
			sleepCtx(ctx, time.Second)
		}
	}()
	return ring
}

func sleepCtx(ctx context.Context, d time.Duration) {
	select {
	case <-ctx.Done():
	case <-time.After(d):
	}
}
