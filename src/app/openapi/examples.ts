/**
 * Examples for the document, copied from real answers of a running stack (`npm start`, reference lists
 * only, no chain node; Nov 2026). Shortened only where a list was long (marked in the summary).
 */

import { evidenceProtectedHeader } from '../../platform/signing/evidence-signature';
import { shippedRiskModel } from '../../screening/engine/risk-model';

const REQUEST_ID = '333a14db-7654-4988-bfc7-048e493cd932';
const SANCTIONED = '0x4f47bc496083c727c5fbe3ce9cdf2b0f6496270c';

const screeningResponse = {
  chain: 'ethereum',
  api_type: 'KYA',
  risk_level: 'HIGH',
  risk_score: 100,
  response_id: '62079595-c984-4a9d-a27b-54e7d60dbc0f',
  risk_reason:
    'Address is on the OFAC SDN list: Sim, Hyon Sop (programs NPWMD), designated 2023-04-24; no ethereum node is ' +
    'configured: screened against the reference lists only, on-chain exposure not checked',
  rule_scores: {
    tag_score: 72,
    address_type: 0,
    is_sanctioned: 100,
    receive_count: 0,
    is_blacklisted: 90,
    active_duration: 0,
  },
  target_summary: {
    tags: [
      { name: 'Sim, Hyon Sop', type: 'sanctions', display: 'OFAC SDN: Sim, Hyon Sop' },
      { name: 'USDT freeze', type: 'stablecoin_blocked', display: 'USDT frozen (ethereum)' },
      { name: 'sanctions_related', type: 'sanctions_related', display: 'sanctions related (etherscan-labels)' },
    ],
    address: SANCTIONED,
    balances: [],
  },
};

const apiKey = {
  id: '3d6939ad-9930-4117-9564-ee929c5460a7',
  name: 'ci',
  prefix: 'cs_live_QRBucj',
  createdAt: '2026-11-23T09:08:01.949Z',
  lastUsedAt: null,
  revokedAt: null,
  rateLimit: { tier: 'free', requestsPerMinute: null },
  scopes: ['read', 'screening'],
  createdBy: '2ef2c482-4e24-4bff-b7be-8a7f73e35899',
};

const activityItem = {
  id: '0f443383-0503-444d-b819-ea18fe6ff2ca',
  requestId: '40ea9a68-20e1-4ff7-8aa9-4a37bced3ca8',
  activityType: 'kya',
  statusCode: 200,
  isError: false,
  blockchain: 'tron',
  transactionHash: null,
  address: 'TA3941uFAvmVibSkQ6fMJXxmaSNovX86mz',
  entityId: null,
  entityName: null,
  riskLevel: 'high',
  riskScore: 100,
  responseSummary: {
    risk_level: 'HIGH',
    risk_score: 100,
    risk_reason:
      'Address is on the OFAC SDN list: CHEIL CREDIT BANK (programs DPRK4), designated 2017-09-26; no tron node is ' +
      'configured: screened against the reference lists only, on-chain exposure not checked',
  },
  source: 'screening',
  createdAt: '2026-11-23T09:07:56.343Z',
};

/**
 * Real signatures over the two example answers' `data` (as they read here), by a key made for these examples only:
 * EXAMPLE_JWKS publishes its public half, so they verify as the docs' snippet shows (test/unit/evidence-signing.test.ts
 * checks it). Changing an example's data breaks its signature: sign both again with a new example key.
 */
const EXAMPLE_KID = 'FNoDti7eYt_iEg8ubHK5_YoCkgBrMw5JvOUFbSTUwlU';
/** The protected header both carry, as the signer writes it (both examples are the answer of one request). */
const EXAMPLE_JWS_HEADER = Buffer.from(JSON.stringify(evidenceProtectedHeader(EXAMPLE_KID, REQUEST_ID))).toString(
  'base64url',
);
const exampleSignature = (signature: string) => ({
  jws: `${EXAMPLE_JWS_HEADER}..${signature}`,
  kid: EXAMPLE_KID,
  alg: 'EdDSA',
  signed: 'data',
  canonicalization: 'RFC8785',
});
const EXAMPLE_JWKS = {
  keys: [
    {
      kty: 'OKP',
      crv: 'Ed25519',
      x: '6hxsJRE4rcQC6Oa88YgE_4S3xBAl3ERGqJo3Wascb_4',
      kid: EXAMPLE_KID,
      alg: 'EdDSA',
      use: 'sig',
    },
  ],
};

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

