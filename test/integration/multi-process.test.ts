import { Client, Connection } from '@temporalio/client';
import type { Pool } from 'pg';
import { generateApiKey } from '../../src/identity/api-key-format';
import { createPool } from '../../src/platform/db/pool';
import { screeningWorkflowId } from '../../src/screening/workflow-ids';
import { createStores, type Stores } from '../helpers/stores';
import type { HttpCall } from '../helpers/http-call';
import { connectRecording } from '../helpers/realtime-client';
import { recordSecret } from '../helpers/run-log';
import {
  startServiceCluster,
  type ApiProcess,
  type ServiceCluster,
  type WorkerProcess,
} from '../helpers/service-cluster';

/**
 * Scaled out: two api and two worker processes (the `npm run api` / `npm run worker` entry points) on the run's one
 * Postgres and one Temporal dev server, a task queue of their own. Nothing an instance keeps in memory may decide
 * an outcome: jobs complete once whichever api took them and whichever worker ran them, socket events reach a
 * client on the other api (Postgres NOTIFY fans out to every api), the per-account limits are counted in Postgres,
 * and a key revoked through one api stops working on the other.
 */
const SUBMIT_LIMIT = 5;
/** The free tier's market-data budget per account and minute (src/platform/rate-limit/tiers.ts). */
const MARKET_LIMIT = 60;
/** A reference-data-only KYA (no bitcoin node is configured): the whole job path without a chain's latency. */
const JOB = { chain: 'bitcoin', address: '12QtD5BFwRsdNsAZY76UVE1xyCGNTojH9h' };
const CANDLES = '/api/v1/market-data/candles?symbol=ALGO-USDT&interval=1d&limit=1';

let cluster: ServiceCluster;
let apiA: ApiProcess;
let apiB: ApiProcess;
let workers: WorkerProcess[];
let pool: Pool;
let stores: Stores;
let connection: Connection;
let temporal: Client;

beforeAll(async () => {
  cluster = await startServiceCluster({
    databaseUrl: process.env.TEST_DATABASE_URL as string,
    temporalAddress: process.env.TEST_TEMPORAL_ADDRESS as string,
    // A minute's auth cache: only the drop on the revocation event, not the TTL, can explain a refusal within seconds.
    env: { JOB_SUBMIT_LIMIT_PER_MINUTE: String(SUBMIT_LIMIT), AUTH_CACHE_TTL_MS: '60000' },
  });
  // Workers first: an api is ready only once a worker polls its task queue.
  workers = await Promise.all([cluster.startWorker(), cluster.startWorker()]);
  [apiA, apiB] = await Promise.all([cluster.startApi(), cluster.startApi()]);
  pool = createPool(process.env.TEST_DATABASE_URL as string, 4);
  stores = createStores(pool);
  connection = await Connection.connect({ address: process.env.TEST_TEMPORAL_ADDRESS as string });
  temporal = new Client({ connection });
}, 240_000);

afterAll(async () => {
  await cluster?.stop();
  await connection?.close();
  await pool?.end();
}, 60_000);

async function createUser(credits: number): Promise<{ id: string; key: string }> {
  const { rows } = await pool.query<{ id: string }>("INSERT INTO users (role) VALUES ('user') RETURNING id");
  const id = (rows[0] as { id: string }).id;
  const key = generateApiKey();
  recordSecret(key);
  await stores.users.createApiKey(id, 'multi-process', key);
  if (credits > 0)
    await stores.credits.grant({
      userId: id,
      amount: credits,
      idempotencyKey: `multi-process-seed:${id}`,
      reason: 'test seed',
      source: 'test',
    });
  return { id, key };
}

/** Polls until the job leaves `queued`; returns the last poll's data. */
async function awaitOutcome(http: HttpCall, key: string, requestId: string): Promise<any> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const res = await http('GET', `/api/v1/kyt/job/${requestId}`, { key });
    if (res.body?.data?.status !== 'queued' || Date.now() > deadline) return res.body?.data;
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Every run of each workflow id on the cluster's task queue, as Temporal's visibility lists them. */
async function runsOf(workflowIds: string[]): Promise<Map<string, string[]>> {
  const runs = new Map<string, string[]>(workflowIds.map((id) => [id, []]));
  for await (const run of temporal.workflow.list({ query: `TaskQueue = '${cluster.taskQueue}'` }))
    runs.get(run.workflowId)?.push(run.status.name);
  return runs;
}

