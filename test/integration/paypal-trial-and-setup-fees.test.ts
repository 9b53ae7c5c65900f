import { randomUUID } from 'node:crypto';
import { balanceOf, processedEvent } from '../helpers/billing';
import { newClerkUserId } from '../helpers/paypal-plan-change-scenario';
import { startTestStack, type TestStack } from '../helpers/test-stack';
import { paypalVariant, post, testPayPalVerifier, WEBHOOK_ENV } from '../helpers/webhooks';

/**
 * Credits follow money on activation too (issue 28, item 4): a subscription with a paid trial or a setup fee reports
 * that payment, not the plan's price, as the ACTIVATED event's billing_info.last_payment. The advance is what that
 * amount buys (the credits the same amount buys as a sale, sale-credits.ts), never the plan's full grant; a $0 trial
 * advances nothing; and the sales that follow settle the advance, so granted = paid for.
 * Seeded plans (migration 006): basic $9.99 for 100 credits, pro $19.99 for 500. An amount that is no plan's price
 * buys at the best rate a plan sells credits (pro: 500 for $19.99), rounded down.
 */
const ROUTE = '/api/v1/billing/paypal/webhook';

describe('PayPal trials and setup fees', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack({ env: WEBHOOK_ENV, verifiers: { paypalVerifier: testPayPalVerifier() } });
  });
  afterAll(async () => stack.stop());

  /** A signed-up subscriber and a fresh subscription of the basic plan. */
  const subscriber = async () => {
    const clerkUserId = newClerkUserId();
    const user = await stack.createUser({ clerkUserId });
    return { user, clerkUserId, subscriptionId: `I-${randomUUID().slice(0, 12).toUpperCase()}` };
  };

  /** ACTIVATED reporting `lastPayment` (null: no last_payment at all, as a free trial reports). */
  const activated = async (s: Awaited<ReturnType<typeof subscriber>>, lastPayment: string | null) => {
    const delivery = paypalVariant('BILLING.SUBSCRIPTION.ACTIVATED', {
      ...s,
      mutate: (body) => {
        if (lastPayment === null) delete body.resource.billing_info.last_payment;
        else body.resource.billing_info.last_payment.amount.value = lastPayment;
      },
    });
    expect((await post(stack.api.url, ROUTE, delivery)).status).toBe(200);
    return processedEvent(stack, 'paypal', delivery.eventId);
  };

  const sale = async (s: Awaited<ReturnType<typeof subscriber>>, total: string) => {
    const saleId = `S${randomUUID().replace(/-/g, '').slice(0, 16).toUpperCase()}`;
    const delivery = paypalVariant('PAYMENT.SALE.COMPLETED', {
      ...s,
      mutate: (body) => {
        body.resource.id = saleId;
        body.resource.amount.total = total;
        body.resource.amount.details.subtotal = total;
      },
    });
    expect((await post(stack.api.url, ROUTE, delivery)).status).toBe(200);
    const event = await processedEvent(stack, 'paypal', delivery.eventId);
    const { rows } = await stack.pool.query(
      `SELECT credits FROM credited_payments WHERE provider = 'paypal' AND payment_id = $1`,
      [saleId],
    );
    return { event, paidFor: rows[0]?.credits as number | undefined };
  };

  test(
    'when ACTIVATED reports a paid trial of $1.00 on the basic plan, then it advances what $1.00 buys (25 ' +
      'credits), not the plan’s 100; the trial sale settles it and the first full cycle grants the plan’s 100',
    async () => {
      const s = await subscriber();

      const event = await activated(s, '1.00');
      expect(event).toMatchObject({ outcome: 'granted', credits: 25 });
      expect(await balanceOf(stack, s.user.id)).toBe(25);

      const trial = await sale(s, '1.00');
      expect(trial.paidFor).toBe(25);
      expect(trial.event).toMatchObject({ outcome: 'logged', credits: 0 });
      expect(await balanceOf(stack, s.user.id)).toBe(25);

      const cycle = await sale(s, '9.99');
      expect(cycle.event).toMatchObject({ outcome: 'granted', credits: 100 });
      expect(await balanceOf(stack, s.user.id)).toBe(125);
    },
  );

  test(
    'when ACTIVATED reports a setup fee of $5.00, then it advances what $5.00 buys (125 credits), and the fee’s ' +
      'sale grants nothing more',
    async () => {
      const s = await subscriber();

      expect(await activated(s, '5.00')).toMatchObject({ outcome: 'granted', credits: 125 });
      const fee = await sale(s, '5.00');
      expect([fee.paidFor, fee.event.credits]).toEqual([125, 0]);
      expect(await balanceOf(stack, s.user.id)).toBe(125);
    },
  );

  test.each([
    ['$0.00', '0.00'],
    ['no last_payment at all', null],
  ])('when ACTIVATED reports a free trial (%s), then it grants nothing', async (_name, lastPayment) => {
    const s = await subscriber();

    const event = await activated(s, lastPayment);
    expect(event).toMatchObject({ outcome: 'applied', credits: 0 });
    expect(await balanceOf(stack, s.user.id)).toBe(0);
    const { rows } = await stack.pool.query(`SELECT count(*)::int AS n FROM credit_transactions WHERE user_id = $1`, [
      s.user.id,
    ]);
    expect(rows[0].n).toBe(0);
  });

  test(
    'when ACTIVATED reports the plan’s own price ($9.99), ' +
      'then it still advances ' +
      'the plan’s 100 credits at once',
    async () => {
      const s = await subscriber();

      expect(await activated(s, '9.99')).toMatchObject({ outcome: 'granted', credits: 100 });
      expect(await balanceOf(stack, s.user.id)).toBe(100);
    },
  );
});
