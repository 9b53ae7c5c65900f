import type { Pool } from 'pg';
import { EVM_CHAINS, type Chain } from '../chains/chain';

/**
 * How a finding on another address of the same wallet cluster reached this one (issue 29): the cluster, the labelled
 * member, the chain of merges between them, and the weight the spread carries (source confidence × heuristic).
 */
export interface ViaCluster {
  cluster_id: string;
  /** The weakest heuristic on the chain of merges (common_input, deposit_address). */
  heuristic: string;
  /** The transaction of that merge: the evidence an analyst checks first. */
  txid: string;
  size: number;
  /** The cluster was grown only in part (a call budget or a deadline stopped it): it may hold more. */
  partial: boolean;
  /** The cluster's address the finding is on. */
  address: string;
  /** The label source's confidence on GraphSense's TagPack scale (100 owns the key, 60 authority, 20 web crawl). */
  confidence: number;
  /** min(1, confidence / full weight) × the heuristic's weight: what the finding's score is multiplied by. */
  weight: number;
  /** From this address to the labelled one, one merge each (its two addresses, heuristic, txid). */
  merges: { a: string; b: string; heuristic: string; txid: string }[];
}

export interface SanctionHit {
  chain: string;
  sdnName: string | null;
  sdnUid: string | null;
  programs: string[];
  designated: string | null;
  source: string | null;
  /** Listed on another address of this address's wallet cluster, not on this one. */
  viaCluster?: ViaCluster;
}

export interface FreezeHit {
  chain: string;
  token: string;
  status: 'blacklisted' | 'removed';
  since: string | null;
  lastEventAt: string | null;
  source: string | null;
}

export interface LabelHit {
  chain: string;
  name: string | null;
  category: string;
  categories: string[];
  confidence: string | null;
  source: string;
  sourceDate: string | null;
  /** An account's own label (source `custom`): its id in custom_labels. */
  labelId?: string;
  /** Put on another address of this address's wallet cluster, not on this one. */
  viaCluster?: ViaCluster;
}

/** A sanctions entry the list dropped: kept as context, never as a sanction. */
export interface DelistingHit extends SanctionHit {
  delistedOn: string;
}

/** Everything the reference data says about one address: active sanctions, and (as context) entries since delisted. */
export interface AddressIntel {
  sanctions: SanctionHit[];
  freezes: FreezeHit[];
  labels: LabelHit[];
  delistings?: DelistingHit[];
}

/** One list an answer was screened against, as it was then: which version (issue), its sha256 and load time. */
export interface ReferenceProvenance {
  list: string;
  /** The list version's id (sanctions lists) or null for a dataset replaced whole (labels, freezes). */
  version: number | null;
  issue_date: string | null;
  sha256: string;
  loaded_at: string;
  source: string;
}

export interface ReferenceData {
  lookup(chain: Chain, addresses: readonly string[]): Promise<Map<string, AddressIntel>>;
  /** The versions a lookup now reads; an analysis asks once, before its lookups. */
  provenance(): Promise<ReferenceProvenance[]>;
}

/** How a hit names the OFAC version that listed it, e.g. `ofac-sdn 2025-11-19`. */
export const ofacSource = (issueDate: string): string => `ofac-sdn ${issueDate}`;

const split = (v: string | null, sep: string): string[] =>
  v
    ? v
        .split(sep)
        .map((s) => s.trim())
        .filter(Boolean)
    : [];

/**
 * An EVM address is the same key on every EVM chain (same private key, same owner), so 0x entries
 * listed under any EVM chain match on every EVM network (chains/evm-networks.ts); the hit keeps its chain.
 */
function chainsToMatch(chain: Chain): string[] {
  return EVM_CHAINS.includes(chain) ? [...EVM_CHAINS] : [chain];
}

