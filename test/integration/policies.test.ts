import { readFileSync } from 'node:fs';
import path from 'node:path';
import { PolicyNotFoundError } from '../../src/screening';
import { inTransaction } from '../../src/platform/db/transaction';
import { startTestStack, type TestStack } from '../helpers/test-stack';

/**
 * Customer risk policies on a real api over Postgres: versions, the identical-PUT rule under concurrency, 400s
 * naming the field, accounts kept apart, the default, deletion, scopes, and the resolver screening uses.
 */
const MODEL = JSON.parse(readFileSync(path.join(__dirname, '..', '..', 'data', 'risk', 'risk-model.json'), 'utf8'));

let stack: TestStack;
beforeAll(async () => {
  // Edits unlimited here (the first test makes 105 at once); the limit has its own stack below.
  stack = await startTestStack({ worker: false, env: { POLICY_EDIT_LIMIT_PER_MINUTE: '0' } });
});
afterAll(async () => stack?.stop());

const put = (key: string, id: string, body: unknown) => stack.http('PUT', `/api/v1/policies/${id}`, { key, body });
const get = (key: string, p: string) => stack.http('GET', `/api/v1/policies${p}`, { key });
const versionsOf = async (userId: string, id: string) =>
  (
    await stack.pool.query<{ version: number }>(
      'SELECT version FROM risk_policy_versions WHERE user_id = $1 AND policy_id = $2 ORDER BY version',
      [userId, id],
    )
  ).rows.map((r) => r.version);

