import type { AddressFacts } from '../chains/chain-client';
import type { ExposureNode } from './exposure-crawl';
import { indirectExposureHits } from './indirect-exposure';
import type { AddressIntel } from './reference-data';
import { scoreParties, type Party, type ScoreResult, type SubjectFacts } from './scoring';
import type { ScoringRules } from './scoring-policy';

/**
 * Everything scoring read, kept with the answer (`scoring_evidence` of the full response) so a stored job can be scored
 * again under another policy without a chain call or a reference data lookup: the screened parties with what the
 * reference data said of them, the subject's behaviour facts, the moment scored, and the crawl's listed nodes.
 */
export interface ScoringEvidence {
  parties: Party[];
  subject: string;
  subject_facts: SubjectFacts | null;
  now_seconds: number;
  /**
   * Only the nodes the reference data knows (nothing else can make a hit), with share, USD and path; null without a
   * crawl.
   */
  exposure: {
    nodes: Pick<ExposureNode, 'address' | 'hop' | 'direction' | 'share' | 'usd' | 'path' | 'intel'>[];
    subject_is_exchange: boolean;
  } | null;
}

export function evidenceOf(input: {
  parties: Party[];
  subject: string;
  facts: AddressFacts | null;
  nowSeconds: number;
  exposureNodes: ExposureNode[] | null;
  subjectIsExchange: boolean;
}): ScoringEvidence {
  const h = input.facts?.transferSummary;
  return {
    parties: input.parties,
    subject: input.subject,
    subject_facts: input.facts
      ? {
          isContract: input.facts.isContract,
          history: h ? { firstSeen: h.firstSeen, inboundCount: h.inboundCount, truncated: h.truncated } : null,
        }
      : null,
    now_seconds: input.nowSeconds,
    exposure: input.exposureNodes
      ? {
          nodes: input.exposureNodes
            .filter((n) => n.intel && n.hop >= 1)
            .map(({ address, hop, direction, share, usd, path, intel }) => ({
              address,
              hop,
              direction,
              share,
              usd,
              path,
              intel,
            })),
          subject_is_exchange: input.subjectIsExchange,
        }
      : null,
  };
}

const NO_INTEL: AddressIntel = { sanctions: [], freezes: [], labels: [] };

/** Scores the evidence under the rules: the standard model's, or a customer policy's. Pure: no I/O. */
export function scoreEvidence(rules: ScoringRules, evidence: ScoringEvidence): ScoreResult {
  const indirectHits = evidence.exposure
    ? indirectExposureHits(
        rules.model,
        evidence.exposure.nodes,
        { dustShare: rules.minShare, dustUsd: rules.minUsd },
        evidence.exposure.subject_is_exchange,
        rules,
      )
    : undefined;
  const subject = evidence.parties.find((p) => p.address === evidence.subject);
  return scoreParties(
    rules.model,
    {
      parties: evidence.parties,
      subjectFacts: evidence.subject_facts,
      subjectLabels: (subject?.intel ?? NO_INTEL).labels,
      nowSeconds: evidence.now_seconds,
      indirectHits,
    },
    rules,
  );
}
