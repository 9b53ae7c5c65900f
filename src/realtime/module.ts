import path from 'node:path';
import type { FeatureModule } from '../platform/features/feature-module';

/** What the realtime feature declares to the composition root (src/platform/features/feature-module.ts). */
export const realtimeModule = {
  name: 'realtime',
  schema: { migrations: path.join(__dirname, 'migrations'), functions: path.join(__dirname, 'functions') },
} satisfies FeatureModule;
