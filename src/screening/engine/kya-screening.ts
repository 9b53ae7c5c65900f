import type { Chain } from '../chains/chain';
import type { AddressFacts, Asset, ChainClient } from '../chains/chain-client';
import { type AnalysisJob, type Findings, isDeadline } from './analysis-job';
import { assetSymbol, toDecimal } from './asset-amounts';
import type { ReferenceLists } from './reference-lists';
import { isExchangeLabelled, type Party } from './scoring';
import { crawlRoots, runExposurePhase, type ExposurePhase } from './exposure-phase';
import { withCustomLabels } from './custom-labels';
import { type ClusterMembership, type ExpansionBudget, withClusters } from './cluster-labels';

/** Transactions of an address's history its facts are read from (first seen, inflow count). */
const HISTORY_LIMIT = 25;

/** What a screening read of the chain before judging the parties: each party's roles ("target" for KYA). */
export type ChainRead = Pick<Findings, 'subject' | 'tx' | 'facts'> & { roles: Map<string, string[]> };

/** KYA: the address's own facts, then the address screened as the one party; its balances are valued now. */
export async function screenAddress(job: AnalysisJob): Promise<Findings> {
  const { req, client } = job;
  let facts: AddressFacts | null = null;
  let chainMs = 0;
  if (client) {
    const t0 = job.now();
    facts = await readAddressFacts(client, req.target, job.signal);
    chainMs = job.now() - t0;
  }
  const screened = await screenParties(job, {
    subject: req.target,
    tx: null,
    facts,
    roles: new Map([[req.target, ['target']]]),
  });
  const holdings = facts
    ? [
        { asset: job.deps.chainClients[req.chain]!.nativeAsset as Asset, amount: facts.nativeBalance },
        ...facts.tokenBalances,
      ]
    : [];
  return { ...screened, holdings, valuedAt: null, chainMs };
}

/** An address's own facts; null when the job's deadline came first (the answer then rests on the lists). */
export async function readAddressFacts(
  client: ChainClient,
  address: string,
  signal: AbortSignal,
): Promise<AddressFacts | null> {
  try {
    return await client.getAddressFacts(address, { tokens: [], historyLimit: HISTORY_LIMIT }, signal);
  } catch (err) {
    if (isDeadline(signal)) return null;
    throw err;
  }
}

/**
 * Screens the parties of a chain read, as KYA screens an address and KYT every party of a transaction: the lists
 * (with the account's own labels and the wallet clusters), then the exposure crawl from them.
 */
export async function screenParties(
  job: AnalysisJob,
  read: ChainRead,
): Promise<Omit<Findings, 'holdings' | 'valuedAt' | 'chainMs'>> {
  const { req, client, crawl } = job;
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

  const listsStarted = job.now();
  const lists = screeningLists(job);
  const intel = await lists.parties.lookup(req.chain, [...read.roles.keys()]);
  const listsMs = job.now() - listsStarted;
  const parties: Party[] = [...read.roles].map(([address, roles]) => ({
    address,
    role: roles.join(', '),
    intel: intel.get(address) ?? { sanctions: [], freezes: [], labels: [] },
  }));
  const subjectIsExchange = isExchangeLabelled(intel.get(read.subject)?.labels ?? []);

  const exposure = await crawlExposureOf(job, read, lists.crawl, subjectIsExchange);
  return {
    subject: read.subject,
    tx: read.tx,
    facts: read.facts,
    parties,
    subjectIsExchange,
    exposure,
    memberships: lists.memberships,
    clusterBudget: lists.clusterBudget,
    listsMs,
  };
}

/**
 * The lists this job reads: the account's own labels join the reference lists for its screenings only (allow labels
 * on the parties only), and labels follow entities: every lookup grows the addresses' clusters within one budget for
 * the whole job. A lists-only screening (no client) still reads the clusters earlier crawls stored.
 */
function screeningLists(job: AnalysisJob) {
  const { deps, req, client, signal } = job;
  const own = req.accountId && deps.customLabels ? { lookup: deps.customLabels, account: req.accountId } : null;
  const ownPartyLists = own
    ? withCustomLabels(deps.lists, own.lookup, own.account, { includeAllow: true })
    : deps.lists;
  const ownCrawlLists = own
    ? withCustomLabels(deps.lists, own.lookup, own.account, { includeAllow: false })
    : deps.lists;
  const clusterBudget: ExpansionBudget = { calls: deps.model.document.clusters.expansion_calls, spent: 0 };
  const memberships = new Map<string, ClusterMembership>();
  const clustered = (lists: ReferenceLists) => {
    if (!deps.clusters) return lists;
    const wrapped = withClusters(lists, deps.clusters, { model: deps.model, client, budget: clusterBudget, signal });
    return {
      provenance: wrapped.provenance,
      lookup: async (chain: Chain, addresses: readonly string[]) => {
        const found = await wrapped.lookup(chain, addresses);
        for (const [a, m] of wrapped.memberships()) memberships.set(a, m);
        return found;
      },
    } satisfies ReferenceLists;
  };
  return { parties: clustered(ownPartyLists), crawl: clustered(ownCrawlLists), memberships, clusterBudget };
}

/**
 * The exposure crawl from the parties, when the credits paid for it and the chain can list an address's transfers;
 * the crawl report says how far it went and what it could not see.
 */
async function crawlExposureOf(
  job: AnalysisJob,
  read: ChainRead,
  crawlLists: ReferenceLists,
  subjectIsExchange: boolean,
): Promise<ExposurePhase | null> {
  const { req, deps, client, crawl, signal } = job;
  let exposure: ExposurePhase | null = null;
  // No crawl once the deadline has run out (the subject's facts missing say it ran out while they were read).
  if (client?.getAddressTransfers && req.maxDepth >= 2 && read.facts !== null && !signal.aborted) {
    exposure = await runExposurePhase({
      chain: req.chain,
      client,
      lists: crawlLists,
      model: deps.model,
      usdValue: transferUsdValue(job),
      apiType: req.apiType,
      roots: crawlRoots(req.apiType, req.target, read.tx, read.subject),
      maxDepth: req.maxDepth,
      crawlTimeoutMs: req.crawlTimeoutMs,
      subjectIsExchange,
      signal,
      now: job.now,
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
  } else if (client && req.maxDepth < 2 && deps.chainClients[req.chain]?.getAddressTransfers) {
    crawl.note = crawl.note ?? 'exposure crawl not run: the credits available paid for the direct screening only';
  }
  if (exposure && client?.historySource) {
    // Which history the crawl read, and what it could not see: "nothing found" means less on a plain node.
    crawl.source = await client.historySource(signal).catch(() => undefined);
    if (crawl.source?.blindTo.includes('native'))
      crawl.note = crawl.note ?? `exposure crawl read ${crawl.source.limitation}`;
  }
  return exposure;
}

/** A transfer's USD value at its own time (now when the provider gives none), null when unpriced. */
const transferUsdValue =
  (job: AnalysisJob) =>
  async (asset: Asset, amount: bigint, timestamp: number | null): Promise<number | null> => {
    const price = await job.pricer.priceAt(assetSymbol(asset), timestamp === null ? job.now() : timestamp * 1000);
    return price ? toDecimal(amount, asset.decimals) * price.usd : null;
  };
