-- Activity records and their owner. A record names its owner by the identity-provider id the worker sent
-- (user_ref); one for a user who does not exist yet is kept with user_id NULL and attached when the user appears.
-- A record reaching its owner is pushed to the owner's sockets through the realtime outbox (realtime_notify).
-- The only place these functions and triggers are defined (src/platform/db/README.md); until then they were in
-- migration 008.

CREATE OR REPLACE FUNCTION attach_pending_activity() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.clerk_user_id IS NOT NULL THEN
    UPDATE activity_history SET user_id = NEW.id WHERE user_id IS NULL AND user_ref = NEW.clerk_user_id;
  END IF;
  RETURN NULL;
END;
$$;
CREATE OR REPLACE TRIGGER users_attach_activity AFTER INSERT OR UPDATE OF clerk_user_id ON users
FOR EACH ROW EXECUTE FUNCTION attach_pending_activity();

-- "Visible at once": a row reaching its owner (inserted for a known user, or attached later) is pushed
-- to the owner's sockets as activity_recorded, in the same transaction, through the realtime outbox.
CREATE OR REPLACE FUNCTION activity_history_to_outbox() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.user_id IS NOT NULL AND (TG_OP = 'INSERT' OR OLD.user_id IS NULL) THEN
    PERFORM realtime_notify(NEW.user_id, 'activity_recorded', jsonb_build_object(
      'id', NEW.id, 'requestId', NEW.request_id, 'activityType', NEW.activity_type, 'statusCode', NEW.status_code,
      'isError', NEW.is_error, 'blockchain', NEW.blockchain, 'transactionHash', NEW.transaction_hash, 'address', NEW.address,
      'entityId', NEW.entity_id, 'entityName', NEW.entity_name, 'riskLevel', NEW.risk_level, 'riskScore', NEW.risk_score,
      'responseSummary', NEW.response_summary, 'source', NEW.source,
      'createdAt', to_char(NEW.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')));
  END IF;
  RETURN NULL;
END;
$$;
CREATE OR REPLACE TRIGGER activity_history_outbox AFTER INSERT OR UPDATE OF user_id ON activity_history
FOR EACH ROW EXECUTE FUNCTION activity_history_to_outbox();
