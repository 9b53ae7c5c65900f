import type { Pool, PoolClient } from 'pg';
import { inTransaction } from '../platform/db/transaction';
import type { ClusterLink, LinkHeuristic } from './domain/cluster-link';
import { planMerges } from './domain/merge-plan';

/** A stored cluster as callers see it (migration 032). */
export interface Cluster {
  id: number;
  chain: string;
  /** Its member count. */
  size: number;
  /** True while a member's transactions were never read, or read only in part: the cluster may be larger. */
  partial: boolean;
  /** Some members in address order, only when asked for (`members` option). */
  members?: string[];
}

/** One piece of evidence kept: the link that joined two clusters. */
export interface StoredLink extends ClusterLink {
  createdAt: Date;
}

/** One step of the path between two members: the link, oriented from the side nearer the first address. */
export interface ExplainStep {
  from: string;
  to: string;
  heuristic: LinkHeuristic;
  txid: string;
  createdAt: Date;
}

/**
 * The live id of the cluster id in parameter `p`, following merged_into. The store keeps pointers one hop from a
 * live cluster; the bound only guards against a loop written by hand.
 */
const liveId = (p: string) => `(WITH RECURSIVE up (id, merged_into, hops) AS (
    SELECT id, merged_into, 0 FROM clusters WHERE id = ${p}::bigint
    UNION ALL SELECT c.id, c.merged_into, up.hops + 1 FROM clusters c JOIN up ON c.id = up.merged_into
      WHERE up.hops < 64
  ) SELECT id FROM up WHERE merged_into IS NULL)`;

const INCOMPLETE = '(m.expanded_at IS NULL OR m.history_truncated)';

/**
 * Writers of one chain's clusters take this lock first, so two expansions of the same cluster cannot interleave
 * their read-plan-write (each sees the other's merges whole). Chains do not wait for each other.
 */
const lockChain = (client: PoolClient, chain: string) =>
  client.query(`SELECT pg_advisory_xact_lock(hashtext('clusters:' || $1))`, [chain]);

/** `n` fresh cluster ids, taken before the rows are written so each component knows its id up front. */
async function newClusterIds(client: PoolClient, n: number): Promise<number[]> {
  if (n === 0) return [];
  const { rows } = await client.query<{ id: number }>(
    `SELECT nextval(pg_get_serial_sequence('clusters', 'id')) AS id FROM generate_series(1, $1)`,
    [n],
  );
  return rows.map((r) => r.id);
}

/** Singleton clusters for addresses that have no row yet (caller holds the chain's lock). */
async function insertSingletons(client: PoolClient, chain: string, addresses: string[]): Promise<void> {
  const ids = await newClusterIds(client, addresses.length);
  if (ids.length === 0) return;
  await client.query(`INSERT INTO clusters (id, chain, size) SELECT id, $1, 1 FROM unnest($2::bigint[]) AS v(id)`, [
    chain,
    ids,
  ]);
  await client.query(
    `INSERT INTO cluster_addresses (chain, address, cluster_id)
     SELECT $1, v.address, v.id FROM unnest($2::text[], $3::bigint[]) AS v(address, id)`,
    [chain, addresses, ids],
  );
}

/**
 * Wallet clusters in Postgres: an incremental union-find (applyLinks), the evidence of each merge, and the reads
 * analyses and explanations make. Cluster ids are global; `chain` keeps one chain's addresses apart from another's.
 */
