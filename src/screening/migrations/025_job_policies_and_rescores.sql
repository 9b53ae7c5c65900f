-- The customer policy version a job is scored under (issue 21), as it was when the job was submitted: an edit of
-- the policy makes a new version, and a job keeps the one it named (the queued-job sweeper restarts it with it).
ALTER TABLE screening_jobs ADD COLUMN policy jsonb;
ALTER TABLE screening_jobs ADD COLUMN policy_id text GENERATED ALWAYS AS (policy ->> 'id') STORED;

-- A stored job scored again under a policy version (POST /api/v1/kyt/job/:id/rescore): no chain call, no crawl.
-- One row per (job, policy, version): asking again returns it and charges nothing more.
CREATE TABLE job_rescores (
  request_id uuid NOT NULL REFERENCES screening_jobs (request_id) ON DELETE CASCADE,
  policy_id text NOT NULL,
  policy_version integer NOT NULL,
  user_id uuid NOT NULL,
  result jsonb NOT NULL,
  credits_charged integer NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (request_id, policy_id, policy_version)
);
