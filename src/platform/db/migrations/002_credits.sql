-- Balance and reservations live on one row so a single row lock serialises every credit decision of a user.
-- reserved = credits held by screening jobs still running; available = balance - reserved.
CREATE TABLE credit_accounts (
  user_id     uuid PRIMARY KEY REFERENCES users (id),
  balance     bigint NOT NULL DEFAULT 0 CHECK (balance >= 0),
  reserved    bigint NOT NULL DEFAULT 0 CHECK (reserved >= 0),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  CHECK (reserved <= balance)
);

-- The ledger. idempotency_key makes every grant and charge happen at most once, whoever retries it.
CREATE TABLE credit_transactions (
  id               uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id          uuid NOT NULL REFERENCES users (id),
  kind             text NOT NULL CHECK (kind IN ('grant', 'consume')),
  amount           bigint NOT NULL CHECK (amount > 0),
  balance_after    bigint NOT NULL,
  idempotency_key  text NOT NULL UNIQUE,
  reason           text,
  source           text NOT NULL,
  metadata         jsonb NOT NULL DEFAULT '{}'::jsonb,
  created_at       timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX credit_transactions_user_idx ON credit_transactions (user_id, created_at DESC);

-- A hold reserves credits for one running job (hold_key = the job's request_id).
CREATE TABLE credit_holds (
  hold_key    text PRIMARY KEY,
  user_id     uuid NOT NULL REFERENCES users (id),
  amount      bigint NOT NULL CHECK (amount > 0),
  created_at  timestamptz NOT NULL DEFAULT now()
);

CREATE FUNCTION ensure_credit_account(p_user uuid) RETURNS void LANGUAGE sql AS $$
  INSERT INTO credit_accounts (user_id) VALUES (p_user) ON CONFLICT (user_id) DO NOTHING;
$$;

-- Adds credits once per idempotency key. A repeated key returns the first transaction with duplicate = true.
CREATE FUNCTION grant_credits(p_user uuid, p_amount bigint, p_key text, p_reason text, p_source text, p_metadata jsonb)
RETURNS TABLE (transaction_id uuid, balance bigint, duplicate boolean)
LANGUAGE plpgsql AS $$
DECLARE
  v_id uuid;
  v_balance bigint;
BEGIN
  IF p_amount IS NULL OR p_amount <= 0 THEN
    RAISE EXCEPTION 'grant amount must be positive' USING ERRCODE = '22023';
  END IF;
  PERFORM ensure_credit_account(p_user);
  -- The unique key makes a concurrent twin wait here and then see the first one's row.
  INSERT INTO credit_transactions (user_id, kind, amount, balance_after, idempotency_key, reason, source, metadata)
  VALUES (p_user, 'grant', p_amount, 0, p_key, p_reason, p_source, coalesce(p_metadata, '{}'::jsonb))
  ON CONFLICT (idempotency_key) DO NOTHING
  RETURNING id INTO v_id;

  IF v_id IS NULL THEN
    RETURN QUERY
      SELECT t.id, a.balance, true
      FROM credit_transactions t JOIN credit_accounts a ON a.user_id = t.user_id
      WHERE t.idempotency_key = p_key;
    RETURN;
  END IF;

  UPDATE credit_accounts SET balance = credit_accounts.balance + p_amount, updated_at = now()
  WHERE user_id = p_user RETURNING credit_accounts.balance INTO v_balance;
  UPDATE credit_transactions SET balance_after = v_balance WHERE id = v_id;
  RETURN QUERY SELECT v_id, v_balance, false;
END;
$$;

-- Holds between p_min and p_max credits for a job; returns the amount held, 0 when not even p_min is available.
-- Calling it again with the same key returns the existing hold.
CREATE FUNCTION reserve_credits(p_user uuid, p_hold_key text, p_min bigint, p_max bigint)
RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
  v_account credit_accounts%ROWTYPE;
  v_existing bigint;
  v_hold bigint;
BEGIN
  PERFORM ensure_credit_account(p_user);
  SELECT * INTO v_account FROM credit_accounts WHERE user_id = p_user FOR UPDATE;
  SELECT amount INTO v_existing FROM credit_holds WHERE hold_key = p_hold_key;
  IF v_existing IS NOT NULL THEN
    RETURN v_existing;
  END IF;
  IF v_account.balance - v_account.reserved < p_min THEN
    RETURN 0;
  END IF;
  v_hold := least(p_max, v_account.balance - v_account.reserved);
  INSERT INTO credit_holds (hold_key, user_id, amount) VALUES (p_hold_key, p_user, v_hold);
  UPDATE credit_accounts SET reserved = reserved + v_hold, updated_at = now() WHERE user_id = p_user;
  RETURN v_hold;
END;
$$;

-- Gives a hold back (job failed or was never started). Releasing twice is a no-op.
CREATE FUNCTION release_hold(p_hold_key text) RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
  v_hold credit_holds%ROWTYPE;
BEGIN
  DELETE FROM credit_holds WHERE hold_key = p_hold_key RETURNING * INTO v_hold;
  IF v_hold.hold_key IS NULL THEN
    RETURN 0;
  END IF;
  UPDATE credit_accounts SET reserved = reserved - v_hold.amount, updated_at = now() WHERE user_id = v_hold.user_id;
  RETURN v_hold.amount;
END;
$$;

-- Charges a completed job once per idempotency key, settling its hold in the same transaction.
-- A repeated key (an activity retried after its commit) returns the first charge with duplicate = true.
CREATE FUNCTION consume_credits(p_user uuid, p_amount bigint, p_key text, p_hold_key text, p_reason text, p_metadata jsonb)
RETURNS TABLE (transaction_id uuid, balance bigint, duplicate boolean)
LANGUAGE plpgsql AS $$
DECLARE
  v_account credit_accounts%ROWTYPE;
  v_existing uuid;
  v_id uuid;
BEGIN
  IF p_amount IS NULL OR p_amount <= 0 THEN
    RAISE EXCEPTION 'charge amount must be positive' USING ERRCODE = '22023';
  END IF;
  PERFORM ensure_credit_account(p_user);
  SELECT * INTO v_account FROM credit_accounts WHERE user_id = p_user FOR UPDATE;
  SELECT id INTO v_existing FROM credit_transactions WHERE idempotency_key = p_key;
  IF v_existing IS NOT NULL THEN
    RETURN QUERY SELECT v_existing, v_account.balance, true;
    RETURN;
  END IF;

  IF p_hold_key IS NOT NULL THEN
    PERFORM release_hold(p_hold_key);
    SELECT * INTO v_account FROM credit_accounts WHERE user_id = p_user;
  END IF;
  IF v_account.balance - v_account.reserved < p_amount THEN
    RAISE EXCEPTION 'insufficient credits: need %, available %', p_amount, v_account.balance - v_account.reserved
      USING ERRCODE = 'P0402';
  END IF;

  UPDATE credit_accounts SET balance = credit_accounts.balance - p_amount, updated_at = now()
  WHERE user_id = p_user RETURNING * INTO v_account;
  INSERT INTO credit_transactions (user_id, kind, amount, balance_after, idempotency_key, reason, source, metadata)
  VALUES (p_user, 'consume', p_amount, v_account.balance, p_key, p_reason, 'screening', coalesce(p_metadata, '{}'::jsonb))
  RETURNING id INTO v_id;
  RETURN QUERY SELECT v_id, v_account.balance, false;
END;
$$;
