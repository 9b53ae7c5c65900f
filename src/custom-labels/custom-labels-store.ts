import { randomUUID } from 'node:crypto';
import type { Pool } from 'pg';
import { inTransaction } from '../platform/db/transaction';
import { CustomLabelLimitReachedError } from './errors';

/** One label of the account's own list (migration 031). */
export interface CustomLabel {
  id: string;
  userId: string;
  chain: string;
  address: string;
  /** A category of data/risk/risk_categories.json, or `allow`. */
  category: string;
  name: string | null;
  note: string | null;
  createdAt: Date;
}

const COLUMNS = 'id, user_id, chain, address, category, name, note, created_at';

// biome-ignore lint/suspicious/noExplicitAny: a pg row
const toLabel = (r: any): CustomLabel => ({
  id: r.id,
  userId: r.user_id,
  chain: r.chain,
  address: r.address,
  category: r.category,
  name: r.name,
  note: r.note,
  createdAt: r.created_at,
});

/** The account's own labels: what the routes write and read, and what a screening of that account looks up. */
export function createCustomLabelStore(pool: Pool) {
  return {
    /**
     * Stores a label, or answers the account's existing label of the same (chain, address, category) (`existing`),
     * in ONE transaction serialised per account (a transaction-scoped advisory lock keyed by the user), so concurrent
     * creates are counted one after another against `maxPerAccount` (CustomLabelLimitReachedError past it).
     */
    async create(
      label: {
        userId: string;
        chain: string;
        address: string;
        category: string;
        name: string | null;
        note: string | null;
      },
      maxPerAccount: number,
    ): Promise<{ kind: 'created' | 'existing'; label: CustomLabel }> {
      return inTransaction(pool, async (client) => {
        await client.query(`SELECT pg_advisory_xact_lock(hashtext('custom-labels:' || $1))`, [label.userId]);
        const twin = await client.query(
          `SELECT ${COLUMNS} FROM custom_labels WHERE user_id = $1 AND chain = $2 AND address = $3 AND category = $4`,
          [label.userId, label.chain, label.address, label.category],
        );
        if (twin.rows[0]) return { kind: 'existing' as const, label: toLabel(twin.rows[0]) };
        const { rows } = await client.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM custom_labels WHERE user_id = $1',
          [label.userId],
        );
        if ((rows[0]?.n ?? 0) >= maxPerAccount) throw new CustomLabelLimitReachedError(maxPerAccount);
        const inserted = await client.query(
          `INSERT INTO custom_labels (id, user_id, chain, address, category, name, note)
           VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING ${COLUMNS}`,
          [randomUUID(), label.userId, label.chain, label.address, label.category, label.name, label.note],
        );
        return { kind: 'created' as const, label: toLabel(inserted.rows[0]) };
      });
    },

    /** A page of the account's labels, newest first, optionally of one chain and/or one (normalised) address. */
    async listForUser(
      userId: string,
      page: { limit: number; offset: number; chain?: string; address?: string },
    ): Promise<{ labels: CustomLabel[]; total: number }> {
      const where = ['user_id = $1'];
      const params: unknown[] = [userId];
      if (page.chain !== undefined) {
        params.push(page.chain);
        where.push(`chain = $${params.length}`);
      }
      if (page.address !== undefined) {
        params.push(page.address);
        where.push(`address = $${params.length}`);
      }
      const [rows, total] = await Promise.all([
        pool.query(
          `SELECT ${COLUMNS} FROM custom_labels WHERE ${where.join(' AND ')}
           ORDER BY created_at DESC, id LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
          [...params, page.limit, page.offset],
        ),
        pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM custom_labels WHERE ${where.join(' AND ')}`, params),
      ]);
      return { labels: rows.rows.map(toLabel), total: total.rows[0]?.n ?? 0 };
    },

    /** Deletes one of the account's labels; false when the id is not one of its labels. */
    async delete(userId: string, id: string): Promise<boolean> {
      const { rowCount } = await pool.query('DELETE FROM custom_labels WHERE id = $1 AND user_id = $2', [id, userId]);
      return (rowCount ?? 0) > 0;
    },

    /**
     * The account's labels of these addresses on this chain (the screening engine's CustomLabelLookup port): what a
     * screening of that account reads beside the reference data.
     */
    async lookup(
      userId: string,
      chain: string,
      addresses: readonly string[],
    ): Promise<Map<string, { id: string; category: string; name: string | null }[]>> {
      const result = new Map<string, { id: string; category: string; name: string | null }[]>();
      if (addresses.length === 0) return result;
      const { rows } = await pool.query(
        `SELECT id, address, category, name FROM custom_labels
         WHERE user_id = $1 AND chain = $2 AND address = ANY($3) ORDER BY created_at, id`,
        [userId, chain, [...new Set(addresses)]],
      );
      for (const r of rows) {
        const list = result.get(r.address) ?? [];
        list.push({ id: r.id, category: r.category, name: r.name });
        result.set(r.address, list);
      }
      return result;
    },
  };
}

export type CustomLabelStore = ReturnType<typeof createCustomLabelStore>;
