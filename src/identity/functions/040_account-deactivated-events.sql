-- Account deactivation events, through the realtime outbox (src/realtime/functions/020_outbox.sql). Until the
-- functions files existed this was in migration 007.

-- Internal event: the api disconnects the user's sockets (not forwarded to clients).
CREATE OR REPLACE FUNCTION users_deactivated_to_outbox() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM realtime_notify(NEW.id, 'account_deactivated', '{}'::jsonb);
  RETURN NULL;
END;
$$;

CREATE OR REPLACE TRIGGER users_deactivated_outbox AFTER UPDATE OF status ON users
FOR EACH ROW WHEN (NEW.status = 'deactivated' AND OLD.status IS DISTINCT FROM 'deactivated')
EXECUTE FUNCTION users_deactivated_to_outbox();
