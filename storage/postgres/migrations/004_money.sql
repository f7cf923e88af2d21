-- dealerbot schema, version 4: the money books (one per community, append-only) and payment handles.

-- A book's newest event number: appends update the row, so two appends to one book take turns, and
-- a conditional append (the caller saw the book up to seq) finds out that it moved.
CREATE TABLE money_heads (
	community text   COLLATE "C" PRIMARY KEY,
	seq       bigint NOT NULL
);

-- The events (JSON money.Event without its Seq), numbered per community from 1. Never updated.
CREATE TABLE money_events (
	community text   COLLATE "C" NOT NULL,
	seq       bigint NOT NULL,
	rec       bytea  NOT NULL,
	PRIMARY KEY (community, seq)
);

-- How each player is paid (JSON money.Handle), per community.
CREATE TABLE payment_handles (
	community text  COLLATE "C" NOT NULL,
	user_id   text  COLLATE "C" NOT NULL,
	rec       bytea NOT NULL,
	PRIMARY KEY (community, user_id)
);
