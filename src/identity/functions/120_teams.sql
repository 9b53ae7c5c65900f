-- Teams: account members (migration 033, src/identity/team.ts). The only place these functions and triggers are
-- defined (src/platform/db/README.md).

-- Every person is the admin of its own one-member organization, however its row was written (a session's first
-- request, a Clerk event, the bootstrap admin, a test's INSERT): its own keys and sessions act as that member.
CREATE OR REPLACE FUNCTION users_own_membership() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO account_members (account_id, member_id, role) VALUES (NEW.id, NEW.id, 'admin')
  ON CONFLICT (account_id, member_id) DO NOTHING;
  RETURN NULL;
END;
$$;
CREATE OR REPLACE TRIGGER users_own_membership AFTER INSERT ON users
FOR EACH ROW WHEN (NEW.kind = 'person') EXECUTE FUNCTION users_own_membership();

-- Internal event: a member's role or status changed, so every api instance drops the credentials it cached for the
-- account (src/identity/identity-cache.ts) and re-checks the account's sockets: a removed member's session and keys
-- stop at once, a changed role holds from the next request. Not forwarded to clients. A new membership needs no
-- event: nothing cached depends on a row that did not exist.
CREATE OR REPLACE FUNCTION account_members_changed_to_outbox() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM realtime_notify(NEW.account_id, 'credentials_changed', jsonb_build_object('memberId', NEW.member_id));
  RETURN NULL;
END;
$$;
CREATE OR REPLACE TRIGGER account_members_changed_outbox AFTER UPDATE OF role, status ON account_members
FOR EACH ROW WHEN ((OLD.role, OLD.status) IS DISTINCT FROM (NEW.role, NEW.status))
EXECUTE FUNCTION account_members_changed_to_outbox();
