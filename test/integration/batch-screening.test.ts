/**
 * Batch screening on the real stack (api + worker + Postgres + Temporal): POST /api/v1/kyt/batch holds per item and
 * runs each accepted item as its own screening job under the batch workflow batch:<id>. Targets are ethereum addresses,
 * screened on the reference data only (the test stack configures no ethereum node): 1 credit each, no chain call.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { capabilitiesFor } from '../../src/screening/engine/capabilities';
import { createBatchService, type BatchWorkflowStarter } from '../../src/batches';
import { parseBatchRequest } from '../../src/batches/batch-request';
import { createLogger } from '../../src/platform/logging/logger';
import { connectRecording } from '../helpers/realtime-client';
import { startTestStack, type TestStack } from '../helpers/test-stack';

const address = () => `0x${randomBytes(20).toString('hex')}`;
// "Xether.io: Games", labelled gambling in data/risk/address_labels.csv: MEDIUM under the standard model.
const GAMBLING = '0x0c073c92e7684031cfc297b83ecc33619e864d18';
const items = (n: number, extra: (i: number) => Record<string, unknown> = () => ({})) =>
  Array.from({ length: n }, (_, i) => ({
    chain: 'ethereum',
    address: address(),
    reference_id: `ref-${i}`,
    ...extra(i),
  }));

describe('batch screening', () => {
  let stack: TestStack;

  beforeAll(async () => {
    stack = await startTestStack({
      env: {
        // The sweep test ages its own rows by hours: nothing another file left minutes ago qualifies.
        QUEUED_JOB_RESTART_AFTER_SECONDS: String(5 * 3600),
        QUEUED_JOB_ABANDON_AFTER_SECONDS: String(10 * 3600),
      },
    });
  });
  afterAll(async () => stack?.stop());

  const post = (key: string, body: unknown, headers: Record<string, string> = {}) =>
    stack.http('POST', '/api/v1/kyt/batch', { key, body, headers });

  async function waitForCompletion(key: string, batchId: string, timeoutMs = 180_000): Promise<any> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const res = await stack.http('GET', `/api/v1/kyt/batch/${batchId}?limit=1`, { key });
      if (res.body?.data?.status === 'completed') return res.body.data;
      if (Date.now() > deadline) throw new Error(`batch ${batchId} not completed: ${JSON.stringify(res.body)}`);
      await new Promise((r) => setTimeout(r, 250));
    }
  }

  async function allItems(key: string, batchId: string): Promise<any[]> {
    const res = await stack.http('GET', `/api/v1/kyt/batch/${batchId}?limit=1000`, { key });
    expect(res.status).toBe(200);
    return res.body.data.items;
  }

  /** What the ledger and the holds say about these request ids. */
  async function money(userId: string, requestIds: string[]) {
    const { rows: charges } = await stack.pool.query<{ key: string; n: number; amount: number }>(
      `SELECT idempotency_key AS key, count(*)::int AS n, sum(amount)::int AS amount FROM credit_transactions
       WHERE user_id = $1 AND kind = 'consume' GROUP BY idempotency_key`,
      [userId],
    );
    const { rows: holds } = await stack.pool.query('SELECT hold_key FROM credit_holds WHERE hold_key = ANY($1)', [
      requestIds,
    ]);
    const { rows: jobs } = await stack.pool.query<{ charged: number }>(
      'SELECT coalesce(sum(credits_charged), 0)::int AS charged FROM screening_jobs WHERE request_id = ANY($1)',
      [requestIds],
    );
    return {
      charges,
      holdsLeft: holds.length,
      jobsCharged: jobs[0]?.charged ?? 0,
      balance: await stack.stores.credits.balance(userId),
    };
  }

  test('when a 1,000-item batch is submitted, then it completes through several continued runs, every item is ' +
    'charged exactly once, no hold is left, and coalesced batch_progress events ' +
    "reach the owner's socket only", async () => {
    const user = await stack.createUser({ credits: 1_200 });
    const other = await stack.createUser({ credits: 1 });
    const [ownerSocket, otherSocket] = await Promise.all([
      connectRecording(stack.api.url, user.key),
      connectRecording(stack.api.url, other.key),
    ]);
    try {
      const started = Date.now();
      const submit = await post(user.key, { items: items(1_000) });
      const submitMs = Date.now() - started;
      expect(submit.status).toBe(202);
      const batchId = submit.body.data.batch_id;
      expect(submit.headers.get('location')).toBe(`/api/v1/kyt/batch/${batchId}`);
      expect(submit.body.data.counts).toMatchObject({ total: 1_000, invalid: 0, refused: 0 });
      expect(submit.body.data.credits.held + submit.body.data.credits.charged).toBe(1_000);

      const done = await waitForCompletion(user.key, batchId);
      const elapsedMs = Date.now() - started;
      process.stdout.write(`batch-screening: 1,000-item batch completed in ${elapsedMs} ms (submit ${submitMs} ms)\n`);
      expect(done.counts).toEqual({ total: 1_000, invalid: 0, refused: 0, queued: 0, completed: 1_000, failed: 0 });
      expect(done.credits).toEqual({ held: 0, charged: 1_000 });

      const list = await allItems(user.key, batchId);
      const requestIds = list.map((i) => i.request_id);
      expect(new Set(requestIds).size).toBe(1_000);
      const m = await money(user.id, requestIds);
      // One consume row per request id, 1 credit each; the sum charged is the sum of the jobs' costs.
      expect(m.charges.map((c) => c.key).sort()).toEqual(requestIds.map((id) => `screening:${id}`).sort());
      expect(m.charges.every((c) => c.n === 1)).toBe(true);
      expect(m.charges.reduce((s, c) => s + c.amount, 0)).toBe(m.jobsCharged);
      expect(m.jobsCharged).toBe(1_000);
      expect(m.holdsLeft).toBe(0);
      expect(m.balance).toEqual({ balance: 200, reserved: 0, available: 200, debt: 0 });

      // The batch workflow continued as new (250 starts a run by default): several runs, each child once. The
      // batch's row is completed by its last activity, before its run closes; visibility lags the close in turn.
      await stack.temporal.workflow.getHandle(`batch:${batchId}`).result();
      let runs: string[] = [];
      for (const deadline = Date.now() + 10_000; !runs.includes('COMPLETED') && Date.now() < deadline; ) {
        runs = [];
        for await (const run of stack.temporal.workflow.list({ query: `WorkflowId = "batch:${batchId}"` })) {
          runs.push(run.status.name);
        }
        if (!runs.includes('COMPLETED')) await new Promise((r) => setTimeout(r, 200));
      }
      expect(runs.filter((s) => s === 'CONTINUED_AS_NEW').length).toBeGreaterThanOrEqual(3);
      expect(runs.filter((s) => s === 'COMPLETED')).toHaveLength(1);

      const final = await ownerSocket.waitFor('batch_progress', (p) => p.status === 'completed', 10_000);
      expect(final).toMatchObject({ batchId, status: 'completed', counts: { completed: 1_000, queued: 0 } });
      const progress = ownerSocket.received.filter((e) => e.event === 'batch_progress');
      // Coalesced: at most about one a second while items finish, not one per item.
      expect(progress.length).toBeLessThan(Math.max(10, (elapsedMs / 1000) * 2 + 5));
      expect(progress.every((e) => e.payload.batchId === batchId)).toBe(true);
      await new Promise((r) => setTimeout(r, 500));
      expect(otherSocket.received.filter((e) => e.event === 'batch_progress')).toEqual([]);
    } finally {
      ownerSocket.close();
      otherSocket.close();
    }
  }, 240_000);

  test('when an account that can pay for 300 submits 1,000 items, then the first 300 are accepted, the other 700 ' +
    'are refused as INSUFFICIENT_CREDITS holding nothing, and the balance ends exact', async () => {
    const user = await stack.createUser({ credits: 300 });
    const submit = await post(user.key, { items: items(1_000) });
    expect(submit.status).toBe(202);
    expect(submit.body.data.counts).toMatchObject({ total: 1_000, refused: 700, invalid: 0 });
    expect(submit.body.data.counts.queued + submit.body.data.counts.completed).toBe(300);
    // Everything the account had is held (or already charged), nothing more.
    expect(submit.body.data.credits.held + submit.body.data.credits.charged).toBe(300);
    const batchId = submit.body.data.batch_id;

    const done = await waitForCompletion(user.key, batchId);
    expect(done.counts).toEqual({ total: 1_000, invalid: 0, refused: 700, queued: 0, completed: 300, failed: 0 });
    const list = await allItems(user.key, batchId);
    expect(list.slice(0, 300).every((i) => i.status === 'completed' && i.credits_charged === 1)).toBe(true);
    for (const item of list.slice(300)) {
      expect(item).toMatchObject({ status: 'refused', request_id: null, credits_charged: 0 });
      expect(item.error.code).toBe('INSUFFICIENT_CREDITS');
    }
    const refused = await stack.http('GET', `/api/v1/kyt/batch/${batchId}?status=refused&limit=5`, {
      key: user.key,
    });
    expect(refused.body.pagination).toEqual({ total: 700, limit: 5, offset: 0, hasMore: true });
    const m = await money(
      user.id,
      list.slice(0, 300).map((i) => i.request_id),
    );
    expect(m.charges).toHaveLength(300);
    expect(m.charges.every((c) => c.n === 1 && c.amount === 1)).toBe(true);
    expect(m.holdsLeft).toBe(0);
    expect(m.balance).toEqual({ balance: 0, reserved: 0, available: 0, debt: 0 });
  }, 240_000);

  test(
    'when items are invalid, then each is listed with its index, reference and the field at fault, and only the ' +
      'valid ones hold and are charged',
    async () => {
      const user = await stack.createUser({ credits: 10 });
      const body = {
        items: [
          { chain: 'ethereum', address: address(), reference_id: 'good-0' },
          { chain: 'ethereum', address: 'not-an-address', reference_id: 'bad-address' },
          { chain: 'litecoinz', address: address(), reference_id: 'bad-chain' },
          'just a string',
          { chain: 'ethereum', reference_id: 'no-target' },
          // KYT needs a node, and the test stack configures none for ethereum.
          { chain: 'ethereum', txid: `0x${'ab'.repeat(32)}`, reference_id: 'kyt-no-node' },
          { chain: 'ethereum', address: address(), policy_id: 'standard', reference_id: 'item-policy' },
          { chain: 'ethereum', address: address(), reference_id: 'good-7' },
        ],
      };
      const submit = await post(user.key, body);
      expect(submit.status).toBe(202);
      expect(submit.body.data.counts).toMatchObject({ total: 8, invalid: 6, refused: 0 });
      expect(submit.body.data.invalid_items).toEqual([
        { index: 1, reference_id: 'bad-address', parameter: 'items[1].address', message: expect.any(String) },
        { index: 2, reference_id: 'bad-chain', parameter: 'items[2].chain', message: expect.any(String) },
        { index: 3, reference_id: null, parameter: 'items[3]', message: 'expected a JSON object' },
        { index: 4, reference_id: 'no-target', parameter: 'items[4].address|txid', message: expect.any(String) },
        { index: 5, reference_id: 'kyt-no-node', parameter: 'items[5].txid', message: expect.stringContaining('node') },
        { index: 6, reference_id: 'item-policy', parameter: 'items[6].policy_id', message: expect.any(String) },
      ]);
      const done = await waitForCompletion(user.key, submit.body.data.batch_id);
      expect(done.counts).toMatchObject({ completed: 2, invalid: 6, queued: 0 });
      expect(done.credits).toEqual({ held: 0, charged: 2 });
      expect(await stack.stores.credits.balance(user.id)).toEqual({ balance: 8, reserved: 0, available: 8, debt: 0 });
      const list = await allItems(user.key, submit.body.data.batch_id);
      expect(list.map((i) => i.status)).toEqual([
        'completed',
        'invalid',
        'invalid',
        'invalid',
        'invalid',
        'invalid',
        'invalid',
        'completed',
      ]);
      expect(list[1]).toMatchObject({
        request_id: null,
        credits_charged: 0,
        target: 'not-an-address',
        chain: 'ethereum',
      });
      expect(list[1].error.code).toBe('INVALID_PARAMETER');
    },
  );

  test(
    'when a batch names a policy that makes gambling severe, then its gambling-exposed item is HIGH under the ' +
      "policy's version with the standard MEDIUM beside it, and an edit after the submit changes nothing",
    async () => {
      const user = await stack.createUser({ credits: 10 });
      const put = (body: Record<string, unknown>) =>
        stack.http('PUT', '/api/v1/policies/casino-strict', { key: user.key, body });
      expect((await put({ severe_categories: ['gambling'] })).status).toBe(201);
      const submit = await post(user.key, {
        items: [
          { chain: 'ethereum', address: GAMBLING, reference_id: 'casino' },
          { chain: 'ethereum', address: address(), reference_id: 'clean' },
        ],
        policy_id: 'casino-strict',
      });
      expect(submit.status).toBe(202);
      expect(submit.body.data.policy).toEqual({ id: 'casino-strict', version: 1, name: 'casino-strict' });
      // A new version while the batch runs: its items keep the version resolved at submit.
      expect((await put({ severe_categories: [] })).body.data.version).toBe(2);
      const done = await waitForCompletion(user.key, submit.body.data.batch_id);
      expect(done.policy).toEqual({ id: 'casino-strict', version: 1, name: 'casino-strict' });
      const [casino, clean] = await allItems(user.key, submit.body.data.batch_id);
      expect(casino).toMatchObject({ risk_level: 'HIGH', standard_risk_level: 'MEDIUM', status: 'completed' });
      expect(casino.risk_score).toBeGreaterThan(casino.standard_risk_score);
      expect(clean).toMatchObject({ risk_level: 'LOW', standard_risk_level: 'LOW' });
      const job = await stack.http('GET', `/api/v1/kyt/job/${casino.request_id}`, { key: user.key });
      expect(job.body.data.response.policy).toEqual({ id: 'casino-strict', version: 1, name: 'casino-strict' });

      // 'standard' asks for the shipped model whatever the account's default.
      const standard = await post(user.key, {
        items: [{ chain: 'ethereum', address: GAMBLING }],
        policy_id: 'standard',
      });
      expect(standard.body.data.policy).toBeNull();
      await waitForCompletion(user.key, standard.body.data.batch_id);
      const [plain] = await allItems(user.key, standard.body.data.batch_id);
      expect(plain).toMatchObject({ risk_level: 'MEDIUM', standard_risk_level: 'MEDIUM' });
    },
  );

  test(
    'when 20 identical requests with one Idempotency-Key arrive at once, then they all answer the same batch, ' +
      'one set of holds is made and every item is charged once',
    async () => {
      const user = await stack.createUser({ credits: 50 });
      const body = { items: items(10) };
      const key = `idem-${randomUUID()}`;
      const answers = await Promise.all(
        Array.from({ length: 20 }, () => post(user.key, body, { 'Idempotency-Key': key })),
      );
      expect(answers.map((a) => a.status)).toEqual(Array(20).fill(202));
      const ids = new Set(answers.map((a) => a.body.data.batch_id));
      expect(ids.size).toBe(1);
      expect(answers.filter((a) => a.headers.get('idempotent-replayed') === 'true')).toHaveLength(19);
      const [batchId] = [...ids];
      const { rows } = await stack.pool.query(
        'SELECT count(*)::int AS n FROM screening_batches WHERE user_id = $1 AND idempotency_key = $2',
        [user.id, key],
      );
      expect(rows[0].n).toBe(1);
      const { rows: jobs } = await stack.pool.query(
        'SELECT count(*)::int AS n FROM screening_jobs WHERE user_id = $1',
        [user.id],
      );
      expect(jobs[0].n).toBe(10);

      await waitForCompletion(user.key, batchId as string);
      const list = await allItems(user.key, batchId as string);
      const m = await money(
        user.id,
        list.map((i) => i.request_id),
      );
      expect(m.charges).toHaveLength(10);
      expect(m.charges.every((c) => c.n === 1)).toBe(true);
      expect(m.holdsLeft).toBe(0);
      expect(m.balance).toEqual({ balance: 40, reserved: 0, available: 40, debt: 0 });

      // A later repeat still answers the same batch, completed.
      const again = await post(user.key, body, { 'Idempotency-Key': key });
      expect(again.status).toBe(202);
      expect(again.body.data).toMatchObject({ batch_id: batchId, status: 'completed' });
    },
  );

  test(
    'when an Idempotency-Key is reused with another body, then 409 IDEMPOTENCY_KEY_REUSED names the batch, and a ' +
      'malformed key or body is a 400 naming it',
    async () => {
      const user = await stack.createUser({ credits: 5 });
      const key = `idem-${randomUUID()}`;
      const first = await post(user.key, { items: items(1) }, { 'Idempotency-Key': key });
      expect(first.status).toBe(202);
      const reused = await post(user.key, { items: items(1) }, { 'Idempotency-Key': key });
      expect(reused.status).toBe(409);
      expect(reused.body).toEqual({
        success: false,
        error: {
          code: 'IDEMPOTENCY_KEY_REUSED',
          message: expect.any(String),
          details: { parameter: 'Idempotency-Key', batch_id: first.body.data.batch_id },
        },
      });
      // Another account may use the same key: keys are per account.
      const stranger = await stack.createUser({ credits: 1 });
      expect((await post(stranger.key, { items: items(1) }, { 'Idempotency-Key': key })).status).toBe(202);

      const badKey = await post(user.key, { items: items(1) }, { 'Idempotency-Key': 'has space' });
      expect(badKey.status).toBe(400);
      expect(badKey.body.error.details.parameter).toBe('Idempotency-Key');
      for (const body of [{}, { items: [] }, { items: items(1_001) }, { items: 'x' }]) {
        const res = await post(user.key, body);
        expect([res.status, res.body.error.details.parameter]).toEqual([400, 'items']);
      }
      const badPolicy = await post(user.key, { items: items(1), policy_id: 'no such policy!' });
      expect([badPolicy.status, badPolicy.body.error.details.parameter]).toEqual([400, 'policy_id']);
      const unknownPolicy = await post(user.key, { items: items(1), policy_id: 'never-created' });
      expect([unknownPolicy.status, unknownPolicy.body.code]).toEqual([404, 'POLICY_NOT_FOUND']);
      // Nothing of the refused requests was held or recorded: only the first batch's one item was charged.
      await waitForCompletion(user.key, first.body.data.batch_id);
      expect(await stack.stores.credits.balance(user.id)).toEqual({ balance: 4, reserved: 0, available: 4, debt: 0 });
      const { rows } = await stack.pool.query('SELECT count(*)::int AS n FROM screening_batches WHERE user_id = $1', [
        user.id,
      ]);
      expect(rows[0].n).toBe(1);
    },
  );

  /** What an account has stored and started for batches: rows, holds, ledger and batch workflows. */
  async function footprint(userId: string) {
    const count = async (sql: string) => (await stack.pool.query(sql, [userId])).rows[0].n as number;
    const workflows: string[] = [];
    const query = `TaskQueue = "${stack.config.TEMPORAL_TASK_QUEUE}" AND UserId = "${userId}"`;
    for await (const w of stack.temporal.workflow.list({ query })) workflows.push(w.workflowId);
    return {
      batches: await count('SELECT count(*)::int AS n FROM screening_batches WHERE user_id = $1'),
      items: await count(
        'SELECT count(*)::int AS n FROM batch_items i ' +
          'JOIN screening_batches b ON b.id = i.batch_id WHERE b.user_id = $1',
      ),
      jobs: await count('SELECT count(*)::int AS n FROM screening_jobs WHERE user_id = $1'),
      holds: await count('SELECT count(*)::int AS n FROM credit_holds WHERE user_id = $1'),
      ledger: await count('SELECT count(*)::int AS n FROM credit_transactions WHERE user_id = $1'),
      workflows,
      balance: await stack.stores.credits.balance(userId),
    };
  }
  const NOTHING = { batches: 0, items: 0, jobs: 0, holds: 0, workflows: [] };

  test(
    'when 1,000 items each carry a 256-character reference (a body over the 256 kB of other routes) and the ' +
      'account has nothing to spend, then the body is read, every item is refused, and nothing is stored, held ' +
      'or started: 402 INSUFFICIENT_CREDITS, as a single job',
    async () => {
      const broke = await stack.createUser({ credits: 0 });
      const body = { items: items(1_000, (i) => ({ reference_id: `${i}-`.padEnd(256, 'r') })) };
      expect(JSON.stringify(body).length).toBeGreaterThan(300_000);
      const submit = await post(broke.key, body, { 'Idempotency-Key': `idem-${randomUUID()}` });
      expect(submit.status).toBe(402);
      expect(submit.body).toEqual({
        success: false,
        error: expect.stringMatching(/^Insufficient credits/),
        code: 'INSUFFICIENT_CREDITS',
        required: 1,
        available: 0,
      });
      expect(await footprint(broke.id)).toEqual({
        ...NOTHING,
        ledger: 0,
        balance: { balance: 0, reserved: 0, available: 0, debt: 0 },
      });
    },
  );

  test(
    'when every item is invalid, then 400 INVALID_PARAMETER names the first item at fault and nothing is stored, ' +
      'held or started; when every valid item is refused for credits beside invalid ones, then the 402 of a job',
    async () => {
      const user = await stack.createUser({ credits: 0 });
      const invalid = await post(user.key, {
        items: [
          { chain: 'ethereum', address: 'not-an-address' },
          { chain: 'litecoinz', address: address() },
        ],
      });
      expect(invalid.status).toBe(400);
      expect(invalid.body).toEqual({
        success: false,
        error: {
          code: 'INVALID_PARAMETER',
          message: expect.stringMatching(/^No item of the batch is valid \(2 invalid\)/),
          details: { parameter: 'items[0].address', expected: expect.any(String) },
        },
      });
      const mixed = await post(user.key, { items: [{ chain: 'ethereum', address: 'nope' }, ...items(2)] });
      expect([mixed.status, mixed.body.code, mixed.body.available]).toEqual([402, 'INSUFFICIENT_CREDITS', 0]);
      expect(await footprint(user.id)).toEqual({
        ...NOTHING,
        ledger: 0,
        balance: { balance: 0, reserved: 0, available: 0, debt: 0 },
      });
    },
  );

  test(
    'when the account owes credits taken back after they were spent, then 402 CREDITS_IN_DEBT and nothing is ' +
      'stored, held or started, even with credits left in its balance',
    async () => {
      const user = await stack.createUser({ credits: 3 });
      // A job held 3, then a refund took 5 back: 0 from the balance (all held), 5 owed; the job then failed.
      await stack.stores.credits.reserve(user.id, `debt-hold-${randomUUID()}`, 3, 3);
      await stack.stores.credits.revoke({
        userId: user.id,
        amount: 5,
        idempotencyKey: `refund-${randomUUID()}`,
        reason: 'test refund',
        source: 'test',
      });
      const { rows } = await stack.pool.query('SELECT hold_key FROM credit_holds WHERE user_id = $1', [user.id]);
      for (const r of rows) await stack.stores.credits.releaseHold(r.hold_key);
      expect(await stack.stores.credits.balance(user.id)).toEqual({ balance: 3, reserved: 0, available: 3, debt: 5 });

      const submit = await post(user.key, { items: items(2) });
      expect(submit.status).toBe(402);
      expect(submit.body).toMatchObject({ success: false, code: 'CREDITS_IN_DEBT', debt: 5, available: 3 });
      expect(await footprint(user.id)).toMatchObject({ ...NOTHING, ledger: 2 });
    },
  );

  test(
    'when the batch route is posted a 1 MB body that is not JSON without a key (or with a key lacking the ' +
      'screening scope), then 401 (403) before the body is read: not the 400 of a parsed body',
    async () => {
      const garbage = `{"items": [${'x'.repeat(1_000_000)}`;
      const anonymous = await stack.http('POST', '/api/v1/kyt/batch', {
        body: garbage,
        headers: { 'content-type': 'application/json' },
      });
      expect([anonymous.status, anonymous.body.error]).toEqual([401, 'Authentication required']);
      const anonymousBig = await stack.http('POST', '/api/v1/kyt/batch', {
        body: `${garbage}${'y'.repeat(1_100_000)}`,
        headers: { 'content-type': 'application/json' },
      });
      expect(anonymousBig.status).toBe(401);

      const user = await stack.createUser({ credits: 1 });
      const created = await stack.http('POST', '/api/v1/api-keys', {
        key: user.key,
        body: { name: 'reader', scopes: ['read'] },
      });
      const reader = created.body.data.key as string;
      const unscoped = await stack.http('POST', '/api/v1/kyt/batch', {
        key: reader,
        body: garbage,
        headers: { 'content-type': 'application/json' },
      });
      expect([unscoped.status, unscoped.body.code]).toEqual([403, 'INSUFFICIENT_SCOPE']);
      // With the scope, the same body is read and refused as the malformed JSON it is.
      const malformed = await stack.http('POST', '/api/v1/kyt/batch', {
        key: user.key,
        body: garbage,
        headers: { 'content-type': 'application/json' },
      });
      expect(malformed.status).toBe(400);
      // Other routes keep the general limit: 256 kB.
      const job = await stack.http('POST', '/api/v1/kyt/job', {
        key: user.key,
        body: { chain: 'ethereum', address: address(), reference_id: 'r'.repeat(300_000) },
      });
      expect(job.status).toBe(413);
    },
  );

  test(
    'when an item carries a number too large for a double (1e400) in an extra field, then 400 names the field, ' +
      'and nothing is stored',
    async () => {
      const user = await stack.createUser({ credits: 2 });
      const raw = `{"items":[{"chain":"ethereum","address":"${address()}","score":1e400}]}`;
      const res = await stack.http('POST', '/api/v1/kyt/batch', {
        key: user.key,
        body: raw,
        headers: { 'content-type': 'application/json' },
      });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'INVALID_PARAMETER', details: { parameter: 'items.0.score' } });
      expect(await footprint(user.id)).toMatchObject({ ...NOTHING, ledger: 1 });
    },
  );

  test(
    'when a batch is paged and downloaded as CSV, then pages follow request order, cells are RFC 4180 and ' +
      'formula-safe, and another account gets 404 for all of it',
    async () => {
      const user = await stack.createUser({ credits: 10 });
      const references = ['=HYPERLINK("http://x")', 'a,b "quoted"', '+1', 'plain'];
      const submit = await post(user.key, {
        items: [
          ...references.map((reference_id) => ({ chain: 'ethereum', address: address(), reference_id })),
          { chain: 'ethereum', address: '@bad', reference_id: '-x' },
        ],
      });
      const batchId = submit.body.data.batch_id;
      await waitForCompletion(user.key, batchId);

      const page = await stack.http('GET', `/api/v1/kyt/batch/${batchId}?offset=1&limit=2`, { key: user.key });
      expect(page.status).toBe(200);
      expect(page.body.data.items.map((i: any) => i.index)).toEqual([1, 2]);
      expect(page.body.pagination).toEqual({ total: 5, limit: 2, offset: 1, hasMore: true });
      expect(page.body.data.items[0]).toMatchObject({
        api_type: 'KYA',
        chain: 'ethereum',
        status: 'completed',
        risk_level: 'LOW',
        standard_risk_level: 'LOW',
        credits_charged: 1,
        error: null,
      });
      expect(page.body.data.items[0].risk_score).toBe(page.body.data.items[0].standard_risk_score);
      const invalid = await stack.http('GET', `/api/v1/kyt/batch/${batchId}?status=invalid`, { key: user.key });
      expect(invalid.body.data.items.map((i: any) => i.index)).toEqual([4]);
      for (const query of ['status=done', 'limit=0', 'limit=1001', 'offset=-1']) {
        expect((await stack.http('GET', `/api/v1/kyt/batch/${batchId}?${query}`, { key: user.key })).status).toBe(400);
      }

      const csv = await fetch(`${stack.api.url}/api/v1/kyt/batch/${batchId}/results.csv`, {
        headers: { 'x-api-key': user.key },
      });
      expect(csv.status).toBe(200);
      expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
      expect(csv.headers.get('content-disposition')).toBe(`attachment; filename="batch-${batchId}.csv"`);
      const text = await csv.text();
      const lines = text.split('\r\n');
      expect(lines[0]).toBe(
        'index,request_id,api_type,chain,target,reference_id,status,risk_level,risk_score,standard_risk_level,' +
          'standard_risk_score,credits_charged,error_code,error_message',
      );
      expect(lines).toHaveLength(7);
      expect(lines[6]).toBe('');
      expect(lines[1]).toContain(`,"'=HYPERLINK(""http://x"")",completed,LOW,`);
      expect(lines[2]).toContain(',"a,b ""quoted""",completed,');
      expect(lines[3]).toContain(",'+1,completed,");
      expect(lines[5]).toMatch(/^4,,KYA,ethereum,'@bad,'-x,invalid,,,,,0,INVALID_PARAMETER,/);

      const stranger = await stack.createUser({ credits: 1 });
      for (const path of [`/api/v1/kyt/batch/${batchId}`, `/api/v1/kyt/batch/${batchId}/results.csv`]) {
        const res = await stack.http('GET', path, { key: stranger.key });
        expect([res.status, res.body.code]).toEqual([404, 'NOT_FOUND']);
      }
      expect((await stack.http('GET', '/api/v1/kyt/batch/not-a-uuid', { key: user.key })).status).toBe(404);
      const mine = await stack.http('GET', '/api/v1/kyt/batches', { key: user.key });
      expect(mine.body.data.map((b: any) => b.batch_id)).toEqual([batchId]);
      expect(mine.body.data[0]).not.toHaveProperty('invalid_items');
      expect((await stack.http('GET', '/api/v1/kyt/batches', { key: stranger.key })).body.data).toEqual([]);
    },
  );

  describe('a batch whose workflow never started (the api died after its commit)', () => {
    const failingStarter: BatchWorkflowStarter = {
      ensureStarted: async () => {
        throw new Error('simulated crash between the commit and the start');
      },
      status: async () => null,
    };
    const commitWithoutWorkflow = async (userId: string, body: unknown, key: string | null) => {
      const service = createBatchService({
        pool: stack.pool,
        credits: stack.stores.credits,
        subscriptions: stack.stores.subscriptions,
        jobs: stack.stores.jobs,
        batches: stack.stores.batches,
        capabilities: capabilitiesFor([]),
        policies: { resolve: async () => null },
        starter: failingStarter,
        log: createLogger('silent'),
      });
      const request = parseBatchRequest(
        body,
        key,
        { defaultCrawlTimeoutMs: 8000, maxCrawlTimeoutMs: 120_000 },
        capabilitiesFor([]),
      );
      const { batch } = await service.submit(userId, request);
      expect(batch.status).toBe('running');
      return batch.id;
    };
    const childrenOf = async (userId: string) =>
      (await stack.pool.query('SELECT request_id FROM screening_jobs WHERE user_id = $1', [userId])).rows.map(
        (r) => r.request_id as string,
      );

    test(
      'when the client retries with its Idempotency-Key, then the replay starts the workflow and the batch ' +
        'completes, each item charged once',
      async () => {
        const user = await stack.createUser({ credits: 5 });
        const body = { items: items(3) };
        const key = `idem-${randomUUID()}`;
        const batchId = await commitWithoutWorkflow(user.id, body, key);
        expect(await stack.stores.credits.balance(user.id)).toMatchObject({ reserved: 3 });

        const retry = await post(user.key, body, { 'Idempotency-Key': key });
        expect([retry.status, retry.body.data.batch_id, retry.headers.get('idempotent-replayed')]).toEqual([
          202,
          batchId,
          'true',
        ]);
        await waitForCompletion(user.key, batchId, 30_000);
        const m = await money(user.id, await childrenOf(user.id));
        expect(m.charges.map((c) => c.n)).toEqual([1, 1, 1]);
        expect(m.balance).toEqual({ balance: 2, reserved: 0, available: 2, debt: 0 });
      },
    );

    test(
      'when nobody retries, then the queued-job sweep leaves its queued items alone and starts the batch ' +
        'workflow instead, which starts each item once',
      async () => {
        const user = await stack.createUser({ credits: 5 });
        const batchId = await commitWithoutWorkflow(user.id, { items: items(3) }, null);
        const requestIds = await childrenOf(user.id);
        // Aged past the sweep's thresholds (5 h restart, 10 h abandon): a single job this old would be released.
        await stack.pool.query(`UPDATE screening_batches SET created_at = now() - interval '6 hours' WHERE id = $1`, [
          batchId,
        ]);
        await stack.pool.query(
          `UPDATE screening_jobs SET created_at = now() - interval '11 hours' WHERE request_id = ANY($1)`,
          [requestIds],
        );
        const stale = await stack.stores.jobs.findStaleQueued(5 * 3600 * 1000, 10_000);
        expect(stale.filter((j) => requestIds.includes(j.requestId))).toEqual([]);

        const summary: any = await stack.temporal.workflow.execute('queuedJobSweeperWorkflow', {
          taskQueue: stack.config.TEMPORAL_TASK_QUEUE,
          workflowId: `sweep-test-${randomUUID()}`,
          args: [],
        });
        expect(summary.batchesStarted).toBeGreaterThanOrEqual(1);
        await waitForCompletion(user.key, batchId, 30_000);
        for (const requestId of requestIds) {
          const child = await stack.temporal.workflow.getHandle(`screening:${requestId}`).describe();
          expect(child.parentExecution?.workflowId).toBe(`batch:${batchId}`);
        }
        const m = await money(user.id, requestIds);
        expect(m.charges.map((c) => c.n)).toEqual([1, 1, 1]);
        expect(m.balance).toEqual({ balance: 2, reserved: 0, available: 2, debt: 0 });
        // A second sweep finds nothing to start for it.
        const again: any = await stack.temporal.workflow.execute('queuedJobSweeperWorkflow', {
          taskQueue: stack.config.TEMPORAL_TASK_QUEUE,
          workflowId: `sweep-test-${randomUUID()}`,
          args: [],
        });
        expect(again.batchesStarted).toBe(0);
      },
    );
  });
});
