import type { ApiType } from '../workflow-types';
import type { Chain } from '../chains/chain';
import type { ChainClient, ChainTransaction } from '../chains/chain-client';
import { crawlLimitsFor, type CrawlLimits } from './crawl-limits';
import { crawlExposure, type CrawlDeps, type CrawlOutcome, type CrawlRoot } from './exposure-crawl';
import type { ReferenceData } from './reference-data';
import type { RiskModel } from './risk-model';
import { deadline } from '../../platform/abort/deadline';

export interface ExposurePhase {
  outcome: CrawlOutcome;
  limits: CrawlLimits;
  crawlMs: number;
}

/**
 * Where the crawl starts: KYA traces the address's sources and destinations; KYT traces the transfer's
 * sender upstream (where the money came from) and its beneficiary downstream (where it goes next).
 */
export function crawlRoots(
  apiType: ApiType,
  target: string,
  tx: ChainTransaction | null,
  beneficiary: string,
): CrawlRoot[] {
  if (apiType === 'KYA' || !tx)
    return [
      { address: target, direction: 'in' },
      { address: target, direction: 'out' },
    ];
  const senders = new Set(
    [tx.from, ...tx.transfers.filter((t) => t.from).map((t) => t.from as string)].filter(
      (a) => a !== beneficiary && a !== 'coinbase',
    ),
  );
  return [
    ...[...senders].map((address) => ({ address, direction: 'in' as const })),
    { address: beneficiary, direction: 'out' },
  ];
}

/**
 * Runs the exposure crawl within its share of crawlTimeout (the rest is kept for scoring and saving)
 * (scoring-evidence.ts scores what it found). maxDepth counts the target's own facts as depth 1, so
 * hops = maxDepth − 1.
 */
export async function runExposurePhase(deps: {
  chain: Chain;
  client: ChainClient;
  referenceData: ReferenceData;
  model: RiskModel;
  usdValue: CrawlDeps['usdValue'];
  apiType: ApiType;
  roots: CrawlRoot[];
  maxDepth: number;
  crawlTimeoutMs: number | undefined;
  subjectIsExchange: boolean;
  signal: AbortSignal;
  now: () => number;
}): Promise<ExposurePhase> {
  const base = crawlLimitsFor(deps.apiType, deps.model);
  const limits = { ...base, maxHops: Math.max(0, Math.min(base.maxHops, deps.maxDepth - 1)) };
  const started = deps.now();
  const crawlDeadline = deadline(
    deps.crawlTimeoutMs ? Math.max(1, Math.floor(deps.crawlTimeoutMs * limits.deadlineShare)) : undefined,
    deps.signal,
  );
  let outcome: CrawlOutcome;
  try {
    outcome = await crawlExposure(
      { chain: deps.chain, client: deps.client, referenceData: deps.referenceData, usdValue: deps.usdValue },
      deps.roots,
      limits,
      crawlDeadline.signal,
    );
  } finally {
    crawlDeadline.dispose();
  }
  return {
    outcome,
    limits,
    crawlMs: deps.now() - started,
  };
}
