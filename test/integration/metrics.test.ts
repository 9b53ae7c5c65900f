import { randomUUID } from 'node:crypto';
import { payfastWorkflowId } from '../../src/billing/workflow-ids';
import { screeningWorkflowId } from '../../src/screening/workflow-ids';
import { freeLocalPort } from '../../src/platform/dev-services/free-port';
import { installTemporalRuntime } from '../../src/platform/temporal/temporal-runtime';
import { completeItn, signedItn } from '../helpers/billing';
import { changedSeries, scrape, totalOf, sampleValue, type Samples } from '../helpers/prometheus';
import { startTestStack, type TestStack } from '../helpers/test-stack';
import { post, WEBHOOK_ENV } from '../helpers/webhooks';

const SANCTIONED = '0x4f47bc496083c727c5fbe3ce9cdf2b0f6496270c';
const HTTP = 'chainscreen_http_request_duration_seconds_count';

/**
 * The counters against a real stack: scrape the api's and the worker's /metrics, run exactly one KYA
 * job to completion and one PayFast payment to its grant, scrape again, and require every counter
 * to have moved by exactly what was done, no more (a double count fails) and no less.
 */
describe('Prometheus metrics of the api and the worker', () => {
  let stack: TestStack;
  let sdkMetricsServed: boolean;

  beforeAll(async () => {
    // Before any Temporal connection of this file: the runtime is what exports the SDK's own metrics.
    const sdkMetricsPort = await freeLocalPort();
    sdkMetricsServed = installTemporalRuntime('warn', { sdkMetricsPort });
    stack = await startTestStack({ env: WEBHOOK_ENV, sdkMetricsUrl: `http://127.0.0.1:${sdkMetricsPort}/metrics` });
  }, 60_000);
  afterAll(async () => stack?.stop());

  test(
    'when one KYA job completes and one PayFast payment ' + 'is granted, then each counter moved by exactly that',
    async () => {
      // Arrange
      const user = await stack.createUser({
        credits: 5,
        clerkUserId: `user_metrics${randomUUID().replace(/-/g, '').slice(0, 16)}`,
      });
      // The api's /metrics is on its internal listener, which keeps no HTTP metrics of its own: scrapes do not count.
      const apiBefore = (await scrape(stack.api.internalUrl)).samples;
      const workerBefore = (await scrape(stack.workerHttp.url)).samples;
      let requestsSent = 0;

      // Act: one job, polled until completed…
      const submit = await stack.http('POST', '/api/v1/kyt/job', {
        key: user.key,
        body: { chain: 'ethereum', address: SANCTIONED },
      });
      requestsSent += 1;
      expect(submit.status).toBe(202);
      const requestId: string = submit.body.data.request_id;
      await stack.temporal.workflow.getHandle(screeningWorkflowId(requestId)).result();
      let polls = 0;
      let polled: Awaited<ReturnType<TestStack['http']>>;
      do {
        polled = await stack.http('GET', `/api/v1/kyt/job/${requestId}`, { key: user.key });
        polls += 1;
      } while (polled.body.data.status === 'queued');
      requestsSent += polls;
      expect(polled.body.data.status).toBe('completed');
      const charged: number = polled.body.data.credits_charged;

      // …and one payment: a checkout, then PayFast's signed ITN for it, processed to its grant.
      const checkout = await stack.http('POST', '/api/v1/billing/payfast/checkout', {
        key: user.key,
        body: { packageId: 'basic' },
      });
      requestsSent += 1;
      expect(checkout.status).toBe(201);
      const pfPaymentId = `${Date.now()}`;
      const { fields, mPaymentId, package: pkg } = checkout.body.data;
      const itn = await post(stack.api.url, '/api/v1/billing/payfast/webhook', {
        body: signedItn(
          completeItn({ mPaymentId, pfPaymentId, amount: fields.amount, customStr1: fields.custom_str1 }),
        ),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      requestsSent += 1;
      expect(itn.status).toBe(200);
      await stack.temporal.workflow.getHandle(payfastWorkflowId(pfPaymentId, 'COMPLETE')).result();
      await new Promise((r) => setTimeout(r, 100)); // the last answer's 'finish' event
      const apiAfter = (await scrape(stack.api.internalUrl)).samples;
      const worker = await scrape(stack.workerHttp.url);
      const workerAfter = worker.samples;

      // Assert: the api process
      const delta = (before: Samples, after: Samples, name: string, labels: Record<string, string> = {}) =>
        sampleValue(after, name, labels) - sampleValue(before, name, labels);
      expect(changedSeries(apiBefore, apiAfter, HTTP)).toEqual({
        '{method="POST",route="/api/v1/kyt/job",status="202"}': 1,
        '{method="GET",route="/api/v1/kyt/job/:requestId",status="200"}': polls,
        '{method="POST",route="/api/v1/billing/payfast/checkout",status="201"}': 1,
        '{method="POST",route="/api/v1/billing/payfast/webhook",status="200"}': 1,
      });
      expect(totalOf(apiAfter, HTTP) - totalOf(apiBefore, HTTP)).toBe(requestsSent);
      expect(changedSeries(apiBefore, apiAfter, 'chainscreen_jobs_submitted_total')).toEqual({
        '{api_type="KYA",chain="ethereum"}': 1,
      });
      expect(changedSeries(apiBefore, apiAfter, 'chainscreen_webhook_deliveries_total')).toEqual({
        '{outcome="accepted",provider="payfast"}': 1,
      });
      expect(changedSeries(apiBefore, apiAfter, 'chainscreen_jobs_failed_total')).toEqual({});

      // Assert: the worker process
      expect(changedSeries(workerBefore, workerAfter, 'chainscreen_jobs_completed_total')).toEqual({
        '{api_type="KYA",chain="ethereum"}': 1,
      });
      expect(changedSeries(workerBefore, workerAfter, 'chainscreen_jobs_failed_total')).toEqual({});
      expect(changedSeries(workerBefore, workerAfter, 'chainscreen_job_duration_seconds_count')).toEqual({
        '{api_type="KYA",chain="ethereum",status="completed"}': 1,
      });
      expect(charged).toBeGreaterThan(0);
      expect(delta(workerBefore, workerAfter, 'chainscreen_credits_consumed_total')).toBe(charged);
      expect(changedSeries(workerBefore, workerAfter, 'chainscreen_webhook_events_total')).toEqual({
        '{outcome="granted",provider="payfast"}': 1,
      });
      expect(changedSeries(workerBefore, workerAfter, 'chainscreen_credits_granted_total')).toEqual({
        '{source="payfast"}': pkg.credits,
      });
      expect(worker.contentType).toMatch(/^text\/plain; version=0\.0\.4/);
      // The SDK's own worker metrics ride along on the same scrape.
      expect(sdkMetricsServed).toBe(true);
      expect(worker.text).toMatch(/^temporal_\w+/m);
    },
  );

  test(
    'when a forged ITN and an unknown route are requested, then the forgery is counted as forged ' +
      'and the route as <unmatched>',
    async () => {
      const before = (await scrape(stack.api.internalUrl)).samples;

      const forged = await post(stack.api.url, '/api/v1/billing/payfast/webhook', {
        body: signedItn(
          completeItn({
            mPaymentId: randomUUID(),
            pfPaymentId: `${Date.now()}`,
            amount: '99.00',
            customStr1: 'user_x',
          }),
          'not-the-passphrase',
        ),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      const unknown = await stack.http('GET', `/no-such-route/${randomUUID()}`);
      await new Promise((r) => setTimeout(r, 100));
      const after = (await scrape(stack.api.internalUrl)).samples;

      expect([forged.status, unknown.status]).toEqual([401, 404]);
      expect(changedSeries(before, after, 'chainscreen_webhook_deliveries_total')).toEqual({
        '{outcome="forged",provider="payfast"}': 1,
      });
      expect(changedSeries(before, after, HTTP)).toEqual({
        '{method="POST",route="/api/v1/billing/payfast/webhook",status="401"}': 1,
        '{method="GET",route="<unmatched>",status="404"}': 1,
      });
    },
  );
});
