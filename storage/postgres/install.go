package postgres

// Installations: one row of the installations table per workspace (migrations/003_installations.sql).
// The bot token arrives sealed by the adapter and is kept as those bytes.

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5"

	"github.com/dealerbot/dealerbot/bot"
)

var _ bot.Installations = (*DB)(nil)

// PutInstallation stores in, replacing the workspace's installation if there is one.
func (d *DB) PutInstallation(ctx context.Context, in bot.Installation) error {
	if in.Platform == "" || in.Workspace == "" {
		return errors.New("store an installation: no platform or workspace given")
	}
	scopes := in.Scopes
	if scopes == nil {
		scopes = []string{}
	}
	_, err := d.pool.Exec(ctx, `INSERT INTO installations (platform, workspace, name, bot_user, scopes, token, installed_by, installed_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
		ON CONFLICT (platform, workspace) DO UPDATE SET name = $3, bot_user = $4, scopes = $5, token = $6, installed_by = $7, installed_at = $8`,
		in.Platform, in.Workspace, in.Name, in.BotUser, scopes, in.Token, in.InstalledBy, in.Installed)
	return d.wrap("store the installation", err)
}

// Installation returns a workspace's installation; ok is false when there is none.
func (d *DB) Installation(ctx context.Context, platform, workspace string) (bot.Installation, bool, error) {
	in := bot.Installation{Platform: platform, Workspace: workspace}
	err := d.pool.QueryRow(ctx, `SELECT name, bot_user, scopes, token, installed_by, installed_at
		FROM installations WHERE platform = $1 AND workspace = $2`, platform, workspace).
		Scan(&in.Name, &in.BotUser, &in.Scopes, &in.Token, &in.InstalledBy, &in.Installed)
	if errors.Is(err, pgx.ErrNoRows) {
		return bot.Installation{}, false, nil
	}
	if err != nil {
		return bot.Installation{}, false, d.wrap("load the installation", err)
	}
	if len(in.Scopes) == 0 {
		in.Scopes = nil // as stored from nil
	}
	return in, true, nil
}

// DeleteInstallation removes a workspace's installation, if there is one.
func (d *DB) DeleteInstallation(ctx context.Context, platform, workspace string) error {
	_, err := d.pool.Exec(ctx, "DELETE FROM installations WHERE platform = $1 AND workspace = $2", platform, workspace)
	return d.wrap("delete the installation", err)
}
