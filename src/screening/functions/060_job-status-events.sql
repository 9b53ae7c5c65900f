-- Job status events, through the realtime outbox (realtime_notify). The only place this function and trigger are
-- defined (src/platform/db/README.md); until then they were in migration 013.

-- A job's status change (queued → completed | failed) is pushed to its owner's sockets as
-- job_status_changed, in the same transaction as the mirror write, so a page can follow a job live
-- instead of polling; the full result is then one GET away. Only the summary travels on the socket.
CREATE OR REPLACE FUNCTION screening_jobs_status_to_outbox() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM realtime_notify(NEW.user_id, 'job_status_changed', jsonb_build_object(
    'request_id', NEW.request_id, 'status', NEW.status, 'reference_id', NEW.reference_id,
    'api_type', NEW.api_type, 'chain', NEW.chain,
    'risk_level', NEW.response ->> 'risk_level', 'risk_score', (NEW.response ->> 'risk_score')::numeric,
    'error_code', NEW.error ->> 'code',
    'updated_at', to_char(NEW.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')));
  RETURN NULL;
END;
$$;
CREATE OR REPLACE TRIGGER screening_jobs_status_outbox AFTER UPDATE OF status ON screening_jobs
FOR EACH ROW WHEN (NEW.status IS DISTINCT FROM OLD.status)
EXECUTE FUNCTION screening_jobs_status_to_outbox();
