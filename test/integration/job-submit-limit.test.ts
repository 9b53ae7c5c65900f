import { randomBytes } from 'node:crypto';
import { generateApiKey } from '../../src/identity/api-key-format';
import { API_KEY_SCOPES } from '../../src/identity/scopes';
import { screeningWorkflowId } from '../../src/screening/workflow-ids';
import { documentValidator, type DocumentValidator } from '../helpers/openapi-validator';
import { recordSecret } from '../helpers/run-log';
import { startTestStack, type TestStack } from '../helpers/test-stack';

/**
 * The job-submit limit (JOB_SUBMIT_LIMIT_PER_MINUTE, here 5) counts per account: every key and session of the account
 * and every route that starts paid work (job submit, the deprecated analyze endpoints, monitor create and re-screen)
 * spend one budget, kept in Postgres. A refused submit holds nothing, stores nothing and starts nothing.
 */
const LIMIT = 5;
let stack: TestStack;
let v: DocumentValidator;

beforeAll(async () => {
  // No worker: accepted jobs stay queued with their holds, so every credit and row the test sees is the submits'.
  stack = await startTestStack({
    worker: false,
    env: { JOB_SUBMIT_LIMIT_PER_MINUTE: String(LIMIT), SYNC_ANALYZE_WAIT_MS: '1000' },
  });
  v = await documentValidator(await (await fetch(`${stack.api.url}/api/v1/openapi.json`)).json());
}, 60_000);
afterAll(async () => stack?.stop());

const freshKya = () => ({ chain: 'ethereum', address: `0x${randomBytes(20).toString('hex')}` });

/** A second key of the account, holding every scope like the first. */
async function secondKey(userId: string): Promise<string> {
  const key = generateApiKey();
  recordSecret(key);
  await stack.stores.users.createApiKey(userId, 'second', key, { scopes: API_KEY_SCOPES });
  return key;
}

/** Sends and checks the answer against the OpenAPI document (status listed, body and required headers). */
async function send(method: string, path: string, key: string, body?: unknown) {
  const answer = await stack.http(method, path, { key, body });
  v.expectMatches(method, path, answer.status, answer.body, answer.headers);
  return answer;
}

/** Everything a submit could have left behind for the account: credits, holds, jobs, monitors. */
async function footprint(userId: string) {
  const { rows } = await stack.pool.query<{ jobs: number; holds: number; monitors: number }>(
    `SELECT (SELECT count(*)::int FROM screening_jobs WHERE user_id = $1) AS jobs,
            (SELECT count(*)::int FROM credit_holds WHERE user_id = $1) AS holds,
            (SELECT count(*)::int FROM monitors WHERE user_id = $1) AS monitors`,
    [userId],
  );
  return { ...(await stack.stores.credits.balance(userId)), ...rows[0] };
}

describe('the job-submit limit', () => {
  test(
    'when two keys of one account submit through every paid route, then the 5 first are accepted, every further ' +
      'one is 429 RATE_LIMITED holding and storing nothing, and another account is unaffected',
    async () => {
      // Arrange
      const account = await stack.createUser({ credits: 100 });
      const [first, second] = [account.key, await secondKey(account.id)];
      const other = await stack.createUser({ credits: 10 });

      // Act: the budget's five, across both keys and every route that starts paid work
      const accepted = [
        await send('POST', '/api/v1/kyt/job', first, freshKya()),
        await send('POST', '/api/v1/kyt/job', second, freshKya()),
        await send('POST', '/api/v1/kya/analyze', first, freshKya()),
        await send('POST', '/api/v1/monitors', second, freshKya()),
      ];
      const monitorId = accepted[3]?.body.data.id as string;
      accepted.push(await send('POST', `/api/v1/monitors/${monitorId}/rescreen`, first));
      const before = await footprint(account.id);
      const refused = [
        await send('POST', '/api/v1/kyt/job', second, freshKya()),
        await send('POST', '/api/v1/kyt/job', first, freshKya()),
        await send('POST', '/api/v1/kyt/analyze', second, freshKya()),
        await send('POST', '/api/v1/monitors', first, freshKya()),
        await send('POST', `/api/v1/monitors/${monitorId}/rescreen`, second),
      ];
      const after = await footprint(account.id);
      const elsewhere = await send('POST', '/api/v1/kyt/job', other.key, freshKya());
      // The analyze's wait left Temporal's long poll on its workflow running (JobService.waitForOutcome does not
      // cancel it): ending the workflow ends the poll before the stack closes its connection.
      await stack.temporal.workflow.getHandle(screeningWorkflowId(accepted[2]?.body.data.request_id)).terminate();

      // Assert
      expect(accepted.map((a) => a.status)).toEqual([202, 202, 202, 201, 202]);
      expect(accepted.map((a) => a.headers.get('ratelimit-remaining'))).toEqual(['4', '3', '2', '1', '0']);
      expect(refused.map((r) => r.status)).toEqual([429, 429, 429, 429, 429]);
      for (const r of refused) {
        expect(r.body).toEqual({
          success: false,
          error: {
            code: 'RATE_LIMITED',
            message: expect.stringMatching(/^Job submit limit of 5 submits per 60 s exceeded for this account/),
            details: { tier: 'free', limit: LIMIT, windowSeconds: 60, retryAfterSeconds: expect.any(Number) },
          },
        });
        expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
        expect([r.headers.get('ratelimit-limit'), r.headers.get('ratelimit-remaining')]).toEqual(['5', '0']);
      }
      // Three queued jobs, and the monitor's create held its first screening (no worker runs it here).
      expect(before).toMatchObject({ jobs: 3, holds: 4, monitors: 1 });
      expect(after).toEqual(before);
      expect([elsewhere.status, elsewhere.headers.get('ratelimit-remaining')]).toEqual([202, '4']);
    },
  );

  test('when 20 submits of one account race over its two keys, then exactly 5 are accepted', async () => {
    // Arrange
    const account = await stack.createUser({ credits: 100 });
    const keys = [account.key, await secondKey(account.id)];

    // Act
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        stack.http('POST', '/api/v1/kyt/job', { key: keys[i % 2], body: freshKya() }),
      ),
    );

    // Assert
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 202)).toHaveLength(LIMIT);
    expect(statuses.filter((s) => s === 429)).toHaveLength(20 - LIMIT);
    const held = answers.filter((a) => a.status === 202).map((a) => a.body.data.request_id as string);
    const { rows } = await stack.pool.query<{ request_id: string }>(
      'SELECT request_id FROM screening_jobs WHERE user_id = $1',
      [account.id],
    );
    expect(rows.map((r) => r.request_id).sort()).toEqual(held.sort());
    const credits = await footprint(account.id);
    expect(credits).toMatchObject({ balance: 100, holds: LIMIT, jobs: LIMIT });
  });
});
