import type { RiskLevel } from '../workflow-types';
import type { AddressFacts } from '../chains/chain-client';
import type { AddressIntel, LabelHit, SanctionHit, ViaCluster } from './reference-data';
import { clusterEvidence } from './cluster-evidence';
import { shippedRiskModel, type RiskModel } from './risk-model';
import type { ScoringRules } from './scoring-policy';
import type { Hit, RuleScores, Tag } from './types';
import { ALLOW_CATEGORY, CUSTOM_SOURCE } from './custom-labels';

/**
 * The explainable model of notes/risk-data.md §C, direct exposure only (hop 0), with every number from
 * data/risk/risk-model.json: every rule yields a sub-score, the composite is a max (worst finding
 * wins), behaviour nudges it within `behaviour.adjustment_range` but can neither lift a clean address
 * out of LOW nor pull a direct high or severe hit below HIGH.
 */
export const LEVEL_BOUNDS: Readonly<{ MEDIUM: number; HIGH: number }> = shippedRiskModel().levelBounds;

/** A high-confidence exchange or custodian label: behaviour bonus and indirect exposure capped (§C.7). */
export const isExchangeLabelled = (labels: AddressIntel['labels'], model: RiskModel = shippedRiskModel()): boolean =>
  labels.some(
    (l) =>
      l.source !== CUSTOM_SOURCE &&
      model.document.behaviour.exchange_categories.includes(l.category) &&
      l.confidence === 'high',
  );

/** An account's own label (source `custom`): it adds findings and never lowers a score (no behaviour discount). */
const isCustom = (l: AddressIntel['labels'][number]): boolean => l.source === CUSTOM_SOURCE;

export interface Party {
  address: string;
  /** "target", "sender", "recipient", "token recipient", … shown in reasons and tags. */
  role: string;
  intel: AddressIntel;
}

/**
 * What behaviour scoring reads of the subject's on-chain facts (kept as scoring evidence with the answer). `history`
 * is the subject's transfer summary under the name stored answers carry: a rescore reads it back from them.
 */
export type SubjectFacts = Pick<AddressFacts, 'isContract'> & {
  history: Pick<NonNullable<AddressFacts['transferSummary']>, 'firstSeen' | 'inboundCount' | 'truncated'> | null;
};

export interface ScoreInput {
  parties: Party[];
  /** On-chain facts of the subject address, null when no chain data was read. */
  subjectFacts: SubjectFacts | null;
  subjectLabels: AddressIntel['labels'];
  nowSeconds: number;
  /** Indirect exposure found by the crawl (rule tag_score, hop ≥ 1): tag_score = max(direct, indirect). */
  indirectHits?: Hit[];
}

export interface ScoreResult {
  ruleScores: RuleScores;
  riskScore: number;
  riskLevel: RiskLevel;
  hits: Hit[];
  tags: Tag[];
  /** The finding that drove the score, as a sentence; null when nothing was found. */
  driver: string | null;
  behaviourNotes: string[];
  /** What a customer policy changed that the hits do not say (a severe category raising the level). */
  policyNotes: string[];
  /** The account's own `allow` labels of the screened parties: shown, they change no score. */
  allowNotes?: string[];
}

export const riskLevelFor = (score: number, bounds: { MEDIUM: number; HIGH: number } = LEVEL_BOUNDS): RiskLevel =>
  score >= bounds.HIGH ? 'HIGH' : score >= bounds.MEDIUM ? 'MEDIUM' : 'LOW';

const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));
const who = (p: Party) =>
  p.role === 'target' ? 'Address' : `${p.role[0]?.toUpperCase()}${p.role.slice(1)} ${p.address}`;

