import type { Chain } from '../chains/chain';
import type { AddressFacts, Asset, ChainClient } from '../chains/chain-client';
import { type AnalysisRun, type Findings, isDeadline } from './analysis-run';
import { assetSymbol, toDecimal } from './asset-amounts';
import type { ReferenceData } from './reference-data';
import { isExchangeLabelled, type Party } from './scoring';
import { crawlRoots, runExposurePhase, type ExposurePhase } from './exposure-phase';
import { withCustomLabels } from './custom-labels';
import { type ClusterMembership, type ExpansionBudget, withClusters } from './cluster-labels';

/** How many of an address's newest transfers its facts summarise (first seen, inflow count, senders). */
const TRANSFER_LIMIT = 25;

/** What a screening read of the chain before judging the parties: each party's roles ("target" for KYA). */
export type ChainRead = Pick<Findings, 'subject' | 'tx' | 'facts'> & { roles: Map<string, string[]> };

/** KYA: the address's own facts, then the address screened as the one party; its balances are valued now. */
export async function screenAddress(run: AnalysisRun): Promise<Findings> {
  const { input, client } = run;
  let facts: AddressFacts | null = null;
  let chainMs = 0;
  if (client) {
    const t0 = run.now();
    facts = await readAddressFacts(client, input.target, run.signal);
    chainMs = run.now() - t0;
  }
  const screened = await screenParties(run, {
    subject: input.target,
    tx: null,
    facts,
    roles: new Map([[input.target, ['target']]]),
  });
  const holdings = facts
    ? [
        { asset: run.deps.chainClients[input.chain]!.nativeAsset as Asset, amount: facts.nativeBalance },
        ...facts.tokenBalances,
      ]
    : [];
  return { ...screened, holdings, valuedAt: null, chainMs };
}

/** An address's own facts; null when the job's deadline came first (the answer then rests on the reference data). */
export async function readAddressFacts(
  client: ChainClient,
  address: string,
  signal: AbortSignal,
): Promise<AddressFacts | null> {
  try {
    return await client.getAddressFacts(address, { tokens: [], transferLimit: TRANSFER_LIMIT }, signal);
  } catch (err) {
    if (isDeadline(signal)) return null;
    throw err;
  }
}

/**
 * Screens the parties of a chain read, as KYA screens an address and KYT every party of a transaction: the reference
 * data (with the account's own labels and the wallet clusters), then the exposure crawl from them.
 */
export async function screenParties(
  run: AnalysisRun,
  read: ChainRead,
): Promise<Omit<Findings, 'holdings' | 'valuedAt' | 'chainMs'>> {
  const { input, client, crawl } = run;
  // Reading the parties' own facts is depth 1 (the job's cost follows the depth reached), even when they came late.
  if (client) {
    crawl.depth_reached = 1;
    crawl.nodes_visited = read.roles.size;
    if (!read.facts) {
      crawl.complete = false;
      crawl.truncated.push('deadline');
      crawl.note =
        'crawlTimeout elapsed before the on-chain facts of the address were read; the result rests on the lists';
    }
  }

  const listsStarted = run.now();
  const reference = referenceDataFor(run);
  const intel = await reference.parties.lookup(input.chain, [...read.roles.keys()]);
  const listsMs = run.now() - listsStarted;
  const parties: Party[] = [...read.roles].map(([address, roles]) => ({
    address,
    role: roles.join(', '),
    intel: intel.get(address) ?? { sanctions: [], freezes: [], labels: [] },
  }));
  const subjectIsExchange = isExchangeLabelled(intel.get(read.subject)?.labels ?? []);

  const exposure = await crawlExposureOf(run, read, reference.crawl, subjectIsExchange);
  return {
    subject: read.subject,
    tx: read.tx,
    facts: read.facts,
    parties,
    subjectIsExchange,
    exposure,
    memberships: reference.memberships,
    clusterBudget: reference.clusterBudget,
    listsMs,
  };
}

/**
 * The reference data this analysis reads: the account's own labels join it for the account's jobs only (allow labels
 * on the parties only), and labels follow entities: every lookup grows the addresses' clusters within one budget for
 * the whole analysis. An analysis that reads no chain (no client) still reads the clusters earlier crawls stored.
 */
