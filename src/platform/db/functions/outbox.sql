-- Realtime outbox: events for a user's sockets, written by triggers in the same transaction as the change they
-- announce, so a rolled-back change announces nothing. realtime_notify appends the row and NOTIFYs (delivered only
-- at commit); src/realtime reads the table. Here: the writer, the credit events and the deactivation event.
-- The only place these functions and triggers are defined (see README.md here); until then they were in
-- migration 007, credit_transactions_to_outbox rewritten by 015.

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

-- credits_granted and credit_balance_updated for every ledger row. A grant that repaid debt moves the balance by
-- less than it granted (delta = amount - debtRepaid); a revoke moves it by what it took from the balance.
CREATE OR REPLACE FUNCTION credit_transactions_to_outbox() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  v_repaid bigint := coalesce((NEW.metadata ->> 'debtRepaid')::bigint, 0);
BEGIN
  IF NEW.kind = 'grant' THEN
    PERFORM realtime_notify(NEW.user_id, 'credits_granted', jsonb_build_object(
      'transactionId', NEW.id,
      'amount', NEW.amount,
      'balance', NEW.balance_after,
      'source', NEW.source,
      'eventId', NEW.metadata ->> 'eventId',
      'grantedAt', to_char(NEW.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
      -- debtRepaid only when the grant repaid debt: the event keeps its documented shape otherwise.
      || CASE WHEN v_repaid > 0 THEN jsonb_build_object('debtRepaid', v_repaid) ELSE '{}'::jsonb END);
    PERFORM realtime_notify(NEW.user_id, 'credit_balance_updated', jsonb_build_object(
      'balance', NEW.balance_after, 'delta', NEW.amount - v_repaid, 'reason', coalesce(NEW.reason, NEW.source)));
  ELSIF NEW.kind = 'consume' THEN
    PERFORM realtime_notify(NEW.user_id, 'credit_balance_updated', jsonb_build_object(
      'balance', NEW.balance_after, 'delta', -NEW.amount, 'reason', coalesce(NEW.reason, NEW.source)));
  ELSIF NEW.kind = 'revoke' THEN
    PERFORM realtime_notify(NEW.user_id, 'credit_balance_updated', jsonb_build_object(
      'balance', NEW.balance_after, 'delta', -(NEW.metadata ->> 'fromBalance')::bigint,
      'debtAdded', (NEW.metadata ->> 'debtAdded')::bigint, 'reason', coalesce(NEW.reason, NEW.source)));
  END IF;
  RETURN NULL;
END;
$$;

CREATE OR REPLACE TRIGGER credit_transactions_outbox AFTER INSERT ON credit_transactions
FOR EACH ROW EXECUTE FUNCTION credit_transactions_to_outbox();

-- Internal event: the api disconnects the user's sockets (not forwarded to clients).
CREATE OR REPLACE FUNCTION users_deactivated_to_outbox() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM realtime_notify(NEW.id, 'account_deactivated', '{}'::jsonb);
  RETURN NULL;
END;
$$;

CREATE OR REPLACE TRIGGER users_deactivated_outbox AFTER UPDATE OF status ON users
FOR EACH ROW WHEN (NEW.status = 'deactivated' AND OLD.status IS DISTINCT FROM 'deactivated')
EXECUTE FUNCTION users_deactivated_to_outbox();