/** Which worker identities started the workflow and activity tasks of these workflows, with their counts. */
async function taskIdentities(workflowIds: string[]): Promise<Map<string, number>> {
  const seen = new Map<string, number>();
  for (const id of workflowIds) {
    const history = await temporal.workflow.getHandle(id).fetchHistory();
    for (const event of history.events ?? []) {
      const identity =
        event.workflowTaskStartedEventAttributes?.identity ?? event.activityTaskStartedEventAttributes?.identity;
      if (identity) seen.set(identity, (seen.get(identity) ?? 0) + 1);
    }
  }
  return seen;
}

describe('two api and two worker processes on one Temporal and one Postgres', () => {
  test('when 20 jobs of 4 accounts are submitted through both apis, then each runs one workflow to completion, is ' +
    'charged once, every balance is its grant less its charges, and both workers ran some of the work', async () => {
    // Arrange
    const accounts = await Promise.all(Array.from({ length: 4 }, () => createUser(10)));

    // Act
    const submitted = await Promise.all(
      Array.from({ length: 20 }, async (_, i) => {
        const account = accounts[i % accounts.length] as { id: string; key: string };
        const via = i % 2 === 0 ? apiA : apiB;
        const res = await via.http('POST', '/api/v1/kyt/job', { key: account.key, body: JOB });
        return { account, status: res.status, requestId: res.body?.data?.request_id as string };
      }),
    );
    // Each polled through the api that did not take it.
    const outcomes = await Promise.all(
      submitted.map((s, i) => awaitOutcome((i % 2 === 0 ? apiB : apiA).http, s.account.key, s.requestId)),
    );

    // Assert
    expect(submitted.map((s) => s.status)).toEqual(Array(20).fill(202));
    expect(outcomes.map((o) => [o.status, o.credits_charged])).toEqual(Array(20).fill(['completed', 1]));
    const ids = submitted.map((s) => s.requestId);
    const { rows: charges } = await pool.query<{ idempotency_key: string; amount: number }>(
      `SELECT idempotency_key, amount::int FROM credit_transactions WHERE user_id = ANY($1) AND kind = 'consume'`,
      [accounts.map((a) => a.id)],
    );
    expect(charges.map((c) => c.idempotency_key).sort()).toEqual(ids.map(screeningWorkflowId).sort());
    for (const account of accounts) {
      const charged = outcomes
        .filter((_, i) => submitted[i]?.account === account)
        .reduce((sum, o) => sum + o.credits_charged, 0);
      expect(await stores.credits.balance(account.id)).toEqual({
        balance: 10 - charged,
        reserved: 0,
        available: 10 - charged,
        debt: 0,
      });
    }
    const workflowIds = ids.map(screeningWorkflowId);
    // Visibility lags the workflow histories by a moment, and a job whose answer alerts completes its workflow just
    // after its mirror says completed (it hands the alert to its case after the settle).
    let runs = await runsOf(workflowIds);
    const settled = () => [...runs.values()].every((r) => r.length === 1 && r[0] === 'COMPLETED');
    for (let tries = 0; tries < 50 && !settled(); tries++) {
      await new Promise((r) => setTimeout(r, 200));
      runs = await runsOf(workflowIds);
    }
    expect([...runs.values()]).toEqual(Array(20).fill(['COMPLETED']));
    const identities = await taskIdentities(workflowIds);
    expect([...identities.keys()].sort()).toEqual(workers.map((w) => w.identity).sort());
  }, 120_000);

  test('when a job is submitted through api A, ' +
    'then a socket connected to api B sees it complete and charge', async () => {
    // Arrange
    const user = await createUser(3);
    const socket = await connectRecording(apiB.url, user.key);
    try {
      // Act
      const res = await apiA.http('POST', '/api/v1/kyt/job', { key: user.key, body: JOB });
      const requestId = res.body?.data?.request_id as string;
      const done = await socket.waitFor(
        'job_status_changed',
        (p) => p.request_id === requestId && p.status !== 'queued',
        60_000,
      );
      const charged = await socket.waitFor('credit_balance_updated', (p) => p.delta < 0, 10_000);

      // Assert
      expect(res.status).toBe(202);
      expect(done).toMatchObject({ request_id: requestId, status: 'completed', api_type: 'KYA', chain: 'bitcoin' });
      expect(charged).toMatchObject({ balance: 2, delta: -1 });
    } finally {
      socket.close();
    }
  }, 90_000);

  test('when 20 submits of one account race over both apis, then exactly 5 are accepted, ' +
    '15 are 429 RATE_LIMITED, and the refused leave no job, hold or charge', async () => {
    // Arrange
    const user = await createUser(100);

    // Act
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        (i % 2 === 0 ? apiA : apiB).http('POST', '/api/v1/kyt/job', { key: user.key, body: JOB }),
      ),
    );
    const accepted = answers.filter((a) => a.status === 202).map((a) => a.body.data.request_id as string);
    const strayHolds = await pool.query(
      'SELECT hold_key FROM credit_holds WHERE user_id = $1 AND NOT hold_key = ANY($2)',
      [user.id, accepted],
    );
    await Promise.all(accepted.map((id) => awaitOutcome(apiA.http, user.key, id)));

    // Assert
    expect(accepted).toHaveLength(SUBMIT_LIMIT);
    const refused = answers.filter((a) => a.status !== 202);
    expect(refused.map((r) => r.status)).toEqual(Array(20 - SUBMIT_LIMIT).fill(429));
    for (const r of refused) {
      expect(r.body).toEqual({
        success: false,
        error: {
          code: 'RATE_LIMITED',
          message: expect.stringMatching(/^Job submit limit of 5 submits per 60 s exceeded for this account/),
          details: { tier: 'free', limit: SUBMIT_LIMIT, windowSeconds: 60, retryAfterSeconds: expect.any(Number) },
        },
      });
      expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    expect(strayHolds.rows).toEqual([]);
    const { rows: jobs } = await pool.query<{ request_id: string }>(
      'SELECT request_id FROM screening_jobs WHERE user_id = $1',
      [user.id],
    );
    expect(jobs.map((j) => j.request_id).sort()).toEqual([...accepted].sort());
    expect(await stores.credits.balance(user.id)).toEqual({
      balance: 100 - SUBMIT_LIMIT,
      reserved: 0,
      available: 100 - SUBMIT_LIMIT,
      debt: 0,
    });
  }, 90_000);

  test('when 70 market-data requests of one free account race over both apis, then exactly 60 are served', async () => {
    // Arrange
    const user = await createUser(0);

    // Act
    const statuses = await Promise.all(
      Array.from({ length: MARKET_LIMIT + 10 }, async (_, i) => {
        const res = await fetch(`${(i % 2 === 0 ? apiA : apiB).url}${CANDLES}`, {
          headers: { authorization: `Bearer ${user.key}` },
        });
        await res.arrayBuffer();
        return res.status;
      }),
    );

    // Assert
    expect(statuses.filter((s) => s === 200)).toHaveLength(MARKET_LIMIT);
    expect(statuses.filter((s) => s === 429)).toHaveLength(10);
  });

  /** The NOTIFY's trip to B's listener on a loaded CI machine (usually milliseconds; 1.3 s seen once). */
  const REVOCATION_BOUND_MS = 5_000;

  test(
    'when a key is revoked through api A, then api B refuses it within 5 s (having served it just before) and ' +
      'never serves it again',
    async () => {
      // Arrange: a second key of the account, used on B so that B has just authenticated it.
      const owner = await createUser(0);
      const created = await apiA.http('POST', '/api/v1/api-keys', { key: owner.key, body: { name: 'revoked-on-a' } });
      const revocable = created.body?.data?.key as string;
      recordSecret(revocable);
      const beforeRevoke = await apiB.http('GET', '/api/v1/me', { key: revocable });

      // Act
      const revoke = await apiA.http('DELETE', `/api/v1/api-keys/${created.body?.data?.id}`, { key: owner.key });
      const revokedAt = performance.now();
      const seen: { status: number; afterMs: number }[] = [];
      while (!seen.some((s) => s.status === 401) && performance.now() - revokedAt < REVOCATION_BOUND_MS) {
        const res = await apiB.http('GET', '/api/v1/me', { key: revocable });
        seen.push({ status: res.status, afterMs: performance.now() - revokedAt });
      }
      // Then more requests over the next half second: a refusal must not be followed by an answer.
      const settled = performance.now();
      while (performance.now() - settled < 500) {
        const res = await apiB.http('GET', '/api/v1/me', { key: revocable });
        seen.push({ status: res.status, afterMs: performance.now() - revokedAt });
        await new Promise((r) => setTimeout(r, 25));
      }

      // Assert
      expect([created.status, beforeRevoke.status, revoke.status]).toEqual([201, 200, 200]);
      const firstRefusal = seen.findIndex((s) => s.status === 401);
      expect(firstRefusal).toBeGreaterThanOrEqual(0);
      expect(seen[firstRefusal]?.afterMs).toBeLessThan(REVOCATION_BOUND_MS);
      expect(seen.slice(firstRefusal).filter((s) => s.status !== 401)).toEqual([]);
      expect(seen.slice(0, firstRefusal).filter((s) => s.status !== 200)).toEqual([]);
    },
  );
});
