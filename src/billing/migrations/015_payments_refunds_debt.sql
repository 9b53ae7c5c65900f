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

-- The rules that repay and take back credits (grant_credits, revoke_credits, reserve_credits) are in
-- src/platform/db/functions/credits.sql, their events in src/platform/db/functions/outbox.sql.
