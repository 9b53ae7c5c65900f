import { randomUUID } from 'node:crypto';
import type { Pool, PoolClient } from 'pg';
import { inTransaction } from '../platform/db/transaction';
import type { EvidenceSigner } from '../platform/signing/evidence-signer';
import type { AlertEvidence } from './alert-evidence';
import { type AlertSource, type CaseSeverity, type CaseSnapshot, higherSeverity } from './domain/case-model';
import { entryHash, genesisHash, trailEntryId, type TrailActor, type TrailEntryBody } from './trail/trail-entry';
import type { LoadedCase, PendingTrailEntry } from './workflow-types';

export type AlertOutcome =
  | { outcome: 'opened' | 'joined' | 'duplicate' | 'repeated'; caseId: string }
  | { outcome: 'suppressed'; caseId: string | null }
  | { outcome: 'limit'; caseId: null };

export interface CaseRow {
  id: string;
  accountId: string;
  chain: string;
  subjectKind: 'address' | 'transaction';
  subject: string;
  snapshot: CaseSnapshot;
  trailLength: number;
  trailHead: string | null;
  slaSince: Date;
}

/** A new case before its first trail entry: the workflow's first action (the alert) records it as opened. */
function unopened(e: AlertEvidence): CaseSnapshot {
  return {
    state: 'open',
    severity: e.severity,
    sanctions: e.sanctions,
    assigneeId: null,
    proposal: null,
    disposition: null,
    decidedBy: null,
    fingerprint: '',
    escalations: 0,
    jobs: [],
  };
}

// biome-ignore lint/suspicious/noExplicitAny: a pg row
const toCaseRow = (r: any): CaseRow => ({
  id: r.id,
  accountId: r.user_id,
  chain: r.chain,
  subjectKind: r.subject_kind,
  subject: r.subject,
  snapshot: r.snapshot,
  trailLength: r.trail_length,
  trailHead: r.trail_head,
  slaSince: r.sla_since,
});

const CASE_COLUMNS = 'id, user_id, chain, subject_kind, subject, snapshot, trail_length, trail_head, sla_since';

