-- Realtime outbox: events for a user's sockets, written in the same transaction as the change they
-- announce, so a rolled-back grant announces nothing. Every api instance reads it after a NOTIFY
-- (delivered only at commit) or a safety poll; rows are pruned after 7 days.
CREATE TABLE realtime_events (
  seq         bigserial PRIMARY KEY,
  user_id     uuid NOT NULL REFERENCES users (id),
  event       text NOT NULL,
  payload     jsonb NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX realtime_events_created_idx ON realtime_events (created_at);

-- The writer (realtime_notify) and the triggers that write the events are in src/platform/db/functions/outbox.sql.
