import { proxyActivities, proxyLocalActivities } from '@temporalio/workflow';
import type { BareActivities } from './activities';

const { bareAnalyze } = proxyActivities<BareActivities>({ startToCloseTimeout: '30s' });
const { bareSettle } = proxyLocalActivities<BareActivities>({ startToCloseTimeout: '30s' });

/**
 * The screening workflow's shape (the analysis activity, then the settle as a local activity) with nothing inside:
 * the baseline of P1, P2 and P4.
 */
export async function bareScreeningWorkflow(): Promise<void> {
  await bareAnalyze();
  await bareSettle();
}
