/** What other parts use of monitors: the store, the routes and the resume hook for grants. */
export { createMonitorStore, type MonitorStore } from './monitors-store';
export { createMonitorsRouter, type MonitorsRouterDeps } from './monitors-routes';
export { resumeMonitorsAfterGrant } from './resume-after-grant';
export { listVersionNoticeWorkflowId } from './workflow-ids';
export type { monitorAlertListResponse, monitorAlertSchema } from './monitors-views';
export type { monitorListResponse, monitorSchema } from './monitors-views';
export type { createMonitorBody } from './monitors-routes';
export {
  MONITOR_RESCREEN_REQUESTED,
  requestClusterMergeRescreens,
  wakeMonitorOnClusterMerge,
} from './cluster-rescreens';
