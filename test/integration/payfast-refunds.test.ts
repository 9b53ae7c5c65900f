/**
 * PayFast refunds take credits back only as the api recorded them: a refund workflow started by anyone else on the
 * Temporal frontend changes nothing, a refund id names one refund (another payment or amount is 409, whatever the
 * order and concurrency of the requests), and the route's wait for the refund is bounded (202 pending).
 */
import { randomUUID } from 'node:crypto';
import { payfastRefundWorkflowId } from '../../src/billing/workflow-ids';
import type { PayFastRefundInput } from '../../src/billing/workflow-types';
import { balanceOf, completeItn, processedEvent, signedItn } from '../helpers/billing';
import { startTestStack, type TestStack } from '../helpers/test-stack';
import { post, WEBHOOK_ENV } from '../helpers/webhooks';

const PAYFAST = '/api/v1/billing/payfast/webhook';
const REFUNDS = '/api/v1/billing/payfast/refunds';
const newPfPaymentId = () => `${Date.now() % 1e9}${Math.floor(Math.random() * 1e6)}`;

/** What the refund left in the database: payment_refunds rows, credits taken back, the inbox row. */
async function refundTraces(stack: TestStack, refundId: string) {
  const [refunds, inbox] = await Promise.all([
    stack.pool.query(`SELECT credits_revoked FROM payment_refunds WHERE provider = 'payfast' AND refund_id = $1`, [
      refundId,
    ]),
    stack.pool.query(`SELECT outcome FROM webhook_events WHERE provider = 'payfast' AND event_id = $1`, [
      `refund:${refundId}`,
    ]),
  ]);
  return { refunds: refunds.rows, inbox: inbox.rows };
}

describe('PayFast refunds with a worker', () => {
  let stack: TestStack;
  let admin: { id: string; key: string };
  beforeAll(async () => {
    stack = await startTestStack({ env: WEBHOOK_ENV });
    admin = await stack.createUser({ role: 'admin' });
  });
  afterAll(async () => stack.stop());

  /** A buyer whose PayFast payment for the pro package was credited through the ITN route. */
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
    const pfPaymentId = newPfPaymentId();
    const amount = (price.amountCents / 100).toFixed(2);
    await post(stack.api.url, PAYFAST, {
      body: signedItn(completeItn({ mPaymentId, pfPaymentId, amount, customStr1: buyer.id })),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect((await processedEvent(stack, 'payfast', pfPaymentId)).outcome).toBe('granted');
    expect(await balanceOf(stack, buyer.id)).toBe(pkg.credits);
    return { buyer, pfPaymentId, credits: pkg.credits, priceCents: price.amountCents };
  }

  /** Starts payfastRefundWorkflow directly on the Temporal frontend, as anyone who can reach it could. */
  const startDirectly = (workflowId: string, input: PayFastRefundInput) =>
    stack.temporal.workflow.start('payfastRefundWorkflow', {
      workflowId,
      taskQueue: stack.config.TEMPORAL_TASK_QUEUE,
      args: [input],
    });

  test('When someone starts the refund workflow on Temporal for a refund the api did not record, or for another ' +
    'amount than recorded, then it fails and takes nothing back; the admin can still record that id', async () => {
    // Arrange
    const { buyer, pfPaymentId, credits, priceCents } = await paidPayFast();
    const unrecorded = `pfr-${randomUUID()}`;
    const halfCents = Math.floor(priceCents / 2);

    // Act 1: a refund nobody recorded, under its own workflow id
    const forged = await startDirectly(payfastRefundWorkflowId(unrecorded), {
      pfPaymentId,
      refundId: unrecorded,
      amountCents: null,
      reason: 'forged',
      recordedBy: admin.id,
    });
    const forgedOutcome = await forged.result().then(
      () => 'completed',
      (err: any) => String(err.cause?.cause?.message ?? err.message),
    );
    const afterForged = await balanceOf(stack, buyer.id);
    const tracesAfterForged = await refundTraces(stack, unrecorded);

    // Act 2: the admin records that very refund id for half the payment; it applies
    const recorded = await stack.http('POST', REFUNDS, {
      key: admin.key,
      body: { pfPaymentId, refundId: unrecorded, amount: (halfCents / 100).toFixed(2) },
    });

    // Act 3: the api's record names half the payment; a run under another workflow id claims all of it
    const widened = await startDirectly(`evil-${randomUUID()}`, {
      pfPaymentId,
      refundId: unrecorded,
      amountCents: null,
      reason: 'widened',
      recordedBy: admin.id,
    });
    const widenedOutcome = await widened.result().then(
      () => 'completed',
      (err: any) => String(err.cause?.cause?.message ?? err.message),
    );

    // Assert
    expect(forgedOutcome).toMatch(/was not recorded through the api/);
    expect(afterForged).toBe(credits);
    expect(tracesAfterForged).toEqual({ refunds: [], inbox: [] });
    expect(recorded.status).toBe(200);
    expect(recorded.body.data).toMatchObject({ outcome: 'revoked', duplicate: false });
    const revoked: number = recorded.body.data.creditsRevoked;
    expect(revoked).toBeGreaterThan(0);
    expect(revoked).toBeLessThan(credits);
    expect(widenedOutcome).toMatch(/was recorded for payment .* and amount/);
    expect(await balanceOf(stack, buyer.id)).toBe(credits - revoked);
    expect((await refundTraces(stack, unrecorded)).refunds).toEqual([{ credits_revoked: revoked }]);
  }, 60_000);

  test('When twenty admin requests at once use one refund id for two different payments, then the requests for the ' +
    'payment recorded first get 200 and the others 409, and only that payment loses its credits, once', async () => {
    // Arrange
    const [a, b] = await Promise.all([paidPayFast(), paidPayFast()]);
    const refundId = `pfr-${randomUUID()}`;
    const order = Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? a : b));

    // Act
    const answers = await Promise.all(
      order.map((p) => stack.http('POST', REFUNDS, { key: admin.key, body: { pfPaymentId: p.pfPaymentId, refundId } })),
    );
    const again = await stack.http('POST', REFUNDS, {
      key: admin.key,
      body: { pfPaymentId: b.pfPaymentId, refundId, amount: '1.00' },
    });

    // Assert
    const winner = answers.find((r) => r.status === 200)!.body.data.pfPaymentId as string;
    const [refunded, untouched] = winner === a.pfPaymentId ? [a, b] : [b, a];
    order.forEach((p, i) => {
      const answer = answers[i]!;
      if (p === refunded) {
        expect(answer.status).toBe(200);
        expect(answer.body.data).toMatchObject({ outcome: 'revoked', creditsRevoked: refunded.credits });
      } else {
        expect(answer.status).toBe(409);
        expect(answer.body).toMatchObject({ success: false, code: 'REFUND_ID_CONFLICT' });
      }
    });
    expect(answers.filter((r) => r.status === 200 && r.body.data.duplicate === false)).toHaveLength(1);
    expect(again.status).toBe(409);
    expect(await balanceOf(stack, refunded.buyer.id)).toBe(0);
    expect(await balanceOf(stack, untouched.buyer.id)).toBe(untouched.credits);
    expect((await refundTraces(stack, refundId)).refunds).toEqual([{ credits_revoked: refunded.credits }]);
  }, 60_000);
});

