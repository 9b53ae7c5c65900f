-- Batch screening (src/batches, issue 21): up to 1,000 targets in one request, each accepted item a screening job of
-- its own (its hold, charge and mirror as a single job's), started by one batch workflow batch:<batch id>.

-- One row per batch. (user_id, idempotency_key) is unique: a retried POST with the same Idempotency-Key finds its
-- batch (and body_sha256 tells a repeat of the same body from a different one, which is refused).
-- progress_seq is bumped by the batch workflow's coalesced progress notices: its trigger (functions/batches.sql)
-- sends batch_progress to the owner's sockets, as a change of status does.
CREATE TABLE screening_batches (
  id               uuid PRIMARY KEY,
  user_id          uuid NOT NULL REFERENCES users (id),
  idempotency_key  text,
  body_sha256      text NOT NULL,
  -- The policy version every item is scored under, as it was at submit (null: the standard model).
  policy           jsonb,
  crawl_timeout_ms integer NOT NULL,
  status           text NOT NULL DEFAULT 'running' CHECK (status IN ('running', 'completed')),
  progress_seq     bigint NOT NULL DEFAULT 0,
  created_at       timestamptz NOT NULL DEFAULT now(),
  completed_at     timestamptz
);
CREATE UNIQUE INDEX screening_batches_idempotency_idx ON screening_batches (user_id, idempotency_key)
  WHERE idempotency_key IS NOT NULL;
CREATE INDEX screening_batches_user_idx ON screening_batches (user_id, created_at DESC);
-- The sweep that starts a batch workflow which never started looks only at running batches.
CREATE INDEX screening_batches_running_idx ON screening_batches (created_at) WHERE status = 'running';

-- One row per item of the request, in request order (idx = its index in `items`). An invalid or refused item has
-- no job (request_id null) and costs nothing; an accepted one mirrors its job's outcome, copied by a trigger in
-- the transaction of the job's own mirror write (functions/batches.sql), so reading a batch never scans jobs.
CREATE TABLE batch_items (
  batch_id            uuid NOT NULL REFERENCES screening_batches (id) ON DELETE CASCADE,
  idx                 integer NOT NULL CHECK (idx >= 0),
  request_id          uuid UNIQUE REFERENCES screening_jobs (request_id),
  api_type            text CHECK (api_type IN ('KYA', 'KYT')),
  chain               text,
  target              text,
  reference_id        text,
  status              text NOT NULL CHECK (status IN ('invalid', 'refused', 'queued', 'completed', 'failed')),
  credits_held        bigint NOT NULL DEFAULT 0,
  max_depth           integer,
  risk_level          text,
  risk_score          numeric,
  standard_risk_level text,
  standard_risk_score numeric,
  credits_charged     bigint,
  -- invalid: {code: INVALID_PARAMETER, message, parameter}; refused: {code: INSUFFICIENT_CREDITS, message};
  -- failed: the job's error.
  error               jsonb,
  updated_at          timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (batch_id, idx),
  CHECK ((request_id IS NULL) = (status IN ('invalid', 'refused')))
);

-- A job that belongs to a batch: its batch workflow starts it (when a concurrency slot frees), so the queued-job
-- sweeper leaves it alone instead of taking an item waiting for its slot for a stale one.
ALTER TABLE screening_jobs ADD COLUMN batch_id uuid REFERENCES screening_batches (id);
