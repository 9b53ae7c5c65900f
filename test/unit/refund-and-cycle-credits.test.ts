import { refundedAfter, takebackChange } from '../../src/billing/refund-credits';

type Payment = { amountCents: number; credits: number; refundedCents: number; creditsRevoked: number };

/** One refund's effect, the way apply-refund.ts computes it (no disputes). */
function planRefund(payment: Payment, cents: number) {
  const refundedCents = refundedAfter(payment, cents);
  const { creditsRevoked, delta } = takebackChange(payment, { refundedCents, disputedCents: 0 });
  return { refundedCents, revoke: delta, creditsRevoked };
}

describe('credits a refund takes back', () => {
  test(
    'When a dispute holds part of the payment and is then won, ' +
      'then what stands taken back is what the refunds alone would take',
    () => {
      const paid = { amountCents: 999, credits: 100, creditsRevoked: 0 };
      const open = takebackChange(paid, { refundedCents: 333, disputedCents: 666 });
      expect(open).toEqual({ creditsRevoked: 100, delta: 100 });
      const won = takebackChange({ ...paid, creditsRevoked: 100 }, { refundedCents: 333, disputedCents: 0 });
      expect(won).toEqual({ creditsRevoked: 33, delta: -67 });
    },
  );

  const payment = { amountCents: 999, credits: 100, refundedCents: 0, creditsRevoked: 0 };

  test('When the whole payment is refunded, then all its credits are taken back', () => {
    expect(planRefund(payment, 999)).toEqual({ refundedCents: 999, revoke: 100, creditsRevoked: 100 });
  });

  test(
    "When it is refunded in parts, then the parts add up to exactly the payment's credits (rounding down, " +
      "in the customer's favour, until the last part)",
    () => {
      const parts = [333, 333, 333];
      let state = payment;
      const revoked: number[] = [];
      for (const cents of parts) {
        const plan = planRefund(state, cents);
        revoked.push(plan.revoke);
        state = { ...state, refundedCents: plan.refundedCents, creditsRevoked: plan.creditsRevoked };
      }
      expect(revoked).toEqual([33, 33, 34]);
      expect(state.creditsRevoked).toBe(100);
    },
  );

  test(
    'When more money is reported refunded than was paid, ' + "then no more than the payment's credits are taken back",
    () => {
      expect(planRefund({ ...payment, refundedCents: 900, creditsRevoked: 90 }, 5000)).toEqual({
        refundedCents: 999,
        revoke: 10,
        creditsRevoked: 100,
      });
    },
  );

  test('When a zero or negative amount is reported, then nothing is taken back', () => {
    expect(planRefund(payment, 0).revoke).toBe(0);
    expect(planRefund(payment, -500).revoke).toBe(0);
  });
});
