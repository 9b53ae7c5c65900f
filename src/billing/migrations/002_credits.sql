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

-- The rules that change these rows (grant_credits, reserve_credits, consume_credits, ...) are in
-- src/platform/db/functions/credits.sql.
