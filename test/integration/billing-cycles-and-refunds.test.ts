import { randomUUID } from 'node:crypto';
import { generateApiKey } from '../../src/identity/api-key-format';
import { balanceOf, completeItn, processedEvent, signedItn } from '../helpers/billing';
import { startTestStack, type TestStack } from '../helpers/test-stack';
import { paypalVariant, post, signPayPal, testPayPalVerifier, WEBHOOK_ENV, type Delivery } from '../helpers/webhooks';

const PAYPAL = '/api/v1/billing/paypal/webhook';
const PAYFAST = '/api/v1/billing/payfast/webhook';
const REFUNDS = '/api/v1/billing/payfast/refunds';
const BASIC_CREDITS = 100; // the basic plan: 9.99 USD per cycle
const newClerkId = () => `user_${randomUUID().replace(/-/g, '').slice(0, 24)}`;
const newSubscriptionId = () => `I-${randomUUID().replace(/-/g, '').slice(0, 12).toUpperCase()}`;
const newSaleId = () => `S${randomUUID().replace(/-/g, '').slice(0, 16).toUpperCase()}`;

/** PayPal's refund event (resource_type refund, as PayPal's sandbox sends it), signed with the test key. */
function refundEvent(o: {
  saleId: string;
  refundId?: string;
  total: string;
  eventId?: string;
}): Delivery & { eventId: string; refundId: string } {
  const eventId = o.eventId ?? `WH-${randomUUID()}`;
  const refundId = o.refundId ?? `R${randomUUID().replace(/-/g, '').slice(0, 16).toUpperCase()}`;
  const body = {
    id: eventId,
    create_time: new Date().toISOString(),
    resource_type: 'refund',
    event_type: 'PAYMENT.SALE.REFUNDED',
    summary: `A ${o.total} USD sale payment was refunded`,
    resource: {
      id: refundId,
      sale_id: o.saleId,
      parent_payment: `PAY-${refundId}`,
      state: 'completed',
      amount: { total: o.total, currency: 'USD' },
      create_time: new Date().toISOString(),
    },
    event_version: '1.0',
  };
  return { ...signPayPal(JSON.stringify(body)), eventId, refundId };
}

function reversalEvent(saleId: string, subscriptionId: string): Delivery & { eventId: string } {
  const eventId = `WH-${randomUUID()}`;
  const body = {
    id: eventId,
    resource_type: 'sale',
    event_type: 'PAYMENT.SALE.REVERSED',
    summary: 'Payment reversed',
    resource: {
      id: saleId,
      state: 'reversed',
      billing_agreement_id: subscriptionId,
      amount: { total: '-9.99', currency: 'USD' },
    },
  };
  return { ...signPayPal(JSON.stringify(body)), eventId };
}

