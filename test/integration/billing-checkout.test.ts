import { signCheckoutFields } from '../../src/billing/payfast/checkout-signature';
import { balanceOf, completeItn, processedEvent, signedItn } from '../helpers/billing';
import { startTestStack, type TestStack } from '../helpers/test-stack';
import { PAYFAST_PASSPHRASE, post, WEBHOOK_ENV } from '../helpers/webhooks';

describe('Credit packages and PayFast checkout', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack({
      env: { ...WEBHOOK_ENV, PAYFAST_NOTIFY_URL: 'https://screening.example/api/v1/billing/payfast/webhook' },
    });
  });
  afterAll(async () => stack.stop());

  test('when anyone lists the credit packages, then the seeded packages come with their provider prices', async () => {
    const res = await stack.http('GET', '/api/v1/credits/packages');
    expect(res.status).toBe(200);
    expect(res.body.data.map((p: any) => p.id)).toEqual(['basic', 'pro', 'pro-annual', 'top-up-250']);
    expect(res.body.data[1]).toEqual({
      id: 'pro',
      name: 'Pro',
      credits: 500,
      billing: 'monthly',
      prices: [
        { provider: 'paypal', currency: 'USD', amount: '19.99', paypalPlanId: 'P-3RX065706M3469222L5IFM4I' },
        { provider: 'payfast', currency: 'ZAR', amount: '199.00' },
      ],
    });
    expect(res.body.meta).toEqual({ total: 4, page: 1, limit: 4 });
  });

  test(
    'when a signed-in user starts a checkout and PayFast reports it paid, ' +
      'then the signed form is valid and the package is granted',
    async () => {
      // Arrange
      const user = await stack.createUser({ clerkUserId: 'user_checkoutBuyer000000000001' });

      // Act
      const res = await stack.http('POST', '/api/v1/billing/payfast/checkout', {
        key: user.key,
        body: { packageId: 'pro' },
      });
      const { fields, mPaymentId } = res.body.data;
      const { signature, ...unsigned } = fields;
      await post(stack.api.url, '/api/v1/billing/payfast/webhook', {
        body: signedItn(
          completeItn({ mPaymentId, pfPaymentId: '9100001', amount: fields.amount, customStr1: fields.custom_str1 }),
        ),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      const event = await processedEvent(stack, 'payfast', '9100001');

      // Assert
      expect(res.status).toBe(201);
      expect(res.body.data).toMatchObject({
        action: 'https://sandbox.payfast.co.za/eng/process',
        method: 'POST',
        package: { id: 'pro', credits: 500 },
      });
      expect(fields).toMatchObject({
        merchant_id: '10000100',
        merchant_key: '46f0cd694581a',
        m_payment_id: mPaymentId,
        amount: '199.00',
        custom_str1: 'user_checkoutBuyer000000000001',
        subscription_type: '1',
        frequency: '3',
        cycles: '0',
        notify_url: 'https://screening.example/api/v1/billing/payfast/webhook',
      });
      expect(signature).toBe(signCheckoutFields(unsigned, PAYFAST_PASSPHRASE).signature);
      expect(event.outcome).toBe('granted');
      expect(await balanceOf(stack, user.id)).toBe(500);
    },
  );

  test('when the package is unknown or missing, then the checkout is refused with 404 or 400', async () => {
    const user = await stack.createUser();
    const unknown = await stack.http('POST', '/api/v1/billing/payfast/checkout', {
      key: user.key,
      body: { packageId: 'gold' },
    });
    const missing = await stack.http('POST', '/api/v1/billing/payfast/checkout', { key: user.key, body: {} });
    const anonymous = await stack.http('POST', '/api/v1/billing/payfast/checkout', { body: { packageId: 'pro' } });
    expect([unknown.status, unknown.body.code]).toEqual([404, 'NOT_FOUND']);
    expect([missing.status, missing.body.error.code, missing.body.error.details.parameter]).toEqual([
      400,
      'INVALID_PARAMETER',
      'packageId',
    ]);
    expect(anonymous.status).toBe(401);
  });
});
