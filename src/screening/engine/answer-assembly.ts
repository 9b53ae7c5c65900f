import { randomUUID } from 'node:crypto';
import type { ChainTransaction } from '../chains/chain-client';
import { jobCost, COST_RULE } from '../pricing';
import type { AnalysisRun, Findings, Holding } from './analysis-run';
import { assetSymbol, toDecimal } from './asset-amounts';
import type { Party, ScoreResult } from './scoring';
import { evidenceOf, scoreEvidence } from './scoring-evidence';
import { rulesOf, standardRules } from './scoring-policy';
import { policyVerdict } from './policy-verdict';
import type { AnalysisResult, Balance, FullResponse, ScreeningResponse } from './types';
import type { UsdPricer } from './usd-pricer';

/**
 * Scores what the KYA or KYT step found, under the job's policy with the standard score beside it, values its
 * holdings and assembles the answer: the response, and the full response that shows how it was reached.
 */
export async function assembleAnswer(run: AnalysisRun, findings: Findings): Promise<AnalysisResult> {
  const { input, deps, crawl } = run;
  const evidence = evidenceOf({
    parties: findings.parties,
    subject: findings.subject,
    facts: findings.facts,
    nowSeconds: Math.floor(run.now() / 1000),
    exposureNodes: findings.exposure?.outcome.nodes ?? null,
    subjectIsExchange: findings.subjectIsExchange,
  });
  // The model's own score is kept beside a policy's, so the answer shows what the policy changed.
  const standard = scoreEvidence(standardRules(deps.model), evidence);
  const score = input.policy ? scoreEvidence(rulesOf(deps.model, input.policy), evidence) : standard;
  const { balances, pricing, unpriced } = await valueHoldings(
    run.pricer,
    findings.holdings,
    findings.valuedAt ?? run.now(),
  );

  const response = responseOf(run, findings.subject, score, standard, balances);
  const full: FullResponse = {
    ...response,
    hits: score.hits,
    crawl,
    graph: graphOf(findings),
    transaction: transactionOf(findings.tx),
    pricing,
    cost: { credits: jobCost(crawl.depth_reached), depth_reached: crawl.depth_reached, rule: COST_RULE },
    unpriced_assets: unpriced,
    model: deps.model.document,
    ...(input.policy ? { policy_document: input.policy.document } : {}),
    scoring_evidence: evidence,
    lists: run.provenance,
    performance: performanceOf(run, findings),
    ...(deps.clusters
      ? {
          clusters: [...findings.memberships]
            .filter(([, m]) => m.size > 1)
            .map(([address, m]) => ({ address, cluster_id: m.id, size: m.size, partial: m.partial })),
        }
      : {}),
  };
  return { response, full, depthReached: crawl.depth_reached };
}

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

/** The response (spec 2.4): the score, why, the subject, and the list version and policy it was screened under. */
function responseOf(
  { input, deps, crawl, provenance }: AnalysisRun,
  subject: string,
  score: ScoreResult,
  standard: ScoreResult,
  balances: Balance[],
): ScreeningResponse {
  const ofac = provenance.find((l) => l.list === 'ofac');
  return {
    api_type: input.apiType,
    chain: input.chain,
    risk_level: score.riskLevel,
    risk_score: score.riskScore,
    response_id: randomUUID(),
    risk_reason: reasonOf(score, crawl.note),
    rule_scores: score.ruleScores,
    target_summary: { address: subject, tags: score.tags, balances },
    ...(ofac?.version && ofac.issue_date
      ? { sanctions_list: { list: ofac.list, version: ofac.version, issue_date: ofac.issue_date } }
      : {}),
    ...(input.policy ? policyVerdict(input.policy, standard, deps.model.version) : {}),
  };
}

/** Values holdings at `atMs`: a transaction's block time for KYT, now for a KYA balance. */
async function valueHoldings(pricer: UsdPricer, holdings: Holding[], atMs: number) {
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

/** The parties at hop 0 and the crawled addresses; the transaction's transfers and the crawled flows between them. */
function graphOf({ parties, exposure, tx }: Findings): FullResponse['graph'] {
  return {
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
  };
}

function labelsOf(intel: Party['intel']): string[] {
  return [
    ...intel.sanctions.map(() => 'sanctions'),
    ...intel.freezes.map((f) => `${f.token} ${f.status}`),
    ...intel.labels.map((l) => l.category),
  ];
}

function transactionOf(tx: ChainTransaction | null): FullResponse['transaction'] {
  return tx
    ? {
        hash: tx.hash,
        status: tx.status,
        block_number: tx.blockNumber?.toString() ?? null,
        timestamp: tx.timestamp ? new Date(tx.timestamp * 1000).toISOString() : null,
      }
    : null;
}

/** Time per phase, chain calls against the crawl's budget, and the cache and cluster calls this job made. */
function performanceOf(run: AnalysisRun, findings: Findings): FullResponse['performance'] {
  const { crawl, cache, deps } = run;
  const { exposure } = findings;
  return {
    analysis_ms: run.now() - run.startedAt,
    chain_ms: findings.chainMs,
    lists_ms: findings.listsMs,
    crawl_ms: exposure?.crawlMs ?? 0,
    crawl_requests: exposure?.outcome.requests ?? 0,
    request_budget: exposure?.limits.maxRequests ?? 0,
    nodes_visited: crawl.nodes_visited,
    cut_short: !crawl.complete,
    cache_hits: cache.hits,
    cache_misses: cache.misses,
    ...(deps.clusters ? { cluster_calls: findings.clusterBudget.spent } : {}),
  };
}
