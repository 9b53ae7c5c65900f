import type { Pool } from 'pg';
import { importSigningKey, type CurrentSigningKey, type SigningKeyRing } from './key-ring';
import type { PublicSigningJwk } from './signing-jwk';
import { ensureSigningKey, readSigningKeys } from './postgres-signing-keys';

/**
 * How often a process reads the keys again, so that a rotation made elsewhere (`npm run keys:rotate`, another
 * process) takes effect everywhere without a restart. Until then the process keeps signing with the retired
 * key, which stays published: its answers still verify.
 */
const DEFAULT_REFRESH_MS = 30_000;

interface Snapshot {
  readAt: number;
  signing: CurrentSigningKey;
  published: PublicSigningJwk[];
}

/**
 * The Postgres-kept keys (postgres-signing-keys.ts), read at most once per refresh period by however many
 * requests ask at once; the current key's import is reused until the current kid changes. The key that signs and
 * the published set come from one read, so this process never signs with a key it does not publish. When a
 * refresh fails (the database does not answer) the keys already read stay in use and the next call tries again.
 */
export function createPostgresKeyRing(
  pool: Pool,
  options: { refreshMs?: number; now?: () => number } = {},
): SigningKeyRing {
  const refreshMs = options.refreshMs ?? DEFAULT_REFRESH_MS;
  const now = options.now ?? Date.now;
  let snapshot: Snapshot | undefined;
  let reading: Promise<Snapshot> | undefined;

  const read = async (): Promise<Snapshot> => {
    let keys = await readSigningKeys(pool);
    if (!keys[0]?.privateJwk) {
      await ensureSigningKey(pool);
      keys = await readSigningKeys(pool);
    }
    const current = keys[0]?.privateJwk;
    if (!current) throw new Error('signing_keys has no current key');
    const signing = snapshot?.signing.kid === current.kid ? snapshot.signing : await importSigningKey(current);
    return { readAt: now(), signing, published: keys.map((k) => k.publicJwk) };
  };

  const readOnce = (): Promise<Snapshot> => {
    reading ??= read()
      .then((fresh) => {
        snapshot = fresh;
        return fresh;
      })
      .finally(() => {
        reading = undefined;
      });
    return reading;
  };

  const current = async (): Promise<Snapshot> => {
    if (snapshot && now() - snapshot.readAt < refreshMs) return snapshot;
    if (!snapshot) return readOnce();
    const stale = snapshot;
    return readOnce().catch(() => stale);
  };

  return {
    signingKey: async () => (await current()).signing,
    publicKeys: async () => (await current()).published,
    refresh: async () => {
      // A read already under way may have started before the change this caller wants to see.
      await reading?.catch(() => undefined);
      await readOnce();
    },
  };
}
