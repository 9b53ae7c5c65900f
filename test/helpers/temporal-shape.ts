import { temporalHistoryShards } from '../../src/platform/dev-services/temporal-deploy-files';
import { TEMPORAL_SERVER_VERSION } from '../../src/platform/dev-services/temporal-server-build';

/**
 * Which Temporal the jest run, the fault suite and the bench start: the CLI's dev server (one process on SQLite, the
 * default), or with TEMPORAL_SHAPE=production the production shape's: the Temporal server built from its Go module on
 * the run's Postgres, more than one history shard (src/platform/dev-services/temporal-server.ts;
 * `npm run test:production-shape`).
 */
export type TemporalShape = 'dev' | 'production';

export function temporalShape(env: NodeJS.ProcessEnv = process.env): TemporalShape {
  const shape = env.TEMPORAL_SHAPE || 'dev';
  if (shape !== 'dev' && shape !== 'production')
    throw new Error(`TEMPORAL_SHAPE=${shape}: expected dev (the default) or production`);
  return shape;
}

/** How a report names the shape it ran on. */
export const describeShape = (shape: TemporalShape): string =>
  shape === 'dev'
    ? 'Temporal dev server'
    : `production shape: Temporal server ${TEMPORAL_SERVER_VERSION} on Postgres, ` +
      `${temporalHistoryShards()} history shards`;
