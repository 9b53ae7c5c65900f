-- Users mirror Clerk identities; an internal UUID is what every other table references.
CREATE TABLE users (
  id             uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  clerk_user_id  text UNIQUE,
  email          text,
  display_name   text,
  role           text NOT NULL DEFAULT 'user' CHECK (role IN ('user', 'admin')),
  status         text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'deactivated')),
  created_at     timestamptz NOT NULL DEFAULT now(),
  updated_at     timestamptz NOT NULL DEFAULT now()
);

-- Only the SHA-256 of a key is stored; the key itself is shown once at creation.
CREATE TABLE api_keys (
  id            uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id       uuid NOT NULL REFERENCES users (id),
  name          text NOT NULL,
  key_hash      bytea NOT NULL UNIQUE,
  key_prefix    text NOT NULL,
  created_at    timestamptz NOT NULL DEFAULT now(),
  last_used_at  timestamptz,
  revoked_at    timestamptz
);
CREATE INDEX api_keys_user_idx ON api_keys (user_id);
