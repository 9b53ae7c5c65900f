-- Cases (src/cases, issue 30): what a team does about one subject of one account that alerted. The workflow
-- `case:<id>` holds the case; `cases` is its mirror (what the routes read), `case_trail` its append-only, hash-chained,
-- signed audit trail, written by the workflow's activity in the same transaction as the mirror.
CREATE TABLE cases (
  id            uuid PRIMARY KEY,
  user_id       uuid NOT NULL REFERENCES users (id),
  -- The subject: an address (KYA, monitors) or a transaction (KYT) of a chain, normalised as a screening request's.
  chain         text NOT NULL,
  subject_kind  text NOT NULL CHECK (subject_kind IN ('address', 'transaction')),
  subject       text NOT NULL,
  state         text NOT NULL CHECK (state IN ('open', 'assigned', 'proposed', 'closed')),
  severity      text NOT NULL CHECK (severity IN ('low', 'medium', 'high', 'critical')),
  sanctions     boolean NOT NULL DEFAULT false,
  assignee_id   uuid REFERENCES users (id),
  -- The case as the workflow holds it (src/cases/domain/case-model.ts CaseSnapshot), after its last trail entry.
  snapshot      jsonb NOT NULL,
  -- The trail's length and head: the mirror shows exactly what the trail proves.
  trail_length  integer NOT NULL DEFAULT 0,
  trail_head    text,
  sar_ready     boolean NOT NULL DEFAULT false,
  -- When the SLA clock last started: the case opened, reopened or escalated.
  sla_since     timestamptz NOT NULL DEFAULT now(),
  opened_at     timestamptz NOT NULL DEFAULT now(),
  updated_at    timestamptz NOT NULL DEFAULT now(),
  closed_at     timestamptz,
  -- One case per subject per account: a new alert joins it, or reopens it when closed.
  UNIQUE (user_id, chain, subject)
);
CREATE INDEX cases_queue ON cases (user_id, state, severity, updated_at DESC);
CREATE INDEX cases_assignee ON cases (user_id, assignee_id) WHERE assignee_id IS NOT NULL;

-- Every alert that reached a case (deduplicated by its source's key: a monitor alert, a job, a rescore).
CREATE TABLE case_alerts (
  alert_key    text PRIMARY KEY,
  case_id      uuid NOT NULL REFERENCES cases (id),
  source       text NOT NULL,
  request_id   text,
  fingerprint  text NOT NULL,
  severity     text NOT NULL,
  sanctions    boolean NOT NULL,
  -- The findings the fingerprint was made of (`rule category address`, sorted): the case file lists them.
  findings     jsonb NOT NULL DEFAULT '[]',
  -- A suppression (a closed case's disposition) matched: recorded for the audit, nothing opened.
  suppressed   boolean NOT NULL DEFAULT false,
  created_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX case_alerts_case ON case_alerts (case_id, created_at);

-- The audit trail: entry `seq` of a case, chained by `prev_hash` (the previous entry's `hash`) and signed with the
-- evidence key (`signature`, a detached JWS over the entry without it). Rows are never updated or deleted.
CREATE TABLE case_trail (
  case_id    uuid NOT NULL REFERENCES cases (id),
  seq        integer NOT NULL CHECK (seq >= 1),
  entry      jsonb NOT NULL,
  hash       text NOT NULL,
  signature  jsonb NOT NULL,
  -- The Temporal update that made the entry (a route's Idempotency-Key): a retry of it in a later run of the case's
  -- workflow (after it closed or continued as new) finds it here and is answered, not applied again.
  update_id  text,
  PRIMARY KEY (case_id, seq)
);
CREATE INDEX case_trail_update ON case_trail (case_id, update_id) WHERE update_id IS NOT NULL;
-- Rows are never updated or deleted: the trigger case_trail_append_only (functions/cases.sql) refuses both.

-- What a closed case keeps from alerting again: the subject with that evidence fingerprint, until `expires_at`
-- (a false positive's suppression expires; a true positive's, whose subject is blocklisted, does not).
CREATE TABLE case_suppressions (
  user_id      uuid NOT NULL REFERENCES users (id),
  chain        text NOT NULL,
  subject      text NOT NULL,
  fingerprint  text NOT NULL,
  case_id      uuid NOT NULL REFERENCES cases (id),
  disposition  text NOT NULL CHECK (disposition IN ('false_positive', 'true_positive')),
  expires_at   timestamptz,
  created_at   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, chain, subject, fingerprint)
);

-- An account's SLA per severity (seconds): unassigned past `assign_within`, or undecided past `decide_within`,
-- escalates. Absent rows use the service defaults (CASE_SLA_* in src/platform/config.ts).
CREATE TABLE case_slas (
  user_id         uuid NOT NULL REFERENCES users (id),
  severity        text NOT NULL CHECK (severity IN ('low', 'medium', 'high', 'critical')),
  assign_within   integer NOT NULL CHECK (assign_within BETWEEN 1 AND 31536000),
  decide_within   integer NOT NULL CHECK (decide_within BETWEEN 1 AND 31536000),
  updated_at      timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, severity)
);
