import { activityInfo } from '@temporalio/activity';
import type { Pool } from 'pg';
import type { Logger } from '../platform/logging/logger';
import { inTransaction } from '../platform/db/transaction';
import { toApplicationFailure } from '../platform/errors/temporal-failures';
import { evaluateRescreen, type Evaluation } from './evaluate-rescreen';
import { createListStore } from '../lists';
import { createMonitorStore } from './monitors-store';
import type { ListVersionNoticeInput, MonitorPreparation } from './workflow-types';
import { rescreenPolicy } from './rescreen-policy';
import { assertMonitorWorkflow, claimListVersionNotice, unknownMonitor } from './authentic-workflows';
import { answerRescreenRequests, rescreenIsDue } from './rescreen-due';
import { holdAndRecordOnce, type Chain, type HoldDeps, type PolicyResolver } from '../screening';

export type MonitorActivityDeps = Omit<HoldDeps, 'heartbeatTimeoutMs'> & {
  pool: Pool;
  log?: Logger;
  /** How a re-screen's job runs: config ANALYSIS_HEARTBEAT_TIMEOUT_MS and CRAWL_TIMEOUT_DEFAULT_MS. */
  monitorJob: { heartbeatTimeoutMs: number; crawlTimeoutMs: number };
  /** Finds the policy version each re-screen is scored under (the policies feature). */
  policies: PolicyResolver;
};

/** The workflow this activity runs for (none for an activity started on its own: then it matches no monitor). */
const ownWorkflow = () => activityInfo().workflowExecution ?? { workflowId: '', runId: '' };

/** Our coded errors cross Temporal as failures of that type (MONITOR_WORKFLOW_NOT_AUTHENTIC is not retried). */
async function coded<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    throw toApplicationFailure(err);
  }
}

/**
 * Monitor activities: thin adapters over src/monitors and screening's job recording. Each first checks that its
 * workflow is the one the api started for what the input names (src/monitors/authentic-workflows.ts): a workflow
 * started by hand with a made-up or another monitor's id, or a made-up list version, screens, charges, alerts and
 * signals nothing.
 */
export function createMonitorActivities(deps: MonitorActivityDeps) {
  const monitors = createMonitorStore(deps.pool);
  const lists = createListStore(deps.pool);
  const ownMonitor = async (monitorId: string) => {
    assertMonitorWorkflow(monitorId, ownWorkflow().workflowId);
    const monitor = await monitors.find(monitorId);
    if (!monitor) throw unknownMonitor(monitorId);
    return monitor;
  };
  return {
    /**
     * Holds a re-screen's credits and records its job, like a submit, scored under the monitor's policy as it is now.
     * Idempotency key: the request id the workflow drew (the first re-screen's was drawn at create, and its hold made
     * then): a retry after the commit continues from the recorded job and the version it recorded. The monitor's row
     * is locked while the job is recorded, so a delete meanwhile either comes after (the job runs) or before (nothing
     * is recorded; the delete released the first hold). A monitor whose owner cannot pay is paused, with an alert.
     * Only a due re-screen runs (src/monitors/rescreen-due.ts): a `rescreen` signal sent by hand is `not_due`.
     */
    async prepareMonitorScreening(input: { monitorId: string; requestId: string }): Promise<MonitorPreparation> {
      return coded(async () => {
        assertMonitorWorkflow(input.monitorId, ownWorkflow().workflowId);
        const found = await monitors.find(input.monitorId);
        if (!found) throw unknownMonitor(input.monitorId);
        if (found.status === 'deleted') return { status: 'stopped' };
        const policy = await rescreenPolicy(deps.policies, found);
        const prepared = await inTransaction(deps.pool, async (client) => {
          const monitor = await monitors.lockForRescreen(client, input.monitorId);
          if (!monitor || monitor.status === 'deleted') return null;
          if (!(await rescreenIsDue(client, monitor, input.requestId))) return { monitor, held: null };
          const held = await holdAndRecordOnce(
            { ...deps, heartbeatTimeoutMs: deps.monitorJob.heartbeatTimeoutMs },
            monitor.userId,
            {
              apiType: 'KYA',
              chain: monitor.chain as Chain,
              target: monitor.address,
              crawlTimeoutMs: deps.monitorJob.crawlTimeoutMs,
              referenceId: monitor.referenceId,
            },
            input.requestId,
            policy,
            client,
          );
          if (held.kind === 'held') await answerRescreenRequests(client, monitor.id, input.requestId);
          return { monitor, held };
        });
        if (!prepared) return { status: 'stopped' };
        const { monitor, held } = prepared;
        if (!held) return { status: 'not_due' };
        if (held.kind === 'held') return { status: 'ready', input: held.input };
        await monitors.setPaused(
          monitor.id,
          monitor.userId,
          true,
          `the account cannot pay for a re-screen (${held.available} credits available, ${held.needed} needed` +
            `${held.debt > 0 ? `, ${held.debt} owed` : ''}); it resumes after a grant`,
          input.requestId,
        );
        return { status: 'insufficient_credits' };
      });
    },

    /** Compares the finished re-screen with the last one; stores the alert once (key: monitor, request id). */
    async evaluateMonitorScreening(input: {
      monitorId: string;
      requestId: string;
      reasons: string[];
    }): Promise<Evaluation> {
      return coded(async () => {
        await ownMonitor(input.monitorId);
        return evaluateRescreen({ pool: deps.pool, monitors, jobs: deps.jobs }, input);
      });
    },

    /** Un-pauses after a grant (the workflow re-screens next); a resumed alert is stored once per pause. */
    async resumeMonitor(input: { monitorId: string }): Promise<boolean> {
      return coded(async () => {
        const monitor = await ownMonitor(input.monitorId);
        if (monitor.status !== 'paused') return monitor.status === 'active';
        await monitors.setPaused(monitor.id, monitor.userId, false, 'credits were granted; monitoring resumed', null);
        return true;
      });
    },

    /**
     * The monitors a list version touched (those watching an address its diff added, removed or changed), for the
     * run that claimed the version's notice; none for any other run (see claimListVersionNotice).
     */
    async monitorsTouchedBy(input: ListVersionNoticeInput): Promise<string[]> {
      return coded(async () => {
        const { workflowId, runId } = ownWorkflow();
        if (!(await claimListVersionNotice(deps.pool, input, { workflowId, runId }))) return [];
        const touched = await monitors.watching(await lists.changedAddresses(input.versionId));
        // What makes their re-screens due: the signals the workflow sends next only wake them.
        await monitors.requestRescreens(touched, `list version ${input.versionId} changed a watched address`);
        return touched;
      });
    },
  };
}

export type MonitorActivities = ReturnType<typeof createMonitorActivities>;
