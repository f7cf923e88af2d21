-- dealerbot schema, version 1: the records storage.DB keeps in bbolt buckets, one table each, and the
-- leases through which one process at a time owns a community.

-- Players' accounts. A bankroll never goes below zero: the CHECK refuses the write (ErrInsufficient).
CREATE TABLE players (
	workspace text   COLLATE "C" NOT NULL,
	user_id   text   COLLATE "C" NOT NULL,
	name      text   NOT NULL DEFAULT '',
	bankroll  bigint NOT NULL CONSTRAINT players_bankroll_not_negative CHECK (bankroll >= 0),
	on_table  bigint NOT NULL,
	granted   bigint NOT NULL,
	hands     bigint NOT NULL,
	PRIMARY KEY (workspace, user_id)
);

-- The ledger, append-only: one row per event (a hand's results share one), in storage's binary form.
CREATE TABLE ledger (
	seq bigserial PRIMARY KEY,
	rec bytea     NOT NULL
);

-- Open tables (JSON bot.TableRecord) and the action log of each running hand (JSON bot.ActionLog).
CREATE TABLE tables (
	id        text  COLLATE "C" PRIMARY KEY,
	community text  COLLATE "C" NOT NULL,
	rec       bytea NOT NULL
);
CREATE INDEX tables_by_community ON tables (community);

CREATE TABLE actions (
	table_id text  COLLATE "C" PRIMARY KEY,
	rec      bytea NOT NULL
);

-- Finished hands in storage's binary form. kept > 0 only for a hand kept beside an older one of the
-- same number (numbered by a version that began each session at 1).
CREATE TABLE hands (
	table_id text    COLLATE "C" NOT NULL,
	no       bigint  NOT NULL,
	kept     integer NOT NULL DEFAULT 0,
	rec      bytea   NOT NULL,
	PRIMARY KEY (table_id, no, kept)
);

-- Finished sessions (JSON bot.SessionRecord), oldest first.
CREATE TABLE sessions (
	seq bigserial PRIMARY KEY,
	rec bytea     NOT NULL
);

-- Scheduled home games (JSON schedule.Schedule), RSVPs and results; games are keyed by their start
-- in Unix nanoseconds, exactly as the runner computed it.
CREATE TABLE schedules (
	id        bigserial PRIMARY KEY,
	community text      COLLATE "C" NOT NULL,
	rec       bytea     NOT NULL
);

CREATE TABLE rsvps (
	schedule bigint NOT NULL,
	game     bigint NOT NULL,
	user_id  text   COLLATE "C" NOT NULL,
	rec      bytea  NOT NULL,
	PRIMARY KEY (schedule, game, user_id)
);

CREATE TABLE results (
	schedule bigint NOT NULL,
	game     bigint NOT NULL,
	rec      bytea  NOT NULL,
	PRIMARY KEY (schedule, game)
);

-- One owner per community. epoch is the fencing token: it goes up at every claim that changes hands.
-- owner is '' when the lease was released.
CREATE TABLE leases (
	community  text        COLLATE "C" PRIMARY KEY,
	owner      text        NOT NULL,
	epoch      bigint      NOT NULL,
	expires_at timestamptz NOT NULL
);

-- dealerbot_fence fails the transaction it runs in unless owner holds community's lease at epoch.
-- FOR SHARE makes a takeover (which updates the row) wait for the commits under way.
CREATE FUNCTION dealerbot_fence(c text, o text, e bigint) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
	PERFORM 1 FROM leases WHERE community = c AND owner = o AND epoch = e FOR SHARE;
	IF NOT FOUND THEN
		RAISE EXCEPTION 'the lease of % is not held by % at epoch %', c, o, e USING ERRCODE = 'DBF01';
	END IF;
END $$;
