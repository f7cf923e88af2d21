-- dealerbot schema, version 6: every step exactly once. A table row carries its version (the number of
-- changes committed to it) and the key of the last step written (table.Change.Step), so that a step is
-- applied only to the version it was computed from, and a writer who lost the answer to its COMMIT
-- can read back whether its step landed. A hand is stored once: the same hand again (the same table,
-- number and deck salt, drawn at the deal) is a retry of a step that landed, and is refused.
ALTER TABLE tables ADD COLUMN version bigint NOT NULL DEFAULT 0, ADD COLUMN step text NOT NULL DEFAULT '';

-- dealerbot_step moves table t's version on for a change that writes its records and keeps the
-- change's key s; when checked, it fails the transaction (DBV01) unless the table is at version base
-- (a table that does not exist is at version 0; its insert then starts it at version 1).
CREATE FUNCTION dealerbot_step(t text, base bigint, s text, checked boolean) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
	UPDATE tables SET version = version + 1, step = s WHERE id = t AND (NOT checked OR version = base);
	IF FOUND THEN
		RETURN;
	END IF;
	IF NOT EXISTS (SELECT 1 FROM tables WHERE id = t) AND (NOT checked OR base = 0) THEN
		RETURN;
	END IF;
	RAISE EXCEPTION 'table % is not at version %', t, base USING ERRCODE = 'DBV01';
END $$;

-- The deck salt of each hand stored from now on (hands stored before have ''): which hand it is.
ALTER TABLE hands ADD COLUMN salt text NOT NULL DEFAULT '';

-- dealerbot_hand stores a finished hand: beside the hands of the same number kept by a version that
-- numbered each session from 1, and never twice (DBH01: the same salt is stored already).
CREATE FUNCTION dealerbot_hand(t text, n bigint, s text, r bytea) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
	IF EXISTS (SELECT 1 FROM hands WHERE table_id = t AND no = n AND salt = s) THEN
		RAISE EXCEPTION 'hand % of % is stored already', n, t USING ERRCODE = 'DBH01';
	END IF;
	INSERT INTO hands (table_id, no, kept, rec, salt)
		SELECT t, n, coalesce(max(kept) + 1, 0), r, s FROM hands WHERE table_id = t AND no = n;
END $$;

-- Schedules are written only at the version they were read at (schedule.Schedule.Version, kept in
-- rec and here): a tick's copy never writes back over a command's change, nor brings back a
-- schedule that was removed.
ALTER TABLE schedules ADD COLUMN version bigint NOT NULL DEFAULT 0;

-- dealerbot_schedule_at fails the transaction (DBV01) unless schedule i is stored at version v; a
-- schedule that is gone passes when missing_ok (a game's result outlives its schedule).
CREATE FUNCTION dealerbot_schedule_at(i bigint, v bigint, missing_ok boolean) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
	have bigint;
BEGIN
	SELECT version INTO have FROM schedules WHERE id = i;
	IF NOT FOUND THEN
		IF missing_ok THEN
			RETURN;
		END IF;
		RAISE EXCEPTION 'schedule % was removed', i USING ERRCODE = 'DBV01';
	END IF;
	IF have <> v THEN
		RAISE EXCEPTION 'schedule % is at version %, written from %', i, have, v USING ERRCODE = 'DBV01';
	END IF;
END $$;

-- A forwarded command's reply is written in the same transaction as the step it causes (in_commit);
-- the owner's fuller reply (with the message update and private extras) may replace it afterwards.
ALTER TABLE inbox ADD COLUMN in_commit boolean NOT NULL DEFAULT false;
