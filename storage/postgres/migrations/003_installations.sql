-- dealerbot schema, version 3: the installations of the chat app in the workspaces a hosted dealer
-- serves (Slack's OAuth v2), one row per workspace. token is the bot token sealed by the adapter
-- (AES-GCM with DEALERBOT_SECRET_KEY): the database never holds a token in the clear.
CREATE TABLE installations (
	platform     text        COLLATE "C" NOT NULL,
	workspace    text        COLLATE "C" NOT NULL,
	name         text        NOT NULL DEFAULT '',
	bot_user     text        NOT NULL DEFAULT '',
	scopes       text[]      NOT NULL DEFAULT '{}',
	token        bytea       NOT NULL,
	installed_by text        NOT NULL DEFAULT '',
	installed_at timestamptz NOT NULL,
	PRIMARY KEY (platform, workspace)
);