describe('PayPal billing cycles, refunds and reversals; PayFast refunds', () => {
  let stack: TestStack;
  let admin: { id: string; key: string };
  beforeAll(async () => {
    stack = await startTestStack({
      env: { ...WEBHOOK_ENV, PAYPAL_UNKNOWN_SUBSCRIPTION_RETRY_MS: '300' },
      verifiers: { paypalVerifier: testPayPalVerifier() },
    });
    admin = await stack.createUser({ role: 'admin' });
  });
  afterAll(async () => stack.stop());

  /** A user who signed in (the dashboard provisions them before any checkout): custom_id attaches only to one. */
  const signedUpClerkId = async () => {
    const clerkUserId = newClerkId();
    await stack.createUser({ clerkUserId });
    return clerkUserId;
  };

  /** A subscriber with an ACTIVATED basic subscription and `sales` paid cycles, all processed. */
  async function subscriber(sales: number) {
    const clerkUserId = await signedUpClerkId();
    const subscriptionId = newSubscriptionId();
    const activated = paypalVariant('BILLING.SUBSCRIPTION.ACTIVATED', { subscriptionId, clerkUserId });
    await post(stack.api.url, PAYPAL, activated);
    await processedEvent(stack, 'paypal', activated.eventId);
    const saleIds: string[] = [];
    for (let i = 0; i < sales; i += 1) {
      const saleId = newSaleId();
      const sale = paypalVariant('PAYMENT.SALE.COMPLETED', {
        subscriptionId,
        clerkUserId,
        mutate: (b) => (b.resource.id = saleId),
      });
      await post(stack.api.url, PAYPAL, sale);
      await processedEvent(stack, 'paypal', sale.eventId);
      saleIds.push(saleId);
    }
    const user = (await stack.stores.users.findByAnyId(clerkUserId))!;
    return { user, clerkUserId, subscriptionId, saleIds };
  }

  const ledgerOf = async (userId: string) =>
    (
      await stack.pool.query(
        'SELECT kind, amount, metadata FROM credit_transactions WHERE user_id = $1 ORDER BY created_at',
        [userId],
      )
    ).rows;

  describe('one paid cycle, one cycle of credits', () => {
    test.each([
      ['ACTIVATED, then the first sale', 'activated-first'],
      ['the first sale, then ACTIVATED (the sale waits for its subscription)', 'sale-first'],
      ['both at once', 'together'],
    ])(
      'When PayPal delivers %s, then the subscriber gets one cycle of credits, ' +
        'and the second sale adds exactly one more',
      async (_name, order) => {
        // Arrange
        const clerkUserId = await signedUpClerkId();
        const subscriptionId = newSubscriptionId();
        const activated = paypalVariant('BILLING.SUBSCRIPTION.ACTIVATED', { subscriptionId, clerkUserId });
        const sale1 = paypalVariant('PAYMENT.SALE.COMPLETED', {
          subscriptionId,
          clerkUserId,
          mutate: (b) => (b.resource.id = newSaleId()),
        });
        const sale2 = paypalVariant('PAYMENT.SALE.COMPLETED', {
          subscriptionId,
          clerkUserId,
          mutate: (b) => (b.resource.id = newSaleId()),
        });

        // Act
        if (order === 'activated-first') {
          await post(stack.api.url, PAYPAL, activated);
          await processedEvent(stack, 'paypal', activated.eventId);
          await post(stack.api.url, PAYPAL, sale1);
        } else if (order === 'sale-first') {
          await post(stack.api.url, PAYPAL, sale1);
          await new Promise((r) => setTimeout(r, 500));
          await post(stack.api.url, PAYPAL, activated);
        } else {
          await Promise.all([post(stack.api.url, PAYPAL, activated), post(stack.api.url, PAYPAL, sale1)]);
        }
        await Promise.all([
          processedEvent(stack, 'paypal', activated.eventId),
          processedEvent(stack, 'paypal', sale1.eventId, 30_000),
        ]);
        const user = (await stack.stores.users.findByAnyId(clerkUserId))!;
        const afterFirstCycle = await balanceOf(stack, user.id);
        await post(stack.api.url, PAYPAL, sale2);
        await processedEvent(stack, 'paypal', sale2.eventId);

        // Assert
        expect(afterFirstCycle).toBe(BASIC_CREDITS);
        expect(await balanceOf(stack, user.id)).toBe(2 * BASIC_CREDITS);
        const grants = (await ledgerOf(user.id)).filter((t) => t.kind === 'grant');
        expect(grants.map((g) => g.amount)).toEqual([BASIC_CREDITS, BASIC_CREDITS]);
        const cycles = await stack.pool.query(
          'SELECT cycle, credits FROM credited_payments WHERE subscription_id = $1 ORDER BY cycle',
          [subscriptionId],
        );
        expect(cycles.rows).toEqual([
          { cycle: 1, credits: BASIC_CREDITS },
          { cycle: 2, credits: BASIC_CREDITS },
        ]);
      },
      60_000,
    );
  });

  describe('refunds and reversals take the credits back', () => {
    test('When the same refund arrives twenty times at once (ten redeliveries of one event, ' +
      'ten other events for the same refund), then its credits are taken back once: ' +
      'what is left from the balance, the spent rest as debt that blocks jobs until a payment repays it', async () => {
      // Arrange: two paid cycles (200 credits), 150 spent
      const { user, saleIds } = await subscriber(2);
      await stack.stores.credits.consume({
        userId: user.id,
        amount: 150,
        idempotencyKey: `spend:${randomUUID()}`,
        holdKey: null,
        reason: 'spent before the refund',
      });
      const refund = refundEvent({ saleId: saleIds[1]!, total: '9.99' });
      const others = Array.from({ length: 10 }, () =>
        refundEvent({ saleId: saleIds[1]!, refundId: refund.refundId, total: '9.99' }),
      );

      // Act
      const answers = await Promise.all([
        ...Array.from({ length: 10 }, () => post(stack.api.url, PAYPAL, refund)),
        ...others.map((o) => post(stack.api.url, PAYPAL, o)),
      ]);
      const results = await Promise.all([refund, ...others].map((d) => processedEvent(stack, 'paypal', d.eventId)));

      // Assert: one revocation of 100 credits: 50 from the balance, 50 as debt
      expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
      expect(results.filter((r) => r.outcome === 'revoked')).toHaveLength(1);
      expect(results.find((r) => r.outcome === 'revoked')).toMatchObject({ credits: -BASIC_CREDITS });
      const revokes = (await ledgerOf(user.id)).filter((t) => t.kind === 'revoke');
      expect(revokes).toEqual([
        expect.objectContaining({
          amount: BASIC_CREDITS,
          metadata: expect.objectContaining({ fromBalance: 50, debtAdded: 50, refundId: refund.refundId }),
        }),
      ]);
      expect(await stack.stores.credits.balance(user.id)).toEqual({ balance: 0, reserved: 0, available: 0, debt: 50 });
    }, 60_000);

    test('When an account owes credits after a refund, then a job is refused 402 CREDITS_IN_DEBT, ' +
      'and a later payment repays the debt first and lets jobs start again', async () => {
      // Arrange: one paid cycle (100), all spent, then refunded
      const { user, saleIds } = await subscriber(1);
      const apiKey = generateApiKey();
      await stack.stores.users.createApiKey(user.id, 'debt-test', apiKey);
      await stack.stores.credits.consume({
        userId: user.id,
        amount: BASIC_CREDITS,
        idempotencyKey: `spend:${randomUUID()}`,
        holdKey: null,
        reason: 'all spent',
      });
      const refund = refundEvent({ saleId: saleIds[0]!, total: '9.99' });
      await post(stack.api.url, PAYPAL, refund);
      await processedEvent(stack, 'paypal', refund.eventId);
      const job = { chain: 'ethereum', address: '0x8589427373d6d84e98730d7795d8f6f8731fda16' };

      // Act
      const refused = await stack.http('POST', '/api/v1/kyt/job', { key: apiKey, body: job });
      const repay = await stack.http('POST', '/api/v1/credits/grant', {
        key: admin.key,
        body: { userId: user.id, amount: 130, idempotencyKey: `repay-${randomUUID()}` },
      });
      const accepted = await stack.http('POST', '/api/v1/kyt/job', { key: apiKey, body: job });

      // Assert
      expect(refused.status).toBe(402);
      expect(refused.body).toMatchObject({
        success: false,
        code: 'CREDITS_IN_DEBT',
        debt: BASIC_CREDITS,
        available: 0,
      });
      expect(repay.body.data.balance).toBe(30);
      expect(accepted.status).toBe(202);
      const balance = await stack.http('GET', '/api/v1/credits/balance', { key: apiKey });
      expect(balance.body.data).toMatchObject({ debt: 0 });
      const grant = (await ledgerOf(user.id)).filter((t) => t.kind === 'grant').pop();
      expect(grant).toMatchObject({ amount: 130, metadata: expect.objectContaining({ debtRepaid: BASIC_CREDITS }) });
    }, 60_000);

    test('When a sale is refunded in two parts, then each part takes back its share and together they ' +
      'take back exactly the cycle', async () => {
      // Arrange
      const { user, saleIds } = await subscriber(2);
      const first = refundEvent({ saleId: saleIds[1]!, total: '5.00' });
      // PayPal has written refund totals with a minus sign
      const second = refundEvent({ saleId: saleIds[1]!, total: '-4.99' });

      // Act
      await post(stack.api.url, PAYPAL, first);
      const afterFirst = await processedEvent(stack, 'paypal', first.eventId);
      await post(stack.api.url, PAYPAL, second);
      const afterSecond = await processedEvent(stack, 'paypal', second.eventId);

      // Assert: floor(100 × 500 / 999) = 50, then the remaining 50
      expect(afterFirst).toMatchObject({ outcome: 'revoked', credits: -50 });
      expect(afterSecond).toMatchObject({ outcome: 'revoked', credits: -50 });
      expect(await balanceOf(stack, user.id)).toBe(BASIC_CREDITS);
      const payment = await stack.pool.query(
        `SELECT refunded_cents, credits_revoked FROM credited_payments WHERE provider = 'paypal' AND payment_id = $1`,
        [saleIds[1]],
      );
      expect(payment.rows[0]).toEqual({ refunded_cents: 999, credits_revoked: BASIC_CREDITS });
    }, 60_000);

    test("When the first cycle's sale is reversed (chargeback), then the cycle's credits that activation " +
      'granted are taken back, once', async () => {
      // Arrange
      const { user, saleIds, subscriptionId } = await subscriber(1);
      const reversal = reversalEvent(saleIds[0]!, subscriptionId);
      const again = reversalEvent(saleIds[0]!, subscriptionId);

      // Act
      await post(stack.api.url, PAYPAL, reversal);
      const result = await processedEvent(stack, 'paypal', reversal.eventId);
      await post(stack.api.url, PAYPAL, again);
      const repeated = await processedEvent(stack, 'paypal', again.eventId);

      // Assert
      expect(result).toMatchObject({ outcome: 'revoked', credits: -BASIC_CREDITS });
      expect(repeated).toMatchObject({ outcome: 'logged', credits: 0 });
      expect(await balanceOf(stack, user.id)).toBe(0);
    }, 60_000);

    test('When a refund overtakes the sale it refunds, then ' +
      'it waits for the sale and then takes its credits back', async () => {
      // Arrange
      const clerkUserId = await signedUpClerkId();
      const subscriptionId = newSubscriptionId();
      const activated = paypalVariant('BILLING.SUBSCRIPTION.ACTIVATED', { subscriptionId, clerkUserId });
      await post(stack.api.url, PAYPAL, activated);
      await processedEvent(stack, 'paypal', activated.eventId);
      const saleId = newSaleId();
      const sale1 = paypalVariant('PAYMENT.SALE.COMPLETED', {
        subscriptionId,
        clerkUserId,
        mutate: (b) => (b.resource.id = newSaleId()),
      });
      await post(stack.api.url, PAYPAL, sale1);
      await processedEvent(stack, 'paypal', sale1.eventId);
      const sale2 = paypalVariant('PAYMENT.SALE.COMPLETED', {
        subscriptionId,
        clerkUserId,
        mutate: (b) => (b.resource.id = saleId),
      });
      const refund = refundEvent({ saleId, total: '9.99' });

      // Act
      await post(stack.api.url, PAYPAL, refund);
      await new Promise((r) => setTimeout(r, 600));
      const before = await processedEvent(stack, 'paypal', refund.eventId, 0);
      await post(stack.api.url, PAYPAL, sale2);
      const after = await processedEvent(stack, 'paypal', refund.eventId, 30_000);

      // Assert
      expect(before).toBeNull();
      expect(after).toMatchObject({ outcome: 'revoked', credits: -BASIC_CREDITS });
      const user = (await stack.stores.users.findByAnyId(clerkUserId))!;
      expect(await balanceOf(stack, user.id)).toBe(BASIC_CREDITS);
    }, 60_000);
  });

  describe('PayFast refunds, recorded by an admin', () => {
    async function paidPayFast() {
      const buyer = await stack.createUser();
      const pkg = (await stack.stores.packages.findById('pro'))!;
      const price = pkg.prices.find((p) => p.provider === 'payfast')!;
      const mPaymentId = `chk-${randomUUID()}`;
      await stack.pool.query(
        'INSERT INTO payfast_checkouts (m_payment_id, user_id, package_id, amount_cents, currency) ' +
          'VALUES ($1, $2, $3, $4, $5)',
        [mPaymentId, buyer.id, 'pro', price.amountCents, price.currency],
      );
      const pfPaymentId = String(Date.now() % 1e9) + String(Math.floor(Math.random() * 1000));
      const amount = (price.amountCents / 100).toFixed(2);
      await post(stack.api.url, PAYFAST, {
        body: signedItn(completeItn({ mPaymentId, pfPaymentId, amount, customStr1: '' })),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      await processedEvent(stack, 'payfast', pfPaymentId);
      return { buyer, pfPaymentId, credits: pkg.credits };
    }

    test("When twenty admin requests record the same PayFast refund at once, then the payment's credits are taken " +
      'back once and nineteen answers say duplicate', async () => {
      // Arrange
      const { buyer, pfPaymentId, credits } = await paidPayFast();
      expect(await balanceOf(stack, buyer.id)).toBe(credits);
      const body = { pfPaymentId, refundId: `pfr-${randomUUID()}` };

      // Act
      const answers = await Promise.all(
        Array.from({ length: 20 }, () => stack.http('POST', REFUNDS, { key: admin.key, body })),
      );

      // Assert
      expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
      expect(answers.map((a) => a.body.data.creditsRevoked)).toEqual(Array(20).fill(credits));
      expect(answers.filter((a) => a.body.data.duplicate === false)).toHaveLength(1);
      expect(await balanceOf(stack, buyer.id)).toBe(0);
      expect((await ledgerOf(buyer.id)).filter((t) => t.kind === 'revoke')).toHaveLength(1);
    }, 60_000);

    test.each([
      ['a non-admin', 'user', { refundId: 'r-1' }, 403, 'INSUFFICIENT_PERMISSIONS'],
      ['an unknown payment', 'admin', { pfPaymentId: '999999999999', refundId: 'r-2' }, 404, 'NOT_FOUND'],
      ['an amount that is not money', 'admin', { refundId: 'r-3', amount: '12.345' }, 400, 'INVALID_PARAMETER'],
      ['no refundId', 'admin', {}, 400, 'INVALID_PARAMETER'],
    ])(
      'When %s records a refund, then it is refused (%s) and nothing is taken back',
      async (_name, role, extra, status, code) => {
        // Arrange
        const { buyer, pfPaymentId, credits } = await paidPayFast();
        const caller = role === 'admin' ? admin : await stack.createUser();

        // Act
        const res = await stack.http('POST', REFUNDS, { key: caller.key, body: { pfPaymentId, ...extra } });

        // Assert
        expect(res.status).toBe(status);
        expect(JSON.stringify(res.body)).toContain(code);
        expect(await balanceOf(stack, buyer.id)).toBe(credits);
      },
      60_000,
    );
  });
});
