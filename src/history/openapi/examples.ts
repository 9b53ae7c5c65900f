/** History's examples for the document, copied from real answers of a running stack (`npm start`; Nov 2026). */

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

export const HISTORY_EXAMPLES = {
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
} as const;
