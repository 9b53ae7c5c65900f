/**
 * Real answers of the errors many operations share (the shared responses of src/app/openapi/shared-responses.ts, and
 * market data's own 400), copied from a running stack. A feature's own refusals keep their examples beside its
 * operations.
 */
export const SHARED_ERROR_EXAMPLES = {
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
  /** What a member whose role may not act is answered (src/identity/require-team-role.ts). */
  teamRoleRefusal: {
    success: false,
    error: 'Your team role (analyst) may not do this; it needs a member whose role is admin',
    code: 'INSUFFICIENT_TEAM_ROLE',
  },
  notFound: { success: false, error: 'User not found', code: 'NOT_FOUND' },
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
        'Job submit limit of 6000 submits per 60 s exceeded for this account ' +
        '(all its API keys share it); retry in 12 s',
      details: { tier: 'pro', limit: 6000, windowSeconds: 60, retryAfterSeconds: 12 },
    },
  },
  signatureInvalid: {
    success: false,
    error: 'Unauthorized',
    code: 'INVALID_SIGNATURE',
    reason: 'webhook rejected: the signature does not verify over the body received',
  },
  webhookNotConfigured: {
    success: false,
    error: "The provider's webhooks are not configured on this deployment (its secret variable is unset)",
    code: 'WEBHOOK_NOT_CONFIGURED',
  },
} as const;
