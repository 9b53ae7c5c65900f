-- Issue 28: monitors are paid for and bounded, their workflows trust nothing they are handed, and a policy's
-- versions are bounded.

-- The request id of a monitor's first screening, drawn at create: its credits are held in the create's
-- transaction (hold key = this id), the monitor workflow's first re-screen records its job under it (so it finds
-- the hold), and deleting the monitor before that job exists releases the hold. Null for monitors created before.
ALTER TABLE monitors ADD COLUMN first_request_id uuid;

-- One notice per list version (listVersionNoticeWorkflow): the first run of list-version:<id> claims the version
-- with its run id, and only that run (its retried activities included) signals the monitors the version touched.
-- A second run of the same id, started by hand after the first ended, finds the claim taken and signals nobody.
CREATE TABLE list_version_notices (
  version_id bigint PRIMARY KEY REFERENCES list_versions (id),
  run_id     text NOT NULL,
  claimed_at timestamptz NOT NULL DEFAULT now()
);
-- Versions loaded more than a day before this migration had their notice long ago: claimed now, so a hand-started
-- notice of an old version re-screens nobody. A younger version's notice may still be on its way (a deploy during
-- a refresh): left unclaimed, its own run claims it.
INSERT INTO list_version_notices (version_id, run_id)
SELECT id, 'before-migration-029' FROM list_versions WHERE loaded_at < now() - interval '1 day';

-- What a policy version's pruning asks (functions/risk-policies.sql, risk_policy_version_referenced): does a job,
-- rescore or batch of the account name this version? Each question is one index probe. The version is compared as
-- the text the JSON holds: an index expression that could fail (a cast) would fail the insert of a job.
CREATE INDEX screening_jobs_policy_version_idx ON screening_jobs (user_id, policy_id, (policy ->> 'version'))
  WHERE policy IS NOT NULL;
CREATE INDEX job_rescores_policy_version_idx ON job_rescores (user_id, policy_id, policy_version);
CREATE INDEX screening_batches_policy_version_idx
  ON screening_batches (user_id, (policy ->> 'id'), (policy ->> 'version'))
  WHERE policy IS NOT NULL;
