import { randomUUID } from 'node:crypto';
import { startTestStack, type TestStack } from '../helpers/test-stack';

/**
 * A poll is one query after authentication (the key is served from the authentication cache), and the stored
 * answer is written out as Postgres holds its text, not parsed and encoded again. The api runs without a worker
 * here, so every query on the pool during a request is the request's own.
 */
let stack: TestStack;

beforeAll(async () => {
  stack = await startTestStack({ worker: false });
}, 60_000);
afterAll(async () => stack?.stop());

const RESPONSE = {
  api_type: 'KYA',
  chain: 'bitcoin',
  risk_level: 'LOW',
  risk_score: 12.5,
  response_id: randomUUID(),
  risk_reason: 'No finding on the lists',
  rule_scores: {
    tag_score: 0,
    is_sanctioned: 0,
    is_blacklisted: 0,
    receive_count: 1e-7,
    address_type: 0,
    active_duration: 0,
  },
  target_summary: { address: '12QtD5BFwRsdNsAZY76UVE1xyCGNTojH9h', tags: [], balances: [] },
};

/** A completed job as the workflow's mirror write leaves it. */
async function completedJob(userId: string): Promise<string> {
  const requestId = randomUUID();
  await stack.pool.query(
    `INSERT INTO screening_jobs (request_id, user_id, api_type, chain, target, crawl_timeout_ms, max_depth,
       credits_held, status, response, full_response, credits_charged, completed_at, reference_id)
     VALUES ($1, $2, 'KYA', 'bitcoin', $3, 8000, 2, 1, 'completed', $4, $5, 1, now(), 'case-7')`,
    [requestId, userId, RESPONSE.target_summary.address, RESPONSE, { ...RESPONSE, hits: [] }],
  );
  return requestId;
}

/** The statements the api sent to the pool while `act` ran. */
async function queriesDuring(act: () => Promise<unknown>): Promise<string[]> {
  const seen: string[] = [];
  const original = stack.pool.query.bind(stack.pool);
  const spy = jest.spyOn(stack.pool, 'query').mockImplementation(((...args: Parameters<typeof original>) => {
    const first = args[0] as unknown;
    seen.push(typeof first === 'string' ? first : String((first as { text?: string }).text));
    return original(...args);
  }) as typeof stack.pool.query);
  try {
    await act();
  } finally {
    spy.mockRestore();
  }
  return seen;
}

test('when a client polls a completed job again, then the api sends one query: the poll select', async () => {
  // Arrange: the key is authenticated once and the first job's answer signed once
  const user = await stack.createUser();
  const [first, second] = [await completedJob(user.id), await completedJob(user.id)];
  expect((await stack.http('GET', `/api/v1/kyt/job/${first}`, { key: user.key })).status).toBe(200);

  // Act
  const again = await queriesDuring(() => stack.http('GET', `/api/v1/kyt/job/${first}`, { key: user.key }));
  const another = await queriesDuring(() => stack.http('GET', `/api/v1/kyt/job/${second}`, { key: user.key }));

  // Assert
  expect(again).toHaveLength(1);
  expect(again[0]).toContain('FROM screening_jobs WHERE request_id = $1 AND user_id = $2');
  expect(another).toHaveLength(1);
});

test(
  'when a completed job is polled, ' + 'then its stored response is written out as stored, and reads back equal',
  async () => {
    // Arrange
    const user = await stack.createUser();
    const id = await completedJob(user.id);
    const { rows } = await stack.pool.query<{ text: string }>(
      'SELECT response::text AS text FROM screening_jobs WHERE request_id = $1',
      [id],
    );

    // Act
    const res = await fetch(`${stack.api.url}/api/v1/kyt/job/${id}`, { headers: { 'x-api-key': user.key } });
    const raw = await res.text();

    // Assert
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(raw).toContain(`"response":${rows[0]?.text}`);
    const body = JSON.parse(raw);
    expect(body).toEqual({
      success: true,
      data: {
        request_id: id,
        status: 'completed',
        reference_id: 'case-7',
        created_at: expect.any(Number),
        completed_at: expect.any(Number),
        response: RESPONSE,
        credits_charged: 1,
        signature: expect.objectContaining({ signed: 'data', alg: 'EdDSA' }),
      },
    });
    expect(Object.keys(body.data)).toEqual([
      'request_id',
      'status',
      'reference_id',
      'created_at',
      'completed_at',
      'response',
      'credits_charged',
      'signature',
    ]);
  },
);

test('when the full response is asked for, then it is the stored full response and not the poll answer', async () => {
  // Arrange
  const user = await stack.createUser();
  const id = await completedJob(user.id);

  // Act
  const res = await stack.http('GET', `/api/v1/kyt/job/${id}/fullresponse`, { key: user.key });

  // Assert
  expect(res.status).toBe(200);
  expect(res.body.data.response).toEqual({ ...RESPONSE, hits: [] });
});