export function createClusterStore(pool: Pool) {
  /** Up to `limit` members of the cluster (an absorbed id is followed to its survivor), in address order. */
  async function members(chain: string, clusterId: number, limit: number): Promise<string[]> {
    const { rows } = await pool.query<{ address: string }>(
      `SELECT address FROM cluster_addresses WHERE chain = $1 AND cluster_id = ${liveId('$2')}
       ORDER BY address LIMIT $3`,
      [chain, clusterId, limit],
    );
    return rows.map((r) => r.address);
  }

  return {
    /**
     * Applies a batch of links in ONE transaction under the chain's lock: every address gets a row (a singleton
     * cluster when new); each link whose ends are in different clusters merges them (the smaller cluster's
     * addresses are relabelled to the larger's id, the loser points at the survivor, sizes add up) and is kept as
     * evidence; a link whose ends are already together is dropped. The batch is planned in memory first
     * (merge-plan.ts) and written with a fixed number of set-based statements, whatever its size.
     * Answers the number of merges and the live ids of the clusters the batch's addresses are in.
     */
    async applyLinks(chain: string, links: readonly ClusterLink[]): Promise<{ merged: number; clusterIds: number[] }> {
      const usable = links.filter((l) => l.a !== l.b);
      if (usable.length === 0) return { merged: 0, clusterIds: [] };
      const addresses = [...new Set(usable.flatMap((l) => [l.a, l.b]))];
      return inTransaction(pool, async (client) => {
        await lockChain(client, chain);
        const { rows } = await client.query<{ address: string; cluster_id: number; size: number }>(
          `SELECT a.address, a.cluster_id, c.size FROM cluster_addresses a JOIN clusters c ON c.id = a.cluster_id
           WHERE a.chain = $1 AND a.address = ANY($2::text[])`,
          [chain, addresses],
        );
        const plan = planMerges(
          usable,
          new Map(rows.map((r) => [r.address, { clusterId: r.cluster_id, size: r.size }])),
        );
        const ids = await newClusterIds(client, plan.created.length);
        const created = plan.created.map((c, i) => ({ ...c, id: ids[i]! }));

        if (created.length > 0) {
          await client.query(
            `INSERT INTO clusters (id, chain, size)
             SELECT v.id, $1, v.size FROM unnest($2::bigint[], $3::int[]) AS v(id, size)`,
            [chain, created.map((c) => c.id), created.map((c) => c.size)],
          );
        }
        if (plan.grown.length > 0) {
          await client.query(
            `UPDATE clusters c SET size = v.size, updated_at = now()
             FROM unnest($1::bigint[], $2::int[]) AS v(id, size) WHERE c.id = v.id`,
            [plan.grown.map((g) => g.id), plan.grown.map((g) => g.size)],
          );
        }
        if (plan.absorbed.length > 0) {
          const losers = plan.absorbed.map((m) => m.loser);
          const survivors = plan.absorbed.map((m) => m.survivor);
          // The loser, and every cluster it had absorbed before, now point straight at the survivor.
          await client.query(
            `UPDATE clusters c SET merged_into = v.survivor, updated_at = now()
             FROM unnest($1::bigint[], $2::bigint[]) AS v(loser, survivor)
             WHERE c.id = v.loser OR c.merged_into = v.loser`,
            [losers, survivors],
          );
          await client.query(
            `UPDATE cluster_addresses a SET cluster_id = v.survivor
             FROM unnest($2::bigint[], $3::bigint[]) AS v(loser, survivor)
             WHERE a.chain = $1 AND a.cluster_id = v.loser`,
            [chain, losers, survivors],
          );
        }
        const newcomers = [
          ...plan.joined.map((j) => ({ address: j.address, id: j.clusterId })),
          ...created.flatMap((c) => c.addresses.map((address) => ({ address, id: c.id }))),
        ];
        if (newcomers.length > 0) {
          await client.query(
            `INSERT INTO cluster_addresses (chain, address, cluster_id)
             SELECT $1, v.address, v.id FROM unnest($2::text[], $3::bigint[]) AS v(address, id)`,
            [chain, newcomers.map((n) => n.address), newcomers.map((n) => n.id)],
          );
        }
        if (plan.evidence.length > 0) {
          await client.query(
            `INSERT INTO cluster_links (chain, address_a, address_b, heuristic, txid)
             SELECT $1, v.a, v.b, v.heuristic, v.txid FROM unnest($2::text[], $3::text[], $4::text[], $5::text[])
               WITH ORDINALITY AS v(a, b, heuristic, txid, n) ORDER BY v.n`,
            [
              chain,
              plan.evidence.map((l) => l.a),
              plan.evidence.map((l) => l.b),
              plan.evidence.map((l) => l.heuristic),
              plan.evidence.map((l) => l.txid),
            ],
          );
        }
        return {
          merged: plan.evidence.length,
          clusterIds: [...new Set([...plan.survivorIds, ...created.map((c) => c.id)])],
        };
      });
    },

    /**
     * The cluster `address` is in, or null when it is in none stored (callers treat it as a singleton of size 1).
     * With `members`, up to that many members in address order.
     */
    async clusterOf(chain: string, address: string, options: { members?: number } = {}): Promise<Cluster | null> {
      const { rows } = await pool.query<{ id: number; chain: string; size: number; partial: boolean }>(
        `SELECT c.id, c.chain, c.size,
           EXISTS (SELECT 1 FROM cluster_addresses m WHERE m.cluster_id = c.id AND ${INCOMPLETE}) AS partial
         FROM cluster_addresses a JOIN clusters c ON c.id = a.cluster_id
         WHERE a.chain = $1 AND a.address = $2`,
        [chain, address],
      );
      const row = rows[0];
      if (!row) return null;
      const cluster: Cluster = { id: row.id, chain: row.chain, size: row.size, partial: row.partial };
      if (options.members !== undefined) cluster.members = await members(chain, row.id, options.members);
      return cluster;
    },

    /**
     * The clusters of more than one address that these addresses belong to, in one query (plus one members read per
     * distinct cluster): what every lookup of a screening asks, so an address alone costs no more than its index probe.
     */
    async clustersOf(
      chain: string,
      addresses: readonly string[],
      options: { members: number },
    ): Promise<Map<string, Cluster & { members: string[] }>> {
      const out = new Map<string, Cluster & { members: string[] }>();
      if (addresses.length === 0) return out;
      const { rows } = await pool.query<{ address: string; id: number; chain: string; size: number; partial: boolean }>(
        `SELECT a.address, c.id, c.chain, c.size,
           EXISTS (SELECT 1 FROM cluster_addresses m WHERE m.cluster_id = c.id AND ${INCOMPLETE}) AS partial
         FROM cluster_addresses a JOIN clusters c ON c.id = a.cluster_id
         WHERE a.chain = $1 AND a.address = ANY($2::text[]) AND c.size > 1`,
        [chain, [...new Set(addresses)]],
      );
      const read = new Map<number, Promise<string[]>>();
      for (const r of rows) {
        if (!read.has(r.id)) read.set(r.id, members(chain, r.id, options.members));
        out.set(r.address, {
          id: r.id,
          chain: r.chain,
          size: r.size,
          partial: r.partial,
          members: await read.get(r.id)!,
        });
      }
      return out;
    },

    /** The live id of a cluster id, following merges (an id from an earlier answer); null for an unknown id. */
    async resolveId(id: number): Promise<number | null> {
      const { rows } = await pool.query<{ id: number | null }>(`SELECT ${liveId('$1')} AS id`, [id]);
      return rows[0]?.id ?? null;
    },

    members,

    /**
     * Up to `limit` of the links that built the cluster, in merge order (oldest first): read in order they replay
     * how the cluster grew, and the first ones are the core a large cluster started from.
     */
    async links(chain: string, clusterId: number, limit: number): Promise<StoredLink[]> {
      const { rows } = await pool.query(
        `SELECT l.address_a, l.address_b, l.heuristic, l.txid, l.created_at
         FROM cluster_links l JOIN cluster_addresses m ON m.chain = l.chain AND m.address = l.address_a
         WHERE l.chain = $1 AND m.cluster_id = ${liveId('$2')} ORDER BY l.id LIMIT $3`,
        [chain, clusterId, limit],
      );
      return rows.map((r) => ({
        a: r.address_a,
        b: r.address_b,
        heuristic: r.heuristic,
        txid: r.txid,
        createdAt: r.created_at,
      }));
    },

    /**
     * Why `a` and `b` are in one cluster: the links on the path from a to b, in order, or null when they are not in
     * one cluster ([] when a is b and stored). The links of a cluster form a tree, so the path is unique. A
     * breadth-first search from a, one statement per hop, stopping when it reaches b.
     */
    async explain(chain: string, a: string, b: string): Promise<ExplainStep[] | null> {
      const { rows } = await pool.query<{ address: string; cluster_id: number }>(
        'SELECT address, cluster_id FROM cluster_addresses WHERE chain = $1 AND address = ANY($2::text[])',
        [chain, [a, b]],
      );
      const ids = new Map(rows.map((r) => [r.address, r.cluster_id]));
      if (!ids.has(a) || ids.get(a) !== ids.get(b)) return null;
      if (a === b) return [];
      const reachedBy = new Map<string, ExplainStep>();
      const visited = new Set([a]);
      let frontier = [a];
      while (frontier.length > 0 && !visited.has(b)) {
        const level = new Set(frontier);
        const links = await pool.query(
          `SELECT address_a, address_b, heuristic, txid, created_at FROM cluster_links
           WHERE chain = $1 AND (address_a = ANY($2::text[]) OR address_b = ANY($2::text[]))`,
          [chain, frontier],
        );
        const next: string[] = [];
        for (const r of links.rows) {
          for (const [from, to] of [
            [r.address_a, r.address_b],
            [r.address_b, r.address_a],
          ] as const) {
            if (!level.has(from) || visited.has(to)) continue;
            visited.add(to);
            reachedBy.set(to, { from, to, heuristic: r.heuristic, txid: r.txid, createdAt: r.created_at });
            next.push(to);
          }
        }
        frontier = next;
      }
      if (!visited.has(b)) return null;
      const path: ExplainStep[] = [];
      for (let at = b; at !== a; ) {
        const step = reachedBy.get(at)!;
        path.push(step);
        at = step.from;
      }
      return path.reverse();
    },

    /**
     * Records that these addresses' own transactions were read for links (`truncated`: only in part). An address with
     * no row gets a singleton cluster first, so a later expansion knows it was read.
     */
    async markExpanded(chain: string, addresses: readonly string[], truncated: boolean): Promise<void> {
      const wanted = [...new Set(addresses)];
      if (wanted.length === 0) return;
      // Under the chain's lock too: an unlocked multi-row update could deadlock with a merge relabelling the same
      // rows in another order.
      await inTransaction(pool, async (client) => {
        await lockChain(client, chain);
        const { rows } = await client.query<{ address: string }>(
          'SELECT address FROM cluster_addresses WHERE chain = $1 AND address = ANY($2::text[])',
          [chain, wanted],
        );
        const present = new Set(rows.map((r) => r.address));
        await insertSingletons(
          client,
          chain,
          wanted.filter((a) => !present.has(a)),
        );
        await client.query(
          `UPDATE cluster_addresses SET expanded_at = now(), history_truncated = $3
           WHERE chain = $1 AND address = ANY($2::text[])`,
          [chain, wanted, truncated],
        );
      });
    },

    /** Up to `limit` members whose transactions were never read, in address order: what an expansion reads next. */
    async unexpanded(chain: string, clusterId: number, limit: number): Promise<string[]> {
      const { rows } = await pool.query<{ address: string }>(
        `SELECT address FROM cluster_addresses m
         WHERE chain = $1 AND cluster_id = ${liveId('$2')} AND m.expanded_at IS NULL ORDER BY address LIMIT $3`,
        [chain, clusterId, limit],
      );
      return rows.map((r) => r.address);
    },

    /**
     * Those of `addresses` whose transactions were never read (no row, or a row not yet expanded), in the given order;
     * with `staleAfterMs`, also those read longer ago than that (their address may have spent since).
     */
    async notExpanded(chain: string, addresses: readonly string[], staleAfterMs?: number): Promise<string[]> {
      if (addresses.length === 0) return [];
      const { rows } = await pool.query<{ address: string }>(
        `SELECT address FROM cluster_addresses
         WHERE chain = $1 AND address = ANY($2::text[]) AND expanded_at IS NOT NULL
           AND ($3::bigint IS NULL OR expanded_at > now() - make_interval(secs => $3::bigint / 1000.0))`,
        [chain, [...new Set(addresses)], staleAfterMs ?? null],
      );
      const read = new Set(rows.map((r) => r.address));
      return [...new Set(addresses)].filter((a) => !read.has(a));
    },
  };
}

export type ClusterStore = ReturnType<typeof createClusterStore>;
