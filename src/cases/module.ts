import path from 'node:path';
import { casesActivities } from './worker-activities';
import type { FeatureModule } from '../platform/features/feature-module';
import { CASES_ERRORS } from './error-codes';
import { casesConfigSlice } from './config';
import { casesOpenApi } from './openapi';
import { rescoreCaseAlerts } from './cases-wiring';
import { casesConfig, casesRoutes } from './routes';

/** What the cases feature declares to the composition root (src/platform/features/feature-module.ts). */
export const casesModule = {
  name: 'cases',
  workflows: path.join(__dirname, 'workflows.ts'),
  errors: CASES_ERRORS,
  config: casesConfigSlice,
  schema: { migrations: path.join(__dirname, 'migrations'), functions: path.join(__dirname, 'functions') },
  openapi: casesOpenApi,
  routes: casesRoutes,
  // A rescore's verdict opens or joins its subject's case (src/screening/ports.ts).
  provides: (runtime) => ({
    rescored: rescoreCaseAlerts(runtime.pool, runtime.temporal, casesConfig(runtime), runtime.log),
  }),
  activities: casesActivities,
  socketEvents: [
    {
      name: 'case_updated',
      description:
        "A case's trail grew (an action, an alert, the SLA): `{caseId, seq, action, state, severity, assigneeId, at}`",
    },
    {
      name: 'case_escalated',
      description: 'A case passed its SLA and was escalated: the same payload as `case_updated`',
    },
  ],
} satisfies FeatureModule;
