import { AppError } from '../platform/errors';
import type { Pool, PoolClient } from 'pg';
import { inTransaction } from '../platform/db/transaction';
import {
  POLICY_ID_PATTERN,
  PolicyNotFoundError,
  policyDocumentOf,
  STANDARD_POLICY_ID,
  type PolicyBody,
  type PolicyDocument,
  type PolicyResolver,
  type PolicySnapshot,
} from '../screening';
import { POLICIES_ERRORS } from './error-codes';

/** One version of a live policy, as the routes show it. */
export interface StoredPolicy {
  id: string;
  version: number;
  document: PolicyDocument;
  /** Whether it is the account's default policy. */
  isDefault: boolean;
  /** When the policy was created (or re-created after a delete). */
  createdAt: Date;
  /** When this version was written. */
  updatedAt: Date;
}

/** What a PUT did: made the policy, made a new version of it, or found its current version identical. */
export type PutOutcome = 'created' | 'updated' | 'unchanged';

type Queryable = Pick<Pool, 'query'> | PoolClient;

// The version `$2` names, or the latest; only of a live policy.
const SELECT_VERSION = `
  SELECT p.policy_id, p.created_at AS policy_created_at, v.version, v.document, v.created_at AS version_created_at,
    EXISTS (SELECT 1 FROM risk_policy_defaults d WHERE d.user_id = p.user_id AND d.policy_id = p.policy_id)
      AS is_default
  FROM risk_policies p
  JOIN risk_policy_versions v
    ON v.user_id = p.user_id AND v.policy_id = p.policy_id AND v.version = COALESCE($2::integer, p.latest_version)
  WHERE p.user_id = $1 AND p.deleted_at IS NULL`;

// biome-ignore lint/suspicious/noExplicitAny: a pg row
const toStored = (r: any): StoredPolicy => ({
  id: r.policy_id,
  version: r.version,
  document: r.document,
  isDefault: r.is_default,
  createdAt: r.policy_created_at,
  updatedAt: r.version_created_at,
});

const snapshotOf = (r: { policy_id: string; version: number; document: PolicyDocument }): PolicySnapshot => ({
  id: r.policy_id,
  version: r.version,
  document: r.document,
});

/**
 * Customer risk policies (migration 026): per account, versioned (a version number names one document forever, even
 * across a delete and re-creation of the id; superseded versions nothing names are pruned), a soft delete, and the
 * account's default. Also the
 * PolicyResolver screening, batches, rescores and monitors find the version they score under with.
 */
/** Live policies an account may keep: each is a versioned document every job can name; deleting one frees a place. */
export const MAX_POLICIES_PER_ACCOUNT = 100;

export class PolicyLimitReachedError extends AppError {
  constructor() {
    super(
      POLICIES_ERRORS.POLICY_LIMIT_REACHED,
      `An account keeps at most ${MAX_POLICIES_PER_ACCOUNT} policies: delete one first`,
    );
  }
}

/** Serialised per account (a transaction-scoped advisory lock), so concurrent creates cannot pass the cap together. */
async function refuseBeyondLimit(client: PoolClient, userId: string): Promise<void> {
  await client.query(`SELECT pg_advisory_xact_lock(hashtext('risk_policies:' || $1))`, [userId]);
  const { rows } = await client.query<{ live: number }>(
    `SELECT count(*)::int AS live FROM risk_policies
     WHERE user_id = $1 AND deleted_at IS NULL AND latest_version > 0`,
    [userId],
  );
  if ((rows[0]?.live ?? 0) >= MAX_POLICIES_PER_ACCOUNT) throw new PolicyLimitReachedError();
}

