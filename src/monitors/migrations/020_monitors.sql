-- Monitors (src/monitors): an address re-screened when a list version touches it or an address of its last crawl,
-- on its own schedule, and on demand; alerts when its risk changes. One workflow monitor:<id> per monitor.
CREATE TABLE monitors (
  id              uuid PRIMARY KEY,
  user_id         uuid NOT NULL REFERENCES users (id),
  chain           text NOT NULL,
  address         text NOT NULL,
  reference_id    text,
  alert_level     text NOT NULL CHECK (alert_level IN ('LOW', 'MEDIUM', 'HIGH')),
  every_hours     integer NOT NULL CHECK (every_hours BETWEEN 1 AND 8760),
  status          text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'paused', 'deleted')),
  paused_reason   text,
  last_request_id uuid,
  last_result     jsonb,
  last_screened_at timestamptz,
  created_at      timestamptz NOT NULL DEFAULT now(),
  deleted_at      timestamptz
);
-- One live monitor per account and target: a repeated create answers the existing one.
CREATE UNIQUE INDEX monitors_target_idx ON monitors (user_id, chain, address) WHERE status <> 'deleted';
CREATE INDEX monitors_user_idx ON monitors (user_id, created_at DESC);

-- Which monitors watch an address (the target and the addresses of its last crawl): a list version's diff finds
-- the monitors it touches through this index, never by scanning every monitor.
CREATE TABLE monitor_watch (
  address    text NOT NULL,
  monitor_id uuid NOT NULL REFERENCES monitors (id) ON DELETE CASCADE,
  PRIMARY KEY (address, monitor_id)
);
CREATE INDEX monitor_watch_monitor_idx ON monitor_watch (monitor_id);

CREATE TABLE monitor_alerts (
  id         uuid PRIMARY KEY,
  monitor_id uuid NOT NULL REFERENCES monitors (id),
  user_id    uuid NOT NULL REFERENCES users (id),
  kind       text NOT NULL CHECK (kind IN ('risk_changed', 'paused', 'resumed')),
  request_id uuid,
  before     jsonb,
  after      jsonb,
  reason     text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
-- An evaluation of one re-screen stores its alert once, however often the activity is retried.
CREATE UNIQUE INDEX monitor_alerts_request_idx ON monitor_alerts (monitor_id, request_id, kind);
CREATE INDEX monitor_alerts_monitor_idx ON monitor_alerts (monitor_id, created_at DESC);
