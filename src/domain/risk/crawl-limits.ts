import type { ApiType } from '../../../workflows/defs';

/**
 * The exposure crawl's bounds (notes/risk-data.md §C.12, chain-data.md §4.3), echoed in every full
 * response. Hops count from the screened parties (hop 0); each hop adds one to the job's depth.
 */
export interface CrawlLimits {
  maxHops: number;
  /** Counterparties kept per expanded node at hop 0, 1, 2… (highest value first). */
  fanout: readonly number[];
  maxNodes: number;
  /** Chain-client calls the whole crawl may make. */
  maxRequests: number;
  /** Transfers read per address (about one provider page). */
  pageSize: number;
  /** A full page with at least this many distinct counterparties is a hub (exchange-like): scored, never expanded. */
  hubCounterparties: number;
  /** Findings below this USD amount or share are dust and ignored, except sanctions. */
  dustUsd: number;
  dustShare: number;
  /** Share of crawlTimeout the crawl may use; the rest is kept for scoring and saving. */
  deadlineShare: number;
}

const COMMON = { fanout: [25, 10, 5], maxNodes: 300, maxRequests: 500, pageSize: 50, hubCounterparties: 40, dustUsd: 50, dustShare: 0.01, deadlineShare: 0.85 } as const;

export const crawlLimitsFor = (apiType: ApiType): CrawlLimits => ({ ...COMMON, maxHops: apiType === 'KYT' ? 2 : 3 });