export function createPolicyStore(pool: Pool) {
  const find = async (db: Queryable, userId: string, id: string, version?: number): Promise<StoredPolicy | null> => {
    // Not an id any policy can have (a path may carry text Postgres refuses): nothing to ask.
    if (!POLICY_ID_PATTERN.test(id)) return null;
    const { rows } = await db.query(`${SELECT_VERSION} AND p.policy_id = $3`, [userId, version ?? null, id]);
    return rows[0] ? toStored(rows[0]) : null;
  };

  /** Locks the policy's row (every writer of one policy and of the default goes through it, in this order). */
  const lockLive = async (client: PoolClient, userId: string, id: string): Promise<boolean> => {
    const { rows } = await client.query(
      `SELECT 1 FROM risk_policies WHERE user_id = $1 AND policy_id = $2 AND deleted_at IS NULL FOR UPDATE`,
      [userId, id],
    );
    return rows.length > 0;
  };

  const makeDefault = (client: PoolClient, userId: string, id: string) =>
    client.query(
      `INSERT INTO risk_policy_defaults (user_id, policy_id) VALUES ($1, $2)
       ON CONFLICT (user_id) DO UPDATE SET policy_id = EXCLUDED.policy_id, updated_at = now()`,
      [userId, id],
    );

  const store = {
    /**
     * Writes a validated body as the policy's next version, unless it is identical to the current one (then
     * nothing is written: twenty identical concurrent PUTs make one version). The policy's row is locked first,
     * so concurrent PUTs of different bodies make consecutive versions. `default` true makes it the account's
     * default, false stops it being the default; absent leaves the default alone. Writing a version prunes the
     * superseded versions no stored job, rescore or batch names, so a policy keeps its current version and the ones
     * answers name, however often it is edited.
     */
    async put(userId: string, id: string, body: PolicyBody): Promise<{ policy: StoredPolicy; outcome: PutOutcome }> {
      const document = policyDocumentOf(id, body);
      return inTransaction(pool, async (client) => {
        // The row exists before it is locked: a concurrent first PUT waits here for the other's commit.
        await client.query(
          `INSERT INTO risk_policies (user_id, policy_id) VALUES ($1, $2) ON CONFLICT (user_id, policy_id) DO NOTHING`,
          [userId, id],
        );
        const locked = await client.query<{ latest_version: number; live: boolean }>(
          `SELECT latest_version, deleted_at IS NULL AND latest_version > 0 AS live
           FROM risk_policies WHERE user_id = $1 AND policy_id = $2 FOR UPDATE`,
          [userId, id],
        );
        const row = locked.rows[0] as { latest_version: number; live: boolean };
        // A statement of its own, after the lock: its snapshot sees the version a PUT we waited for committed.
        const current = await client.query<{ same: boolean }>(
          `SELECT document = $4::jsonb AS same FROM risk_policy_versions
           WHERE user_id = $1 AND policy_id = $2 AND version = $3`,
          [userId, id, row.latest_version, JSON.stringify(document)],
        );
        const same = current.rows[0]?.same === true;
        let outcome: PutOutcome = 'unchanged';
        if (!(row.live && same)) {
          outcome = row.live ? 'updated' : 'created';
          if (!row.live) await refuseBeyondLimit(client, userId);
          const version = row.latest_version + 1;
          await client.query(
            `INSERT INTO risk_policy_versions (user_id, policy_id, version, document) VALUES ($1, $2, $3, $4)`,
            [userId, id, version, JSON.stringify(document)],
          );
          await client.query(
            `UPDATE risk_policies SET latest_version = $3, deleted_at = NULL,
               created_at = CASE WHEN $4 THEN created_at ELSE now() END
             WHERE user_id = $1 AND policy_id = $2`,
            [userId, id, version, row.live],
          );
          // Bounded versions: every superseded one no job, rescore or batch names goes
          // (functions/110_risk-policies.sql).
          await client.query('SELECT prune_risk_policy_versions($1, $2)', [userId, id]);
        }
        if (body.default === true) await makeDefault(client, userId, id);
        else if (body.default === false)
          await client.query('DELETE FROM risk_policy_defaults WHERE user_id = $1 AND policy_id = $2', [userId, id]);
        return { policy: (await find(client, userId, id)) as StoredPolicy, outcome };
      });
    },

    /** The current version of a live policy, or the version asked for; null when there is none. */
    async get(userId: string, id: string, version?: number): Promise<StoredPolicy | null> {
      return find(pool, userId, id, version);
    },

    /** Every live policy of the account at its current version, by id, and the account's default. */
    async list(userId: string): Promise<{ policies: StoredPolicy[]; defaultPolicyId: string | null }> {
      const { rows } = await pool.query(`${SELECT_VERSION} ORDER BY p.policy_id`, [userId, null]);
      const policies = rows.map(toStored);
      return { policies, defaultPolicyId: policies.find((p) => p.isDefault)?.id ?? null };
    },

    /** Deletes the policy (and the default, if it was); its versions stay. False when there was no live policy. */
    async delete(userId: string, id: string): Promise<boolean> {
      if (!POLICY_ID_PATTERN.test(id)) return false;
      return inTransaction(pool, async (client) => {
        if (!(await lockLive(client, userId, id))) return false;
        await client.query('UPDATE risk_policies SET deleted_at = now() WHERE user_id = $1 AND policy_id = $2', [
          userId,
          id,
        ]);
        await client.query('DELETE FROM risk_policy_defaults WHERE user_id = $1 AND policy_id = $2', [userId, id]);
        return true;
      });
    },

    /** The account's default policy at its current version; null: the standard model. */
    async getDefault(userId: string): Promise<StoredPolicy | null> {
      const { rows } = await pool.query(
        `${SELECT_VERSION} AND p.policy_id = (SELECT policy_id FROM risk_policy_defaults WHERE user_id = $1)`,
        [userId, null],
      );
      return rows[0] ? toStored(rows[0]) : null;
    },

    /** Makes a live policy the default (PolicyNotFoundError otherwise); null or 'standard' clears it. */
    async setDefault(userId: string, id: string | null): Promise<StoredPolicy | null> {
      if (id === null || id === STANDARD_POLICY_ID) {
        await store.clearDefault(userId);
        return null;
      }
      return inTransaction(pool, async (client) => {
        if (!POLICY_ID_PATTERN.test(id) || !(await lockLive(client, userId, id))) throw new PolicyNotFoundError(id);
        await makeDefault(client, userId, id);
        return find(client, userId, id);
      });
    },

    async clearDefault(userId: string): Promise<void> {
      await pool.query('DELETE FROM risk_policy_defaults WHERE user_id = $1', [userId]);
    },

    /**
     * The PolicyResolver (src/screening/policy-resolver.ts): undefined or null, the account's default at its
     * current version (null when it has none); 'standard', null; any other id, that live policy's current version,
     * or PolicyNotFoundError. Reads on `client` when given, so it sees (and is part of) the caller's transaction.
     */
    async resolve(userId: string, policyId: string | null | undefined, client?: PoolClient) {
      if (policyId === STANDARD_POLICY_ID) return null;
      const db: Queryable = client ?? pool;
      if (policyId === undefined || policyId === null) {
        const { rows } = await db.query(
          `${SELECT_VERSION} AND p.policy_id = (SELECT policy_id FROM risk_policy_defaults WHERE user_id = $1)`,
          [userId, null],
        );
        return rows[0] ? snapshotOf(rows[0]) : null;
      }
      // Not an id any policy can have: no query (and no text Postgres might refuse).
      if (!POLICY_ID_PATTERN.test(policyId)) throw new PolicyNotFoundError(policyId);
      const { rows } = await db.query(`${SELECT_VERSION} AND p.policy_id = $3`, [userId, null, policyId]);
      if (!rows[0]) throw new PolicyNotFoundError(policyId);
      return snapshotOf(rows[0]);
    },
  } satisfies PolicyResolver & Record<string, unknown>;
  return store;
}

export type PolicyStore = ReturnType<typeof createPolicyStore>;
