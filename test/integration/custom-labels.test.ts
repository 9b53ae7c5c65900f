import { randomBytes, randomUUID } from 'node:crypto';
import { generateApiKey } from '../../src/identity/api-key-format';
import { recordSecret } from '../helpers/run-log';
import { pollUntilDone, startTestStack, type TestStack } from '../helpers/test-stack';

/**
 * The account's own labels (issue 29, item 4) on a real api + worker over Postgres and Temporal: create, list, delete,
 * 400s naming the parameter, the idempotent create, the per-account cap under concurrent creates, accounts kept apart,
 * and screenings: a label makes that account's answer (only) HIGH with a hit of source `custom`, an `allow` label
 * changes no score, and a deleted label no longer applies.
 */
const CAP = 5;
const freshEvm = () => `0x${randomBytes(20).toString('hex')}`;
const SANCTIONED_EVM = '0x4f47bc496083c727c5fbe3ce9cdf2b0f6496270c';

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack({ env: { MAX_CUSTOM_LABELS_PER_ACCOUNT: String(CAP) } });
});
afterAll(async () => stack?.stop());

const create = (key: string, body: unknown) => stack.http('POST', '/api/v1/custom-labels', { key, body });

async function screen(key: string, address: string): Promise<{ requestId: string; response: any; full: any }> {
  const submit = await stack.http('POST', '/api/v1/kyt/job', { key, body: { chain: 'ethereum', address } });
  expect(submit.status).toBe(202);
  const polled = await pollUntilDone(stack, key, submit.body.data.request_id);
  expect(polled.data.status).toBe('completed');
  const full = await stack.http('GET', `/api/v1/kyt/job/${submit.body.data.request_id}/fullresponse`, { key });
  return { requestId: submit.body.data.request_id, response: polled.data.response, full: full.body.data.response };
}

