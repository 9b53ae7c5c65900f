-- Realtime outbox: events for a user's sockets, written by triggers in the same transaction as the change they
-- announce, so a rolled-back change announces nothing. realtime_notify appends the row and NOTIFYs (delivered only
-- at commit); src/realtime reads the table. Here: the writer; each feature's triggers that call it are in its own
-- functions/ folder (credit events, account deactivation, job status, ...). Until the functions files existed this
-- was in migration 007.

CREATE OR REPLACE FUNCTION realtime_notify(p_user uuid, p_event text, p_payload jsonb) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  v_seq bigint;
BEGIN
  INSERT INTO realtime_events (user_id, event, payload) VALUES (p_user, p_event, p_payload) RETURNING seq INTO v_seq;
  -- '<seq> <event> <user id>': a listener can act on an event before reading its row (the api drops its cached
  -- credentials of that user at once, src/identity/identity-cache.ts); the row stays the record it reads.
  PERFORM pg_notify('realtime_events', v_seq::text || ' ' || p_event || ' ' || p_user::text);
END;
$$;
