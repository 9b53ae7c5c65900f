import type { CrawlLimits } from './crawl-limits';
import type { ExposureNode } from './exposure-crawl';
import { shippedRiskModel, type RiskModel } from './risk-model';
import type { ScoringRules } from './scoring-policy';
import type { Hit } from './types';
import type { ViaCluster } from './reference-data';
import { clusterEvidence } from './cluster-evidence';

/**
 * risk-data §C.5-6, parameters from risk-model.json `indirect`: E = min(cap, S · min(1, share /
 * saturation_share) · hop_decay^(hop−1)). OFAC has no de minimis, so a sanctioned counterparty one hop
 * away weighs at least sanctioned_hop1_floor; a labelled exchange's indirect exposure is its customers'
 * business, not its own (§C.7), so it is capped at exchange_subject_cap.
 */
// A partial model (only severities, as unit tests build) scores with the shipped parameters.
const indirectParams = (model: RiskModel) => (model.document ?? shippedRiskModel().document).indirect;

const pct = (share: number) => `${share >= 0.995 ? 100 : Math.max(1, Math.round(share * 100))} %`;

/**
 * One finding per listed node the crawl reached, scored so an analyst can re-derive it from hop, share and severity.
 */
export function indirectExposureHits(
  model: RiskModel,
  nodes: Pick<ExposureNode, 'address' | 'hop' | 'direction' | 'share' | 'usd' | 'path' | 'intel'>[],
  limits: Pick<CrawlLimits, 'dustShare' | 'dustUsd'>,
  subjectIsExchange: boolean,
  /** A customer policy's weights and hop limit (its severities are in `model`, its thresholds in `limits`). */
  rules?: Pick<ScoringRules, 'weight' | 'maxHops'>,
): Hit[] {
  const p = indirectParams(model);
  const hits: Hit[] = [];
  for (const n of nodes) {
    if (!n.intel || n.hop < 1 || n.hop > (rules?.maxHops ?? Number.POSITIVE_INFINITY)) continue;
    const findings: {
      severity: number;
      category: string;
      source: string | null;
      what: string;
      sanction: boolean;
      via?: ViaCluster;
    }[] = [
      ...n.intel.sanctions.map((s) => ({
        severity: p.sanctioned_severity * (s.viaCluster?.weight ?? 1),
        category: 'sanctions',
        source: s.source,
        what: s.viaCluster
          ? `the entity of an OFAC SDN listed address${s.sdnName ? ` (${s.sdnName})` : ''}`
          : `an OFAC SDN listed address${s.sdnName ? ` (${s.sdnName})` : ''}`,
        sanction: true,
        via: s.viaCluster,
      })),
      ...n.intel.freezes
        .filter((f) => f.status === 'blacklisted')
        .map((f) => ({
          severity: p.frozen_severity,
          category: 'stablecoin_blocked',
          source: f.source,
          what: `a ${f.token}-frozen address`,
          sanction: false,
        })),
      ...n.intel.labels.map((l) => ({
        severity:
          model.severity(l.category) * (l.viaCluster ? l.viaCluster.weight : model.confidenceMultiplier(l.confidence)),
        category: l.category,
        source: l.source,
        what:
          `${l.viaCluster ? 'the entity of an address labelled ' : ''}${l.category.replace(/_/g, ' ')}` +
          `${l.name ? ` (${l.name})` : ''}`,
        // A label that says sanctioned (an account's own, or a dataset's) is held to the sanctions rule: no de
        // minimis, the hop-1 floor. It is still not an OFAC listing: is_sanctioned stays for the list's addresses.
        sanction: l.category === 'sanctions',
        via: l.viaCluster,
      })),
    ];
    for (const f of findings) {
      const dust = n.share < limits.dustShare || (n.usd > 0 && n.usd < limits.dustUsd);
      if (dust && !f.sanction) continue;
      // A policy can weigh sanctioned exposure up, never down: OFAC has no de minimis.
      const weight = f.sanction ? Math.max(1, rules?.weight(f.category) ?? 1) : (rules?.weight(f.category) ?? 1);
      let e = Math.min(
        p.cap,
        f.severity * weight * Math.min(1, n.share / p.saturation_share) * p.hop_decay ** (n.hop - 1),
      );
      if (f.sanction && n.hop === 1) e = Math.max(e, p.sanctioned_hop1_floor);
      if (subjectIsExchange) e = Math.min(e, p.exchange_subject_cap);
      const score = Math.round(e);
      if (score <= 0) continue;
      const flow = n.direction === 'in' ? 'inflows' : 'outflows';
      hits.push({
        rule: 'tag_score',
        score,
        address: n.address,
        role: `hop ${n.hop} ${n.direction === 'in' ? 'source' : 'destination'}`,
        hop: n.hop,
        category: f.category,
        source: f.source,
        detail:
          `${pct(n.share)} of ${n.path[0]}'s ${flow} ${n.hop === 1 ? 'directly' : `within ${n.hop} hops`} ` +
          `${n.direction === 'in' ? 'from' : 'to'} ${f.what}: ${n.path.join(' → ')}` +
          `${f.via ? `; ${clusterEvidence(f.via)}` : ''}`,
        path: n.path,
        direction: n.direction,
        usd: Math.round(n.usd * 100) / 100,
        share: Math.round(n.share * 10_000) / 10_000,
        ...(f.via ? { via_cluster: f.via } : {}),
      });
    }
  }
  return hits.sort((a, b) => b.score - a.score);
}
