-- Batch screening (src/batches): the counts of a batch, the copy of each item's job outcome into batch_items, and
-- the batch_progress events through the realtime outbox (realtime_notify). The only place these functions and
-- triggers are defined (src/platform/db/README.md); the tables are in migration 027.

-- A batch's items by status, and the credits its jobs hold and were charged: what GET /kyt/batch/:id and every
-- batch_progress event report. Reads batch_items only (at most 1,000 rows, by primary key prefix).
CREATE OR REPLACE FUNCTION batch_counts(p_batch uuid) RETURNS jsonb
LANGUAGE sql STABLE AS $$
  SELECT jsonb_build_object(
    'counts', jsonb_build_object(
      'total', count(*),
      'invalid', count(*) FILTER (WHERE status = 'invalid'),
      'refused', count(*) FILTER (WHERE status = 'refused'),
      'queued', count(*) FILTER (WHERE status = 'queued'),
      'completed', count(*) FILTER (WHERE status = 'completed'),
      'failed', count(*) FILTER (WHERE status = 'failed')),
    'credits', jsonb_build_object(
      'held', coalesce(sum(credits_held) FILTER (WHERE status = 'queued'), 0),
      'charged', coalesce(sum(credits_charged) FILTER (WHERE status IN ('completed', 'failed')), 0)))
  FROM batch_items WHERE batch_id = p_batch;
$$;

-- A batch item's job reached the mirror (completed, failed, or failed by the sweeper or the batch's own settling):
-- its status, scores, charge and error are copied in the same transaction, so the batch's counts and pages agree
-- with the jobs' mirror at every commit. The standard score is the policy answer's `standard`, or the answer's
-- own score when the standard model scored it.
CREATE OR REPLACE FUNCTION screening_jobs_to_batch_items() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE batch_items SET
    status = NEW.status,
    risk_level = NEW.response ->> 'risk_level',
    risk_score = (NEW.response ->> 'risk_score')::numeric,
    standard_risk_level = coalesce(NEW.response -> 'standard' ->> 'risk_level', NEW.response ->> 'risk_level'),
    standard_risk_score = coalesce((NEW.response -> 'standard' ->> 'risk_score')::numeric,
                                   (NEW.response ->> 'risk_score')::numeric),
    credits_charged = NEW.credits_charged,
    error = NEW.error,
    updated_at = now()
  WHERE request_id = NEW.request_id;
  RETURN NULL;
END;
$$;
CREATE OR REPLACE TRIGGER screening_jobs_batch_items AFTER UPDATE OF status ON screening_jobs
FOR EACH ROW WHEN (NEW.batch_id IS NOT NULL)
EXECUTE FUNCTION screening_jobs_to_batch_items();

-- batch_progress {batchId, status, counts} to the owner's sockets when the batch workflow bumps progress_seq (its
-- coalesced notices: at most one a second while items finish) and when the batch completes (always one).
CREATE OR REPLACE FUNCTION screening_batches_progress_to_outbox() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  v_summary jsonb := batch_counts(NEW.id);
BEGIN
  PERFORM realtime_notify(NEW.user_id, 'batch_progress', jsonb_build_object(
    'batchId', NEW.id, 'status', NEW.status, 'counts', v_summary -> 'counts', 'credits', v_summary -> 'credits'));
  RETURN NULL;
END;
$$;
CREATE OR REPLACE TRIGGER screening_batches_progress_outbox AFTER UPDATE OF progress_seq, status ON screening_batches
FOR EACH ROW WHEN (NEW.progress_seq IS DISTINCT FROM OLD.progress_seq OR NEW.status IS DISTINCT FROM OLD.status)
EXECUTE FUNCTION screening_batches_progress_to_outbox();
