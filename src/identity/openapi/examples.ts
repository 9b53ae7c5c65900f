/** Identity's examples for the document, copied from real answers of a running stack (`npm start`; Nov 2026). */

const USER_ID = '2ef2c482-4e24-4bff-b7be-8a7f73e35899';

const apiKey = {
  id: '3d6939ad-9930-4117-9564-ee929c5460a7',
  name: 'ci',
  prefix: 'cs_live_QRBucj',
  createdAt: '2026-11-23T09:08:01.949Z',
  lastUsedAt: null,
  revokedAt: null,
  rateLimit: { tier: 'free', requestsPerMinute: null },
  scopes: ['read', 'screening'],
  createdBy: USER_ID,
};

export const IDENTITY_EXAMPLES = {
  me: {
    success: true,
    data: {
      id: USER_ID,
      clerkUserId: null,
      email: null,
      role: 'admin',
      scopes: ['read', 'screening', 'billing', 'keys'],
      credits: { balance: 0, reserved: 0, available: 0, debt: 0 },
      account: { id: USER_ID, kind: 'person' },
      member: { id: USER_ID, role: 'admin' },
    },
  },
  apiKeyCreated: { success: true, data: { ...apiKey, key: 'cs_live_QRBucjgTRiADMfbSVvhhyds7n4aR7pgSYYrL4ObDOeE' } },
  apiKeyList: { success: true, data: [apiKey], meta: { total: 1 } },
  apiKeyRevoked: { success: true, data: { ...apiKey, revokedAt: '2026-11-23T09:08:01.989Z' } },
  apiKeyRateLimit: { success: true, data: { ...apiKey, rateLimit: { tier: 'enterprise', requestsPerMinute: 1200 } } },
  webhookAccepted: { success: true, received: true, duplicate: false },
} as const;

export const IDENTITY_ERROR_EXAMPLES = {
  apiKeyLimitReached: {
    success: false,
    error: 'This account already holds 20 active API keys, the most it may hold; revoke one to create another',
    code: 'API_KEY_LIMIT_REACHED',
  },
} as const;
