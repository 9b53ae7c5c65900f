import { defineErrorCodes } from '../platform/errors/error-table';

/**
 * The identity feature's codes: what a caller may do (admin, scopes, team roles), its keys, Clerk events. Pure data.
 */
export const IDENTITY_ERRORS = defineErrorCodes({
  /** A route for admins only. */
  INSUFFICIENT_PERMISSIONS: { status: 403, retryable: false },
  /** An API key without the scope the route needs (src/identity/scopes.ts). */
  INSUFFICIENT_SCOPE: { status: 403, retryable: false },
  /** A member whose team role may not do this (src/identity/require-team-role.ts): a role-gated action of a team. */
  INSUFFICIENT_TEAM_ROLE: { status: 403, retryable: false },
  /** Removing or demoting the account's last active admin: the team would have nobody to manage it. */
  LAST_TEAM_ADMIN: { status: 409, retryable: false },
  /** The account already holds MAX_ACTIVE_API_KEYS_PER_ACCOUNT active keys: revoke one first. */
  API_KEY_LIMIT_REACHED: { status: 409, retryable: false },
  /** A Clerk event workflow whose input carries no Svix-signed delivery that verifies, or another event than signed. */
  CLERK_EVENT_NOT_AUTHENTIC: { status: 401, retryable: false },
});
