-- What a key may do (src/identity/scopes.ts). Keys that existed before scopes keep full access: every scope.
ALTER TABLE api_keys
  ADD COLUMN scopes text[] NOT NULL DEFAULT ARRAY['read', 'screening', 'billing', 'keys']::text[],
  ADD CONSTRAINT api_keys_scopes_known
    CHECK (cardinality(scopes) > 0 AND scopes <@ ARRAY['read', 'screening', 'billing', 'keys']::text[]);

-- The key made from BOOTSTRAP_ADMIN_API_KEY: when the variable's value changes, the start that creates the new
-- key revokes the keys made from earlier values. Before this column they were the 'bootstrap' keys of the users
-- created as 'bootstrap admin' (ensureBootstrapAdmin's only writes).
ALTER TABLE api_keys ADD COLUMN bootstrap boolean NOT NULL DEFAULT false;
UPDATE api_keys k SET bootstrap = true
  FROM users u
  WHERE u.id = k.user_id AND k.name = 'bootstrap' AND u.display_name = 'bootstrap admin';

