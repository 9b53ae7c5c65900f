import type { Pool } from 'pg';
import { EVM_CHAINS, type Chain } from '../chains/chain';

export interface SanctionHit {
  chain: string;
  sdnName: string | null;
  sdnUid: string | null;
  programs: string[];
  designated: string | null;
  source: string | null;
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
}

/** Everything the shipped lists say about one address. Active sanctions only: delisted entries are labels (mixer). */
export interface AddressIntel {
  sanctions: SanctionHit[];
  freezes: FreezeHit[];
  labels: LabelHit[];
}

export interface ReferenceLists {
  lookup(chain: Chain, addresses: readonly string[]): Promise<Map<string, AddressIntel>>;
}

const split = (v: string | null, sep: string): string[] =>
  v
    ? v
        .split(sep)
        .map((s) => s.trim())
        .filter(Boolean)
    : [];

/**
 * An EVM address is the same key on every EVM chain (same private key, same owner), so 0x entries
 * listed under any EVM chain match on ethereum and binance-smart-chain alike; the hit keeps its chain.
 */
function chainsToMatch(chain: Chain): string[] {
  return EVM_CHAINS.includes(chain) ? [...EVM_CHAINS, 'arbitrum'] : [chain];
}

export function createReferenceLists(pool: Pool): ReferenceLists {
  return {
    async lookup(chain, addresses) {
      const result = new Map<string, AddressIntel>(
        addresses.map((a) => [a, { sanctions: [], freezes: [], labels: [] }]),
      );
      if (addresses.length === 0) return result;
      const evm = EVM_CHAINS.includes(chain);
      const list = [...new Set(addresses)];
      const [sanctions, freezes, labels] = await Promise.all([
        // OFAC files a 0x address under ETH, USDT, USDC, BSC, BNB or ARB: for EVM any 0x row counts.
        pool.query(
          `SELECT chain, address, sdn_name, sdn_uid, programs, designated, source FROM ref_sanctions
           WHERE address = ANY($1) AND status = 'active' AND (chain = ANY($2) OR ($3 AND address LIKE '0x%'))`,
          [list, chainsToMatch(chain), evm],
        ),
        pool.query(
          `SELECT chain, address, token, status, first_blacklisted_at, last_event_at, source FROM ref_stablecoin_blacklist
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
        result.get(r.address)?.sanctions.push({
          chain: r.chain,
          sdnName: r.sdn_name || null,
          sdnUid: r.sdn_uid || null,
          programs: split(r.programs, ';'),
          designated: r.designated || null,
          source: r.source || null,
        });
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
