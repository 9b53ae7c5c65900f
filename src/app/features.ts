import type { FeatureModule } from '../platform/features/feature-module';
import { screeningModule } from '../screening/module';
import { billingModule } from '../billing/module';
import { identityModule } from '../identity/module';
import { historyModule } from '../history/module';
import { marketModule } from '../market/module';
import { x402Module } from '../x402/module';
import { listsModule } from '../lists/module';
import { monitorsModule } from '../monitors/module';
import { realtimeModule } from '../realtime/module';
import { dashboardModule } from '../dashboard/module';
import { batchesModule } from '../batches/module';
import { policiesModule } from '../policies/module';
import { customLabelsModule } from '../custom-labels/module';
import { entitiesModule } from '../entities/module';
import { casesModule } from '../cases/module';

/** The features this service is made of, and nothing else: each declares its own wiring in its module.ts. */
const MODULES = [
  screeningModule,
  billingModule,
  identityModule,
  historyModule,
  marketModule,
  x402Module,
  listsModule,
  monitorsModule,
  realtimeModule,
  dashboardModule,
  batchesModule,
  policiesModule,
  customLabelsModule,
  entitiesModule,
  casesModule,
] as const satisfies readonly FeatureModule[];

export const FEATURES: readonly FeatureModule[] = MODULES;

/** The list's literal type: the one Config type is derived from the modules' config slices (src/app/config.ts). */
export type ListedModules = typeof MODULES;
