/**
 * The API keys API as the dashboard reads it, derived from the schemas the routes answer with
 * (src/identity/api-keys-routes.ts). Type-only imports: esbuild erases them, so no server code is bundled.
 */
import type { z } from 'zod';
import type { apiKeyRecordSchema, createdApiKeyResponse } from '../../../identity';

/** GET /api/v1/api-keys item: never the key itself, only its prefix. */
export type ApiKeyRecord = z.output<typeof apiKeyRecordSchema>;

/** POST /api/v1/api-keys answer: the record plus the full key, the only time it is ever sent. */
export type CreatedApiKey = z.output<typeof createdApiKeyResponse>['data'];
