-- Credit ledger rules: every grant, hold, charge and take-back of a user's credits. Balance, reservations and
-- debt sit on one credit_accounts row, whose lock serialises every credit decision of a user; every write is
-- keyed (idempotency key or hold key), so a retry changes nothing.
-- The only place these functions are defined (src/platform/db/README.md); until then they were in migration 002,
-- grant_credits rewritten by 007 and 015, reserve_credits by 015, revoke_credits added by 015.

-- Creates the empty account row a credit function is about to lock.
CREATE OR REPLACE FUNCTION ensure_credit_account(p_user uuid) RETURNS void LANGUAGE sql AS $$
  INSERT INTO credit_accounts (user_id) VALUES (p_user) ON CONFLICT (user_id) DO NOTHING;
$$;

-- Adds credits once per idempotency key: the debt of the account is repaid first (metadata.debtRepaid),
-- the rest is balance. A repeated key returns the first transaction with duplicate = true.
-- The ledger row is inserted with its final balance_after (the outbox trigger reads it), so the account row
-- is locked and the new balance computed first; same lock order as consume_credits, so the two cannot deadlock.
CREATE OR REPLACE FUNCTION grant_credits(p_user uuid, p_amount bigint, p_key text, p_reason text, p_source text, p_metadata jsonb)
RETURNS TABLE (transaction_id uuid, balance bigint, duplicate boolean)
LANGUAGE plpgsql AS $$
DECLARE
  v_balance bigint;
  v_debt bigint;
  v_repaid bigint;
  v_id uuid;
BEGIN
  IF p_amount IS NULL OR p_amount <= 0 THEN
    RAISE EXCEPTION 'grant amount must be positive' USING ERRCODE = '22023';
  END IF;
  PERFORM ensure_credit_account(p_user);
  SELECT a.balance, a.debt INTO v_balance, v_debt FROM credit_accounts a WHERE a.user_id = p_user FOR UPDATE;
  v_repaid := least(v_debt, p_amount);
  INSERT INTO credit_transactions (user_id, kind, amount, balance_after, idempotency_key, reason, source, metadata)
  VALUES (p_user, 'grant', p_amount, v_balance + p_amount - v_repaid, p_key, p_reason, p_source,
          coalesce(p_metadata, '{}'::jsonb) || CASE WHEN v_repaid > 0 THEN jsonb_build_object('debtRepaid', v_repaid) ELSE '{}'::jsonb END)
  ON CONFLICT (idempotency_key) DO NOTHING
  RETURNING id INTO v_id;

  IF v_id IS NULL THEN
    RETURN QUERY
      SELECT t.id, a.balance, true
      FROM credit_transactions t JOIN credit_accounts a ON a.user_id = t.user_id
      WHERE t.idempotency_key = p_key;
    RETURN;
  END IF;

  UPDATE credit_accounts SET balance = v_balance + p_amount - v_repaid, debt = v_debt - v_repaid, updated_at = now() WHERE user_id = p_user;
  RETURN QUERY SELECT v_id, v_balance + p_amount - v_repaid, false;
END;
$$;

