/** Inputs and signals of the monitor workflows. Types only: the workflow bundle stays pure. */
export interface MonitorWorkflowInput {
  monitorId: string;
  userId: string;
  chain: string;
  /** Hours between scheduled re-screens (new transfers); list changes and requests re-screen at once. */
  everyHours: number;
  /**
   * The request id of the first screening, whose credits the create held (its hold key): the first re-screen records
   * its job under it. Absent in monitors created before issue 28 and after the first run.
   */
  firstRequestId?: string;
  /** Carried across continue-as-new: re-screens asked for and not yet done, and whether the owner could not pay. */
  pending?: string[];
  paused?: boolean;
}

export interface RescreenRequest {
  reason: string;
}

export type MonitorPreparation =
  | { status: 'ready'; input: import('../screening').ScreeningInput }
  | { status: 'insufficient_credits' }
  /** Woken by a signal nobody recorded a request for, before the schedule is due: nothing held or run. */
  | { status: 'not_due' }
  | { status: 'stopped' };

export interface ListVersionNoticeInput {
  versionId: number;
  issueDate: string;
}

/** The signal names, shared by the workflows, the api and the list refresh. */
export const MONITOR_SIGNALS = { rescreen: 'rescreen', resume: 'resume', stop: 'stop' } as const;

/** Published for the list refresh workflow, which starts the notice as a child (type-only). */
export type { listVersionNoticeWorkflow } from './workflows';
