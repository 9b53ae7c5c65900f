import type { Pool, PoolClient } from 'pg';
import type { RateLimitTier } from '../platform/rate-limit/tiers';
import { AppError } from '../platform/errors';
import { IDENTITY_ERRORS } from './error-codes';
import { inTransaction } from '../platform/db/transaction';
import { displayPrefix, hashApiKey } from './api-key-format';
import { API_KEY_SCOPES, normalizeScopes, type ApiKeyScope } from './scopes';
import type { AccountKind, Member, TeamRole } from './team';
import { provisionOrgSession } from './session-accounts';
import type { OrgClaim } from './org-claims';

export type Role = 'user' | 'admin';

/** The API key a request authenticated with: its rate-limit tier (market data) and what it may do. */
export interface ApiKeyGrant {
  id: string;
  rateLimitTier: RateLimitTier;
  /** Enterprise keys only. */
  requestsPerMinute: number | null;
  scopes: readonly ApiKeyScope[];
}

export interface User {
  id: string;
  clerkUserId: string | null;
  email: string | null;
  role: Role;
  status: 'active' | 'deactivated';
  /** A person's own account or an organization's (team.ts); read from the row, absent where it was not. */
  kind?: AccountKind;
  /** Present when the request authenticated with an API key (absent for session JWTs). */
  apiKey?: ApiKeyGrant;
  /** Who acts for this account in the request (set by authentication; absent on records read by id). */
  member?: Member;
}

interface UserRow {
  id: string;
  clerk_user_id: string | null;
  email: string | null;
  role: Role;
  status: 'active' | 'deactivated';
  kind: AccountKind;
}

/** What every read of an account selects (toUser). */
const USER_COLUMNS = 'id, clerk_user_id, email, role, status, kind';

const toUser = (r: UserRow): User => ({
  id: r.id,
  clerkUserId: r.clerk_user_id,
  email: r.email,
  role: r.role,
  status: r.status,
  kind: r.kind,
});

/** The member columns a read of an acting member adds (aliased member_*). */
interface MemberRow {
  member_id: string;
  member_role: TeamRole;
  member_email: string | null;
  member_name: string | null;
}

const toMember = (r: MemberRow): Member => ({
  id: r.member_id,
  role: r.member_role,
  email: r.member_email,
  displayName: r.member_name,
});

export { isUuid, UUID_RE } from '../platform/http/common-patterns';
import { isUuid } from '../platform/http/common-patterns';

export interface ApiKeyRecord {
  id: string;
  name: string;
  prefix: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
  rateLimit: { tier: RateLimitTier; requestsPerMinute: number | null };
  scopes: ApiKeyScope[];
  /** The member who made the key (its requests act as them); a key from before teams: the account itself. */
  createdBy: string;
}

/**
 * What a start with BOOTSTRAP_ADMIN_API_KEY did: the admin is ready (and older bootstrap keys are revoked), or the
 * configured key was replaced by a newer value and stays revoked.
 */
export type BootstrapOutcome =
  | { kind: 'ready'; user: User; revokedKeyIds: string[] }
  | { kind: 'revoked'; userId: string };

// Any constant works; it only has to be the same in every process that starts (migrate.ts uses 4_210_402).
const BOOTSTRAP_LOCK_ID = 4_210_403;

const KEY_COLUMNS =
  'id, name, key_prefix, created_at, last_used_at, revoked_at, rate_limit_tier, requests_per_minute, scopes, ' +
  'coalesce(created_by, user_id) AS created_by';

export class ApiKeyLimitReachedError extends AppError {
  constructor(readonly maxActive: number) {
    super(
      IDENTITY_ERRORS.API_KEY_LIMIT_REACHED,
      `This account already holds ${maxActive} active API keys, the most it may hold; revoke one to create another`,
    );
  }
}