function referenceDataFor(run: AnalysisRun) {
  const { deps, input, client, signal } = run;
  const own = input.accountId && deps.customLabels ? { lookup: deps.customLabels, account: input.accountId } : null;
  const partyData = own
    ? withCustomLabels(deps.referenceData, own.lookup, own.account, { includeAllow: true })
    : deps.referenceData;
  const crawlData = own
    ? withCustomLabels(deps.referenceData, own.lookup, own.account, { includeAllow: false })
    : deps.referenceData;
  const clusterBudget: ExpansionBudget = { calls: deps.model.document.clusters.expansion_calls, spent: 0 };
  const memberships = new Map<string, ClusterMembership>();
  const clustered = (data: ReferenceData) => {
    if (!deps.clusters) return data;
    const wrapped = withClusters(data, deps.clusters, { model: deps.model, client, budget: clusterBudget, signal });
    return {
      provenance: wrapped.provenance,
      lookup: async (chain: Chain, addresses: readonly string[]) => {
        const found = await wrapped.lookup(chain, addresses);
        for (const [a, m] of wrapped.memberships()) memberships.set(a, m);
        return found;
      },
    } satisfies ReferenceData;
  };
  return { parties: clustered(partyData), crawl: clustered(crawlData), memberships, clusterBudget };
}

/**
 * The exposure crawl from the parties, when the credits paid for it and the chain can list an address's transfers;
 * the crawl report says how far it went and what it could not see.
 */
async function crawlExposureOf(
  run: AnalysisRun,
  read: ChainRead,
  crawlData: ReferenceData,
  subjectIsExchange: boolean,
): Promise<ExposurePhase | null> {
  const { input, deps, client, crawl, signal } = run;
  let exposure: ExposurePhase | null = null;
  // No crawl once the deadline has run out (the subject's facts missing say it ran out while they were read).
  if (client?.getAddressTransfers && input.maxDepth >= 2 && read.facts !== null && !signal.aborted) {
    exposure = await runExposurePhase({
      chain: input.chain,
      client,
      referenceData: crawlData,
      model: deps.model,
      usdValue: transferUsdValue(run),
      apiType: input.apiType,
      roots: crawlRoots(input.apiType, input.target, read.tx, read.subject),
      maxDepth: input.maxDepth,
      crawlTimeoutMs: input.crawlTimeoutMs,
      subjectIsExchange,
      signal,
      now: run.now,
    });
    const o = exposure.outcome;
    crawl.depth_reached = 1 + o.hopsReached;
    crawl.nodes_visited += o.nodes.length;
    crawl.truncated.push(...o.truncated);
    crawl.limits = exposure.limits;
    if (!o.complete) {
      crawl.complete = false;
      crawl.note =
        `exposure crawl cut short (${o.truncated.filter((t) => t !== 'fanout').join(', ')}) ` +
        `after ${o.hopsReached} hop(s): unexplored counterparties are unknown, not clean`;
    }
  } else if (client && input.maxDepth < 2 && deps.chainClients[input.chain]?.getAddressTransfers) {
    crawl.note = crawl.note ?? 'exposure crawl not run: the credits available paid for the direct screening only';
  }
  if (exposure && client?.transferSource) {
    // Which transfer source the crawl read, and what it could not see: "nothing found" means less on a plain node.
    crawl.source = await client.transferSource(signal).catch(() => undefined);
    if (crawl.source?.blindTo.includes('native'))
      crawl.note = crawl.note ?? `exposure crawl read ${crawl.source.limitation}`;
  }
  return exposure;
}

/** A transfer's USD value at its own time (now when the provider gives none), null when unpriced. */
const transferUsdValue =
  (run: AnalysisRun) =>
  async (asset: Asset, amount: bigint, timestamp: number | null): Promise<number | null> => {
    const price = await run.pricer.priceAt(assetSymbol(asset), timestamp === null ? run.now() : timestamp * 1000);
    return price ? toDecimal(amount, asset.decimals) * price.usd : null;
  };
