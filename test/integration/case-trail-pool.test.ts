import { randomUUID } from 'node:crypto';
import type { Pool } from 'pg';
import type { AlertEvidence } from '../../src/cases/alert-evidence';
import { createCaseStore } from '../../src/cases/case-store';
import type { CaseSnapshot } from '../../src/cases/domain/case-model';
import type { PendingTrailEntry } from '../../src/cases/workflow-types';
import { createPool } from '../../src/platform/db/pool';
import { createEvidenceSigner } from '../../src/platform/signing/evidence-signer';
import { createPostgresKeyRing } from '../../src/platform/signing/postgres-key-ring';

/** As many appends at once as the pool has connections, and more: the worker's activity slots are the pool's size. */
const POOL_SIZE = 2;
const CASES = 6;

/**
 * Every connection of the pool held by a case's trail transaction at once must not stall them: each entry is signed
 * inside that transaction, with the key read before it. The Postgres key ring (the default when no
 * EVIDENCE_SIGNING_KEYS is configured) once read the key there, on the pool, at a process's first signature and at
 * every refresh: with every connection held by such a transaction, the appends waited for each other until the
 * pool's connect timeout failed them (as PayPal events did: paypal-events-pool.test.ts).
 */
describe('case trail appends on a pool that their transactions fill', () => {
  let shared: Pool;
  beforeAll(() => {
    shared = createPool(process.env.TEST_DATABASE_URL as string, 4);
  });
  afterAll(async () => shared.end());

  /** A case opened by an alert, for an account of its own. */
  async function openCase(): Promise<{ accountId: string; caseId: string; snapshot: CaseSnapshot }> {
    const { rows } = await shared.query<{ id: string }>(`INSERT INTO users (role) VALUES ('user') RETURNING id`);
    const accountId = (rows[0] as { id: string }).id;
    const evidence: AlertEvidence = {
      chain: 'ethereum',
      subjectKind: 'address',
      subject: `0x${randomUUID().replaceAll('-', '').padEnd(40, '0')}`,
      severity: 'high',
      sanctions: true,
      fingerprint: randomUUID(),
      findings: ['sanctions sanctions self'],
    };
    const alert = await createCaseStore(shared).recordAlert({
      accountId,
      alertKey: `test:${randomUUID()}`,
      source: 'job',
      requestId: null,
      evidence,
      maxOpenCases: 10,
    });
    expect(alert.outcome).toBe('opened');
    const stored = await shared.query<{ snapshot: CaseSnapshot }>('SELECT snapshot FROM cases WHERE id = $1', [
      alert.caseId,
    ]);
    return {
      accountId,
      caseId: alert.caseId as string,
      snapshot: (stored.rows[0] as { snapshot: CaseSnapshot }).snapshot,
    };
  }

  const opened = (before: CaseSnapshot): PendingTrailEntry => ({
    seq: 1,
    at: new Date().toISOString(),
    actor: { kind: 'system' },
    action: 'opened',
    detail: {},
    before,
    after: { ...before, fingerprint: 'opened' },
    closing: null,
    escalated: false,
    restartsSla: true,
    updateId: null,
  });

  test(`when ${CASES} cases append at once on a pool of ${POOL_SIZE}, every one is written, promptly`, async () => {
    const cases = [];
    for (let i = 0; i < CASES; i++) cases.push(await openCase());
    const pool = createPool(process.env.TEST_DATABASE_URL as string, POOL_SIZE, {
      connectMs: 3_000,
      statementMs: 10_000,
    });
    try {
      // A process's first signature: the ring has read no key yet.
      const signer = createEvidenceSigner(createPostgresKeyRing(pool));
      const store = createCaseStore(pool);

      const started = Date.now();
      const outcomes = await Promise.allSettled(
        cases.map((c) =>
          store.appendEntries(c.caseId, c.accountId, [opened(c.snapshot)], signer, { suppressFalsePositiveDays: 30 }),
        ),
      );

      expect(outcomes.filter((o) => o.status === 'rejected')).toEqual([]);
      // Far below the connect timeout: nothing waited for a connection another transaction of its own kind held.
      expect(Date.now() - started).toBeLessThan(3_000);
      const { rows } = await shared.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM case_trail WHERE case_id = ANY($1) AND signature IS NOT NULL',
        [cases.map((c) => c.caseId)],
      );
      expect(rows).toEqual([{ n: CASES }]);
    } finally {
      await pool.end();
    }
  });
});