function listHits(model: RiskModel, p: Party): Hit[] {
  const {
    sanctioned,
    frozen: frozenScore,
    formerly_frozen: formerlyFrozen,
    formerly_sanctioned: formerlySanctioned,
  } = model.document.direct;
  const hits: Hit[] = [];
  for (const s of p.intel.sanctions) {
    if (s.viaCluster) {
      hits.push(clusterSanctionHit(model, p, s, s.viaCluster));
      continue;
    }
    const name = s.sdnName
      ? `${s.sdnName}${s.programs.length ? ` (programs ${s.programs.join(', ')})` : ''}`
      : 'OFAC SDN listed address';
    hits.push({
      rule: 'is_sanctioned',
      score: sanctioned,
      address: p.address,
      role: p.role,
      hop: 0,
      category: 'sanctions',
      source: s.source,
      detail: `${who(p)} is on the OFAC SDN list: ${name}${s.designated ? `, designated ${s.designated}` : ''}`,
    });
  }
  // A delisted entry is context, not a sanction: is_sanctioned stays 0 and the weight is the model's.
  for (const d of p.intel.delistings ?? []) {
    hits.push({
      rule: 'tag_score',
      score: formerlySanctioned,
      address: p.address,
      role: p.role,
      hop: 0,
      category: 'sanctions_related',
      source: d.source,
      detail:
        `${who(p)} was on the OFAC SDN list${d.sdnName ? ` (${d.sdnName})` : ''} and was ` +
        `delisted on ${d.delistedOn}`,
    });
  }
  for (const f of p.intel.freezes) {
    const frozen = f.status === 'blacklisted';
    hits.push({
      rule: 'is_blacklisted',
      score: frozen ? frozenScore : formerlyFrozen,
      address: p.address,
      role: p.role,
      hop: 0,
      category: 'stablecoin_blocked',
      source: f.source,
      detail: frozen
        ? `${who(p)} is frozen by the ${f.token} issuer on ${f.chain} since ${f.since ?? 'an unknown date'}`
        : `${who(p)} was frozen by the ${f.token} issuer on ${f.chain} and released on ` +
          `${f.lastEventAt ?? 'an unknown date'}`,
    });
  }
  for (const l of p.intel.labels) {
    if (l.viaCluster) {
      const hit = clusterLabelHit(model, p, l, l.viaCluster);
      if (hit) hits.push(hit);
      continue;
    }
    if (isCustom(l)) {
      hits.push(customHit(model, p, l));
      continue;
    }
    const score = Math.round(model.severity(l.category) * model.confidenceMultiplier(l.confidence));
    if (score <= 0) continue;
    hits.push(
      partyHit(p, {
        rule: 'tag_score',
        score,
        category: l.category,
        source: l.source,
        detail:
          `${who(p)} is labelled ${l.category.replace(/_/g, ' ')}${l.name ? ` ("${l.name}")` : ''} by ` +
          `${l.source} (${l.confidence ?? 'unknown'} confidence)`,
      }),
    );
  }
  return hits;
}

/** A finding on a screened party (hop 0): what the rule found, on the party's address and in its role. */
function partyHit(p: Party, found: Omit<Hit, 'address' | 'role' | 'hop'>): Hit {
  const { rule, score, ...rest } = found;
  return { rule, score, address: p.address, role: p.role, hop: 0, ...rest };
}

/** A sanction on another address of the same cluster: the entity is sanctioned, this address is not listed itself. */
function clusterSanctionHit(model: RiskModel, p: Party, s: SanctionHit, v: ViaCluster): Hit {
  return partyHit(p, {
    rule: 'tag_score',
    score: Math.round(model.severity('sanctions') * v.weight),
    category: 'sanctions',
    source: s.source,
    detail:
      `${who(p)} belongs to the same entity as an OFAC SDN listed address` +
      `${s.sdnName ? ` (${s.sdnName})` : ''}: ${clusterEvidence(v)}`,
    via_cluster: v,
  });
}

/** A label of another address of the same cluster, weighted by its source's confidence and the merges' heuristic. */
function clusterLabelHit(model: RiskModel, p: Party, l: LabelHit, v: ViaCluster): Hit | null {
  const score = Math.round(model.severity(l.category) * v.weight);
  const attribution = model.document.behaviour.exchange_categories.includes(l.category);
  if (score <= 0 && !attribution) return null;
  return partyHit(p, {
    rule: 'tag_score',
    score,
    category: l.category,
    source: l.source,
    detail:
      `${who(p)} belongs to the same entity as an address labelled ${l.category.replace(/_/g, ' ')}` +
      `${l.name ? ` ("${l.name}")` : ''} by ${l.source === CUSTOM_SOURCE ? "the account's own list" : l.source}: ` +
      clusterEvidence(v),
    ...(l.labelId ? { label_id: l.labelId, label_name: l.name } : {}),
    via_cluster: v,
  });
}

