import type { Logger } from '../platform/logging/logger';
import { alertEvidence, type StoredAnswer } from './alert-evidence';
import type { CaseWorkflowClient } from './case-workflow-client';
import type { AlertOutcome, CaseStore } from './case-store';
import type { AlertSource } from './domain/case-model';

export interface OpenCaseDeps {
  cases: Pick<CaseStore, 'recordAlert'>;
  workflows: Pick<CaseWorkflowClient, 'alert'>;
  /** MAX_OPEN_CASES_PER_ACCOUNT: each open case is a running workflow. */
  maxOpenCases: number;
  log?: Logger;
}

export interface CaseAlertInput {
  accountId: string;
  source: AlertSource;
  /** Unique per alert, so a retried or repeated delivery records it once: `job:<request id>`, `monitor-alert:…`. */
  alertKey: string;
  requestId: string | null;
  answer: StoredAnswer;
  /** A monitor's risk_changed: a case whatever the level (alert-evidence.ts). */
  always?: boolean;
}

export type OpenCaseOutcome = AlertOutcome | { outcome: 'none'; caseId: null };

/**
 * An answer that alerts (alert-evidence.ts) opens its subject's case, joins the open one, or reopens the closed one
 * with new evidence; evidence a closed case suppressed opens nothing. The alert is recorded first (one transaction,
 * serialised per subject), then handed to the case's workflow (signal-with-start): a retry of the whole call, after a
 * crash between the two, records nothing twice and signals again (the workflow keeps an alert key once).
 */
export async function openCaseForAlert(deps: OpenCaseDeps, a: CaseAlertInput): Promise<OpenCaseOutcome> {
  const evidence = alertEvidence(a.answer, { always: a.always });
  if (!evidence) return { outcome: 'none', caseId: null };
  const recorded = await deps.cases.recordAlert({
    accountId: a.accountId,
    alertKey: a.alertKey,
    source: a.source,
    requestId: a.requestId,
    evidence,
    maxOpenCases: deps.maxOpenCases,
  });
  if (recorded.outcome === 'limit')
    deps.log?.warn('case not opened: the account holds the most open cases it may', { accountId: a.accountId });
  if (recorded.outcome === 'opened' || recorded.outcome === 'joined' || recorded.outcome === 'duplicate') {
    await deps.workflows.alert(
      { caseId: recorded.caseId, accountId: a.accountId },
      {
        alertKey: a.alertKey,
        source: a.source,
        requestId: a.requestId,
        fingerprint: evidence.fingerprint,
        severity: evidence.severity,
        sanctions: evidence.sanctions,
      },
    );
  }
  return recorded;
}
