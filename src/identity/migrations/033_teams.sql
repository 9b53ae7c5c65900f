-- Teams (issue 30, part 1). `users` stays the ACCOUNT table: every `user_id` elsewhere is the account that holds the
-- row (credits, keys, jobs, monitors, ...), so nothing is renamed and nothing moves. An account is a person (its
-- Clerk user, `clerk_user_id`) or an organization (its Clerk organization, `clerk_org_id`); its members are persons,
-- each with one team role. Written to run on a database filled by the previous code: only columns with defaults
-- are added, and every existing user becomes a one-member organization of itself.
ALTER TABLE users
  ADD COLUMN kind text NOT NULL DEFAULT 'person' CHECK (kind IN ('person', 'organization')),
  ADD COLUMN clerk_org_id text UNIQUE,
  -- The account a person last acted in with a session (NULL: their own): the account a payment naming them credits.
  ADD COLUMN active_account_id uuid REFERENCES users (id),
  ADD CONSTRAINT users_kind_ids CHECK (
    (kind = 'person' AND clerk_org_id IS NULL) OR (kind = 'organization' AND clerk_user_id IS NULL));

-- Who may act for an account, and as what. A row is never deleted: a removed member keeps its row (status removed),
-- so a late Clerk delivery older than the removal cannot bring the member back (synced_at, the Clerk event time).
CREATE TABLE account_members (
  account_id  uuid NOT NULL REFERENCES users (id),
  member_id   uuid NOT NULL REFERENCES users (id),
  role        text NOT NULL CHECK (role IN ('admin', 'analyst', 'approver')),
  status      text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'removed')),
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  removed_at  timestamptz,
  synced_at   timestamptz,
  PRIMARY KEY (account_id, member_id),
  CHECK ((status = 'removed') = (removed_at IS NOT NULL))
);
-- The accounts a person belongs to (a deleted person's keys on every team, the account a payment credits).
CREATE INDEX account_members_member_idx ON account_members (member_id);

-- Every existing user is the admin of its own one-member organization (new persons get theirs from the trigger in
-- functions/teams.sql, which does not exist yet while this runs).
INSERT INTO account_members (account_id, member_id, role) SELECT id, id, 'admin' FROM users;

-- The member who made a key: it authenticates as that member, and stops when the member leaves the team. NULL (a key
-- written by code that did not know members) reads as the account itself, which is what every existing key was.
ALTER TABLE api_keys ADD COLUMN created_by uuid REFERENCES users (id);
UPDATE api_keys SET created_by = user_id;
CREATE INDEX api_keys_created_by_idx ON api_keys (created_by) WHERE revoked_at IS NULL;