/**
 * A hit of the account's own label: scored as a reference-list label of its category (the model's severity, high
 * confidence); an `allow` label is a finding of score 0 that changes nothing.
 */
function customHit(model: RiskModel, p: Party, l: AddressIntel['labels'][number]): Hit {
  const allow = l.category === ALLOW_CATEGORY;
  const named = `${l.name ? ` ("${l.name}")` : ''}`;
  return {
    rule: 'tag_score',
    score: allow ? 0 : Math.round(model.severity(l.category) * model.confidenceMultiplier(l.confidence)),
    address: p.address,
    role: p.role,
    hop: 0,
    category: l.category,
    source: CUSTOM_SOURCE,
    detail: allow
      ? `${who(p)} is on the account's own allow list${named} (custom label ${l.labelId ?? 'unknown'}): ` +
        'shown only, it lowers no score'
      : `${who(p)} is labelled ${l.category.replace(/_/g, ' ')}${named} by the account's own list ` +
        `(custom label ${l.labelId ?? 'unknown'})`,
    ...(l.labelId ? { label_id: l.labelId } : {}),
    label_name: l.name,
  };
}

function tagsFor(p: Party): Tag[] {
  const prefix = p.role === 'target' ? '' : `${p.role}: `;
  return [
    ...p.intel.sanctions.map((s) => ({
      name: s.sdnName ?? 'OFAC SDN',
      type: 'sanctions',
      display: s.viaCluster
        ? `${prefix}entity of an OFAC SDN address${s.sdnName ? `: ${s.sdnName}` : ''} ` +
          `(cluster ${s.viaCluster.cluster_id})`
        : `${prefix}OFAC SDN${s.sdnName ? `: ${s.sdnName}` : ''}`,
    })),
    ...(p.intel.delistings ?? []).map((d) => ({
      name: d.sdnName ?? 'OFAC SDN (delisted)',
      type: 'sanctions_related',
      display: `${prefix}formerly OFAC SDN${d.sdnName ? `: ${d.sdnName}` : ''}, delisted on ${d.delistedOn}`,
    })),
    ...p.intel.freezes.map((f) => ({
      name: `${f.token} freeze`,
      type: 'stablecoin_blocked',
      display: `${prefix}${f.token} ${f.status === 'blacklisted' ? 'frozen' : 'formerly frozen'} (${f.chain})`,
    })),
    ...p.intel.labels.map((l) => ({
      name: l.name ?? l.category,
      type: l.category,
      display:
        `${prefix}${l.category.replace(/_/g, ' ')}${l.name ? `: ${l.name}` : ''} (${l.source}` +
        `${l.viaCluster ? `, via cluster ${l.viaCluster.cluster_id}` : ''})`,
    })),
  ];
}

/** Behaviour adjustments from the subject's own transfers (§C.7); each returns [contribution, explanation]. */
function behaviour(
  model: RiskModel,
  input: ScoreInput,
): { addressType: number; activeDuration: number; receiveCount: number; notes: string[] } {
  const b = model.document.behaviour;
  const signed = (n: number) => (n > 0 ? `+${n}` : `${n}`);
  const notes: string[] = [];
  const facts = input.subjectFacts;
  const exchangeLabel = isExchangeLabelled(input.subjectLabels, model);
  let addressType = 0;
  if (exchangeLabel) {
    addressType = b.labelled_exchange;
    notes.push(`labelled exchange or custodian wallet (${signed(addressType)})`);
  } else if (facts?.isContract && input.subjectLabels.filter((l) => !isCustom(l)).length === 0) {
    addressType = b.unlabelled_contract;
    notes.push(`unlabelled contract (${signed(addressType)})`);
  }
  let activeDuration = 0;
  let receiveCount = 0;
  const transfers = facts?.history;
  if (transfers?.firstSeen != null) {
    const ageHours = (input.nowSeconds - transfers.firstSeen) / 3600;
    activeDuration = b.first_seen_within_hours.find((step) => ageHours < step.hours)?.score ?? 0;
    if (activeDuration > 0)
      notes.push(
        `first seen ` +
          `${ageHours < 24 ? `${Math.max(1, Math.round(ageHours))} h` : `${Math.round(ageHours / 24)} days`} ago ` +
          `(+${activeDuration})`,
      );
  }
  if (transfers?.inboundCount != null && !transfers.truncated && transfers.inboundCount <= b.few_inflows.at_most) {
    receiveCount = b.few_inflows.score;
    notes.push(
      `only ${transfers.inboundCount} inbound transfer${transfers.inboundCount === 1 ? '' : 's'} ` +
        `(${signed(receiveCount)})`,
    );
  }
  return { addressType, activeDuration, receiveCount, notes };
}

