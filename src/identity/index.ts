/**
 * What other features use of identity: who is calling (the account, and the member acting for it), the user records.
 */
export { rateLimitAccount } from './rate-limit-account';
export { bearerToken, currentMember, currentUser, requireAdmin, type Credentials, type Identity } from './authenticate';
export { API_KEY_SCOPES, InsufficientScopeError, requireScope, scopesOf, type ApiKeyScope } from './scopes';
export { createUserStore, type User, type UserStore } from './users-store';
/** Answer shapes the dashboard renders (types only: nothing of the server enters the browser bundle). */
export type { apiKeyRecordSchema, createdApiKeyResponse, meResponse } from './api-keys-routes';
export { TEAM_ROLES, type AccountKind, type Member, type TeamMember, type TeamRole } from './team';
/** Role-gated routes of a team (cases): 403 INSUFFICIENT_TEAM_ROLE unless the acting member holds one of the roles. */
export { requireTeamRole } from './require-team-role';
export { InsufficientTeamRoleError, LastTeamAdminError } from './team-errors';
export type { TeamStore } from './team-store';
/** The role an active person holds in an account now (the worker re-checks a member's action with it). */
export { createMemberRoleLookup, type MemberRoleLookup } from './member-role';
/** The security requirement of an operation callable by an account's API key (holding the scope) or its session. */
export { accountSecurity } from './openapi/account-security';
/** Identity's variables (CLERK_JWT_KEY says whether Clerk session tokens are accepted). */
export type { IdentityConfig } from './config';
