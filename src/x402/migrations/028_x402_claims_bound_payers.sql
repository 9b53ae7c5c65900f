-- x402 claims (issue 28): a claim names the report it pays for, and a payer has at most one unsettled report.

-- The request id of the report the claim pays for, drawn by the api before it claims: the worker runs an
-- x402ReportWorkflow only for a request id that holds a live ('processing') claim, so a workflow started by hand
-- with a made-up input analyses nothing.
ALTER TABLE x402_payments ADD COLUMN request_id uuid;
CREATE UNIQUE INDEX x402_payments_request_id_idx ON x402_payments (request_id) WHERE request_id IS NOT NULL;

-- A claim the api left 'processing' (it stopped between the claim and the settlement) is set 'abandoned' once it is
-- older than any report and settlement can take: it no longer blocks its payer, and its nonce stays claimed.
ALTER TABLE x402_payments DROP CONSTRAINT x402_payments_status_check;
ALTER TABLE x402_payments ADD CONSTRAINT x402_payments_status_check
  CHECK (status IN ('processing', 'settled', 'abandoned'));

-- At most one unsettled report per payer and network: the facilitator's verify only simulates the transfer against
-- the payer's balance, so N authorizations signed against a balance that covers one would otherwise run N reports.
-- Claims in flight when this runs (from before it) keep the newest per payer; the others are abandoned.
UPDATE x402_payments p SET status = 'abandoned'
WHERE p.status = 'processing'
  AND EXISTS (
    SELECT 1 FROM x402_payments q
    WHERE q.status = 'processing' AND q.network = p.network AND lower(q.payer) = lower(p.payer)
      AND (q.created_at, q.contract, q.nonce) > (p.created_at, p.contract, p.nonce));
CREATE UNIQUE INDEX x402_payments_one_unsettled_per_payer ON x402_payments (network, lower(payer))
  WHERE status = 'processing';
