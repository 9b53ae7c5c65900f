-- Monitor alerts, through the realtime outbox (realtime_notify): a stored alert reaches its owner's sockets in the
-- same transaction, as risk_changed (a re-screen that changed the level, the sanctioned flag or the hits) or
-- monitor_paused / monitor_resumed (the owner could not pay for a re-screen, then could again).
CREATE OR REPLACE FUNCTION monitor_alerts_to_outbox() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  v_monitor monitors%ROWTYPE;
BEGIN
  SELECT * INTO v_monitor FROM monitors WHERE id = NEW.monitor_id;
  IF NEW.kind = 'risk_changed' THEN
    PERFORM realtime_notify(NEW.user_id, 'risk_changed', jsonb_build_object(
      'monitorId', NEW.monitor_id, 'chain', v_monitor.chain, 'address', v_monitor.address,
      'before', NEW.before, 'after', NEW.after, 'reason', NEW.reason, 'request_id', NEW.request_id,
      'alertId', NEW.id,
      'createdAt', to_char(NEW.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')));
  ELSE
    PERFORM realtime_notify(NEW.user_id, 'monitor_' || NEW.kind, jsonb_build_object(
      'monitorId', NEW.monitor_id, 'chain', v_monitor.chain, 'address', v_monitor.address, 'reason', NEW.reason,
      'alertId', NEW.id,
      'createdAt', to_char(NEW.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')));
  END IF;
  RETURN NULL;
END;
$$;
CREATE OR REPLACE TRIGGER monitor_alerts_outbox AFTER INSERT ON monitor_alerts
FOR EACH ROW EXECUTE FUNCTION monitor_alerts_to_outbox();