describe('PayFast refunds while no worker runs', () => {
  let stack: TestStack;
  let admin: { id: string; key: string };
  beforeAll(async () => {
    stack = await startTestStack({ env: { ...WEBHOOK_ENV, PAYFAST_REFUND_WAIT_MS: '500' }, worker: false });
    admin = await stack.createUser({ role: 'admin' });
  });
  afterAll(async () => stack.stop());

  test('When a refund cannot be applied within PAYFAST_REFUND_WAIT_MS, then the admin gets 202 pending at once; ' +
    'once a worker runs, the same request answers the outcome and the credits were taken back once', async () => {
    // Arrange: a credited payment of 100 credits, as the ITN's workflow would have written it
    const buyer = await stack.createUser();
    const pfPaymentId = newPfPaymentId();
    await stack.pool.query(
      `INSERT INTO credited_payments (provider, payment_id, user_id, package_id, amount_cents, currency, credits)
         VALUES ('payfast', $1, $2, NULL, 10000, 'ZAR', 100)`,
      [pfPaymentId, buyer.id],
    );
    const body = { pfPaymentId, refundId: `pfr-${randomUUID()}` };

    // Act
    const started = Date.now();
    const pending = await Promise.all(
      Array.from({ length: 5 }, () => stack.http('POST', REFUNDS, { key: admin.key, body })),
    );
    const waited = Date.now() - started;
    await stack.startWorker();
    let done: Awaited<ReturnType<TestStack['http']>>;
    do done = await stack.http('POST', REFUNDS, { key: admin.key, body });
    while (done.status === 202);

    // Assert
    expect(pending.map((r) => r.status)).toEqual([202, 202, 202, 202, 202]);
    expect(pending.map((r) => r.body.data.state)).toEqual(Array(5).fill('pending'));
    expect(pending.filter((r) => r.body.data.duplicate === false)).toHaveLength(1);
    expect(waited).toBeLessThan(5_000);
    expect(done.status).toBe(200);
    expect(done.body.data).toMatchObject({ outcome: 'revoked', creditsRevoked: 100, duplicate: true });
    const payment = await stack.pool.query(
      `SELECT credits_revoked FROM credited_payments WHERE provider = 'payfast' AND payment_id = $1`,
      [pfPaymentId],
    );
    expect(payment.rows).toEqual([{ credits_revoked: 100 }]);
  }, 60_000);
});
