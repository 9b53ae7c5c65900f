import type { Pool } from 'pg';
import { createConfiguredKeyRing } from './configured-key-ring';
import type { SigningKeyRing } from './key-ring';
import { createPostgresKeyRing } from './postgres-key-ring';
import type { PrivateSigningJwk } from './signing-jwk';

/** EVIDENCE_SIGNING_KEYS when it is set; otherwise the keys kept in Postgres (the development default). */
export function evidenceKeyRing(
  configured: { keys: readonly PrivateSigningJwk[] } | undefined,
  pool: Pool,
): SigningKeyRing {
  const [first, ...rest] = configured?.keys ?? [];
  return first ? createConfiguredKeyRing([first, ...rest]) : createPostgresKeyRing(pool);
}
