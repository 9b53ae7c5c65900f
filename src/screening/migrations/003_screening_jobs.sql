-- The polling mirror of each screening workflow (workflow id = 'screening:' || request_id).
-- seq grows with every write from the workflow; a late retry of an older write cannot overwrite newer state.
CREATE TABLE screening_jobs (
  request_id        uuid PRIMARY KEY,
  user_id           uuid NOT NULL REFERENCES users (id),
  api_type          text NOT NULL CHECK (api_type IN ('KYA', 'KYT')),
  chain             text NOT NULL,
  target            text NOT NULL,
  reference_id      text,
  crawl_timeout_ms  integer NOT NULL,
  max_depth         integer NOT NULL,
  credits_held      bigint NOT NULL,
  status            text NOT NULL CHECK (status IN ('queued', 'completed', 'failed')),
  seq               bigint NOT NULL DEFAULT 0,
  run_id            text,
  response_id       uuid,
  response          jsonb,
  full_response     jsonb,
  error             jsonb,
  credits_charged   bigint,
  created_at        timestamptz NOT NULL DEFAULT now(),
  updated_at        timestamptz NOT NULL DEFAULT now(),
  completed_at      timestamptz
);
CREATE INDEX screening_jobs_user_idx ON screening_jobs (user_id, created_at DESC);
CREATE INDEX screening_jobs_queued_idx ON screening_jobs (created_at) WHERE status = 'queued';
