/**
 * Monitor workflows: one long-running workflow per monitor, and the notice of a list version. Deterministic code only.
 */
import {
  condition,
  continueAsNew,
  defineSignal,
  executeChild,
  getExternalWorkflowHandle,
  ParentClosePolicy,
  patched,
  proxyActivities,
  proxyLocalActivities,
  setHandler,
  uuid4,
  workflowInfo,
} from '@temporalio/workflow';
import type { CaseActivities } from '../cases/workflow-types';
import type { MonitorActivities } from './activities';
import { monitorWorkflowId } from './workflow-ids';
import {
  type ListVersionNoticeInput,
  MONITOR_SIGNALS,
  type MonitorWorkflowInput,
  type RescreenRequest,
} from './workflow-types';
import { screeningWorkflowId } from '../screening/workflow-ids';
import type { screeningWorkflow } from '../screening/workflow-types';

const activityOptions = {
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1s', maximumInterval: '1 minute' },
} as const;
const activities = proxyActivities<MonitorActivities>(activityOptions);
/**
 * A re-screen's own steps (prepare, evaluate) as local activities: run by the worker inside the monitor's workflow
 * task, so a re-screen waits on no activity slot and costs no task-queue round trip per step (P9 in
 * docs/benchmarks.md). Each is one short transaction, idempotent under its request id: a lost worker's task times out
 * and the next worker runs the step again, which repeats nothing.
 */
const localActivities = proxyLocalActivities<MonitorActivities>(activityOptions);

/** A risk_changed alert opens or joins its address's case; bounded, so a monitor never stalls on it. */
const caseAlertOptions = {
  startToCloseTimeout: '30s',
  retry: { initialInterval: '1s', maximumInterval: '30s', maximumAttempts: 20 },
} as const;
const caseAlerts = proxyActivities<CaseActivities>(caseAlertOptions);
const localCaseAlerts = proxyLocalActivities<CaseActivities>(caseAlertOptions);

/**
 * Runs started after this patch take a re-screen's steps as local activities; a run started before it replays its
 * recorded activities. Asked once, at the start of a run, so one run never mixes the two.
 */
const RESCREEN_STEPS_LOCAL = 'monitor-rescreen-steps-as-local-activities';

export const rescreenSignal = defineSignal<[RescreenRequest]>(MONITOR_SIGNALS.rescreen);
export const resumeSignal = defineSignal(MONITOR_SIGNALS.resume);
export const stopSignal = defineSignal(MONITOR_SIGNALS.stop);

/** Re-screens per run before continue-as-new, so the history stays small however long the monitor lives. */
const RESCREENS_PER_RUN = 25;
const HOUR_MS = 3_600_000;

/**
 * One monitor (id `monitor:<id>`): re-screens its address as a screening job of its owner (same price, same
 * charge-once guarantees, child workflow `screening:<request id>`) when asked (signal `rescreen`: a list version
 * touched it, or the owner asked), and every `everyHours` for new transfers. After each it compares with the last
 * result and stores an alert when the risk changed. An owner who cannot pay pauses it until `resume` (a grant).
 * `stop` (delete) ends it. Continues as new every RESCREENS_PER_RUN re-screens, carrying what is pending.
 */
export async function monitorWorkflow(input: MonitorWorkflowInput): Promise<void> {
  const lean = patched(RESCREEN_STEPS_LOCAL);
  const steps = lean ? localActivities : activities;
  const cases = lean ? localCaseAlerts : caseAlerts;
  const pending: string[] = [...(input.pending ?? [])];
  // The create held the first screening's credits under this id: the first re-screen uses it (no uuid4 drawn).
  let firstRequestId = input.firstRequestId;
  let paused = input.paused ?? false;
  let resumed = false;
  let stopped = false;
  setHandler(rescreenSignal, ({ reason }) => {
    if (!pending.includes(reason)) pending.push(reason);
  });
  setHandler(resumeSignal, () => {
    resumed = true;
  });
  setHandler(stopSignal, () => {
    stopped = true;
  });
  // The first run of a new monitor screens at once: its baseline.
  if (!input.pending && !input.paused && workflowInfo().continuedFromExecutionRunId === undefined) {
    pending.push('monitor created');
  }

  for (let done = 0; done < RESCREENS_PER_RUN; ) {
    if (paused) {
      await condition(() => stopped || resumed);
      if (stopped) return;
      resumed = false;
      if (!(await activities.resumeMonitor({ monitorId: input.monitorId }))) return;
      paused = false;
      if (pending.length === 0) pending.push('credits granted');
      continue;
    }
    const asked = await condition(() => stopped || pending.length > 0, input.everyHours * HOUR_MS);
    if (stopped) return;
    const reasons = asked ? pending.splice(0) : ['scheduled re-screen'];
    const requestId = firstRequestId ?? uuid4();
    firstRequestId = undefined;
    const prepared = await steps.prepareMonitorScreening({ monitorId: input.monitorId, requestId });
    if (prepared.status === 'stopped') return;
    // A signal with no recorded request behind it (sent by hand through the frontend): nothing to pay for.
    if (prepared.status === 'not_due') continue;
    if (prepared.status === 'insufficient_credits') {
      paused = true;
      pending.push(...reasons.filter((r) => !pending.includes(r)));
      continue;
    }
    // The job is its owner's like any other: its own workflow id, mirror, charge and history row.
    await executeChild<typeof screeningWorkflow>('screeningWorkflow', {
      workflowId: screeningWorkflowId(requestId),
      args: [prepared.input],
      parentClosePolicy: ParentClosePolicy.ABANDON,
    });
    const evaluation = await steps.evaluateMonitorScreening({ monitorId: input.monitorId, requestId, reasons });
    if (evaluation.status === 'stopped') return;
    if (evaluation.status === 'alerted') {
      await cases.openCaseForMonitorAlert({ monitorId: input.monitorId, requestId }).catch(() => undefined);
    }
    done++;
  }
  await continueAsNew<typeof monitorWorkflow>({ ...input, firstRequestId: undefined, pending, paused });
}

/**
 * The notice of one list version (id `list-version:<version id>`, so it runs once per version): signals exactly
 * the monitors watching an address the version's diff touched, found through the watch index.
 */
export async function listVersionNoticeWorkflow(input: ListVersionNoticeInput): Promise<number> {
  const touched = await activities.monitorsTouchedBy(input);
  const reason = `sanctions list version of ${input.issueDate} (version ${input.versionId}) changed a watched address`;
  await Promise.all(
    touched.map((monitorId) =>
      getExternalWorkflowHandle(monitorWorkflowId(monitorId))
        .signal(rescreenSignal, { reason })
        // A monitor whose workflow ended (deleted meanwhile) has nothing to re-screen.
        .catch(() => undefined),
    ),
  );
  return touched.length;
}
