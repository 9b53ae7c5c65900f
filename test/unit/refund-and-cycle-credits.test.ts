import { planRefund } from '../../src/billing/refund-credits';
import { creditForSale } from '../../src/billing/subscription-state';

describe('credits of a paid cycle', () => {
  test(
    'When the first sale follows an activation that granted the plan, ' +
      'then it grants nothing and marks cycle 1 paid',
    () => {
      expect(creditForSale({ salesCredited: 0, planCreditsGranted: 100 }, 100)).toEqual({
        cycle: 1,
        grant: 0,
        planCreditsGranted: 100,
      });
    },
  );

  test(
    'When the first sale comes before any activation grant, then it grants the cycle and a later activation ' +
      'has nothing left to grant',
    () => {
      expect(creditForSale({ salesCredited: 0, planCreditsGranted: 0 }, 100)).toEqual({
        cycle: 1,
        grant: 100,
        planCreditsGranted: 100,
      });
    },
  );

  test('When the first sale pays a larger plan than activation granted, then it grants only the difference', () => {
    expect(creditForSale({ salesCredited: 0, planCreditsGranted: 100 }, 500)).toEqual({
      cycle: 1,
      grant: 400,
      planCreditsGranted: 500,
    });
  });

  test('When a later sale arrives, then it is the next cycle and grants the package in full', () => {
    expect(creditForSale({ salesCredited: 3, planCreditsGranted: 100 }, 100)).toEqual({
      cycle: 4,
      grant: 100,
      planCreditsGranted: 100,
    });
  });
});

describe('credits a refund takes back', () => {
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
