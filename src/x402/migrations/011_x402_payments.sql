-- Pay-per-use payments: one row per EIP-3009 authorization (network, payer, nonce), claimed before the
-- report runs, so a replayed or concurrently duplicated payment never yields a second report or charge.
CREATE TABLE x402_payments (
  network      text NOT NULL,
  payer        text NOT NULL,
  nonce        text NOT NULL,
  report       text NOT NULL CHECK (report IN ('kyt', 'kya', 'kye')),
  status       text NOT NULL CHECK (status IN ('processing', 'settled')),
  amount       text NOT NULL,
  asset        text NOT NULL,
  transaction  text,
  created_at   timestamptz NOT NULL DEFAULT now(),
  settled_at   timestamptz,
  PRIMARY KEY (network, payer, nonce)
);

-- Paid reports are part of the payer's activity history too.
ALTER TABLE activity_history DROP CONSTRAINT activity_history_source_check;
ALTER TABLE activity_history ADD CONSTRAINT activity_history_source_check CHECK (source IN ('screening', 'webhook', 'x402'));
