-- API key revocation events, through the realtime outbox (realtime_notify). The only place this function and
-- trigger are defined (src/platform/db/README.md); until then they were in migration 014.

-- Internal event: an API key was revoked, so the api re-checks the credentials of its owner's open
-- sockets and closes those that no longer resolve (not forwarded to clients). Written in the revoking
-- transaction, so a rolled-back revoke closes nothing.
CREATE OR REPLACE FUNCTION api_keys_revoked_to_outbox() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM realtime_notify(NEW.user_id, 'credentials_revoked', jsonb_build_object('apiKeyId', NEW.id));
  RETURN NULL;
END;
$$;
CREATE OR REPLACE TRIGGER api_keys_revoked_outbox AFTER UPDATE OF revoked_at ON api_keys
FOR EACH ROW WHEN (NEW.revoked_at IS NOT NULL AND OLD.revoked_at IS NULL)
EXECUTE FUNCTION api_keys_revoked_to_outbox();