export function scoreParties(
  model: RiskModel,
  input: ScoreInput,
  rules?: Pick<ScoringRules, 'isSevere' | 'policy'>,
): ScoreResult {
  // OFAC files one address under several assets (ETH, USDT, ARB…): one finding each, not one per filing.
  const direct = uniqueBy(
    input.parties.flatMap((p) => listHits(model, p)),
    (h) => `${h.address}|${h.rule}|${h.detail}`,
  );
  // Stable sort: at equal scores a direct finding stays ahead of an indirect one as the driver.
  const hits = [...direct, ...(input.indirectHits ?? [])].sort((a, b) => b.score - a.score);
  const best = (rule: keyof RuleScores) => hits.find((h) => h.rule === rule)?.score ?? 0;
  const {
    direct: scores,
    behaviour: {
      adjustment_range: [minAdjustment, maxAdjustment],
    },
  } = model.document;
  const bounds = model.levelBounds;
  const b = behaviour(model, input);
  const ruleScores: RuleScores = {
    tag_score: best('tag_score'),
    is_sanctioned: best('is_sanctioned'),
    is_blacklisted: best('is_blacklisted'),
    receive_count: b.receiveCount,
    address_type: b.addressType,
    active_duration: b.activeDuration,
  };
  const adjustment = clamp(b.addressType + b.activeDuration + b.receiveCount, minAdjustment, maxAdjustment);
  const blacklistBase = ruleScores.is_blacklisted === scores.frozen ? scores.frozen_floor : ruleScores.is_blacklisted;
  const base = Math.max(ruleScores.tag_score, blacklistBase);
  let riskScore: number;
  if (ruleScores.is_sanctioned > 0) riskScore = scores.sanctioned;
  else {
    riskScore = clamp(base + adjustment, 0, 100);
    if (base === 0) riskScore = Math.min(riskScore, bounds.MEDIUM - 1);
    if (base >= bounds.HIGH) riskScore = Math.max(riskScore, bounds.HIGH);
    // Frozen funds cannot move and freezes follow law-enforcement requests: no behaviour discount below the floor.
    if (ruleScores.is_blacklisted === scores.frozen) riskScore = Math.max(riskScore, scores.frozen_floor);
  }
  const policyNotes: string[] = [];
  // A policy's severe category: any hit that counts there is HIGH, whatever its share or score.
  const severe = rules ? hits.find((h) => rules.isSevere(h.category)) : undefined;
  if (severe && riskScore < bounds.HIGH) {
    riskScore = bounds.HIGH;
    policyNotes.push(
      `policy ${rules?.policy ? `"${rules.policy.id}" v${rules.policy.version}` : ''} treats ` +
        `${severe.category.replace(/_/g, ' ')} as severe: ${severe.detail}`,
    );
  }
  // The driver is the single finding with the largest contribution (a freeze counts at its floor); an `allow`
  // finding (score 0) drives nothing.
  const driver = hits.find((h) => h.score > 0)?.detail ?? null;
  const allowNotes = hits
    .filter((h) => h.source === CUSTOM_SOURCE && h.category === ALLOW_CATEGORY)
    .map((h) => h.detail);
  return {
    ruleScores,
    riskScore,
    riskLevel: riskLevelFor(riskScore, bounds),
    hits,
    tags: uniqueBy(input.parties.flatMap(tagsFor), (t) => t.display),
    driver,
    behaviourNotes: b.notes,
    policyNotes,
    ...(allowNotes.length ? { allowNotes } : {}),
  };
}

function uniqueBy<T>(items: T[], key: (item: T) => string): T[] {
  const seen = new Set<string>();
  return items.filter((item) => {
    const k = key(item);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}
