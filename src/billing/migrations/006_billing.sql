-- Billing and identity webhooks: credit packages, what each provider charges for them, PayFast
-- checkouts, PayPal subscriptions, and the inbox that makes every provider event count once.

-- What a customer can buy. Credits are what a package grants per payment (per billing cycle).
CREATE TABLE credit_packages (
  id          text PRIMARY KEY CHECK (id ~ '^[a-z0-9-]{2,40}$'),
  name        text NOT NULL,
  credits     bigint NOT NULL CHECK (credits > 0),
  billing     text NOT NULL CHECK (billing IN ('one_time', 'monthly', 'annual')),
  active      boolean NOT NULL DEFAULT true,
  sort_order  int NOT NULL DEFAULT 0
);

-- A package's price at one provider. PayPal prices name the billing plan that sells the package,
-- which is how a subscription event (plan_id) finds its package.
CREATE TABLE package_prices (
  id              serial PRIMARY KEY,
  package_id      text NOT NULL REFERENCES credit_packages (id),
  provider        text NOT NULL CHECK (provider IN ('paypal', 'payfast')),
  currency        text NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
  amount_cents    bigint NOT NULL CHECK (amount_cents > 0),
  paypal_plan_id  text UNIQUE,
  CHECK ((provider = 'paypal') = (paypal_plan_id IS NOT NULL))
);
CREATE UNIQUE INDEX package_prices_payfast_idx ON package_prices (package_id) WHERE provider = 'payfast';

-- The PayPal plan ids are this service's sandbox plans; live plans are added as rows (see README).
INSERT INTO credit_packages (id, name, credits, billing, sort_order) VALUES
  ('basic', 'Basic', 100, 'monthly', 10),
  ('pro', 'Pro', 500, 'monthly', 20),
  ('pro-annual', 'Pro (annual)', 6000, 'annual', 30),
  ('top-up-250', 'Top-up 250', 250, 'one_time', 40);
INSERT INTO package_prices (package_id, provider, currency, amount_cents, paypal_plan_id) VALUES
  ('basic', 'paypal', 'USD', 999, 'P-5ML4271244454362WXNWU5NQ'),
  ('pro', 'paypal', 'USD', 1999, 'P-3RX065706M3469222L5IFM4I'),
  ('basic', 'payfast', 'ZAR', 9900, NULL),
  ('pro', 'payfast', 'ZAR', 19900, NULL),
  ('pro-annual', 'payfast', 'ZAR', 149900, NULL),
  ('top-up-250', 'payfast', 'ZAR', 24900, NULL);

-- A PayFast checkout a signed-in user started: m_payment_id ties every ITN (the first payment and
-- each recurring one) to its user, package and the exact amount PayFast must report.
CREATE TABLE payfast_checkouts (
  m_payment_id  text PRIMARY KEY,
  user_id       uuid NOT NULL REFERENCES users (id),
  package_id    text NOT NULL REFERENCES credit_packages (id),
  amount_cents  bigint NOT NULL CHECK (amount_cents > 0),
  currency      text NOT NULL DEFAULT 'ZAR',
  created_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX payfast_checkouts_user_idx ON payfast_checkouts (user_id);

-- A PayPal subscription as the latest event described it. provider_updated_at (the resource's
-- update_time) guards the state: an older event never overwrites a newer one, whatever the order.
-- Payment times are kept as maxima so "flagged" (a failure newer than the last payment) is order-free.
CREATE TABLE subscriptions (
  provider              text NOT NULL CHECK (provider IN ('paypal')),
  subscription_id       text NOT NULL,
  user_id               uuid NOT NULL REFERENCES users (id),
  plan_id               text,
  package_id            text REFERENCES credit_packages (id),
  status                text NOT NULL,
  next_billing_time     timestamptz,
  last_payment_at       timestamptz,
  last_failed_payment_at timestamptz,
  last_failure_reason   text,
  cancelled_at          timestamptz,
  -- Credits of the largest plan already granted through ACTIVATED/UPDATED: upgrades top up the
  -- difference, and the total is the same in whichever order the events arrive.
  plan_credits_granted  bigint NOT NULL DEFAULT 0,
  provider_updated_at   timestamptz,
  created_at            timestamptz NOT NULL DEFAULT now(),
  updated_at            timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (provider, subscription_id)
);
CREATE INDEX subscriptions_user_idx ON subscriptions (user_id);

-- Every provider event processed, once: the permanent de-duplication guard (Temporal forgets
-- closed workflows after the namespace retention), written in the same transaction as its effect.
CREATE TABLE webhook_events (
  provider        text NOT NULL CHECK (provider IN ('paypal', 'payfast', 'clerk')),
  event_id        text NOT NULL,
  event_type      text NOT NULL,
  user_id         uuid REFERENCES users (id),
  outcome         text NOT NULL,
  detail          text,
  credits         bigint NOT NULL DEFAULT 0,
  transaction_id  uuid REFERENCES credit_transactions (id),
  payload         jsonb NOT NULL,
  processed_at    timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (provider, event_id)
);
CREATE INDEX webhook_events_user_idx ON webhook_events (user_id, processed_at DESC);

-- Clerk deliveries can arrive out of order: clerk_synced_at (the event's time) keeps an old
-- user.updated from overwriting a newer one, and deleted_at makes deletion final.
ALTER TABLE users ADD COLUMN clerk_synced_at timestamptz;
ALTER TABLE users ADD COLUMN deleted_at timestamptz;
