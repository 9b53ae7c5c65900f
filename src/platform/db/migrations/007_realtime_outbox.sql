-- Realtime outbox: events for a user's sockets, written in the same transaction as the change they
-- announce, so a rolled-back grant announces nothing. Every api instance reads it after a NOTIFY
-- (delivered only at commit) or a safety poll; rows are pruned after 7 days.
CREATE TABLE realtime_events (
  seq         bigserial PRIMARY KEY,
  user_id     uuid NOT NULL REFERENCES users (id),
  event       text NOT NULL,
  payload     jsonb NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX realtime_events_created_idx ON realtime_events (created_at);

-- Same signature and semantics as 002, but the ledger row is inserted with its final balance_after
-- (the outbox trigger reads it), so the account row is locked and the new balance computed first.
CREATE OR REPLACE FUNCTION grant_credits(p_user uuid, p_amount bigint, p_key text, p_reason text, p_source text, p_metadata jsonb)
RETURNS TABLE (transaction_id uuid, balance bigint, duplicate boolean)
LANGUAGE plpgsql AS $$
DECLARE
  v_balance bigint;
  v_id uuid;
BEGIN
  IF p_amount IS NULL OR p_amount <= 0 THEN
    RAISE EXCEPTION 'grant amount must be positive' USING ERRCODE = '22023';
  END IF;
  PERFORM ensure_credit_account(p_user);
  -- Same lock order as consume_credits (account row, then ledger key), so the two cannot deadlock.
  SELECT a.balance INTO v_balance FROM credit_accounts a WHERE a.user_id = p_user FOR UPDATE;
  -- The unique key still guards twins that do not share this lock (same key, another user):
  -- the second waits on the key, then inserts nothing and reports the first.
  INSERT INTO credit_transactions (user_id, kind, amount, balance_after, idempotency_key, reason, source, metadata)
  VALUES (p_user, 'grant', p_amount, v_balance + p_amount, p_key, p_reason, p_source, coalesce(p_metadata, '{}'::jsonb))
  ON CONFLICT (idempotency_key) DO NOTHING
  RETURNING id INTO v_id;

  IF v_id IS NULL THEN
    RETURN QUERY
      SELECT t.id, a.balance, true
      FROM credit_transactions t JOIN credit_accounts a ON a.user_id = t.user_id
      WHERE t.idempotency_key = p_key;
    RETURN;
  END IF;

  UPDATE credit_accounts SET balance = v_balance + p_amount, updated_at = now() WHERE user_id = p_user;
  RETURN QUERY SELECT v_id, v_balance + p_amount, false;
END;
$$;

CREATE FUNCTION realtime_notify(p_user uuid, p_event text, p_payload jsonb) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  v_seq bigint;
BEGIN
  INSERT INTO realtime_events (user_id, event, payload) VALUES (p_user, p_event, p_payload) RETURNING seq INTO v_seq;
  PERFORM pg_notify('realtime_events', v_seq::text);
END;
$$;

CREATE FUNCTION credit_transactions_to_outbox() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.kind = 'grant' THEN
    PERFORM realtime_notify(NEW.user_id, 'credits_granted', jsonb_build_object(
      'transactionId', NEW.id,
      'amount', NEW.amount,
      'balance', NEW.balance_after,
      'source', NEW.source,
      'eventId', NEW.metadata ->> 'eventId',
      'grantedAt', to_char(NEW.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')));
    PERFORM realtime_notify(NEW.user_id, 'credit_balance_updated', jsonb_build_object(
      'balance', NEW.balance_after, 'delta', NEW.amount, 'reason', coalesce(NEW.reason, NEW.source)));
  ELSIF NEW.kind = 'consume' THEN
    PERFORM realtime_notify(NEW.user_id, 'credit_balance_updated', jsonb_build_object(
      'balance', NEW.balance_after, 'delta', -NEW.amount, 'reason', coalesce(NEW.reason, NEW.source)));
  END IF;
  RETURN NULL;
END;
$$;

CREATE TRIGGER credit_transactions_outbox AFTER INSERT ON credit_transactions
FOR EACH ROW EXECUTE FUNCTION credit_transactions_to_outbox();

-- Internal event: the api disconnects the user's sockets (not forwarded to clients).
CREATE FUNCTION users_deactivated_to_outbox() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM realtime_notify(NEW.id, 'account_deactivated', '{}'::jsonb);
  RETURN NULL;
END;
$$;

CREATE TRIGGER users_deactivated_outbox AFTER UPDATE OF status ON users
FOR EACH ROW WHEN (NEW.status = 'deactivated' AND OLD.status IS DISTINCT FROM 'deactivated')
EXECUTE FUNCTION users_deactivated_to_outbox();
