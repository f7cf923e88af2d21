package bot

import (
	"context"
	"time"
)

// Installation is a chat app's installation in one workspace, for a dealer that serves many (Slack's
// OAuth v2: every workspace that installs the app gives it a bot token of its own). The adapter that
// uses it seals the token before it is stored and opens it after it is read: a store keeps Token as
// opaque bytes and never sees a token in the clear.
type Installation struct {
	Platform    string // "slack"
	Workspace   string // the workspace (Slack team) ID
	Name        string // the workspace's name, for logs and the install page
	BotUser     string // the bot's user ID in the workspace
	Scopes      []string
	Token       []byte    // the bot token, sealed by the adapter
	InstalledBy string    // the user who installed the app
	Installed   time.Time // when
}

// Installations keeps the installations of a dealer that serves many workspaces, one per workspace.
// storage.DB and the PostgreSQL store implement it; each method is one transaction.
type Installations interface {
	// PutInstallation stores in, replacing the workspace's installation if there is one (the app
	// installed again).
	PutInstallation(ctx context.Context, in Installation) error
	// Installation returns a workspace's installation; ok is false when there is none.
	Installation(ctx context.Context, platform, workspace string) (in Installation, ok bool, err error)
	// DeleteInstallation removes a workspace's installation; removing one that is not there is not
	// an error.
	DeleteInstallation(ctx context.Context, platform, workspace string) error
}
