import { randomUUID } from 'node:crypto';
import { connectRecording } from '../helpers/realtime-client';
import { startTestStack, type TestStack } from '../helpers/test-stack';

const SECRET = 'activity-secret-for-tests-0123456789';
const ROUTE = '/api/webhook/activity';

describe('POST /api/webhook/activity', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack({ env: { ACTIVITY_WEBHOOK_SECRET: SECRET }, worker: false });
  });
  afterAll(async () => stack.stop());

  const send = (body: unknown, secret: string | null = SECRET, headers: Record<string, string> = {}) =>
    stack.http('POST', ROUTE, {
      body,
      headers: { ...(secret === null ? {} : { 'x-activity-webhook-secret': secret }), ...headers },
    });
  const rowsFor = async (requestId: string) =>
    (await stack.pool.query('SELECT * FROM activity_history WHERE request_id = $1', [requestId])).rows;

  test(
    'when a valid kya record is posted for a known user, then 201 {success, id, ' +
      'requestId} and one row with every field',
    async () => {
      // Arrange
      const user = await stack.createUser({ clerkUserId: `user_${randomUUID().slice(0, 20).replace(/-/g, '')}` });
      const owner = await stack.stores.users.findByAnyId(user.id);
      const requestId = randomUUID();
      const responseId = randomUUID();

      // Act
      const res = await send({
        activityType: 'kya',
        userId: owner!.clerkUserId,
        requestId,
        responseId,
        blockchain: 'tron',
        address: 'TXabc',
        riskLevel: 'critical',
        riskScore: 96,
        requestPayload: { address: 'TXabc' },
        responsePayload: { risk_score: 96 },
        responseSummary: { risk_level: 'critical' },
        metadata: { caseId: 'case-7' },
        clientAppId: 'app-1',
        clientAppName: 'Compliance desk',
      });

      // Assert
      expect(res.status).toBe(201);
      expect(res.body).toEqual({ success: true, id: expect.any(String), requestId });
      const [row] = await rowsFor(requestId);
      expect(row).toMatchObject({
        id: res.body.id,
        user_id: user.id,
        activity_type: 'kya',
        response_id: responseId,
        status_code: 200,
        is_error: false,
        blockchain: 'tron',
        address: 'TXabc',
        risk_level: 'critical',
        risk_score: 96,
        metadata: { caseId: 'case-7' },
        client_app_name: 'Compliance desk',
        source: 'webhook',
      });
      const byMetadata = await stack.pool.query(
        `SELECT count(*)::int AS n FROM activity_history WHERE metadata @> '{"caseId":"case-7"}'`,
      );
      expect(byMetadata.rows[0].n).toBe(1);
    },
  );

  test.each([
    ['no secret', null],
    ['a wrong secret', 'activity-secret-for-tests-0123456780'],
    ['a prefix of the secret', SECRET.slice(0, 10)],
  ])('when the request carries %s, then 401 {error:"Unauthorized"} and nothing is stored', async (_label, secret) => {
    const requestId = randomUUID();
    const res = await send(
      { activityType: 'kyt', userId: 'user_x', requestId, blockchain: 'ethereum', transactionHash: '0x1' },
      secret,
    );
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: 'Unauthorized' });
    expect(await rowsFor(requestId)).toEqual([]);
  });

  test('when activityType is invalid or userId is missing, then the contract bodies come back', async () => {
    const badType = await send({ activityType: 'kyz', userId: 'user_x' });
    const noUser = await send({ activityType: 'kye', entityId: 'vasp-1' });
    expect([badType.status, badType.body]).toEqual([
      400,
      { error: 'Invalid activityType. Must be one of: kyt, kya, kye', field: 'activityType' },
    ]);
    expect([noUser.status, noUser.body]).toEqual([400, { error: 'userId is required', field: 'userId' }]);
  });

  test('when a conditional field is missing, then 400 names it', async () => {
    const res = await send({ activityType: 'kyt', userId: 'user_x', blockchain: 'bitcoin' });
    expect([res.status, res.body]).toEqual([
      400,
      { error: 'transactionHash is required when activityType is kyt', field: 'transactionHash' },
    ]);
  });

  test('when the body is not JSON, or is over 1 MB, then 400 or 413', async () => {
    const notJson = await send('{"activityType":', SECRET, { 'content-type': 'application/json' });
    const huge = await send({
      activityType: 'kye',
      userId: 'user_x',
      entityId: 'e',
      requestPayload: { blob: 'x'.repeat(1_100_000) },
    });
    expect([notJson.status, notJson.body]).toEqual([400, { error: 'The body must be a JSON object' }]);
    expect(huge.status).toBe(413);
  });

  test(
    'when statusCode is 500 and no errorMessage is sent, then the row is an error with a message, ' +
      'and requestId was generated',
    async () => {
      const res = await send({ activityType: 'kye', userId: 'user_err', entityId: 'vasp-9', statusCode: 500 });
      const [row] = await rowsFor(res.body.requestId);
      expect(res.status).toBe(201);
      expect(row).toMatchObject({ status_code: 500, is_error: true, error_message: 'Request failed with status 500' });
    },
  );

  test(
    'when twenty identical posts (same userId and requestId) arrive at once, ' +
      'then one row is stored and all get 201 with its id',
    async () => {
      const body = {
        activityType: 'kyt',
        userId: 'user_retry',
        requestId: randomUUID(),
        blockchain: 'ethereum',
        transactionHash: '0xfeed',
      };
      const answers = await Promise.all(Array.from({ length: 20 }, () => send(body)));
      const rows = await rowsFor(body.requestId);
      expect(answers.map((a) => a.status)).toEqual(Array(20).fill(201));
      expect(new Set(answers.map((a) => a.body.id))).toEqual(new Set([rows[0].id]));
      expect(rows).toHaveLength(1);
    },
  );

  test('when twenty identical records arrive at once, fifty times over, then every answer is 201 with the one ' +
    "row's id (a twin committed after the insert's snapshot is found, never a 500)", async () => {
    for (let round = 0; round < 50; round++) {
      const body = {
        activityType: 'kya',
        userId: 'user_race',
        requestId: randomUUID(),
        blockchain: 'ethereum',
        address: '0x1111111111111111111111111111111111111111',
      };
      const answers = await Promise.all(Array.from({ length: 20 }, () => send(body)));
      const rows = await rowsFor(body.requestId);
      expect([round, answers.map((a) => a.status)]).toEqual([round, Array(20).fill(201)]);
      expect(new Set(answers.map((a) => a.body.id))).toEqual(new Set([rows[0].id]));
      expect(rows).toHaveLength(1);
    }
  }, 120_000);

  test('when the same requestId is used for two different users, then each gets its own row', async () => {
    const requestId = randomUUID();
    await send({ activityType: 'kye', userId: 'user_one', requestId, entityId: 'e1' });
    await send({ activityType: 'kye', userId: 'user_two', requestId, entityId: 'e1' });
    expect(await rowsFor(requestId)).toHaveLength(2);
  });

  test(
    'when a record names a user who does not exist yet, then it is kept and appears in their history (and on ' +
      'their socket) once they do',
    async () => {
      // Arrange
      const clerkUserId = `user_${randomUUID().replace(/-/g, '').slice(0, 24)}`;
      const requestId = randomUUID();

      // Act
      const res = await send({
        activityType: 'kya',
        userId: clerkUserId,
        requestId,
        blockchain: 'bitcoin',
        address: 'bc1qpending',
      });
      const pending = (await rowsFor(requestId))[0];
      const user = await stack.createUser({ clerkUserId });
      const history = await stack.http('GET', '/api/v1/activity', { key: user.key });

      // Assert
      expect(res.status).toBe(201);
      expect(pending).toMatchObject({ user_id: null, user_ref: clerkUserId });
      expect(history.body.data).toEqual([
        expect.objectContaining({ id: res.body.id, requestId, address: 'bc1qpending' }),
      ]);
    },
  );

  test(
    "when a record is stored, then the owner's socket " + "receives activity_recorded and another user's does not",
    async () => {
      // Arrange
      const owner = await stack.createUser({ clerkUserId: `user_${randomUUID().replace(/-/g, '').slice(0, 24)}` });
      const ownerRow = await stack.stores.users.findByAnyId(owner.id);
      const other = await stack.createUser();
      const [ownerSocket, otherSocket] = await Promise.all([
        connectRecording(stack.api.url, owner.key),
        connectRecording(stack.api.url, other.key),
      ]);
      const requestId = randomUUID();

      // Act
      const res = await send({
        activityType: 'kyt',
        userId: ownerRow!.clerkUserId,
        requestId,
        blockchain: 'ethereum',
        transactionHash: '0xbeef',
        riskLevel: 'low',
        riskScore: 3,
        responseSummary: { risk_level: 'LOW' },
      });
      const pushed = await ownerSocket.waitFor('activity_recorded', (p) => p.requestId === requestId);
      await new Promise((r) => setTimeout(r, 300));

      // Assert
      expect(pushed).toEqual(
        expect.objectContaining({
          id: res.body.id,
          activityType: 'kyt',
          transactionHash: '0xbeef',
          riskLevel: 'low',
          riskScore: 3,
          isError: false,
          responseSummary: { risk_level: 'LOW' },
          createdAt: expect.stringMatching(/Z$/),
        }),
      );
      expect(otherSocket.received).toEqual([]);
      ownerSocket.close();
      otherSocket.close();
    },
  );
});
