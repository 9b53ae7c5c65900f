import type { FeatureModule } from '../platform/features/feature-module';
import { dashboardRoutes } from './routes';

/** What the dashboard feature declares to the composition root (src/platform/features/feature-module.ts). */
export const dashboardModule = {
  name: 'dashboard',
  routes: dashboardRoutes,
} satisfies FeatureModule;
