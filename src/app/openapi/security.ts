/**
 * How callers prove who they are. OpenAPI security schemes name one header each; where a provider
 * signs with several headers, the scheme names the signature and the operation lists the rest as
 * header parameters. PayFast signs inside the form (field `signature`), which no scheme can name:
 * that operation documents it in its request body.
 */
export const SECURITY_SCHEMES = {
  apiKey: {
    type: 'apiKey',
    in: 'header',
    name: 'x-api-key',
    description: 'An API key (`cs_live_…`, from POST /api/v1/api-keys or the bootstrap admin key)',
  },
  bearerApiKey: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'API key',
    description: 'The same API key as `Authorization: Bearer <api key>` (the market-data style)',
  },
  clerkSession: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description:
      'A Clerk session JWT (RS256, verified offline with CLERK_JWT_KEY); a new `sub` is provisioned with 0 credits',
  },
  activityWebhookSecret: {
    type: 'apiKey',
    in: 'header',
    name: 'X-Activity-Webhook-Secret',
    description:
      'The shared ACTIVITY_WEBHOOK_SECRET, compared in constant time; unset on the server = every request is refused',
  },
  paypalSignature: {
    type: 'apiKey',
    in: 'header',
    name: 'PAYPAL-TRANSMISSION-SIG',
    description:
      "PayPal's transmission signature (SHA256withRSA over `<transmission id>|<time>|<webhook id>|<crc32 of the " +
      "body>`), checked with the certificate at PAYPAL-CERT-URL against PayPal's chain; sent with " +
      'PAYPAL-TRANSMISSION-ID, PAYPAL-TRANSMISSION-TIME, PAYPAL-CERT-URL and PAYPAL-AUTH-ALGO',
  },
  svixSignature: {
    type: 'apiKey',
    in: 'header',
    name: 'svix-signature',
    description:
      "Clerk's Svix signature (`v1,<base64 HMAC-SHA256>` over `<svix-id>.<svix-timestamp>.<body>` with " +
      'CLERK_WEBHOOK_SECRET), sent with svix-id and svix-timestamp (at most 5 minutes old)',
  },
  x402Payment: {
    type: 'apiKey',
    in: 'header',
    name: 'PAYMENT-SIGNATURE',
    description:
      'x402 v2: a signed EIP-3009 USDC authorization for the challenge of the 402 answer (PAYMENT-REQUIRED header, ' +
      'base64 JSON). The paid answer carries PAYMENT-RESPONSE (the settlement). `X-PAYMENT` is read too',
  },
} as const;

export type SecuritySchemeName = keyof typeof SECURITY_SCHEMES;

/** An API key in either header, or a Clerk session: any one of them. */
export const ACCOUNT_SECURITY: Array<Record<string, string[]>> = [
  { apiKey: [] },
  { bearerApiKey: [] },
  { clerkSession: [] },
];
export const only = (scheme: SecuritySchemeName) => [{ [scheme]: [] }];
export const PUBLIC: [] = [];
