package postgres

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5"

	"github.com/dealerbot/dealerbot/bot"
)

var _ bot.DMChannels = (*DB)(nil)

// DMChannel returns the DM channel kept for user on platform.
func (d *DB) DMChannel(ctx context.Context, platform, user string) (channel string, ok bool, err error) {
	err = d.pool.QueryRow(ctx, "SELECT channel FROM dm_channels WHERE platform = $1 AND user_id = $2", platform, user).Scan(&channel)
	if errors.Is(err, pgx.ErrNoRows) {
		return "", false, nil
	}
	if err != nil {
		return "", false, d.wrap("load a DM channel", err)
	}
	return channel, true, nil
}

// PutDMChannel keeps channel as user's DM channel on platform.
func (d *DB) PutDMChannel(ctx context.Context, platform, user, channel string) error {
	_, err := d.pool.Exec(ctx, `INSERT INTO dm_channels (platform, user_id, channel) VALUES ($1, $2, $3)
		ON CONFLICT (platform, user_id) DO UPDATE SET channel = excluded.channel`, platform, user, channel)
	return d.wrap("keep a DM channel", err)
}
