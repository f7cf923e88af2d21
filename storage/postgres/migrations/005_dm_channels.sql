-- dealerbot schema, version 5: the direct-message channel opened for each user, kept so that a
-- restarted process does not open them all again (one request each against the bot's global limit).
-- A cache for the adapters: nothing refers to it.
CREATE TABLE dm_channels (
	platform text COLLATE "C" NOT NULL,
	user_id  text COLLATE "C" NOT NULL,
	channel  text NOT NULL,
	PRIMARY KEY (platform, user_id)
);
