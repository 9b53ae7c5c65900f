/** What other features use of the sanctions lists. */
export { createListStore, type ListStore, type ListVersion } from './list-store';
export { createListsRouter, isStale, type ListsRouterDeps } from './lists-routes';
/** The routes' deps from the config (the api's /readyz advisory on the OFAC list's age reads the same). */
export { listsRouterDeps } from './routes';
export { ensureOfacRefresh, ensureOfacRefreshSchedule } from './refresh-schedule';
export { ofacListFresh } from './list-freshness';
export { registerListAge } from './metrics/list-age';
export { noticeMonitors } from './notify-monitors';
