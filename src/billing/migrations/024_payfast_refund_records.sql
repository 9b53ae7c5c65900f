-- The PayFast refunds an admin recorded through the api (POST /api/v1/billing/payfast/refunds), written before the
-- refund's workflow starts. The workflow's activity takes credits back only for a refund recorded here, for exactly
-- this payment and amount: a workflow started on the Temporal frontend by anyone else finds no record and changes
-- nothing. One row per refund id, so the same id for another payment or amount is refused (409).
CREATE TABLE payfast_refund_records (
  refund_id        text PRIMARY KEY,
  provider         text NOT NULL DEFAULT 'payfast' CHECK (provider = 'payfast'),
  pf_payment_id    text NOT NULL,
  -- Money returned in cents (ZAR); null = everything not refunded yet.
  amount_cents     bigint CHECK (amount_cents > 0),
  reason           text,
  recorded_by      uuid NOT NULL REFERENCES users (id),
  created_at       timestamptz NOT NULL DEFAULT now(),
  FOREIGN KEY (provider, pf_payment_id) REFERENCES credited_payments (provider, payment_id)
);
CREATE INDEX payfast_refund_records_payment_idx ON payfast_refund_records (pf_payment_id);
