import type { ApiKeyScope } from '../scopes';

/**
 * An API key in either header holding `scope`, or a Clerk session (which holds every scope): any one of them. The
 * scope is the role name OpenAPI 3.1 lets a non-OAuth requirement list; a key without it is 403 INSUFFICIENT_SCOPE
 * (added to each such operation by the document builder, src/app/openapi/security.ts).
 */
export function accountSecurity(scope: ApiKeyScope): Array<Record<string, string[]>> {
  return [{ apiKey: [scope] }, { bearerApiKey: [scope] }, { clerkSession: [] }];
}
