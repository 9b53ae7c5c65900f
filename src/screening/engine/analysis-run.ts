import type { ApiType } from '../workflow-types';
import type { Chain } from '../chains/chain';
import type { AddressFacts, Asset, ChainClient, ChainTransaction } from '../chains/chain-client';
import { type AddressFormat, addressFormatOf } from '../chains/target-format';
import type { PriceBook } from './prices';
import { createUsdPricer, type StoredCloses, type UsdPricer } from './usd-pricer';
import type { ReferenceProvenance, ReferenceData } from './reference-data';
import type { RiskModel } from './risk-model';
import type { Party } from './scoring';
import type { PolicySnapshot } from './scoring-policy';
import type { ExposurePhase } from './exposure-phase';
import type { CrawlReport } from './types';
import type { CustomLabelLookup } from './custom-labels';
import type { ClusterMembership, ClusterPort, ExpansionBudget } from './cluster-labels';

export interface AnalysisInput {
  apiType: ApiType;
  chain: Chain;
  /** Already normalised by the API (see chains/target-format.ts). */
  target: string;
  maxDepth: number;
  /** The job's crawlTimeout: the exposure crawl uses its share of it (crawl-limits.ts). */
  crawlTimeoutMs?: number;
  /** The customer policy the answer is scored under (the standard score is kept beside it); none: the model's. */
  policy?: PolicySnapshot | null;
  /**
   * The account the job is for: its own labels (custom_labels) apply to this answer only. None: reference data alone.
   */
  accountId?: string;
}

export interface EngineDeps {
  referenceData: ReferenceData;
  chainClients: Partial<Record<Chain, ChainClient>>;
  prices: PriceBook;
  /** Closes in market_candles; when absent, only the static reference prices value assets. */
  storedCloses?: StoredCloses;
  model: RiskModel;
  now?: () => number;
  /** The accounts' own labels (src/custom-labels); absent: no screening reads any. */
  customLabels?: CustomLabelLookup;
  /** Wallet clusters (src/entities): labels spread to every address of a cluster. Absent: addresses stand alone. */
  clusters?: ClusterPort;
}

/** One analysis under way: its input, and what its KYA or KYT step and the answer share. */
export interface AnalysisRun {
  input: AnalysisInput;
  deps: EngineDeps;
  signal: AbortSignal;
  now: () => number;
  /** When the analysis started (performance.analysis_ms). */
  startedAt: number;
  /** Read once, before any lookup: the answer names the versions it was screened against. */
  provenance: ReferenceProvenance[];
  /** One per analysis, so the crawl and the answer read each asset's stored closes once. */
  pricer: UsdPricer;
  /** The chain as this analysis reads it; undefined when only the reference data answers (crawl.note says why). */
  client: ChainClient | undefined;
  /** This analysis' chain-cache hits and misses, counted by a caching client for the performance report. */
  cache: { hits: number; misses: number };
  /** How far the screening read the chain: the KYA or KYT step fills it in, the full response reports it. */
  crawl: CrawlReport;
}

/** An amount of one asset, in base units. */
export interface Holding {
  asset: Asset;
  amount: bigint;
}

/** What the KYA or KYT step found: what the answer scores, values and reports. */
export interface Findings {
  /** The address the answer reports on: the KYA target, or the KYT transaction's beneficiary. */
  subject: string;
  tx: ChainTransaction | null;
  /** The subject's on-chain facts; null when not read (reference data only, or the deadline came first). */
  facts: AddressFacts | null;
  parties: Party[];
  /** The reference data labels the subject an exchange: its behaviour bonus and indirect exposure are capped. */
  subjectIsExchange: boolean;
  exposure: ExposurePhase | null;
  /** The wallet clusters every lookup of the analysis read, by address. */
  memberships: Map<string, ClusterMembership>;
  clusterBudget: ExpansionBudget;
  /** What the answer values: a KYT transaction's transfers, a KYA address's balances. */
  holdings: Holding[];
  /** When the holdings are valued (ms): a transaction's block time; null: when they are priced (a balance now). */
  valuedAt: number | null;
  chainMs: number;
  listsMs: number;
}

/** The job's deadline (crawlTimeout) aborted the signal, not a cancellation. */
export const isDeadline = (signal: AbortSignal) =>
  signal.aborted && (signal.reason as { name?: string })?.name === 'TimeoutError';

/** Starts an analysis: the list versions it is screened against, and the chain client it may read, if any. */
export async function startAnalysisRun(
  deps: EngineDeps,
  input: AnalysisInput,
  signal: AbortSignal,
  now: () => number,
): Promise<AnalysisRun> {
  const startedAt = now();
  // Read once, before any lookup: the answer names the versions it was screened against.
  const provenance = await deps.referenceData.provenance();
  const pricer = createUsdPricer(deps.prices, deps.storedCloses);
  const cache = { hits: 0, misses: 0 };
  const configured = deps.chainClients[input.chain] as
    | (ChainClient & { forAnalysis?: (s: typeof cache) => ChainClient })
    | undefined;
  // An address in a format the chain's node does not read (bnb1… on binance-smart-chain) is screened on the reference
  // data.
  const format = input.apiType === 'KYA' ? addressFormatOf(input.chain, input.target) : null;
  const unreadFormat = format && !format.readOnChain ? format : null;
  // A caching client counts this analysis' hits and misses for its performance report.
  const client = input.maxDepth >= 1 && !unreadFormat ? (configured?.forAnalysis?.(cache) ?? configured) : undefined;
  const note = whyChainIsNotRead(input, configured, client, unreadFormat);
  const crawl: CrawlReport = {
    ran: Boolean(client),
    note,
    complete: note === null,
    depth_planned: input.maxDepth,
    depth_reached: 0,
    nodes_visited: 0,
    truncated: [],
  };
  return { input, deps, signal, now, startedAt, provenance, pricer, client, cache, crawl };
}

/**
 * Why the job's answer will rest on the reference data alone (the crawl report's note); null when it reads the chain.
 */
function whyChainIsNotRead(
  input: AnalysisInput,
  configured: ChainClient | undefined,
  client: ChainClient | undefined,
  unreadFormat: AddressFormat | null,
): string | null {
  if (unreadFormat)
    return (
      `no node reads a ${unreadFormat.name} on ${input.chain}: screened against the reference lists only, ` +
      `on-chain facts not read`
    );
  if (!configured)
    return (
      `no ${input.chain} node is configured: screened against the reference lists only, ` +
      `on-chain exposure not checked`
    );
  if (!client) return 'on-chain data not read: the credits available paid for a lists-only screening';
  return null;
}
