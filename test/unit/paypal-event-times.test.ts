import { parsePayPalEvent } from '../../src/billing/paypal/paypal-event';

/** A time Postgres cannot store must not reach a timestamp column (the event's activity would fail every retry). */
function subscriptionEvent(time: string) {
  return {
    id: 'WH-TIMES-1',
    event_type: 'BILLING.SUBSCRIPTION.UPDATED',
    create_time: time,
    resource: {
      id: 'I-TIMES',
      status: 'ACTIVE',
      custom_id: 'user-1',
      update_time: time,
      billing_info: { next_billing_time: time, last_payment: { time } },
    },
  };
}

describe('PayPal event times', () => {
  it.each(['+275760-09-13T00:00:00Z', '0000-01-01T00:00:00Z', '10000-01-01T00:00:00Z', 'Jan 1 2024', '1'])(
    'drops %s instead of passing it on',
    (time) => {
      const event = parsePayPalEvent(subscriptionEvent(time));
      if (event.kind !== 'subscription') throw new Error('expected a subscription event');
      expect(event.createTime).toBeNull();
      expect(event.change.updatedAt).toBeNull();
      expect(event.change.nextBillingTime).toBeNull();
      expect(event.change.lastPaymentAt).toBeNull();
    },
  );

  it('keeps an ordinary RFC 3339 time', () => {
    const event = parsePayPalEvent(subscriptionEvent('2026-11-23T10:00:00Z'));
    if (event.kind !== 'subscription') throw new Error('expected a subscription event');
    expect(event.change.updatedAt).toBe('2026-11-23T10:00:00Z');
  });
});
