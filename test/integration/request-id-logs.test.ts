import { randomUUID } from 'node:crypto';
import { capturingLogger } from '../helpers/run-log';
import { pollUntilDone, startTestStack, type TestStack } from '../helpers/test-stack';
import { clerkDelivery, fixture, FIXTURE_CLERK_USER, post, WEBHOOK_ENV } from '../helpers/webhooks';
import { processedEvent } from '../helpers/billing';
import { until } from '../helpers/until';

type LogLine = Record<string, any> & { msg: string; level: string };

describe('HTTP request ids and structured logs', () => {
  let stack: TestStack;
  const lines: LogLine[] = [];
  const linesOf = (predicate: (l: LogLine) => boolean) => lines.filter(predicate);

  beforeAll(async () => {
    // The stack's api and worker log at debug through the production logger, into memory (and the run's log).
    const log = capturingLogger((s) => void lines.push(JSON.parse(s) as LogLine), { process: 'test' });
    stack = await startTestStack({ env: WEBHOOK_ENV, log });
  });
  afterAll(async () => stack.stop());

  test(
    'a sane incoming X-Request-Id is echoed on every kind of answer, ' +
      'and the access line carries it with the route template',
    async () => {
      const user = await stack.createUser({ credits: 0 });
      const answers = await Promise.all([
        stack.http('GET', '/health', { headers: { 'X-Request-Id': 'abc-123' } }),
        stack.http('GET', '/api/v1/no-such-route', { key: user.key, headers: { 'X-Request-Id': 'req.404:x_1' } }),
        stack.http('GET', '/api/v1/me', { headers: { 'X-Request-Id': 'unauthenticated-1' } }),
        stack.http('POST', '/api/v1/x402/kya/report', {
          body: { chain: 'ethereum', address: '0x4f47bc496083c727c5fbe3ce9cdf2b0f6496270c' },
          headers: { 'X-Request-Id': 'x402-1' },
        }),
        stack.http('GET', `/api/v1/kyt/job/${randomUUID()}`, { key: user.key, headers: { 'X-Request-Id': 'poll-1' } }),
      ]);
      expect(answers.map((a) => [a.status, a.headers.get('x-request-id')])).toEqual([
        [200, 'abc-123'],
        [404, 'req.404:x_1'],
        [401, 'unauthenticated-1'],
        [503, 'x402-1'],
        [404, 'poll-1'],
      ]);

      const access = (id: string) => linesOf((l) => l.msg === 'http request' && l.httpRequestId === id);
      expect(access('abc-123')).toEqual([
        expect.objectContaining({
          level: 'info',
          method: 'GET',
          route: '/health',
          status: 200,
          durationMs: expect.any(Number),
        }),
      ]);
      expect(access('poll-1')).toEqual([expect.objectContaining({ route: '/api/v1/kyt/job/:requestId', status: 404 })]);
      expect(access('req.404:x_1')).toEqual([expect.objectContaining({ route: '<unmatched>', status: 404 })]);
      // The access line names the route, never the URL, headers or body.
      expect(JSON.stringify(access('poll-1'))).not.toMatch(/x-api-key|cs_live_/);
    },
  );

  test(
    'an incoming id that is too long or carries characters ' + 'outside [A-Za-z0-9._:-] is replaced by a UUID',
    async () => {
      const bad = ['x'.repeat(500), 'two words', 'quote"brace{', 'tab\there', ''];
      const answers = await Promise.all(
        bad.map((id) => stack.http('GET', '/health', { headers: { 'X-Request-Id': id } })),
      );
      for (const a of answers)
        expect(a.headers.get('x-request-id')).toMatch(
          /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
        );
      const noHeader = await stack.http('GET', '/health');
      expect(noHeader.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
      expect(new Set([...answers, noHeader].map((a) => a.headers.get('x-request-id'))).size).toBe(bad.length + 1);
    },
  );

  test(
    'a job submitted with an X-Request-Id has it in its workflow memo, ' +
      'and every activity line of that job carries it',
    async () => {
      // Arrange
      const user = await stack.createUser({ credits: 10 });

      // Act
      const submit = await stack.http('POST', '/api/v1/kyt/job', {
        key: user.key,
        headers: { 'X-Request-Id': 'abc-123-job' },
        body: { chain: 'ethereum', address: '0x4f47bc496083c727c5fbe3ce9cdf2b0f6496270c' },
      });
      const requestId = submit.body.data.request_id as string;
      const polled = await pollUntilDone(stack, user.key, requestId);

      // Assert: the answer, the memo (what the Temporal UI shows under "Memo")
      expect(submit.status).toBe(202);
      expect(submit.headers.get('x-request-id')).toBe('abc-123-job');
      expect(polled.data.status).toBe('completed');
      const workflowId = `screening:${requestId}`;
      const description = await stack.temporal.workflow.getHandle(workflowId).describe();
      expect(description.memo).toEqual({ httpRequestId: 'abc-123-job' });
      // The job row keeps it too, for a workflow the queued-job sweeper would have to start later.
      expect(
        (await stack.pool.query('SELECT http_request_id FROM screening_jobs WHERE request_id = $1', [requestId])).rows,
      ).toEqual([{ http_request_id: 'abc-123-job' }]);

      // … and the worker's lines: one per activity at least, each with the workflow and the HTTP request. The address
      // is OFAC-listed: its HIGH answer also opens (or joins) its case, after the settle the poll saw.
      await until(
        'the case step after the settle',
        async () =>
          linesOf(
            (l) => l.workflowId === workflowId && l.activity === 'openCaseForJob' && l.msg === 'activity completed',
          ).length > 0,
      );
      const jobLines = linesOf((l) => l.workflowId === workflowId);
      const activities = new Set(jobLines.filter((l) => l.msg === 'activity completed').map((l) => l.activity));
      expect([...activities].sort()).toEqual(['analyzeTarget', 'openCaseForJob', 'settleCompletedJob']);
      expect(jobLines.find((l) => l.msg === 'target analysed')).toMatchObject({
        level: 'info',
        requestId,
        riskLevel: 'HIGH',
        activity: 'analyzeTarget',
      });
      expect(jobLines.filter((l) => l.httpRequestId !== 'abc-123-job')).toEqual([]);
      expect(linesOf((l) => l.msg === 'http request' && l.httpRequestId === 'abc-123-job')).toEqual([
        expect.objectContaining({ method: 'POST', route: '/api/v1/kyt/job', status: 202 }),
      ]);
    },
  );

  test(
    'a webhook delivery’s request id reaches its event ' + 'workflow’s memo and the event’s activity lines',
    async () => {
      // Arrange: a Clerk user.created for a fresh user, signed with the fixture secret.
      const clerkUserId = `user_${randomUUID().replace(/-/g, '').slice(0, 24)}`;
      const delivery = clerkDelivery(
        fixture('clerk', 'user.created.json').toString('utf8').split(FIXTURE_CLERK_USER).join(clerkUserId),
      );
      delivery.headers['x-request-id'] = 'clerk-delivery-1';

      // Act
      const answer = await post(stack.api.url, '/api/webhook/clerk', delivery);
      await processedEvent(stack, 'clerk', delivery.headers['svix-id'] as string);

      // Assert
      expect(answer.status).toBe(200);
      const workflowId = `clerk:${delivery.headers['svix-id']}`;
      expect((await stack.temporal.workflow.getHandle(workflowId).describe()).memo).toEqual({
        httpRequestId: 'clerk-delivery-1',
      });
      const eventLines = linesOf((l) => l.workflowId === workflowId);
      expect(eventLines.length).toBeGreaterThan(0);
      expect(eventLines.filter((l) => l.httpRequestId !== 'clerk-delivery-1')).toEqual([]);
    },
  );
});