-- Holds between p_min and p_max credits for a job (hold_key = the job's request_id); returns the amount held,
-- 0 when not even p_min is available or the account is in debt (no new job starts until a payment repays it).
-- Calling it again with the same key returns the existing hold.
CREATE OR REPLACE FUNCTION reserve_credits(p_user uuid, p_hold_key text, p_min bigint, p_max bigint)
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
  IF v_account.debt > 0 OR v_account.balance - v_account.reserved < p_min THEN
    RETURN 0;
  END IF;
  v_hold := least(p_max, v_account.balance - v_account.reserved);
  INSERT INTO credit_holds (hold_key, user_id, amount) VALUES (p_hold_key, p_user, v_hold);
  UPDATE credit_accounts SET reserved = reserved + v_hold, updated_at = now() WHERE user_id = p_user;
  RETURN v_hold;
END;
$$;

-- Holds credits for many jobs at once (a batch's items), in the order given: the result is exactly what calling
-- reserve_credits for each key in turn, in one transaction, would give (each gets least(its max, what is still
-- available) when at least p_min is available and the account owes nothing, else 0; a key already held returns its
-- hold), but the account row is locked once and the holds are written by one INSERT and one UPDATE instead of a
-- round trip per item. Keys must be distinct.
CREATE OR REPLACE FUNCTION reserve_credits_many(p_user uuid, p_hold_keys text[], p_min bigint, p_max bigint[])
RETURNS bigint[]
LANGUAGE plpgsql AS $$
DECLARE
  v_account credit_accounts%ROWTYPE;
  v_count integer := coalesce(array_length(p_hold_keys, 1), 0);
  v_existing jsonb;
  v_available bigint;
  v_hold bigint;
  v_held bigint[] := '{}';
  v_new_keys text[] := '{}';
  v_new_amounts bigint[] := '{}';
BEGIN
  IF v_count <> coalesce(array_length(p_max, 1), 0) THEN
    RAISE EXCEPTION 'one maximum per hold key' USING ERRCODE = '22023';
  END IF;
  IF v_count <> (SELECT count(DISTINCT k) FROM unnest(p_hold_keys) AS k) THEN
    RAISE EXCEPTION 'hold keys must be distinct' USING ERRCODE = '22023';
  END IF;
  PERFORM ensure_credit_account(p_user);
  SELECT * INTO v_account FROM credit_accounts WHERE user_id = p_user FOR UPDATE;
  SELECT coalesce(jsonb_object_agg(h.hold_key, h.amount), '{}'::jsonb) INTO v_existing
  FROM credit_holds h WHERE h.hold_key = ANY (p_hold_keys);
  v_available := v_account.balance - v_account.reserved;
  FOR i IN 1 .. v_count LOOP
    IF v_existing ? p_hold_keys[i] THEN
      v_held := v_held || (v_existing ->> p_hold_keys[i])::bigint;
      CONTINUE;
    END IF;
    IF v_account.debt > 0 OR v_available < p_min THEN
      v_hold := 0;
    ELSE
      v_hold := least(p_max[i], v_available);
      v_available := v_available - v_hold;
      v_new_keys := v_new_keys || p_hold_keys[i];
      v_new_amounts := v_new_amounts || v_hold;
    END IF;
    v_held := v_held || v_hold;
  END LOOP;
  IF array_length(v_new_keys, 1) > 0 THEN
    INSERT INTO credit_holds (hold_key, user_id, amount)
    SELECT k, p_user, a FROM unnest(v_new_keys, v_new_amounts) AS t (k, a);
    UPDATE credit_accounts SET reserved = reserved + (SELECT sum(a) FROM unnest(v_new_amounts) AS a), updated_at = now()
    WHERE user_id = p_user;
  END IF;
  RETURN v_held;
END;
$$;

-- Gives a hold back (job failed or was never started). Releasing twice is a no-op.
CREATE OR REPLACE FUNCTION release_hold(p_hold_key text) RETURNS bigint
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
-- A charge that names a hold is made only against that hold: one that does not exist for this user (never held,
-- released, another user's) or holds less than the charge is refused with SQLSTATE P0412 (CHARGE_NOT_HELD), so a
-- workflow started by hand with another user id or a larger creditsHeld charges nobody. The retry of a charge
-- already made is answered above, before its (then settled) hold is looked for.
CREATE OR REPLACE FUNCTION consume_credits(p_user uuid, p_amount bigint, p_key text, p_hold_key text, p_reason text, p_metadata jsonb)
RETURNS TABLE (transaction_id uuid, balance bigint, duplicate boolean)
LANGUAGE plpgsql AS $$
DECLARE
  v_account credit_accounts%ROWTYPE;
  v_existing uuid;
  v_hold credit_holds%ROWTYPE;
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
    SELECT * INTO v_hold FROM credit_holds WHERE hold_key = p_hold_key FOR UPDATE;
    IF v_hold.hold_key IS NULL OR v_hold.user_id <> p_user OR v_hold.amount < p_amount THEN
      RAISE EXCEPTION 'no hold % of this user covers a charge of %', p_hold_key, p_amount USING ERRCODE = 'P0412';
    END IF;
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

-- Takes back p_amount credits once per key (refunds, reversals): from what is available now (never below zero,
-- never into credits held by running jobs), the rest recorded as debt. metadata gets fromBalance and debtAdded.
CREATE OR REPLACE FUNCTION revoke_credits(p_user uuid, p_amount bigint, p_key text, p_reason text, p_source text, p_metadata jsonb)
RETURNS TABLE (transaction_id uuid, balance bigint, debt bigint, from_balance bigint, duplicate boolean)
LANGUAGE plpgsql AS $$
DECLARE
  v_account credit_accounts%ROWTYPE;
  v_take bigint;
  v_id uuid;
BEGIN
  IF p_amount IS NULL OR p_amount <= 0 THEN
    RAISE EXCEPTION 'revoked amount must be positive' USING ERRCODE = '22023';
  END IF;
  PERFORM ensure_credit_account(p_user);
  SELECT * INTO v_account FROM credit_accounts WHERE user_id = p_user FOR UPDATE;
  SELECT t.id INTO v_id FROM credit_transactions t WHERE t.idempotency_key = p_key;
  IF v_id IS NOT NULL THEN
    RETURN QUERY SELECT t.id, v_account.balance, v_account.debt, (t.metadata ->> 'fromBalance')::bigint, true
      FROM credit_transactions t WHERE t.id = v_id;
    RETURN;
  END IF;

  v_take := least(p_amount, v_account.balance - v_account.reserved);
  UPDATE credit_accounts a SET balance = a.balance - v_take, debt = a.debt + (p_amount - v_take), updated_at = now()
  WHERE a.user_id = p_user RETURNING * INTO v_account;
  INSERT INTO credit_transactions (user_id, kind, amount, balance_after, idempotency_key, reason, source, metadata)
  VALUES (p_user, 'revoke', p_amount, v_account.balance, p_key, p_reason, p_source,
          coalesce(p_metadata, '{}'::jsonb) || jsonb_build_object('fromBalance', v_take, 'debtAdded', p_amount - v_take))
  RETURNING id INTO v_id;
  RETURN QUERY SELECT v_id, v_account.balance, v_account.debt, v_take, false;
END;
$$;
