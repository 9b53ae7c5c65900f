import { randomUUID } from 'node:crypto';
import { balanceOf, executionsOf, fixtureUser, processedEvent } from '../helpers/billing';
import { connectRecording } from '../helpers/realtime-client';
import { startTestStack, type TestStack } from '../helpers/test-stack';
import {
  fixture,
  fixtureJson,
  paypalFixture,
  paypalVariant,
  post,
  signPayPal,
  testPayPalVerifier,
  WEBHOOK_ENV,
} from '../helpers/webhooks';

const ROUTE = '/api/v1/billing/paypal/webhook';
const manifest = fixtureJson('paypal', 'events', '_manifest.json');
const eventIdOf = (type: string): string => manifest.events.find((e: any) => e.event_type === type).event_id;
const newClerkId = () => `user_${randomUUID().replace(/-/g, '').slice(0, 24)}`;
const newSubscriptionId = () => `I-${randomUUID().replace(/-/g, '').slice(0, 12).toUpperCase()}`;

describe('PayPal subscription webhook', () => {
  let stack: TestStack;
  const fetchCalls: string[] = [];
  beforeAll(async () => {
    stack = await startTestStack({
      env: { ...WEBHOOK_ENV, PAYPAL_UNKNOWN_SUBSCRIPTION_RETRY_MS: '300' },
      verifiers: { paypalVerifier: testPayPalVerifier({ fetchCalls }) },
    });
  });
  afterAll(async () => stack.stop());

  /** A user who signed in (the dashboard provisions them before any checkout): custom_id attaches only to one. */
  const signedUpClerkId = async () => {
    const clerkUserId = newClerkId();
    await stack.createUser({ clerkUserId });
    return clerkUserId;
  };

  const subscriptionOf = async (key: string) =>
    (await stack.http('GET', '/api/v1/billing/subscriptions', { key })).body.data;
  const deliver = async (type: string) => {
    const res = await post(stack.api.url, ROUTE, paypalFixture(type));
    return { res, event: await processedEvent(stack, 'paypal', eventIdOf(type)) };
  };

  test(
    'when the fixture events arrive in order (activated → updated → payment failed → sale → cancelled), ' +
      'then the subscription and credits follow spec 3.2',
    async () => {
      // Arrange
      const user = await fixtureUser(stack);
      const socket = await connectRecording(stack.api.url, user.key);
      const start = await balanceOf(stack, user.id);

      // Act / Assert: activated grants the basic plan's credits, live over the socket.
      const activated = await deliver('BILLING.SUBSCRIPTION.ACTIVATED');
      expect(activated.res.status).toBe(200);
      expect(activated.event).toMatchObject({ outcome: 'granted', credits: 100 });
      expect(
        await socket.waitFor('credits_granted', (p) => p.eventId === eventIdOf('BILLING.SUBSCRIPTION.ACTIVATED')),
      ).toMatchObject({ amount: 100, source: 'paypal', balance: start + 100 });
      expect(await subscriptionOf(user.key)).toEqual([
        expect.objectContaining({
          subscriptionId: 'I-93KN4XGWD2R7',
          status: 'ACTIVE',
          packageId: 'basic',
          paymentFailed: false,
        }),
      ]);

      // updated: the plan changes to pro; the upgrade grants nothing until a sale pays the pro price.
      const updated = await deliver('BILLING.SUBSCRIPTION.UPDATED');
      expect(updated.event).toMatchObject({ outcome: 'applied', credits: 0 });
      expect(await balanceOf(stack, user.id)).toBe(start + 100);
      expect((await subscriptionOf(user.key))[0]).toMatchObject({
        planId: 'P-3RX065706M3469222L5IFM4I',
        packageId: 'pro',
      });

      // payment failed: flagged; once the credits are spent, a job gets 402 with a code that says why.
      const failed = await deliver('BILLING.SUBSCRIPTION.PAYMENT.FAILED');
      expect(failed.event).toMatchObject({ outcome: 'applied', credits: 0 });
      expect((await subscriptionOf(user.key))[0]).toMatchObject({
        paymentFailed: true,
        lastFailureReason: 'PAYMENT_DENIED',
      });
      const spend = await balanceOf(stack, user.id);
      await stack.stores.credits.consume({
        userId: user.id,
        amount: spend,
        idempotencyKey: `test-spend:${randomUUID()}`,
        holdKey: null,
        reason: 'spend it all',
      });
      const refused = await stack.http('POST', '/api/v1/kyt/job', {
        key: user.key,
        body: { chain: 'ethereum', address: '0x8589427373d6d84e98730d7795d8f6f8731fda16' },
      });
      expect(refused.status).toBe(402);
      expect(refused.body).toMatchObject({ success: false, code: 'SUBSCRIPTION_PAYMENT_FAILED', available: 0 });

      // sale completed: the subscription's first sale pays cycle 1, whose credits activation already granted.
      const sale = await deliver('PAYMENT.SALE.COMPLETED');
      expect(sale.event).toMatchObject({ outcome: 'logged', credits: 0 });
      expect(sale.event.detail).toContain('cycle 1');
      expect(await balanceOf(stack, user.id)).toBe(0);

      // cancelled: marked cancelled at period end; the later payment it reports clears the flag.
      const cancelled = await deliver('BILLING.SUBSCRIPTION.CANCELLED');
      expect(cancelled.event).toMatchObject({ outcome: 'applied', credits: 0 });
      expect((await subscriptionOf(user.key))[0]).toMatchObject({
        status: 'CANCELLED',
        cancelledAt: '2026-11-20T16:45:09.000Z',
        nextBillingTime: '2026-12-06T10:00:00.000Z',
        paymentFailed: false,
      });
      const payment = await stack.pool.query(
        `SELECT * FROM credited_payments WHERE provider = 'paypal' AND payment_id = '7WT2824826029771W'`,
      );
      expect(payment.rows[0]).toMatchObject({
        subscription_id: 'I-93KN4XGWD2R7',
        cycle: 1,
        package_id: 'basic',
        amount_cents: 999,
        currency: 'USD',
        credits: 100,
      });
      socket.close();
    },
  );

  test(
    'when UPDATED arrives before ACTIVATED, then the subscription still ends ACTIVE on the new plan, with only ' +
      "the activation's advance on its basic payment (the upgrade's credits come with the sale at the pro price)",
    async () => {
      // Arrange
      const clerkUserId = await signedUpClerkId();
      const subscriptionId = newSubscriptionId();
      const updated = paypalVariant('BILLING.SUBSCRIPTION.UPDATED', { subscriptionId, clerkUserId });
      const activated = paypalVariant('BILLING.SUBSCRIPTION.ACTIVATED', { subscriptionId, clerkUserId });

      // Act
      await post(stack.api.url, ROUTE, updated);
      await processedEvent(stack, 'paypal', updated.eventId);
      await post(stack.api.url, ROUTE, activated);
      await processedEvent(stack, 'paypal', activated.eventId);

      // Assert
      const user = await stack.stores.users.findByAnyId(clerkUserId);
      const [subscription] = await stack.stores.subscriptions.listForUser(user!.id);
      expect(subscription).toMatchObject({
        status: 'ACTIVE',
        planId: 'P-3RX065706M3469222L5IFM4I',
        packageId: 'pro',
        providerUpdatedAt: '2026-10-15T14:22:39.000Z',
      });
      expect(await balanceOf(stack, user!.id)).toBe(100);
    },
  );

  test('when a late ACTIVATED arrives after CANCELLED, then the subscription stays cancelled', async () => {
    const clerkUserId = await signedUpClerkId();
    const subscriptionId = newSubscriptionId();
    const cancelled = paypalVariant('BILLING.SUBSCRIPTION.CANCELLED', { subscriptionId, clerkUserId });
    const activated = paypalVariant('BILLING.SUBSCRIPTION.ACTIVATED', { subscriptionId, clerkUserId });
    await post(stack.api.url, ROUTE, cancelled);
    await processedEvent(stack, 'paypal', cancelled.eventId);
    await post(stack.api.url, ROUTE, activated);
    await processedEvent(stack, 'paypal', activated.eventId);
    const user = await stack.stores.users.findByAnyId(clerkUserId);
    expect((await stack.stores.subscriptions.listForUser(user!.id))[0]).toMatchObject({ status: 'CANCELLED' });
  });

  test(
    'when a sale arrives before its subscription is known, then it is retried once ' +
      'ACTIVATED has stored it and the first cycle is granted once',
    async () => {
      // Arrange
      const clerkUserId = await signedUpClerkId();
      const subscriptionId = newSubscriptionId();
      const sale = paypalVariant('PAYMENT.SALE.COMPLETED', {
        subscriptionId,
        clerkUserId,
        mutate: (b) => (b.resource.id = `SALE${randomUUID().slice(0, 8)}`),
      });
      const activated = paypalVariant('BILLING.SUBSCRIPTION.ACTIVATED', { subscriptionId, clerkUserId });

      // Act
      expect((await post(stack.api.url, ROUTE, sale)).status).toBe(200);
      await new Promise((r) => setTimeout(r, 700));
      const before = await processedEvent(stack, 'paypal', sale.eventId, 0);
      await post(stack.api.url, ROUTE, activated);
      const after = await processedEvent(stack, 'paypal', sale.eventId);

      // Assert
      expect(before).toBeNull();
      expect(after).toMatchObject({ outcome: 'logged', credits: 0 });
      const user = await stack.stores.users.findByAnyId(clerkUserId);
      expect(await balanceOf(stack, user!.id)).toBe(100);
    },
  );

  test(
    'when twenty deliveries of the same event arrive at once, then all get 200, ' +
      'one workflow runs and one grant is made',
    async () => {
      // Arrange
      const clerkUserId = await signedUpClerkId();
      const activated = paypalVariant('BILLING.SUBSCRIPTION.ACTIVATED', {
        subscriptionId: newSubscriptionId(),
        clerkUserId,
      });

      // Act
      const answers = await Promise.all(Array.from({ length: 20 }, () => post(stack.api.url, ROUTE, activated)));
      await stack.temporal.workflow.getHandle(`paypal:${activated.eventId}`).result();
      const redelivered = await post(stack.api.url, ROUTE, activated);

      // Assert
      expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
      expect(redelivered.body).toMatchObject({ success: true, duplicate: true });
      const user = await stack.stores.users.findByAnyId(clerkUserId);
      expect(await balanceOf(stack, user!.id)).toBe(100);
      const grants = await stack.pool.query('SELECT count(*)::int AS n FROM credit_transactions WHERE user_id = $1', [
        user!.id,
      ]);
      expect(grants.rows[0].n).toBe(1);
      expect(await executionsOf(stack, `paypal:${activated.eventId}`)).toBe(1);
    },
  );

  test.each([
    ['ACTIVATED.signed-by-untrusted-selfsigned', false],
    ['ACTIVATED.cert-url-off-domain', true],
    ['ACTIVATED.cert-url-http', true],
    ['ACTIVATED.cert-url-userinfo-trick', true],
  ])(
    'when the headers are %s, then the delivery is refused with 401 (and an untrusted URL is never fetched)',
    async (name, urlRejected) => {
      // Arrange
      const headers = fixtureJson<Record<string, string>>('paypal', 'negative', `${name}.headers.json`);
      fetchCalls.length = 0;

      // Act
      const res = await post(stack.api.url, ROUTE, {
        body: fixture('paypal', 'events', 'BILLING.SUBSCRIPTION.ACTIVATED.json'),
        headers,
      });

      // Assert
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ success: false, error: 'Unauthorized', code: 'INVALID_SIGNATURE' });
      if (urlRejected) expect(fetchCalls.filter((u) => u.includes('evil') || u.startsWith('http:'))).toEqual([]);
    },
  );

  test('when a byte of a signed body is changed, then the delivery is refused with 401', async () => {
    const { body, headers } = paypalFixture('PAYMENT.SALE.COMPLETED');
    const res = await post(stack.api.url, ROUTE, {
      body: Buffer.from(body.toString('utf8').replace('"9.99"', '"9.98"')),
      headers,
    });
    expect(res.status).toBe(401);
  });

  test(
    "when PayPal's simulator event (no custom_id) arrives signed, " +
      'then it is refused with 400; unsigned, it gets 401',
    async () => {
      const simulator = fixture('paypal', 'simulator', 'BILLING.SUBSCRIPTION.ACTIVATED.json');
      const signed = await post(stack.api.url, ROUTE, signPayPal(simulator));
      const unsigned = await post(stack.api.url, ROUTE, {
        body: simulator,
        headers: { 'content-type': 'application/json' },
      });
      expect([signed.status, signed.body.code]).toEqual([400, 'MISSING_CUSTOM_ID']);
      expect(signed.body.error).toContain('custom_id');
      expect(unsigned.status).toBe(401);
    },
  );

  test(
    'when a real sandbox capture names a PayPal certificate this deployment cannot fetch and no postback is ' +
      'configured, then it gets 503 so PayPal retries',
    async () => {
      // Its recorded content-length belongs to the original bytes (the capture was re-serialized): fetch sets its own.
      const { 'content-length': _length, ...headers } = fixtureJson<Record<string, string>>(
        'paypal',
        'sandbox-captured',
        'PAYMENT.SALE.COMPLETED_2023-09-07.headers.json',
      );
      fetchCalls.length = 0;
      const captured = await post(stack.api.url, ROUTE, {
        body: fixture('paypal', 'sandbox-captured', 'PAYMENT.SALE.COMPLETED_2023-09-07.json'),
        headers,
      });
      expect([captured.status, captured.body.code]).toEqual([503, 'VERIFICATION_UNAVAILABLE']);
      expect(fetchCalls).toEqual([headers['paypal-cert-url']]);
    },
  );

  test(
    'when a verified event type is not one this service ' + 'acts on, then it is acknowledged and recorded as ignored',
    async () => {
      const id = `WH-${randomUUID()}`;
      const res = await post(
        stack.api.url,
        ROUTE,
        signPayPal(JSON.stringify({ id, event_type: 'BILLING.PLAN.CREATED', resource: { id: 'P-1' } })),
      );
      expect(res.body).toMatchObject({ success: true, handled: false });
      expect(await processedEvent(stack, 'paypal', id)).toMatchObject({ outcome: 'ignored' });
    },
  );

  test('when a signed body is not JSON or has no event id, then it is refused with 400', async () => {
    const notJson = await post(stack.api.url, ROUTE, signPayPal('not json'));
    const noId = await post(stack.api.url, ROUTE, signPayPal(JSON.stringify({ event_type: 'PAYMENT.SALE.COMPLETED' })));
    expect([notJson.status, noId.status]).toEqual([400, 400]);
    expect(noId.body).toMatchObject({ success: false, code: 'INVALID_EVENT' });
  });
});

describe('PayPal webhook without its configuration', () => {
  test('when PAYPAL_WEBHOOK_ID is not set, then deliveries get 503 so PayPal retries once it is', async () => {
    const stack = await startTestStack({ worker: false });
    try {
      const res = await post(stack.api.url, ROUTE, paypalFixture('BILLING.SUBSCRIPTION.ACTIVATED'));
      expect([res.status, res.body.code]).toEqual([503, 'WEBHOOK_NOT_CONFIGURED']);
    } finally {
      await stack.stop();
    }
  });
});
