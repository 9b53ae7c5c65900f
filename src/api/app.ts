import express, { type Express } from 'express';
import type { Pool } from 'pg';
import { createAuthenticate, type AuthDeps } from '../auth/authenticate';
import type { Logger } from '../logger';
import { createErrorHandler, unknownRoute } from './errors';
import { createApiKeysRouter } from './routes/api-keys';
import { createCreditsRouter } from './routes/credits';
import { createScreeningJobsRouter, type ScreeningRouterDeps } from './routes/screening-jobs';
import { createSyncAnalyzeRouter } from './routes/sync-analyze';
import type { CreditStore } from '../db/credits';

export interface AppDeps extends AuthDeps, ScreeningRouterDeps {
  pool: Pool;
  credits: CreditStore;
  log: Logger;
  syncAnalyzeWaitMs: number;
}

/** Builds the HTTP app from its dependencies; nothing here reads the environment or opens connections. */
export function createApp(deps: AppDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', false);
  app.use(express.json({ limit: '256kb' }));

  app.get('/health', async (_req, res) => {
    await deps.pool.query('SELECT 1');
    res.json({ success: true, data: { status: 'ok' } });
  });

  const authenticate = createAuthenticate(deps);
  const v1 = express.Router();
  v1.use(authenticate);
  v1.use(createScreeningJobsRouter(deps));
  v1.use(createSyncAnalyzeRouter({ ...deps, waitMs: deps.syncAnalyzeWaitMs }));
  v1.use(createCreditsRouter(deps));
  v1.use(createApiKeysRouter(deps));
  app.use('/api/v1', v1);

  app.use(unknownRoute);
  app.use(createErrorHandler(deps.log));
  return app;
}
