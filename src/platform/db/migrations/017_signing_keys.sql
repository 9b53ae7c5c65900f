-- The keys that sign completed screening answers when EVIDENCE_SIGNING_KEYS is not set (the development default,
-- src/platform/signing/postgres-signing-keys.ts says why only that): one current key signs; a rotation retires it,
-- erases its private half and adds the next one. Every row stays published at /.well-known/jwks.json, so an answer
-- signed years ago still verifies.
CREATE TABLE signing_keys (
  kid text PRIMARY KEY,
  public_jwk jsonb NOT NULL,
  -- Only the current key keeps its private half: a retired key can never sign again.
  private_jwk jsonb,
  created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  retired_at timestamptz,
  CONSTRAINT signing_keys_current_can_sign CHECK (retired_at IS NOT NULL OR private_jwk IS NOT NULL),
  CONSTRAINT signing_keys_retired_cannot_sign CHECK (retired_at IS NULL OR private_jwk IS NULL)
);

-- At most one key signs at a time.
CREATE UNIQUE INDEX signing_keys_one_current ON signing_keys ((true)) WHERE retired_at IS NULL;