/** The write side of cases: alerts in, the workflow's trail and mirror out. */
export function createCaseStore(pool: Pool) {
  return {
    /**
     * Records an alert against its subject's case in ONE transaction, serialised per subject (a transaction-scoped
     * advisory lock), so any number of identical alerts at once find or open exactly one case. An alert key already
     * recorded answers `duplicate` (its workflow is signalled again: harmless); evidence a closed case suppressed
     * answers `suppressed` (kept for the audit); evidence the open case already holds answers `repeated` (nothing to
     * signal); a new case past `maxOpenCases` open ones answers `limit`.
     */
    async recordAlert(a: {
      accountId: string;
      alertKey: string;
      source: AlertSource;
      requestId: string | null;
      evidence: AlertEvidence;
      maxOpenCases: number;
    }): Promise<AlertOutcome> {
      const e = a.evidence;
      return inTransaction(pool, async (client) => {
        await client.query(`SELECT pg_advisory_xact_lock(hashtext('cases:' || $1 || ':' || $2 || ':' || $3))`, [
          a.accountId,
          e.chain,
          e.subject,
        ]);
        const seen = await client.query<{ case_id: string; suppressed: boolean }>(
          'SELECT case_id, suppressed FROM case_alerts WHERE alert_key = $1',
          [a.alertKey],
        );
        if (seen.rows[0]) {
          const { case_id, suppressed } = seen.rows[0];
          return suppressed ? { outcome: 'suppressed', caseId: case_id } : { outcome: 'duplicate', caseId: case_id };
        }
        const existing = await client.query<{ id: string; snapshot: CaseSnapshot }>(
          'SELECT id, snapshot FROM cases WHERE user_id = $1 AND chain = $2 AND subject = $3 FOR UPDATE',
          [a.accountId, e.chain, e.subject],
        );
        const suppressed = await client.query(
          `SELECT 1 FROM case_suppressions WHERE user_id = $1 AND chain = $2 AND subject = $3 AND fingerprint = $4
             AND (expires_at IS NULL OR expires_at > now())`,
          [a.accountId, e.chain, e.subject, e.fingerprint],
        );
        let caseId = existing.rows[0]?.id ?? null;
        if (suppressed.rows.length > 0) {
          if (caseId) await insertAlert(client, a, caseId, true);
          return { outcome: 'suppressed', caseId };
        }
        const known = existing.rows[0]?.snapshot;
        if (caseId && known && repeats(known, e)) {
          await insertAlert(client, a, caseId, false);
          return { outcome: 'repeated', caseId };
        }
        let outcome: 'opened' | 'joined' = 'joined';
        if (!caseId) {
          const open = await client.query<{ n: number }>(
            `SELECT count(*)::int AS n FROM cases WHERE user_id = $1 AND state <> 'closed'`,
            [a.accountId],
          );
          if ((open.rows[0]?.n ?? 0) >= a.maxOpenCases) return { outcome: 'limit', caseId: null };
          caseId = randomUUID();
          await client.query(
            `INSERT INTO cases (id, user_id, chain, subject_kind, subject, state, severity, sanctions, snapshot)
             VALUES ($1, $2, $3, $4, $5, 'open', $6, $7, $8)`,
            [caseId, a.accountId, e.chain, e.subjectKind, e.subject, e.severity, e.sanctions, unopened(e)],
          );
          outcome = 'opened';
        }
        await insertAlert(client, a, caseId, false);
        return { outcome, caseId };
      });
    },

    /** The case as a run of its workflow starts from, or null when no case of that account has that id. */
    async load(caseId: string, accountId: string): Promise<CaseRow | null> {
      const { rows } = await pool.query(`SELECT ${CASE_COLUMNS} FROM cases WHERE id = $1 AND user_id = $2`, [
        caseId,
        accountId,
      ]);
      return rows[0] ? toCaseRow(rows[0]) : null;
    },

    /**
     * The category a true positive blocklists its subject under: sanctions for a sanctions case, else the first
     * category (not `other`) among the latest alert's findings, else scam.
     */
    async blocklistCategory(caseId: string): Promise<string> {
      const { rows } = await pool.query<{ sanctions: boolean; findings: string[] }>(
        'SELECT sanctions, findings FROM case_alerts WHERE case_id = $1 ORDER BY created_at DESC LIMIT 1',
        [caseId],
      );
      const latest = rows[0];
      if (!latest || latest.sanctions) return 'sanctions';
      const categories = latest.findings.map((f) => f.split(' ')[1]).filter((c) => c && c !== 'other' && c !== 'allow');
      return categories[0] ?? 'scam';
    },

    /** The update ids of the case's latest trail entries (newest first, at most `limit`). */
    async appliedUpdateIds(caseId: string, limit = 1000): Promise<string[]> {
      const { rows } = await pool.query<{ update_id: string }>(
        `SELECT update_id FROM case_trail WHERE case_id = $1 AND update_id IS NOT NULL ORDER BY seq DESC LIMIT $2`,
        [caseId, limit],
      );
      return rows.map((r) => r.update_id);
    },

    /** The account's SLA per severity (seconds), each severity's row or the default. */
    async slas(accountId: string, defaults: LoadedCase['sla']): Promise<LoadedCase['sla']> {
      const { rows } = await pool.query<{ severity: CaseSeverity; assign_within: number; decide_within: number }>(
        'SELECT severity, assign_within, decide_within FROM case_slas WHERE user_id = $1',
        [accountId],
      );
      const sla = structuredClone(defaults);
      for (const r of rows) sla[r.severity] = { assignWithin: r.assign_within, decideWithin: r.decide_within };
      return sla;
    },

    /**
     * Appends the workflow's entries to the case's trail and writes the mirror after the last, in ONE transaction
     * that holds the case row. Idempotent by (case, seq): entries at or below the stored length were written by an
     * attempt whose answer was lost and are skipped. Each entry is chained to the stored head and signed
     * (`signer`); a closing entry stores its suppression; every entry tells the account's sockets (`case_updated`,
     * and `case_escalated` for an escalation). Returns the entries written now.
     */
    async appendEntries(
      caseId: string,
      accountId: string,
      entries: PendingTrailEntry[],
      signer: EvidenceSigner,
      options: { suppressFalsePositiveDays: number },
    ): Promise<{ written: number; trailLength: number }> {
      // The key is read before the transaction: a read inside it would ask the pool for a second connection.
      const pinned = await signer.pinned();
      return inTransaction(pool, async (client) => {
        const { rows } = await client.query(
          `SELECT ${CASE_COLUMNS} FROM cases WHERE id = $1 AND user_id = $2 FOR UPDATE`,
          [caseId, accountId],
        );
        if (!rows[0]) throw new Error(`case ${caseId} of account ${accountId} is not stored`);
        const row = toCaseRow(rows[0]);
        let head = row.trailHead ?? genesisHash(caseId);
        let length = row.trailLength;
        let written = 0;
        for (const pending of entries) {
          if (pending.seq <= length) continue;
          if (pending.seq !== length + 1)
            throw new Error(`case ${caseId}: entry ${pending.seq} would leave a gap after ${length}`);
          const body: TrailEntryBody = {
            request_id: trailEntryId(caseId, pending.seq),
            case_id: caseId,
            seq: pending.seq,
            at: pending.at,
            actor: trailActor(pending.actor),
            action: pending.action,
            detail: pending.detail,
            before: pending.before,
            after: pending.after,
            prev_hash: head,
          };
          const hash = entryHash(body);
          const signature = await pinned.signAnswer({ ...body, hash });
          await client.query(
            'INSERT INTO case_trail (case_id, seq, entry, hash, signature, update_id) VALUES ($1, $2, $3, $4, $5, $6)',
            [caseId, pending.seq, body, hash, signature, pending.updateId ?? null],
          );
          if (pending.closing) await suppress(client, row, pending, options.suppressFalsePositiveDays);
          await notify(client, accountId, caseId, pending);
          head = hash;
          length = pending.seq;
          written++;
        }
        const last = entries.filter((e) => e.seq <= length).at(-1);
        if (written > 0 && last) await writeMirror(client, caseId, last, length, head, entries);
        return { written, trailLength: length };
      });
    },
  };
}

