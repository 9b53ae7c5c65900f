/**
 * Security requirements that name no account: an operation anyone may call, or one a single scheme proves (a
 * webhook's signature, a payment). The schemes themselves are the composition root's (src/app/openapi/security.ts),
 * which checks that every requirement names one of them; account operations take `accountSecurity` from identity.
 */
export const PUBLIC: [] = [];
export const only = (scheme: string): Array<Record<string, string[]>> => [{ [scheme]: [] }];
