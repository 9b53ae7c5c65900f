-- The user's activity history: one row per finished screening and per accepted activity webhook.
-- idempotency_key ('screening:<request_id>' or 'webhook:<request_id>') makes retried writes no-ops.
CREATE TABLE activity_history (
  id                uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id           uuid NOT NULL REFERENCES users (id),
  idempotency_key   text NOT NULL UNIQUE,
  activity_type     text NOT NULL CHECK (activity_type IN ('kyt', 'kya', 'kye')),
  request_id        uuid NOT NULL,
  response_id       uuid,
  status_code       integer NOT NULL DEFAULT 200,
  is_error          boolean NOT NULL DEFAULT false,
  blockchain        text,
  transaction_hash  text,
  address           text,
  entity_id         text,
  entity_name       text,
  risk_level        text CHECK (risk_level IN ('low', 'medium', 'high', 'critical')),
  risk_score        numeric CHECK (risk_score BETWEEN 0 AND 100),
  request_payload   jsonb,
  response_payload  jsonb,
  response_summary  jsonb,
  error_message     text,
  metadata          jsonb NOT NULL DEFAULT '{}'::jsonb,
  client_app_id     text,
  client_app_name   text,
  source            text NOT NULL CHECK (source IN ('screening', 'webhook')),
  created_at        timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX activity_history_user_idx ON activity_history (user_id, created_at DESC);
CREATE INDEX activity_history_metadata_idx ON activity_history USING gin (metadata);