export function createReferenceData(pool: Pool): ReferenceData {
  const activeOfac = async () =>
    (
      await pool.query<{ id: string; issue_date: string; sha256: string; loaded_at: Date; source: string }>(
        `SELECT id, to_char(issue_date, 'YYYY-MM-DD') AS issue_date, sha256, loaded_at, source FROM list_versions
         WHERE list = 'ofac' AND superseded_at IS NULL`,
      )
    ).rows[0];
  return {
    async provenance() {
      const [ofac, datasets] = await Promise.all([
        activeOfac(),
        pool.query<{ name: string; sha256: string; loaded_at: Date }>(
          `SELECT name, sha256, loaded_at FROM reference_datasets
           WHERE name IN ('stablecoin_blacklist', 'address_labels') ORDER BY name`,
        ),
      ]);
      return [
        ...(ofac
          ? [
              {
                list: 'ofac',
                version: Number(ofac.id),
                issue_date: ofac.issue_date,
                sha256: ofac.sha256,
                loaded_at: ofac.loaded_at.toISOString(),
                source: ofac.source,
              },
            ]
          : []),
        ...datasets.rows.map((d) => ({
          list: d.name,
          version: null,
          issue_date: null,
          sha256: d.sha256,
          loaded_at: d.loaded_at.toISOString(),
          source: `data/risk/${d.name}.csv`,
        })),
      ];
    },
    async lookup(chain, addresses) {
      const result = new Map<string, AddressIntel>(
        addresses.map((a) => [a, { sanctions: [], freezes: [], labels: [] }]),
      );
      if (addresses.length === 0) return result;
      const evm = EVM_CHAINS.includes(chain);
      const list = [...new Set(addresses)];
      const [sanctions, freezes, labels] = await Promise.all([
        // OFAC files a 0x address under ETH, USDT, USDC, BSC, BNB or ARB: for EVM any 0x row counts. Current entries
        // of the active version, and delisted ones (context) unless the address is listed again; the active
        // version's date comes in the same statement (a lookup runs per crawl hop: no extra round trip).
        pool.query(
          `SELECT s.chain, s.address, s.sdn_name, s.sdn_uid, array_to_string(s.programs, ';') AS programs,
                  to_char(s.designated, 'YYYY-MM-DD') AS designated, to_char(s.delisted_on, ` +
            `'YYYY-MM-DD') AS delisted_on,
                  to_char(v.issue_date, 'YYYY-MM-DD') AS issue_date,
                  (SELECT to_char(issue_date, 'YYYY-MM-DD') FROM list_versions
                   WHERE list = 'ofac' AND superseded_at IS NULL) AS active_issue_date
           FROM sanction_entries s JOIN list_versions v ON v.id = coalesce(s.delisted_version, s.listed_version)
           WHERE s.list = 'ofac' AND s.address = ANY($1) AND (s.chain = ANY($2) OR ($3 AND s.address LIKE '0x%'))
           ORDER BY s.delisted_on NULLS FIRST, s.id`,
          [list, chainsToMatch(chain), evm],
        ),
        pool.query(
          `SELECT chain, address, token, status, first_blacklisted_at, last_event_at, source ` +
            `FROM ref_stablecoin_blacklist
           WHERE address = ANY($1) AND chain = ANY($2)`,
          [list, chainsToMatch(chain)],
        ),
        pool.query(
          `SELECT chain, address, name, category, categories, confidence, source, source_date FROM ref_address_labels
           WHERE address = ANY($1) AND chain = ANY($2)`,
          [list, chainsToMatch(chain)],
        ),
      ]);
      for (const r of sanctions.rows) {
        const intel = result.get(r.address);
        if (!intel) continue;
        const hit: SanctionHit = {
          chain: r.chain,
          sdnName: r.sdn_name || null,
          sdnUid: r.sdn_uid?.startsWith('scrape:') ? null : r.sdn_uid || null,
          programs: split(r.programs, ';'),
          designated: r.designated || null,
          source: r.active_issue_date ? ofacSource(r.active_issue_date) : null,
        };
        if (!r.delisted_on) intel.sanctions.push(hit);
        else if (intel.sanctions.length === 0) {
          intel.delistings ??= [];
          intel.delistings.push({ ...hit, source: ofacSource(r.issue_date), delistedOn: r.delisted_on });
        }
      }
      for (const r of freezes.rows) {
        result.get(r.address)?.freezes.push({
          chain: r.chain,
          token: r.token,
          status: r.status === 'blacklisted' ? 'blacklisted' : 'removed',
          since: r.first_blacklisted_at || null,
          lastEventAt: r.last_event_at || null,
          source: r.source || null,
        });
      }
      for (const r of labels.rows) {
        result.get(r.address)?.labels.push({
          chain: r.chain,
          name: r.name || null,
          category: r.category,
          categories: split(r.categories, '|'),
          confidence: r.confidence || null,
          source: r.source,
          sourceDate: r.source_date || null,
        });
      }
      return result;
    },
  };
}
