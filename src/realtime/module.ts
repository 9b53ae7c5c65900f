import path from 'node:path';
import type { FeatureModule } from '../platform/features/feature-module';
import { attachSockets } from './attach';

/** What the realtime feature declares to the composition root (src/platform/features/feature-module.ts). */
export const realtimeModule = {
  name: 'realtime',
  schema: { migrations: path.join(__dirname, 'migrations'), functions: path.join(__dirname, 'functions') },
  attach: attachSockets,
} satisfies FeatureModule;
