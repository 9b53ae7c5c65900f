import type { CasesConfig } from './config';
import type { CaseSla } from './domain/sla';

export interface CaseSettings {
  /** MAX_OPEN_CASES_PER_ACCOUNT */
  maxOpenCases: number;
  /** CASE_SLA_SECONDS: the default SLA per severity (an account's own rows replace it). */
  slaDefaults: CaseSla;
  /** CASE_FALSE_POSITIVE_SUPPRESSION_DAYS */
  suppressFalsePositiveDays: number;
}

export function caseSettings(
  config: Pick<CasesConfig, 'MAX_OPEN_CASES_PER_ACCOUNT' | 'CASE_SLA_SECONDS' | 'CASE_FALSE_POSITIVE_SUPPRESSION_DAYS'>,
): CaseSettings {
  const sla = config.CASE_SLA_SECONDS;
  const of = (s: { assign: number; decide: number }) => ({ assignWithin: s.assign, decideWithin: s.decide });
  return {
    maxOpenCases: config.MAX_OPEN_CASES_PER_ACCOUNT,
    slaDefaults: { low: of(sla.low), medium: of(sla.medium), high: of(sla.high), critical: of(sla.critical) },
    suppressFalsePositiveDays: config.CASE_FALSE_POSITIVE_SUPPRESSION_DAYS,
  };
}