describe('risk policies', () => {
  test('when an account keeps 100 live policies, then a 101st is refused until one is deleted', async () => {
    const user = await stack.createUser();
    const created = await Promise.all(
      Array.from({ length: 105 }, (_, i) => put(user.key, `p${i}`, { levels: { HIGH: 60 + (i % 30) } })),
    );
    const statuses = created.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(100);
    expect(statuses.filter((s) => s === 409)).toHaveLength(5);
    expect(created.find((r) => r.status === 409)!.body.code).toBe('POLICY_LIMIT_REACHED');
    const kept = created.map((r, i) => (r.status === 201 ? `p${i}` : null)).filter(Boolean) as string[];
    // Editing a kept policy is not a new one.
    expect((await put(user.key, kept[0]!, { levels: { HIGH: 99 } })).status).toBe(200);
    expect((await stack.http('DELETE', `/api/v1/policies/${kept[1]}`, { key: user.key })).status).toBe(204);
    expect((await put(user.key, 'one-more', {})).status).toBe(201);
    expect((await put(user.key, 'two-more', {})).status).toBe(409);
  });

  test(
    'when a policy is created and edited, then the edit is version 2, version 1 (named by no job) is pruned, and ' +
      'an identical PUT makes no version',
    async () => {
      const user = await stack.createUser();
      const created = await put(user.key, 'casino-strict', { severe_categories: ['gambling'], levels: { HIGH: 60 } });
      expect(created.status).toBe(201);
      expect(created.body.data).toEqual({
        id: 'casino-strict',
        version: 1,
        name: 'casino-strict',
        description: null,
        categories: { gambling: { severe: true } },
        severe_categories: ['gambling'],
        indirect: {},
        levels: { HIGH: 60 },
        default: false,
        effective: {
          levels: { MEDIUM: 40, HIGH: 60 },
          indirect: { min_share: MODEL.crawl.dust_share, min_usd: MODEL.crawl.dust_usd, max_hops: null },
        },
        created_at: expect.any(String),
        updated_at: created.body.data.created_at,
      });

      const edited = await put(user.key, 'casino-strict', {
        name: 'Casino, strict',
        categories: { gambling: { severity: 60, weight: 2 } },
        indirect: { min_share: 0.05, max_hops: 2 },
      });
      expect([edited.status, edited.body.data.version, edited.body.data.name]).toEqual([200, 2, 'Casino, strict']);
      expect(edited.body.data.severe_categories).toEqual([]);
      expect(edited.body.data.effective.indirect).toEqual({ min_share: 0.05, min_usd: 50, max_hops: 2 });
      expect(edited.body.data.created_at).toBe(created.body.data.created_at);

      expect((await get(user.key, '/casino-strict?version=1')).status).toBe(404);
      expect((await get(user.key, '/casino-strict')).body.data).toEqual(edited.body.data);
      expect((await get(user.key, '/casino-strict?version=3')).status).toBe(404);
      expect((await get(user.key, '/casino-strict?version=0')).body.error.details.parameter).toBe('version');
      expect((await get(user.key, '/casino-strict?version=99999999999')).status).toBe(400);

      // The same document again (key order and the severe shorthand aside) is no new version.
      const same = await put(user.key, 'casino-strict', {
        indirect: { max_hops: 2, min_share: 0.05 },
        categories: { gambling: { weight: 2, severity: 60 } },
        name: 'Casino, strict',
      });
      expect([same.status, same.body.data.version, same.body.data.updated_at]).toEqual([
        200,
        2,
        edited.body.data.updated_at,
      ]);
      expect(await versionsOf(user.id, 'casino-strict')).toEqual([2]);
    },
  );

  test(
    'when 20 identical PUTs race, then one version exists; when 20 different PUTs race, then they make 20 ' +
      'consecutive versions, each answer naming its own, and only the last is kept (no job names the others)',
    async () => {
      const user = await stack.createUser();
      const body = { severe_categories: ['mixer'], indirect: { min_usd: 500 } };
      const identical = await Promise.all(Array.from({ length: 20 }, () => put(user.key, 'race', body)));
      expect(identical.map((r) => r.status).sort()).toEqual([...Array(19).fill(200), 201]);
      expect(new Set(identical.map((r) => r.body.data.version))).toEqual(new Set([1]));
      expect(await versionsOf(user.id, 'race')).toEqual([1]);

      const different = await Promise.all(
        Array.from({ length: 20 }, (_, i) => put(user.key, 'race', { ...body, indirect: { min_usd: 1000 + i } })),
      );
      expect(different.map((r) => r.status)).toEqual(Array(20).fill(200));
      const versions = different.map((r) => r.body.data.version).sort((a, b) => a - b);
      expect(versions).toEqual(Array.from({ length: 20 }, (_, i) => i + 2));
      expect(await versionsOf(user.id, 'race')).toEqual([21]);
      // Each answer is the version its own body made.
      different.forEach((r, i) => {
        expect(r.body.data.indirect).toEqual({ min_usd: 1000 + i });
      });
      const last = different.find((r) => r.body.data.version === 21);
      expect((await get(user.key, '/race?version=21')).body.data).toEqual(last?.body.data);
    },
  );

  test.each([
    [
      'a severity above its bound',
      'p',
      { categories: { gambling: { severity: 101 } } },
      'categories.gambling.severity',
    ],
    ['a weight above its bound', 'p', { categories: { mixer: { weight: 3.5 } } }, 'categories.mixer.weight'],
    ['a min_share below the crawl dust share', 'p', { indirect: { min_share: 0.001 } }, 'indirect.min_share'],
    ['a min_usd below the crawl dust amount', 'p', { indirect: { min_usd: 10 } }, 'indirect.min_usd'],
    ['a max_hops above its bound', 'p', { indirect: { max_hops: 4 } }, 'indirect.max_hops'],
    ['a MEDIUM cut-off at the standard HIGH', 'p', { levels: { MEDIUM: 70 } }, 'levels.MEDIUM'],
    ['a HIGH cut-off not above MEDIUM', 'p', { levels: { MEDIUM: 50, HIGH: 50 } }, 'levels.HIGH'],
    ['an unknown category', 'p', { categories: { casino: { severity: 90 } } }, 'categories.casino'],
    ['an unknown severe category', 'p', { severe_categories: ['gambling', 'casino'] }, 'severe_categories.1'],
    ['an unknown field', 'p', { colour: 'red' }, 'colour'],
    [
      'an unknown field of a category',
      'p',
      { categories: { gambling: { colour: 'red' } } },
      'categories.gambling.colour',
    ],
    ['a body that is not an object', 'p', [1], 'body'],
    ['the reserved id standard', 'standard', {}, 'id'],
    ['the reserved id bounds, in capitals', 'BOUNDS', {}, 'id'],
    ['an id with a space', 'a%20b', {}, 'id'],
    ['an id of 65 characters', 'x'.repeat(65), {}, 'id'],
  ])(
    'when the PUT has %s (id %s), then 400 names the field and nothing is stored',
    async (_what, id, body, parameter) => {
      const user = await stack.createUser();
      const res = await put(user.key, id, body);
      expect([res.status, res.body.error?.code, res.body.error?.details?.parameter]).toEqual([
        400,
        'INVALID_PARAMETER',
        parameter,
      ]);
      expect((await get(user.key, '')).body.data).toEqual([]);
    },
  );

  test('when another account asks for, edits or deletes a policy, then it sees nothing of it', async () => {
    const owner = await stack.createUser();
    const other = await stack.createUser();
    expect((await put(owner.key, 'mine', { severe_categories: ['scam'] })).status).toBe(201);
    expect((await get(other.key, '/mine')).status).toBe(404);
    expect((await get(other.key, '/mine')).body.code).toBe('POLICY_NOT_FOUND');
    expect((await stack.http('DELETE', '/api/v1/policies/mine', { key: other.key })).status).toBe(404);
    expect((await get(other.key, '')).body).toEqual({ success: true, data: [], default_policy_id: null });
    const setDefault = await stack.http('PUT', '/api/v1/policies/default', {
      key: other.key,
      body: { policy_id: 'mine' },
    });
    expect([setDefault.status, setDefault.body.code]).toEqual([404, 'POLICY_NOT_FOUND']);
    await expect(stack.stores.policies.resolve(other.id, 'mine')).rejects.toBeInstanceOf(PolicyNotFoundError);
    // The same id in the other account is its own policy, at its own version 1.
    expect((await put(other.key, 'mine', { severe_categories: ['mixer'] })).body.data.version).toBe(1);
    expect((await get(owner.key, '/mine')).body.data.severe_categories).toEqual(['scam']);
  });

  test(
    'when a default is set, read and cleared, then jobs naming no policy would resolve it, and deleting the ' +
      'default policy clears it',
    async () => {
      const user = await stack.createUser();
      const empty = await get(user.key, '/default');
      expect(empty.body).toEqual({ success: true, data: { policy_id: null, policy: null } });
      await put(user.key, 'a', { levels: { HIGH: 80 } });
      await put(user.key, 'b', { levels: { HIGH: 90 }, default: true });
      expect((await get(user.key, '/default')).body.data).toMatchObject({ policy_id: 'b', policy: { default: true } });

      const set = await stack.http('PUT', '/api/v1/policies/default', { key: user.key, body: { policy_id: 'a' } });
      expect(set.status).toBe(200);
      expect(set.body.data).toMatchObject({ policy_id: 'a', policy: { id: 'a', version: 1, default: true } });
      const list = await get(user.key, '');
      expect(list.body.default_policy_id).toBe('a');
      expect(list.body.data.map((p: { id: string; default: boolean }) => [p.id, p.default])).toEqual([
        ['a', true],
        ['b', false],
      ]);
      expect(await stack.stores.policies.resolve(user.id, undefined)).toMatchObject({ id: 'a', version: 1 });
      expect(await stack.stores.policies.resolve(user.id, null)).toMatchObject({ id: 'a', version: 1 });
      expect(await stack.stores.policies.resolve(user.id, 'standard')).toBeNull();
      expect(await stack.stores.policies.resolve(user.id, 'b')).toMatchObject({
        id: 'b',
        document: { levels: { HIGH: 90 } },
      });
      // An edit of the default moves what resolves to its new version.
      await put(user.key, 'a', { levels: { HIGH: 85 } });
      expect(await stack.stores.policies.resolve(user.id, null)).toMatchObject({ id: 'a', version: 2 });

      const unknown = await stack.http('PUT', '/api/v1/policies/default', { key: user.key, body: { policy_id: 'z' } });
      expect([unknown.status, unknown.body.code]).toEqual([404, 'POLICY_NOT_FOUND']);
      const bad = await stack.http('PUT', '/api/v1/policies/default', {
        key: user.key,
        body: { policy_id: 'b', x: 1 },
      });
      expect([bad.status, bad.body.error?.details?.parameter]).toEqual([400, 'x']);
      expect((await get(user.key, '/default')).body.data.policy_id).toBe('a');

      expect((await stack.http('DELETE', '/api/v1/policies/default', { key: user.key })).status).toBe(204);
      expect((await get(user.key, '/default')).body.data).toEqual({ policy_id: null, policy: null });
      expect(await stack.stores.policies.resolve(user.id, undefined)).toBeNull();

      // 'standard' as the default is the standard model: no default.
      await put(user.key, 'b', { levels: { HIGH: 90 }, default: true });
      const standard = await stack.http('PUT', '/api/v1/policies/default', {
        key: user.key,
        body: { policy_id: 'standard' },
      });
      expect(standard.body.data).toEqual({ policy_id: null, policy: null });

      await put(user.key, 'b', { levels: { HIGH: 90 }, default: true });
      expect((await stack.http('DELETE', '/api/v1/policies/b', { key: user.key })).status).toBe(204);
      expect((await get(user.key, '/default')).body.data.policy_id).toBeNull();
      expect(await stack.stores.policies.resolve(user.id, null)).toBeNull();
    },
  );

  test(
    'when a policy is deleted, then it is 404 and cannot be named; created again, it continues its version ' +
      'numbers, and its old versions no job named are pruned',
    async () => {
      const user = await stack.createUser();
      await put(user.key, 'gone', { levels: { HIGH: 80 } });
      await put(user.key, 'gone', { levels: { HIGH: 75 } });
      const deleted = await stack.http('DELETE', '/api/v1/policies/gone', { key: user.key });
      expect([deleted.status, deleted.body]).toEqual([204, null]);
      expect((await get(user.key, '/gone')).status).toBe(404);
      expect((await get(user.key, '/gone?version=1')).status).toBe(404);
      expect((await stack.http('DELETE', '/api/v1/policies/gone', { key: user.key })).status).toBe(404);
      expect((await get(user.key, '')).body.data).toEqual([]);
      await expect(stack.stores.policies.resolve(user.id, 'gone')).rejects.toMatchObject({ code: 'POLICY_NOT_FOUND' });

      const again = await put(user.key, 'gone', { levels: { HIGH: 95 } });
      expect([again.status, again.body.data.version]).toEqual([201, 3]);
      expect((await get(user.key, '/gone?version=1')).status).toBe(404);
      expect(await versionsOf(user.id, 'gone')).toEqual([3]);
      expect((await get(user.key, '/gone')).body.data.levels).toEqual({ HIGH: 95 });
      // A version is never rewritten, whoever asks.
      await expect(
        stack.pool.query(`UPDATE risk_policy_versions SET document = '{}' WHERE user_id = $1`, [user.id]),
      ).rejects.toThrow(/immutable/);
      await expect(stack.pool.query('DELETE FROM risk_policy_versions WHERE user_id = $1', [user.id])).rejects.toThrow(
        /immutable/,
      );
    },
  );

  test('when a read-only key asks, then it may read policies but not write them or the default', async () => {
    const user = await stack.createUser();
    const created = await stack.http('POST', '/api/v1/api-keys', {
      key: user.key,
      body: { name: 'ro', scopes: ['read'] },
    });
    expect(created.status).toBe(201);
    const readOnly = created.body.data.key as string;
    await put(user.key, 'p', {});
    const refused = [
      await put(readOnly, 'q', {}),
      await put(readOnly, 'p', { levels: { HIGH: 90 } }),
      await stack.http('DELETE', '/api/v1/policies/p', { key: readOnly }),
      await stack.http('PUT', '/api/v1/policies/default', { key: readOnly, body: { policy_id: 'p' } }),
      await stack.http('DELETE', '/api/v1/policies/default', { key: readOnly }),
    ];
    expect(refused.map((r) => [r.status, r.body.code])).toEqual(Array(5).fill([403, 'INSUFFICIENT_SCOPE']));
    expect((await get(readOnly, '/p')).status).toBe(200);
    expect((await get(readOnly, '')).body.data.map((p: { id: string }) => p.id)).toEqual(['p']);
    expect(await versionsOf(user.id, 'p')).toEqual([1]);
    expect((await stack.http('GET', '/api/v1/policies')).status).toBe(401);
  });

  test("when the bounds are asked for, then they are the model file's, with the standard values", async () => {
    const user = await stack.createUser();
    const res = await get(user.key, '/bounds');
    expect(res.status).toBe(200);
    expect(res.body.data.bounds).toEqual(MODEL.policy_bounds);
    expect(res.body.data.categories.gambling).toEqual({ severity: MODEL.category_severity.gambling });
    expect(res.body.data.levels).toEqual({ MEDIUM: 40, HIGH: 70 });
    expect(res.body.data.indirect).toEqual({
      min_share: MODEL.crawl.dust_share,
      min_usd: MODEL.crawl.dust_usd,
      max_hops: null,
    });
  });

  test(
    "when resolve is given a caller's transaction, then it reads inside it: a default set there and not yet " +
      'committed is seen on that client only',
    async () => {
      const user = await stack.createUser();
      await put(user.key, 'tx', { levels: { HIGH: 80 } });
      const seen = inTransaction(stack.pool, async (client) => {
        await client.query('INSERT INTO risk_policy_defaults (user_id, policy_id) VALUES ($1, $2)', [user.id, 'tx']);
        const inside = await stack.stores.policies.resolve(user.id, null, client);
        const outside = await stack.stores.policies.resolve(user.id, null);
        throw Object.assign(new Error('rolled back'), { inside, outside });
      });
      await expect(seen).rejects.toMatchObject({ inside: { id: 'tx', version: 1 }, outside: null });
      expect(await stack.stores.policies.resolve(user.id, null)).toBeNull();
    },
  );

  test('when a policy is edited 40 times and no job names it, then only its current version is kept', async () => {
    const user = await stack.createUser();
    for (let i = 0; i < 40; i++) {
      const res = await put(user.key, 'churn', { indirect: { min_usd: 100 + i } });
      expect(res.body.data.version).toBe(i + 1);
    }
    expect(await versionsOf(user.id, 'churn')).toEqual([40]);
    expect((await get(user.key, '/churn?version=39')).status).toBe(404);
    expect((await get(user.key, '/churn?version=40')).body.data.indirect).toEqual({ min_usd: 139 });
  });

  test(
    'when a job is scored under a version and the policy is edited 10 times, then that version is kept (and ' +
      "only it besides the current one), and the job's answer and GET ?version= still name it",
    async () => {
      await stack.startWorker();
      const user = await stack.createUser({ credits: 5 });
      await put(user.key, 'kept', { severe_categories: ['gambling'], levels: { HIGH: 60 } });
      await put(user.key, 'kept', { levels: { HIGH: 65 } });
      const submitted = await stack.http('POST', '/api/v1/kyt/job', {
        key: user.key,
        body: { chain: 'ethereum', address: '0x4f47bc496083c727c5fbe3ce9cdf2b0f6496270c', policy_id: 'kept' },
      });
      expect(submitted.status).toBe(202);
      const requestId = submitted.body.data.request_id as string;
      for (let i = 0; i < 10; i++) await put(user.key, 'kept', { levels: { HIGH: 70 + i } });
      expect(await versionsOf(user.id, 'kept')).toEqual([2, 12]);

      const deadline = Date.now() + 30_000;
      let job = await stack.http('GET', `/api/v1/kyt/job/${requestId}`, { key: user.key });
      while (job.body.data.status === 'queued' && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 150));
        job = await stack.http('GET', `/api/v1/kyt/job/${requestId}`, { key: user.key });
      }
      expect(job.body.data.status).toBe('completed');
      expect(job.body.data.response.policy).toMatchObject({ id: 'kept', version: 2 });
      const named = await get(user.key, '/kept?version=2');
      expect([named.status, named.body.data.levels]).toEqual([200, { HIGH: 65 }]);
      // The version a job names cannot be deleted by anyone; one nothing names and not current could be.
      await expect(
        stack.pool.query(`DELETE FROM risk_policy_versions WHERE user_id = $1 AND policy_id = 'kept' AND version = 2`, [
          user.id,
        ]),
      ).rejects.toThrow(/immutable/);
    },
  );
});

