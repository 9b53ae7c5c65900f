import {
  parsePayPalEvent,
  type PayPalEventError,
  type PayPalSubscriptionChange,
} from '../../src/billing/paypal/paypal-event';
import {
  activationAdvance,
  applySubscriptionChange,
  isPaymentFlagged,
  type SubscriptionState,
} from '../../src/billing/subscription-state';
import { toCents } from '../../src/billing/money';

const empty: SubscriptionState = {
  status: 'PENDING',
  planId: null,
  packageId: null,
  nextBillingTime: null,
  lastPaymentAt: null,
  lastFailedPaymentAt: null,
  lastFailureReason: null,
  cancelledAt: null,
  providerUpdatedAt: null,
  salesCredited: 0,
  advanceUnsettled: 0,
};
const change = (o: Partial<PayPalSubscriptionChange>): PayPalSubscriptionChange => ({
  subscriptionId: 'I-1',
  status: 'ACTIVE',
  planId: 'P-basic',
  customId: 'user_x',
  updatedAt: '2026-10-01T00:00:00Z',
  statusUpdatedAt: null,
  nextBillingTime: null,
  lastPaymentAt: null,
  lastPaymentAmount: null,
  lastFailedPaymentAt: null,
  lastFailureReason: null,
  ...o,
});

describe('subscription state under any delivery order', () => {
  const activated = change({
    planId: 'P-basic',
    updatedAt: '2026-10-01T00:00:00Z',
    lastPaymentAt: '2026-10-01T00:00:00Z',
  });
  const upgraded = change({ planId: 'P-pro', updatedAt: '2026-10-15T00:00:00Z' });
  const failed = change({
    planId: 'P-pro',
    updatedAt: '2026-11-01T00:00:00Z',
    lastFailedPaymentAt: '2026-11-01T00:00:00Z',
    lastFailureReason: 'PAYMENT_DENIED',
  });
  const cancelled = change({
    status: 'CANCELLED',
    planId: 'P-pro',
    updatedAt: '2026-11-20T00:00:00Z',
    lastPaymentAt: '2026-11-06T00:00:00Z',
  });
  const steps = [
    ['BILLING.SUBSCRIPTION.ACTIVATED', activated, 'basic', 100],
    ['BILLING.SUBSCRIPTION.UPDATED', upgraded, 'pro', 500],
    ['BILLING.SUBSCRIPTION.PAYMENT.FAILED', failed, 'pro', 500],
    ['BILLING.SUBSCRIPTION.CANCELLED', cancelled, 'pro', 500],
  ] as const;

  const run = (order: number[]) => {
    let state = empty;
    let granted = 0;
    for (const i of order) {
      const [type, c, pkg, credits] = steps[i]!;
      const advance = activationAdvance(state, type, c, credits);
      state = { ...applySubscriptionChange(state, c, type, pkg), advanceUnsettled: state.advanceUnsettled + advance };
      granted += advance;
    }
    return { state, granted };
  };

  test.each([[[0, 1, 2, 3]], [[1, 0, 2, 3]], [[3, 2, 1, 0]], [[2, 0, 3, 1]], [[0, 3, 1, 2]]])(
    'when the events arrive in order %j, then the end state and the credits granted are the same',
    (order) => {
      const { state, granted } = run(order);
      expect(state).toMatchObject({
        status: 'CANCELLED',
        planId: 'P-pro',
        packageId: 'pro',
        providerUpdatedAt: '2026-11-20T00:00:00Z',
        cancelledAt: '2026-11-20T00:00:00Z',
        lastPaymentAt: '2026-11-06T00:00:00Z',
        lastFailedPaymentAt: '2026-11-01T00:00:00Z',
      });
      expect(isPaymentFlagged(state)).toBe(false);
      // Only ACTIVATED's advance on the basic payment it reports: the upgrade is paid for by a sale, not by UPDATED.
      expect(granted).toBe(100);
    },
  );

  test(
    'when a payment failed after the last payment, then the subscription is flagged; a later payment clears it; ' +
      'SUSPENDED is always flagged',
    () => {
      expect(isPaymentFlagged(run([0, 1, 2]).state)).toBe(true);
      expect(
        isPaymentFlagged({
          status: 'ACTIVE',
          lastPaymentAt: '2026-11-06T00:00:00Z',
          lastFailedPaymentAt: '2026-11-01T00:00:00Z',
        }),
      ).toBe(false);
      expect(isPaymentFlagged({ status: 'SUSPENDED', lastPaymentAt: null, lastFailedPaymentAt: null })).toBe(true);
    },
  );

  test(
    'when a plan is upgraded or downgraded, the resource is not ACTIVE, the plan is unmapped or an advance ' +
      'is already out, then nothing is advanced',
    () => {
      const paid = { lastPaymentAt: '2026-10-01T00:00:00Z' };
      expect(activationAdvance(empty, 'BILLING.SUBSCRIPTION.UPDATED', change(paid), 500)).toBe(0);
      expect(
        activationAdvance(empty, 'BILLING.SUBSCRIPTION.ACTIVATED', change({ ...paid, status: 'SUSPENDED' }), 500),
      ).toBe(0);
      expect(activationAdvance(empty, 'BILLING.SUBSCRIPTION.PAYMENT.FAILED', change(paid), 500)).toBe(0);
      expect(activationAdvance(empty, 'BILLING.SUBSCRIPTION.ACTIVATED', change(paid), null)).toBe(0);
      expect(
        activationAdvance({ ...empty, advanceUnsettled: 100 }, 'BILLING.SUBSCRIPTION.ACTIVATED', change(paid), 100),
      ).toBe(0);
    },
  );
});

