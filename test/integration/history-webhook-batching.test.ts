/** Concurrent history webhook posts share INSERT statements; every sender still gets the answer it would get alone. */
import { randomUUID } from 'node:crypto';
import { startTestStack, type TestStack } from '../helpers/test-stack';

const SECRET = 'activity-secret-for-tests-0123456789';

describe('POST /api/webhook/activity, many at once', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack({ env: { ACTIVITY_WEBHOOK_SECRET: SECRET }, worker: false });
  });
  afterAll(async () => stack.stop());

  const send = (body: unknown) =>
    stack.http('POST', '/api/webhook/activity', { body, headers: { 'x-activity-webhook-secret': SECRET } });
  const record = (userId: string, requestId = randomUUID()) => ({
    activityType: 'kyt',
    userId,
    requestId,
    blockchain: 'ethereum',
    transactionHash: `0x${randomUUID().replace(/-/g, '')}`,
  });
  const rowsFor = async (requestIds: string[]) =>
    (
      await stack.pool.query<{ id: string; request_id: string }>(
        'SELECT id, request_id FROM activity_history WHERE request_id = ANY($1::uuid[])',
        [requestIds],
      )
    ).rows;

  test(
    'when 50 different records are posted at once, ' + 'then 50 rows and each answer is 201 with its own row',
    async () => {
      // Arrange
      const bodies = Array.from({ length: 50 }, () => record('user_fifty'));

      // Act
      const answers = await Promise.all(bodies.map(send));

      // Assert
      const rows = await rowsFor(bodies.map((b) => b.requestId));
      const idOf = new Map(rows.map((r) => [r.request_id, r.id]));
      expect(rows).toHaveLength(50);
      expect(answers.map((a) => [a.status, a.body])).toEqual(
        bodies.map((b) => [201, { success: true, id: idOf.get(b.requestId), requestId: b.requestId }]),
      );
    },
  );

  test(
    'when posts at once repeat one record and resend one stored before, ' +
      'then one row per record and every answer is 201 with it',
    async () => {
      // Arrange
      const stored = record('user_mixed');
      const first = await send(stored);
      const repeated = record('user_mixed');
      const others = Array.from({ length: 8 }, () => record('user_mixed'));

      // Act
      const answers = await Promise.all([stored, repeated, ...others, repeated].map(send));

      // Assert
      const rows = await rowsFor([stored, repeated, ...others].map((b) => b.requestId));
      const idOf = new Map(rows.map((r) => [r.request_id, r.id]));
      expect(rows).toHaveLength(10);
      expect(idOf.get(stored.requestId)).toBe(first.body.id);
      expect(answers.map((a) => [a.status, a.body.id])).toEqual(
        [stored, repeated, ...others, repeated].map((b) => [201, idOf.get(b.requestId)]),
      );
    },
  );
});
