/**
 * Billing's examples for the document, copied from real answers of a running stack (`npm start`; Nov 2026). The
 * packages and their prices are rows of src/billing/migrations/006_billing.sql, not constants: GET
 * /api/v1/credits/packages serves them, and test/unit/docs-prices.test.ts holds the docs to them.
 */

const USER_ID = '2ef2c482-4e24-4bff-b7be-8a7f73e35899';

const basicPackage = {
  id: 'basic',
  name: 'Basic',
  credits: 100,
  billing: 'monthly',
  prices: [
    { provider: 'paypal', currency: 'USD', amount: '9.99', paypalPlanId: 'P-5ML4271244454362WXNWU5NQ' },
    { provider: 'payfast', currency: 'ZAR', amount: '99.00' },
  ],
};

export const BILLING_EXAMPLES = {
  grantRequest: { userId: USER_ID, amount: 10, idempotencyKey: 'ex-1', reason: 'example' },
  grant: {
    success: true,
    data: { userId: USER_ID, balance: 10, transactionId: 'a18ceff9-5cc9-4174-b5fd-2fa66827712d', duplicate: false },
  },
  balance: { success: true, data: { balance: 10, reserved: 0, available: 10, debt: 0 } },
  packages: {
    success: true,
    data: [
      basicPackage,
      {
        id: 'top-up-250',
        name: 'Top-up 250',
        credits: 250,
        billing: 'one_time',
        prices: [{ provider: 'payfast', currency: 'ZAR', amount: '249.00' }],
      },
    ],
    meta: { total: 2, page: 1, limit: 2 },
    timestamp: '2026-11-23T09:07:53.040Z',
  },
  checkout: {
    success: true,
    data: {
      mPaymentId: '9209d3b2-3c56-4042-b68d-a530829589fe',
      package: basicPackage,
      action: 'https://sandbox.payfast.co.za/eng/process',
      method: 'POST',
      fields: {
        merchant_id: '10000100',
        merchant_key: '46f0cd694581a',
        m_payment_id: '9209d3b2-3c56-4042-b68d-a530829589fe',
        amount: '99.00',
        item_name: 'Basic (100 credits)',
        custom_str1: USER_ID,
        subscription_type: '1',
        frequency: '3',
        cycles: '0',
        signature: 'f7e0ec6e8834f5c5f48a536f092acabc',
      },
    },
  },
  subscriptions: { success: true, data: [] },
  webhookAccepted: { success: true, received: true, duplicate: false },
} as const;

export const BILLING_ERROR_EXAMPLES = {
  idempotencyKeyReused: {
    success: false,
    error: 'idempotencyKey was already used for a different grant',
    code: 'IDEMPOTENCY_KEY_REUSED',
  },
  billingNotConfigured: {
    success: false,
    error:
      'PayFast checkout is not configured on this deployment (PAYFAST_MERCHANT_ID, PAYFAST_MERCHANT_KEY, ' +
      'PAYFAST_MERCHANT_PASSPHRASE)',
    code: 'BILLING_NOT_CONFIGURED',
  },
  invalidItn: {
    success: false,
    error: 'Malformed ITN: malformed percent-encoding in the value of field "a"',
    code: 'INVALID_ITN',
  },
} as const;
