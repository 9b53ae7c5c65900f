-- Customer risk policies (src/policies, issue 21): per account, versioned, the account's default, and the policy a
-- monitor names. A job, batch or rescore copies the version it was scored under into its own row, so a policy's
-- later edits or deletion never change a stored answer.

-- One row per (account, policy id), kept after a delete (deleted_at) so a policy re-created under the same id
-- continues its version numbering: a version number names one document forever. The row is what a PUT locks, so
-- concurrent PUTs of one policy write their versions one after another.
CREATE TABLE risk_policies (
  user_id        uuid NOT NULL REFERENCES users (id),
  policy_id      text NOT NULL,
  latest_version integer NOT NULL DEFAULT 0 CHECK (latest_version >= 0),
  -- When the live policy was created (its first version, or its re-creation after a delete).
  created_at     timestamptz NOT NULL DEFAULT now(),
  deleted_at     timestamptz,
  PRIMARY KEY (user_id, policy_id)
);

-- Every version of every policy, never updated nor deleted (functions/risk-policies.sql refuses both).
CREATE TABLE risk_policy_versions (
  user_id    uuid NOT NULL,
  policy_id  text NOT NULL,
  version    integer NOT NULL CHECK (version >= 1),
  document   jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, policy_id, version),
  FOREIGN KEY (user_id, policy_id) REFERENCES risk_policies (user_id, policy_id)
);

-- The account's default policy (no row: the standard model). Deleting the policy deletes this row with it.
CREATE TABLE risk_policy_defaults (
  user_id    uuid PRIMARY KEY REFERENCES users (id),
  policy_id  text NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  FOREIGN KEY (user_id, policy_id) REFERENCES risk_policies (user_id, policy_id)
);

-- The policy a monitor's re-screens are scored under, resolved to its then-current version at each re-screen
-- (null: the account's default at that moment; 'standard': the shipped model).
ALTER TABLE monitors ADD COLUMN policy_id text;