export const EXAMPLES = {
  jwks: EXAMPLE_JWKS,
  health: { success: true, data: { status: 'ok' } },
  screeningRequest: { chain: 'ethereum', address: SANCTIONED, reference_id: 'case-1' },
  submitted: {
    success: true,
    data: { request_id: REQUEST_ID, status: 'queued', reference_id: 'case-1', created_at: 1795424873055 },
  },
  polled: {
    success: true,
    data: {
      request_id: REQUEST_ID,
      status: 'completed',
      reference_id: 'case-1',
      created_at: 1795424873055,
      completed_at: 1795424873241,
      response: screeningResponse,
      credits_charged: 1,
      signature: exampleSignature(
        'bd_sRea2xvUKqmjtu_mAypZEjGUysY5-DYxP9cQCFb5U70IZY6J551ec9U06_dWWY_1toL8L-5ESNjOSu9dgBQ',
      ),
    },
  },
  full: {
    success: true,
    data: {
      request_id: REQUEST_ID,
      status: 'completed',
      reference_id: 'case-1',
      created_at: 1795424873055,
      completed_at: 1795424873241,
      response: {
        ...screeningResponse,
        cost: {
          rule: '1 credit (lists and the target itself) + 1 credit per exposure hop reached beyond the first level',
          credits: 1,
          depth_reached: 0,
        },
        hits: [
          {
            hop: 0,
            role: 'target',
            rule: 'is_sanctioned',
            score: 100,
            detail: 'Address is on the OFAC SDN list: Sim, Hyon Sop (programs NPWMD), designated 2023-04-24',
            source: 'ofac-sdn-xml-2025-11-19',
            address: SANCTIONED,
            category: 'sanctions',
          },
          {
            hop: 0,
            role: 'target',
            rule: 'is_blacklisted',
            score: 90,
            detail: 'Address is frozen by the USDT issuer on ethereum since 2023-03-03T21:44:11Z',
            source: 'usdt-contract-events-2025-09-13',
            address: SANCTIONED,
            category: 'stablecoin_blocked',
          },
          {
            hop: 0,
            role: 'target',
            rule: 'tag_score',
            score: 72,
            detail: 'Address is labelled sanctions related by etherscan-labels (medium confidence)',
            source: 'etherscan-labels',
            address: SANCTIONED,
            category: 'sanctions_related',
          },
        ],
        crawl: {
          ran: false,
          note:
            'no ethereum node is configured: screened against the reference lists only, ' +
            'on-chain exposure not checked',
          complete: false,
          truncated: [],
          depth_planned: 0,
          depth_reached: 0,
          nodes_visited: 0,
        },
        graph: {
          edges: [],
          nodes: [
            {
              hop: 0,
              role: 'target',
              labels: ['sanctions', 'sanctions', 'sanctions', 'USDT blacklisted', 'sanctions_related'],
              address: SANCTIONED,
            },
          ],
        },
        model: shippedRiskModel().document,
        pricing: [],
        performance: {
          chain_ms: 0,
          crawl_ms: 0,
          lists_ms: 9,
          cut_short: true,
          cache_hits: 0,
          analysis_ms: 10,
          cache_misses: 0,
          nodes_visited: 0,
          crawl_requests: 0,
          request_budget: 0,
        },
        transaction: null,
        unpriced_assets: [],
      },
      credits_charged: 1,
      signature: exampleSignature(
        'GcsAX-P_iplceH6-7A-pZLCZynj8RA8Tc4S1jUWlIYk_PMwAhmJCbaLzYKJtV4f8HY56VWvBtv2ziJqaMUTYAA',
      ),
    },
  },
  syncAnalyze: {
    success: true,
    data: {
      chain: 'tron',
      api_type: 'KYA',
      risk_level: 'HIGH',
      risk_score: 100,
      response_id: '0b782831-3f94-4b8c-973d-c3c0c32c95b9',
      risk_reason:
        'Address is on the OFAC SDN list: CHEIL CREDIT BANK (programs DPRK4), designated 2017-09-26; no tron node is ' +
        'configured: screened against the reference lists only, on-chain exposure not checked',
      rule_scores: {
        tag_score: 0,
        address_type: 0,
        is_sanctioned: 100,
        receive_count: 0,
        is_blacklisted: 90,
        active_duration: 0,
      },
      target_summary: {
        tags: [
          { name: 'CHEIL CREDIT BANK', type: 'sanctions', display: 'OFAC SDN: CHEIL CREDIT BANK' },
          { name: 'USDT freeze', type: 'stablecoin_blocked', display: 'USDT frozen (tron)' },
        ],
        address: 'TA3941uFAvmVibSkQ6fMJXxmaSNovX86mz',
        balances: [],
      },
      request_id: '40ea9a68-20e1-4ff7-8aa9-4a37bced3ca8',
      reference_id: null,
    },
  },
  grantRequest: {
    userId: '2ef2c482-4e24-4bff-b7be-8a7f73e35899',
    amount: 10,
    idempotencyKey: 'ex-1',
    reason: 'example',
  },
  grant: {
    success: true,
    data: {
      userId: '2ef2c482-4e24-4bff-b7be-8a7f73e35899',
      balance: 10,
      transactionId: 'a18ceff9-5cc9-4174-b5fd-2fa66827712d',
      duplicate: false,
    },
  },
  balance: { success: true, data: { balance: 10, reserved: 0, available: 10, debt: 0 } },
  me: {
    success: true,
    data: {
      id: '2ef2c482-4e24-4bff-b7be-8a7f73e35899',
      clerkUserId: null,
      email: null,
      role: 'admin',
      scopes: ['read', 'screening', 'billing', 'keys'],
      credits: { balance: 0, reserved: 0, available: 0, debt: 0 },
      account: { id: '2ef2c482-4e24-4bff-b7be-8a7f73e35899', kind: 'person' },
      member: { id: '2ef2c482-4e24-4bff-b7be-8a7f73e35899', role: 'admin' },
    },
  },
  apiKeyCreated: { success: true, data: { ...apiKey, key: 'cs_live_QRBucjgTRiADMfbSVvhhyds7n4aR7pgSYYrL4ObDOeE' } },
  apiKeyList: { success: true, data: [apiKey], meta: { total: 1 } },
  apiKeyRevoked: { success: true, data: { ...apiKey, revokedAt: '2026-11-23T09:08:01.989Z' } },
  apiKeyRateLimit: { success: true, data: { ...apiKey, rateLimit: { tier: 'enterprise', requestsPerMinute: 1200 } } },
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
        custom_str1: '2ef2c482-4e24-4bff-b7be-8a7f73e35899',
        subscription_type: '1',
        frequency: '3',
        cycles: '0',
        signature: 'f7e0ec6e8834f5c5f48a536f092acabc',
      },
    },
  },
  subscriptions: { success: true, data: [] },
  activityList: {
    success: true,
    data: [activityItem],
    pagination: { total: 2, limit: 1, offset: 0, hasMore: true },
    meta: { total: 2, page: 1, limit: 1 },
    timestamp: '2026-11-23T09:08:14.098Z',
  },
  activityDetail: {
    success: true,
    data: {
      ...activityItem,
      responseId: '0b782831-3f94-4b8c-973d-c3c0c32c95b9',
      errorMessage: null,
      requestPayload: {
        chain: 'tron',
        address: 'TA3941uFAvmVibSkQ6fMJXxmaSNovX86mz',
        crawlTimeout: 8000,
        reference_id: null,
      },
      responsePayload: {
        chain: 'tron',
        api_type: 'KYA',
        risk_level: 'HIGH',
        risk_score: 100,
        response_id: '0b782831-3f94-4b8c-973d-c3c0c32c95b9',
      },
      metadata: { referenceId: null },
      clientAppId: null,
      clientAppName: null,
    },
  },
  candles: {
    data: [
      {
        timestamp: '2023-09-29T00:00:00.000Z',
        open: 27027.3,
        high: 27225.7,
        low: 26692,
        close: 26920.1,
        volume: 2046.27520387,
        trades: 20114,
      },
      {
        timestamp: '2023-09-30T00:00:00.000Z',
        open: 26920.1,
        high: 27096,
        low: 26888.3,
        close: 26972.9,
        volume: 591.63366313,
        trades: 14799,
      },
    ],
    meta: { symbol: 'BTC-USD', interval: '1d', total: 2 },
  },
  tickerQuery: { connector: 'kraken', dataType: 'ticker', filters: { symbol: 'ETH-USD' } },
  ticker: {
    success: true,
    data: [
      {
        symbol: 'ETH-USD',
        connector: 'kraken',
        price: 1671.01,
        timestamp: '2023-10-01T00:00:00.000Z',
        interval: '5m',
        window24h: {
          open: 1667.9,
          high: 1693.66,
          low: 1666.47,
          volume: 4534.24505306,
          trades: 4698,
          changePercent: 0.1865,
        },
      },
    ],
    meta: { connector: 'kraken', dataType: 'ticker', total: 1 },
    timestamp: '2026-11-23T09:08:14.193Z',
  },
  candlesQuery: {
    connector: 'binance',
    dataType: 'candles',
    filters: { symbol: 'BTC-USDT', interval: '1w' },
    limit: 2,
  },
  candlesQueryAnswer: {
    success: true,
    data: [
      {
        timestamp: '2024-12-09T00:00:00.000Z',
        open: 101109.6,
        high: 105250,
        low: 94150.05,
        close: 104463.99,
        volume: 230968.339905,
        trades: 48813901,
      },
      {
        timestamp: '2024-12-16T00:00:00.000Z',
        open: 104463.99,
        high: 108353,
        low: 92232.54,
        close: 95186.27,
        volume: 281544.242246,
        trades: 46077110,
      },
    ],
    meta: { connector: 'binance', dataType: 'candles', symbol: 'BTC-USDT', interval: '1w', total: 2 },
    timestamp: '2026-11-23T09:08:14.202Z',
  },
  activityWebhookRequest: {
    activityType: 'kye',
    userId: 'user_2abc',
    entityId: 'ent-1',
    entityName: 'Garantex',
    requestId: '9b2c4a8e-1f7d-4c3b-a6e5-2d8f0b1c3e47',
  },
  activityRecorded: {
    success: true,
    id: '32bbdc38-2844-4786-8cf5-84fdb63ae16f',
    requestId: '9b2c4a8e-1f7d-4c3b-a6e5-2d8f0b1c3e47',
  },
  activityWebhookInvalid: { error: 'Invalid activityType. Must be one of: kyt, kya, kye', field: 'activityType' },
  webhookAccepted: { success: true, received: true, duplicate: false },
} as const;

