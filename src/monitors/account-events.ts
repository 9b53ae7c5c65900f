import type { AccountEventObserver } from '../platform/events/account-event';
import type { FeatureApiRuntime } from '../platform/features/feature-runtime';
import { MONITOR_RESCREEN_REQUESTED, wakeMonitorOnClusterMerge } from './cluster-rescreens';
import { createMonitorStore } from './monitors-store';
import { resumeMonitorsAfterGrant } from './resume-after-grant';

/**
 * What monitors do with the account events every api instance hears: a grant resumes the owner's paused monitors,
 * and a re-screen a cluster merge recorded (its request row makes it due) wakes the monitor's workflow. Both only
 * signal workflows, so every instance doing it changes nothing.
 */
export function monitorsAccountEvents(runtime: FeatureApiRuntime): AccountEventObserver {
  const resumeMonitors = resumeMonitorsAfterGrant({
    monitors: createMonitorStore(runtime.pool),
    temporal: runtime.temporal,
    log: runtime.log,
  });
  const wakeMonitor = wakeMonitorOnClusterMerge(runtime.temporal);
  return {
    event(e) {
      if (e.event === 'credits_granted') void resumeMonitors(e.userId);
      if (e.event === MONITOR_RESCREEN_REQUESTED && typeof e.payload.monitorId === 'string')
        void wakeMonitor(e.payload.monitorId);
    },
  };
}