describe('the policy-edit limit', () => {
  const LIMIT = 5;
  let limited: TestStack;
  beforeAll(async () => {
    limited = await startTestStack({ worker: false, env: { POLICY_EDIT_LIMIT_PER_MINUTE: String(LIMIT) } });
  });
  afterAll(async () => limited?.stop());

  test(
    `when an account makes more than ${LIMIT} policy edits in a minute, then each further one is 429 RATE_LIMITED ` +
      'with Retry-After, writes nothing, and reads and another account are unaffected',
    async () => {
      const user = await limited.createUser();
      const other = await limited.createUser();
      const edit = (key: string, method: string, path: string, body?: unknown) =>
        limited.http(method, `/api/v1/policies${path}`, { key, body });
      const accepted = [
        await edit(user.key, 'PUT', '/a', { levels: { HIGH: 80 } }),
        await edit(user.key, 'PUT', '/a', { levels: { HIGH: 81 } }),
        await edit(user.key, 'PUT', '/default', { policy_id: 'a' }),
        await edit(user.key, 'DELETE', '/default'),
        await edit(user.key, 'PUT', '/b', {}),
      ];
      expect(accepted.map((r) => r.status)).toEqual([201, 200, 200, 204, 201]);
      expect(accepted.map((r) => r.headers.get('ratelimit-remaining'))).toEqual(['4', '3', '2', '1', '0']);
      const refused = [
        await edit(user.key, 'PUT', '/a', { levels: { HIGH: 90 } }),
        await edit(user.key, 'PUT', '/c', {}),
        await edit(user.key, 'DELETE', '/b'),
        await edit(user.key, 'PUT', '/default', { policy_id: 'b' }),
        await edit(user.key, 'DELETE', '/default'),
      ];
      for (const r of refused) {
        expect(r.status).toBe(429);
        expect(r.body).toEqual({
          success: false,
          error: {
            code: 'RATE_LIMITED',
            message: expect.stringMatching(/^Policy edit limit of 5 edits per 60 s exceeded for this account/),
            details: { tier: 'free', limit: LIMIT, windowSeconds: 60, retryAfterSeconds: expect.any(Number) },
          },
        });
        expect(Number(r.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
        expect(r.headers.get('ratelimit-limit')).toBe(String(LIMIT));
      }
      // Nothing the refused edits asked for was written.
      const { rows } = await limited.pool.query(
        `SELECT policy_id, latest_version, deleted_at IS NULL AS live FROM risk_policies WHERE user_id = $1
         ORDER BY policy_id`,
        [user.id],
      );
      expect(rows).toEqual([
        { policy_id: 'a', latest_version: 2, live: true },
        { policy_id: 'b', latest_version: 1, live: true },
      ]);
      expect((await edit(user.key, 'GET', '/default')).body.data.policy_id).toBeNull();
      // Reads spend nothing; another account has its own budget.
      expect((await edit(user.key, 'GET', '/a')).status).toBe(200);
      expect((await edit(other.key, 'PUT', '/a', {})).status).toBe(201);
    },
  );
});
