/** x402 workflows: pay-per-use reports. Deterministic code only. */
import { proxyActivities } from '@temporalio/workflow';
import type { AnalysisResult, ScreeningActivities, ScreeningInput } from '../screening/workflow-types';

/**
 * A pay-per-use KYT/KYA report (id `x402:<kind>:<uuid>`): the same analysis as a screening job, with no
 * credits involved (the report is paid in USDC, and only settled after this returns).
 */
export async function x402ReportWorkflow(input: ScreeningInput): Promise<AnalysisResult> {
  const { analyzeTarget } = proxyActivities<Pick<ScreeningActivities, 'analyzeTarget'>>({
    startToCloseTimeout: input.crawlTimeoutMs + 30_000,
    heartbeatTimeout: input.heartbeatTimeoutMs,
    retry: { initialInterval: '1s', maximumInterval: '5s', maximumAttempts: 2 },
  });
  return analyzeTarget(input);
}
