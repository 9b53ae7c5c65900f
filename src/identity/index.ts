/** What other features use of identity: who is calling, and the user records. */
export { bearerToken, currentUser, requireAdmin, type Credentials, type Identity } from './authenticate';
export { API_KEY_SCOPES, InsufficientScopeError, requireScope, scopesOf, type ApiKeyScope } from './scopes';
export type { User, UserStore } from './users-store';
/** Answer shapes the dashboard renders (types only: nothing of the server enters the browser bundle). */
export type { apiKeyRecordSchema, createdApiKeyResponse, meResponse } from './api-keys-routes';
