-- Money that comes back: refunds and reversals take back the credits a payment paid for, and what was
-- already spent becomes a debt that blocks new jobs until a later payment covers it. Also the rule
-- that a PayPal subscriber gets exactly one cycle's credits per paid cycle (see credited_payments.cycle).

-- Every payment that paid for credits, with what it paid for: the anchor of its refunds.
-- PayPal: payment_id = the sale id; cycle = the billing cycle this sale paid, numbered in the order the
-- subscription's sales are processed (1 = the first cycle, whose credits ACTIVATED may already have
-- granted: `credits` is still the cycle's credits, so refunding that sale takes them back).
-- PayFast: payment_id = pf_payment_id.
CREATE TABLE credited_payments (
  provider         text NOT NULL CHECK (provider IN ('paypal', 'payfast')),
  payment_id       text NOT NULL,
  user_id          uuid NOT NULL REFERENCES users (id),
  subscription_id  text,
  cycle            int CHECK (cycle IS NULL OR cycle >= 1),
  package_id       text REFERENCES credit_packages (id),
  amount_cents     bigint NOT NULL CHECK (amount_cents > 0),
  currency         text NOT NULL,
  credits          bigint NOT NULL CHECK (credits >= 0),
  refunded_cents   bigint NOT NULL DEFAULT 0 CHECK (refunded_cents >= 0),
  credits_revoked  bigint NOT NULL DEFAULT 0 CHECK (credits_revoked >= 0),
  created_at       timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (provider, payment_id),
  CHECK (credits_revoked <= credits)
);
CREATE INDEX credited_payments_user_idx ON credited_payments (user_id);
CREATE UNIQUE INDEX credited_payments_cycle_idx ON credited_payments (subscription_id, cycle) WHERE provider = 'paypal';

-- Each refund or reversal once (its provider id), with what it took back: the de-duplication guard
-- of a refund whatever event or request carries it.
CREATE TABLE payment_refunds (
  provider         text NOT NULL CHECK (provider IN ('paypal', 'payfast')),
  refund_id        text NOT NULL,
  payment_id       text NOT NULL,
  kind             text NOT NULL CHECK (kind IN ('refund', 'reversal')),
  amount_cents     bigint NOT NULL CHECK (amount_cents >= 0),
  credits_revoked  bigint NOT NULL CHECK (credits_revoked >= 0),
  transaction_id   uuid REFERENCES credit_transactions (id),
  created_at       timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (provider, refund_id),
  FOREIGN KEY (provider, payment_id) REFERENCES credited_payments (provider, payment_id)
);

-- Sales already credited before this migration: their payments, numbered by arrival.
INSERT INTO credited_payments (provider, payment_id, user_id, subscription_id, cycle, package_id, amount_cents, currency, credits, created_at)
SELECT 'paypal', t.metadata ->> 'saleId', t.user_id, t.metadata ->> 'subscriptionId',
       row_number() OVER (PARTITION BY t.metadata ->> 'subscriptionId' ORDER BY t.created_at, t.id),
       t.metadata ->> 'packageId', round((t.metadata ->> 'amount')::numeric * 100)::bigint,
       coalesce(t.metadata ->> 'currency', 'USD'), t.amount, t.created_at
FROM credit_transactions t
WHERE t.kind = 'grant' AND t.source = 'paypal' AND t.metadata ? 'saleId' AND (t.metadata ->> 'amount') ~ '^[0-9]+(\.[0-9]{1,2})?$'
ON CONFLICT DO NOTHING;
INSERT INTO credited_payments (provider, payment_id, user_id, package_id, amount_cents, currency, credits, created_at)
SELECT 'payfast', t.metadata ->> 'eventId', t.user_id, t.metadata ->> 'packageId', round((t.metadata ->> 'amountGross')::numeric * 100)::bigint,
       'ZAR', t.amount, t.created_at
FROM credit_transactions t
WHERE t.kind = 'grant' AND t.source = 'payfast' AND t.metadata ? 'eventId' AND (t.metadata ->> 'amountGross') ~ '^[0-9]+(\.[0-9]{1,2})?$'
ON CONFLICT DO NOTHING;

-- How many of a subscription's sales were credited: the next sale pays cycle sales_credited + 1.
ALTER TABLE subscriptions ADD COLUMN sales_credited int NOT NULL DEFAULT 0 CHECK (sales_credited >= 0);
UPDATE subscriptions s SET sales_credited = (
  SELECT count(*) FROM credited_payments p WHERE p.provider = 'paypal' AND p.subscription_id = s.subscription_id);

-- Credits taken back that had already been spent. While it is above zero no new job starts; grants repay it first.
ALTER TABLE credit_accounts ADD COLUMN debt bigint NOT NULL DEFAULT 0 CHECK (debt >= 0);

ALTER TABLE credit_transactions DROP CONSTRAINT credit_transactions_kind_check;
ALTER TABLE credit_transactions ADD CONSTRAINT credit_transactions_kind_check CHECK (kind IN ('grant', 'consume', 'revoke'));

-- As in 007, plus: a grant repays the account's debt first (metadata.debtRepaid), the rest is balance.
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

-- Takes back p_amount credits once per key: from what is available now (never below zero, never into
-- credits held by running jobs), the rest recorded as debt. metadata gets fromBalance and debtAdded.
CREATE FUNCTION revoke_credits(p_user uuid, p_amount bigint, p_key text, p_reason text, p_source text, p_metadata jsonb)
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

-- As in 002, plus: an account in debt holds nothing, so no new job starts until a payment repays it.
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

-- As in 007, plus revokes, and grants that repaid debt move the balance by less than they granted.
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
