-- A re-screen someone asked for (the owner through the api, or the notice of a list version that touched the
-- monitor's address), answered by the re-screen that ran for it. The monitor workflow's `rescreen` signal only wakes
-- it: a re-screen runs when a row here is unanswered, when the schedule is due or for the monitor's first screening,
-- so a signal sent by hand through the Temporal frontend makes nobody pay (src/monitors/rescreen-due.ts).
CREATE TABLE monitor_rescreen_requests (
  id           bigserial PRIMARY KEY,
  monitor_id   uuid NOT NULL REFERENCES monitors (id),
  reason       text NOT NULL,
  requested_at timestamptz NOT NULL DEFAULT now(),
  -- The re-screen (its request id) that answered it; null while pending.
  answered_by  uuid
);
CREATE INDEX monitor_rescreen_requests_pending ON monitor_rescreen_requests (monitor_id) WHERE answered_by IS NULL;
