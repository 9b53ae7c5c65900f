import type { Pool } from 'pg';
import type { Check } from '../platform/health/checks';
import type { FeatureApiRuntime, FeatureRoutes } from '../platform/features/feature-runtime';
import { ofacListFresh } from './list-freshness';
import { registerListAge } from './metrics/list-age';
import type { ListsConfig } from './config';
import { createListStore } from './list-store';
import { createListsRouter, type ListsRouterDeps } from './lists-routes';

/**
 * What the lists routes (and the api's /readyz advisory on the OFAC list's age) read: the store and the OFAC
 * refresh as configured (a version older than OFAC_MAX_AGE_DAYS is stale only while refresh is on).
 */
export function listsRouterDeps(
  config: Pick<ListsConfig, 'OFAC_REFRESH_EVERY_HOURS' | 'OFAC_REFRESH_SOURCE' | 'OFAC_MAX_AGE_DAYS'>,
  pool: Pool,
): ListsRouterDeps {
  const refreshing = config.OFAC_REFRESH_EVERY_HOURS > 0;
  return {
    pool,
    lists: createListStore(pool),
    ofacRefresh: {
      enabled: refreshing,
      everyHours: config.OFAC_REFRESH_EVERY_HOURS || null,
      source: refreshing ? config.OFAC_REFRESH_SOURCE : null,
      maxAgeDays: config.OFAC_MAX_AGE_DAYS,
    },
  };
}

/**
 * The sanctions lists and the as-of lookup of one address under /api/v1/lists, over the api's runtime; the active
 * OFAC version's age is a gauge of the api's /metrics.
 */
export function listsRoutes(runtime: FeatureApiRuntime): FeatureRoutes {
  const deps = listsRouterDeps(runtime.config as ListsConfig, runtime.pool);
  registerListAge(runtime.metrics, deps.lists);
  return { v1: createListsRouter(deps) };
}

/** The operators' /readyz advisory: the OFAC list is older than OFAC_MAX_AGE_DAYS while refresh is on. */
export function listsAdvisories(runtime: FeatureApiRuntime): Record<string, Check> {
  return { lists: ofacListFresh(listsRouterDeps(runtime.config as ListsConfig, runtime.pool)) };
}
