import type { Pool } from 'pg';
import type { CaseSeverity, CaseSnapshot, CaseState } from './domain/case-model';
import type { CaseSla } from './domain/sla';
import type { TrailEntry } from './trail/trail-entry';

export interface CaseRecord {
  id: string;
  chain: string;
  subjectKind: 'address' | 'transaction';
  subject: string;
  snapshot: CaseSnapshot;
  trailLength: number;
  trailHead: string | null;
  sarReady: boolean;
  openedAt: Date;
  updatedAt: Date;
  closedAt: Date | null;
}

export interface CaseAlertRecord {
  source: string;
  requestId: string | null;
  fingerprint: string;
  severity: CaseSeverity;
  sanctions: boolean;
  suppressed: boolean;
  findings: string[];
  createdAt: Date;
}

export interface CaseFilters {
  state?: CaseState;
  severity?: CaseSeverity;
  assigneeId?: string;
  subject?: string;
}

const COLUMNS = `id, chain, subject_kind, subject, snapshot, trail_length, trail_head, sar_ready, opened_at, updated_at,
  closed_at`;

// biome-ignore lint/suspicious/noExplicitAny: a pg row
const toRecord = (r: any): CaseRecord => ({
  id: r.id,
  chain: r.chain,
  subjectKind: r.subject_kind,
  subject: r.subject,
  snapshot: r.snapshot,
  trailLength: r.trail_length,
  trailHead: r.trail_head,
  sarReady: r.sar_ready,
  openedAt: r.opened_at,
  updatedAt: r.updated_at,
  closedAt: r.closed_at,
});

/** The read side of cases: the queue, one case with its trail and alerts, and the account's SLA. Account-scoped. */
export function createCaseQueries(pool: Pool) {
  return {
    /** A page of the account's cases, most recently changed first, with the total that matches the filters. */
    async list(
      accountId: string,
      filters: CaseFilters,
      page: { limit: number; offset: number },
    ): Promise<{ cases: CaseRecord[]; total: number }> {
      const where = ['user_id = $1'];
      const values: unknown[] = [accountId];
      const add = (sql: string, value: unknown) => {
        values.push(value);
        where.push(sql.replace('?', `$${values.length}`));
      };
      if (filters.state) add('state = ?', filters.state);
      if (filters.severity) add('severity = ?', filters.severity);
      if (filters.assigneeId) add('assignee_id = ?', filters.assigneeId);
      if (filters.subject) add('subject = ?', filters.subject);
      const clause = where.join(' AND ');
      const [rows, total] = await Promise.all([
        pool.query(
          `SELECT ${COLUMNS} FROM cases WHERE ${clause} ` +
            `ORDER BY updated_at DESC, id LIMIT ${page.limit} OFFSET ${page.offset}`,
          values,
        ),
        pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM cases WHERE ${clause}`, values),
      ]);
      return { cases: rows.rows.map(toRecord), total: total.rows[0]?.n ?? 0 };
    },

    /** One case of the account, or null (another account's case is not found either). */
    async find(accountId: string, caseId: string): Promise<CaseRecord | null> {
      const { rows } = await pool.query(`SELECT ${COLUMNS} FROM cases WHERE id = $1 AND user_id = $2`, [
        caseId,
        accountId,
      ]);
      return rows[0] ? toRecord(rows[0]) : null;
    },

    /** The case's whole trail, in order, each entry as signed (body, hash, signature). */
    async trail(caseId: string): Promise<TrailEntry[]> {
      const { rows } = await pool.query<{ entry: TrailEntry; hash: string; signature: TrailEntry['signature'] }>(
        'SELECT entry, hash, signature FROM case_trail WHERE case_id = $1 ORDER BY seq',
        [caseId],
      );
      return rows.map((r) => ({ ...r.entry, hash: r.hash, signature: r.signature }));
    },

    /** The latest alerts of the case (at most `limit`), newest first. */
    async alerts(caseId: string, limit = 100): Promise<CaseAlertRecord[]> {
      const { rows } = await pool.query(
        `SELECT source, request_id, fingerprint, severity, sanctions, suppressed, findings, created_at
         FROM case_alerts WHERE case_id = $1 ORDER BY created_at DESC LIMIT $2`,
        [caseId, limit],
      );
      return rows.map((r) => ({
        source: r.source,
        requestId: r.request_id,
        fingerprint: r.fingerprint,
        severity: r.severity,
        sanctions: r.sanctions,
        suppressed: r.suppressed,
        findings: r.findings,
        createdAt: r.created_at,
      }));
    },

    /** Sets the account's SLA for the severities given (the others keep theirs). */
    async setSla(accountId: string, sla: Partial<CaseSla>): Promise<void> {
      for (const [severity, s] of Object.entries(sla)) {
        if (!s) continue;
        await pool.query(
          `INSERT INTO case_slas (user_id, severity, assign_within, decide_within) VALUES ($1, $2, $3, $4)
           ON CONFLICT (user_id, severity) DO UPDATE
             SET assign_within = EXCLUDED.assign_within, decide_within = EXCLUDED.decide_within, updated_at = now()`,
          [accountId, severity, s.assignWithin, s.decideWithin],
        );
      }
    },
  };
}

export type CaseQueries = ReturnType<typeof createCaseQueries>;
