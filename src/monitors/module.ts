import path from 'node:path';
import type { FeatureModule } from '../platform/features/feature-module';
import { MONITORS_ERRORS } from './error-codes';
import { monitorsConfigSlice } from './config';
import { monitorsOpenApi } from './openapi';
import { monitorsActivities } from './worker-activities';
import { requestClusterMergeRescreens } from './cluster-rescreens';
import { monitorsStoppedWithUser, stopUserMonitors } from './stop-user-monitors';
import { monitorsRoutes } from './routes';
import { monitorsAccountEvents } from './account-events';

/** What the monitors feature declares to the composition root (src/platform/features/feature-module.ts). */
export const monitorsModule = {
  name: 'monitors',
  workflows: path.join(__dirname, 'workflows.ts'),
  errors: MONITORS_ERRORS,
  config: monitorsConfigSlice,
  schema: { migrations: path.join(__dirname, 'migrations'), functions: path.join(__dirname, 'functions') },
  openapi: monitorsOpenApi,
  routes: monitorsRoutes,
  // A grant resumes the owner's paused monitors; a re-screen a cluster merge recorded wakes its monitor.
  accountEvents: monitorsAccountEvents,
  // An account's deactivation stops its monitors (src/identity/ports.ts).
  // and a cluster merge makes the monitors watching the cluster due (src/entities/ports.ts).
  provides: (runtime) => ({
    accountMonitors: { stopAll: stopUserMonitors, stoppedWithAccount: monitorsStoppedWithUser },
    clusterMerged: requestClusterMergeRescreens(runtime.pool),
  }),
  activities: monitorsActivities,
  socketEvents: [
    {
      name: 'risk_changed',
      description: "A watched address's risk changed: `{monitorId, chain, address, before, after, reason, ...}`",
    },
    {
      name: 'monitor_paused',
      description: 'A monitor paused (no credits for its re-screen): `{monitorId, chain, address, reason, ...}`',
    },
    { name: 'monitor_resumed', description: 'A paused monitor resumed: `{monitorId, chain, address, reason, ...}`' },
    {
      name: 'monitor_rescreen_requested',
      description: 'A cluster merge made a monitor due: its workflow is woken',
      internal: true,
    },
  ],
} satisfies FeatureModule;
