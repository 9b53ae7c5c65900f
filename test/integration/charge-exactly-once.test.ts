import { activityInfo } from '@temporalio/activity';
import { pollUntilDone, startTestStack, type TestStack } from '../helpers/test-stack';

describe('credits are charged exactly once per request_id', () => {
  let stack: TestStack;
  let failedAttempts = 0;

  beforeAll(async () => {
    stack = await startTestStack({
      activities: (defaults) => ({
        ...defaults,
        // Commits the settle (charge, history entry, mirror), then dies before Temporal hears of it: the retry must not
        // charge again.
        async settleCompletedJob(input) {
          const result = await defaults.settleCompletedJob(input);
          if (activityInfo().attempt === 1) {
            failedAttempts++;
            throw new Error('simulated crash after the charge committed');
          }
          return result;
        },
      }),
    });
  });
  afterAll(async () => stack.stop());

  test('when the settle activity fails after its commit and is retried, then the account is debited once', async () => {
    const user = await stack.createUser({ credits: 4 });

    const submit = await stack.http('POST', '/api/v1/kyt/job', {
      key: user.key,
      body: { chain: 'bitcoin', address: '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa' },
    });
    const polled = await pollUntilDone(stack, user.key, submit.body.data.request_id);

    expect(polled.data.status).toBe('completed');
    expect(polled.data.credits_charged).toBe(1);
    expect(failedAttempts).toBe(1);
    expect(await stack.stores.credits.balance(user.id)).toEqual({ balance: 3, reserved: 0, available: 3, debt: 0 });
    const { rows } = await stack.pool.query(
      `SELECT kind, amount, idempotency_key FROM credit_transactions WHERE user_id = $1 AND kind = 'consume'`,
      [user.id],
    );
    expect(rows).toEqual([{ kind: 'consume', amount: 1, idempotency_key: `screening:${submit.body.data.request_id}` }]);
    const history = await stack.pool.query('SELECT count(*)::int AS n FROM activity_history WHERE request_id = $1', [
      submit.body.data.request_id,
    ]);
    expect(history.rows).toEqual([{ n: 1 }]);

    // The workflow history proves the activity really ran twice.
    // The mirror says completed when the settle commits, just before the activity's completion reaches Temporal.
    const handle = stack.temporal.workflow.getHandle(`screening:${submit.body.data.request_id}`);
    await handle.result();
    const workflow = await handle.fetchHistory();
    // Both steps are local activities: each marker records the attempt that completed it.
    const markers = (workflow.events ?? [])
      .map((e) => e.markerRecordedEventAttributes?.details?.data?.payloads?.[0]?.data)
      .filter((data): data is Uint8Array => !!data)
      .map((data) => JSON.parse(Buffer.from(data).toString('utf8')) as { activity_type: string; attempt: number });
    expect(markers.filter((marker) => marker.activity_type === 'settleCompletedJob')).toEqual([
      expect.objectContaining({ attempt: 2 }),
    ]);
    expect(markers.filter((marker) => marker.activity_type === 'analyzeTarget')).toEqual([
      expect.objectContaining({ attempt: 1 }),
    ]);
    const scheduled = (workflow.events ?? []).flatMap(
      (e) => e.activityTaskScheduledEventAttributes?.activityType?.name ?? [],
    );
    expect(scheduled).toEqual([]);
  });
});