describe('PayPal event parsing', () => {
  test('when a subscription event has no custom_id, then it is refused with MISSING_CUSTOM_ID', () => {
    expect(() =>
      parsePayPalEvent({
        id: 'WH-1',
        event_type: 'BILLING.SUBSCRIPTION.ACTIVATED',
        resource: { id: 'I-1', status: 'ACTIVE' },
      }),
    ).toThrow(expect.objectContaining({ code: 'MISSING_CUSTOM_ID' }) as unknown as PayPalEventError);
  });

  test(
    'when a time is malformed (the simulator sends 2018-19-12), ' + 'then it is dropped rather than refusing the event',
    () => {
      const e = parsePayPalEvent({
        id: 'WH-1',
        event_type: 'BILLING.SUBSCRIPTION.UPDATED',
        create_time: '2018-19-12T22:20:32.000Z',
        resource: { id: 'I-1', status: 'active', custom_id: 'user_x', update_time: 'never' },
      });
      expect(e).toMatchObject({
        kind: 'subscription',
        createTime: null,
        change: { status: 'ACTIVE', updatedAt: null },
      });
    },
  );

  test('when the event type is not acted on, then it parses as unhandled', () => {
    expect(parsePayPalEvent({ id: 'WH-2', event_type: 'CUSTOMER.DISPUTE.UPDATED' })).toEqual({
      kind: 'unhandled',
      eventId: 'WH-2',
      eventType: 'CUSTOMER.DISPUTE.UPDATED',
    });
  });

  test(
    'when a dispute event arrives, then it names the disputed sale, the amount and, once resolved, the outcome; ' +
      'a dispute without a dispute_id is refused',
    () => {
      const resolved = parsePayPalEvent({
        id: 'WH-3',
        event_type: 'CUSTOMER.DISPUTE.RESOLVED',
        resource: {
          dispute_id: 'PP-D-1',
          update_time: '2026-12-01T00:00:00.000Z',
          disputed_transactions: [{ buyer_transaction_id: 'B1', seller_transaction_id: '7WT2824826029771W' }],
          dispute_amount: { currency_code: 'usd', value: '9.99' },
          dispute_outcome: { outcome_code: 'RESOLVED_SELLER_FAVOUR' },
        },
      });
      expect(resolved).toMatchObject({
        kind: 'dispute',
        dispute: {
          disputeId: 'PP-D-1',
          saleId: '7WT2824826029771W',
          amountCents: 999,
          currency: 'USD',
          resolved: true,
          outcomeCode: 'RESOLVED_SELLER_FAVOUR',
          updatedAt: '2026-12-01T00:00:00.000Z',
        },
      });
      expect(() =>
        parsePayPalEvent({ id: 'WH-4', event_type: 'CUSTOMER.DISPUTE.CREATED', resource: { note: 'x' } }),
      ).toThrow(expect.objectContaining({ code: 'INVALID_EVENT' }) as unknown as PayPalEventError);
    },
  );
});

describe('money', () => {
  test.each([
    ['199.00', 19900],
    ['9.99', 999],
    ['1499', 149900],
    ['0.5', 50],
    [' 12.30 ', 1230],
    ['1e3', null],
    ['-1.00', null],
    ['1.999', null],
    ['', null],
  ])('when "%s" is read, then it is %p cents', (input, cents) => expect(toCents(input)).toBe(cents));
});
