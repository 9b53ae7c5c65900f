import type { ApiType } from '../workflow-types';
import { shippedRiskModel, type RiskModel } from './risk-model';

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

/** The bounds of data/risk/risk-model.json `crawl`, for this kind of screening. */
export function crawlLimitsFor(apiType: ApiType, model: RiskModel = shippedRiskModel()): CrawlLimits {
  const c = model.document.crawl;
  return {
    fanout: c.fanout,
    maxNodes: c.max_nodes,
    maxRequests: c.max_requests,
    pageSize: c.page_size,
    hubCounterparties: c.hub_counterparties,
    dustUsd: c.dust_usd,
    dustShare: c.dust_share,
    deadlineShare: c.deadline_share,
    maxHops: c.max_hops[apiType],
  };
}