export const ERROR_EXAMPLES = {
  invalidParameter: {
    success: false,
    error: {
      code: 'INVALID_PARAMETER',
      message: 'Invalid parameter "amount": expected a positive integer number of credits (at most 1000000000)',
      details: { parameter: 'amount', expected: 'a positive integer number of credits (at most 1000000000)' },
    },
  },
  authenticationRequired: { success: false, error: 'Authentication required' },
  adminRequired: { success: false, error: 'Admin privileges required', code: 'INSUFFICIENT_PERMISSIONS' },
  insufficientScope: {
    success: false,
    error:
      'This API key does not have the "screening" scope this request needs; create a key with it ' +
      '(scopes: read, screening, billing, keys)',
    code: 'INSUFFICIENT_SCOPE',
  },
  apiKeyLimitReached: {
    success: false,
    error: 'This account already holds 20 active API keys, the most it may hold; revoke one to create another',
    code: 'API_KEY_LIMIT_REACHED',
  },
  notFound: { success: false, error: 'User not found', code: 'NOT_FOUND' },
  insufficientCredits: {
    success: false,
    error: 'Insufficient credits: an analysis needs at least 1 credit, 0 available',
    code: 'INSUFFICIENT_CREDITS',
    required: 1,
    available: 0,
  },
  chainNotConfigured: {
    success: false,
    error:
      'KYT on ethereum needs a ethereum node, and none is configured on this deployment; KYA ' +
      '(address) screening is available',
    code: 'CHAIN_NOT_CONFIGURED',
  },
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
  symbolNotFound: {
    success: false,
    error: {
      code: 'SYMBOL_NOT_FOUND',
      message: 'Unknown symbol "BTC-XXX"',
      details: {
        parameter: 'symbol',
        expected: 'one of ALGO-USDT, AVAX-USD, BTC-USD, BTC-USDC, BTC-USDT, DOT-USD, ETH-USD, SOL-USD',
      },
    },
  },
  rateLimited: {
    success: false,
    error: {
      code: 'RATE_LIMITED',
      message:
        'Rate limit of 60 requests per 60 s exceeded for this account (all its API keys share it); retry in 60 s',
      details: { tier: 'free', limit: 60, windowSeconds: 60, retryAfterSeconds: 60 },
    },
  },
  jobSubmitLimited: {
    success: false,
    error: {
      code: 'RATE_LIMITED',
      message:
        'Job submit limit of 6000 submits per 60 s exceeded for this account (all its API keys share it); retry in 12 s',
      details: { tier: 'pro', limit: 6000, windowSeconds: 60, retryAfterSeconds: 12 },
    },
  },
  signatureInvalid: {
    success: false,
    error: 'Unauthorized',
    code: 'INVALID_SIGNATURE',
    reason: 'Clerk webhook rejected: timestamp outside the 5-minute tolerance',
  },
  webhookNotConfigured: {
    success: false,
    error: 'Clerk webhooks are not configured on this deployment (CLERK_WEBHOOK_SECRET)',
    code: 'WEBHOOK_NOT_CONFIGURED',
  },
  invalidItn: {
    success: false,
    error: 'Malformed ITN: malformed percent-encoding in the value of field "a"',
    code: 'INVALID_ITN',
  },
  paymentsNotConfigured: {
    success: false,
    error: 'Pay-per-use reports are not configured on this deployment (X402_PAY_TO and a facilitator)',
    code: 'PAYMENTS_NOT_CONFIGURED',
  },
} as const;