export type CaseStore = ReturnType<typeof createCaseStore>;

/**
 * The open case already holds this evidence at this gravity (its mirror, as its workflow last wrote it): the alert is
 * recorded and nothing is sent to the workflow, which would change nothing (a monitor's or a screened address's
 * repeated findings cost one row, not a workflow task).
 */
function repeats(c: CaseSnapshot, e: AlertEvidence): boolean {
  return (
    c.state !== 'closed' &&
    c.fingerprint === e.fingerprint &&
    higherSeverity(c.severity, e.severity) === c.severity &&
    (c.sanctions || !e.sanctions)
  );
}

function trailActor(actor: PendingTrailEntry['actor']): TrailActor {
  return actor.kind === 'system' ? { kind: 'system' } : { kind: 'member', member_id: actor.memberId, role: actor.role };
}

async function insertAlert(
  client: PoolClient,
  a: { alertKey: string; source: string; requestId: string | null; evidence: AlertEvidence },
  caseId: string,
  suppressed: boolean,
): Promise<void> {
  await client.query(
    `INSERT INTO case_alerts
       (alert_key, case_id, source, request_id, fingerprint, severity, sanctions, suppressed, findings)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (alert_key) DO NOTHING`,
    [
      a.alertKey,
      caseId,
      a.source,
      a.requestId,
      a.evidence.fingerprint,
      a.evidence.severity,
      a.evidence.sanctions,
      suppressed,
      JSON.stringify(a.evidence.findings),
    ],
  );
}

/** A false positive's evidence is suppressed for a while; a true positive's (now blocklisted) for good. */
async function suppress(client: PoolClient, row: CaseRow, e: PendingTrailEntry, fpDays: number): Promise<void> {
  const closing = e.closing as NonNullable<PendingTrailEntry['closing']>;
  const expires = closing.disposition === 'false_positive' ? new Date(Date.parse(e.at) + fpDays * 86_400_000) : null;
  await client.query(
    `INSERT INTO case_suppressions (user_id, chain, subject, fingerprint, case_id, disposition, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7)
     ON CONFLICT (user_id, chain, subject, fingerprint) DO UPDATE
       SET case_id = EXCLUDED.case_id, disposition = EXCLUDED.disposition, expires_at = EXCLUDED.expires_at,
           created_at = now()`,
    [row.accountId, row.chain, row.subject, closing.fingerprint, row.id, closing.disposition, expires],
  );
}

async function notify(client: PoolClient, accountId: string, caseId: string, e: PendingTrailEntry): Promise<void> {
  const payload = {
    caseId,
    seq: e.seq,
    action: e.action,
    state: e.after.state,
    severity: e.after.severity,
    assigneeId: e.after.assigneeId,
    at: e.at,
  };
  await client.query('SELECT realtime_notify($1, $2, $3)', [accountId, 'case_updated', payload]);
  if (e.escalated) await client.query('SELECT realtime_notify($1, $2, $3)', [accountId, 'case_escalated', payload]);
}

async function writeMirror(
  client: PoolClient,
  caseId: string,
  last: PendingTrailEntry,
  length: number,
  head: string,
  entries: PendingTrailEntry[],
): Promise<void> {
  const s = last.after;
  const slaRestart = entries.filter((e) => e.restartsSla && e.seq <= length).at(-1)?.at ?? null;
  const sarReady = entries.some((e) => e.closing?.disposition === 'true_positive');
  await client.query(
    `UPDATE cases SET snapshot = $2, state = $3, severity = $4, sanctions = $5, assignee_id = $6,
       trail_length = $7, trail_head = $8, updated_at = now(),
       closed_at = CASE WHEN $3 = 'closed' THEN coalesce(closed_at, $9::timestamptz) ELSE NULL END,
       sla_since = coalesce($10::timestamptz, sla_since),
       sar_ready = CASE WHEN $3 = 'closed' THEN sar_ready OR $11 ELSE false END
     WHERE id = $1`,
    [caseId, s, s.state, s.severity, s.sanctions, s.assigneeId, length, head, last.at, slaRestart, sarReady],
  );
}
