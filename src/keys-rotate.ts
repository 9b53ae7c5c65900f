/**
 * `npm run keys:rotate`: a new evidence signing key, kept in Postgres, becomes current. The key it replaces is
 * retired (its private half erased) and stays published at /.well-known/jwks.json, so the answers it signed keep
 * verifying; running api processes sign with the new one from their next refresh (within 30 s). Prints the new kid.
 * With EVIDENCE_SIGNING_KEYS set the keys are not in Postgres: the operator rotates by putting a new key first.
 */
import { loadConfigOrExit } from './app/config';
import { SCHEMA_FOLDERS } from './app/schema-folders';
import { migrate } from './platform/db/migrate';
import { createPool } from './platform/db/pool';
import { createLogger, stderrDestination } from './platform/logging/logger';
import { rotateSigningKey } from './platform/signing/postgres-signing-keys';

async function main() {
  const config = loadConfigOrExit();
  const log = createLogger(config.LOG_LEVEL, { process: 'keys-rotate' }, stderrDestination(config.LOG_FORMAT));
  if (config.EVIDENCE_SIGNING_KEYS) {
    log.error(
      'EVIDENCE_SIGNING_KEYS is set, so the keys in Postgres are not used: rotate by putting a new key first in ' +
        'EVIDENCE_SIGNING_KEYS, keeping the old ones after it, and restarting the api processes',
    );
    process.exit(78);
  }
  if (!config.DATABASE_URL) {
    log.error(
      'keys:rotate needs DATABASE_URL (for the embedded database of a running `npm start`: ' +
        `postgres://postgres:chainscreen@127.0.0.1:${config.EMBEDDED_PG_PORT}/chainscreen)`,
    );
    process.exit(78);
  }
  const pool = createPool(config.DATABASE_URL, 2);
  try {
    await migrate(pool, log, SCHEMA_FOLDERS);
    const { kid, retired } = await rotateSigningKey(pool);
    log.info('evidence signing key rotated', { kid, retired });
    process.stdout.write(`${kid}\n`);
  } finally {
    await pool.end();
  }
}

main().catch((err) => {
  process.stderr.write(`keys:rotate failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