export function createUserStore(pool: Pool) {
  return {
    /**
     * Active account of a non-revoked key, acting as the member who made it, or null. The member must still be an
     * active member of the account and an active person: a member removed from the team, or deleted, takes the keys
     * they made with them (one query, as before teams). Also stamps last_used_at, at most once a minute: a
     * write on every request would cost more than the lookup (market data clients poll many times a minute).
     */
    async findByApiKey(key: string): Promise<User | null> {
      const { rows } = await pool.query<
        UserRow &
          MemberRow & {
            key_id: string;
            rate_limit_tier: RateLimitTier;
            requests_per_minute: number | null;
            scopes: ApiKeyScope[];
          }
      >({
        name: 'find-by-api-key',
        text:
          `WITH found AS (
                 SELECT u.id, u.clerk_user_id, u.email, u.role, u.status, u.kind, k.id AS key_id, k.rate_limit_tier, ` +
          `k.requests_per_minute, k.scopes, k.last_used_at,
                   m.member_id, m.role AS member_role, p.email AS member_email, p.display_name AS member_name
                 FROM api_keys k JOIN users u ON u.id = k.user_id
                 JOIN account_members m ON m.account_id = k.user_id AND m.member_id = coalesce(k.created_by, k.user_id)
                 JOIN users p ON p.id = m.member_id
                 WHERE k.key_hash = $1 AND k.revoked_at IS NULL AND u.status = 'active' AND m.status = 'active'
                   AND p.status = 'active'
               ), touched AS (
                 UPDATE api_keys SET last_used_at = now()
                 WHERE id IN (SELECT key_id FROM found WHERE last_used_at ` +
          `IS NULL OR last_used_at < now() - interval '1 minute')
               )
               SELECT id, clerk_user_id, email, role, status, kind, key_id, rate_limit_tier, requests_per_minute, ` +
          `scopes, member_id, member_role, member_email, member_name
               FROM found`,
        values: [hashApiKey(key)],
      });
      const row = rows[0];
      if (!row) return null;
      return {
        ...toUser(row),
        member: toMember(row),
        apiKey: {
          id: row.key_id,
          rateLimitTier: row.rate_limit_tier,
          requestsPerMinute: row.requests_per_minute,
          scopes: row.scopes,
        },
      };
    },

    /**
     * Admin: sets a key's market-data tier (enterprise carries its own requests per minute); null for an unknown key.
     */
    async setApiKeyRateLimit(
      keyId: string,
      tier: RateLimitTier,
      requestsPerMinute: number | null,
    ): Promise<ApiKeyRecord | null> {
      if (!isUuid(keyId)) return null;
      const { rows } = await pool.query(
        `UPDATE api_keys SET rate_limit_tier = $2, requests_per_minute = $3 WHERE id = $1
         RETURNING ${KEY_COLUMNS}`,
        [keyId, tier, tier === 'enterprise' ? requestsPerMinute : null],
      );
      return rows[0] ? toKeyRecord(rows[0]) : null;
    },

    /**
     * A session in the person's own account: first sight of a Clerk user through a verified session creates it; a
     * deactivated user stays deactivated. The person acts as the admin of their own account (its membership row,
     * which the users_own_membership trigger writes with the row), and it becomes their active account again
     * (active_account_id NULL) in the same write.
     */
    async provisionClerkUser(clerkUserId: string, email: string | null): Promise<User> {
      const { rows } = await pool.query<UserRow & MemberRow>(
        `WITH person AS (
           INSERT INTO users (clerk_user_id, email) VALUES ($1, $2)
           ON CONFLICT (clerk_user_id) DO UPDATE SET email = coalesce(users.email, EXCLUDED.email), ` +
          `active_account_id = NULL
           RETURNING ${USER_COLUMNS}, display_name
         )
         -- A new row's membership is written by its trigger, after this statement's snapshot: it is the admin one.
         SELECT person.*, person.id AS member_id, coalesce(m.role, 'admin') AS member_role,
           person.email AS member_email, person.display_name AS member_name
         FROM person LEFT JOIN account_members m ON m.account_id = person.id AND m.member_id = person.id`,
        [clerkUserId, email],
      );
      const row = rows[0] as UserRow & MemberRow;
      return { ...toUser(row), member: toMember(row) };
    },

    /**
     * A session acting in a Clerk organization (the token's org claim): the organization's account with the person
     * as its member, or null when the person, the organization or the membership is not active (see
     * session-accounts.ts).
     */
    async provisionOrgSession(session: {
      clerkUserId: string;
      email: string | null;
      org: OrgClaim;
    }): Promise<User | null> {
      return provisionOrgSession(pool, session);
    },

    /**
     * Creates or updates a user from a Clerk event. Guarded by the event time (clerk_synced_at), so a
     * late, older delivery changes nothing; a deleted user is never brought back. Returns the row's id
     * and whether this event changed it.
     */
    async applyClerkProfile(
      client: PoolClient,
      p: { clerkUserId: string; email: string | null; displayName: string | null; at: string },
    ): Promise<{ userId: string; changed: boolean }> {
      const { rows } = await client.query<{ id: string; changed: boolean }>(
        `INSERT INTO users (clerk_user_id, email, display_name, clerk_synced_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT (clerk_user_id) DO UPDATE SET email = EXCLUDED.email, display_name = EXCLUDED.display_name,
           clerk_synced_at = EXCLUDED.clerk_synced_at, updated_at = now()
         WHERE users.deleted_at IS NULL AND (users.clerk_synced_at IS NULL OR users.clerk_synced_at < ` +
          `EXCLUDED.clerk_synced_at)
         RETURNING id, true AS changed`,
        [p.clerkUserId, p.email, p.displayName, p.at],
      );
      if (rows[0]) return { userId: rows[0].id, changed: true };
      const existing = await client.query<{ id: string }>('SELECT id FROM users WHERE clerk_user_id = $1', [
        p.clerkUserId,
      ]);
      return { userId: (existing.rows[0] as { id: string }).id, changed: false };
    },

    /**
     * Deactivates a deleted Clerk user (created deactivated if unseen) and revokes its keys: they stop working at once.
     */
    async deactivateClerkUser(
      client: PoolClient,
      p: { clerkUserId: string; at: string },
    ): Promise<{ userId: string; changed: boolean }> {
      const before = await client.query<{ status: string }>(
        'SELECT status FROM users WHERE clerk_user_id = $1 FOR UPDATE',
        [p.clerkUserId],
      );
      const { rows } = await client.query<{ id: string }>(
        `INSERT INTO users (clerk_user_id, status, deleted_at, clerk_synced_at) VALUES ($1, 'deactivated', $2, $2)
         ON CONFLICT (clerk_user_id) DO UPDATE SET status = 'deactivated', ` +
          `deleted_at = coalesce(users.deleted_at, EXCLUDED.deleted_at),
           clerk_synced_at = greatest(users.clerk_synced_at, EXCLUDED.clerk_synced_at), updated_at = now()
         RETURNING id`,
        [p.clerkUserId, p.at],
      );
      const userId = (rows[0] as { id: string }).id;
      // Its own account's keys, and the keys it made on the teams it belonged to.
      await client.query(
        'UPDATE api_keys SET revoked_at = now() WHERE (user_id = $1 OR created_by = $1) AND revoked_at IS NULL',
        [userId],
      );
      return { userId, changed: before.rows[0]?.status !== 'deactivated' };
    },

    /**
     * The account a payment naming this user (an internal UUID or a Clerk user id) credits: the account the person
     * last acted in with a session (active_account_id) while they are still an active member of it and it is active,
     * else the named account itself. Null for a name nobody has.
     */
    async paymentAccountOf(userId: string, db: Pool | PoolClient = pool): Promise<User | null> {
      const { rows } = await db.query<UserRow>(
        `SELECT a.id, a.clerk_user_id, a.email, a.role, a.status, a.kind
         FROM users p
         LEFT JOIN account_members m
           ON m.account_id = p.active_account_id AND m.member_id = p.id AND m.status = 'active'
         LEFT JOIN users o ON o.id = m.account_id AND o.status = 'active'
         JOIN users a ON a.id = coalesce(o.id, p.id)
         WHERE ${isUuid(userId) ? 'p.id = $1' : 'p.clerk_user_id = $1'}`,
        [userId],
      );
      return rows[0] ? toUser(rows[0]) : null;
    },

    /** Whether the person is or was a member of the account (a subscription they attached to it stays its own). */
    async wasMemberOf(accountId: string, personId: string, db: Pool | PoolClient = pool): Promise<boolean> {
      const { rows } = await db.query('SELECT 1 FROM account_members WHERE account_id = $1 AND member_id = $2', [
        accountId,
        personId,
      ]);
      return rows.length > 0;
    },

    /**
     * Accepts an internal UUID or a Clerk user id. `db`: the caller's transaction, when it holds one (a second
     * connection asked for inside a transaction deadlocks the pool once every connection is such a transaction).
     */
    async findByAnyId(userId: string, db: Pool | PoolClient = pool): Promise<User | null> {
      const { rows } = await db.query<UserRow>(
        isUuid(userId)
          ? `SELECT ${USER_COLUMNS} FROM users WHERE id = $1`
          : `SELECT ${USER_COLUMNS} FROM users WHERE clerk_user_id = $1`,
        [userId],
      );
      return rows[0] ? toUser(rows[0]) : null;
    },

    /**
     * Makes sure an admin holds the BOOTSTRAP_ADMIN_API_KEY key and that it is the only active bootstrap key. A new
     * value's key joins the previous bootstrap admin (its history entries and credits stay) and the keys made from
     * earlier values are revoked in the same transaction. A revoked bootstrap key is never reinstated: an instance
     * still configured with a replaced value must not undo the rotation, so that start changes nothing. Idempotent;
     * concurrent starts (api and worker processes) take turns on an advisory lock.
     */
    async ensureBootstrapAdmin(key: string): Promise<BootstrapOutcome> {
      return inTransaction(pool, async (client) => {
        await client.query('SELECT pg_advisory_xact_lock($1)', [BOOTSTRAP_LOCK_ID]);
        const keyHash = hashApiKey(key);
        const existing = await client.query<{ user_id: string; revoked: boolean }>(
          'SELECT user_id, revoked_at IS NOT NULL AS revoked FROM api_keys WHERE key_hash = $1',
          [keyHash],
        );
        const found = existing.rows[0];
        if (found?.revoked) return { kind: 'revoked', userId: found.user_id };

        const previous = await client.query<{ user_id: string }>(
          'SELECT user_id FROM api_keys WHERE bootstrap ORDER BY created_at DESC LIMIT 1',
        );
        const userId = found?.user_id ?? previous.rows[0]?.user_id;
        const user = userId
          ? await client.query<UserRow>(
              `UPDATE users SET role = 'admin', status = 'active', updated_at = now() WHERE id = $1
               RETURNING ${USER_COLUMNS}`,
              [userId],
            )
          : await client.query<UserRow>(
              `INSERT INTO users (role, display_name) VALUES ('admin', 'bootstrap admin')
               RETURNING ${USER_COLUMNS}`,
            );
        const admin = toUser(user.rows[0] as UserRow);
        await client.query(
          `INSERT INTO api_keys (user_id, name, key_hash, key_prefix, bootstrap) VALUES ($1, 'bootstrap', $2, $3, true)
           ON CONFLICT (key_hash) DO UPDATE SET bootstrap = true`,
          [admin.id, keyHash, displayPrefix(key)],
        );
        const revoked = await client.query<{ id: string }>(
          `UPDATE api_keys SET revoked_at = now() WHERE bootstrap AND revoked_at IS NULL AND key_hash <> $1
           RETURNING id`,
          [keyHash],
        );
        return { kind: 'ready', user: admin, revokedKeyIds: revoked.rows.map((r) => r.id) };
      });
    },

    /**
     * Creates a key with `scopes` (default: all). With `maxActive`, the account may hold at most that many active
     * keys: the count and the insert run in one transaction that holds the account's row, so concurrent creates take
     * turns and the one past the cap sees every key committed before it (ApiKeyLimitReachedError).
     */
    async createApiKey(
      userId: string,
      name: string,
      key: string,
      options: { scopes?: readonly ApiKeyScope[]; maxActive?: number; createdBy?: string } = {},
    ): Promise<ApiKeyRecord> {
      return inTransaction(pool, async (client) => {
        if (options.maxActive !== undefined) {
          // NO KEY UPDATE: creates of the same account wait for each other, while writes of rows that merely
          // reference the user (jobs, ledger entries: KEY SHARE) do not wait for a create.
          await client.query('SELECT 1 FROM users WHERE id = $1 FOR NO KEY UPDATE', [userId]);
          const { rows } = await client.query<{ active: number }>(
            'SELECT count(*)::int AS active FROM api_keys WHERE user_id = $1 AND revoked_at IS NULL',
            [userId],
          );
          if ((rows[0]?.active ?? 0) >= options.maxActive) throw new ApiKeyLimitReachedError(options.maxActive);
        }
        const { rows } = await client.query(
          `INSERT INTO api_keys (user_id, name, key_hash, key_prefix, scopes, created_by)
           VALUES ($1, $2, $3, $4, $5, $6)
           RETURNING ${KEY_COLUMNS}`,
          [
            userId,
            name,
            hashApiKey(key),
            displayPrefix(key),
            normalizeScopes(options.scopes ?? API_KEY_SCOPES),
            options.createdBy ?? userId,
          ],
        );
        return toKeyRecord(rows[0]);
      });
    },

    async listApiKeys(userId: string): Promise<ApiKeyRecord[]> {
      const { rows } = await pool.query(
        `SELECT ${KEY_COLUMNS} FROM api_keys
         WHERE user_id = $1 ORDER BY created_at DESC`,
        [userId],
      );
      return rows.map(toKeyRecord);
    },

    /**
     * Revokes the account's key; null when it is not the account's (or unknown), so others' key ids are not disclosed.
     */
    async revokeApiKey(
      userId: string,
      keyId: string,
      /** A member who is not a team admin revokes only the keys they made: another's is `not_theirs`. */
      onlyMadeBy?: string,
    ): Promise<ApiKeyRecord | null | 'not_theirs'> {
      if (!isUuid(keyId)) return null;
      const { rows } = await pool.query(
        `UPDATE api_keys SET revoked_at = coalesce(revoked_at, now())
         WHERE id = $1 AND user_id = $2 AND ($3::uuid IS NULL OR coalesce(created_by, user_id) = $3)
         RETURNING ${KEY_COLUMNS}`,
        [keyId, userId, onlyMadeBy ?? null],
      );
      if (rows[0]) return toKeyRecord(rows[0]);
      if (!onlyMadeBy) return null;
      const other = await pool.query('SELECT 1 FROM api_keys WHERE id = $1 AND user_id = $2', [keyId, userId]);
      return other.rows.length > 0 ? 'not_theirs' : null;
    },
  };
}

export type UserStore = ReturnType<typeof createUserStore>;

function iso(v: unknown): string | null {
  return v instanceof Date ? v.toISOString() : null;
}

function toKeyRecord(r: Record<string, unknown>): ApiKeyRecord {
  return {
    id: String(r.id),
    name: String(r.name),
    prefix: String(r.key_prefix),
    createdAt: iso(r.created_at) ?? '',
    lastUsedAt: iso(r.last_used_at),
    revokedAt: iso(r.revoked_at),
    rateLimit: {
      tier: r.rate_limit_tier as RateLimitTier,
      requestsPerMinute: (r.requests_per_minute as number | null) ?? null,
    },
    scopes: r.scopes as ApiKeyScope[],
    createdBy: String(r.created_by),
  };
}
