import type { Chain } from '../chains/chain';
import type { AddressIntel, LabelHit, ReferenceData } from './reference-data';

/** The source every hit of an account's own label names. */
export const CUSTOM_SOURCE = 'custom';
/** The category an account clears an address with: shown as a finding, it changes no score. */
export const ALLOW_CATEGORY = 'allow';

/** One label of the account's own list, as a screening reads it. */
export interface CustomLabelEntry {
  id: string;
  category: string;
  name: string | null;
}

/**
 * The port the engine reads an account's own labels through (src/custom-labels' store, built by the worker runtime):
 * the labels this account put on these addresses of this chain. Addresses are normalised as the request's target.
 */
export interface CustomLabelLookup {
  lookup(accountId: string, chain: string, addresses: readonly string[]): Promise<Map<string, CustomLabelEntry[]>>;
}

/** A custom label as the reference data's label shape: source `custom`, high confidence (the account's own finding). */
function asLabelHit(chain: Chain, l: CustomLabelEntry): LabelHit {
  return {
    chain,
    name: l.name,
    category: l.category,
    categories: [l.category],
    confidence: 'high',
    source: CUSTOM_SOURCE,
    sourceDate: null,
    labelId: l.id,
  };
}

/**
 * The reference data as one account's screening reads them: every lookup adds that account's own labels of the
 * addresses asked. `includeAllow` false (the exposure crawl) leaves `allow` labels out, so a cleared address neither
 * stops the crawl nor hides what lies behind it: this slice lowers nothing.
 */
export function withCustomLabels(
  data: ReferenceData,
  custom: CustomLabelLookup,
  accountId: string,
  options: { includeAllow: boolean },
): ReferenceData {
  return {
    provenance: () => data.provenance(),
    async lookup(chain, addresses) {
      const [intel, own] = await Promise.all([
        data.lookup(chain, addresses),
        custom.lookup(accountId, chain, addresses),
      ]);
      for (const [address, labels] of own) {
        const kept = options.includeAllow ? labels : labels.filter((l) => l.category !== ALLOW_CATEGORY);
        if (kept.length === 0) continue;
        const entry: AddressIntel = intel.get(address) ?? { sanctions: [], freezes: [], labels: [] };
        entry.labels.push(...kept.map((l) => asLabelHit(chain, l)));
        intel.set(address, entry);
      }
      return intel;
    },
  };
}
