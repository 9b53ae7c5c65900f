-- The X-Request-Id of the submit that created a job, so a workflow started later by the queued-job
-- sweeper carries the same id in its memo (and on its activity log lines) as one the api started.
ALTER TABLE screening_jobs ADD COLUMN http_request_id text;
