/**
 * Evidence signing keys kept in Postgres (table signing_keys, migration 017), used when EVIDENCE_SIGNING_KEYS is
 * not set: `npm start`, tests and any number of api processes on one database then sign with the same key, and
 * answers signed before a restart or a rotation still verify, with no setup.
 *
 * Only the development default. A private key in a table is readable by whoever can read the database, its
 * backups, replicas and dumps, and whoever has it can sign answers this service never gave: the evidence is only
 * as strong as the most exposed copy of the data. In production the keys come from EVIDENCE_SIGNING_KEYS (held in
 * a secret store, apart from the data) and this table is not read.
 */
import type { Pool, PoolClient } from 'pg';
import { inTransaction } from '../db/transaction';
import { generateSigningJwk } from './generate-signing-key';
import {
  type PrivateSigningJwk,
  type PublicSigningJwk,
  privateSigningJwkSchema,
  publicJwkOf,
  publicSigningJwkSchema,
} from './signing-jwk';

export interface StoredSigningKey {
  publicJwk: PublicSigningJwk;
  /** Only on the current key: a rotation erases the private half of the key it retires. */
  privateJwk: PrivateSigningJwk | null;
  createdAt: Date;
  retiredAt: Date | null;
}

/** Every key, the current one first, then the retired ones newest first. */
export async function readSigningKeys(db: Pool | PoolClient): Promise<StoredSigningKey[]> {
  const { rows } = await db.query<{
    public_jwk: unknown;
    private_jwk: unknown;
    created_at: Date;
    retired_at: Date | null;
  }>(
    `SELECT public_jwk, private_jwk, created_at, retired_at FROM signing_keys
      ORDER BY retired_at IS NULL DESC, created_at DESC, kid`,
  );
  return rows.map((row) => ({
    publicJwk: publicSigningJwkSchema.parse(row.public_jwk),
    privateJwk: row.private_jwk === null ? null : privateSigningJwkSchema.parse(row.private_jwk),
    createdAt: row.created_at,
    retiredAt: row.retired_at,
  }));
}

/** Serialises the writers (first key, rotation) of every process; readers are not blocked. */
async function lockSigningKeys(client: PoolClient): Promise<void> {
  await client.query('LOCK TABLE signing_keys IN SHARE ROW EXCLUSIVE MODE');
}

async function insertCurrentKey(client: PoolClient): Promise<string> {
  const jwk = await generateSigningJwk();
  await client.query('INSERT INTO signing_keys (kid, public_jwk, private_jwk) VALUES ($1, $2, $3)', [
    jwk.kid,
    publicJwkOf(jwk),
    jwk,
  ]);
  return jwk.kid;
}

/** Makes the first key when there is none yet; processes starting together agree on one. Returns the current kid. */
export async function ensureSigningKey(pool: Pool): Promise<string> {
  return inTransaction(pool, async (client) => {
    await lockSigningKeys(client);
    const { rows } = await client.query<{ kid: string }>('SELECT kid FROM signing_keys WHERE retired_at IS NULL');
    return rows[0]?.kid ?? insertCurrentKey(client);
  });
}

/**
 * `npm run keys:rotate`: a new key becomes current; the one it replaces is retired (its private half erased) and
 * stays published. Api processes sign with the new key from their next refresh (postgres-key-ring.ts).
 */
export async function rotateSigningKey(pool: Pool): Promise<{ kid: string; retired: string[] }> {
  return inTransaction(pool, async (client) => {
    await lockSigningKeys(client);
    const retired = await client.query<{ kid: string }>(
      `UPDATE signing_keys SET retired_at = clock_timestamp(), private_jwk = NULL
        WHERE retired_at IS NULL RETURNING kid`,
    );
    const kid = await insertCurrentKey(client);
    return { kid, retired: retired.rows.map((r) => r.kid) };
  });
}
