import type { Pool } from 'pg';
import type { Logger } from '../src/platform/logging/logger';
import { evaluateScreening, type Evaluation } from '../src/monitors/evaluate-screening';
import { createListStore } from '../src/lists';
import { createMonitorStore } from '../src/monitors/monitors-store';
import type { ListVersionNoticeInput, MonitorPreparation } from '../src/monitors/workflow-types';
import { rescreenPolicy } from '../src/monitors/rescreen-policy';
import { holdAndRecord, type Chain, type HoldDeps, type PolicyResolver } from '../src/screening';

export type MonitorActivityDeps = Omit<HoldDeps, 'heartbeatTimeoutMs'> & {
  pool: Pool;
  log?: Logger;
  /** How a re-screen's job runs: config ANALYSIS_HEARTBEAT_TIMEOUT_MS and CRAWL_TIMEOUT_DEFAULT_MS. */
  monitorJob: { heartbeatTimeoutMs: number; crawlTimeoutMs: number };
  /** Finds the policy version each re-screen is scored under (the policies feature). */
  policies: PolicyResolver;
};

/** Monitor activities: thin adapters over src/monitors and screening's job recording. */
export function createMonitorActivities(deps: MonitorActivityDeps) {
  const monitors = createMonitorStore(deps.pool);
  const lists = createListStore(deps.pool);
  return {
    /**
     * Holds a re-screen's credits and records its job, like a submit (idempotency key: the request id the workflow
     * drew), scored under the monitor's policy as it is now (a retry keeps the version first recorded). A monitor
     * whose owner cannot pay is paused, with an alert saying so.
     */
    async prepareMonitorScreening(input: { monitorId: string; requestId: string }): Promise<MonitorPreparation> {
      const monitor = await monitors.find(input.monitorId);
      if (!monitor || monitor.status === 'deleted') return { status: 'stopped' };
      const policy = await rescreenPolicy(deps.policies, monitor);
      const held = await holdAndRecord(
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
        {},
        policy,
      );
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
    },

    /** Compares the finished re-screen with the last one; stores the alert once (key: monitor, request id). */
    async evaluateMonitorScreening(input: {
      monitorId: string;
      requestId: string;
      reasons: string[];
    }): Promise<Evaluation> {
      return evaluateScreening({ pool: deps.pool, monitors, jobs: deps.jobs }, input);
    },

    /** Un-pauses after a grant (the workflow re-screens next); a resumed alert is stored once per pause. */
    async resumeMonitor(input: { monitorId: string }): Promise<boolean> {
      const monitor = await monitors.find(input.monitorId);
      if (monitor?.status !== 'paused') return monitor?.status === 'active';
      await monitors.setPaused(monitor.id, monitor.userId, false, 'credits were granted; monitoring resumed', null);
      return true;
    },

    /** The monitors a list version touched: those watching an address its diff added, removed or changed. */
    async monitorsTouchedBy(input: ListVersionNoticeInput): Promise<string[]> {
      return monitors.watching(await lists.changedAddresses(input.versionId));
    },
  };
}

export type MonitorActivities = ReturnType<typeof createMonitorActivities>;
