import { randomUUID } from 'node:crypto';
import type { ApiType } from '../workflow-types';
import type { Chain } from '../chains/chain';
import type { AddressFacts, Asset, ChainClient, ChainTransaction } from '../chains/chain-client';
import { ChainConfigurationError } from '../chains/chain-client';
import { addressFormatOf } from '../chains/target-format';
import { capabilitiesFor } from './capabilities';
import type { PriceBook } from './prices';
import { createUsdPricer, type StoredCloses } from './usd-pricer';
import type { ReferenceLists } from './reference-lists';
import type { RiskModel } from './risk-model';
import { analysisCost, COST_RULE } from '../pricing';
import { isExchangeLabelled, type Party, type ScoreResult } from './scoring';
import { evidenceOf, scoreEvidence } from './scoring-evidence';
import { rulesOf, standardRules, type PolicySnapshot } from './scoring-policy';
import { policyVerdict } from './policy-verdict';
import { crawlRoots, runExposurePhase, type ExposurePhase } from './exposure-phase';
import type { AnalysisResult, Balance, CrawlReport, FullResponse } from './types';
import { AppError } from '../../platform/errors';
import { type CustomLabelLookup, withCustomLabels } from './custom-labels';
import { type ClusterMembership, type ClusterPort, type ExpansionBudget, withClusters } from './cluster-labels';

export interface AnalysisRequest {
  apiType: ApiType;
  chain: Chain;
  /** Already normalised by the API (see chains/target-format.ts). */
  target: string;
  maxDepth: number;
  /** The job's crawlTimeout: the exposure crawl uses its share of it (crawl-limits.ts). */
  crawlTimeoutMs?: number;
  /** The customer policy the answer is scored under (the standard score is kept beside it); none: the model's. */
  policy?: PolicySnapshot | null;
  /** The account screening: its own labels (custom_labels) apply to this answer only. None: the lists alone. */
  accountId?: string;
}

export class TransactionNotFoundError extends AppError {
  constructor(
    readonly chain: Chain,
    readonly txid: string,
  ) {
    super('TRANSACTION_NOT_FOUND', `transaction ${txid} was not found on ${chain}`);
  }
}

/** The deadline (crawlTimeout) ran out before anything could be screened: the chain did not answer in time. */
export class AnalysisDeadlineError extends AppError {
  constructor(message: string) {
    super('CHAIN_UNAVAILABLE', message, { retryable: false });
  }
}

