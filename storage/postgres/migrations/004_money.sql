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

-- dealerbot_money_head fails the transaction it runs in unless community's book's newest event is
-- after (creating an empty book first); the row stays locked until the transaction ends, so appends
-- to one book take turns.
CREATE FUNCTION dealerbot_money_head(c text, after bigint) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO money_heads (community, seq) VALUES (c, 0) ON CONFLICT DO NOTHING;
	PERFORM 1 FROM money_heads WHERE community = c AND seq = after FOR UPDATE;
	IF NOT FOUND THEN
		RAISE EXCEPTION 'the money book of % has events after %', c, after USING ERRCODE = 'DBM01';
	END IF;
END $$;
