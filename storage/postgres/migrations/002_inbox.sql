-- dealerbot schema, version 2: deliveries applied once, and the inbox through which a process hands a
-- command to the process that owns its community.

-- Delivery IDs (interaction and event IDs) already applied: a Change with a Once ID inserts it in
-- its own transaction, so the same delivery is applied once however often and wherever it arrives.
CREATE TABLE applied (
	id text        COLLATE "C" PRIMARY KEY,
	at timestamptz NOT NULL DEFAULT now()
);

-- Commands for a community's owner, sent by the process that received them. The owner applies them
-- in seq order and writes the reply; the sender waits for it. NOTIFY dealerbot_inbox is the doorbell.
CREATE TABLE inbox (
	seq         bigserial   PRIMARY KEY,
	id          text        COLLATE "C" NOT NULL UNIQUE,
	community   text        COLLATE "C" NOT NULL,
	cmd         bytea       NOT NULL,
	created_at  timestamptz NOT NULL DEFAULT now(),
	reply       bytea,
	answered_at timestamptz
);
CREATE INDEX inbox_waiting ON inbox (community, seq) WHERE reply IS NULL;
