import type { Pool } from 'pg';
import type { Logger } from '../platform/logging/logger';
import type { IdentityConfig } from './config';
import { createUserStore } from './users-store';

/** BOOTSTRAP_ADMIN_API_KEY becomes an admin's key (a value revoked by a newer one stays revoked). */
export async function prepareIdentity(deps: { pool: Pool; config: Readonly<Record<string, unknown>>; log: Logger }) {
  const key = (deps.config as IdentityConfig).BOOTSTRAP_ADMIN_API_KEY;
  if (!key) return;
  const outcome = await createUserStore(deps.pool).ensureBootstrapAdmin(key);
  if (outcome.kind === 'ready')
    deps.log.info('bootstrap admin ready', { userId: outcome.user.id, revokedBootstrapKeys: outcome.revokedKeyIds });
  else
    deps.log.warn(
      'BOOTSTRAP_ADMIN_API_KEY names a key revoked by a newer value (or by its owner): it stays revoked; set a ' +
        'new value (npm start without the variable: delete DATA_DIR/bootstrap-admin-api-key for a new one)',
      { userId: outcome.userId },
    );
}
