/**
 * The mirror's seq guard with seqs the size the screening workflow makes (run start ms × 100,000 + workflow history
 * length, about 1.7e17, past 2^53): one apart must still order, which a JS number cannot promise (it rounds to
 * multiples of 32 there). Real Postgres.
 */
import { randomUUID } from 'node:crypto';
import type { Pool } from 'pg';
import { createPool } from '../../src/platform/db/pool';
import { createJobStore, type JobUpdate } from '../../src/screening/jobs-store';

describe('mirror writes ordered by a seq past 2^53', () => {
  let pool: Pool;

  beforeAll(() => {
    pool = createPool(process.env.TEST_DATABASE_URL as string, 2);
  });
  afterAll(async () => {
    await pool.end();
  });

  test('a write one seq later applies, an older or equal one does not', async () => {
    const jobs = createJobStore(pool);
    const { rows } = await pool.query<{ id: string }>(`INSERT INTO users (role) VALUES ('user') RETURNING id`);
    const requestId = randomUUID();
    await jobs.insertQueued({
      requestId,
      userId: (rows[0] as { id: string }).id,
      apiType: 'KYA',
      chain: 'bitcoin',
      target: '12QtD5BFwRsdNsAZY76UVE1xyCGNTojH9h',
      referenceId: null,
      crawlTimeoutMs: 8000,
      maxDepth: 1,
      creditsHeld: 1,
    });
    const base = BigInt(Date.now()) * BigInt(100_000) + BigInt(20);
    expect(base).toBeGreaterThan(BigInt(Number.MAX_SAFE_INTEGER));
    const write = (seq: bigint, status: JobUpdate['status']): JobUpdate => ({
      requestId,
      seq: seq.toString(),
      runId: 'run-1',
      status,
      response: null,
      fullResponse: null,
      error: status === 'failed' ? { code: 'ANALYSIS_FAILED', message: 'first' } : null,
      creditsCharged: status === 'failed' ? 0 : 1,
    });

    expect(await jobs.applyUpdate(write(base, 'failed'))).not.toBeNull();
    expect(await jobs.applyUpdate(write(base + BigInt(1), 'completed'))).not.toBeNull();
    expect(await jobs.applyUpdate(write(base + BigInt(1), 'failed'))).toBeNull();
    expect(await jobs.applyUpdate(write(base, 'failed'))).toBeNull();
    const stored = await pool.query('SELECT status, seq::text AS seq FROM screening_jobs WHERE request_id = $1', [
      requestId,
    ]);
    expect(stored.rows[0]).toEqual({ status: 'completed', seq: (base + BigInt(1)).toString() });
  });
});
