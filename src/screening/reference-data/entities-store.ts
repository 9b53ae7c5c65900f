import type { Pool } from 'pg';

export interface EntityProfile {
  entity_id: string;
  name: string;
  aliases: string[];
  type: string | null;
  status: string[];
  risk: string | null;
  countries: string[];
  websites: string[];
  regulators: string[];
  licences: string[];
  services: string[];
  sanctions: {
    programs: string[];
    sdn_uids: string[];
    designated: string | null;
    addresses_by_chain: Record<string, number>;
  };
  known_addresses_by_chain: Record<string, number>;
  sources: string[];
  notes: string | null;
  match: { query: string; matched: string; score: number };
}

/** How close a name must be (pg_trgm similarity, 0-1) to count as the entity asked for. */
export const ENTITY_MATCH_THRESHOLD = 0.45;

const list = (v: unknown): string[] =>
  typeof v === 'string' && v.trim()
    ? v
        .split(';')
        .map((s) => s.trim())
        .filter(Boolean)
    : [];

/** The VASP and entity directory (data/risk/entities_vasp.csv, in ref_entities) with fuzzy name and alias search. */
export function createEntityStore(pool: Pool) {
  return {
    /** The best match by name or alias (trigram similarity, exact match = 1), or null below the threshold. */
    async findBestMatch(query: string): Promise<EntityProfile | null> {
      const q = query.trim().toLowerCase();
      const { rows } = await pool.query(
        `SELECT e.*, m.matched, m.score FROM ref_entities e
         CROSS JOIN LATERAL (
           SELECT c.candidate AS matched, greatest(similarity(lower(c.candidate), $1), ` +
          `CASE WHEN lower(c.candidate) = $1 THEN 1 ELSE 0 END) AS score
           FROM unnest(array_prepend(e.name, string_to_array(coalesce(e.aliases, ''), ';'))) AS c(candidate)
           WHERE c.candidate <> '' ORDER BY 2 DESC LIMIT 1) m
         WHERE lower(e.name) % $1 OR lower(coalesce(e.aliases, '')) % $1 OR lower(e.name) = $1 OR m.score >= $2
         ORDER BY m.score DESC, e.entity_id LIMIT 1`,
        [q, ENTITY_MATCH_THRESHOLD],
      );
      const e = rows[0];
      if (!e || Number(e.score) < ENTITY_MATCH_THRESHOLD) return null;
      const uids = list(e.licence_id)
        .filter((l) => l.startsWith('OFAC-SDN-UID:'))
        .map((l) => l.slice('OFAC-SDN-UID:'.length));
      const [sanctions, labels] = await Promise.all([
        uids.length
          ? pool.query(
              `SELECT chain, count(DISTINCT address)::int AS n, string_agg(DISTINCT programs, ';') AS programs, ` +
                `min(designated) AS designated
                        FROM ref_sanctions WHERE sdn_uid = ANY($1) AND status = 'active' GROUP BY chain`,
              [uids],
            )
          : Promise.resolve({
              rows: [] as { chain: string; n: number; programs: string | null; designated: string | null }[],
            }),
        pool.query(
          `SELECT chain, count(DISTINCT address)::int AS n FROM ref_address_labels ` +
            `WHERE lower(name) LIKE $1 GROUP BY chain`,
          [
            `${String(e.name)
              .toLowerCase()
              .replace(/[\\%_]/g, '\\$&')}%`,
          ],
        ),
      ]);
      const programs = [
        ...new Set(
          sanctions.rows.flatMap((r) =>
            (r.programs ?? '')
              .split(/[;|,/]/)
              .map((p: string) => p.trim())
              .filter(Boolean),
          ),
        ),
      ];
      return {
        entity_id: e.entity_id,
        name: e.name,
        aliases: list(e.aliases),
        type: e.entity_type ?? null,
        status: list(e.status),
        risk: e.risk ?? null,
        countries: list(e.country),
        websites: list(e.website),
        regulators: list(e.regulator),
        licences: list(e.licence_id),
        services: list(e.services),
        sanctions: {
          programs,
          sdn_uids: uids,
          designated:
            sanctions.rows
              .map((r) => r.designated)
              .filter(Boolean)
              .sort()[0] ?? null,
          addresses_by_chain: Object.fromEntries(sanctions.rows.map((r) => [r.chain, r.n])),
        },
        known_addresses_by_chain: Object.fromEntries(labels.rows.map((r) => [r.chain, r.n])),
        sources: list(e.sources),
        notes: e.notes ?? null,
        match: { query: query.trim(), matched: e.matched, score: Math.round(Number(e.score) * 1000) / 1000 },
      };
    },
  };
}

export type EntityStore = ReturnType<typeof createEntityStore>;