describe("custom labels: the account's own labels", () => {
  test(
    'when a label is created, listed and deleted, ' + 'then each answer says so and a repeat is the same label',
    async () => {
      const user = await stack.createUser();
      const address = freshEvm();
      const body = {
        chain: 'ethereum',
        address: address.toUpperCase().replace('0X', '0x'),
        category: 'scam',
        name: 'Fake airdrop',
      };
      const created = await create(user.key, body);
      expect(created.status).toBe(201);
      expect(created.body).toEqual({
        success: true,
        data: {
          id: expect.any(String),
          chain: 'ethereum',
          address,
          category: 'scam',
          name: 'Fake airdrop',
          note: null,
          created_at: expect.any(String),
        },
      });
      const again = await create(user.key, body);
      expect(again.status).toBe(200);
      expect(again.body.data).toEqual(created.body.data);
      const allow = await create(user.key, { chain: 'ethereum', address, category: 'allow', note: 'cleared, case 7' });
      expect(allow.status).toBe(201);

      const listed = await stack.http('GET', '/api/v1/custom-labels?limit=1', { key: user.key });
      expect(listed.status).toBe(200);
      expect(listed.body.pagination).toEqual({ total: 2, limit: 1, offset: 0 });
      expect(listed.body.data).toHaveLength(1);
      const byAddress = await stack.http('GET', `/api/v1/custom-labels?chain=ethereum&address=${address}`, {
        key: user.key,
      });
      expect(byAddress.body.data.map((l: any) => l.category).sort()).toEqual(['allow', 'scam']);
      const other = await stack.http('GET', '/api/v1/custom-labels?chain=bitcoin', { key: user.key });
      expect(other.body.pagination.total).toBe(0);

      const deleted = await stack.http('DELETE', `/api/v1/custom-labels/${created.body.data.id}`, { key: user.key });
      expect(deleted.status).toBe(200);
      expect(deleted.body).toEqual({ success: true, data: { id: created.body.data.id, deleted: true } });
      expect(
        (await stack.http('DELETE', `/api/v1/custom-labels/${created.body.data.id}`, { key: user.key })).status,
      ).toBe(404);
      expect((await stack.http('DELETE', '/api/v1/custom-labels/not-a-uuid', { key: user.key })).status).toBe(404);
    },
  );

  test('when another account deletes my label or lists labels, then it gets 404 and sees none of mine', async () => {
    const mine = await stack.createUser();
    const theirs = await stack.createUser();
    const created = await create(mine.key, { chain: 'ethereum', address: freshEvm(), category: 'mixer' });
    expect(created.status).toBe(201);
    const refused = await stack.http('DELETE', `/api/v1/custom-labels/${created.body.data.id}`, { key: theirs.key });
    expect(refused.status).toBe(404);
    expect((await stack.http('DELETE', `/api/v1/custom-labels/${randomUUID()}`, { key: theirs.key })).status).toBe(404);
    const listed = await stack.http('GET', '/api/v1/custom-labels', { key: theirs.key });
    expect(listed.body.pagination.total).toBe(0);
    const still = await stack.http('GET', '/api/v1/custom-labels', { key: mine.key });
    expect(still.body.data.map((l: any) => l.id)).toEqual([created.body.data.id]);
  });

  test.each([
    ['chain', { chain: 'litecoinz', address: SANCTIONED_EVM, category: 'scam' }],
    ['address', { chain: 'ethereum', address: '0x1234', category: 'scam' }],
    ['address', { chain: 'bitcoin', address: SANCTIONED_EVM, category: 'scam' }],
    ['category', { chain: 'ethereum', address: SANCTIONED_EVM, category: 'evil' }],
    ['category', { chain: 'ethereum', address: SANCTIONED_EVM }],
    ['name', { chain: 'ethereum', address: SANCTIONED_EVM, category: 'scam', name: 'x'.repeat(201) }],
    ['note', { chain: 'ethereum', address: SANCTIONED_EVM, category: 'scam', note: 'x'.repeat(2001) }],
    ['score', { chain: 'ethereum', address: SANCTIONED_EVM, category: 'scam', score: 100 }],
  ])('when the %s is malformed, then the create is 400 naming it', async (parameter, body) => {
    const user = await stack.createUser();
    const res = await create(user.key, body);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('INVALID_PARAMETER');
    expect(res.body.error.details.parameter).toBe(parameter);
  });

  test('when the list is filtered by a malformed chain or address, then it is 400 naming it', async () => {
    const user = await stack.createUser();
    const badChain = await stack.http('GET', '/api/v1/custom-labels?chain=litecoinz', { key: user.key });
    expect(badChain.status).toBe(400);
    expect(badChain.body.error.details.parameter).toBe('chain');
    const badAddress = await stack.http('GET', '/api/v1/custom-labels?chain=ethereum&address=0x12', { key: user.key });
    expect(badAddress.status).toBe(400);
    expect(badAddress.body.error.details.parameter).toBe('address');
    const badLimit = await stack.http('GET', '/api/v1/custom-labels?limit=1000', { key: user.key });
    expect(badLimit.status).toBe(400);
  });

  test('when 10 labels are created at once against a cap of 5, then exactly 5 are stored and 5 are 409', async () => {
    const user = await stack.createUser();
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => create(user.key, { chain: 'ethereum', address: freshEvm(), category: 'scam' })),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(CAP);
    expect(statuses.filter((s) => s === 409)).toHaveLength(10 - CAP);
    const refused = answers.find((a) => a.status === 409)!;
    expect(refused.body.error).toEqual({
      code: 'CUSTOM_LABEL_LIMIT_REACHED',
      message: expect.any(String),
      details: { limit: CAP },
    });
    const { rows } = await stack.pool.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM custom_labels WHERE user_id = $1',
      [user.id],
    );
    expect(rows[0]!.n).toBe(CAP);
    // A repeat of a stored label is not a new one: answered at the cap.
    const stored = answers.find((a) => a.status === 201)!.body.data;
    const repeat = await create(user.key, { chain: 'ethereum', address: stored.address, category: 'scam' });
    expect(repeat.status).toBe(200);
  });

  test(
    "when account A labels a clean address sanctions, then A's screening is HIGH with a custom hit, B's is still " +
      'LOW, and after the delete A is LOW again',
    async () => {
      const a = await stack.createUser({ credits: 10 });
      const b = await stack.createUser({ credits: 10 });
      const address = freshEvm();
      const before = await screen(a.key, address);
      expect(before.response.risk_level).toBe('LOW');

      const label = await create(a.key, {
        chain: 'ethereum',
        address,
        category: 'sanctions',
        name: 'Our blocklist 12',
      });
      expect(label.status).toBe(201);
      const labelled = await screen(a.key, address);
      expect(labelled.response.risk_level).toBe('HIGH');
      expect(labelled.response.risk_reason).toMatch(/account's own list/);
      expect(labelled.response.risk_reason).toContain(label.body.data.id);
      const hit = labelled.full.hits.find((h: any) => h.source === 'custom');
      expect(hit).toMatchObject({
        rule: 'tag_score',
        category: 'sanctions',
        source: 'custom',
        address,
        label_id: label.body.data.id,
        label_name: 'Our blocklist 12',
      });
      // Scored as a reference-list label of that category: its severity at high confidence; not an OFAC sanction.
      expect(hit.score).toBe(labelled.full.model.category_severity.sanctions);
      expect(labelled.response.rule_scores.is_sanctioned).toBe(0);

      // The label is scoring evidence of the stored answer: a rescore scores it again, without a lookup.
      const rescored = await stack.http('POST', `/api/v1/kyt/job/${labelled.requestId}/rescore`, {
        key: a.key,
        body: { policy_id: 'standard' },
      });
      expect(rescored.status).toBe(200);
      expect(rescored.body.data).toMatchObject({ risk_level: 'HIGH', risk_score: labelled.response.risk_score });

      const other = await screen(b.key, address);
      expect(other.response.risk_level).toBe('LOW');
      expect(other.full.hits.filter((h: any) => h.source === 'custom')).toEqual([]);

      expect((await stack.http('DELETE', `/api/v1/custom-labels/${label.body.data.id}`, { key: a.key })).status).toBe(
        200,
      );
      const after = await screen(a.key, address);
      expect(after.response.risk_level).toBe('LOW');
      expect(after.full.hits).toEqual([]);
    },
  );

  test(
    'when an OFAC-listed address is on the account allow list, ' + 'then it is still HIGH and the allow is shown',
    async () => {
      const user = await stack.createUser({ credits: 5 });
      const plain = await screen(user.key, SANCTIONED_EVM);
      const allow = await create(user.key, { chain: 'ethereum', address: SANCTIONED_EVM, category: 'allow' });
      expect(allow.status).toBe(201);
      const allowed = await screen(user.key, SANCTIONED_EVM);
      expect(allowed.response.risk_level).toBe('HIGH');
      expect(allowed.response.risk_score).toBe(plain.response.risk_score);
      expect(allowed.response.rule_scores).toEqual(plain.response.rule_scores);
      expect(allowed.full.hits.find((h: any) => h.source === 'custom')).toMatchObject({
        category: 'allow',
        score: 0,
        label_id: allow.body.data.id,
      });
      expect(allowed.response.risk_reason).toMatch(/^Address is on the OFAC SDN list/);
      expect(allowed.response.risk_reason).toMatch(/allow list/);
    },
  );

  test('when a key without the screening scope creates a label, then it is 403', async () => {
    const user = await stack.createUser();
    const key = generateApiKey();
    recordSecret(key);
    await stack.stores.users.createApiKey(user.id, 'only read', key, { scopes: ['read'] });
    const refused = await create(key, { chain: 'ethereum', address: freshEvm(), category: 'scam' });
    expect(refused.status).toBe(403);
    expect((await stack.http('GET', '/api/v1/custom-labels', { key })).status).toBe(200);
  });
});
