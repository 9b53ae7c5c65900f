import { API_KEY_SCOPES } from '../../identity';
import { ref } from '../../platform/openapi/error-shapes';
import type { Operation, Paths } from '../../platform/openapi/json-schema';

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
    description:
      'An API key (`cs_live_…`, from POST /api/v1/api-keys or the bootstrap admin key). Each operation names the ' +
      `scope the key needs (${API_KEY_SCOPES.join(', ')}; docs/api.md#key-scopes-and-limits)`,
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

/** The scope an operation's security requires of an API key, if any. */
function requiredScopeOf(security: Array<Record<string, string[]>> | undefined): string | undefined {
  return security?.map((r) => r.apiKey?.[0]).find((s) => s !== undefined);
}

/** The 403s an operation may declare itself, and what each becomes once the scope refusal is added to it. */
const WITH_SCOPE_REFUSAL: Record<string, string> = {
  [ref('AdminRequired').$ref]: 'AdminRequiredOrInsufficientScope',
  [ref('TeamRoleRequired').$ref]: 'TeamRoleRequiredOrInsufficientScope',
};

/**
 * Every operation that requires a scope answers 403 INSUFFICIENT_SCOPE to a key without it; an admin-only one
 * also 403 INSUFFICIENT_PERMISSIONS, a team-role-gated one 403 INSUFFICIENT_TEAM_ROLE. Added here from the security
 * requirement, so no scoped operation lacks it.
 */
export function withScopeRefusals(paths: Paths): Paths {
  for (const item of Object.values(paths)) {
    for (const operation of Object.values(item) as Operation[]) {
      if (!requiredScopeOf(operation.security)) continue;
      const existing = operation.responses[403] as { $ref?: string } | undefined;
      // An operation's own 403 (cases' four-eyes refusal) lists INSUFFICIENT_SCOPE among its codes itself.
      if (existing && existing.$ref === undefined) continue;
      const combined = existing ? WITH_SCOPE_REFUSAL[existing.$ref ?? ''] : 'InsufficientScope';
      if (!combined)
        throw new Error(`OpenAPI: ${operation.operationId} has a 403 other than AdminRequired or TeamRoleRequired`);
      operation.responses[403] = ref(combined);
    }
  }
  return paths;
}

/**
 * Every scheme the operations' security requirements name is one of SECURITY_SCHEMES: the features name schemes as
 * text (src/platform/openapi/security.ts, accountSecurity of identity), so a misspelt one is refused here.
 */
export function checkSecuritySchemes(paths: Paths): void {
  for (const item of Object.values(paths)) {
    for (const operation of Object.values(item) as Operation[]) {
      for (const requirement of operation.security) {
        for (const scheme of Object.keys(requirement)) {
          if (!Object.hasOwn(SECURITY_SCHEMES, scheme))
            throw new Error(`OpenAPI: ${operation.operationId} names the unknown security scheme ${scheme}`);
        }
      }
    }
  }
}
