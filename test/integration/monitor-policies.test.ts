import { startTestStack, type TestStack } from '../helpers/test-stack';

/**
 * Monitors that name a policy, on a real stack: the name is checked at create, stored, and resolved again at every
 * re-screen, so an edit of the policy scores the next re-screen under its new version (and alerts on the change).
 */
// "Xether.io: Games", labelled gambling in data/risk/address_labels.csv: MEDIUM under the standard model.
const GAMBLING = '0x0c073c92e7684031cfc297b83ecc33619e864d18';

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(async () => stack?.stop());

async function until<T>(what: string, read: () => Promise<T | null | undefined>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

/** The monitor once its re-screen after `previous` (a request id, or none for the baseline) is evaluated. */
const screenedAfter = (key: string, id: string, previous: string | null) =>
  until(`monitor ${id} re-screened`, async () => {
    const r = await stack.http('GET', `/api/v1/monitors/${id}`, { key });
    const m = r.body.data;
    return m?.last_result && m.last_request_id !== previous ? m : null;
  });
const jobOf = async (key: string, requestId: string) =>
  (await stack.http('GET', `/api/v1/kyt/job/${requestId}`, { key })).body.data;
const putPolicy = (key: string, id: string, body: unknown) =>
  stack.http('PUT', `/api/v1/policies/${id}`, { key, body });
const createMonitor = (key: string, extra: Record<string, unknown> = {}) =>
  stack.http('POST', '/api/v1/monitors', { key, body: { chain: 'ethereum', address: GAMBLING, ...extra } });

describe('monitors that name a policy', () => {
  test(
    'when a monitor names a policy, then each re-screen is scored under its version of that moment: an edit ' +
      'changes the next answer and alerts; after the policy is deleted, the account default scores it',
    async () => {
      const user = await stack.createUser({ credits: 20 });
      expect((await putPolicy(user.key, 'casino-severe', { severe_categories: ['gambling'] })).status).toBe(201);
      const created = await createMonitor(user.key, { policy_id: 'casino-severe' });
      expect(created.status).toBe(201);
      expect(created.body.data.policy_id).toBe('casino-severe');
      const id = created.body.data.id as string;

      const baseline = await screenedAfter(user.key, id, null);
      expect(baseline.last_result.risk_level).toBe('HIGH');
      expect((await jobOf(user.key, baseline.last_request_id)).response).toMatchObject({
        risk_level: 'HIGH',
        policy: { id: 'casino-severe', version: 1 },
        standard: { risk_level: 'MEDIUM' },
      });

      // Version 2 no longer treats gambling as severe: the next re-screen is MEDIUM, and that is an alert.
      expect((await putPolicy(user.key, 'casino-severe', { levels: { HIGH: 90 } })).body.data.version).toBe(2);
      await stack.http('POST', `/api/v1/monitors/${id}/rescreen`, { key: user.key });
      const edited = await screenedAfter(user.key, id, baseline.last_request_id);
      expect((await jobOf(user.key, edited.last_request_id)).response).toMatchObject({
        risk_level: 'MEDIUM',
        policy: { id: 'casino-severe', version: 2 },
      });
      const alerts = await stack.http('GET', `/api/v1/monitors/${id}/alerts`, { key: user.key });
      expect(alerts.body.data).toEqual([
        expect.objectContaining({
          kind: 'risk_changed',
          before: expect.objectContaining({ risk_level: 'HIGH' }),
          after: expect.objectContaining({ risk_level: 'MEDIUM' }),
        }),
      ]);

      // Deleted: the account's default scores the next re-screen; the monitor still names what it was given.
      await putPolicy(user.key, 'house', { severe_categories: ['gambling'], default: true });
      expect((await stack.http('DELETE', '/api/v1/policies/casino-severe', { key: user.key })).status).toBe(204);
      await stack.http('POST', `/api/v1/monitors/${id}/rescreen`, { key: user.key });
      const fallback = await screenedAfter(user.key, id, edited.last_request_id);
      expect(fallback.policy_id).toBe('casino-severe');
      expect((await jobOf(user.key, fallback.last_request_id)).response).toMatchObject({
        risk_level: 'HIGH',
        policy: { id: 'house', version: 1 },
      });
    },
  );

  test(
    "when a monitor names no policy, then it stores null and each re-screen uses the account's default of the " +
      "moment; 'standard' ignores the default",
    async () => {
      const user = await stack.createUser({ credits: 20 });
      await putPolicy(user.key, 'house', { severe_categories: ['gambling'], default: true });
      const created = await createMonitor(user.key);
      expect([created.status, created.body.data.policy_id]).toEqual([201, null]);
      const baseline = await screenedAfter(user.key, created.body.data.id, null);
      expect((await jobOf(user.key, baseline.last_request_id)).response).toMatchObject({
        risk_level: 'HIGH',
        policy: { id: 'house', version: 1 },
      });

      const other = await stack.createUser({ credits: 20 });
      await putPolicy(other.key, 'house', { severe_categories: ['gambling'], default: true });
      const standard = await createMonitor(other.key, { policy_id: 'standard' });
      expect([standard.status, standard.body.data.policy_id]).toEqual([201, 'standard']);
      const screened = await screenedAfter(other.key, standard.body.data.id, null);
      const answer = (await jobOf(other.key, screened.last_request_id)).response;
      expect(answer.risk_level).toBe('MEDIUM');
      expect(answer.policy).toBeUndefined();
    },
  );

  test(
    'when a monitor names a policy the account does not have, then 404 POLICY_NOT_FOUND, a malformed one 400, ' +
      'and no monitor is made',
    async () => {
      const user = await stack.createUser({ credits: 5 });
      const stranger = await stack.createUser({ credits: 5 });
      await putPolicy(stranger.key, 'theirs', { severe_categories: ['gambling'] });
      for (const policyId of ['never-made', 'theirs']) {
        const res = await createMonitor(user.key, { policy_id: policyId });
        expect([res.status, res.body.code]).toEqual([404, 'POLICY_NOT_FOUND']);
      }
      const bad = await createMonitor(user.key, { policy_id: 'not an id!' });
      expect([bad.status, bad.body.error?.details?.parameter]).toEqual([400, 'policy_id']);
      const list = await stack.http('GET', '/api/v1/monitors', { key: user.key });
      expect(list.body.pagination.total).toBe(0);
      expect((await stack.stores.credits.balance(user.id)).available).toBe(5);
    },
  );
});
