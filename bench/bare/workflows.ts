import { proxyActivities } from '@temporalio/workflow';
import type { BareActivities } from './activities';

const { bareAnalyze, bareCharge, bareRecord, bareSave } = proxyActivities<BareActivities>({
  startToCloseTimeout: '30s',
});

/** The screening workflow's shape (four activities in sequence) with nothing inside: the baseline of P1, P2 and P4. */
export async function bareScreeningWorkflow(): Promise<void> {
  await bareAnalyze();
  await bareCharge();
  await bareRecord();
  await bareSave();
}
