-- Credential change events, through the realtime outbox (realtime_notify). The only place these functions and
-- triggers are defined (src/platform/db/README.md).

-- Internal event: what an API key grants changed (its scopes, its rate-limit tier or figure, its owner or hash), so
-- every api instance drops the credentials it cached for that key and its owner (src/identity/identity-cache.ts)
-- and re-checks the owner's sockets. Not forwarded to clients. A revocation has its own event
-- (070_api-key-revocation-events.sql); a moved key is announced under its previous owner, whose cache holds it.
CREATE OR REPLACE FUNCTION api_keys_changed_to_outbox() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM realtime_notify(OLD.user_id, 'credentials_changed', jsonb_build_object('apiKeyId', NEW.id));
  RETURN NULL;
END;
$$;
CREATE OR REPLACE TRIGGER api_keys_changed_outbox
AFTER UPDATE OF scopes, rate_limit_tier, requests_per_minute, user_id, key_hash ON api_keys
FOR EACH ROW WHEN (
  (OLD.scopes, OLD.rate_limit_tier, OLD.requests_per_minute, OLD.user_id, OLD.key_hash)
  IS DISTINCT FROM (NEW.scopes, NEW.rate_limit_tier, NEW.requests_per_minute, NEW.user_id, NEW.key_hash))
EXECUTE FUNCTION api_keys_changed_to_outbox();

-- Internal event: what a user's credentials resolve to changed (role, email, Clerk id), so every api instance drops
-- the credentials it cached for that user. Deactivation has its own event (account_deactivated,
-- 040_account-deactivated-events.sql); a reactivated user was never cached (only active users are).
CREATE OR REPLACE FUNCTION users_credentials_changed_to_outbox() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM realtime_notify(NEW.id, 'credentials_changed', '{}'::jsonb);
  RETURN NULL;
END;
$$;
CREATE OR REPLACE TRIGGER users_credentials_changed_outbox AFTER UPDATE OF role, email, clerk_user_id ON users
FOR EACH ROW WHEN ((OLD.role, OLD.email, OLD.clerk_user_id) IS DISTINCT FROM (NEW.role, NEW.email, NEW.clerk_user_id))
EXECUTE FUNCTION users_credentials_changed_to_outbox();
