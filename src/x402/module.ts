import path from 'node:path';
import type { FeatureModule } from '../platform/features/feature-module';
import { X402_ERRORS } from './error-codes';
import { x402ConfigSlice } from './config';

/** What the x402 feature declares to the composition root (src/platform/features/feature-module.ts). */
export const x402Module: FeatureModule = {
  name: 'x402',
  errors: X402_ERRORS,
  config: x402ConfigSlice,
  schema: { migrations: path.join(__dirname, 'migrations') },
};