export interface EngineDeps {
  lists: ReferenceLists;
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

const HISTORY_LIMIT = 25;
const isDeadline = (signal: AbortSignal) =>
  signal.aborted && (signal.reason as { name?: string })?.name === 'TimeoutError';

function assetSymbol(asset: Asset): string {
  return asset.kind === 'native' ? asset.symbol : (asset.symbol ?? asset.contract);
}

function toDecimal(amount: bigint, decimals: number | null): number {
  const d = decimals ?? 0;
  const s = amount.toString().padStart(d + 1, '0');
  return Number(d === 0 ? s : `${s.slice(0, -d)}.${s.slice(-d)}`);
}

/** The analysis engine: no Temporal in here, only chain clients, reference lists and the scoring model. */
export function createScreeningEngine(deps: EngineDeps) {
  const now = deps.now ?? (() => Date.now());

  /** Values holdings at `atMs`: a transaction's block time for KYT, now for a KYA balance. */
  async function priced(
    pricer: ReturnType<typeof createUsdPricer>,
    holdings: { asset: Asset; amount: bigint }[],
    atMs: number,
  ) {
    const balances: Balance[] = [];
    const pricing: FullResponse['pricing'] = [];
    const unpriced: string[] = [];
    for (const h of holdings) {
      const symbol = assetSymbol(h.asset);
      const amount = toDecimal(h.amount, h.asset.decimals);
      const price = await pricer.priceAt(symbol, atMs);
      if (!price) unpriced.push(symbol);
      pricing.push({
        asset: symbol,
        usd_price: price?.usd ?? null,
        as_of: price?.asOf ?? null,
        source: price?.source ?? null,
        valued_at: new Date(atMs).toISOString(),
      });
      balances.push({ asset: symbol, amount, usd: price ? Math.round(amount * price.usd * 100) / 100 : 0 });
    }
    return { balances, pricing, unpriced };
  }

  function partiesOf(tx: ChainTransaction): Map<string, string[]> {
    const roles = new Map<string, string[]>();
    const add = (address: string | null, role: string) => {
      if (!address) return;
      const list = roles.get(address) ?? [];
      if (!list.includes(role)) list.push(role);
      roles.set(address, list);
    };
    const tokenContracts = new Set(
      tx.transfers.filter((t) => t.asset.kind === 'token').map((t) => (t.asset as { contract: string }).contract),
    );
    add(tx.from, 'sender');
    add(tx.to, tx.to && tokenContracts.has(tx.to) ? 'token contract' : 'recipient');
    for (const t of tx.transfers.filter((x) => x.source === 'log')) {
      add(t.from, 'token sender');
      add(t.to, 'token recipient');
    }
    return roles;
  }

  /** KYT reports on the beneficiary: the recipient of the largest token transfer, else the tx recipient. */
  function beneficiary(tx: ChainTransaction): string {
    const tokenTransfer = tx.transfers
      .filter((t) => t.source === 'log' && t.to)
      .sort((a, b) => (b.amount > a.amount ? 1 : -1))[0];
    return tokenTransfer?.to ?? tx.to ?? tx.from;
  }

  /** A transfer's USD value at its own time (now when the provider gives none), null when unpriced. */
  const usdValueWith =
    (pricer: ReturnType<typeof createUsdPricer>) =>
    async (asset: Asset, amount: bigint, timestamp: number | null): Promise<number | null> => {
      const price = await pricer.priceAt(assetSymbol(asset), timestamp === null ? now() : timestamp * 1000);
      return price ? toDecimal(amount, asset.decimals) * price.usd : null;
    };

  async function readFacts(client: ChainClient, address: string, signal: AbortSignal): Promise<AddressFacts | null> {
    try {
      return await client.getAddressFacts(address, { tokens: [], historyLimit: HISTORY_LIMIT }, signal);
    } catch (err) {
      if (isDeadline(signal)) return null;
      throw err;
    }
  }

  return {
    capabilities: capabilitiesFor(Object.keys(deps.chainClients) as Chain[]),

    async analyze(req: AnalysisRequest, signal: AbortSignal): Promise<AnalysisResult> {
      const started = now();
      // Read once, before any lookup: the answer names the versions it was screened against.
      const provenance = await deps.lists.provenance();
      const ofac = provenance.find((l) => l.list === 'ofac');
      const pricer = createUsdPricer(deps.prices, deps.storedCloses);
      let chainMs = 0;
      const cache = { hits: 0, misses: 0 };
      const configured = deps.chainClients[req.chain] as
        | (ChainClient & { forJob?: (s: typeof cache) => ChainClient })
        | undefined;
      // An address in a format the chain's node does not read (bnb1… on binance-smart-chain) is screened on the lists.
      const format = req.apiType === 'KYA' ? addressFormatOf(req.chain, req.target) : null;
      const unreadFormat = format && !format.readOnChain ? format : null;
      // A caching client counts this job's hits and misses for its performance report.
      const client = req.maxDepth >= 1 && !unreadFormat ? (configured?.forJob?.(cache) ?? configured) : undefined;
      const crawl: CrawlReport = {
        ran: Boolean(client),
        note: null,
        complete: true,
        depth_planned: req.maxDepth,
        depth_reached: 0,
        nodes_visited: 0,
        truncated: [],
      };
      if (unreadFormat) {
        crawl.note =
          `no node reads a ${unreadFormat.name} on ${req.chain}: screened against the reference lists only, ` +
          `on-chain facts not read`;
        crawl.complete = false;
      } else if (!deps.chainClients[req.chain]) {
        crawl.note =
          `no ${req.chain} node is configured: screened against the reference lists only, ` +
          `on-chain exposure not checked`;
        crawl.complete = false;
      } else if (!client) {
        crawl.note = 'on-chain data not read: the credits available paid for a lists-only screening';
        crawl.complete = false;
      }

      let tx: ChainTransaction | null = null;
      let subject = req.target;
      let roles = new Map<string, string[]>([[req.target, ['target']]]);
      let facts: AddressFacts | null = null;
      if (req.apiType === 'KYT') {
        if (!client)
          throw new ChainConfigurationError(
            req.chain,
            `KYT on ${req.chain} needs on-chain data, which this deployment cannot read`,
          );
        const t0 = now();
        try {
          tx = await client.getTransaction(req.target, signal);
        } catch (err) {
          if (isDeadline(signal))
            throw new AnalysisDeadlineError('crawlTimeout elapsed before the transaction could be read');
          throw err;
        }
        if (!tx) throw new TransactionNotFoundError(req.chain, req.target);
        roles = partiesOf(tx);
        subject = beneficiary(tx);
        facts = await readFacts(client, subject, signal);
        chainMs += now() - t0;
      } else if (client) {
        const t0 = now();
        facts = await readFacts(client, req.target, signal);
        chainMs += now() - t0;
      }
      if (client) {
        crawl.depth_reached = 1;
        crawl.nodes_visited = roles.size;
        if (!facts) {
          crawl.complete = false;
          crawl.truncated.push('deadline');
          crawl.note =
            'crawlTimeout elapsed before the on-chain facts of the address were read; the result rests on the lists';
        }
      }

      const listsStarted = now();
      // The account's own labels join the lists' for its screenings only (allow labels on the parties only).
      const own = req.accountId && deps.customLabels ? { lookup: deps.customLabels, account: req.accountId } : null;
      const ownPartyLists = own
        ? withCustomLabels(deps.lists, own.lookup, own.account, { includeAllow: true })
        : deps.lists;
      const ownCrawlLists = own
        ? withCustomLabels(deps.lists, own.lookup, own.account, { includeAllow: false })
        : deps.lists;
      // Labels follow entities: every lookup grows the addresses' clusters within one budget for the whole job. A
      // lists-only screening (no client) still reads the clusters earlier crawls stored.
      const budget: ExpansionBudget = { calls: deps.model.document.clusters.expansion_calls, spent: 0 };
      const memberships = new Map<string, ClusterMembership>();
      const clustered = (lists: ReferenceLists) => {
        if (!deps.clusters) return lists;
        const wrapped = withClusters(lists, deps.clusters, { model: deps.model, client, budget, signal });
        return {
          provenance: wrapped.provenance,
          lookup: async (chain: Chain, addresses: readonly string[]) => {
            const found = await wrapped.lookup(chain, addresses);
            for (const [a, m] of wrapped.memberships()) memberships.set(a, m);
            return found;
          },
        } satisfies ReferenceLists;
      };
      const partyLists = clustered(ownPartyLists);
      const crawlLists = clustered(ownCrawlLists);
      const intel = await partyLists.lookup(req.chain, [...roles.keys()]);
      const listsMs = now() - listsStarted;
      const parties: Party[] = [...roles].map(([address, r]) => ({
        address,
        role: r.join(', '),
        intel: intel.get(address) ?? { sanctions: [], freezes: [], labels: [] },
      }));

      let exposure: ExposurePhase | null = null;
      if (client?.getAddressTransfers && req.maxDepth >= 2 && facts !== null && !signal.aborted) {
        exposure = await runExposurePhase({
          chain: req.chain,
          client,
          lists: crawlLists,
          model: deps.model,
          usdValue: usdValueWith(pricer),
          apiType: req.apiType,
          roots: crawlRoots(req.apiType, req.target, tx, subject),
          maxDepth: req.maxDepth,
          crawlTimeoutMs: req.crawlTimeoutMs,
          subjectIsExchange: isExchangeLabelled(intel.get(subject)?.labels ?? []),
          signal,
          now,
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

      const evidence = evidenceOf({
        parties,
        subject,
        facts,
        nowSeconds: Math.floor(now() / 1000),
        exposureNodes: exposure?.outcome.nodes ?? null,
        subjectIsExchange: isExchangeLabelled(intel.get(subject)?.labels ?? []),
      });
      const standard = scoreEvidence(standardRules(deps.model), evidence);
      const score = req.policy ? scoreEvidence(rulesOf(deps.model, req.policy), evidence) : standard;

      const holdings = tx
        ? aggregate(tx.transfers.map((t) => ({ asset: t.asset, amount: t.amount })))
        : facts
          ? [
              { asset: deps.chainClients[req.chain]!.nativeAsset as Asset, amount: facts.nativeBalance },
              ...facts.tokenBalances,
            ]
          : [];
      const { balances, pricing, unpriced } = await priced(
        pricer,
        holdings,
        tx?.timestamp ? tx.timestamp * 1000 : now(),
      );

      const reason = reasonOf(score, crawl.note);

      const response = {
        api_type: req.apiType,
        chain: req.chain,
        risk_level: score.riskLevel,
        risk_score: score.riskScore,
        response_id: randomUUID(),
        risk_reason: reason,
        rule_scores: score.ruleScores,
        target_summary: { address: subject, tags: score.tags, balances },
        ...(ofac?.version && ofac.issue_date
          ? { sanctions_list: { list: ofac.list, version: ofac.version, issue_date: ofac.issue_date } }
          : {}),
        ...(req.policy ? policyVerdict(req.policy, standard, deps.model.version) : {}),
      };
      const full: FullResponse = {
        ...response,
        hits: score.hits,
        crawl,
        graph: {
          nodes: [
            ...parties.map((p) => ({ address: p.address, role: p.role, hop: 0, labels: labelsOf(p.intel) })),
            ...(exposure?.outcome.nodes ?? []).map((n) => ({
              address: n.address,
              role: `hop ${n.hop} ${n.direction === 'in' ? 'source' : 'destination'}`,
              hop: n.hop,
              labels: n.intel ? labelsOf(n.intel) : [],
              share: Math.round(n.share * 10_000) / 10_000,
              stop: n.stop,
            })),
          ],
          edges: [
            ...(tx?.transfers ?? []).map((t) => ({
              from: t.from,
              to: t.to,
              asset: assetSymbol(t.asset),
              amount: t.amount.toString(),
              txids: [tx!.hash],
              hop: 0,
            })),
            ...(exposure?.outcome.edges ?? []),
          ],
        },
        transaction: tx
          ? {
              hash: tx.hash,
              status: tx.status,
              block_number: tx.blockNumber?.toString() ?? null,
              timestamp: tx.timestamp ? new Date(tx.timestamp * 1000).toISOString() : null,
            }
          : null,
        pricing,
        cost: { credits: analysisCost(crawl.depth_reached), depth_reached: crawl.depth_reached, rule: COST_RULE },
        unpriced_assets: unpriced,
        model: deps.model.document,
        ...(req.policy ? { policy_document: req.policy.document } : {}),
        scoring_evidence: evidence,
        lists: provenance,
        performance: {
          analysis_ms: now() - started,
          chain_ms: chainMs,
          lists_ms: listsMs,
          crawl_ms: exposure?.crawlMs ?? 0,
          crawl_requests: exposure?.outcome.requests ?? 0,
          request_budget: exposure?.limits.maxRequests ?? 0,
          nodes_visited: crawl.nodes_visited,
          cut_short: !crawl.complete,
          cache_hits: cache.hits,
          cache_misses: cache.misses,
          ...(deps.clusters ? { cluster_calls: budget.spent } : {}),
        },
        ...(deps.clusters
          ? {
              clusters: [...memberships]
                .filter(([, m]) => m.size > 1)
                .map(([address, m]) => ({ address, cluster_id: m.id, size: m.size, partial: m.partial })),
            }
          : {}),
      };
      return { response, full, depthReached: crawl.depth_reached };
    },
  };
}

export type ScreeningEngine = ReturnType<typeof createScreeningEngine>;

/** The answer's one-line reason: what drove the score, the behaviour that moved it, the policy, the crawl's caveat. */
export function reasonOf(score: ScoreResult, crawlNote: string | null): string {
  // A finding reached through a wallet cluster is named even when another finding drives the score.
  const viaCluster = score.hits.find((h) => h.via_cluster && h.score > 0);
  const clusterSentence =
    viaCluster && viaCluster.detail !== score.driver ? `through a wallet cluster: ${viaCluster.detail}` : null;
  return [
    score.driver ??
      (score.behaviourNotes.length
        ? 'No risk indicator in the reference lists'
        : 'No risk indicator in the reference lists; an absent address is unknown, not proven clean'),
    score.behaviourNotes.length ? `behaviour: ${score.behaviourNotes.join(', ')}` : null,
    ...score.policyNotes,
    clusterSentence,
    ...(score.allowNotes ?? []),
    crawlNote,
  ]
    .filter(Boolean)
    .join('; ');
}

function labelsOf(intel: Party['intel']): string[] {
  return [
    ...intel.sanctions.map(() => 'sanctions'),
    ...intel.freezes.map((f) => `${f.token} ${f.status}`),
    ...intel.labels.map((l) => l.category),
  ];
}

function aggregate(items: { asset: Asset; amount: bigint }[]): { asset: Asset; amount: bigint }[] {
  const byKey = new Map<string, { asset: Asset; amount: bigint }>();
  for (const i of items) {
    const key = i.asset.kind === 'native' ? 'native' : i.asset.contract;
    const prev = byKey.get(key);
    byKey.set(key, { asset: i.asset, amount: (prev?.amount ?? 0n) + i.amount });
  }
  return [...byKey.values()];
}
