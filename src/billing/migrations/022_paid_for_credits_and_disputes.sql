-- Credits come only from payments (docs/credits.md, "credit rules"). A plan change grants nothing by itself: PayPal
-- bills the new price from the next cycle, and that sale (or a prorated charge) pays for the new plan's credits.
-- ACTIVATED may still advance the plan's credits before its first sale arrives; the advance is then settled by the
-- subscription's next payments, each granting only what exceeds the advance still unsettled.
ALTER TABLE subscriptions ADD COLUMN advance_unsettled bigint NOT NULL DEFAULT 0 CHECK (advance_unsettled >= 0);
-- Under the old rule the first sale settled whatever ACTIVATED/UPDATED had granted; past grants are left as they were.
UPDATE subscriptions SET advance_unsettled = plan_credits_granted WHERE sales_credited = 0;
ALTER TABLE subscriptions DROP COLUMN plan_credits_granted;
COMMENT ON COLUMN subscriptions.sales_credited IS
  'Sales of this subscription credited so far (plan-priced or prorated); the next plan-priced one pays cycle n + 1';

-- A charge that is no plan's price (a prorated or other manual charge) is a payment but not a billing cycle.
COMMENT ON COLUMN credited_payments.cycle IS
  'PayPal: the sale''s position among the subscription''s credited sales; null for a charge that is no plan''s price';

-- A PayPal dispute (chargeback, claim) of a credited sale: while open or lost its amount counts as returned money, so
-- the payment's credits are taken back; won, they are reinstated. One row per dispute id, whatever events carry it.
-- version = the resource's update_time: of two resolutions the newer one stands, and a resolved dispute never reopens.
CREATE TABLE payment_disputes (
  provider      text NOT NULL CHECK (provider IN ('paypal')),
  dispute_id    text NOT NULL,
  payment_id    text NOT NULL,
  amount_cents  bigint NOT NULL CHECK (amount_cents >= 0),
  status        text NOT NULL CHECK (status IN ('open', 'lost', 'won')),
  outcome_code  text,
  version       timestamptz,
  created_at    timestamptz NOT NULL DEFAULT now(),
  updated_at    timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (provider, dispute_id),
  FOREIGN KEY (provider, payment_id) REFERENCES credited_payments (provider, payment_id)
);
CREATE INDEX payment_disputes_payment_idx ON payment_disputes (provider, payment_id);
