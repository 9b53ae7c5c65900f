import {
  parsePayPalEvent,
  type PayPalEventError,
  type PayPalSubscriptionChange,
} from '../../src/billing/paypal/paypal-event';
import {
  applySubscriptionChange,
  isPaymentFlagged,
  planTopUp,
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
  planCreditsGranted: 0,
  providerUpdatedAt: null,
  salesCredited: 0,
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
      const topUp = planTopUp(type, c, credits, state.planCreditsGranted);
      state = { ...applySubscriptionChange(state, c, type, pkg), planCreditsGranted: state.planCreditsGranted + topUp };
      granted += topUp;
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
      expect(granted).toBe(500);
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

  test('when a plan is downgraded, or the resource is not ACTIVE, then nothing is topped up', () => {
    expect(planTopUp('BILLING.SUBSCRIPTION.UPDATED', change({}), 100, 500)).toBe(0);
    expect(planTopUp('BILLING.SUBSCRIPTION.UPDATED', change({ status: 'SUSPENDED' }), 500, 0)).toBe(0);
    expect(planTopUp('BILLING.SUBSCRIPTION.PAYMENT.FAILED', change({}), 500, 0)).toBe(0);
    expect(planTopUp('BILLING.SUBSCRIPTION.ACTIVATED', change({}), null, 0)).toBe(0);
  });
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
    expect(parsePayPalEvent({ id: 'WH-2', event_type: 'CUSTOMER.DISPUTE.CREATED' })).toEqual({
      kind: 'unhandled',
      eventId: 'WH-2',
      eventType: 'CUSTOMER.DISPUTE.CREATED',
    });
  });
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
